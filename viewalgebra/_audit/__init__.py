"""The audit of rocMLIR's per-thread accesses (docs/audit.md): for each load and store a thread of
``rock.gridwise_gemm`` makes, the width rocMLIR gives it beside the exact width of the same view
and the widest any thread layout rocMLIR could have chosen allows, with a verdict and a witness;
the audit of one (problem, config) through a provider of accesses (``access.py``), the default
provider of rocMLIR's own accesses (``recipes.py``), one access as MLIR (``reproducer.py``), views memoized
on the config fields they depend on (``memo.py``), the summary and the picture of many
(``report.py``, ``picture.py``), and the run of many on Dask (``run.py``, imported only there)."""
