"""The values: transforms, transform maps, buffers and views; their checks and evaluation."""

from __future__ import annotations

import math
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import legal_lengths
from strategies import views

import viewalgebra as va
from viewalgebra._maps.view import addresses_on_grid  # noqa: TID251 -- the grid evaluation beside the oracle's


def pt(upper, lower, names=None):
    return va.transforms.PassThrough((), tuple(names or (f"u{d}" for d in upper)), tuple(upper),
                          tuple(f"l{d}" for d in lower), tuple(lower))


# {{{ transforms


def test_transforms_are_frozen_hashable_values():
    a = va.transforms.Merge([4, 8], ["x"], [0], ["a", "b"], [0, 1])
    b = va.transforms.Merge((4, 8), ("x",), (0,), ("a", "b"), (0, 1))
    assert a == b and hash(a) == hash(b) and a.params == (4, 8)
    assert a != va.transforms.Unmerge((4, 8), ("x", "y"), (0, 1), ("a",), (0,))
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.params = (1,)  # type: ignore[misc]


def test_only_the_nine_transforms_exist():
    # Every match over transform types ends in assert_never (pyright checks it covers the nine);
    # construction admits nothing else, so none is reached at run time.
    with pytest.raises(va.errors.InvalidTransformError, match="Transform is not a rock transform"):
        va.transforms.Transform((), ("a",), (0,), ("a",), (0,))

    class Tenth(va.transforms.Transform):
        kind = "Tenth"

    with pytest.raises(va.errors.InvalidTransformError, match="Tenth is not a rock transform"):
        Tenth((), ("a",), (0,), ("a",), (0,))

    class Renamed(va.transforms.PassThrough):
        pass

    tm = va.TransformMap((Renamed((), ("a",), (0,), ("a",), (0,)),), (3,), (3,))
    assert va.evaluate(tm, (2,)) == ((2,), True)


def test_field_types_are_checked():
    with pytest.raises(va.errors.InvalidTransformError, match="Merge params must be integers"):
        va.transforms.Merge(("4",), ("x",), (0,), ("a",), (0,))  # type: ignore[arg-type]
    with pytest.raises(va.errors.InvalidTransformError, match="upper names must be a sequence of strings"):
        va.transforms.PassThrough((), "a", (0,), ("a",), (0,))  # type: ignore[arg-type]


def test_typed_views_of_params():
    assert va.transforms.Pad((1, 2, 0, 3), ("a", "b"), (0, 1), ("a", "b"), (0, 1)).amounts == ((1, 2), (0, 3))
    assert va.transforms.Slice((2, 5), ("a",), (0,), ("a",), (0,)).ranges == ((2, 5),)
    assert va.transforms.ConstDim((0, 1, 2, 3), (), (), ("a", "b"), (0, 1)).values == ((0, 1), (2, 3))


# }}}
# {{{ strict checks beyond rocMLIR's verifier


