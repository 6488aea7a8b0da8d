"""What the seed style's patterns look at: a kernel index that also knows the fusing ops and the
allocation each one is anchored at (docs/regularize.md)."""

from __future__ import annotations

from .._graph import Kernel, KernelIndex
from .invariant import is_alloc


class FusionIndex(KernelIndex):
    """A ``KernelIndex`` with the seed's marking: the fusing ops, each anchored at the allocation it
    was reached from (``None`` for a root), the (op, operand) pairs a pattern left alone, and the
    fresh allocations that still need a zero fill."""

    __slots__ = ("anchors", "stopped", "unfilled")

    def __init__(self, kernel: Kernel) -> None:
        super().__init__(kernel)
        self.anchors: dict[str, str | None] = {op.name: None for op in kernel.ops if op.root}
        """Fusing op -> its anchor, in order of marking."""
        self.stopped: set[tuple[str, str]] = set()
        """(op, operand) pairs whose views stay; the log says why."""
        self.unfilled: dict[str, str] = {}
        """Fresh allocation -> the op that read padding through the view it replaces."""


def mark(index: FusionIndex) -> None:
    """Every user of an allocation that a fusing op uses becomes fusing, anchored there (not past
    an op that R2 cannot push through)."""
    # One pass in order of marking: an op marked later is looked at later in the same pass, and
    # an op already looked at has no unmarked user left (the graph does not change here).
    anchors = index.anchors
    names = list(anchors)
    for name in names:
        op = index.op(name)
        if anchors[name] is not None and not op.elementwise:
            continue
        for value in (*op.reads, *op.writes):
            buffer = index.chain(value)[0]
            if not is_alloc(index.kernel, buffer):
                continue
            for other in index.using(buffer):
                if other.name not in anchors:
                    anchors[other.name] = buffer
                    names.append(other.name)
