"""The map builders (docs/gridwise.md, The map builder): they build the very maps rocMLIR prints,
the two directions agree, a merge in memory order is the row-major order (numpy), and every
rocMLIR assert is an error naming the dim and the rule."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

BUG_1550 = (DATA / "rocmlir" / "bug-1550-reduction-fusion-compile-failure.mlir").read_text()
REDUCE = (DATA / "rocmlir" / "read" / "blockwise_reducesum_nr_threads_gt_blocksize.mlir").read_text()


def maps_of(text: str) -> dict[str, va.TransformMap]:
    """``%name -> map`` of every ``%name = rock.transform ... by <map>`` of a file (one function)."""
    found = {}
    for line in text.splitlines():
        m = re.match(r"\s*(%\w+) = rock\.transform %\w+ by (<affine_map.*>) : ", line)
        if m:
            found[m.group(1)] = va.parse_transform_map(m.group(2))
    return found


def test_bottom_up_builds_the_conv_maps_of_a_rocmlir_kernel() -> None:
    """rocMLIR's own conv-to-gemm maps (bug-1550's kernel after rock-gemm-to-gridwise), rebuilt
    call for call as ConvToGemm.cpp makes them: equal transform for transform."""
    theirs = maps_of(BUG_1550)
    f = gw.BottomUpMapBuilder(["g", "k", "c", "0", "1"], [1, 320, 4, 3, 3])
    f.pass_through(["gemmG"], [0], ["g"])
    f.merge("gemmK", 1, ["c", "0", "1"])
    f.pass_through(["gemmM"], [2], ["k"])
    assert f.get() == theirs["%5"]

    pad = gw.BottomUpMapBuilder(["ni", "gi", "ci", "0i", "1i"], [2, 1, 4, 64, 64])
    for name in ("ni", "gi", "ci"):
        pad.pass_through(name)
    pad.pad(["0ipad", "1ipad"], [1, 1, 1, 1], [3, 4], ["0i", "1i"])
    pad_map = pad.get()
    assert pad_map == theirs["%6"]
    dims = gw.expand_names_in_place(pad, {"0ipad": ["0", "0o"], "1ipad": ["1", "1o"]})
    assert dims == {"ni": 0, "gi": 1, "ci": 2, "0": 3, "0o": 4, "1": 5, "1o": 6}
    embed = gw.BottomUpMapBuilder.above(pad, pad_map)
    wrap = gw.BottomUpTopDimsWrapper(embed, dims)
    wrap.pass_through(["ni", "gi", "ci"])
    wrap.embed(["0", "0o"], [3, 64], "0ipad", [1, 1])
    wrap.embed(["1", "1o"], [3, 64], "1ipad", [1, 1])
    embed_map = embed.get()
    assert embed_map == theirs["%7"]
    gemm = gw.BottomUpMapBuilder.above(embed, embed_map)
    gemm.pass_through(["gemmG"], [0], ["gi"])
    gemm.merge("gemmK", 1, ["ci", "0", "1"])
    gemm.merge("gemmN", 2, ["ni", "0o", "1o"])
    assert gemm.get() == theirs["%8"]

    pad_a = gw.BottomUpMapBuilder(["gemmG", "gemmK", "gemmM"], [1, 36, 320])
    pad_a.pass_through("gemmG")
    pad_a.pad("gemmKPad", [0, 28], in_names="gemmK")
    pad_a.pad("gemmMPad", [0, 64], in_names="gemmM")
    assert pad_a.get() == theirs["%10"]


def test_top_down_builds_a_rocmlir_map() -> None:
    """A tile map of rocMLIR's blockwise reduction test, built top down."""
    (theirs,) = {m.map for m in va.text.parse_mlir_transform_maps(REDUCE)
                 if (m.map.upper_bounds, m.map.lower_bounds) == ((8, 1, 20), (160, 1))}
    b = gw.TopDownMapBuilder(["bid", "tid", "iter"], [8, 1, 20])
    b.unmerge("nr", 0, ["bid", "iter"], [8, 20])
    b.pass_through(["r"], [1], ["tid"])
    assert b.get() == theirs


