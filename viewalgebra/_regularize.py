"""The regularizer: push views off intermediate allocations until no view sits between an
allocation and a fusing op (docs/regularize.md), with two rewrites applied to a fixpoint.

* **R1** (an allocation rewrite): a fusing op that reaches an allocation through views gets a fresh
  allocation of the viewed shape, used directly; the inverted chain (``invert``, certified) is
  appended to every other use of the old allocation, and those users become fusing ops, anchored
  at the new allocation.
* **R2** (a fusing-op rewrite): an elementwise fusing op that reaches its anchor allocation through
  views iterates over that allocation instead; every other operand's chain is composed with the
  inverse (``out[W(x)] = f(a[V(x)])`` becomes ``out[y] = f(a[V(W⁻¹(y))])``), so views move outward.

Views end on function arguments. Ops that R2 cannot push through (reductions, non-elementwise ops,
views that are not bijections) keep their views and the log says so. Where a view read by a fusing
op has padding, the fresh allocation is filled with zeros first, so padding still reads as zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import islpy as isl

from ._budget import run_bounded
from ._cache import on_clear
from ._graph import BufferValue, Kernel, KernelIndex, Op, with_operands
from ._invert import Inverse, invert
from ._maps.relations import box, chain_function, identity_on
from ._maps.syntax import print_transform_map
from ._maps.transform_map import TransformMap
from .errors import InternalError, InvalidArgumentError, RegularizeError, ViewAlgebraError

ISL_TIMEOUT = 60.0
"""Seconds of ISL work one proof or region check may take (``QueryTimeoutError`` beyond)."""

Rule = Literal["R1", "R2", "fill", "stop", "input path", "output path", "copy"]


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One entry of the log."""

    rule: Rule
    buffer: str
    op: str
    moved: tuple[str, ...] = ()
    """The maps that moved, in rocMLIR syntax."""
    note: str = ""

    def __str__(self) -> str:
        moved = f"; moved {len(self.moved)} map(s)" if self.moved else ""
        return f"{self.rule} on %{self.buffer} at {self.op}{moved}" + (f": {self.note}" if self.note else "")


@dataclass(frozen=True, slots=True, eq=False)
class Regularized:
    """The result of ``regularize``: a new kernel, its fusing ops, and the log of rewrites."""

    kernel: Kernel
    fusing: frozenset[str]
    log: tuple[Rewrite, ...]


@dataclass(frozen=True, slots=True)
class Violation:
    """A view between an intermediate allocation and a fusing op that uses it."""

    buffer: str
    op: str
    value: str
    maps: int

    def __str__(self) -> str:
        return f"%{self.value} ({self.maps} map(s)) between %{self.buffer} and fusing op {self.op}"


def regularize(kernel: Kernel, style: Literal["seed", "rocmlir"] = "seed", *,
               max_iterations: int = 1000) -> Regularized:
    """Rewrite until nothing changes; the input kernel is left untouched.

    ``style="seed"`` applies R1 and R2 (module docstring); ``style="rocmlir"`` places views as
    rocMLIR's reworked pass does (``mlir/lib/Dialect/Rock/Transforms/Regularize.cpp``;
    docs/regularize.md): each intermediate buffer's writer is classified as an input- or
    output-fusion write; on the input path the writer's views move onto the readers, on the output
    path a single transforming reader's views move onto the writer, and several readers are first
    isolated with copies.

    Example: a gemm root writing ``%c`` and a generic reading ``%c`` through a transpose: R2 makes
    the generic iterate over ``%c`` and write its output through the inverse transpose.
    """
    if style == "rocmlir":
        return _regularize_rocmlir(kernel, max_iterations)
    if style != "seed":
        raise InvalidArgumentError(f"regularize: unknown style {style!r} (expected 'seed' or 'rocmlir')")
    k = kernel.copy()
    g = KernelIndex(k)
    _check_writers(g)
    anchors: dict[str, str | None] = {op.name: None for op in k.ops if op.root}
    log: list[Rewrite] = []
    stopped: set[tuple[str, str]] = set()
    pushed = False
    for _ in range(max_iterations):
        if not pushed:  # R2 keeps every op on its buffers and anchors nothing: nothing new to mark
            _mark(g, anchors)
        pushed = _step_r2(g, anchors, log, stopped)
        if not (pushed or _step_r1(g, anchors, log, stopped)):
            return Regularized(k, frozenset(anchors), tuple(log))
    raise RegularizeError(f"regularize: no fixpoint after {max_iterations} rewrites:\n{k}")


