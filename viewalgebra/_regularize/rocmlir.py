"""rocMLIR's placement (``style="rocmlir"``), as its reworked ``--rock-regularize`` places views
(``mlir/lib/Dialect/Rock/Transforms/Regularize.cpp``; docs/regularize.md).

Each intermediate buffer's writer is classified as an input- or output-fusion write; on the input
path the writer's views move onto the readers, on the output path a single transforming reader's
views move onto the writer, and several readers are first isolated with copies. The moves are
R1's edit (``move_to_fresh``), with viewalgebra's certified inversion.
"""

from __future__ import annotations

import math
from dataclasses import replace

from .._kernel.graph import Kernel, KernelIndex, Op, with_operands
from ..errors import InternalError, RegularizeError
from .invariant import fusion_closure, refuse_unmodeled, unmodeled
from .patterns import fill_before_writers, move_to_fresh
from .results import Regularized, Rewrite


def regularize_rocmlir(kernel: Kernel, max_iterations: int) -> Regularized:
    """rocMLIR's placement on a copy of ``kernel``.

    Every rewrite (an input- or output-path move, or the copies for several readers) lowers
    ``_pending`` by one, which is checked, so the worklist runs dry (docs/regularize.md,
    "Termination").
    """
    k = kernel.copy()
    log: list[Rewrite] = []
    for op in k.ops:
        if op.kind == "linalg.generic" and not op.elementwise:
            raise RegularizeError(
                f"{op.name}: Only fully parallel supported (iterator types "
                f"{list(op.attr('iterator_types', ()))}): the linalg.generic is explicitly marked illegal")
    if not any(op.root for op in k.ops):
        return Regularized(k, frozenset(), ())
    g = KernelIndex(k)
    output_writes, input_writes = _classify(g)
    used = k.used_values()
    worklist = [a for a in k.allocs() if a in used]
    pending = _pending(g, output_writes, input_writes)
    for _ in range(max_iterations):
        if not worklist:
            _annotate_generics(g, log)
            return Regularized(k, fusion_closure(g), tuple(log))
        alloc = worklist.pop(0)
        # An op that reads one value twice reads the same elements twice: one reader.
        writers, readers = _modeled_writers(g, alloc), list(dict.fromkeys(g.readers(alloc)))
        if not writers and not readers:
            continue
        unknown = next((op for op in g.using(alloc) if unmodeled(op) is not None), None)
        if not writers and unknown is not None:
            if not any(g.chain(v)[1] for _, v in g.users(alloc)):
                continue  # nothing to move
            raise RegularizeError(
                f"rocMLIR's placement on %{alloc}: its only writer is {unknown.kind} at "
                f"{unmodeled(unknown)}, an op the reader does not model, and the placement needs it")
        if len(writers) != 1:
            raise RegularizeError(
                f"%{alloc}: expected one operation to write this buffer, but there are {len(writers)}")
        writer, written = writers[0]
        buffer, chain = g.chain(written)
        if (writer.name, written) in input_writes:
            if not chain:
                continue
            moved = move_to_fresh(g, writer, written, buffer, chain, "input path")
            log.append(moved.entry)
            if moved.zero_fill:
                log.append(fill_before_writers(g, moved.fresh, writer))
            _rename_writes(input_writes, written, moved.fresh, writer.name)
            worklist.append(moved.fresh)
        else:
            if (writer.name, written) not in output_writes:
                raise RegularizeError(
                    f"%{alloc}: couldn't find the writer of a buffer in the set of analyzed fusable writes "
                    f"(writer {writer.name})")
            if not any(g.chain(v)[1] for _, v in readers):
                continue
            if len(readers) == 1:
                reader, read = readers[0]
                moved = move_to_fresh(g, reader, read, alloc, g.chain(read)[1], "output path")
                log.append(moved.entry)
                if moved.zero_fill:
                    log.append(fill_before_writers(g, moved.fresh, reader))
                # Its only reader reads the fresh buffer directly: nothing is left to do there (its
                # writers are the old writer and, for a padded view, the zero fill made here).
                output_writes |= {(o.name, v) for o, v in g.writers(moved.fresh)}
            else:
                for fresh in _isolate_readers(g, alloc, writer, readers, log):
                    output_writes |= {(o.name, v) for o, v in g.writers(fresh)}
                    worklist.append(fresh)
                worklist.append(alloc)
        before, pending = pending, _pending(g, output_writes, input_writes)
        if not pending < before:
            raise InternalError(
                f"internal: {log[-1]} did not lower the termination measure ({before} -> {pending}; "
                "please report)")
    raise RegularizeError(
        f"regularize: no fixpoint after {max_iterations} rewrites ({len(k.ops)} ops); "
        f"the last: {log[-1] if log else 'none'}")


