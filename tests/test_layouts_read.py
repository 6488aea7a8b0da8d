"""Layouts read as chains: every reader's chain, enumerated by numpy, equals the layout's function
at every point, computed here by an independent evaluator; texts round-trip; bad text gets a
located error."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import viewalgebra as va

L = va.layouts
SETTINGS = settings(derandomize=True, max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


Tree = int | tuple["Tree", ...]

# Independent evaluators: plain loops over leaves and bits, no CuTe helpers of the library.


def leaves(t: Tree) -> list[int]:
    return [t] if isinstance(t, int) else [x for e in t for x in leaves(e)]


def cute_offset(shape: Tree, stride: Tree, index: int) -> int:
    total = 0
    for s, d in zip(leaves(shape), leaves(stride), strict=True):
        total += (index % s) * d
        index //= s
    return total


def swizzle_bits(b: int, m: int, s: int, x: int) -> int:
    """Bit by bit: target bit ``m - min(0, s) + k`` flips when source bit ``m + max(0, s) + k`` is set."""
    out = x
    for k in range(b):
        if x >> (m + max(0, s) + k) & 1:
            out ^= 1 << (m - min(0, s) + k)
    return out


def triton_offset(bases: dict[str, list[list[int]]], outs: list[tuple[str, int]], index: int) -> int:
    values = [0] * len(outs)
    for vectors in bases.values():
        for vec in vectors:
            if index & 1:
                values = [a ^ b for a, b in zip(values, vec, strict=True)]
            index >>= 1
    offset, place = 0, 1
    for v, (_, size) in zip(values, outs, strict=True):
        offset += v * place
        place *= size
    return offset


def flat_addresses(view: va.View) -> list[int]:
    """The view's addresses in flat (colexicographic) order, checked all valid."""
    addr, valid = view.addresses()
    assert valid.all()
    if view.rank == 1:
        return addr.tolist()
    # Several top dims, the first the fastest: numpy's row-major order transposed.
    return addr.transpose(tuple(reversed(range(view.rank)))).reshape(-1).tolist()


# Strategies.

@st.composite
def int_tuples(draw: st.DrawFn, depth: int = 2) -> Tree:
    if depth == 0 or draw(st.booleans()):
        return draw(st.integers(1, 5))
    return tuple(draw(int_tuples(depth - 1)) for _ in range(draw(st.integers(1, 3))))


def strides_like(shape: Tree) -> st.SearchStrategy[Tree]:
    if isinstance(shape, int):
        return st.integers(-3, 12) | st.just(0)
    return st.tuples(*(strides_like(s) for s in shape))


@st.composite
def cute_layouts(draw: st.DrawFn, nonnegative: bool = False) -> va.layouts.Layout:
    shape = draw(int_tuples().filter(lambda s: math.prod(leaves(s)) <= 200))
    stride = draw(strides_like(shape))
    if nonnegative:
        stride = absolute(stride)
    return L.Layout(shape, stride)


def absolute(t: Tree) -> Tree:
    return abs(t) if isinstance(t, int) else tuple(absolute(e) for e in t)


@st.composite
def swizzles(draw: st.DrawFn) -> va.layouts.Swizzle:
    b = draw(st.integers(0, 3))
    m = draw(st.integers(0, 3))
    s = draw(st.integers(b, 4)) * draw(st.sampled_from([1, -1]))
    if abs(s) < b:
        s = b
    return L.Swizzle(b, m, s)


@st.composite
def linear_layouts(draw: st.DrawFn) -> tuple[dict[str, list[list[int]]], list[tuple[str, int]]]:
    n_out = draw(st.integers(1, 3))
    outs = [(f"dim{k}", draw(st.sampled_from([1, 2, 3, 4, 5, 8, 16]))) for k in range(n_out)]
    limits = [1 << (s - 1).bit_length() for _, s in outs]
    bases: dict[str, list[list[int]]] = {}
    for name in draw(st.sampled_from([["register", "lane", "warp"], ["register", "lane", "warp", "block"],
                                      ["offset"], ["register", "lane"]])):
        bases[name] = [[draw(st.integers(0, lim - 1)) for lim in limits] for _ in range(draw(st.integers(0, 3)))]
    return bases, outs


# Chains equal the functions.

@SETTINGS
@given(cute_layouts())
def test_a_cute_layout_chain_is_its_function(layout: va.layouts.Layout) -> None:
    want = [cute_offset(layout.shape, layout.stride, i) for i in range(layout.size)]
    assert flat_addresses(L.layout_view(layout)) == want
    assert flat_addresses(L.layout_view(layout, "modes")) == want
    assert L.parse_layout(str(layout)) == layout


@SETTINGS
@given(swizzles(), st.integers(0, 40), cute_layouts(nonnegative=True))
def test_a_composed_layout_chain_is_its_function(sw: va.layouts.Swizzle, offset: int,
                                                 layout: va.layouts.Layout) -> None:
    composed = L.ComposedLayout(sw, offset, layout)
    want = [swizzle_bits(sw.bits, sw.base, sw.shift, offset + cute_offset(layout.shape, layout.stride, i))
            for i in range(layout.size)]
    assert flat_addresses(L.layout_view(composed)) == want
    assert flat_addresses(L.layout_view(composed, "modes")) == want
    assert L.parse_layout(str(composed)) == composed


def test_every_swizzle_that_fits_is_its_function() -> None:
    for b, m in itertools.product(range(4), range(4)):
        for s in [s for s in range(-5, 6) if abs(s) >= b]:
            sw = L.parse_layout(f"Sw<{b},{m},{s}>")
            assert isinstance(sw, L.Swizzle)
            view = L.layout_view(sw)
            assert flat_addresses(view) == [swizzle_bits(b, m, s, x) for x in range(view.shape[0])]


