"""The seed style's rewrites as patterns (docs/regularize.md): each ``match`` looks at the index and
answers a small frozen value (or ``None``), each ``rewrite`` applies it, proves it with ISL, and
answers the log entry.

* **R1** (an allocation rewrite): a fusing op that reaches an allocation through views gets a fresh
  allocation of the viewed shape, used directly; the inverted chain (``invert``, certified) is
  appended to every other use of the old allocation, and those users become fusing ops, anchored
  at the new allocation.
* **R2** (a fusing-op rewrite): an elementwise fusing op that reaches its anchor allocation through
  views iterates over that allocation instead; every other operand's chain is composed with the
  inverse (``out[W(x)] = f(a[V(x)])`` becomes ``out[y] = f(a[V(W⁻¹(y))])``), so views move outward.
* **Fill**: where the view R1 replaced had padding that its op read, the fresh allocation is
  filled with zeros before its writers, so padding still reads as zero.

A site a pattern must leave alone is matched as a ``Stop``: the views stay and the log says why.
``move_to_fresh`` and ``fill_before_writers`` are R1's and Fill's edits, which rocMLIR's placement
(``rocmlir.py``) uses too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Protocol, TypeVar

from .._analyses.invert import Inverse, invert
from .._engine.budget import isl_errors
from .._engine.cache import on_clear
from .._kernel.graph import KernelIndex, Op, with_operands
from .._maps.relations import box
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap
from ..errors import InternalError, RegularizeError, ViewAlgebraError
from .fusion import FusionIndex
from .invariant import is_alloc, pushable, refuse_unmodeled, unmodeled, written
from .proofs import inside, is_identity, prove, unwritten_read
from .results import Rewrite, Rule

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Stop:
    """A site a pattern leaves alone: ``op``'s ``operands`` keep their views on ``buffer``."""

    buffer: str
    op: str
    operands: tuple[str, ...]
    note: str
    """Why, for the log."""


class Pattern(Protocol[M]):
    """A rewrite the seed's driver applies to a fixpoint."""

    remarks: ClassVar[bool]
    """Whether a rewrite can give the marking new ops to mark."""

    def match(self, index: FusionIndex) -> M | Stop | None:
        """The first site where the rewrite applies, or a site it must leave alone."""
        ...

    def rewrite(self, index: FusionIndex, match: M | Stop) -> Rewrite:
        """Apply ``match`` (proven by ISL as it is made); the log entry."""
        ...


def leave(index: FusionIndex, stop: Stop) -> Rewrite:
    """Record that ``stop``'s operands keep their views, so no pattern matches them again."""
    index.stopped.update((stop.op, v) for v in stop.operands)
    return Rewrite("stop", stop.buffer, stop.op, note=stop.note)


def _texts(maps: tuple[TransformMap, ...]) -> tuple[str, ...]:
    return tuple(map(_text, maps))


@lru_cache(maxsize=4096)
def _text(m: TransformMap) -> str:
    # The log lists every moved chain, and a chain of fusees moves the same few maps again and again.
    return print_transform_map(m)


on_clear(_text.cache_clear)


# {{{ R1


