"""Simplify benchmark: ``simplify`` (with its ISL certificate) beside the port of rocMLIR's
``collapseContiguousMerges``, same run.

Run: ``.venv/bin/python benchmarks/bench_simplify.py [--quick]``.

Every figure is a median of repeated runs, each from cold caches (``clear_caches``), over every
view of rocMLIR's test files. "exact" is ``simplify`` (rewrites and certificate); "rocMLIR" is
``rocmlir_collapse_merges``, which only rewrites Merge sizes and proves nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from bench_index_range import test_views  # noqa: E402
from timing import conv_family_row, median_time, print_rows  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]


def rows(quick: bool) -> list[Row]:
    """Simplify and compare_collapse, each a median over rocMLIR's test views (seconds)."""
    repeat = 3 if quick else 5
    exact_t, compare_t, port_t = [], [], []
    for _, view in test_views():
        exact_t.append(median_time(lambda v=view: va.simplify(v), repeat))
        compare_t.append(median_time(lambda v=view: va.rocmlir.compare_collapse(v), repeat))
        port_t.append(median_time(lambda v=view: va.rocmlir.rocmlir_collapse_merges(v), repeat))
    n = len(exact_t)
    port = statistics.median(port_t)
    return [(f"simplify + certificate, every view of rocMLIR's test files ({n}), median",
             statistics.median(exact_t), "rocMLIR collapse port", port, "<= 1 ms"),
            (f"compare_collapse, every view of rocMLIR's test files ({n}), median",
             statistics.median(compare_t), "rocMLIR collapse port", port, ""),
            conv_family_row("simplify", va.simplify, repeat)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args(argv).quick
    views = test_views()
    print_rows(rows(quick))
    times = sorted((median_time(lambda v=view: va.simplify(v), 3), name) for name, view in views)
    print("slowest:", ", ".join(f"{name} {t * 1e3:.2f} ms" for t, name in times[-5:]))
    shorter = [(name, s) for name, view in views if (s := va.simplify(view)).changed]
    print(f"{len(shorter)} of {len(views)} views simplify",
          *[f"{n}: {s}" for n, s in shorter[:5]], sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
