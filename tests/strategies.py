"""Hypothesis strategies for consistent (``strict=True``) transform maps, buffers and views.

A map is built bottom-up from a given lower shape: the lower dims are shuffled and cut into groups,
each group gets an op whose upper dims and sizes follow that op's bound rule (``transform_map.py``),
``AddDim``s add upper dims of their own, and finally the upper dims and the ops are shuffled. A view
stacks such maps on a buffer, each map's upper shape becoming the lower shape of the next one.

Every op type occurs: PassThrough (transposes included), Pad (zero and non-zero amounts), Slice,
Embed (negative, zero and colliding coefficients), Unmerge (factorizations with unit factors),
Merge, AddDim, Broadcast (upper sizes that do not divide by the lower size), ConstDim.
``max_points`` caps the number of points of every space, so tests can enumerate each box.

Two options widen the draw (off by default, so the other tests keep their examples):
``thin=True`` makes valid sets that leave whole coordinate ranges without a valid point (buffer
dims of size 1 to 3 under Embeds of several upper dims with mixed-sign coefficients, so that
validity pins a lattice or a single value, e.g. ``Embed{1, -2}`` onto a size-1 dim keeps only
``a = 2b``); ``zero=True`` makes size-0 dims (a size-0 buffer dim, ``Slice{b, b}``, an Embed,
Broadcast or AddDim of size 0), whose boxes have no point.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

import viewalgebra as va

Draw = st.DrawFn

KINDS = ("PassThrough", "Pad", "Slice", "Embed", "Unmerge", "Merge", "AddDim", "Broadcast",
         "ConstDim")
"""The nine op types, by rocMLIR name."""

_ANY_GROUP = ("PassThrough", "Pad", "Slice", "Merge", "Broadcast", "ConstDim")
"""Op types that take a group of any number of lower dims."""
_ONE_DIM = ("Embed", "Unmerge")
"""Op types with exactly one lower dim."""

names = st.text(alphabet="abcxyz_019", min_size=1, max_size=3) | st.sampled_from(
    ["0ipad", "dim0", "k", "g", "exp0", "", "a b", 'q"t', "back\\slash", "tab\tx", "new\nline",
     "é", "->", "]", "{1}"])
"""Dim names: rocMLIR-like ones plus some that need quoting or escaping in the text syntax."""


def points(shape: Sequence[int]) -> int:
    """Number of points of the box ``shape``."""
    return math.prod(shape)


@st.composite
def shapes(draw: Draw, max_rank: int = 3, max_size: int = 8, max_points: int = 400,
           min_rank: int = 0, *, thin: bool = False, zero: bool = False) -> tuple[int, ...]:
    """A shape whose sizes are in ``[1, max_size]`` and whose box has at most ``max_points``
    (``thin``: mostly 1 to 3; ``zero``: now and then 0)."""
    rank = draw(st.integers(min_rank, max_rank))
    shape: list[int] = []
    for _ in range(rank):
        room = max_points // max(points(shape), 1)
        if zero and draw(st.integers(0, 3)) == 0:
            shape.append(0)
        elif thin and draw(st.integers(0, 3)):
            shape.append(draw(st.sampled_from([1, 1, 2, 3])))
        else:
            shape.append(draw(st.integers(1, max(1, min(max_size, room)))))
    return tuple(shape)


def _prime_factors(n: int) -> list[int]:
    factors: list[int] = []
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return factors


@dataclass
class _Budget:
    """The box volume the map would have if the undecided lower dims kept their sizes."""

    volume: int
    max_points: int

    def room(self, lower: int) -> int:
        """The largest upper volume an op replacing lower dims of volume ``lower`` may have."""
        return max(1, self.max_points // max(self.volume // max(lower, 1), 1))

    def spend(self, lower: int, upper: int) -> None:
        # a size-0 dim counts as 1: the box is empty, but the other dims still have to fit
        self.volume = self.volume // max(lower, 1) * max(upper, 1)


@dataclass
class _Op:
    """An op before the upper positions are known: its upper dims are slot numbers."""

    kind: str
    params: tuple[int, ...]
    upper_slots: tuple[int, ...]
    lower_names: tuple[str, ...]
    lower_dims: tuple[int, ...]


@st.composite
def transform_maps(draw: Draw, lower_shape: Sequence[int] | None = None, *,
                   max_points: int = 400, max_rank: int = 4, max_add_dims: int = 2,
                   thin: bool = False, zero: bool = False, passing: bool = False) -> va.TransformMap:
    """A consistent map whose lower bounds are ``lower_shape`` (drawn if not given).

    Its upper box has at most ``max(max_points, points(lower_shape))`` points (size-0 dims
    counted as 1) and at most ``max(max_rank, len(lower_shape))`` dims. ``thin`` and ``zero``
    as for ``views``; ``passing``: only ops that pass each coordinate on alone (PassThrough, Pad,
    Slice, one-term Embed), so that a thin valid set below shows in the coordinates.
    """
    if lower_shape is None:
        lower_shape = draw(shapes(max_rank=max_rank, max_points=max_points, thin=thin, zero=zero))
    lower = tuple(lower_shape)
    volume = math.prod(max(n, 1) for n in lower)
    budget = _Budget(volume, max(max_points, volume))

    # Cut a shuffled list of lower dims into groups and give each group an op type. A thin or
    # passing map mostly keeps the dims in order: ISL solves an equality for the last dim in it,
    # and a lattice shows when that dim has the coefficient that is not 1.
    ordered = (thin or passing) and draw(st.integers(0, 3)) > 0
    order = range(len(lower)) if ordered else draw(st.permutations(range(len(lower))))
    groups: list[list[int]] = []
    for d in order:
        if groups and draw(st.booleans()) and not (thin and draw(st.integers(0, 3))):
            groups[-1].append(d)
        else:
            groups.append([d])
    kinds = [draw(st.sampled_from(_kinds(g, lower, thin, passing))) for g in groups]

    # Upper rank if every op takes the fewest upper dims it can; the rest is slack.
    minimum = sum(0 if k == "ConstDim" else 1 if k in ("Merge",) + _ONE_DIM else len(g)
                  for k, g in zip(kinds, groups, strict=True))
    slack = max(max_rank, len(lower)) - minimum

    slot_sizes: list[int] = []
    slot_names: list[str] = []

    def new_slot(size: int) -> int:
        slot_sizes.append(size)
        slot_names.append(draw(names))
        return len(slot_sizes) - 1

    ops: list[_Op] = []
    for kind, group in zip(kinds, groups, strict=True):
        sizes = [lower[d] for d in group]
        lower_names = tuple(draw(names) for _ in group)
        params: list[int] = []
        slots: list[int] = []
        match kind:
            case "PassThrough":
                slots = [new_slot(s) for s in sizes]
            case "Pad":
                for s in sizes:
                    extra = min(budget.room(s) - s, 6)
                    left = draw(st.integers(0, min(extra, 3)))
                    right = draw(st.integers(0, min(extra - left, 3)))
                    params += [left, right]
                    slots.append(new_slot(s + left + right))
                    budget.spend(s, s + left + right)
            case "Slice":
                for s in sizes:
                    if zero and (s == 0 or draw(st.integers(0, 3)) == 0):
                        begin = end = draw(st.integers(0, s))
                        params += [begin, end]
                        slots.append(new_slot(0))
                        continue
                    begin = draw(st.integers(0, s - 1))
                    end = draw(st.integers(begin + 1, s))
                    params += [begin, end]
                    slots.append(new_slot(end - begin))
                    budget.spend(s, end - begin)
            case "Merge":
                params = sizes
                slots = [new_slot(math.prod(sizes))]
            case "Broadcast":
                params = sizes
                for s in sizes:
                    upper = draw(st.integers(1, min(budget.room(s), 3 * s + 2)))
                    if zero and draw(st.integers(0, 3)) == 0:
                        upper = 0
                    slots.append(new_slot(upper))
                    budget.spend(s, upper)
            case "ConstDim":
                for s in sizes:
                    params += [draw(st.integers(0, s - 1)), s]
                    budget.spend(s, 1)
            case "Unmerge":
                (s,) = sizes
                k = draw(st.integers(1, 1 + min(slack, 2)))
                slack -= k - 1
                factors = [1] * k
                for p in _prime_factors(s):
                    factors[draw(st.integers(0, k - 1))] *= p
                params = factors
                slots = [new_slot(f) for f in factors]
            case "Embed":
                (s,) = sizes
                k = 1 if passing else draw(st.integers(1 + int(thin and slack > 0), 1 + min(slack, 2)))
                slack -= k - 1
                budget.spend(s, 1)
                # A lattice: 1 and negative coefficients, so that the sum stays in a small bound
                # only on a lattice (a - 2 * b in [0, 1): a = 2b, with room for a to reach 2).
                lattice = ([1] + [-draw(st.sampled_from([1, 2, 2, 3])) for _ in range(k - 1)]
                           if thin and k > 1 and draw(st.integers(0, 3)) else None)
                upper_sizes: list[int] = []
                for i in range(k):
                    most = min(budget.room(1), 2 * max(s, 1) + 2)
                    least = min(1 - min(lattice) if lattice and i == 0 else 2 if thin else 1, most)
                    n = draw(st.integers(least, most))
                    if zero and draw(st.integers(0, 5)) == 0:
                        n = 0
                    upper_sizes.append(n)
                    budget.spend(1, n)
                if lattice is not None:
                    params = lattice if ordered else list(draw(st.permutations(lattice)))
                elif draw(st.booleans()):
                    # Row-major strides (optionally dilated): many valid points, like conv views.
                    scale = draw(st.sampled_from([1, 1, 2, -1]))
                    params = [scale * math.prod(upper_sizes[i + 1:]) for i in range(k)]
                else:
                    params = [draw(st.integers(-3, 5) | st.sampled_from([s, s - 1]))
                              for _ in range(k)]
                slots = [new_slot(n) for n in upper_sizes]
            case _:
                raise AssertionError(kind)
        ops.append(_Op(kind, tuple(params), tuple(slots), lower_names, tuple(group)))

    add_dims = draw(st.sampled_from([0, 0, 1, 1, 2, 3]))
    for _ in range(min(add_dims, max_add_dims, max(slack, 0))):
        size = draw(st.integers(1, min(budget.room(1), 5)))
        if zero and draw(st.integers(0, 3)) == 0:
            size = 0
        budget.spend(1, size)
        ops.append(_Op("AddDim", (size,), (new_slot(size),), (), ()))

    # Shuffle the upper dims (slot -> position) and the order of the ops.
    position = range(len(slot_sizes)) if ordered else draw(st.permutations(range(len(slot_sizes))))
    upper_bounds = [0] * len(slot_sizes)
    for slot, size in enumerate(slot_sizes):
        upper_bounds[position[slot]] = size
    ops = draw(st.permutations(ops))
    transforms = [
        _TYPES[op.kind](
            op.params,
            tuple(slot_names[s] for s in op.upper_slots),
            tuple(position[s] for s in op.upper_slots),
            op.lower_names,
            op.lower_dims)
        for op in ops]
    return va.TransformMap(tuple(transforms), tuple(upper_bounds), lower)


_TYPES: dict[str, type[va.transforms.Transform]] = {kind: getattr(va.transforms, kind) for kind in KINDS}


def _kinds(group: list[int], lower: tuple[int, ...], thin: bool, passing: bool) -> tuple[str, ...]:
    """The op types a group of lower dims may get: a size-0 dim takes no Merge, Broadcast,
    ConstDim or Unmerge (their rules need sizes of at least 1); ``thin`` favours Embeds;
    ``passing`` allows only ops that pass each coordinate on alone."""
    if passing:
        return ("PassThrough", "Pad", "Slice") + (("Embed",) if len(group) == 1 else ())
    if any(lower[d] == 0 for d in group):
        return ("PassThrough", "Pad", "Slice") + (("Embed",) if len(group) == 1 else ())
    if len(group) != 1:
        return _ANY_GROUP
    return _ANY_GROUP + (("Embed",) * 10 + ("Unmerge",) * 2 if thin else _ONE_DIM * 2)


@st.composite
def buffers(draw: Draw, shape: Sequence[int]) -> va.Buffer:
    """A buffer of the given shape: row-major, or with explicit strides and an offset."""
    dtype = draw(st.sampled_from(["f32", "f16", "bf16", "i8"]))
    if draw(st.booleans()):
        return va.Buffer(tuple(shape), dtype)
    strides = tuple(draw(st.integers(-4, 40)) for _ in shape)
    return va.Buffer(tuple(shape), dtype, strides=strides, offset=draw(st.integers(0, 100)))


@st.composite
def views(draw: Draw, max_maps: int = 3, *, min_maps: int = 1, max_rank: int = 4,
          max_points: int = 400, max_buffer_points: int = 120, thin: bool = False,
          zero: bool = False) -> va.View:
    """A consistent view: ``min_maps`` to ``max_maps`` maps, listed top first, on a random buffer.

    ``thin``: valid sets that leave whole coordinate ranges without a valid point (small buffer
    dims under mixed-sign Embeds); ``zero``: size-0 dims, so boxes without a point.
    """
    shape = draw(shapes(max_rank=min(max_rank, 3), max_points=max_buffer_points, thin=thin, zero=zero,
                        min_rank=int(thin)))
    buffer = draw(buffers(shape))
    maps: list[va.TransformMap] = []
    lower = shape
    # A thin valid set shows in the coordinates of the maps above the thin one: two maps at least.
    for i in range(draw(st.integers(max(min_maps, min(2, max_maps)) if thin else min_maps, max_maps))):
        tm = draw(transform_maps(lower, max_points=max_points, max_rank=max_rank, thin=thin and i == 0,
                                 zero=zero, passing=thin and i > 0 and draw(st.integers(0, 3)) > 0))
        maps.append(tm)
        lower = tm.upper_bounds
    return va.View(buffer, tuple(reversed(maps)))


def _factors(draw: st.DrawFn, n: int, parts: int) -> list[int]:
    """``n`` as a product of ``parts`` factors (some may be 1)."""
    factors = [1] * parts
    rest, p = n, 2
    while rest > 1:
        while rest % p:
            p += 1
        factors[draw(st.integers(0, parts - 1))] *= p
        rest //= p
    return factors


@st.composite
def regrouping_maps(draw: st.DrawFn, lower: tuple[int, ...], max_points: int = 600) -> va.TransformMap:
    """A map over ``lower`` whose ops keep or regroup dims, so that Merges meet their Unmerges:
    runs of lower dims (in order, or shuffled) each get a Merge, a PassThrough, an Unmerge or a
    row-major Embed (one dim split into factors), a Broadcast, a Pad or a Slice; the upper dims
    are permuted now and then."""
    rank = len(lower)
    order = list(range(rank)) if draw(st.integers(0, 3)) else list(draw(st.permutations(range(rank))))
    runs: list[list[int]] = []
    for d in order:
        if runs and draw(st.booleans()):
            runs[-1].append(d)
        else:
            runs.append([d])
    room = max_points // max(math.prod(lower), 1)
    sizes: list[int] = []
    ops: list[tuple[type[va.transforms.Transform], list[int], list[int], list[int]]] = []  # type, params, slots, lower
    for run in runs:
        single = ("Unmerge", "Embed", "Broadcast", "Pad", "Slice") if len(run) == 1 else ()
        kind = draw(st.sampled_from(("Merge", "Merge", "PassThrough", *single)))
        lengths = [lower[d] for d in run]
        first = len(sizes)
        if kind == "Merge":
            sizes.append(math.prod(lengths))
            ops.append((va.transforms.Merge, lengths, [first], run))
        elif kind == "PassThrough":
            sizes += lengths
            ops.append((va.transforms.PassThrough, [], list(range(first, len(sizes))), run))
        elif kind in ("Unmerge", "Embed"):
            factors = _factors(draw, lengths[0], draw(st.integers(2, 3)))
            sizes += factors
            slots = list(range(first, len(sizes)))
            if kind == "Unmerge":
                ops.append((va.transforms.Unmerge, factors, slots, run))
            else:
                ops.append((va.transforms.Embed, [math.prod(factors[i + 1:]) for i in range(len(factors))], slots, run))
        elif kind == "Broadcast":
            s = lengths[0]
            upper = draw(st.sampled_from([s, s, 1] + ([2 * s] if room >= 2 else [])))
            room //= max(upper // s, 1)
            sizes.append(upper)
            ops.append((va.transforms.Broadcast, lengths, [first], run))
        else:
            s = lengths[0]
            if kind == "Pad":
                left, right = draw(st.sampled_from([(0, 0), (0, 0), (1, 0)] if room >= 2 else [(0, 0)]))
                room //= 2 if left or right else 1
                sizes.append(s + left + right)
                ops.append((va.transforms.Pad, [left, right], [first], run))
            else:
                begin = draw(st.sampled_from([0, 0, 1] if s > 1 else [0]))
                sizes.append(s - begin)
                ops.append((va.transforms.Slice, [begin, s], [first], run))
    position = (list(range(len(sizes))) if draw(st.integers(0, 2))
                else list(draw(st.permutations(range(len(sizes))))))
    upper_bounds = [0] * len(sizes)
    for slot, size in enumerate(sizes):
        upper_bounds[position[slot]] = size
    transforms = [kind(params, [f"u{s}" for s in slots], [position[s] for s in slots],
                       [f"l{d}" for d in run], run)
                  for kind, params, slots, run in ops]
    return va.TransformMap(transforms, upper_bounds, lower)


@st.composite
def regrouping_views(draw: st.DrawFn) -> va.View:
    """One to three ``regrouping_maps`` on a row-major buffer."""
    shape = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3).filter(lambda s: math.prod(s) <= 120))
    maps: list[va.TransformMap] = []
    lower = tuple(shape)
    for _ in range(draw(st.integers(1, 3))):
        tm = draw(regrouping_maps(lower))
        maps.append(tm)
        lower = tm.upper_bounds
    return va.View(va.Buffer(tuple(shape)), tuple(reversed(maps)))