def test_the_split_k_maps_of_c_go_down_through_merge_and_ignore() -> None:
    b = gw.TopDownMapBuilder(["gemmG", "gemmM", "gemmN"], [6, 4, 5])
    b.merge(["gemmG", "gemmKSplit"], [0, 1], "gemmG", [2, 3])
    b.pass_through(["gemmM", "gemmN"], [2, 3], ["gemmM", "gemmN"])
    top = b.get()
    below = gw.TopDownMapBuilder.below(b, top)
    assert below.start_names == ("gemmG", "gemmKSplit", "gemmM", "gemmN") and below.start_shape == (2, 3, 4, 5)
    below.ignore("gemmKSplit")
    below.pass_through(["gemmG", "gemmM", "gemmN"], [0, 1, 2], ["gemmG", "gemmM", "gemmN"])
    assert va.print_transform_map(below.get()) == (
        '#rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)> by [<AddDim{3} ["gemmKSplit"] at [1] '
        '-> [] at []>, <PassThrough ["gemmG", "gemmM", "gemmN"] at [0, 2, 3] -> ["gemmG", "gemmM", "gemmN"] '
        'at [0, 1, 2]>] bounds = [2, 3, 4, 5] -> [2, 4, 5]>')


def test_the_other_operations_of_each_direction() -> None:
    t = gw.TopDownMapBuilder(["a", "b"], [7, 3])
    t.pad("x", [2, 1], in_names="a")  # top-down, padding shrinks the lower dim
    t.const_dim(["z", "w"], [1, 3], [0, 2], [1, 4])
    t.embed("y", 2, 9, ["b"], [4])
    m = t.get()
    assert (m.upper_bounds, m.lower_bounds) == ((7, 3), (4, 1, 9, 4))
    assert [op.kind for op in m.ops] == ["Pad", "ConstDim", "Embed"]
    assert m.ops[1].params == (0, 1, 2, 4)

    u = gw.BottomUpMapBuilder(None, [4, 6, 5])
    assert u.start_names == ("dim0", "dim1", "dim2")
    u.broadcast([0], [8])
    u.slice(["s"], ["dim1"], [2], [5])
    u.unmerge(["p", "q"], [2, 3], "dim2", [5, 1])
    m = u.get()
    assert (m.upper_bounds, m.lower_bounds) == ((8, 3, 5, 1), (4, 6, 5))
    assert [(op.kind, op.params) for op in m.ops] == [("Broadcast", (4,)), ("Slice", (2, 5)), ("Unmerge", (5, 1))]
    v = gw.BottomUpMapBuilder(["x", "y"], [3, 4])
    v.pass_through_indices([1, 0], [0, 1])
    assert v.get().ops[0] == va.transforms.PassThrough((), ("x", "y"), (1, 0), ("x", "y"), (0, 1))

    d = gw.TopDownMapBuilder(["m"], [12])
    wrap = gw.TopDownBottomDimsWrapper(d, {"hi": 1, "lo": 0})
    wrap.merge(["hi", "lo"], "m", [3, 4])
    assert d.get().ops[0].lower_dims == (1, 0) and d.end_names == ("lo", "hi")


