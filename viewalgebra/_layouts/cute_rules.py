"""CuTe's own layout algebra, ported rule for rule, so that its answers can be put beside the
exact ones (docs/layouts.md, The algebra, exactly).

Each function follows NVIDIA/cutlass ``include/cute/layout.hpp`` (``coalesce``,
``composition_impl``, ``complement``, ``right_inverse``, ``left_inverse``, ``max_common_vector``)
and ``include/cute/swizzle_layout.hpp`` (``max_common_vector`` of a swizzled layout:
``min(max_common_vector(L, b), 2^M)``) for static shapes and strides: integer division where
CuTe divides, its ``ceil_div``, and a ``CuteRuleError`` where one of its static assertions
("Stride Divisibility Condition", "Shape Divisibility Condition", "Left inverse divisibility
condition", "Non-injective Layout detected in complement") would stop the compilation.
"""

from __future__ import annotations

import math
from typing import cast

from ..errors import CuteRuleError
from .values import ComposedLayout, IntTuple, Layout, flatten


def _div(a: int, b: int) -> int:
    """C++ integer division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _ceil_div(a: int, b: int) -> int:
    return (a + b - 1) // b


def _layout(modes: list[tuple[int, int]]) -> Layout:
    """A flat layout of the modes; one mode is an integer shape, as CuTe unwraps it."""
    if len(modes) == 1:
        return Layout(modes[0][0], modes[0][1])
    return Layout(tuple(s for s, _ in modes), tuple(d for _, d in modes))


def _modes(layout: Layout) -> list[tuple[int, int]]:
    return list(zip(flatten(layout.shape), flatten(layout.stride), strict=True))


def cute_coalesce(layout: Layout) -> Layout:
    """CuTe's ``coalesce``: flatten, drop size-1 modes, merge a mode into the one before it when
    ``size * stride`` of that one is its stride."""
    out: list[tuple[int, int]] = [(1, 0)]
    for s, d in _modes(layout):
        if s == 1:
            continue
        if out[-1][0] == 1:
            out[-1] = (s, d)
        elif out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
        else:
            out.append((s, d))
    return _layout(out)


def cute_composition(a: Layout, b: Layout) -> Layout:
    """CuTe's ``composition(a, b)``: ``a`` coalesced, then ``composition_impl`` by mode of ``b``."""
    flat = cute_coalesce(a)
    return _compose(flat.shape, flat.stride, b.shape, b.stride)


