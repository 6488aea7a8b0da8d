"""Exact index ranges: equal to brute-force enumeration; the 32-bit boundary decided exactly;
rocMLIR's 64-bit rule compared on its own test buffers and on hand-made views."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import index_range as ir  # noqa: TID251 -- each path to the answer is tested on its own

SETTINGS = settings(derandomize=True, deadline=None, max_examples=400)
P = va.parse_transform_map


def brute(view: va.View) -> tuple[list[list[tuple[int, int] | None]], list[list[tuple[int, int] | None]],
                                  tuple[int, int] | None]:
    """Per map and lower dim, (min, max) over the valid points and over the box; the address's
    (min, max) over the valid points: numpy over every point, with ``va.evaluate_array``."""
    addr, valid = view.addresses()
    valid = valid.reshape(-1)
    points = list(itertools.product(*map(range, view.shape)))
    coords = np.array(points, dtype=np.int64).reshape(len(points), view.rank)
    on_valid: list[list[tuple[int, int] | None]] = []
    on_box: list[list[tuple[int, int] | None]] = []
    for m in view.maps:
        coords, _ = va.evaluate_array(m, coords)
        on_valid.append([(int(coords[valid, d].min()), int(coords[valid, d].max())) if valid.any() else None
                         for d in range(m.lower_rank)])
        on_box.append([(int(coords[:, d].min()), int(coords[:, d].max())) if len(coords) else None
                       for d in range(m.lower_rank)])
    a = addr.reshape(-1)[valid]
    return on_valid, on_box, ((int(a.min()), int(a.max())) if len(a) else None)


def pairs(extents: tuple[tuple[va.answers.Extent | None, ...], ...]) -> list[list[tuple[int, int] | None]]:
    return [[None if e is None else (e.low, e.high) for e in dims] for dims in extents]


def check_witnesses(view: va.View, answer: va.answers.IndexRange) -> None:
    """Every witness point reaches its extreme (and the valid ones are valid)."""
    for k in range(len(view.maps)):
        for d, e in enumerate(answer.coordinates[k]):
            for point, value in ((e.low_at, e.low), (e.high_at, e.high)) if e else ():
                lower = tuple(point)
                for m in view.maps[:k + 1]:
                    lower, _ = va.evaluate(m, lower)
                assert lower[d] == value
                assert view.address(point) is not None
    if answer.address is not None:
        assert view.address(answer.address.low_at) == answer.address.low
        assert view.address(answer.address.high_at) == answer.address.high


@given(view=views(max_maps=3, max_points=300))
@SETTINGS
def test_ranges_equal_enumeration(view: va.View) -> None:
    on_valid, on_box, address = brute(view)
    for method in ("enumerate", "isl"):
        answer = ir._answer(view, None, method)  # noqa: SLF001
        assert pairs(answer.coordinates) == on_valid, method
        assert pairs(answer.box_coordinates) == on_box, method
        assert (None if answer.address is None else (answer.address.low, answer.address.high)) == address
        check_witnesses(view, answer)
        assert not answer.needs_64bit  # small views


@given(view=views(max_maps=3, max_points=300, thin=True))
@settings(SETTINGS, max_examples=150)
def test_ranges_of_thin_valid_sets_equal_enumeration(view: va.View) -> None:
    """Valid sets that leave whole coordinate ranges without a valid point (an Embed of mixed
    signs onto a small dim keeps a lattice): ISL's answer is the numpy one."""
    on_valid, on_box, address = brute(view)
    answer = ir._answer(view, None, "isl")  # noqa: SLF001
    assert pairs(answer.coordinates) == on_valid
    assert pairs(answer.box_coordinates) == on_box
    assert (None if answer.address is None else (answer.address.low, answer.address.high)) == address
    check_witnesses(view, answer)