@dataclass(frozen=True, slots=True)
class R1Match:
    """``op`` reaches the allocation ``buffer`` (not its anchor) through ``chain`` as ``value``;
    ``direct`` are its other operands on ``buffer`` that will use the fresh allocation directly
    (their chain and the inverse cancel)."""

    op: str
    value: str
    buffer: str
    chain: tuple[TransformMap, ...]
    direct: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class R1:
    """A fusing op that reaches an allocation other than its anchor through views gets a fresh
    allocation of the viewed shape; every other use of the old one goes through the inverse.

    Where the op uses the allocation through several operands, the one whose inverse leaves the
    fewest of them with a view is chosen, and the rewrite is made only if fewer are left than
    before (docs/regularize.md, "Termination").

    Proof (``move_to_fresh``): the fresh ``f[q]`` stands for ``old[C(q)]``, so each other operand,
    reading ``f`` through its own chain and ``C⁻¹``, must reach through ``C`` exactly the elements of
    ``old`` it reached before (a write may lose the elements no reader uses).
    """

    remarks: ClassVar[bool] = True

    def match(self, index: FusionIndex) -> R1Match | Stop | None:
        anchors = index.anchors
        for name, anchor in list(anchors.items()):
            op = index.op(name)
            if anchor is not None and not pushable(op):
                continue  # a fusee R2 cannot push through stops the propagation
            for value in (*op.reads, *op.writes):
                buffer, chain = index.chain(value)
                if (not chain or not is_alloc(index.kernel, buffer) or buffer == anchor
                        or (name, value) in index.stopped):
                    continue
                claimed = [o.name for o, _ in index.users(buffer)
                           if o.name != name and o.name in anchors and anchors[o.name] != buffer]
                if claimed:
                    return Stop(buffer, name, (value,), (
                        f"%{buffer} is also used by the fusing op(s) {', '.join(claimed)} from another "
                        "side: both cannot use it directly, its views stay"))
                same = _on(index, op, buffer)
                if all(v == value for v in same):
                    return R1Match(name, value, buffer, chain)
                return self._several(index, op, buffer, same) or R1Match(name, value, buffer, chain)
        return None

    def _several(self, index: FusionIndex, op: Op, buffer: str, same: list[str]) -> R1Match | Stop | None:
        """``op`` uses ``buffer`` through several operands: the best of them, a ``Stop`` if none
        lowers the number with a view, ``None`` if none is invertible (the rewrite says why)."""
        viewed = [v for v in dict.fromkeys(same) if index.chain(v)[1] and (op.name, v) not in index.stopped]
        before = sum(1 for v in same if index.chain(v)[1])
        best: tuple[int, R1Match] | None = None
        for p in viewed:
            chain = index.chain(p)[1]
            try:
                inverse = invert(chain).maps
            except ViewAlgebraError:
                continue
            if inverse is None:
                continue
            shape = index.kernel.shape(p)
            direct = tuple(q for q in dict.fromkeys(same) if q != p and index.kernel.shape(q) == shape
                           and is_identity(shape, (*index.chain(q)[1], *inverse)))
            left = sum(1 for q in same if q != p and q not in direct)
            if best is None or left < best[0]:
                best = (left, R1Match(op.name, p, buffer, chain, direct))
        if best is None:
            return None
        if best[0] < before:
            return best[1]
        return Stop(buffer, op.name, tuple(viewed), _differ(op.name, buffer, same))

    def rewrite(self, index: FusionIndex, match: R1Match | Stop) -> Rewrite:
        if isinstance(match, Stop):
            return leave(index, match)
        op = index.op(match.op)
        moved = move_to_fresh(index, op, match.value, match.buffer, match.chain, "R1", match.direct)
        for other in moved.others:
            if index.anchors.get(other, match.buffer) == match.buffer:
                index.anchor_at(other, moved.fresh, op.name)
        if moved.zero_fill:
            index.unfilled[moved.fresh] = op.name
        return moved.entry


def _on(g: KernelIndex, op: Op, buffer: str) -> list[str]:
    """``op``'s operands on ``buffer``, one per position (reads, then writes)."""
    return [v for v in (*op.reads, *op.writes) if g.chain(v)[0] == buffer]


def _differ(op: str, buffer: str, same: list[str]) -> str:
    return (f"{op} uses %{buffer} through operands that differ "
            f"({', '.join('%' + v for v in dict.fromkeys(same))}): making one direct leaves as many "
            "views on it, its views stay")


@dataclass(frozen=True, slots=True)
class Moved:
    """What ``move_to_fresh`` did."""

    fresh: str
    """The fresh allocation."""
    others: tuple[str, ...]
    """The ops whose uses of the old allocation now go through the inverse onto it, in order."""
    entry: Rewrite
    zero_fill: bool
    """The op read padding through the view it lost: the fresh allocation needs zeros there."""