@st.composite
def regroupings(draw: st.DrawFn) -> tuple[list[int], list[list[int]], list[int]]:
    """A lower shape, its dims cut into groups (each a future upper dim), and the order of the
    groups in the upper space."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    order = draw(st.permutations(range(len(shape))))
    cuts = sorted(draw(st.sets(st.integers(1, len(shape) - 1), max_size=len(shape) - 1))) if len(shape) > 1 else []
    groups = [list(order[a:b]) for a, b in zip([0, *cuts], [*cuts, len(shape)], strict=True)]
    return shape, groups, list(draw(st.permutations(range(len(groups)))))


@given(regroupings(), st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=5, max_size=5))
@settings(derandomize=True, max_examples=120, deadline=None)
def test_both_directions_build_the_same_map(case: tuple[list[int], list[list[int]], list[int]],
                                            pads: list[tuple[int, int]]) -> None:
    """Merging lower dims bottom up and splitting the upper dim top down are one map; padding up
    from ``s`` and down from ``s + l + r`` too."""
    shape, groups, places = case
    names = [f"l{i}" for i in range(len(shape))]
    up = gw.BottomUpMapBuilder(names, shape)
    for g, place in zip(groups, places, strict=True):
        up.merge(f"u{place}", place, [names[i] for i in g])
    merged = up.get()
    upper = [math.prod(shape[i] for i in groups[places.index(p)]) for p in range(len(groups))]
    down = gw.TopDownMapBuilder([f"u{p}" for p in range(len(groups))], upper)
    for g, place in zip(groups, places, strict=True):
        down.merge([names[i] for i in g], g, f"u{place}", [shape[i] for i in g])
    assert down.get() == merged

    params = [x for pair in pads[:len(shape)] for x in pair]
    up = gw.BottomUpMapBuilder(names, shape)
    up.pad([f"p{i}" for i in range(len(shape))], params, in_names=names)
    padded = up.get()
    down = gw.TopDownMapBuilder([f"p{i}" for i in range(len(shape))], padded.upper_bounds)
    down.pad(names, params, in_names=[f"p{i}" for i in range(len(shape))])
    assert down.get() == padded


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
@settings(derandomize=True, max_examples=100, deadline=None)
def test_a_merge_in_memory_order_walks_the_buffer_in_order(shape: list[int], data: st.DataObject) -> None:
    """Brute force (numpy): a transpose, then a Merge of the transposed dims in their memory
    order, reads a row-major buffer at address ``i`` for point ``i``."""
    perm = data.draw(st.permutations(range(len(shape))))
    names = [f"d{i}" for i in range(len(shape))]
    t = gw.BottomUpMapBuilder(names, shape)
    gw.BottomUpTopDimsWrapper(t, {names[p]: i for i, p in enumerate(perm)}).pass_through(names)
    transposed = t.get()
    m = gw.BottomUpMapBuilder.above(t, transposed)
    m.merge("all", 0, sorted(names, key=names.index))
    view = va.View(va.Buffer(tuple(shape)), [m.get(), transposed])
    addr, valid = view.addresses()
    assert valid.all() and (addr == np.arange(math.prod(shape))).all()


def test_rocmlir_asserts_are_errors_naming_the_dim_and_the_rule() -> None:
    b = gw.BottomUpMapBuilder(["a", "b"], [2, 3])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder.merge: "c" is not a start dim (start dims: ["a", "b"])')):
        b.merge("m", 0, ["a", "c"])
    b.pass_through("a")
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder.pass_through: end dim "a" is already defined (rocMLIR: "Trying to '
            'redefine a result name in a coordinate transformation")')):
        b.pass_through(["a"], [1], ["b"])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder.pad: end position 0 ("bpad") already holds "a" (rocMLIR: "Trying to '
            'redefine a result dimension in a coordinate transform")')):
        b.pad("bpad", [1, 1], [0], "b")
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder.unmerge: lower dim "b" has size 3, the lengths [2, 2] multiply to 4 '
            '(rocMLIR: "failed to partition unmerge length among upper dimensions")')):
        b.unmerge(["x", "y"], [1, 2], "b", [2, 2])
    b.pass_through(["b"], [2], ["b"])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder.get: upper dim 1 is defined by no transform (rocMLIR: "Lower dimension '
            'must have associated output expression")')):
        b.get()

    t = gw.TopDownMapBuilder(["m"], [12])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'TopDownMapBuilder.merge: upper dim "m" has size 12, the lower sizes [4, 4] multiply to 16 '
            '(rocMLIR: "Upper dimension to merge must have same size as combined lower dimensions")')):
        t.merge(["a", "b"], [0, 1], "m", [4, 4])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'TopDownMapBuilder.unmerge: upper dim "m" has size 12, its length in the unmerge to "x" is 4')):
        t.unmerge("x", 0, ["m"], [4])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'TopDownMapBuilder.pad: end dim "p" would have size -1')):
        t.pad("p", [6, 7], in_names="m")
    t.merge(["a", "b"], [0, 1], "m", [3, 4])
    built = t.get()
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "TopDownMapBuilder.ignore: the map was already built by get() (rocMLIR: \"It's a bug to add "
            "to a coordinate transform after fetching the attribute\")")):
        t.ignore("m")
    other = gw.TopDownMapBuilder(["a"], [2])
    other.pass_through("a")
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "TopDownMapBuilder.below: pass the map this builder's get() returned")):
        gw.TopDownMapBuilder.below(t, other.get())
    assert gw.TopDownMapBuilder.below(t, built).start_names == ("a", "b")
    unused = gw.TopDownMapBuilder(["a", "b"], [2, 3])
    unused.pass_through("a")
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "TopDownMapBuilder.get: upper dim 1 is used by no transform")):
        unused.get()

    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpMapBuilder: start dim "a" is named twice')):
        gw.BottomUpMapBuilder(["a", "a"], [1, 2])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'BottomUpTopDimsWrapper: "z" has no position in the wrapper\'s map (it has ["x"])')):
        gw.BottomUpTopDimsWrapper(gw.BottomUpMapBuilder(["x"], [2]), {"x": 0}).pass_through("z")
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            'expand_names_in_place: "b" appears twice (rocMLIR: "Duplicate dimension in dimension expansion")')):
        gw.expand_names_in_place(["a", "b"], {"a": ["b", "c"]})
    with pytest.raises(va.errors.InvalidTransformError, match="must be an integer, got 2.0"):
        gw.BottomUpMapBuilder(["a"], [2]).add_dim("x", 0, 2.0)
