"""simplify: the shorter chain means the same at every point (numpy over the whole box, beside
ISL's certificate), on generated chains and views of all nine transforms, on chains built to
cancel, and on rocMLIR's collapse tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import box_points, chain_points
from strategies import regrouping_views, transform_maps, views

import viewalgebra as va

SETTINGS = settings(derandomize=True, deadline=None, max_examples=150)
DATA = Path(__file__).parent / "data" / "rocmlir"


def same_points(a: va.Chain, b: va.Chain) -> None:
    """Brute force: the same validity everywhere, the same lower point wherever valid."""
    upper = box_points(a.upper_bounds)
    lower_a, valid_a = chain_points(a.maps, upper)
    lower_b, valid_b = chain_points(b.maps, upper)
    assert (valid_a == valid_b).all()
    assert (lower_a[valid_a] == lower_b[valid_b]).all()


def same_addresses(a: va.View, b: va.View) -> None:
    addr_a, valid_a = a.addresses()
    addr_b, valid_b = b.addresses()
    assert (valid_a == valid_b).all()
    assert (addr_a[valid_a] == addr_b[valid_b]).all()


def certified(s: va.answers.Simplified[va.Chain] | va.answers.Simplified[va.View]) -> None:
    assert s.certificate.ok
    assert not any("not certified" in line for line in s.log)
    assert len(s.result.maps) <= len(s.original.maps)
    assert s.changed == bool(s.log)


@given(view=views(max_maps=4, max_points=200))
@SETTINGS
def test_a_simplified_chain_sends_every_point_where_the_original_does(view: va.View) -> None:
    chain = va.Chain.of(view)
    s = va.simplify(chain)
    certified(s)
    assert isinstance(s.result, va.Chain)
    same_points(chain, s.result)


@given(view=views(max_maps=4, max_points=200))
@SETTINGS
def test_a_simplified_view_reads_every_address_the_original_does(view: va.View) -> None:
    va.clear_caches()
    s = va.simplify(view)
    assert va.simplify(view) is s  # the cached answer
    certified(s)
    assert isinstance(s.result, va.View) and s.result.shape == view.shape
    assert s.result.buffer.dtype == view.buffer.dtype
    same_addresses(view, s.result)


@given(view=regrouping_views())
@SETTINGS
def test_chains_whose_merges_meet_their_unmerges_simplify_exactly(view: va.View) -> None:
    for x in (view, va.Chain.of(view)):
        s = va.simplify(x)
        certified(s)
        if isinstance(x, va.View) and isinstance(s.result, va.View):
            same_addresses(x, s.result)
        elif isinstance(x, va.Chain) and isinstance(s.result, va.Chain):
            same_points(x, s.result)


@st.composite
def cancelling(draw: st.DrawFn) -> tuple[va.View, int]:
    """A view with a map and its inverse chain inserted where the shapes meet: (view, the number
    of maps inserted)."""
    view = draw(views(max_maps=2, max_points=200))
    k = draw(st.integers(0, len(view.maps)))
    space = view.maps[k].upper_bounds if k < len(view.maps) else view.buffer.shape
    tm = draw(transform_maps(space, max_points=200))
    inverse = va.invert(tm)
    if inverse.kind != "bijective" or inverse.maps is None or inverse.has_padding:
        return view, 0  # not a bijection of the box
    inserted = inverse.maps
    return va.View(view.buffer, (*view.maps[:k], *inserted, tm, *view.maps[k:])), len(inserted) + 1


@given(case=cancelling())
@SETTINGS
def test_a_map_and_its_inverse_inserted_into_a_view_cancel(case: tuple[va.View, int]) -> None:
    view, inserted = case
    s = va.simplify(view)
    certified(s)
    same_addresses(view, s.result)
    assert len(s.maps) <= len(view.maps) - inserted


def parse(text: str) -> va.TransformMap:
    return va.parse_transform_map(text)


MERGE = '<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>'
UNMERGE = '<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>] bounds = [4, 8] -> [32]>'


def ops_of(s: va.answers.Simplified[va.Chain]) -> list[str]:
    return [va.text.print_transform(op) for m in s.maps for op in m.ops]


def test_a_merge_then_the_unmerge_that_recombines_it_is_one_passthrough() -> None:
    s = va.simplify([parse(MERGE), parse(UNMERGE)])
    certified(s)
    assert ops_of(s) == ['<PassThrough ["k"] at [0] -> ["k"] at [0]>']


def test_an_unmerge_then_a_merge_is_split_along_their_common_refinement() -> None:
    unmerge = parse('<affine_map<(d0, d1) -> (d0 * 6 + d1)> by [<Unmerge{4, 6} ["a", "b"] at [0, 1] -> ["k"] at [0]>] '
                    'bounds = [4, 6] -> [24]>')
    merge = parse('<affine_map<(d0) -> (d0 floordiv 6, (d0 mod 6) floordiv 2, d0 mod 2)> by '
                  '[<Merge{4, 3, 2} ["k"] at [0] -> ["x", "y", "z"] at [0, 1, 2]>] bounds = [24] -> [4, 3, 2]>')
    s = va.simplify([unmerge, merge])
    certified(s)
    assert len(s.maps) == 1
    assert sorted(ops_of(s)) == ['<Merge{3, 2} ["b"] at [1] -> ["y", "z"] at [1, 2]>',
                                 '<PassThrough ["a"] at [0] -> ["x"] at [0]>']


def test_rocmlirs_unit_dim_todo_merge_2_16_1_then_unmerge_2_1_16_collapses() -> None:
    # transformMapUtils.cpp leaves this case as a TODO: the unit dim sits elsewhere in each.
    merge = parse('<affine_map<(d0) -> (d0 floordiv 16, d0 mod 16, 0)> by '
                  '[<Merge{2, 16, 1} ["k"] at [0] -> ["a", "b", "c"] at [0, 1, 2]>] bounds = [32] -> [2, 16, 1]>')
    unmerge = parse('<affine_map<(d0, d1, d2) -> (d0 * 16 + d2 * 16 + d1)> by '
                    '[<Unmerge{2, 1, 16} ["a", "c", "b"] at [0, 2, 1] -> ["k"] at [0]>] bounds = [2, 16, 1] -> [32]>')
    s = va.simplify([merge, unmerge])
    certified(s)
    assert ops_of(s) == ['<PassThrough ["k"] at [0] -> ["k"] at [0]>']


@pytest.mark.parametrize(("first", "second", "fused"), [
    ("Pad{1, 2}", "Pad{3, 0}", "Pad{4, 2}"),
    ("Slice{1, 5}", "Slice{2, 8}", "Slice{3, 7}"),
    ("Slice{3, 7}", "Pad{2, 2}", "Slice{1, 5}"),   # never reaches the padding
    ("Slice{1, 14}", "Pad{2, 3}", "Pad{1, 2}"),    # keeps all the data
    ("Slice{1, 9}", "Pad{2, 3}", None),            # some padding, not all the data: two ops
    ("Pad{2, 2}", "Slice{1, 5}", None),            # a window over padding: two ops
])
def test_shifts_add_up_when_one_op_can_say_it(first: str, second: str, fused: str | None) -> None:
    def one(op: str, lower: int) -> tuple[va.TransformMap, int]:
        found = re.fullmatch(r"(\w+)\{(\d+), (\d+)\}", op)
        assert found is not None
        kind, a, b = found.groups()
        a_, b_ = int(a), int(b)
        upper = lower + a_ + b_ if kind == "Pad" else b_ - a_
        text = (f'<affine_map<(d0) -> (d0)> by [<{kind}{{{a_}, {b_}}} ["x"] at [0] -> ["x"] at [0]>] '
                f'bounds = [{upper}] -> [{lower}]>')
        return parse(text), upper

    lower = 10
    second_map, middle = one(second, lower)
    first_map, _ = one(first, middle)
    chain = va.Chain((first_map, second_map))
    s = va.simplify(chain)
    certified(s)
    same_points(chain, s.result)
    if fused is None:
        assert not s.changed
    else:
        assert ops_of(s) == [f'<{fused} ["x"] at [0] -> ["x"] at [0]>']


def test_a_row_major_buffer_takes_a_reshape_but_not_a_transpose() -> None:
    transpose = parse('<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
                      'bounds = [8, 4] -> [4, 8]>')
    merge = parse(MERGE)
    s = va.simplify(va.View(va.Buffer((4, 8)), (merge,)))
    certified(s)
    assert s.maps == () and s.result.buffer == va.Buffer((32,))
    kept = va.simplify(va.View(va.Buffer((4, 8)), (transpose,)))
    assert not kept.changed
    strided = va.Buffer((4, 8), strides=(1, 4))
    s = va.simplify(va.View(strided, (transpose,)))
    certified(s)
    assert s.maps == () and s.result.buffer == va.Buffer((8, 4), strides=(4, 1))


def test_maps_that_break_their_bound_rules_are_left_alone() -> None:
    # PassThrough from [4] to [1]: points 1..3 are invalid, which a fused map could not say.
    narrow = va.TransformMap((va.transforms.PassThrough((), ("x",), (0,), ("x",), (0,)),), (4,), (1,),
                             strict=False)
    identity = parse('<affine_map<(d0) -> (d0)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>] '
                     'bounds = [4] -> [4]>')
    chain = va.Chain((identity, narrow))
    s = va.simplify(chain)
    certified(s)
    assert s.maps == (narrow,)  # the identity goes, the lenient map stays
    same_points(chain, s.result)


def collapse_views() -> dict[str, va.View]:
    text = (DATA / "test_collapse_contiguous_merges.mlir").read_text()
    found: dict[str, va.View] = {}
    lines = text.splitlines()
    for pv in va.text.parse_mlir_views(text):
        function = "\n".join(lines[:pv.line]).rsplit("func.func @", 1)[1].split("(", 1)[0]
        if pv.view is not None:
            found.setdefault(function, pv.view)
    return found


@pytest.mark.parametrize(("function", "maps", "buffer"), [
    ("test_wrong_shape", 1, "memref<5x4x3x5xf32>"),           # not a consistent view: as it is
    ("test_basic_unmerge", 0, "memref<24x5xf32>"),            # rocMLIR: Merge{1, 1, 24}
    ("test_partial_merge_conv2gemm", 1, "memref<4x5x6xf32>"),  # rocMLIR: Merge{4, 1, 6}
    ("test_batch_transpose_bug_1407", 0, "memref<512x65536xf32>"),  # rocMLIR: Merge{1, 65536, 1}
    ("test_need_for_clone", 1, "memref<24x5xf32>"),
])
def test_rocmlirs_collapse_tests_simplify_further(function: str, maps: int, buffer: str) -> None:
    view = collapse_views()[function]
    s = va.simplify(view)
    certified(s)
    assert isinstance(s.result, va.View)
    assert (len(s.maps), str(s.result.buffer)) == (maps, buffer)
    if np.prod(view.shape) <= 1 << 16:  # the larger ones rest on the certificate
        same_addresses(view, s.result)


def test_every_view_of_rocmlirs_test_files_simplifies_with_a_certificate() -> None:
    for path in sorted(DATA.glob("*.mlir")):
        for pv in va.text.parse_mlir_views(path.read_text()):
            if pv.view is None:
                continue
            try:
                s = va.simplify(pv.view)
            except va.errors.InvalidTransformError:
                continue  # a map with no meaning (docs/semantics.md)
            certified(s)
            if np.prod(pv.view.shape) <= 1 << 16:
                same_addresses(pv.view, s.result)


def test_bad_arguments_get_a_clear_error() -> None:
    with pytest.raises(va.errors.InvalidArgumentError, match="expected a Chain"):
        va.simplify(cast("va.Chain", 5))
    with pytest.raises(va.errors.InvalidArgumentError):
        va.simplify(va.Chain.of(parse(MERGE)), timeout=-1)