def _check_writers(g: KernelIndex) -> None:
    for a in g.kernel.allocs():
        readers, writers = g.readers(a), g.writers(a)
        if readers and not writers:
            raise RegularizeError(
                f"%{a} is read by {readers[0][0].name} but no op writes it")
        if len(writers) > 1:
            raise RegularizeError(
                f"%{a} has several writers ({', '.join(op.name for op, _ in writers)}); "
                "regularize needs exactly one")


def _is_alloc(k: Kernel, buffer: str) -> bool:
    v = k.values[buffer]
    return isinstance(v, BufferValue) and v.kind == "alloc"


def _texts(maps: tuple[TransformMap, ...]) -> tuple[str, ...]:
    return tuple(map(_text, maps))


@lru_cache(maxsize=4096)
def _text(m: TransformMap) -> str:
    # The log lists every moved chain, and a chain of fusees moves the same few maps again and again.
    return print_transform_map(m)


on_clear(_text.cache_clear)


def _mark(g: KernelIndex, anchors: dict[str, str | None]) -> None:
    """Every user of an allocation that a fusing op uses becomes fusing, anchored there (not past
    an op that R2 cannot push through)."""
    # One pass in order of marking: an op marked later is looked at later in the same pass, and
    # an op already looked at has no unmarked user left (the graph does not change here).
    names = list(anchors)
    for name in names:
        op = g.op(name)
        if anchors[name] is not None and not op.elementwise:
            continue
        for value in (*op.reads, *op.writes):
            buffer = g.chain(value)[0]
            if not _is_alloc(g.kernel, buffer):
                continue
            for other in g.using(buffer):
                if other.name not in anchors:
                    anchors[other.name] = buffer
                    names.append(other.name)


# {{{ R1


def _step_r1(g: KernelIndex, anchors: dict[str, str | None], log: list[Rewrite],
             stopped: set[tuple[str, str]]) -> bool:
    for name, anchor in list(anchors.items()):
        op = g.op(name)
        if anchor is not None and not op.elementwise:
            continue  # a fusee R2 cannot push through stops the propagation
        for value in (*op.reads, *op.writes):
            buffer, chain = g.chain(value)
            if not chain or not _is_alloc(g.kernel, buffer) or buffer == anchor or (name, value) in stopped:
                continue
            claimed = [o.name for o, _ in g.users(buffer)
                       if o.name != name and o.name in anchors and anchors[o.name] != buffer]
            if claimed:
                stopped.add((name, value))
                log.append(Rewrite("stop", buffer, name, note=(
                    f"%{buffer} is also used by the fusing op(s) {', '.join(claimed)} from another "
                    "side: both cannot use it directly, its views stay")))
                continue
            _rewrite_r1(g, op, value, buffer, chain, anchors, log)
            return True
    return False