@pytest.mark.parametrize(("ops", "bounds", "message"), [
    ((pt([0], [0]),), ((4, 4), (4,)), "upper dim 1 is used by no transform"),
    ((pt([0], [0]),), ((4,), (4, 4)), "lower dim 1 is defined by 0 transforms"),
    ((pt([0, 1], [0, 0]),), ((4, 4), (4, 4)), "lower dim 0 is defined by 2 transforms"),
    ((pt([2], [0]),), ((4,), (4,)), "upper dim 2 out of range for 1 upper dims"),
    ((pt([0], [0]),), ((4,), (5,)), "lower bound of dim 0 is 5, the upper bound 4 passed through"),
    ((va.transforms.Pad((1,), ("a",), (0,), ("a",), (0,)),), ((5,), (4,)), "needs 2 parameters per dim (2), got 1"),
    ((va.transforms.Pad((1, 1), ("a",), (0,), ("a", "b"), (0, 1)),), ((6,), (4, 4)), "1 upper dims but 2 lower dims"),
    ((va.transforms.Pad((1, 2), ("a",), (0,), ("a",), (0,)),), ((6,), (4,)), "upper bound 6 != lower bound 4 + 1 + 2"),
    ((va.transforms.Pad((-1, 2), ("a",), (0,), ("a",), (0,)),), ((5,), (4,)), "negative padding (-1, 2)"),
    ((va.transforms.Slice((3, 2), ("a",), (0,), ("a",), (0,)),), ((0,), (4,)), "slice [3, 2) of lower dim 0"),
    ((va.transforms.Slice((1, 3), ("a",), (0,), ("a",), (0,)),), ((3,), (4,)), "upper bound 3 != 3 - 1"),
    ((va.transforms.Slice((1, 6), ("a",), (0,), ("a",), (0,)),), ((5,), (4,)), "slice end 6 exceeds lower bound 4"),
    ((va.transforms.Unmerge((2, 3), ("a", "b"), (0, 1), ("x",), (0,)),), ((2, 4), (6,)), "upper bound 4 of dim 1 != size 3"),
    ((va.transforms.Unmerge((2, 3), ("a", "b"), (0, 1), ("x",), (0,)),), ((2, 3), (7,)), "lower bound 7 != product of sizes 6"),
    ((va.transforms.Merge((2, 3), ("a",), (0,), ("x", "y"), (0, 1)),), ((6,), (2, 4)), "lower bound 4 of dim 1 != size 3"),
    ((va.transforms.Merge((2, 3), ("a",), (0,), ("x", "y"), (0, 1)),), ((7,), (2, 3)), "upper bound 7 != product of sizes 6"),
    ((va.transforms.Merge((2, 0), ("a",), (0,), ("x", "y"), (0, 1)),), ((0,), (2, 0)), "sizes must be at least 1"),
    ((va.transforms.AddDim((3,), ("a",), (0,), (), ()), pt([1], [0])), ((4, 2), (2,)), "upper bound 4 != size 3"),
    ((va.transforms.Broadcast((2,), ("a",), (0,), ("x",), (0,)),), ((6,), (3,)), "lower bound 3 of dim 0 != length 2"),
    ((va.transforms.Broadcast((0,), ("a",), (0,), ("x",), (0,)),), ((6,), (0,)), "lengths must be at least 1"),
    ((va.transforms.ConstDim((1, 2), (), (), ("x",), (0,)),), ((), (3,)), "lower bound 3 of dim 0 != length 2"),
    ((va.transforms.ConstDim((-1, 2), (), (), ("x",), (0,)),), ((), (2,)), "negative constant -1"),
])
def test_strict_checks(ops, bounds, message):
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(message)):
        va.TransformMap(ops, *bounds)
    lenient = va.TransformMap(ops, *bounds, strict=False)
    assert any(message in p.message for p in va.transforms.problems(lenient))
    assert any(message in f.message for f in va.lint(lenient))


def test_rocmlir_checks_apply_even_when_lenient():
    with pytest.raises(va.errors.InvalidTransformError, match="Upper bound/shape component less than 0"):
        va.TransformMap((pt([0], [0]),), (-1,), (4,), strict=False)


def test_structural_equality_ignores_strictness():
    a = va.TransformMap((pt([0], [0]),), (4,), (4,))
    assert a == va.TransformMap((pt([0], [0]),), [4], [4], strict=False)
    assert hash(a) == hash(va.TransformMap((pt([0], [0]),), (4,), (4,), strict=False))


# }}}
# {{{ buffers


@pytest.mark.parametrize(("dtype", "bits"), [
    ("f32", 32), ("f16", 16), ("bf16", 16), ("f64", 64), ("i8", 8), ("i32", 32), ("i1", 1),
    ("ui4", 4), ("f8E4M3FNUZ", 8), ("index", 64)])
def test_dtype_bits(dtype, bits):
    assert va.text.dtype_bits(dtype) == bits
    assert va.Buffer((2,), dtype).bits == bits