@SETTINGS
@given(linear_layouts())
def test_a_linear_layout_chain_is_its_function(drawn: tuple[dict[str, list[list[int]]], list[tuple[str, int]]]
                                               ) -> None:
    bases, outs = drawn
    layout = L.linear_layout(bases, outs)
    want = [triton_offset(bases, outs, i) for i in range(layout.size)]
    assert flat_addresses(L.layout_view(layout)) == want
    named = L.layout_view(layout, "named")
    assert named.shape == tuple(1 << len(v) for v in bases.values())
    assert flat_addresses(named) == want


def test_the_chain_is_made_of_the_documented_maps() -> None:
    chain = L.layout_chain(L.parse_layout("(4,8):(8,1)"))
    assert [[op.kind for op in m.ops] for m in chain.maps] == [["Merge"], ["Embed"]]
    assert chain.maps[0].ops[0].params == (8, 4) and chain.maps[1].ops[0].params == (1, 8)
    swizzled = L.layout_chain(L.parse_layout("Sw<1,0,1> o 0 o 4:1"))
    assert [sorted({op.kind for op in m.ops}) for m in swizzled.maps[2:]] == [
        ["Merge"], ["Embed", "PassThrough"], ["Broadcast", "PassThrough"], ["Unmerge"]]


def test_evaluate_and_idx2crd() -> None:
    layout = L.parse_layout("((2,3),4):((1,2),8)")
    assert L.idx2crd(5, ((2, 3), 4)) == ((1, 2), 0)
    assert L.idx2crd(7, ((2, 3), 4)) == ((1, 0), 1)
    assert [L.evaluate(layout, i) for i in range(8)] == [cute_offset(((2, 3), 4), ((1, 2), 8), i) for i in range(8)]
    assert L.evaluate(layout, ((1, 2), 3)) == 1 + 4 + 24
    assert L.evaluate(L.parse_layout("Sw<3,3,3> o 0 o (8,64):(64,1)"), (1, 0)) == 72
    assert L.evaluate(L.Swizzle(2, 1, -3), 0b110) == 0b110 ^ 0b110000


# Text.

@pytest.mark.parametrize(("text", "layout"), [
    ("(4,8):(1,4)", L.Layout((4, 8), (1, 4))),
    ("((2,3),4):((1,2),8)", L.Layout(((2, 3), 4), ((1, 2), 8))),
    ("8:1", L.Layout(8, 1)),
    ("(_4,_8):(_1,_4)", L.Layout((4, 8), (1, 4))),
    ("(4,(2,3))", L.Layout((4, (2, 3)), (1, (4, 8)))),
    ("(3,5):(-2,0)", L.Layout((3, 5), (-2, 0))),
    ("Sw<3,4,3> o _0 o (8,64):(64,_1)", L.ComposedLayout(L.Swizzle(3, 4, 3), 0, L.Layout((8, 64), (64, 1)))),
    ("Sw<2,0,-2> o (4,4):(4,1)", L.ComposedLayout(L.Swizzle(2, 0, -2), 0, L.Layout((4, 4), (4, 1)))),
    ("Sw<2,4,3>", L.Swizzle(2, 4, 3)),
])
def test_cute_text(text: str, layout: object) -> None:
    assert L.parse_layout(text) == layout


@pytest.mark.parametrize(("text", "message"), [
    ("(4,8):(1,4", "1:11: expected ',' or ')', got the end of the text"),
    ("(4,8):(1,4,2)", "1:1: Layout: shape (4,8) and stride (1,4,2) are not congruent"),
    ("(4,8) x", "1:7: expected the end of the layout, got 'x'"),
    ("(4,\n 0):(1,4)", "1:1: Layout: shape (4,0) has a size below 1"),
    ("Sw<3,3> o (4,8)", "1:7: expected ',' after M, got '>'"),
    ("Sw<3,3,2>", "1:1: Swizzle: |S| must be at least B"),
    ("Sw<3,3,3> (4,8)", "1:11: expected 'o' (composition) or the end of the layout, got '('"),
    ("(4;8)", "1:3: unexpected character ';'"),
])
def test_bad_text_gets_a_located_error(text: str, message: str) -> None:
    with pytest.raises(va.errors.LayoutSyntaxError, match=re.escape(message)):
        L.parse_layout(text)


def test_bad_values_get_clear_errors() -> None:
    with pytest.raises(va.errors.InvalidArgumentError, match="not congruent"):
        L.Layout((4, 8), 1)
    with pytest.raises(va.errors.InvalidArgumentError, match="top='named' names Triton's input dims"):
        L.layout_chain(L.Layout(4, 1), "named")
    with pytest.raises(va.errors.InvalidArgumentError, match="below 0, where the swizzle's bits"):
        L.layout_chain(L.parse_layout("Sw<1,0,1> o 0 o 4:-1"))
    with pytest.raises(va.errors.InvalidArgumentError, match="has 2 entries, give one per output dim"):
        L.linear_layout({"register": [[1, 0]]}, {"dim0": 4})


def test_negative_strides_read_below_the_buffer_origin() -> None:
    view = L.layout_view(L.parse_layout("(3,2):(-2,1)"))
    assert view.buffer.offset == -4
    assert [view.address((i,)) for i in range(6)] == [0, -2, -4, 1, -1, -3]
    assert np.array_equal(view.addresses()[0], [0, -2, -4, 1, -1, -3])
