"""CuTe's layout algebra, exactly (docs/layouts.md, The algebra, exactly).

Each operation is defined by what NVIDIA/cutlass ``media/docs/cpp/cute/02_layout_algebra.md``
says it means, and answered for every index: ``composition(a, b)`` is ``i -> a(b(i))`` on the
domain of ``b`` (always as a chain of rock transform maps; as one ``shape:stride`` layout whose
shape refines ``b``'s exactly when one exists); ``coalesce`` the layout of fewest modes with the
same function; ``complement(a, M)`` the ordered layout ``R`` with ``(a, R)`` one-to-one and
``size(a)·size(R) >= M``; ``left_inverse(a)`` an ``L`` with ``L(a(i)) = i`` for every ``i``;
``right_inverse(a)`` the largest ``R`` with ``a(R(j)) = j`` for every ``j < size(R)``.
Where no answer of the kind asked exists (a layout that is not one-to-one, a composition with no
single ``shape:stride``), a ``LayoutAlgebraError`` says so with a witness, where CuTe would
return a layout that is wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._maps.chain import Chain
from .._maps.transform_map import TransformMap
from .._maps.transforms import Slice
from ..errors import InvalidArgumentError, LayoutAlgebraError
from .chains import layout_chain
from .exact import Ints, Modes, candidate, check_size, decompose, first_difference, values
from .values import ComposedLayout, IntTuple, Layout, LinearLayout, evaluate, flatten, idx2crd


def modes_of(layout: Layout) -> Modes:
    return tuple(zip(flatten(layout.shape), flatten(layout.stride), strict=True))


def function(layout: Layout | ComposedLayout | LinearLayout, what: str) -> Ints:
    """The layout's offset at every flat index (CuTe's function, Triton's flat offset), enumerated."""
    if isinstance(layout, Layout):
        check_size(layout.size, what)
        return values(modes_of(layout))
    if isinstance(layout, ComposedLayout):
        x = layout.offset + function(layout.layout, what)
        if x.size and int(x.min()) < 0:
            raise InvalidArgumentError(f"{what}: {layout} reaches offset {int(x.min())} below 0, where the "
                                       "swizzle's bits are not defined")
        sw = layout.swizzle
        mask = ((1 << sw.bits) - 1) << sw.source_bit
        y = x & mask
        return x ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)
    if isinstance(layout, LinearLayout):
        check_size(layout.size, what)
        return np.array([evaluate(layout, i) for i in range(layout.size)], dtype=np.int64)
    raise InvalidArgumentError(f"{what}: expected a CuTe Layout, ComposedLayout or Triton LinearLayout, "
                               f"got {layout!r}")


def domain_shape(layout: Layout | ComposedLayout | LinearLayout) -> IntTuple:
    """The shape of a layout's domain (a swizzled layout's inner layout's; a Triton layout's flat size)."""
    if isinstance(layout, LinearLayout):
        return layout.size
    return layout.layout.shape if isinstance(layout, ComposedLayout) else layout.shape


def plain(layout: object, what: str) -> Layout:
    if not isinstance(layout, Layout):
        raise InvalidArgumentError(f"{what}: expected a CuTe Layout (shape:stride), got {layout!r}")
    return layout


def layout_of(per_leaf: tuple[Modes, ...], shape: IntTuple) -> Layout:
    """A layout with ``shape``'s nesting, each leaf replaced by its modes (one mode: an integer)."""
    leaves = iter(per_leaf)

    def walk(s: IntTuple) -> tuple[IntTuple, IntTuple]:
        if isinstance(s, int):
            m = next(leaves)
            if len(m) == 1:
                return m[0]
            return tuple(k for k, _ in m), tuple(t for _, t in m)
        parts = [walk(e) for e in s]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)

    sh, st = walk(shape)
    return Layout(sh, st)


def flat_layout(modes: Modes) -> Layout:
    if len(modes) == 1:
        return Layout(modes[0][0], modes[0][1])
    return Layout(tuple(s for s, _ in modes), tuple(d for _, d in modes))


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Where a layout and a function differ: the first such index, in CuTe's terms."""

    index: int
    """The flat index."""
    coord: IntTuple
    """The same index as a CuTe coordinate (``idx2crd`` in the domain's shape)."""
    expected: int
    """The right value there."""
    got: int | None
    """The other's value there (``None``: it has none)."""
    candidate: Layout | None = None
    """The layout that was checked (for a composition without a single ``shape:stride``: the
    one that follows the function longest)."""

    def __str__(self) -> str:
        layout = "" if self.candidate is None else f"{self.candidate} "
        return (f"{layout}differs at index {self.index} (coordinate {self.coord}): "
                f"{self.got} where the right value is {self.expected}")


