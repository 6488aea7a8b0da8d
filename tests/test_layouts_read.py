"""Layouts read as chains: every reader's chain, enumerated by numpy, equals the layout's function
at every point, computed here by an independent evaluator; texts round-trip; bad text gets a
located error."""

from __future__ import annotations

import itertools
import math
import re
from typing import Any, cast

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
            assert isinstance(sw, L.Swizzle) and L.parse_layout(str(sw)) == sw
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


@SETTINGS
# Shift 0 left out: pycute's shiftr(a, 0) calls shiftl(a, 0), which calls shiftr(a, 0), without end
# (NVIDIA/cutlass python/pycute/swizzle.py); CuTe C++ and this library take it (B = 0 then).
@given(cute_layouts(nonnegative=True), swizzles().filter(lambda sw: sw.shift != 0), st.integers(0, 9))
def test_pycutes_own_layouts_read_as_their_functions(layout: va.layouts.Layout, sw: va.layouts.Swizzle,
                                                     offset: int) -> None:
    pycute = pytest.importorskip(
        "pycute", reason="pycute is not installed (optional: pip install --no-deps nvidia-cutlass, "
        "or the 'peers' extra)")
    theirs = pycute.Layout(layout.shape, layout.stride)
    mine = L.parse_layout(str(theirs))  # pycute prints "((2, 3), 4):((1, 2), 8)"
    assert mine == layout
    assert flat_addresses(L.layout_view(mine)) == [theirs(i) for i in range(layout.size)]
    composed = pycute.ComposedLayout(pycute.Swizzle(sw.bits, sw.base, sw.shift), offset, theirs)
    read = L.parse_layout(str(composed))  # "SW_3_3_3 o 0 o ..."
    assert read == L.ComposedLayout(sw, offset, layout)
    assert flat_addresses(L.layout_view(read)) == [composed(i) for i in range(layout.size)]


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


@st.composite
def spaced(draw: st.DrawFn, t: Tree) -> str:
    """``t`` as CuTe or FlyDSL text, with or without blanks after commas."""
    if isinstance(t, int):
        return str(t)
    sep = draw(st.sampled_from([",", ", "]))
    return "(" + sep.join(draw(spaced(e)) for e in t) + ")"


@SETTINGS
@given(st.data(), swizzles().filter(lambda sw: sw.shift >= 0), st.integers(0, 9), cute_layouts(nonnegative=True))
def test_flydsl_types_are_their_functions(data: st.DataObject, sw: va.layouts.Swizzle, offset: int,
                                          layout: va.layouts.Layout) -> None:
    colon = data.draw(st.sampled_from([":", " : "]))
    plain = data.draw(spaced(layout.shape)) + colon + data.draw(spaced(layout.stride))
    parsed = L.parse_layout(f"!fly.layout<{plain}>")
    assert parsed == layout
    want = [cute_offset(layout.shape, layout.stride, i) for i in range(layout.size)]
    assert flat_addresses(L.layout_view(parsed)) == want
    composed = L.parse_layout(f"!fly.composed_layout<S<{sw.bits},{sw.base},{sw.shift}> o {offset} o {plain}>")
    assert composed == L.ComposedLayout(sw, offset, layout)
    assert flat_addresses(L.layout_view(composed, "modes")) == [
        swizzle_bits(sw.bits, sw.base, sw.shift, offset + w) for w in want]
    assert L.parse_layout(f"!fly.swizzle<S<{sw.bits},{sw.base},{sw.shift}>>") == sw


def ttg_linear_text(bases: dict[str, list[list[int]]], order: list[str]) -> str:
    return "#ttg.linear<{" + ", ".join(f"{n} = {bases[n]}" for n in order) + "}>"


@SETTINGS
@given(st.integers(1, 3), st.data())
def test_ttg_linear_is_its_function(rank: int, data: st.DataObject) -> None:
    bases = {name: [[data.draw(st.integers(0, 9)) for _ in range(rank)] for _ in range(data.draw(st.integers(0, 3)))]
             for name in ("register", "lane", "warp", "block")}
    if not any(bases.values()):
        bases["lane"] = [[1] * rank]
    # Output sizes by Triton's rule: the smallest power of two above every basis value.
    sizes = [1] * rank
    for vectors in bases.values():
        for v in vectors:
            for k, x in enumerate(v):
                while sizes[k] <= x:
                    sizes[k] *= 2
    outs = [(f"dim{k}", n) for k, n in enumerate(sizes)]
    order = data.draw(st.permutations(list(bases)))
    layout = L.parse_layout(ttg_linear_text(bases, order))
    assert layout == L.linear_layout(bases, outs)
    want = [triton_offset(bases, outs, i) for i in range(math.prod(1 << len(v) for v in bases.values()))]
    assert flat_addresses(L.layout_view(layout)) == want
    assert L.parse_layout(str(layout)) == layout


