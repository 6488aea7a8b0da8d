"""Checking a claimed layout against the right function (docs/layouts.md, The algebra, exactly):
a composition someone computed, or a layout text against a function written out (in Python, or
as rock transform maps). Chains are compared with ``equivalent`` (ISL); the first index where
they differ is then found by enumerating both functions, which must agree with ISL's verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .._analyses.equivalence import equivalent
from .._maps.buffer import Buffer
from .._maps.chain import Chain
from .._maps.evaluate import evaluate_chain
from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import InternalError, InvalidArgumentError
from .algebra import Mismatch, composition, function
from .chains import layout_view, swizzle_layout
from .exact import Ints, check_size, first_difference
from .padded import PaddedSharedLayout
from .read import parse_layout
from .values import AnyLayout, ComposedLayout, IntTuple, Layout, LinearLayout, Swizzle, evaluate, idx2crd


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    """``ok``, or the first index where the two differ, with both values."""

    ok: bool
    mismatch: Mismatch | None = None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "ok: equal at every index" if self.ok else f"wrong: {self.mismatch}"


def _as_layout(x: AnyLayout | Swizzle | str, what: str) -> AnyLayout:
    """A layout, read from text if needed; a swizzle alone is the swizzle on the offsets it
    reads and changes (as ``layout_chain`` takes it)."""
    layout = parse_layout(x) if isinstance(x, str) else x
    if isinstance(layout, Swizzle):
        return swizzle_layout(layout)
    if not isinstance(layout, Layout | ComposedLayout | LinearLayout | PaddedSharedLayout):
        raise InvalidArgumentError(f"{what}: expected a layout or its text, got {x!r}")
    return layout


def _coord(index: int, layout: AnyLayout) -> IntTuple:
    if isinstance(layout, Layout):
        return idx2crd(index, layout.shape)
    if isinstance(layout, ComposedLayout):
        return idx2crd(index, layout.layout.shape)
    return index


def _values(layout: AnyLayout) -> Ints:
    if isinstance(layout, Layout | ComposedLayout):
        return function(layout, "check")
    check_size(layout.size, "check")
    return np.array([evaluate(layout, i) for i in range(layout.size)], dtype=np.int64)


def _verdict(same: bool, right: Ints, other: Ints, domain: AnyLayout, claimed: Layout | None) -> LayoutCheck:
    """The answer from ISL's verdict and the two enumerated functions (which must agree)."""
    i = first_difference(right, other)
    if same != (i is None):
        raise InternalError("check: ISL's equivalence and the enumeration disagree (please report)")
    if i is None:
        return LayoutCheck(True)
    return LayoutCheck(False, Mismatch(i, _coord(i, domain), int(right[i]), int(other[i]), claimed))


def check_composition(a: Layout | ComposedLayout | str, b: Layout | str,
                      claimed: Layout | str) -> LayoutCheck:
    """Whether ``claimed`` is ``a ∘ b`` at every index: ok, or the first index where it is not.

    Example: CuTe's ``(2,3):(6,3)`` for ``(4,6,8):(2,3,5) o 6:3`` is wrong at index 2: 3 where
    the right value is ``a(b(2)) = a(6) = 7``.
    """
    outer = _as_layout(a, "check_composition")
    inner = _as_layout(b, "check_composition")
    mine = _as_layout(claimed, "check_composition")
    if not isinstance(inner, Layout) or not isinstance(mine, Layout) or isinstance(outer, str):
        raise InvalidArgumentError("check_composition: b and claimed must be CuTe layouts (shape:stride)")
    if not isinstance(outer, Layout | ComposedLayout):
        raise InvalidArgumentError("check_composition: a must be a CuTe layout")
    if mine.size != inner.size:
        raise InvalidArgumentError(
            f"check_composition: {mine} has {mine.size} indices but {inner} has {inner.size}; a "
            "composition has the inner layout's domain")
    right = composition(outer, inner)
    base = layout_view(outer)
    same = equivalent(View(base.buffer, right.chain.maps), layout_view(mine)).ok
    f_right = function(outer, "check_composition")[function(inner, "check_composition")]
    return _verdict(same, f_right, function(mine, "check_composition"), inner, mine)


Function = Callable[[int], int] | Chain | TransformMap | Sequence[TransformMap] | View | str
"""What ``check_layout`` compares a layout with: a Python function of the flat index, or rock maps."""


def check_layout(text: AnyLayout | Swizzle | str, fn: Function) -> LayoutCheck:
    """Whether a layout (or its text) has the function ``fn``: ok, or the first index where not.

    ``expected`` is ``fn``'s value there, ``got`` the layout's.

    ``fn`` is a Python function of the flat index, or rock transform maps (a chain, a map, a
    view, or their rocMLIR text) from the flat index to the offset, compared with ``equivalent``.
    Example: FlyDSL's ``Sw<3,0,3>`` for a byte swizzle ``Sw<3,4,3>`` over 2-byte elements is wrong
    at index 2 where ``Sw<3,3,3>`` is right everywhere.
    """
    layout = _as_layout(text, "check_layout")
    got = _values(layout)
    if callable(fn) and not isinstance(fn, Chain | TransformMap | View | str):
        expected = np.array([int(fn(i)) for i in range(got.size)], dtype=np.int64)
        i = first_difference(expected, got)
        return LayoutCheck(True) if i is None else LayoutCheck(
            False, Mismatch(i, _coord(i, layout), int(expected[i]), int(got[i])))
    maps = Chain.of(fn).maps if isinstance(fn, str | TransformMap | Sequence) else fn.maps
    if maps[0].upper_bounds != (got.size,) or len(maps[-1].lower_bounds) != 1:
        raise InvalidArgumentError(
            f"check_layout: the maps go from {list(maps[0].upper_bounds)} to {list(maps[-1].lower_bounds)}; "
            f"give maps from the flat index [{got.size}] to one offset dim")
    (bound,) = maps[-1].lower_bounds
    same = equivalent(layout_view(layout), View(Buffer((bound,), "f32"), maps)).ok
    expected = np.array([_offset(maps, i) for i in range(got.size)], dtype=np.int64)
    return _verdict(same, expected, got, layout, None)


def _offset(maps: Sequence[TransformMap], i: int) -> int:
    point = evaluate_chain(maps, (i,))
    return -1 if point is None else point[0]