def test_buffer_layouts():
    row = va.Buffer((4, 5, 8))
    assert row.strides == (40, 8, 1) and row.is_row_major and str(row) == "memref<4x5x8xf32>"
    strided = va.Buffer((4, 8), "f16", (1, 4), 3)
    assert strided.address((2, 5)) == 3 + 2 + 20
    assert str(strided) == "memref<4x8xf16, strided<[1, 4], offset: 3>>"
    assert va.text.parse_memref_type(str(strided)) == strided
    with pytest.raises(va.errors.InvalidTransformError, match="Buffer has 2 dims but 1 strides"):
        va.Buffer((4, 8), strides=(1,))
    with pytest.raises(va.errors.InvalidTransformError, match="negative size"):
        va.Buffer((-1,))


# }}}
# {{{ views


MERGE_VIEW = va.View(va.Buffer((4, 5, 8), "f32"), [va.parse_transform_map(
    '#rock.transform_map<affine_map<(d0, d1) -> (d0 floordiv 8, d1, d0 mod 8)> '
    'by [<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 2]>, '
    '<PassThrough ["0"] at [1] -> ["0"] at [1]>] bounds = [32, 5] -> [4, 5, 8]>')])


def test_design_example_address():
    assert MERGE_VIEW.shape == (32, 5)
    assert MERGE_VIEW.address((9, 3)) == 1 * 40 + 3 * 8 + 1


def test_address_checks_the_point():
    with pytest.raises(va.errors.CoordinateError, match=re.escape("coordinate 0 is 32, outside [0, 32)")):
        MERGE_VIEW.address((32, 0))
    with pytest.raises(va.errors.CoordinateError, match="1 coordinates for a space of rank 2"):
        MERGE_VIEW.address((3,))


def test_padding_reads_as_none():
    pad = va.parse_transform_map(
        '<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 1} ["x"] at [0] -> ["x"] at [0]>] '
        'bounds = [7] -> [4]>')
    view = va.View(va.Buffer((4,)), [pad])
    assert [view.address((i,)) for i in range(7)] == [None, None, 0, 1, 2, 3, None]
    addr, valid = view.addresses()
    assert addr.tolist() == [-1, -1, 0, 1, 2, 3, -1]
    assert valid.tolist() == [False, False, True, True, True, True, False]


def test_view_without_maps_is_the_buffer():
    view = va.View(va.Buffer((2, 3), strides=(1, 2), offset=1))
    addr, valid = view.addresses()
    assert addr.tolist() == [[1, 3, 5], [2, 4, 6]] and valid.all()


def test_view_chain_must_line_up():
    tr = va.TransformMap((pt([0, 1], [1, 0]),), (4, 8), (8, 4))
    with pytest.raises(va.errors.InvalidTransformError,
                       match=re.escape("View: lower bounds of map 0 [8, 4] != buffer shape [8, 5]")):
        va.View(va.Buffer((8, 5)), [tr])
    with pytest.raises(va.errors.InvalidTransformError, match="lower rank of map 0 \\(2\\) != rank"):
        va.View(va.Buffer((32,)), [tr], strict=False)
    with pytest.raises(va.errors.InvalidTransformError,
                       match=re.escape("View: lower bounds of map 0 [8, 4] != upper bounds of map 1 [4, 8]")):
        va.View(va.Buffer((8, 4)), [tr, tr])
    lenient = va.View(va.Buffer((8, 5)), [tr], strict=False)
    assert [f.code for f in va.lint(lenient)] == ["chain"]


def test_two_transposes_are_the_identity():
    tr = va.TransformMap((pt([0, 1], [1, 0]),), (4, 4), (4, 4))
    buf = va.Buffer((4, 4))
    assert va.equivalent(va.View(buf, [tr, tr]), va.View(buf))
    assert not va.equivalent(va.View(buf, [tr]), va.View(buf))