@dataclass(frozen=True, slots=True)
class Composition:
    """``outer ∘ inner``: always as a chain; as one ``shape:stride`` layout when one exists."""

    outer: Layout | ComposedLayout
    inner: Layout
    chain: Chain
    """The composition as rock transform maps (``inner``'s chain, then ``outer``'s)."""
    layout: Layout | None
    """The layout (shape refining ``inner``'s) with ``layout(i) == outer(inner(i))`` for every
    ``i``, or ``None``: no single ``shape:stride`` has this function."""
    witness: Mismatch | None
    """Without ``layout``: the layout closest to it and the first index where it is wrong."""

    def __str__(self) -> str:
        if self.layout is not None:
            return f"{self.outer} o {self.inner} = {self.layout}"
        return f"{self.outer} o {self.inner}: no single shape:stride; {self.witness}"


def composition(a: Layout | ComposedLayout, b: Layout) -> Composition:
    """``a ∘ b`` (``i -> a(b(i))``), exactly: the chain always, the single ``shape:stride`` when one exists.

    Example: ``(4,6,8):(2,3,5) o 6:3`` has no single layout (CuTe gives ``(2,3):(6,3)``, wrong
    at index 2: 3 where ``a(b(2)) = a(6) = 7``); neither has ``(4,3):(1,10) o 6:1`` (pycute
    gives ``4:1``, of size 4); ``(10,2):(16,4) o (3,4):(1,5)`` is ``(3,(2,2)):(16,(80,4))``.
    """
    b = plain(b, "composition")
    f_b = function(b, "composition")
    f_a = function(a, "composition")
    outside = np.flatnonzero((f_b < 0) | (f_b >= f_a.size))
    if outside.size:
        i = int(outside[0])
        raise LayoutAlgebraError(
            f"composition: {b} sends index {i} (coordinate {idx2crd(i, b.shape)}) to {int(f_b[i])}, "
            f"outside the domain 0..{f_a.size - 1} of {a}; give an inner layout whose offsets are "
            "indices of the outer one", (i, idx2crd(i, b.shape), int(f_b[i])))
    f = f_a[f_b]
    chain = _compose_chains(b, a)
    leaves = flatten(b.shape)
    found = decompose(f, leaves) if int(f[0]) == 0 else None
    if found is not None:
        return Composition(a, b, chain, layout_of(found, b.shape), None)
    near = layout_of(candidate(f, leaves), b.shape) if int(f[0]) == 0 else None
    got = values(modes_of(near)) if near is not None else np.zeros_like(f)
    i = first_difference(f, got)
    index = 0 if i is None else i
    return Composition(a, b, chain, None, Mismatch(index, idx2crd(index, b.shape), int(f[index]),
                                                   int(got[index]), near))


def _compose_chains(inner: Layout, outer: Layout | ComposedLayout) -> Chain:
    first = layout_chain(inner).maps
    second = layout_chain(outer).maps
    (low,) = first[-1].lower_bounds
    (up,) = second[0].upper_bounds
    if low == up:
        return Chain(first + second)
    name = ("i",)
    pad = TransformMap((Slice((0, low), name, (0,), name, (0,)),), (low,), (up,))
    return Chain((*first, pad, *second))


def coalesce(a: Layout) -> Layout:
    """The flat layout of fewest modes with ``a``'s function on its domain.

    Example: ``(2,(1,6)):(1,(6,2))`` coalesces to ``12:1``.
    """
    a = plain(a, "coalesce")
    found = decompose(function(a, "coalesce"), (a.size,))
    if found is None:  # every layout has its own function: a bug, not an input
        raise LayoutAlgebraError(f"coalesce: internal: no layout found for {a} (please report)")
    modes = tuple(m for m in found[0] if m[0] > 1) or ((1, 0),)
    return flat_layout(modes)


def collision(a: Layout, what: str) -> tuple[int, int] | None:
    """Two indices that ``a`` sends to one offset (the first such pair), or ``None``."""
    f = function(a, what)
    order = np.argsort(f, kind="stable")
    same = np.flatnonzero(f[order][1:] == f[order][:-1])
    if same.size == 0:
        return None
    k = int(same[0])
    i, j = sorted((int(order[k]), int(order[k + 1])))
    return i, j


def _refuse_collision(a: Layout, what: str) -> None:
    pair = collision(a, what)
    if pair is not None:
        i, j = pair
        raise LayoutAlgebraError(
            f"{what}: {a} is not one-to-one: indices {i} and {j} (coordinates {idx2crd(i, a.shape)} and "
            f"{idx2crd(j, a.shape)}) both go to offset {int(function(a, what)[i])}",
            (i, j, int(function(a, what)[i])))


