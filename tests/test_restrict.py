"""restrict: every point of the sub-tile chain goes where the chain sends the full point (brute
force, validity included) and the certificate re-checks; the port of rocMLIR's removeUpperDims
reproduces its `-rock-transform-maps-utils-test` lit cases and is compared point by point."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import restrict as rt  # noqa: TID251 -- wired publicly elsewhere
from viewalgebra._rocmlir import remove_upper_dims as rs  # noqa: TID251 -- the port is wired publicly elsewhere

P = va.parse_transform_map


def chain_image(maps: tuple[va.TransformMap, ...], point: tuple[int, ...]) -> tuple[int, ...] | None:
    """Brute force, scalar: the bottom point through every map, ``None`` where invalid."""
    lower = point
    for m in maps:
        lower, valid = va.evaluate(m, lower)
        if not valid:
            return None
    return lower


@st.composite
def restrictions(draw: st.DrawFn) -> tuple[va.View, dict[int, int | range]]:
    view = draw(views(max_maps=3, max_points=200))
    fix: dict[int, int | range] = {}
    for d, n in enumerate(view.shape):
        kind = draw(st.sampled_from(["keep", "value", "range"]))
        if kind == "value":
            fix[d] = draw(st.integers(0, n - 1))
        elif kind == "range":
            start = draw(st.integers(0, n - 1))
            fix[d] = range(start, draw(st.integers(start + 1, n)))
    return view, fix


@given(case=restrictions())
@settings(derandomize=True, deadline=None, max_examples=150)
def test_restriction_equals_the_chain_at_the_full_point(case: tuple[va.View, dict[int, int | range]]) -> None:
    view, fix = case
    r = rt.restrict(view, fix=fix)
    assert r.certificate.ok and va.equivalent(r.chain, r.reference).ok
    assert len(r.chain.maps) == len(view.maps) + (0 if r.folded else 1)
    assert r.chain.lower_bounds == tuple(view.maps[-1].lower_bounds)
    values = dict(r.fixed)
    for new in itertools.product(*map(range, r.chain.upper_bounds)):
        full = [values.get(d, 0) for d in range(len(view.shape))]
        for k, (d, start) in enumerate(zip(r.dims, r.starts, strict=True)):
            full[d] = start + new[k]
        assert chain_image(r.chain.maps, new) == chain_image(view.maps, tuple(full))


def test_padding_kept_exact() -> None:
    pad = P('<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 1} ["x"] at [0] -> ["x"] at [0]>] bounds = [6] -> [4]>')
    r = rt.restrict(pad, fix={0: range(0, 5)})
    assert r.folded and len(r.chain.maps) == 1
    assert va.print_transform_map(r.chain.maps[0]) == (
        '#rock.transform_map<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 0} ["x"] at [0] -> ["x"] at [0]>] '
        'bounds = [5] -> [4]>')
    assert chain_image(r.chain.maps, (0,)) is None and chain_image(r.chain.maps, (4,)) == (3,)
    const = rt.restrict(pad, fix={"x": 3})
    assert va.print_transform_map(const.chain.maps[0]) == (
        '#rock.transform_map<affine_map<() -> (2)> by [<ConstDim{2, 4} [] at [] -> ["x"] at [0]>] '
        'bounds = [] -> [4]>')
    # fixed inside the padding: no point is valid; the new map stays on top
    padding = rt.restrict(pad, fix={0: 0})
    assert not padding.folded and chain_image(padding.chain.maps, ()) is None


def test_block_and_thread_sub_tiles() -> None:
    """A grid of 4 blocks of 8 threads over Merge{4, 8}: block 2's tile and a thread's slice."""
    grid = P('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["bid", "tid"] at [0, 1] '
             '-> ["k"] at [0]>] bounds = [4, 8] -> [32]>')
    split = P('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] '
              '-> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>')
    block = rt.restrict([grid, split], fix={"bid": 2})
    assert block.folded and block.dims == (1,) and block.fixed == ((0, 2),)
    assert va.print_transform_map(block.chain.maps[0]) == (
        '#rock.transform_map<affine_map<(d0) -> (d0 + 16)> by [<Slice{16, 24} ["tid"] at [0] -> ["k"] at [0]>] '
        'bounds = [8] -> [32]>')
    assert [chain_image(block.chain.maps, (t,)) for t in range(8)] == [(2, t) for t in range(8)]
    thread = rt.restrict([grid, split], keep=["tid"], fix={"bid": range(1, 3)})
    assert thread.chain.upper_bounds == (2, 8) and thread.certificate.ok


def test_arguments() -> None:
    pad = P('<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 1} ["x"] at [0] -> ["x"] at [0]>] bounds = [6] -> [4]>')
    bad = va.errors.InvalidArgumentError
    with pytest.raises(bad, match=r"outside \[0, 6\)"):
        rt.restrict(pad, fix={0: 6})
    with pytest.raises(bad, match="must be fixed to an int or a range"):
        rt.restrict(pad, fix={0: True})
    with pytest.raises(bad, match="of step 1"):
        rt.restrict(pad, fix={0: range(0, 4, 2)})
    with pytest.raises(bad, match="non-empty"):
        rt.restrict(pad, fix={0: range(2, 2)})
    with pytest.raises(bad, match="both kept and fixed"):
        rt.restrict(pad, keep=[0], fix={0: 1})
    with pytest.raises(bad, match="neither kept nor fixed"):
        rt.restrict(pad, keep=[])
    with pytest.raises(bad, match="collection of dims"):
        rt.restrict(pad, keep=0)  # type: ignore[arg-type]
    with pytest.raises(bad, match="no upper dims named 'y'"):
        rt.restrict(pad, fix={"y": 0})
    with pytest.raises(bad, match="expected a Chain"):
        rt.restrict(None)
    with pytest.raises(bad, match="collection of dims"):
        rs.rocmlir_remove_upper_dims(pad, "x")
    with pytest.raises(bad, match="upper dim 1 out of range for rank 1"):
        rs.rocmlir_remove_upper_dims(pad, [1])
    assert rs.rocmlir_remove_upper_dims(pad, ["no such dim"]).maps == (pad,)  # ignored, as in rocMLIR
    with pytest.raises(bad, match="indices or names"):
        rs.rocmlir_remove_upper_dims(pad, [1.0])  # type: ignore[list-item]


# {{{ rocMLIR's lit cases: rocmlir-opt -rock-transform-maps-utils-test (driver:
# mlir/test/lib/Dialect/Rock/testTransformationMapsUtils.cpp); each transcribes the maps of one
# func (top first, as untransform lists them), the dims removed, and the CHECK-NEXT lines

TRANSPOSE = ('<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
             '<PassThrough ["B", "C"] at [1, 2] -> ["B", "C"] at [2, 1]>] bounds = [1, 1024, 64] -> [1, 64, 1024]>')
EX1 = ('<affine_map<(d0, d1) -> (0, d0, d1)> by [<Merge{1, 4} ["A"] at [0] -> ["A", "B"] at [0, 1]>, '
       '<PassThrough ["C"] at [1] -> ["C"] at [2]>] bounds = [4, 32] -> [1, 4, 32]>',
       '<affine_map<(d0, d1, d2) -> (d1, d0, d2)> by [<PassThrough ["B", "A", "C"] at [0, 1, 2] -> '
       '["A", "B", "C"] at [1, 0, 2]>] bounds = [1, 4, 32] -> [4, 1, 32]>')
EX2 = ('<affine_map<(d0, d1, d2, d3) -> (d0, d1 * 256 + d2, d3)> by [<PassThrough ["A", "C"] at [0, 3] -> '
       '["A", "C"] at [0, 2]>, <Unmerge{4, 256} ["D", "B"] at [1, 2] -> ["B"] at [1]>] '
       'bounds = [1, 4, 256, 64] -> [1, 1024, 64]>', TRANSPOSE)
EX3 = ('<affine_map<(d0, d1, d2) -> (0, d1, d2)> by [<Broadcast{32} ["A"] at [0] -> ["A"] at [0]>, '
       '<PassThrough ["B", "C"] at [1, 2] -> ["B", "C"] at [1, 2]>] bounds = [32, 1024, 64] -> [1, 1024, 64]>',
       TRANSPOSE)
EX4 = ('<affine_map<(d0, d1) -> (d0, 0, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
       '<ConstDim{0, 1} [] at [] -> ["B"] at [1]>, <PassThrough ["C"] at [1] -> ["C"] at [2]>] '
       'bounds = [1, 64] -> [1, 1024, 64]>', TRANSPOSE)
EX5 = ('<affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)> by [<AddDim{8} ["X"] at [1] -> [] at []>, '
       '<PassThrough ["A", "B", "C"] at [0, 2, 3] -> ["A", "B", "C"] at [0, 1, 2]>] '
       'bounds = [1, 8, 1024, 64] -> [1, 1024, 64]>', TRANSPOSE)
PT_C = '#rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough ["C"] at [0] -> ["C"] at [0]>] bounds = [32] -> [32]>'

LIT = [
    ("test0 transform_ex1", EX1, ["A"], [PT_C, PT_C]),
    ("test1 transform_ex1", EX1, ["C"], [
        '#rock.transform_map<affine_map<(d0) -> (0, d0)> by [<Merge{1, 4} ["A"] at [0] -> ["A", "B"] at [0, 1]>] '
        'bounds = [4] -> [1, 4]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["B", "A"] at [0, 1] -> ["A", "B"] '
        'at [1, 0]>] bounds = [1, 4] -> [4, 1]>']),
    ("test2 transform_ex1", EX1, ["X"], ["#rock.transform_map" + EX1[0], "#rock.transform_map" + EX1[1]]),
    ("test0 transform_ex2", EX2, ["D"], [
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["A", "C"] at [0, 2] -> '
        '["A", "C"] at [0, 2]>, <Unmerge{256} ["B"] at [1] -> ["B"] at [1]>] bounds = [1, 256, 64] -> [1, 256, 64]>',
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<PassThrough ["B", "C"] at [1, 2] -> ["B", "C"] at [2, 1]>] bounds = [1, 256, 64] -> [1, 64, 256]>']),
    ("test1 transform_ex2", EX2, ["B"], [
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["A", "C"] at [0, 2] -> '
        '["A", "C"] at [0, 2]>, <Unmerge{4} ["D"] at [1] -> ["B"] at [1]>] bounds = [1, 4, 64] -> [1, 4, 64]>',
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<PassThrough ["B", "C"] at [1, 2] -> ["B", "C"] at [2, 1]>] bounds = [1, 4, 64] -> [1, 64, 4]>']),
    ("test2 transform_ex2", EX2, ["B", "D"], [
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["A", "C"] at [0, 1] -> ["A", "C"] '
        'at [0, 1]>] bounds = [1, 64] -> [1, 64]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<PassThrough ["C"] at [1] -> ["C"] at [1]>] bounds = [1, 64] -> [1, 64]>']),
    ("test3 transform_ex2", EX2, ["A", "C"], [
        '#rock.transform_map<affine_map<(d0, d1) -> (d0 * 256 + d1)> by [<Unmerge{4, 256} ["D", "B"] at [0, 1] -> '
        '["B"] at [0]>] bounds = [4, 256] -> [1024]>',
        '#rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough ["B"] at [0] -> ["B"] at [0]>] '
        'bounds = [1024] -> [1024]>']),
    ("test0 transform_ex3", EX3, ["A"], [
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["B", "C"] at [0, 1] -> ["B", "C"] '
        'at [0, 1]>] bounds = [1024, 64] -> [1024, 64]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["B", "C"] at [0, 1] -> ["B", "C"] '
        'at [1, 0]>] bounds = [1024, 64] -> [64, 1024]>']),
    ("test1 transform_ex3", EX3, ["C"], [
        '#rock.transform_map<affine_map<(d0, d1) -> (d0 mod 32, d1)> by [<Broadcast{32} ["A"] at [0] -> ["A"] '
        'at [0]>, <PassThrough ["B"] at [1] -> ["B"] at [1]>] bounds = [32, 1024] -> [1, 1024]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<PassThrough ["B"] at [1] -> ["B"] at [1]>] bounds = [1, 1024] -> [1, 1024]>']),
    ("test0 transform_ex4", EX4, ["A"], [
        '#rock.transform_map<affine_map<(d0) -> (0, d0)> by [<ConstDim{0, 1} [] at [] -> ["B"] at [0]>, '
        '<PassThrough ["C"] at [0] -> ["C"] at [1]>] bounds = [64] -> [1024, 64]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["B", "C"] at [0, 1] -> ["B", "C"] '
        'at [1, 0]>] bounds = [1024, 64] -> [64, 1024]>']),
    ("test1 transform_ex4", EX4, ["C"], [
        '#rock.transform_map<affine_map<(d0) -> (d0, 0)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<ConstDim{0, 1} [] at [] -> ["B"] at [1]>] bounds = [1] -> [1, 1024]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["A"] at [0] -> ["A"] at [0]>, '
        '<PassThrough ["B"] at [1] -> ["B"] at [1]>] bounds = [1, 1024] -> [1, 1024]>']),
    ("test2 transform_ex4", EX4, ["A", "C"], [
        '#rock.transform_map<affine_map<() -> (0)> by [<ConstDim{0, 1} [] at [] -> ["B"] at [0]>] '
        'bounds = [] -> [1024]>',
        '#rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough ["B"] at [0] -> ["B"] at [0]>] '
        'bounds = [1024] -> [1024]>']),
    ("test0 transform_ex5", EX5, ["X"], [
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["A", "B", "C"] at [0, 1, 2] '
        '-> ["A", "B", "C"] at [0, 1, 2]>] bounds = [1, 1024, 64] -> [1, 1024, 64]>',
        "#rock.transform_map" + TRANSPOSE]),
    ("test1 transform_ex5", EX5, ["A", "B", "C"], [
        '#rock.transform_map<affine_map<(d0) -> ()> by [<AddDim{8} ["X"] at [0] -> [] at []>] bounds = [8] -> []>']),
    # the two Merge cases of the lit test's later version (remove_dims with names_to_drop)
    ("transform_unmerge_merge_unmerge_pt", (
        '<affine_map<(d0, d1) -> (d0 * 16 + d1)> by [<Unmerge{8, 16} ["A1", "A2"] at [0, 1] -> ["A"] at [0]>] '
        'bounds = [8, 16] -> [128]>',
        '<affine_map<(d0) -> (d0 floordiv 32, d0 mod 32)> by [<Merge{4, 32} ["A"] at [0] -> ["A", "C"] at [0, 1]>] '
        'bounds = [128] -> [4, 32]>', EX1[0], EX1[1]), ["A1"], [
        '#rock.transform_map<affine_map<(d0) -> (d0)> by [<Unmerge{16} ["A2"] at [0] -> ["A"] at [0]>] '
        'bounds = [16] -> [16]>',
        '#rock.transform_map<affine_map<(d0) -> (0, d0)> by [<Merge{1, 16} ["A"] at [0] -> ["A", "C"] at [0, 1]>] '
        'bounds = [16] -> [1, 16]>',
        '#rock.transform_map<affine_map<(d0, d1) -> (0, 0, d1)> by [<Merge{1, 1} ["A"] at [0] -> ["A", "B"] '
        'at [0, 1]>, <PassThrough ["C"] at [1] -> ["C"] at [2]>] bounds = [1, 16] -> [1, 1, 16]>',
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d1, d0, d2)> by [<PassThrough ["B", "A", "C"] '
        'at [0, 1, 2] -> ["A", "B", "C"] at [1, 0, 2]>] bounds = [1, 1, 16] -> [1, 1, 16]>']),
    ("transform_unmerge_merge_pt_unmerge_merge", (
        '<affine_map<(d0, d1, d2) -> (d0 * 512 + d1 * 16 + d2)> by [<Unmerge{8, 32, 16} ["A1", "A2", "A3"] '
        'at [0, 1, 2] -> ["A"] at [0]>] bounds = [8, 32, 16] -> [4096]>',
        '<affine_map<(d0) -> (d0 floordiv 256, (d0 mod 256) floordiv 32, d0 mod 32)> by [<Merge{16, 8, 32} ["A"] '
        'at [0] -> ["B1", "B2", "B3"] at [0, 1, 2]>] bounds = [4096] -> [16, 8, 32]>',
        '<affine_map<(d0, d1, d2) -> (d1, d0, d2)> by [<PassThrough ["B1", "B2", "B3"] at [0, 1, 2] -> '
        '["B2", "B1", "B3"] at [1, 0, 2]>] bounds = [16, 8, 32] -> [8, 16, 32]>',
        '<affine_map<(d0, d1, d2) -> (d0 * 512 + d1 * 32 + d2)> by [<Unmerge{8, 16, 32} ["B2", "B1", "B3"] '
        'at [0, 1, 2] -> ["C"] at [0]>] bounds = [8, 16, 32] -> [4096]>',
        '<affine_map<(d0) -> (d0 floordiv 256, (d0 mod 256) floordiv 16, d0 mod 16)> by [<Merge{16, 16, 16} ["C"] '
        'at [0] -> ["C1", "C2", "C3"] at [0, 1, 2]>] bounds = [4096] -> [16, 16, 16]>'), ["A2"], [
        '#rock.transform_map<affine_map<(d0, d1) -> (d0 * 16 + d1)> by [<Unmerge{8, 16} ["A1", "A3"] at [0, 1] '
        '-> ["A"] at [0]>] bounds = [8, 16] -> [128]>',
        '#rock.transform_map<affine_map<(d0) -> (d0 floordiv 16, 0, d0 mod 16)> by [<Merge{8, 1, 16} ["A"] at [0] '
        '-> ["B1", "B2", "B3"] at [0, 1, 2]>] bounds = [128] -> [8, 1, 16]>',
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (d1, d0, d2)> by [<PassThrough ["B1", "B2", "B3"] '
        'at [0, 1, 2] -> ["B2", "B1", "B3"] at [1, 0, 2]>] bounds = [8, 1, 16] -> [1, 8, 16]>',
        '#rock.transform_map<affine_map<(d0, d1, d2) -> ((d0 * 8 + d1) * 16 + d2)> by [<Unmerge{1, 8, 16} '
        '["B2", "B1", "B3"] at [0, 1, 2] -> ["C"] at [0]>] bounds = [1, 8, 16] -> [128]>',
        '#rock.transform_map<affine_map<(d0) -> (d0 floordiv 64, (d0 mod 64) floordiv 16, d0 mod 16)> by '
        '[<Merge{2, 4, 16} ["C"] at [0] -> ["C1", "C2", "C3"] at [0, 1, 2]>] bounds = [128] -> [2, 4, 16]>']),
]


@pytest.mark.parametrize(("name", "maps", "names", "expected"), LIT, ids=[case[0] for case in LIT])
def test_rocmlir_lit_cases(name: str, maps: tuple[str, ...], names: list[str], expected: list[str]) -> None:
    chain = [P(m, strict=False) for m in maps]  # ex3 and ex4 break Broadcast's and ConstDim's bound rules
    result = rs.rocmlir_remove_upper_dims(chain, names)
    assert result.maps is not None, name
    assert [va.print_transform_map(m) for m in result.maps] == expected
    assert rs.compare_remove_upper_dims(chain, names).verdict == "equal"


# }}}


def test_rocmlir_ignores_padding() -> None:
    """A padded dim that the block id sub-tiles: rocMLIR's block view has Pad{0, 0} and reads,
    at block 0, points the exact view marks as padding."""
    grid = P('<affine_map<(d0, d1) -> (d0 * 4 + d1)> by [<Unmerge{2, 4} ["bid", "tid"] at [0, 1] '
             '-> ["x"] at [0]>] bounds = [2, 4] -> [8]>')
    pad = P('<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 2} ["x"] at [0] -> ["x"] at [0]>] bounds = [8] -> [4]>')
    result = rs.rocmlir_remove_upper_dims([grid, pad], ["bid"])
    assert result.maps is not None
    assert [str(op.params) for m in result.maps for op in m.ops] == ["(4,)", "(0, 0)"]
    comparison = rs.compare_remove_upper_dims([grid, pad], ["bid"])
    assert comparison.verdict == "rocMLIR unsound" and comparison.point is not None
    exact_image, rocmlir_image = comparison.images or (None, None)
    assert exact_image is None and rocmlir_image is not None
    assert chain_image((grid, pad), (0, *comparison.point)) is None


def test_rocmlir_fails_on_embed() -> None:
    embed = P('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
              'bounds = [2, 3] -> [4]>')
    result = rs.rocmlir_remove_upper_dims(embed, ["a"])
    assert result.maps is None and result.reason == "removeUpperDims does not handle Embed"
    comparison = rs.compare_remove_upper_dims(embed, ["a"])
    assert comparison.verdict == "rocMLIR conservative" and comparison.exact.certificate.ok
    assert [str(op.params) for op in comparison.exact.chain.maps[0].ops] == ["(0, 3)"]  # Slice{0, 3}


def _factor_pairs(n: int) -> list[tuple[int, int]]:
    return [(a, n // a) for a in range(1, n + 1) if n % a == 0]


@st.composite
def tiled(draw: st.DrawFn) -> va.Chain:
    """A grid ``Unmerge{blocks, threads}`` over a ``Merge{m1, m2}`` of the same total, and maybe a
    Pad of the fast dim: the shape of rocMLIR's block and thread sub-tiles."""
    total = draw(st.integers(2, 24))
    nb, nt = draw(st.sampled_from(_factor_pairs(total)))
    m1, m2 = draw(st.sampled_from(_factor_pairs(total)))
    maps = [P(f'<affine_map<(d0, d1) -> (d0 * {nt} + d1)> by [<Unmerge{{{nb}, {nt}}} ["bid", "tid"] at [0, 1] '
              f'-> ["x"] at [0]>] bounds = [{nb}, {nt}] -> [{total}]>'),
            P(f'<affine_map<(d0) -> (d0 floordiv {m2}, d0 mod {m2})> by [<Merge{{{m1}, {m2}}} ["x"] at [0] '
              f'-> ["g", "h"] at [0, 1]>] bounds = [{total}] -> [{m1}, {m2}]>')]
    left = draw(st.integers(0, m2 - 1))
    right = draw(st.integers(0, m2 - 1 - left))
    if left + right:
        maps.append(P(f'<affine_map<(d0, d1) -> (d0, d1 - {left})> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, '
                      f'<Pad{{{left}, {right}}} ["h"] at [1] -> ["h"] at [1]>] '
                      f'bounds = [{m1}, {m2}] -> [{m1}, {m2 - left - right}]>'))
    return va.Chain(tuple(maps))