def _compose(l_shape: IntTuple, l_stride: IntTuple, r_shape: IntTuple, r_stride: IntTuple) -> Layout:
    if isinstance(r_shape, tuple):
        strides = cast(tuple[IntTuple, ...], r_stride)  # congruent with r_shape (Layout checks it)
        parts = [_compose(l_shape, l_stride, s, d) for s, d in zip(r_shape, strides, strict=True)]
        return Layout(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    r_stride = cast(int, r_stride)
    if r_stride == 0:
        return Layout(r_shape, 0)
    if isinstance(l_shape, int):
        return Layout(r_shape, r_stride * cast(int, l_stride))
    lhs = list(zip(flatten(l_shape), flatten(l_stride), strict=True))
    result: list[tuple[int, int]] = []
    rest_shape, rest_stride = r_shape, r_stride
    for curr_shape, curr_stride in lhs[:-1]:
        if not (rest_stride % curr_shape == 0 or rest_stride < curr_shape):
            raise CuteRuleError(
                f"CuTe: Stride Divisibility Condition fails ({rest_stride} % {curr_shape} != 0 and "
                f"{rest_stride} >= {curr_shape}) composing {Layout(l_shape, l_stride)} with "
                f"{Layout(r_shape, r_stride)}")
        next_shape = _ceil_div(curr_shape, abs(rest_stride))
        next_stride = _ceil_div(abs(rest_stride), curr_shape) * (1 if rest_stride > 0 else -1)
        if next_shape == 1 or rest_shape == 1:
            rest_stride = next_stride
            continue
        new_shape = min(next_shape, rest_shape)
        if rest_shape % new_shape:
            raise CuteRuleError(
                f"CuTe: Shape Divisibility Condition fails ({rest_shape} % {new_shape} != 0) composing "
                f"{Layout(l_shape, l_stride)} with {Layout(r_shape, r_stride)}")
        result.append((new_shape, rest_stride * curr_stride))
        rest_shape, rest_stride = rest_shape // new_shape, next_stride
    last = lhs[-1][1]
    if not result:
        return Layout(rest_shape, rest_stride * last)
    if rest_shape == 1:
        return _layout(result)
    return _layout([*result, (rest_shape, rest_stride * last)])


def _filter(layout: Layout) -> Layout:
    """CuTe's ``filter``: stride-0 modes become size 1, then ``coalesce``."""
    kept = [(s, d) for s, d in _modes(layout) if d != 0 and s != 1]
    return cute_coalesce(_layout(kept)) if kept else Layout(1, 0)


def cute_complement(layout: Layout, cotarget: int) -> Layout:
    """CuTe's ``complement(layout, cotarget)``."""
    f = _filter(layout)
    modes = _modes(f)
    if len(modes) == 1 and modes[0][1] == 0:
        return Layout(cotarget, 1)
    shapes = [s for s, _ in modes]
    strides = [d for _, d in modes]
    result_shape: list[int] = []
    result_stride = [1]
    for i in range(len(modes) - 1):
        m = strides.index(min(strides))
        new_shape = _div(strides[m], result_stride[i])
        if new_shape == 0:
            raise CuteRuleError(f"CuTe: Non-injective Layout detected in complement of {layout}")
        result_shape.append(new_shape)
        result_stride.append(strides[m] * shapes[m])
        del shapes[m], strides[m]
    new_shape = _div(strides[0], result_stride[-1])
    if new_shape == 0:
        raise CuteRuleError(f"CuTe: Non-injective Layout detected in complement of {layout}")
    result_shape.append(new_shape)
    new_stride = strides[0] * shapes[0]
    rest = _ceil_div(cotarget, new_stride)
    return cute_coalesce(_layout([*zip(result_shape, result_stride, strict=True), (rest, new_stride)]))


def _sorted_by_stride(modes: list[tuple[int, int]]) -> list[int]:
    return sorted(range(len(modes)), key=lambda i: modes[i][1])


def cute_right_inverse(layout: Layout) -> Layout:
    """CuTe's ``right_inverse``: modes taken by increasing stride while each stride is the span so far."""
    modes = _modes(cute_coalesce(layout))
    prefix = [math.prod(s for s, _ in modes[:i]) for i in range(len(modes))]
    out = [(1, 0)]
    curr = 1
    for i in _sorted_by_stride(modes):
        s, d = modes[i]
        if d == curr:
            out.append((s, prefix[i]))
            curr = s * d
    return cute_coalesce(_layout(out))


def cute_left_inverse(layout: Layout) -> Layout:
    """CuTe's ``left_inverse``."""
    modes = _modes(cute_coalesce(layout))
    prefix = [math.prod(s for s, _ in modes[:i]) for i in range(len(modes))]
    order = _sorted_by_stride(modes)
    shapes: list[int] = []
    strides = [0]
    for i in order:
        d = modes[i][1]
        if d == 0:
            continue
        size = math.prod(shapes)
        if d % size:
            raise CuteRuleError(
                f"CuTe: Left inverse divisibility condition fails ({d} % {size} != 0) for {layout}")
        shapes.append(d // size)
        strides.append(prefix[i])
    shapes.append(modes[order[-1]][0])
    return cute_coalesce(_layout(list(zip(shapes, strides, strict=True))))


def cute_max_common_vector(a: Layout, b: Layout) -> int:
    """CuTe's ``max_common_vector(a, b)``: the first mode of ``coalesce(a ∘ right_inverse(b))``
    when its stride is 1, else 1.

    Example: ``(6,4):(1,8)`` with ``24:1`` gives 6 (``right_inverse(24:1)`` is ``24:1``).
    """
    common = cute_coalesce(cute_composition(a, cute_right_inverse(b)))
    (s, d) = _modes(common)[0]
    return s if d == 1 else 1


def cute_swizzle_vector(a: ComposedLayout, b: Layout) -> int:
    """CuTe's ``max_common_vector`` of a swizzled layout and a layout:
    ``min(max_common_vector(a.layout, b), 2^M)`` (``include/cute/swizzle_layout.hpp``).

    Example: ``Sw<3,3,3> o 0 o 64:1`` with ``64:1`` gives 8.
    """
    return min(cute_max_common_vector(a.layout, b), 1 << a.swizzle.base)
