"""What the seed style's patterns look at: a kernel index that also knows the fusing ops, the
allocation each one is anchored at and how far it is from a root, and the measure that every
rewrite lowers (docs/regularize.md, "Termination")."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import zip_longest

from .._kernel.graph import Kernel, KernelIndex
from .invariant import is_alloc, pushable


class FusionIndex(KernelIndex):
    """A ``KernelIndex`` with the seed's marking: the fusing ops, each anchored at the allocation it
    was reached from (``None`` for a root) and at a depth (0 for a root, one more than the op that
    reached its anchor), the (op, operand) pairs a pattern left alone, and the fresh allocations
    that still need a zero fill."""

    __slots__ = ("anchors", "depth", "stopped", "unfilled")

    def __init__(self, kernel: Kernel) -> None:
        super().__init__(kernel)
        self.anchors: dict[str, str | None] = {op.name: None for op in kernel.ops if op.root}
        """Fusing op -> its anchor, in order of marking."""
        self.depth: dict[str, int] = dict.fromkeys(self.anchors, 0)
        """Fusing op -> its distance from a root in marking steps."""
        self.stopped: set[tuple[str, str]] = set()
        """(op, operand) pairs whose views stay; the log says why."""
        self.unfilled: dict[str, str] = {}
        """Fresh allocation -> the op that read padding through the view it replaces."""

    def anchor_at(self, op: str, buffer: str, reached_from: str) -> None:
        """Mark ``op`` fusing, anchored at ``buffer``, reached from the fusing op ``reached_from``
        (its depth is kept if it had one)."""
        self.anchors[op] = buffer
        self.depth.setdefault(op, self.depth[reached_from] + 1)


def mark(index: FusionIndex) -> None:
    """Every user of an allocation that a fusing op uses becomes fusing, anchored there (not past
    an op that R2 cannot push through, such as one the reader does not model)."""
    # One pass in order of marking: an op marked later is looked at later in the same pass, and
    # an op already looked at has no unmarked user left (the graph does not change here).
    anchors = index.anchors
    names = list(anchors)
    for name in names:
        op = index.op(name)
        if anchors[name] is not None and not pushable(op):
            continue
        for value in (*op.reads, *op.writes):
            buffer = index.chain(value)[0]
            if not is_alloc(index.kernel, buffer):
                continue
            for other in index.using(buffer):
                if other.name not in anchors:
                    index.anchor_at(other.name, buffer, name)
                    names.append(other.name)


@dataclass(frozen=True, slots=True)
class Measure:
    """The seed's termination measure: the views between an allocation and a fusing op, counted by
    level (``2 * depth`` of the op for a view on its anchor, ``2 * depth + 1`` for any other), and
    the zero fills still to make. ``<`` compares the counts level by level from level 0, then the
    fills."""

    views: tuple[int, ...]
    fills: int

    def __lt__(self, other: Measure) -> bool:
        for mine, theirs in zip_longest(self.views, other.views, fillvalue=0):
            if mine != theirs:
                return mine < theirs
        return self.fills < other.fills

    def __str__(self) -> str:
        return f"views by level {list(self.views)}, {self.fills} fill(s) to make"


def measure(index: FusionIndex) -> Measure:
    """The seed's termination measure of ``index`` now."""
    levels: Counter[int] = Counter()
    for name, anchor in index.anchors.items():
        op = index.op(name)
        for value in (*op.reads, *op.writes):
            buffer, chain = index.chain(value)
            if chain and is_alloc(index.kernel, buffer):
                levels[2 * index.depth[name] + (buffer != anchor)] += 1
    top = max(levels, default=-1)
    return Measure(tuple(levels[level] for level in range(top + 1)), len(index.unfilled))