def _gapped(a: Layout, what: str, fill: bool) -> list[tuple[int, int, int]]:
    """``a``'s non-unit modes by increasing stride as (size, stride, colexicographic stride of the
    mode in ``a``'s index), checked to be a mixed radix with gaps: each stride a multiple of the
    one below (``fill``: of the span below, so that the gap is whole copies of it) and at least
    the span below; raises otherwise."""
    mods = modes_of(a)
    prefix = [math.prod(s for s, _ in mods[:i]) for i in range(len(mods))]
    terms = sorted((d, s, prefix[i]) for i, (s, d) in enumerate(mods) if s > 1)
    span, below = 1, 1
    for d, s, _ in terms:
        unit = span if fill else below
        if d < 1 or d % unit or d < span:
            raise LayoutAlgebraError(
                f"{what}: {a}'s strides are not a mixed radix with gaps (stride {d} is not a positive "
                f"multiple of {unit} at least {span}, the span of the modes below it), so no "
                "shape:stride answers", (d, unit, span))
        span, below = d * s, d
    return [(s, d, p) for d, s, p in terms]


def complement(a: Layout, cosize: int | None = None) -> Layout:
    """The ordered ``R`` with ``(a, R)`` one-to-one onto a box of at least ``cosize`` offsets.

    CuTe's ``complement`` (strides increasing; ``cosize`` defaults to ``a``'s), refused with a
    witness where ``a`` is not one-to-one or its gaps are not whole copies of the span below.

    Example: ``complement(4:2, 24)`` is ``(2,3):(1,8)``.
    """
    a = plain(a, "complement")
    _refuse_collision(a, "complement")
    target = a.cosize if cosize is None else cosize
    if target < 1:
        raise InvalidArgumentError(f"complement: cosize must be at least 1, got {target}")
    out: list[tuple[int, int]] = []
    span = 1
    for s, d, _ in _gapped(a, "complement", fill=True):
        out.append((d // span, span))
        span = d * s
    out.append((-(-target // span), span))
    return coalesce(flat_layout(tuple((s, d) for s, d in out if s > 1) or ((1, 0),)))


def left_inverse(a: Layout) -> Layout:
    """A layout ``L`` with ``L(a(i)) == i`` for every index ``i`` of a one-to-one ``a``.

    Example: ``left_inverse((6,4):(1,8))`` is ``(8,4):(1,6)``; ``(2,2):(1,1)`` is refused (CuTe
    returns ``2:2``, whose value at ``a(1) = 1`` is 2).
    """
    a = plain(a, "left_inverse")
    _refuse_collision(a, "left_inverse")
    terms = _gapped(a, "left_inverse", fill=False)
    if not terms:
        return Layout(1, 0)
    # Digit k of an offset y is (y // d_k) mod (d_{k+1} / d_k): index digit k where y is an image.
    shapes = [terms[0][1]] + [d // d_below
                              for (_, d, _), (_, d_below, _) in zip(terms[1:], terms, strict=False)]
    shapes.append(terms[-1][0])
    strides = [0] + [p for _, _, p in terms]
    return coalesce(flat_layout(tuple(zip(shapes, strides, strict=True))))


def logical_divide(a: Layout | ComposedLayout, b: Layout) -> Composition:
    """CuTe's ``logical_divide``: ``a ∘ (b, complement(b, size(a)))``, exactly.

    Example: ``logical_divide(24:1, 5:1)`` composes with ``(5,5):(1,5)``, whose index 24 is offset
    24, outside ``24:1``: refused (``LayoutAlgebraError``) where CuTe returns a layout.
    """
    b = plain(b, "logical_divide")
    rest = complement(b, a.size)
    return composition(a, Layout((b.shape, rest.shape), (b.stride, rest.stride)))


def right_inverse(a: Layout) -> Layout:
    """The largest layout ``R`` with ``a(R(j)) == j`` for every ``j < size(R)``.

    Of the indices reaching ``j``, ``R(j)`` is the smallest; the answer is at least ``1:0``.

    Example: ``right_inverse((6,4):(1,8))`` is ``6:1``; ``right_inverse((2,4):(0,1))`` is ``4:2``.
    """
    a = plain(a, "right_inverse")
    f = function(a, "right_inverse")
    first = np.full(int(f.max()) + 1 if f.size else 1, -1, dtype=np.int64)
    valid = f >= 0
    idx = np.arange(f.size, dtype=np.int64)[valid][::-1]
    first[f[valid][::-1]] = idx  # the smallest index wins (written last)
    missing = np.flatnonzero(first < 0)
    m = int(missing[0]) if missing.size else first.size
    for n in range(m, 0, -1):
        found = decompose(first[:n], (n,))
        if found is not None:
            modes = tuple(x for x in found[0] if x[0] > 1) or ((1, 0),)
            return flat_layout(modes)
    return Layout(1, 0)