def f2_invertible(data: st.DataObject, n: int) -> list[int]:
    """Images of the ``n`` unit bits under a random invertible F2 matrix: a permutation, then row
    additions (each keeps the matrix invertible)."""
    rows = [1 << b for b in data.draw(st.permutations(range(n)))]
    for _ in range(data.draw(st.integers(0, 2 * n))):
        i, j = data.draw(st.integers(0, max(n - 1, 0))), data.draw(st.integers(0, max(n - 1, 0)))
        if n and i != j:
            rows[i] ^= rows[j]
    return rows


@SETTINGS
@given(st.data())
def test_padded_shared_is_its_function(data: st.DataObject) -> None:
    widths = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3).filter(lambda w: sum(w) <= 8))
    n = sum(widths)
    images = f2_invertible(data, n)

    def coords(bits: int) -> list[int]:
        out: list[int] = []
        place = 0
        for w in widths:
            out.append(bits >> place & ((1 << w) - 1))
            place += w
        return out

    offset_bases = [coords(images[b]) for b in range(n)]
    pairs = data.draw(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=1, max_size=3))
    padding = [(1 << i, 1 << p) for i, p in pairs]
    text = ("#ttg.padded_shared<[" + ", ".join(f"{i}:+{p}" for i, p in padding) + "] {offset = "
            + str(offset_bases) + ", block = []}>")
    layout = L.parse_layout(text)
    # Independent: tabulate the linear component (offset -> element) and pad each offset.
    where: dict[tuple[int, ...], int] = {}
    for i in range(1 << n):
        element = 0
        for b in range(n):
            if i >> b & 1:
                element ^= images[b]
        where[tuple(coords(element))] = i
    assert len(where) == 1 << n
    shape = [1 << w for w in widths]

    def padded(i: int) -> int:
        return i + sum((i // interval) * pad for interval, pad in padding)

    flat: list[int] = []
    for index in range(1 << n):
        c: list[int] = []
        rest = index
        for size in shape:
            c.append(rest % size)
            rest //= size
        flat.append(padded(where[tuple(c)]))
    assert flat_addresses(L.layout_view(layout)) == flat
    assert flat_addresses(L.layout_view(layout, "named")) == flat
    assert L.parse_layout(str(layout)) == layout


def test_padded_shared_matches_tritons_documented_examples() -> None:
    # triton-lang/triton include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td, PaddedSharedEncodingAttr.
    two = L.parse_layout("#ttg.padded_shared<[2:+1, 4:+2] {order = [0], shape = [16]}>")
    assert flat_addresses(L.layout_view(two))[:8] == [0, 1, 3, 4, 8, 9, 11, 12]  # e0 e1 p0 e2 e3 p1 p2 p3 ...
    rows = L.parse_layout("#ttg.padded_shared<[16:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], "
                          "block = []}>")
    view = L.layout_view(rows, "named")
    # x0y0..x0y3, x2y0.., x4y0.., x6y0.., p0, x1y0..: row 1 starts after 16 elements and one pad.
    assert [view.address((x, 0)) for x in range(8)] == [0, 17, 4, 21, 8, 25, 12, 29]
    strided = L.parse_layout("#ttg.padded_shared<[2:+2] {offset = [[2], [1]], block = []}>")
    assert flat_addresses(L.layout_view(strided)) == [0, 4, 1, 5]  # x0, x2, p0, p1, x1, x3
    same = L.parse_layout("#ttg.padded_shared<[2:+2] {order = [1, 0], shape = [16, 32]}>")
    assert same == L.parse_layout(
        "#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], "
        "[4, 0], [8, 0]], block = []}>")


def test_a_ttg_linear_of_tritons_tests() -> None:
    # triton-lang/triton test/Conversion: #linear = #ttg.linear<{register = [[1], [2], [16], [0]], ...}>.
    layout = L.parse_layout("#linear = #ttg.linear<{register = [[1], [2], [16], [0]], lane = [[0], [0], [0], "
                            "[0], [0]], warp = [[4], [8]], block = []}>")
    assert isinstance(layout, L.LinearLayout) and layout.out_dims == (("dim0", 32),)
    view = L.layout_view(layout, "named")
    assert view.shape == (16, 32, 4, 1)
    assert view.address((5, 31, 3, 0)) == 1 ^ 16 ^ 4 ^ 8


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
    ("SW_3_3_3 o 0 o (8, 64):(64, 1)", L.ComposedLayout(L.Swizzle(3, 3, 3), 0, L.Layout((8, 64), (64, 1)))),
    ("(4,):(1,)", L.Layout((4,), (1,))),
    ("!fly.layout<(3, 1, 9) : (1, 9, 3)>", L.Layout((3, 1, 9), (1, 9, 3))),
    ("!fly.swizzle<S<2,6,2>>", L.Swizzle(2, 6, 2)),
    ("{register: [[1], [2]], lane: [[4]]} -> {dim0: 8}",
     L.linear_layout({"register": [[1], [2]], "lane": [[4]]}, {"dim0": 8})),
    ("{offset = [[1, 0], [0, 1]]}", L.linear_layout({"offset": [[1, 0], [0, 1]]}, {"dim0": 2, "dim1": 2})),
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
    ("(4,8):(1,4) o 0 o 32:1", "1:13: a layout composed with a layout is not read"),
    ("(4,8):\n  (1,4,)x", "2:9: expected the end of the layout, got 'x'"),
    ("(4,8):(1_4)", "1:9: expected ',' or ')', got '_4'"),
    ("!fly.layout<(8,?):(1,8)>", "1:16: a dynamic integer '?' has no value to read"),
    ("!fly.layout<(4,8):(1E0,1E1)>", "1:20: a scaled-basis stride (1E0) maps to a coordinate"),
    ("!fly.composed_layout<CS<3,0,[1],0,[2]> o (0,0,0) o (4,8):(1,4)>", "1:22: a coordinate swizzle"),
    ("!fly.composed_layout<32:1 o 0 o (4, 8) : (1, 4)>", "1:22: a layout composed with a layout is not read"),
    ("!fly.composed_layout<S<3,3,3> o 0 o [32:1 o 0 o 4:1]>", "1:37: a nested composed layout is not read"),
    ("!fly.swizzle<S<2,3,-3>>", "1:14: FlyDSL's swizzle shifts right by the shift"),
    ("!fly.layout<(4,8):(1,4)", "1:24: expected '>' after the layout, got the end of the text"),
    ("#ttg.linear<{register = [[1]], lane = []}>", "1:1: #ttg.linear needs the bases of warp, block"),
    ("#ttg.linear<{register = [[1]], lane = [], warp = [], block = [], thread = []}>",
     "1:66: #ttg.linear has the input dims register, lane, warp, block, not 'thread'"),
    ("#ttg.linear<{register = [], lane = [], warp = [], block = []}>", "1:1: no basis vector gives"),
    ("#ttg.linear<{register = [[1], [2, 0]], lane = [], warp = [], block = []}>", "has 2 entries"),
    ("#ttg.linear<{register = [1], lane = [], warp = [], block = []}>", "1:14: the bases of 'register' must be"),
    ("{register: [[1]]} => {dim0: 2}", "1:19: expected '->' and the output dims"),
    ("#ttg.padded_shared<[3:+1] {order = [0], shape = [16]}>", "1:1: PaddedSharedLayout: interval 3 and pad 1"),
    ("#ttg.padded_shared<[4:+1] {offset = [[1, 0], [1, 0]], block = []}>", "is not a bijection"),
    ("#ttg.padded_shared<[4:+1] {offset = [[1]], block = [[1]]}>", "1:44: bases of 'block' (several CTAs)"),
    ("#ttg.padded_shared<[4:1] {order = [0], shape = [4]}>", "1:23: expected '+' before the pad, got '1'"),
    ("#ttg.padded_shared<[4:+1] {order = [1], shape = [4]}>", "1:28: order [1] is not a permutation"),
    ("#ttg.blocked<{}>", "1:1: expected a layout (CuTe text, !fly.layout"),
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


def test_evaluate_refuses_what_is_outside_the_layout() -> None:
    cases = [
        (lambda: L.evaluate(L.Layout((4, 8), (1, 4)), 32), "evaluate: index 32 outside 0..31 of (4,8):(1,4)"),
        (lambda: L.evaluate(L.Layout((4, 8), (1, 4)), (1, 2, 3)), "does not fit shape (4,8)"),
        (lambda: L.evaluate(L.Layout((4, 8), (1, 4)), (4, 0)), "evaluate: coordinate 4 outside 0..3"),
        (lambda: L.idx2crd(6, (2, 3)), "idx2crd: index 6 outside 0..5 of shape (2,3)"),
        (lambda: L.evaluate(L.linear_layout({"lane": [[1]]}, {"dim0": 2}), 2), "index 2 outside 0..1"),
        (lambda: L.evaluate(L.linear_layout({"lane": [[1]]}, {"dim0": 2}), (0, 1)), "one value per input dim"),
        (lambda: L.evaluate(L.Swizzle(1, 0, 1), -1), "must not be negative"),
        (lambda: L.linear_layout(cast(Any, [("lane", [[1]])]), {"dim0": 2}), "bases must map input dim names"),
        (lambda: L.Swizzle(2, 0, 1), "|S| must be at least B"),
    ]
    for run, message in cases:
        with pytest.raises(va.errors.InvalidArgumentError, match=re.escape(message)):
            run()


def test_negative_strides_read_below_the_buffer_origin() -> None:
    view = L.layout_view(L.parse_layout("(3,2):(-2,1)"))
    assert view.buffer.offset == -4
    assert [view.address((i,)) for i in range(6)] == [0, -2, -4, 1, -1, -3]
    assert np.array_equal(view.addresses()[0], [0, -2, -4, 1, -1, -3])