@given(chain=views(max_maps=2, max_points=120).map(va.Chain.of) | tiled(), data=st.data())
@settings(derandomize=True, deadline=None, max_examples=80)
def test_remove_upper_dims_verdicts_hold(chain: va.Chain, data: st.DataObject) -> None:
    """Each verdict's point is what it says, by brute force; "equal" is checked at every point."""
    shape = chain.upper_bounds
    removed = data.draw(st.sets(st.sampled_from(range(len(shape))))) if shape else set()
    c = rs.compare_remove_upper_dims(chain, sorted(removed))
    if c.rocmlir.maps is None or not c.rocmlir.maps:
        return
    digits = dict(c.rocmlir.removed_sub_dims)
    kept = c.rocmlir.kept_upper
    for point in itertools.product(*(range(shape[d]) for d in kept)):
        full = [0] * len(shape)
        for d, v in zip(kept, point, strict=True):
            full[d] = v
        mine = chain_image(chain.maps, tuple(full))
        mine_kept = None if mine is None else tuple(rs._compacted(mine[k], digits.get(k, ()))  # noqa: SLF001
                                                    for k in c.rocmlir.kept_lower)
        theirs = chain_image(c.rocmlir.maps, point)
        if c.verdict == "equal":
            assert mine_kept == theirs
        elif point == c.point:
            assert mine_kept != theirs