def test_a_lattice_of_valid_points() -> None:
    """``Embed{1, -2}`` onto a size-1 dim keeps only ``a = 2b``; the PassThrough above shows ``b``
    alone. Restricted to the valid set, ISL rewrote ``b`` as the rational ``a / 2``, which its
    optimizer refused (InternalError); the range of ``a`` is [0, 2] though 1 is never reached."""
    embed = P('<affine_map<(d0, d1) -> (d0 - d1 * 2)> by [<Embed{1, -2} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
              'bounds = [3, 2] -> [1]>')
    above = P('<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>] '
              'bounds = [3, 2] -> [3, 2]>')
    view = va.View(va.Buffer((1,)), [above, embed])
    for method in ("isl", "enumerate"):
        answer = ir._answer(view, None, method)  # noqa: SLF001
        assert answer.coordinates[0] == (va.answers.Extent(0, 2, (0, 0), (2, 1)),
                                         va.answers.Extent(0, 1, (0, 0), (2, 1)))
        assert pairs(answer.coordinates) == brute(view)[0]


def test_a_large_view_whose_valid_points_pin_two_dims() -> None:
    """81,000 points of which 600 are valid, all with view dims 2 and 5 at 0 and 3 (the Embed
    ``6 d2 + d3 - 2 d4 + 6 d5`` onto a size-1 dim, below a Pad): answered by ISL, equal to numpy."""
    m1 = P('#rock.transform_map<affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5 - 3)> by '
           '[<PassThrough ["m2_0", "m2_1"] at [0, 1] -> ["m1_0", "m1_1"] at [0, 1]>, <PassThrough ["m2_2", '
           '"m2_3"] at [2, 3] -> ["m1_2", "m1_3"] at [2, 3]>, <Embed{1} ["m2_4"] at [4] -> ["m1_4"] at [4]>, '
           '<Pad{3, 0} ["m2_5"] at [5] -> ["m1_5"] at [5]>] bounds = [30, 10, 3, 3, 3, 10] -> [30, 10, 3, 3, 3, 7]>')
    m2 = P('#rock.transform_map<affine_map<(d0, d1, d2, d3, d4, d5) -> (28, d0, d1, d2 * 6 + d3 + d4 * -2 + d5 * 6)> '
           'by [<ConstDim{28, 30} [] at [] -> ["m0_0"] at [0]>, <PassThrough ["m1_0", "m1_1"] at [0, 1] -> '
           '["m0_1", "m0_2"] at [1, 2]>, <Embed{6, 1, -2, 6} ["m1_2", "m1_3", "m1_4", "m1_5"] at [2, 3, 4, 5] -> '
           '["m0_3"] at [3]>] bounds = [30, 10, 3, 3, 3, 7] -> [30, 30, 10, 1]>')
    view = va.View(va.Buffer((30, 30, 10, 1)), [m1, m2])
    assert math.prod(view.shape) > ir.ENUMERATE_LIMIT  # the ISL path
    answer = va.index_range(view)
    on_valid, on_box, address = brute(view)
    assert pairs(answer.coordinates) == on_valid
    assert pairs(answer.box_coordinates) == on_box
    assert answer.address is not None and (answer.address.low, answer.address.high) == address
    check_witnesses(view, answer)
    assert on_valid[0][2] == on_valid[0][5] == (0, 0) and not answer.needs_64bit


@pytest.mark.parametrize(("size", "needs"), [(2**31, False), (2**31 + 1, True)])
def test_int32_boundary_of_a_buffer(size: int, needs: bool) -> None:
    answer = va.index_range(va.View(va.Buffer((size,), "i8")))
    assert answer.needs_64bit is needs
    assert answer.address is not None and answer.address.high == size - 1
    if needs:
        assert answer.witness == (2**31,)


@pytest.mark.parametrize(("offset", "needs"), [(0, False), (1, True)])
def test_int32_boundary_of_an_address(offset: int, needs: bool) -> None:
    # 2**31 addresses, the last one 2**31 - 1 + offset; every coordinate fits
    view = va.View(va.Buffer((2**16, 2**15), "i8", offset=offset))
    answer = va.index_range(view)
    assert answer.needs_64bit is needs
    assert answer.address is not None and answer.address.high == 2**31 - 1 + offset
    if needs:
        assert answer.reason == f"address: {2**31}" and answer.witness == (2**16 - 1, 2**15 - 1)


