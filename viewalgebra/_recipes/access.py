"""``ThreadAccess``: one load or store a thread of ``rock.gridwise_gemm`` makes, as the per-thread
view rocMLIR hands to ``rock.threadwise_read_into`` or ``rock.threadwise_write_all``
(docs/gridwise.md, Per-thread views).

Every recipe of the gridwise lowering returns its accesses in this form, so that the width
rocMLIR chooses (mlir/lib/Dialect/Rock/Transforms/ThreadwiseGemmLowering.cpp) and the exact
width can be asked of each in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .._maps.equations import dim_names
from .._maps.view import View
from ..errors import InvalidArgumentError

AccessKind = Literal["global_load", "lds_store", "lds_read", "global_store"]
"""Where the data moves: ``global_load`` (A or B from global memory into registers),
``lds_store`` (registers into LDS), ``lds_read`` (LDS into the registers of the matrix
instruction), ``global_store`` (C from registers into global memory)."""

AccessOperand = Literal["a", "b", "c"]


@dataclass(frozen=True, slots=True)
class ThreadAccess:
    """One thread's access: ``view`` maps rocMLIR's per-thread upper dims (for the global load
    ``[k_loop, g_block, m_block, n_block, tid, iter]``) onto the buffer the access reads or
    writes, and ``iter_dim`` names the dim rocMLIR vectorizes along.

    ``values`` is the ``numValues`` rocMLIR passes to ``getMaxVectorization`` (the size of
    ``iter``); ``vector_elements`` is N when rocMLIR's buffer element is ``vector<N x T>`` (an LDS
    buffer rocMLIR views as vectors: its access is then N wide by construction). ``iter`` then
    counts elements, and the view gives either the index of the vector (``vector_addresses``,
    rocMLIR's own form, the lane dropped) or each element's address (the lanes spelled out).

    Example: ``access.dim`` is the position of ``iter`` in ``access.view``'s upper dims.
    """

    operand: AccessOperand
    kind: AccessKind
    view: View
    iter_dim: str
    values: int
    dtype: str
    vector_elements: int = 1
    vector_addresses: bool = True

    def __post_init__(self) -> None:
        names = self.names
        if self.iter_dim not in names:
            raise InvalidArgumentError(f"{self.name}: the view has no dim {self.iter_dim!r} (its dims are "
                                       f"{', '.join(names)})")
        if self.values < 1 or self.vector_elements < 1:
            raise InvalidArgumentError(f"{self.name}: values and vector_elements must be positive")

    @property
    def name(self) -> str:
        """``a_global_load``, ``b_lds_store``, ``c_global_store``, ..."""
        return f"{self.operand}_{self.kind}"

    @property
    def names(self) -> tuple[str, ...]:
        """The view's upper dim names (rocMLIR's)."""
        if not self.view.maps:
            raise InvalidArgumentError(f"{self.name}: a per-thread view needs at least one map")
        return dim_names(self.view.maps[0], "upper")

    @property
    def dim(self) -> int:
        """The position of ``iter_dim`` among the view's upper dims."""
        return self.names.index(self.iter_dim)