def _pending(g: KernelIndex, output_writes: set[tuple[str, str]], input_writes: set[tuple[str, str]]) -> int:
    """rocMLIR style's termination measure: the input-fusion writes through a view, plus, for each
    buffer written by an output-fusion write, its readers through a view, and one more if it has
    several readers (they get copies first). Readers are counted once per (op, value)."""
    total = 0
    for alloc in g.kernel.allocs():
        writes = {(op.name, v) for op, v in g.writers(alloc)}
        total += sum(1 for _, v in writes & input_writes if g.chain(v)[1])
        if writes & output_writes:
            readers = dict.fromkeys((op.name, v) for op, v in g.readers(alloc))
            transforming = sum(1 for _, v in readers if g.chain(v)[1])
            total += transforming + (transforming > 0 and len(readers) > 1)
    return total


def _modeled_writers(g: KernelIndex, alloc: str) -> list[tuple[Op, str]]:
    """The writers of ``alloc`` that the reader models. An op it does not model may write what it
    names: through a view, it is a write the placement would have to move, so it is refused here;
    used directly, it is not counted, and a move or copies that would change it refuse
    (docs/regularize.md, "Ops the reader does not model")."""
    uses = [(op, v) for op, v in g.users(alloc) if unmodeled(op) is not None]
    viewed = [(op, v) for op, v in uses if g.chain(v)[1]]
    if viewed:
        op, value = viewed[0]
        raise RegularizeError(
            f"rocMLIR's placement on %{alloc}: {op.kind} at {unmodeled(op)}, an op the reader does not "
            f"model, uses it through the view %{value} (it may write it there): the view would have to "
            "move and its operand change")
    return [(op, v) for op, v in g.writers(alloc) if unmodeled(op) is None]


def _annotate_generics(g: KernelIndex, log: list[Rewrite]) -> None:
    """rocMLIR's ``annotateGenericOp``: ``rock.majorTensorNumber`` is the input that fusion
    traversal follows: the only input, else the largest input rooted at a function argument
    (ties: the lower argument number; input 0 if it is rooted at one)."""
    k = g.kernel
    arguments = {a: i for i, a in enumerate(k.arguments())}
    for op in list(k.ops):
        if op.kind != "linalg.generic" or unmodeled(op) is not None:
            continue  # a generic the reader keeps verbatim is written back as it was read
        best: int | None = 0 if len(op.reads) == 1 else None
        count, number = -1, len(arguments)
        for i, value in enumerate(op.reads if best is None else ()):
            root = g.chain(value)[0]
            if root not in arguments:
                continue
            size, position = math.prod(k.shape(value)), arguments[root]
            if i == 0 or size > count or (size == count and position < number):
                best, count, number = i, size, position
        if best is None:
            log.append(Rewrite("stop", "", op.name, note="no input is rooted at a function argument: "
                               "no rock.majorTensorNumber (rocMLIR leaves it undefined)"))
            continue
        attrs = tuple(sorted({**dict(op.attrs), "rock.majorTensorNumber": best}.items()))
        g.replace(replace(op, attrs=attrs))


def _rename_writes(writes: set[tuple[str, str]], old: str, new: str, op: str) -> None:
    writes.discard((op, old))
    writes.add((op, new))


def _classify(g: KernelIndex) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """rocMLIR's output-fusion and input-fusion writes, as (op, operand) pairs, classified as
    rocMLIR's Regularize.cpp does."""
    output: set[tuple[str, str]] = set()
    inputs: set[tuple[str, str]] = set()
    arguments: list[str] = []
    pending = [(op, v) for op in g.kernel.ops if op.root for v in op.writes]
    while pending:
        op, v = pending.pop()
        if (op.name, v) in output:
            continue
        output.add((op.name, v))
        for reader, read in g.readers(g.chain(v)[0]):
            pending.extend((reader, w) for w in reader.writes)
            arguments.extend(r for r in reader.reads if r != read)
    reads = [v for op in g.kernel.ops if op.root for v in op.reads] + arguments
    while reads:
        buffer = g.chain(reads.pop())[0]
        for writer, written in g.writers(buffer):
            if (writer.name, written) not in inputs and (writer.name, written) not in output:
                inputs.add((writer.name, written))
                reads.extend(writer.reads)
    return output, inputs


def _isolate_readers(g: KernelIndex, alloc: str, writer: Op, readers: list[tuple[Op, str]],
                     log: list[Rewrite]) -> list[str]:
    """Give every reader its own copy of ``alloc``, made right after the writer."""
    k = g.kernel
    refuse_unmodeled(readers, f"copies of %{alloc} for its {len(readers)} readers")
    fresh_allocs: list[str] = []
    position = g.position(writer.name) + 1
    for reader, read in readers:
        fresh = k.alloc(k.shape(alloc), k.dtype(alloc), name=alloc)
        _, own = g.chain(read)
        moved = k.view(fresh, own, name=f"{read}_i") if own else fresh
        current = g.op(reader.name)
        g.replace(with_operands(current, [moved if r == read else r for r in current.reads],
                                [moved if w == read else w for w in current.writes]))
        copy = g.insert(position, "memref.copy", reads=[alloc], writes=[fresh], name=f"copy_{fresh}")
        position += 1
        fresh_allocs.append(fresh)
        log.append(Rewrite("copy", alloc, copy.name, note=f"{reader.name} reads its own copy %{fresh}"))
    return fresh_allocs