def test_equivalence_is_semantic():
    embed = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 * 3 + d1)> by [<Embed{3, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [2, 3] -> [6]>')
    unmerge = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 * 3 + d1)> by [<Unmerge{2, 3} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [2, 3] -> [6]>')
    assert embed != unmerge and va.equivalent(embed, unmerge)
    wider = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 * 3 + d1)> by [<Embed{3, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [2, 3] -> [5]>')
    assert not va.equivalent(embed, wider)  # the point (1, 2) is invalid in the narrower one
    with pytest.raises(va.errors.InvalidTransformError, match="compare two views"):
        va.equivalent(embed, va.View(va.Buffer((6,)), [embed]))


def test_isl_objects_of_a_view():
    f = va.isl.coordinates(MERGE_VIEW)
    assert f.domain().is_equal(va.isl.box(MERGE_VIEW))
    assert va.isl.valid_points(MERGE_VIEW).is_equal(va.isl.box(MERGE_VIEW))
    rel = va.isl.addresses(MERGE_VIEW)
    assert rel.is_single_valued() and rel.is_injective()
    assert rel.range().is_equal(va.isl.addresses(va.View(va.Buffer((160,)))).range())


def test_numpy_evaluation_of_a_map_matches_the_scalar_one():
    tm = MERGE_VIEW.maps[0]
    points = np.indices(tm.upper_bounds).reshape(2, -1).T
    lower, valid = va.evaluate_array(tm, points)
    assert valid.all()
    for p, lo in zip(points, lower, strict=True):
        assert va.evaluate(tm, tuple(p)) == (tuple(lo), True)


def _box_grid(shape: tuple[int, ...]) -> list[np.ndarray]:
    return [np.arange(n).reshape([n if j == k else 1 for j in range(len(shape))]) for k, n in enumerate(shape)]


@given(view=views(max_maps=3, max_points=400), data=st.data())
@settings(derandomize=True, deadline=None, max_examples=120)
def test_grid_evaluation_equals_the_evaluation_of_every_point(view, data):
    """``addresses_on_grid`` (one array of coordinates per dim, each map on arrays only as large as
    the dims it reads) against the oracle's evaluation of every point of the box, and of lines
    through random points as the vector-length probe draws them (positions in any order)."""
    addr, valid = view.addresses()
    got, ok = addresses_on_grid(view, _box_grid(view.shape))
    assert ok.shape == view.shape
    assert (np.broadcast_to(got, view.shape) == addr).all() and (ok == valid).all()
    if view.rank == 0:
        return
    dim = data.draw(st.integers(0, view.rank - 1))
    lines = np.array(data.draw(st.lists(st.tuples(*(st.integers(0, n - 1) for n in view.shape)),
                                        min_size=1, max_size=5)), dtype=np.int64)
    positions = np.array(data.draw(st.lists(st.integers(0, view.shape[dim] - 1), min_size=1, max_size=8)),
                         dtype=np.int64)
    grid = [lines[:, k:k + 1] for k in range(view.rank)]
    grid[dim] = positions.reshape(1, -1)
    got, ok = addresses_on_grid(view, grid)
    shape = (len(lines), len(positions)) if view.rank > 1 else (1, len(positions))
    assert ok.shape == shape
    for i, line in enumerate(lines[:shape[0]]):
        for j, x in enumerate(positions):
            point = tuple(int(x) if k == dim else int(c) for k, c in enumerate(line))
            assert (np.broadcast_to(got, shape)[i, j], ok[i, j]) == (addr[point], valid[point])


def test_grid_evaluation_of_lenient_views():
    """The space below a map of a lenient view may be narrower than the map's lower bounds
    (``View.narrow_links``): rocMLIR's own test views."""
    text = (Path(__file__).parent / "data" / "rocmlir" / "test_vectorization_inference.mlir").read_text()
    lenient = [p.view for p in va.text.parse_mlir_views(text) if p.view is not None and p.view.narrow_links()]
    assert len(lenient) >= 5
    for view in lenient:
        addr, valid = view.addresses()
        got, ok = addresses_on_grid(view, _box_grid(view.shape))
        assert (np.broadcast_to(got, view.shape) == addr).all() and (ok == valid).all()
        assert not valid.all()


def test_a_map_hashes_anew_in_another_process():
    """A map keeps its hash once asked for, but not through pickle: another process (a worker)
    hashes strings differently, and must find the map in its caches."""
    tm = MERGE_VIEW.maps[0]
    hash(tm)
    code = ("import pickle, sys; import viewalgebra as va; tm = pickle.loads(sys.stdin.buffer.read()); "
            "fresh = va.parse_transform_map(va.print_transform_map(tm)); "
            "print(hash(tm) == hash(fresh), {fresh: 1}.get(tm))")
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # not this process's
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(tm), capture_output=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
    assert out.split() == [b"True", b"1"]
    assert pickle.loads(pickle.dumps(tm)) == tm and hash(pickle.loads(pickle.dumps(tm))) == hash(tm)


# }}}


def test_huge_sizes_are_exact_and_numpy_refuses_to_overflow():
    n = 2**40
    tm = va.parse_transform_map(
        f'<affine_map<(d0, d1) -> (d0 * {n} + d1)> by [<Unmerge{{{n}, {n}}} ["a", "b"] at [0, 1] -> '
        f'["x"] at [0]>] bounds = [{n}, {n}] -> [{n * n}]>')
    view = va.View(va.Buffer((n * n,), "i8"), [tm])
    assert view.address((n - 1, n - 1)) == n * n - 1  # Python integers: exact
    assert va.lint(view) == ()
    assert va.isl.addresses(view).is_equal(va.isl.addresses(view))
    with pytest.raises(va.ViewAlgebraError, match="beyond 64-bit integers"):
        va.evaluate_array(tm, np.array([[n - 1, n - 1]]))
    assert va.evaluate_array(tm, np.array([[3, 4]]))[0].tolist() == [[3 * n + 4]]
    with pytest.raises(va.errors.CoordinateError, match=re.escape("points must have shape (N, 2), got (2,)")):
        va.evaluate_array(tm, np.array([3, 4]))


def test_an_upper_dim_used_by_two_transforms_is_a_function_rocmlir_emits():
    # rocMLIR's blockwise lowering of a Broadcast: k_outer is passed through and also embedded.
    tm = va.parse_transform_map(
        '#rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d0 + d1, d2, d3)> by ['
        '<PassThrough ["k_outer"] at [0] -> ["k_outer"] at [0]>, '
        '<Embed{1, 1} ["k_outer", "m"] at [0, 1] -> ["m"] at [1]>, '
        '<PassThrough ["kpack_idx", "kpack_vec"] at [2, 3] -> ["kpack_idx", "kpack_vec"] at [2, 3]>] '
        'bounds = [8, 16, 1, 8] -> [8, 128, 1, 8]>')  # strict: it reads
    assert va.lint(tm) == () and va.transforms.problems(tm) == ()
    points = np.indices(tm.upper_bounds).reshape(4, -1).T
    lower, valid = va.evaluate_array(tm, points)
    assert valid.all() and (lower[:, 1] == points[:, 0] + points[:, 1]).all()
    view = va.View(va.Buffer((8, 128, 1, 8), "f16"), [tm])
    for d, n in enumerate(view.shape):  # exact, by enumeration
        assert va.max_vector_length(view, d).legal == tuple(legal_lengths(view, d, n))
    inverse = va.invert(tm)
    assert inverse.kind == "injective" and inverse.maps is None
    assert inverse.reason is not None and "upper dim 0 is used by 2 transforms" in inverse.reason


@pytest.mark.parametrize("sizes", [(2**32 + 1, 2**32), (3, 2**31, 2**31), (2**62, 1, 3)])
def test_numpy_merge_past_int64_products_equals_the_scalar_evaluation(sizes):
    # The sizes multiply beyond 2**63; coordinates and results still fit int64.
    n = len(sizes)
    merge = va.transforms.Merge(sizes, ("x",), (0,), tuple(f"l{i}" for i in range(n)), tuple(range(n)))
    total = math.prod(sizes)
    tm = va.TransformMap((merge,), (total,), sizes)
    points = [0, 1, 2**33, 2**62 + 5, 2**63 - 1]
    lower, valid = va.evaluate_array(tm, np.array([[p] for p in points]))
    assert [(tuple(int(c) for c in lo), bool(ok)) for lo, ok in zip(lower, valid, strict=True)] == [
        va.evaluate(tm, (p,)) for p in points]


_PT = '<affine_map<(d0) -> (d0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [4]>'


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: va.View(va.Buffer((4,))).address((1.5,)), va.errors.CoordinateError, "must be integers"),
    (lambda: va.View(va.Buffer((4,))).address((True,)), va.errors.CoordinateError, "must be integers"),
    (lambda: va.evaluate(va.parse_transform_map(_PT), (1.5,)), va.errors.CoordinateError, "must be integers"),
    (lambda: va.evaluate_array(va.parse_transform_map(_PT), np.array([[1.5]])), va.errors.CoordinateError,
     "points must be integers"),
    (lambda: va.Buffer((True, 3)), va.errors.InvalidTransformError, "Buffer shape must be integers"),
    (lambda: va.Buffer((2.0, 3)), va.errors.InvalidTransformError, "Buffer shape must be integers"),
    (lambda: va.transforms.Merge((True, 2), ("x",), (0,), ("a", "b"), (0, 1)), va.errors.InvalidTransformError,
     "Merge params must be integers"),
    (lambda: va.max_vector_length(va.View(va.Buffer((4, 8))), True), va.errors.InvalidArgumentError,
     "dim must be an integer"),
    (lambda: va.max_vector_length(va.View(va.Buffer((4, 8))), 1, 8.0), va.errors.InvalidArgumentError,
     "length must be an integer"),
    (lambda: va.max_vector_length(va.View(va.Buffer((4, 8))), 1, max_elements=2.5),
     va.errors.InvalidArgumentError, "max_elements must be an integer"),
    (lambda: va.max_vector_length(va.View(va.Buffer((4, 8))), 1, timeout="1"), va.errors.InvalidArgumentError,
     "timeout must be positive seconds"),
    (lambda: va.max_vector_length(va.parse_transform_map(_PT), 0), va.errors.InvalidArgumentError,
     "expected a View"),
    (lambda: va.invert(5), va.errors.InvalidArgumentError, "expected a Chain"),
    (lambda: va.compose(5, 5), va.errors.InvalidArgumentError, "expected a Chain"),
])
def test_integers_are_integers_and_everything_else_is_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_numpy_integers_are_integers():
    view = va.View(va.Buffer((np.int64(4), 8)))
    assert view.address((np.int64(2), np.int32(3))) == 19
    assert va.max_vector_length(view, np.int64(1), np.int64(4)).length == 4