def _rewrite_r1(g: KernelIndex, op: Op, value: str, old: str, chain: tuple[TransformMap, ...],
                anchors: dict[str, str | None] | None, log: list[Rewrite], rule: Rule = "R1") -> str:
    """``op`` gets a fresh allocation for ``value`` (``old`` seen through ``chain``); every other
    use of ``old`` goes through the inverse onto it. Returns the fresh allocation."""
    k = g.kernel
    inverse = invert(chain)
    if inverse.maps is None:
        raise RegularizeError(
            f"{rule} on %{old}: the view %{value} that {op.name} uses is not invertible: {inverse.reason}")
    others = [(o, v) for o, v in g.users(old) if not (o.name == op.name and v == value)]
    if inverse.uncovered is not None:
        for o, v in others:
            if v in o.reads and not _inside(k, v, box(k.shape(old)) - inverse.uncovered):
                raise RegularizeError(
                    f"R1 on %{old}: the view %{value} of {op.name} covers only part of %{old}, but "
                    f"{o.name} reads %{v} outside it (the inverse is not defined on the region used)")
    fresh = k.alloc(k.shape(value), k.dtype(old), name=old)
    reading = value in op.reads
    g.replace(with_operands(op, [fresh if v == value else v for v in op.reads],
                            [fresh if v == value else v for v in op.writes]))
    for o, v in others:
        _, own = g.chain(v)
        # Proof: fresh[q] stands for old[C(q)], so reading fresh through (own, C^-1) must reach,
        # through C, exactly the elements of old that own reached (a write may lose the elements
        # no reader uses: they have no place in the fresh buffer).
        _prove(k.shape(v), own, (*own, *inverse.maps, *chain), exact=v in o.reads,
               what=f"R1 on %{old}: {o.name}'s %{v}")
        viewed = k.view(fresh, (*own, *inverse.maps), name=f"{v}_r")
        current = g.op(o.name)
        g.replace(with_operands(current, [viewed if r == v else r for r in current.reads],
                                [viewed if w == v else w for w in current.writes]))
        if anchors is not None and anchors.get(o.name, old) == old:
            anchors[o.name] = fresh
    log.append(Rewrite(rule, old, op.name, _texts(chain),
                       f"{op.name} uses the fresh %{fresh} directly; the inverse moved onto "
                       + (", ".join(sorted({o.name for o, _ in others})) or "no other op")))
    if reading and inverse.has_padding:
        _fill_before_writers(g, fresh, op, log)
    return fresh


def _access(shape: tuple[int, ...], chain: tuple[TransformMap, ...]) -> isl.Map:
    """What an operand of this shape reaches through the chain: point -> buffer coordinates."""
    if chain:
        return isl.Map.from_pw_multi_aff(chain_function(chain))
    return identity_on(box(shape))


def _prove(shape: tuple[int, ...], before: tuple[TransformMap, ...], after: tuple[TransformMap, ...],
           *, exact: bool, what: str) -> None:
    """ISL's check that an operand reaches the same elements after a rewrite as before."""
    if not run_bounded(_same_access, (shape, before, after, exact), ISL_TIMEOUT, what):
        raise InternalError(f"internal: {what} failed its ISL proof (please report)")


def _same_access(shape: tuple[int, ...], before: tuple[TransformMap, ...],
                 after: tuple[TransformMap, ...], exact: bool) -> bool:
    old, new = _access(shape, before), _access(shape, after)
    return new.is_equal(old) if exact else new.is_subset(old)


def _inside(k: Kernel, value: str, region: isl.Set) -> bool:
    """Whether every element that ``value`` reaches in its buffer lies in ``region``."""
    _, chain = k.chain(value)
    return run_bounded(_reaches_inside, (k.shape(value), chain, str(region)), ISL_TIMEOUT,
                       f"the region %{value} reaches")


def _reaches_inside(shape: tuple[int, ...], chain: tuple[TransformMap, ...], region: str) -> bool:
    reached = box(shape) if not chain else isl.Map.from_pw_multi_aff(chain_function(chain)).range()
    return reached.is_subset(isl.Set(region))


