"""The invariant each style of the regularizer establishes, checked on any kernel
(docs/regularize.md), and the fusing ops it is stated for."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from .._kernel.graph import BufferValue, Kernel, KernelIndex, Op
from ..errors import RegularizeError
from .proofs import Operand, unwritten_read
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


def written(g: KernelIndex, buffer: str) -> tuple[Operand, ...]:
    """What writes ``buffer``: its writers' operands, and every use of it by an op the reader does
    not model (such an op may write all it names)."""
    writes = [*g.writers(buffer), *((op, v) for op, v in g.users(buffer) if unmodeled(op) is not None)]
    return tuple((g.kernel.shape(v), g.chain(v)[1]) for _, v in dict.fromkeys(writes))


def refuse_undefined_reads(kernel: Kernel) -> None:
    """``RegularizeError`` at the first read of an allocation element that no op writes
    (docs/regularize.md, "Reads of memory nothing wrote"), whatever the style.

    Such a read is undefined in the kernel (the interpreter reads NaN), unlike a read of padding,
    which reaches no element and reads 0. A placement would have to give it a value (the seed's
    inverse reads it as padding, rocMLIR's zero fill writes 0 there) or keep it undefined in one
    style and not the other, so both refuse. An op the reader does not model counts as writing
    every element it names (it may), and not as reading any.
    """
    g = KernelIndex(kernel)
    for alloc in kernel.allocs():
        reads = [(op, v) for op, v in dict.fromkeys(g.readers(alloc)) if unmodeled(op) is None]
        found = unwritten_read(kernel.shape(alloc),
                               tuple((kernel.shape(v), g.chain(v)[1]) for _, v in reads), written(g, alloc))
        if found is not None:
            i, point, element = found
            op, value = reads[i]
            raise RegularizeError(
                f"%{alloc}: {op.name} reads %{value} at {list(point)}, element {list(element)} of "
                f"%{alloc}, which no op writes: the read is undefined there (it is not padding), so "
                "regularize refuses the kernel (docs/regularize.md, \"Reads of memory nothing wrote\")")


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