def move_to_fresh(g: KernelIndex, op: Op, value: str, old: str, chain: tuple[TransformMap, ...],
                  rule: Rule, direct: tuple[str, ...] = ()) -> Moved:
    """``op`` gets a fresh allocation for ``value`` (``old`` seen through ``chain``); every other
    use of ``old`` goes through the inverse onto it, but ``op``'s operands in ``direct`` (whose
    chain the inverse cancels) use it directly. R1's edit, and rocMLIR's input and output
    paths'."""
    k = g.kernel
    # Every use of old changes (op's to the fresh allocation, the others to the inverse on it).
    refuse_unmodeled(g.users(old), f"{rule} on %{old} at {op.name}")
    inverse = invert(chain)
    if inverse.maps is None:
        raise RegularizeError(
            f"{rule} on %{old}: the view %{value} that {op.name} uses is not invertible: {inverse.reason}")
    others = [(o, v) for o, v in g.users(old) if not (o.name == op.name and v == value)]
    if inverse.uncovered is not None:
        with isl_errors(f"{rule} on %{old}"):
            covered = box(k.shape(old)) - inverse.uncovered
        for o, v in others:
            if v in o.reads and not inside(k, v, covered):
                raise RegularizeError(
                    f"R1 on %{old}: the view %{value} of {op.name} covers only part of %{old}, but "
                    f"{o.name} reads %{v} outside it (the inverse is not defined on the region used)")
    fresh = k.alloc(k.shape(value), k.dtype(old), name=old)
    reading = value in op.reads
    g.replace(with_operands(op, [fresh if v == value else v for v in op.reads],
                            [fresh if v == value else v for v in op.writes]))
    for o, v in others:
        _, own = g.chain(v)
        # fresh[q] stands for old[C(q)], so reading fresh through (own, C^-1) must reach, through
        # C, exactly the elements of old that own reached (a write may lose the elements no reader
        # uses: they have no place in the fresh buffer). Used directly, fresh must reach them
        # through C alone.
        cancels = o.name == op.name and v in direct
        prove(k.shape(v), own, chain if cancels else (*own, *inverse.maps, *chain), exact=v in o.reads,
              what=f"R1 on %{old}: {o.name}'s %{v}")
        viewed = fresh if cancels else k.view(fresh, (*own, *inverse.maps), name=f"{v}_r")
        current = g.op(o.name)
        g.replace(with_operands(current, [viewed if r == v else r for r in current.reads],
                                [viewed if w == v else w for w in current.writes]))
    entry = Rewrite(rule, old, op.name, _texts(chain),
                    f"{op.name} uses the fresh %{fresh} directly; the inverse moved onto "
                    + (", ".join(sorted({o.name for o, _ in others})) or "no other op"))
    return Moved(fresh, tuple(o.name for o, _ in others), entry, reading and inverse.has_padding)


# }}}
# {{{ Fill


@dataclass(frozen=True, slots=True)
class FillMatch:
    """The fresh allocation ``buffer`` needs zeros where ``reader``'s old view had padding."""

    buffer: str
    reader: str


@dataclass(frozen=True, slots=True)
class Fill:
    """A fresh allocation whose op read padding through the view R1 replaced gets a zero fill
    before its writers. Proof: nothing else writes those elements, so they read zero as before."""

    remarks: ClassVar[bool] = True

    def match(self, index: FusionIndex) -> FillMatch | Stop | None:
        for buffer, reader in index.unfilled.items():
            return FillMatch(buffer, reader)
        return None

    def rewrite(self, index: FusionIndex, match: FillMatch | Stop) -> Rewrite:
        if isinstance(match, Stop):
            return leave(index, match)
        del index.unfilled[match.buffer]
        return fill_before_writers(index, match.buffer, index.op(match.reader))


def fill_before_writers(g: KernelIndex, buffer: str, reader: Op) -> Rewrite:
    """A ``linalg.fill`` of zeros into ``buffer`` before its first writer (before ``reader`` if
    none); the log entry."""
    # The reader used to see zeros where its view had padding; nothing writes those elements of
    # the fresh allocation, so they are filled with zeros first.
    writers = [o for o, _ in g.writers(buffer)]
    position = min(g.position(w.name) for w in writers) if writers else g.position(reader.name)
    fill = g.insert(position, "linalg.fill", writes=[buffer], name=f"fill_{buffer}", value=0.0)
    return Rewrite("fill", buffer, fill.name, note=f"zeros where the view read by {reader.name} had padding")


# }}}
# {{{ R2