def test_padding_coordinates_count() -> None:
    """An Embed whose value at padding points leaves int32: 64 bits, though rocMLIR's bounds fit."""
    tm = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 * 1048576 + d1)> by [<Embed{1048576, 1} ["a", "b"] at [0, 1] '
        '-> ["x"] at [0]>] bounds = [4096, 4] -> [4096]>')
    view = va.View(va.Buffer((4096,)), [tm])
    answer = va.index_range(view)
    assert answer.needs_64bit
    assert answer.witness == (4095, 3) and answer.reason == f"map 0, lower dim 0: {4095 * 2**20 + 3}"
    assert answer.coordinates[0][0] == va.answers.Extent(0, 3, (0, 0), (0, 3))
    comparison = va.rocmlir.compare_index_width(view)
    assert comparison.verdict == "rocMLIR unsound" and not comparison.address_only


def test_slice_of_a_large_buffer_is_conservative() -> None:
    tm = va.parse_transform_map(
        f'<affine_map<(d0) -> (d0 + 8)> by [<Slice{{8, 12}} ["x"] at [0] -> ["x"] at [0]>] '
        f'bounds = [4] -> [{2**31 + 16}]>')
    view = va.View(va.Buffer((2**31 + 16,), "i8"), [tm])
    comparison = va.rocmlir.compare_index_width(view)
    assert comparison.rocmlir and not comparison.exact.needs_64bit
    assert comparison.verdict == "rocMLIR conservative"
    assert comparison.exact.address == va.answers.Extent(8, 11, (0,), (3,))


@pytest.mark.parametrize(("memref", "rocmlir", "exact", "verdict"), [
    # rocMLIR's own test buffers (mlir/test/Dialect/Rock/lowering_global_load_store.mlir and the
    # global_load_to_lds tests): needs64BitIdx is set where is4GBMemoryType holds
    ("memref<1073741825xf32>", True, False, "rocMLIR conservative"),
    ("memref<4294967295xi4>", False, True, "rocMLIR unsound"),  # 4 / 8 == 0 bytes per element
    ("memref<2147483648xi8>", False, False, "equal"),
    ("memref<2147483649xi8>", False, True, "rocMLIR unsound"),
    ("memref<1073741824xf32>", True, False, "rocMLIR conservative"),  # 2**32 bytes
    ("memref<1073741823xf32>", False, False, "equal"),
])
def test_rocmlir_rule_on_buffers(memref: str, rocmlir: bool, exact: bool, verdict: str) -> None:
    view = va.View(va.text.parse_memref_type(memref))
    assert va.rocmlir.rocmlir_needs_64bit(view) is rocmlir
    comparison = va.rocmlir.compare_index_width(view)
    assert comparison.exact.needs_64bit is exact and comparison.verdict == verdict
    # unsound here only through addresses below 2**32 bytes, which rocMLIR's buffer ops reach
    assert comparison.address_only is (verdict == "rocMLIR unsound")


def test_rocmlir_rule_on_bounds() -> None:
    tm = va.parse_transform_map(
        f'<affine_map<(d0, d1) -> (d0 * 2 + d1)> by [<Unmerge{{{2**30 + 1}, 2}} ["a", "b"] at [0, 1] '
        f'-> ["x"] at [0]>] bounds = [{2**30 + 1}, 2] -> [{2**31 + 2}]>')
    assert va.rocmlir.rocmlir_needs_64bit(va.View(va.Buffer((2**31 + 2,), "i8"), [tm]))
    assert va.index_range(va.View(va.Buffer((2**31 + 2,), "i8"), [tm])).needs_64bit


def test_arguments() -> None:
    with pytest.raises(va.errors.InvalidArgumentError, match="expected a View"):
        va.index_range("memref<4xf32>")  # type: ignore[arg-type]
    with pytest.raises(va.errors.InvalidArgumentError, match="timeout"):
        va.index_range(va.View(va.Buffer((4,))), timeout=0)