def _fill_before_writers(g: KernelIndex, buffer: str, reader: Op, log: list[Rewrite]) -> None:
    # The reader used to see zeros where its view had padding; nothing writes those elements of
    # the fresh allocation, so they are filled with zeros first.
    writers = [o for o, _ in g.writers(buffer)]
    position = min(g.position(w.name) for w in writers) if writers else g.position(reader.name)
    fill = g.insert(position, "linalg.fill", writes=[buffer], name=f"fill_{buffer}", value=0.0)
    log.append(Rewrite("fill", buffer, fill.name,
                       note=f"zeros where the view read by {reader.name} had padding"))


# }}}
# {{{ R2


def _step_r2(g: KernelIndex, anchors: dict[str, str | None], log: list[Rewrite],
             stopped: set[tuple[str, str]]) -> bool:
    for name, anchor in list(anchors.items()):
        if anchor is None:
            continue
        op = g.op(name)
        operand = next((v for v in (*op.reads, *op.writes) if g.chain(v)[0] == anchor and g.chain(v)[1]),
                       None)
        if operand is None or (name, operand) in stopped:
            continue
        inverse = _inverse_to_push(g, op, operand)
        if isinstance(inverse, str):
            stopped.add((name, operand))
            log.append(Rewrite("stop", anchor, name, note=inverse))
            continue
        _rewrite_r2(g, op, operand, anchor, inverse, log)
        return True
    return False


def _inverse_to_push(g: KernelIndex, op: Op, operand: str) -> Inverse | str:
    """The inverse of ``operand``'s view that R2 moves onto ``op``'s other operands, or why the
    views stay."""
    if not op.elementwise:
        return f"{op.kind} is not elementwise: its views stay, the propagation stops here"
    shapes = {g.kernel.shape(v) for v in (*op.reads, *op.writes)}
    if len(shapes) != 1:
        return f"{op.name}'s operands differ in shape: it is not elementwise with identity maps"
    try:
        inverse = invert(g.chain(operand)[1])
    except ViewAlgebraError as e:
        return f"the view %{operand} cannot be inverted: {e}"
    if inverse.maps is None or inverse.kind == "not-injective":
        return f"the view %{operand} has no inverse in rock ops ({inverse.kind}): its views stay"
    # Iterating over the whole buffer instead of the op's space: a read may skip buffer elements
    # nobody reads (not onto), but not padding the op computed with; a write may drop padding
    # points (their stores were dropped anyway), but must not reach elements it never wrote.
    if operand in op.reads and inverse.has_padding:
        return f"the view %{operand} that {op.name} reads has padding: its views stay"
    if operand in op.writes and inverse.kind != "bijective":
        return (f"the view %{operand} that {op.name} writes does not cover its buffer "
                f"({inverse.kind}): its views stay")
    return inverse


def _rewrite_r2(g: KernelIndex, op: Op, operand: str, anchor: str, result: Inverse,
                log: list[Rewrite]) -> None:
    k = g.kernel
    _, chain = g.chain(operand)
    inverse, exact = result.maps, not result.has_padding
    if inverse is None:  # checked by _inverse_to_push
        raise InternalError(f"internal: R2 at {op.name}: %{operand} lost its inverse (please report)")

    def moved(v: str) -> str:
        if v == operand:
            return anchor
        buffer, own = g.chain(v)
        # Proof: the new iteration point C(x) must reach through (C^-1, own) what x reached (all
        # of it, unless x was padding of a written view: then it reached nothing that mattered).
        _prove(k.shape(v), own, (*chain, *inverse, *own), exact=exact, what=f"R2 at {op.name}: %{v}")
        return k.view(buffer, (*inverse, *own), name=f"{v}_r")

    g.replace(with_operands(op, [moved(v) for v in op.reads], [moved(v) for v in op.writes]))
    log.append(Rewrite("R2", anchor, op.name, _texts(chain),
                       f"{op.name} now iterates over %{anchor}; the inverse moved onto its other operands"))


# }}}


# {{{ rocMLIR's placement


