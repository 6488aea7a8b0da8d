"""The invariant each style of the regularizer establishes, checked on any kernel
(docs/regularize.md), and the fusing ops it is stated for."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from .._kernel.graph import BufferValue, Kernel, KernelIndex, Op
from ..errors import RegularizeError
from .results import Violation


def is_alloc(k: Kernel, buffer: str) -> bool:
    v = k.values[buffer]
    return isinstance(v, BufferValue) and v.kind == "alloc"


def unmodeled(op: Op) -> str | None:
    """Where ``op`` is (``line:column``) if the ``.mlir`` reader kept it verbatim, not modeling it;
    ``None`` for an op the graph models."""
    where = op.attr("opaque")
    return None if where is None else str(where)


def pushable(op: Op) -> bool:
    """Whether a view can be pushed through ``op``: elementwise, and modeled (an op the reader
    keeps verbatim reads and writes every value it names, in a way the graph does not know)."""
    return op.elementwise and unmodeled(op) is None


def refuse_unmodeled(uses: Iterable[tuple[Op, str]], rewrite: str) -> None:
    """``RegularizeError`` if ``rewrite`` would change an operand of an op the reader does not
    model, one of ``uses`` (docs/regularize.md, "Ops the reader does not model")."""
    for op, value in uses:
        where = unmodeled(op)
        if where is not None:
            raise RegularizeError(
                f"{rewrite} would change the operand %{value} of {op.kind} at {where}, an op the "
                "reader does not model (it may read and write all its operands)")


def check_invariant(kernel: Kernel, fusing: frozenset[str] | None = None, *,
                    style: Literal["seed", "rocmlir"] = "seed") -> tuple[Violation, ...]:
    """Where ``kernel`` breaks the invariant a regularizer of ``style`` establishes.

    ``seed``: every view between an intermediate allocation and a fusing op that uses it;
    ``fusing`` defaults to the fusion roots and every op that shares an allocation with a fusing
    op, transitively (what the regularizer would mark). ``rocmlir`` (the invariant stated in
    rocMLIR's Regularize.cpp, useful on rocMLIR's own output): an allocation whose writer writes
    it through a view while a reader also reads it through one, one violation per such reader.

    Example: a gemm root writing ``%c`` and a generic reading ``%c`` through a transpose: one
    violation, ``%c_view (1 map(s)) between %c and fusing op generic``; none after ``regularize``.
    """
    found: list[Violation] = []
    g = KernelIndex(kernel)
    if style == "rocmlir":
        for alloc in kernel.allocs():
            writers = g.writers(alloc)
            if not any(g.chain(v)[1] for _, v in writers):
                continue
            for op, value in g.readers(alloc):
                chain = g.chain(value)[1]
                if chain:
                    found.append(Violation(alloc, op.name, value, len(chain)))
        return tuple(found)
    if fusing is None:
        fusing = fusion_closure(g)
    for op in kernel.ops:
        if op.name not in fusing:
            continue
        for value in (*op.reads, *op.writes):
            buffer, chain = g.chain(value)
            if chain and is_alloc(kernel, buffer):
                found.append(Violation(buffer, op.name, value, len(chain)))
    return tuple(found)


def fusion_closure(g: KernelIndex) -> frozenset[str]:
    """The fusion roots and every op that shares an allocation with a fusing op, transitively."""
    pending = [op for op in g.kernel.ops if op.root]
    fusing = {op.name for op in pending}
    while pending:
        op = pending.pop()
        for v in (*op.reads, *op.writes):
            buffer = g.chain(v)[0]
            if not is_alloc(g.kernel, buffer):
                continue
            for other in g.using(buffer):
                if other.name not in fusing:
                    fusing.add(other.name)
                    pending.append(other)
    return frozenset(fusing)