@dataclass(frozen=True, slots=True)
class R2Match:
    """``op`` reaches its ``anchor`` through the view ``operand``, whose inverse moves outward;
    ``direct`` are its other operands on the anchor that will use it directly (their chain and the
    inverse cancel)."""

    op: str
    operand: str
    anchor: str
    inverse: Inverse
    direct: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class R2:
    """An elementwise fusing op that reaches its anchor through views iterates over the anchor
    instead; its other operands' chains are composed with the inverse.

    Where the op uses its anchor through several operands, the one whose inverse leaves the fewest
    of them with a view is chosen, and the rewrite is made only if fewer are left than before
    (docs/regularize.md, "Termination").

    Proof: the new iteration point ``C(x)`` must reach through ``(C⁻¹, own)`` what ``x`` reached
    through ``own`` (all of it, unless ``x`` was padding of a written view: then it reached nothing
    that mattered); an operand that uses the anchor directly must reach it through ``C`` alone.
    """

    remarks: ClassVar[bool] = False  # every op stays on its buffers and nothing is anchored anew

    def match(self, index: FusionIndex) -> R2Match | Stop | None:
        for name, anchor in list(index.anchors.items()):
            if anchor is None:
                continue
            op = index.op(name)
            same = _on(index, op, anchor)
            operand = next((v for v in same if index.chain(v)[1]), None)
            if operand is None or (name, operand) in index.stopped:
                continue
            if all(v == operand for v in same):
                inverse = _inverse_to_push(index, op, operand)
                if isinstance(inverse, str):
                    return Stop(anchor, name, (operand,), inverse)
                return R2Match(name, operand, anchor, inverse)
            return self._several(index, op, anchor, same)
        return None

    def _several(self, index: FusionIndex, op: Op, anchor: str, same: list[str]) -> R2Match | Stop:
        """``op`` uses its anchor through several operands: the best of them, or a ``Stop`` if none
        lowers the number with a view."""
        viewed = [v for v in dict.fromkeys(same) if index.chain(v)[1]]
        before = sum(1 for v in same if index.chain(v)[1])
        shape = index.kernel.shape(anchor)
        best: tuple[int, R2Match] | None = None
        causes: list[str] = []
        for p in viewed:
            inverse = _inverse_to_push(index, op, p)
            if isinstance(inverse, str):
                causes.append(inverse)
                continue
            maps = inverse.maps or ()
            direct = tuple(q for q in dict.fromkeys(same)
                           if q != p and is_identity(shape, (*maps, *index.chain(q)[1])))
            left = sum(1 for q in same if q != p and q not in direct)
            if best is None or left < best[0]:
                best = (left, R2Match(op.name, p, anchor, inverse, direct))
        if best is not None and best[0] < before:
            return best[1]
        note = _differ(op.name, anchor, same) if best is not None else "; ".join(dict.fromkeys(causes))
        return Stop(anchor, op.name, tuple(viewed), note)

    def rewrite(self, index: FusionIndex, match: R2Match | Stop) -> Rewrite:
        if isinstance(match, Stop):
            return leave(index, match)
        k, op, operand, anchor = index.kernel, index.op(match.op), match.operand, match.anchor
        _, chain = index.chain(operand)
        inverse, exact = match.inverse.maps, not match.inverse.has_padding
        if inverse is None:  # checked by _inverse_to_push
            raise InternalError(f"internal: R2 at {op.name}: %{operand} lost its inverse (please report)")

        def moved(v: str) -> str:
            if v == operand:
                return anchor
            buffer, own = index.chain(v)
            if v in match.direct:
                prove(k.shape(v), own, chain, exact=exact, what=f"R2 at {op.name}: %{v}")
                return anchor
            prove(k.shape(v), own, (*chain, *inverse, *own), exact=exact, what=f"R2 at {op.name}: %{v}")
            return k.view(buffer, (*inverse, *own), name=f"{v}_r")

        index.replace(with_operands(op, [moved(v) for v in op.reads], [moved(v) for v in op.writes]))
        return Rewrite("R2", anchor, op.name, _texts(chain),
                       f"{op.name} now iterates over %{anchor}; the inverse moved onto its other operands")


def _inverse_to_push(g: KernelIndex, op: Op, operand: str) -> Inverse | str:
    """The inverse of ``operand``'s view that R2 moves onto ``op``'s other operands, or why the
    views stay."""
    where = unmodeled(op)
    if where is not None:
        return (f"{op.kind} at {where} is an op the reader does not model: its views stay, the "
                "propagation stops here")
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
    if operand in op.reads and inverse.kind != "bijective":
        # The op would read the whole buffer: the elements its view skipped must be written, or
        # the rewrite reads memory nothing wrote (docs/regularize.md, "Reads of memory nothing wrote").
        buffer = g.chain(operand)[0]
        shape = g.kernel.shape(buffer)
        unwritten = unwritten_read(shape, ((shape, ()),), written(g, buffer))
        if unwritten is not None:
            return (f"the view %{operand} that {op.name} reads covers only part of %{buffer}, and no op "
                    f"writes element {list(unwritten[2])} of the rest: iterating over %{buffer} would "
                    "read memory nothing wrote, its views stay")
    if operand in op.writes and inverse.kind != "bijective":
        return (f"the view %{operand} that {op.name} writes does not cover its buffer "
                f"({inverse.kind}): its views stay")
    return inverse


# }}}