def _regularize_rocmlir(kernel: Kernel, max_iterations: int) -> Regularized:
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
    for _ in range(max_iterations):
        if not worklist:
            _annotate_generics(g, log)
            return Regularized(k, _fusion_closure(g), tuple(log))
        alloc = worklist.pop(0)
        writers, readers = g.writers(alloc), g.readers(alloc)
        if not writers and not readers:
            continue
        if len(writers) != 1:
            raise RegularizeError(
                f"%{alloc}: expected one operation to write this buffer, but there are {len(writers)}")
        writer, written = writers[0]
        buffer, chain = g.chain(written)
        if (writer.name, written) in input_writes:
            if chain:
                fresh = _rewrite_r1(g, writer, written, buffer, chain, None, log, "input path")
                _rename_writes(input_writes, written, fresh, writer.name)
                worklist.append(fresh)
            continue
        if (writer.name, written) not in output_writes:
            raise RegularizeError(
                f"%{alloc}: couldn't find the writer of a buffer in the set of analyzed fusable writes "
                f"(writer {writer.name})")
        transforming = [(o, v) for o, v in readers if g.chain(v)[1]]
        if not transforming:
            continue
        if len(readers) == 1:
            reader, read = readers[0]
            fresh = _rewrite_r1(g, reader, read, alloc, g.chain(read)[1], None, log, "output path")
            output_writes |= {(o.name, v) for o, v in g.writers(fresh)}
            worklist.append(fresh)
            continue
        for fresh in _isolate_readers(g, alloc, writer, readers, log):
            output_writes |= {(o.name, v) for o, v in g.writers(fresh)}
            worklist.append(fresh)
        worklist.append(alloc)
    raise RegularizeError(f"regularize: no fixpoint after {max_iterations} rewrites:\n{k}")


def _annotate_generics(g: KernelIndex, log: list[Rewrite]) -> None:
    """rocMLIR's ``annotateGenericOp``: ``rock.majorTensorNumber`` is the input that fusion
    traversal follows: the only input, else the largest input rooted at a function argument
    (ties: the lower argument number; input 0 if it is rooted at one)."""
    k = g.kernel
    arguments = {a: i for i, a in enumerate(k.arguments())}
    for op in list(k.ops):
        if op.kind != "linalg.generic":
            continue
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


# }}}


def check_invariant(kernel: Kernel, fusing: frozenset[str] | None = None, *,
                    style: Literal["seed", "rocmlir"] = "seed") -> tuple[Violation, ...]:
    """Where ``kernel`` breaks the invariant a regularizer of ``style`` establishes.

    ``seed``: every view between an intermediate allocation and a fusing op that uses it;
    ``fusing`` defaults to the fusion roots and every op that shares an allocation with a fusing
    op, transitively (what the regularizer would mark). ``rocmlir`` (the invariant stated in
    rocMLIR's Regularize.cpp, useful on rocMLIR's own output): an allocation whose writer writes
    it through a view while a reader also reads it through one, one violation per such reader.
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
        fusing = _fusion_closure(g)
    for op in kernel.ops:
        if op.name not in fusing:
            continue
        for value in (*op.reads, *op.writes):
            buffer, chain = g.chain(value)
            if chain and _is_alloc(kernel, buffer):
                found.append(Violation(buffer, op.name, value, len(chain)))
    return tuple(found)


def _fusion_closure(g: KernelIndex) -> frozenset[str]:
    """The fusion roots and every op that shares an allocation with a fusing op, transitively."""
    pending = [op for op in g.kernel.ops if op.root]
    fusing = {op.name for op in pending}
    while pending:
        op = pending.pop()
        for v in (*op.reads, *op.writes):
            buffer = g.chain(v)[0]
            if not _is_alloc(g.kernel, buffer):
                continue
            for other in g.using(buffer):
                if other.name not in fusing:
                    fusing.add(other.name)
                    pending.append(other)
    return frozenset(fusing)