def test_what_a_user_naturally_passes_is_accepted_where_unambiguous():
    tm = va.parse_transform_map(_PT)
    assert va.View(va.Buffer((4,)), tm).maps == (tm,)  # one map
    assert va.invert([_PT]).kind == "bijective"  # maps as text
    assert [va.Buffer((4,), t).dtype for t in (np.float16, np.dtype("int8"), np.uint8, np.bool_)] == [
        "f16", "i8", "ui8", "i1"]


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: va.Buffer((4,), object), va.errors.InvalidTransformError, "has no MLIR element type"),
    (lambda: va.parse_transform_map(None), va.errors.InvalidArgumentError, r"expected rocMLIR text \(a str\)"),
    (lambda: va.View(va.Buffer((4,)), "maps"), va.errors.InvalidTransformError, "listed top first"),
    (lambda: va.max_vector_length(va.View(va.Buffer((0, 4))), 0), va.errors.InvalidArgumentError,
     "dim 0 has size 0: there is nothing to vectorize"),
    (lambda: va.verify_inverse(*[va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
        'bounds = [4, 8] -> [8, 4]>')] * 2), va.errors.InvalidTransformError,
     r"must map \[8, 4\] -> \[4, 8\], but the one given maps \[4, 8\] -> \[8, 4\]"),
])
def test_messages_say_both_sides_and_what_is_expected(call, error, message):
    with pytest.raises(error, match=message):
        call()
