"""Validity: the invalid set, the view dims that decide it and the needed checks, each equal to
brute-force enumeration of its definition (docs/validity.md); rocMLIR's rule ported and
compared, on its own tests and on hand-made views where it is unsafe or conservative."""

from __future__ import annotations

import importlib
import itertools
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import islpy as isl
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import ROCMLIR_FILES
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import validity as vv  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._rocmlir import validity as rv  # noqa: TID251 -- each path to the answer is tested on its own

SETTINGS = settings(derandomize=True, deadline=None, max_examples=300)
METHODS: tuple[Literal["enumerate", "isl"], ...] = ("enumerate", "isl")


class Brute:
    """Every check of a view evaluated at every point of its box, with ``va.evaluate_array``."""

    def __init__(self, view: va.View) -> None:
        self.view = view
        every = list(itertools.product(*map(range, view.shape)))
        self.points = np.array(every, dtype=np.int64).reshape(len(every), view.rank)
        below = [m.upper_bounds for m in view.maps[1:]] + [view.buffer.shape]
        self.keys: list[tuple[int, int]] = []
        self.bound: dict[tuple[int, int], int] = {}
        self.value: dict[tuple[int, int], np.ndarray] = {}
        self.fails: dict[tuple[int, int], np.ndarray] = {}
        coords = self.points
        for k, m in enumerate(view.maps):
            coords, _ = va.evaluate_array(m, coords)
            for d in range(m.lower_rank):
                key, b = (k, d), min(m.lower_bounds[d], below[k][d])
                self.keys.append(key)
                self.bound[key] = b
                self.value[key] = coords[:, d].copy()
                self.fails[key] = (coords[:, d] < 0) | (coords[:, d] >= b)
        self.valid = np.ones(len(self.points), dtype=bool)
        for f in self.fails.values():
            self.valid &= ~f
        # the definition (every check passes) is the library's validity
        assert (self.valid == view.addresses()[1].reshape(-1)).all()

    def row(self, point: tuple[int, ...]) -> int:
        return int(np.ravel_multi_index(point, self.view.shape)) if self.view.rank else 0

    def failing(self, point: tuple[int, ...], among: list[tuple[int, int]] | None = None) -> set[tuple[int, int]]:
        i = self.row(point)
        return {key for key in (self.keys if among is None else among) if self.fails[key][i]}

    def kind(self, key: tuple[int, int]) -> tuple[str, set[tuple[int, int]]]:
        f = self.fails[key]
        others = [self.fails[o] for o in self.keys if o != key]
        elsewhere = np.any(others, axis=0) if others else np.zeros_like(f)
        if (f & ~elsewhere).any():
            return "needed", set()
        if f.any():
            return "implied", {o for o in self.keys if o != key and (self.fails[o] & f).any()}
        return "never fails", set()

    def dim_matters(self, d: int) -> bool:
        grid = self.valid.reshape(self.view.shape)
        if grid.size == 0:
            return False  # no point, so no two points that differ in validity
        return bool((grid != np.take(grid, [0], axis=d)).any())


def greedy(keys: list[tuple[int, int]], fails: dict[tuple[int, int], np.ndarray]) -> list[tuple[int, int]]:
    """From the last check back, drop each one the kept others reject wherever it fails."""
    kept = [k for k in keys if fails[k].any()]
    for k in reversed(list(kept)):
        rest = [fails[o] for o in kept if o != k]
        if rest and not (fails[k] & ~np.any(rest, axis=0)).any():
            kept.remove(k)
    return kept


def check_sufficient(kept: list[tuple[int, int]], fails: dict[tuple[int, int], np.ndarray],
                     rejected: np.ndarray) -> None:
    """The kept checks reject exactly the rejected points, and none of them can be dropped."""
    union = np.any([fails[k] for k in kept], axis=0) if kept else np.zeros_like(rejected)
    assert (union == rejected).all()
    for k in kept:
        rest = [fails[o] for o in kept if o != k]
        assert (fails[k] & ~(np.any(rest, axis=0) if rest else np.zeros_like(rejected))).any()


def check_answer(view: va.View, answer: vv.Validity, brute: Brute) -> None:
    assert answer.points == len(brute.points)
    assert answer.invalid_count == int((~brute.valid).sum())
    if answer.invalid_count:
        assert answer.witness is not None and brute.failing(answer.witness)
    else:
        assert answer.witness is None
    for impact in answer.dims:
        assert impact.matters is brute.dim_matters(impact.dim)
        if impact.matters:
            p, q = impact.valid_point, impact.invalid_point
            assert p is not None and q is not None
            assert [i for i, (a, b) in enumerate(zip(p, q, strict=True)) if a != b] == [impact.dim]
            assert not brute.failing(p) and brute.failing(q)
    for k, dims in enumerate(answer.checks):
        assert len(dims) == view.maps[k].lower_rank
        for d, c in enumerate(dims):
            key = (k, d)
            assert (c.map_index, c.dim, c.bound) == (k, d, brute.bound[key])
            kind, implied_by = brute.kind(key)
            assert c.kind == kind and set(c.implied_by) == implied_by
            if kind == "needed":
                assert c.point is not None and brute.failing(c.point) == {key}
            elif kind == "implied":
                assert c.point is not None and key in brute.failing(c.point)
            if c.point is not None:
                assert c.value == int(brute.value[key][brute.row(c.point)])
    assert list(answer.sufficient) == greedy(brute.keys, brute.fails)
    check_sufficient(list(answer.sufficient), brute.fails, ~brute.valid)
    assert set(answer.needed_checks) <= set(answer.sufficient)
    for need in answer.maps:
        mine = [key for key in brute.keys if key[0] == need.map_index]
        theirs = [key for key in brute.keys if key[0] != need.map_index]
        alone = np.zeros(len(brute.points), dtype=bool)
        for key in mine:
            alone |= brute.fails[key]
        for key in theirs:
            alone &= ~brute.fails[key]
        assert need.needed is bool(alone.any())
        if need.needed:
            assert need.point is not None and brute.failing(need.point, mine) and not brute.failing(need.point, theirs)


@st.composite
def lenient_views(draw: st.DrawFn) -> va.View:
    """A strict view made lenient: the top map's upper bounds widened (its coordinates can leave
    their lower bounds) and the buffer narrowed (a space below narrower than a map's bounds)."""
    view = draw(views(max_maps=2, max_points=120))
    top, rest = view.maps[0], view.maps[1:]
    upper = tuple(n + draw(st.integers(0, 2)) for n in top.upper_bounds)
    maps = (va.TransformMap(top.ops, upper, top.lower_bounds, strict=False), *rest)
    shape = tuple(draw(st.integers(1, n)) for n in view.buffer.shape)
    return va.View(va.Buffer(shape, view.buffer.dtype), maps, strict=False)


@st.composite
def embed_views(draw: st.DrawFn) -> va.View:
    """An Embed whose sum can leave its bound though each term fits (or not), with negative
    and zero coefficients, optionally below a Pad: where rocMLIR's per-term test errs."""
    T = va.transforms
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))
    coefficients = tuple(draw(st.integers(1, 3) | st.integers(-2, 4)) for _ in sizes)
    # at or just above the largest term, where the per-term test passes and the sum may not fit
    term = max(1, *(n * c for n, c in zip(sizes, coefficients, strict=True)))
    lower = draw(st.integers(term, term + 3) | st.integers(1, 24))
    dims = tuple(range(len(sizes)))
    names = tuple(f"u{d}" for d in dims)
    embed = T.Embed(coefficients, names, dims, ("x",), (0,))
    maps = [va.TransformMap((embed,), tuple(sizes), (lower,))]
    if draw(st.booleans()):
        amounts = [(draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in sizes]
        pad = T.Pad(tuple(a for pair in amounts for a in pair), names, dims, names, dims)
        upper = tuple(n + left + right for n, (left, right) in zip(sizes, amounts, strict=True))
        maps.insert(0, va.TransformMap((pad,), upper, tuple(sizes)))
    return va.View(va.Buffer((lower,)), tuple(maps))


@given(view=views(max_maps=3, max_points=300))
@SETTINGS
def test_validity_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    for method in METHODS:
        check_answer(view, vv.answer_by(view, None, method), brute)


@given(view=views(max_maps=3, max_points=300, zero=True) | views(max_maps=3, max_points=300, thin=True))
@settings(SETTINGS, max_examples=120)
def test_validity_of_empty_boxes_and_thin_valid_sets_equals_enumeration(view: va.View) -> None:
    """Size-0 dims (no point at all) and valid sets that leave whole coordinate ranges without a
    valid point, on both paths, and rocMLIR's comparison on them."""
    brute = Brute(view)
    for method in METHODS:
        check_answer(view, vv.answer_by(view, None, method), brute)
        check_comparison(view, rv.compare_by(view, None, method), brute)


@pytest.mark.parametrize("view", [
    va.View(va.Buffer((0, 4))),
    va.View(va.Buffer((5, 4)), [va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 + 3, d1)> by [<Slice{3, 3} ["a"] at [0] -> ["a"] at [0]>, '
        '<PassThrough ["b"] at [1] -> ["b"] at [1]>] bounds = [0, 4] -> [5, 4]>')]),
], ids=["buffer 0x4", "empty slice"])
def test_a_size_0_dim_has_no_point(view: va.View) -> None:
    """A size-0 dim: no point, none invalid, no dim matters; numpy's ``take`` along an empty axis
    raised ``IndexError`` here."""
    answer = va.validity(view)
    check_answer(view, answer, Brute(view))
    assert (answer.points, answer.invalid_count, answer.witness, answer.impacting_dims) == (0, 0, None, ())
    assert str(answer) == "no point: a dim of the view has size 0"
    comparison = va.rocmlir.compare_validity(view)
    assert comparison.verdict == "equal" and comparison.rocmlir_invalid_count == 0


def test_padding_of_nothing_has_no_valid_point() -> None:
    """``Pad{1, 2}`` of a size-0 buffer: 3 points, every one padding; no dim decides it."""
    view = va.View(va.Buffer((0,)), [va.parse_transform_map(
        '<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 2} ["p"] at [0] -> ["q"] at [0]>] bounds = [3] -> [0]>')])
    for method in METHODS:
        answer = vv.answer_by(view, None, method)
        check_answer(view, answer, Brute(view))
        assert (answer.points, answer.invalid_count, answer.impacting_dims) == (3, 3, ())
        assert answer.checks[0][0].kind == "needed"
    assert va.rocmlir.compare_validity(view).verdict == "equal"
    assert va.index_range(view).coordinates == ((None,),)


@given(view=lenient_views())
@settings(SETTINGS, max_examples=200)
def test_validity_of_lenient_views_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    for method in METHODS:
        check_answer(view, vv.answer_by(view, None, method), brute)


@given(view=views(max_maps=2, max_points=100))
@settings(SETTINGS, max_examples=40)
def test_invalid_set_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    found: set[tuple[int, ...]] = set()
    vv.invalid_set(view).foreach_point(
        lambda p: found.add(tuple(p.get_coordinate_val(isl.dim_type.set, i).to_python()
                                  for i in range(view.rank))))
    assert found == {tuple(int(c) for c in p) for p, ok in zip(brute.points, brute.valid, strict=True)
                     if not ok}


def check_comparison(view: va.View, c: rv.ValidityComparison, brute: Brute) -> None:
    emitted = [(k, d) for k, dims in enumerate(rv.rocmlir_view_checks(view)) for d in dims]
    assert [(k, d) for k, dims in enumerate(c.rocmlir_checks) for d in dims] == emitted
    r_fails = {key: (brute.value[key] < 0) | (brute.value[key] >= view.maps[key[0]].lower_bounds[key[1]])
               for key in emitted}
    accessed = np.ones(len(brute.points), dtype=bool)
    for f in r_fails.values():
        accessed &= ~f
    assert c.rocmlir_invalid_count == int((~accessed).sum())
    unsafe = {key for key in brute.keys if (brute.fails[key] & accessed).any()}
    assert {(u.map_index, u.dim) for u in c.unchecked} == unsafe
    for u in c.unchecked:
        i = brute.row(u.point)
        assert accessed[i] and brute.fails[(u.map_index, u.dim)][i]
        assert u.value == int(brute.value[(u.map_index, u.dim)][i]) and u.emitted is ((u.map_index, u.dim) in r_fails)
    kept = greedy(emitted, r_fails)
    check_sufficient(kept, r_fails, ~accessed)
    expected: dict[tuple[int, int], tuple[str, set[tuple[int, int]]]] = {}
    for key, f in r_fails.items():
        if not f.any():
            expected[key] = ("never fails", set())
        elif key not in kept:
            expected[key] = ("implied", {o for o in kept if (r_fails[o] & f).any()})
    assert {(n.map_index, n.dim): (n.kind, set(n.implied_by)) for n in c.needless} == expected
    for n in c.needless:
        if n.kind == "implied":
            assert n.point is not None and r_fails[(n.map_index, n.dim)][brute.row(n.point)]
    assert (c.verdict == "rocMLIR unsound") is bool(unsafe or c.missed_dims)
    if not unsafe:
        # a sound mask is the valid set, so every dim it depends on is named by the port
        assert not c.missed_dims
    dims = set(rv.rocmlir_impacting_view_dims(view))
    assert {d.dim for d in c.missed_dims} == {d for d in range(view.rank) if brute.dim_matters(d)} - dims


@given(view=views(max_maps=3, max_points=300))
@settings(SETTINGS, max_examples=200)
def test_comparison_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    for method in METHODS:
        check_comparison(view, rv.compare_by(view, None, method), brute)


@given(view=embed_views())
@settings(SETTINGS, max_examples=200)
def test_comparison_of_embeds_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    check_answer(view, vv.answer_by(view, None, "isl"), brute)
    for method in METHODS:
        check_comparison(view, rv.compare_by(view, None, method), brute)


@given(view=lenient_views())
@settings(SETTINGS, max_examples=120)
def test_comparison_of_lenient_views_equals_enumeration(view: va.View) -> None:
    brute = Brute(view)
    for method in METHODS:
        check_comparison(view, rv.compare_by(view, None, method), brute)


def one_map(text: str, buffer: tuple[int, ...]) -> va.View:
    return va.View(va.Buffer(buffer), (va.parse_transform_map(text),))


EMBED_11 = ('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
            'bounds = [10, 10] -> [12]>')


@pytest.mark.parametrize("method", METHODS)
def test_embed_per_term_test_misses_an_overflow(method: Literal["enumerate", "isl"]) -> None:
    """rocMLIR's per-term test passes Embed{1, 1} over [10, 10] -> [12]; 28 points leave."""
    view = one_map(EMBED_11, (12,))
    tm = view.maps[0]
    (embed,) = tm.ops
    assert isinstance(embed, va.transforms.Embed) and not rv.rocmlir_embed_can_be_invalid(tm, embed)
    assert not rv.rocmlir_map_impacts_validity(tm) and rv.rocmlir_validity_checks(tm) == ()
    c = rv.compare_by(view, None, method)
    assert c.exact.invalid_count == 28 == sum(a + b >= 12 for a in range(10) for b in range(10))
    assert c.exact.impacting_dims == (0, 1) and c.exact.needed_checks == ((0, 0),)
    assert c.verdict == "rocMLIR unsound" and c.rocmlir_invalid_count == 0
    (u,) = c.unchecked
    assert (u.map_index, u.dim, u.bound, u.emitted) == (0, 0, 12, False)
    assert sum(u.point) == u.value >= 12
    assert c.rocmlir_dims == () and {d.dim for d in c.missed_dims} == {0, 1}


# mlir/test/Dialect/Rock/lowering_transforming_for.mlir (ROCm/rocMLIR): the maps of its
# @bounds_check_pad and @bounds_check_pad_left (a check of lower dim 0 against 8) and of
# @one_transform / @deep_transforms (no check: the validity printed is the constant 1).
UNMERGE = ('<affine_map<(d0, d1) -> (d1 + 4 * d0)> by [<Unmerge{16, 4} ["1", "0"] at [0, 1] -> ["r"] at [0]>] '
           'bounds = [16, 4] -> [64]>')
TRANSPOSE = ('<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["1", "0"] at [1, 0] -> ["1", "0"] at [0, 1]>] '
             'bounds = [4, 16] -> [16, 4]>')
PAD = '<affine_map<(d0) -> (d0)> by [<Pad{0, 8} ["pad"] at [0] -> ["raw"] at [0]>] bounds = [16] -> [8]>'
PAD_LEFT = '<affine_map<(d0) -> (d0 - 1)> by [<Pad{1, 7} ["pad"] at [0] -> ["raw"] at [0]>] bounds = [16] -> [8]>'


@pytest.mark.parametrize(("text", "invalid"), [(PAD, [*range(8, 16)]), (PAD_LEFT, [0, *range(9, 16)])])
def test_rocmlir_bounds_check_pad(text: str, invalid: list[int]) -> None:
    view = one_map(text, (8,))
    assert rv.rocmlir_map_impacts_validity(view.maps[0]) and rv.rocmlir_validity_checks(view.maps[0]) == (0,)
    assert rv.rocmlir_validity_impacting_upper_dims(view.maps[0]) == (0,)
    answer = va_validity(view)
    assert answer.invalid_count == len(invalid) and answer.needed_checks == ((0, 0),)
    assert [p for p in range(16) if view.address((p,)) is None] == invalid
    assert rv.compare_validity(view).verdict == "equal"


def va_validity(view: va.View) -> vv.Validity:
    return vv.validity(view)


def test_rocmlir_no_check_for_unmerge_and_transpose() -> None:
    unmerge = va.parse_transform_map(UNMERGE)
    transpose = va.parse_transform_map(TRANSPOSE)
    assert not rv.rocmlir_map_impacts_validity(unmerge) and not rv.rocmlir_map_impacts_validity(transpose)
    view = va.View(va.Buffer((64,)), (transpose, unmerge))
    c = rv.compare_validity(view)
    assert c.rocmlir_checks == ((), ()) and c.exact.invalid_count == 0 and c.verdict == "equal"
    assert all(k.kind == "never fails" for dims in c.exact.checks for k in dims)


def test_impacting_view_dims_follow_the_maps_above() -> None:
    pad = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0, d1)> by [<Pad{0, 8} ["a"] at [0] -> ["a"] at [0]>, '
        '<PassThrough ["b"] at [1] -> ["b"] at [1]>] bounds = [16, 4] -> [8, 4]>')
    view = va.View(va.Buffer((8, 4)), (va.parse_transform_map(TRANSPOSE), pad))
    assert rv.rocmlir_impacting_view_dims(view) == (1,)
    c = rv.compare_validity(view)
    assert c.exact.impacting_dims == (1,) and c.verdict == "equal" and c.extra_dims == ()


def test_negative_coefficient_that_never_leaves_is_cost() -> None:
    """Embed{1, -1} over [4, 1] -> [4]: the second dim is always 0, so the check never fails."""
    view = one_map('<affine_map<(d0, d1) -> (d0 - d1)> by [<Embed{1, -1} ["a", "b"] at [0, 1] '
                   '-> ["x"] at [0]>] bounds = [4, 1] -> [4]>', (4,))
    c = rv.compare_validity(view)
    assert c.rocmlir_checks == ((0,),) and c.exact.invalid_count == 0
    assert c.verdict == "rocMLIR conservative"
    (n,) = c.needless
    assert (n.map_index, n.dim, n.kind, n.point) == (0, 0, "never fails", None)
    assert c.extra_dims == (0, 1)


def test_check_implied_by_a_pad_above_is_cost() -> None:
    """Pad{0, 2} over [6] -> [4], then Embed{2} over [4] -> [7]: 2u leaves 7 only at u >= 4,
    which the Pad already rejects; rocMLIR checks the Embed too (4 * 2 > 7)."""
    pad = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<Pad{0, 2} ["u"] at [0] -> ["u"] at [0]>] '
                                 'bounds = [6] -> [4]>')
    embed = va.parse_transform_map('<affine_map<(d0) -> (d0 * 2)> by [<Embed{2} ["u"] at [0] -> ["x"] at [0]>] '
                                   'bounds = [4] -> [7]>')
    view = va.View(va.Buffer((7,)), (pad, embed))
    for method in METHODS:
        c = rv.compare_by(view, None, method)
        assert c.rocmlir_checks == ((0,), (0,)) and c.verdict == "rocMLIR conservative"
        (n,) = c.needless
        assert (n.map_index, n.dim, n.kind, n.implied_by) == (1, 0, "implied", ((0, 0),))
        assert n.point in ((4,), (5,))
        assert c.exact.checks[1][0].kind == "implied" and not c.exact.maps[1].needed


def test_narrow_buffer_is_unsafe_though_checked() -> None:
    """A lenient view: Pad{0, 2} over [6] -> [4] on a buffer of 3: rocMLIR checks against 4."""
    pad = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<Pad{0, 2} ["u"] at [0] -> ["u"] at [0]>] '
                                 'bounds = [6] -> [4]>')
    view = va.View(va.Buffer((3,)), (pad,), strict=False)
    c = rv.compare_validity(view)
    (u,) = c.unchecked
    assert (u.point, u.value, u.bound, u.emitted) == ((3,), 3, 3, True)
    assert c.verdict == "rocMLIR unsound" and c.exact.invalid_count == 3 and c.rocmlir_invalid_count == 2


def test_messages() -> None:
    c = rv.compare_validity(one_map(EMBED_11, (12,)))
    assert str(c).startswith("rocMLIR unsound: 28 invalid points, rocMLIR masks 0\n")
    assert "never checked" in str(c)
    assert str(vv.validity(va.View(va.Buffer((4,))))) == "every one of the 4 points is valid"


def test_arguments() -> None:
    err = va.errors.InvalidArgumentError
    bad: Any = "memref<4xf32>"
    four: Any = va.View(va.Buffer((4,)))
    with pytest.raises(err, match=re.escape("validity: expected a View, got 'memref<4xf32>'")):
        vv.validity(bad)
    with pytest.raises(err, match="timeout"):
        vv.validity(va.View(va.Buffer((4,))), timeout=0)
    with pytest.raises(err, match="compare_validity: expected a View"):
        rv.compare_validity(bad)
    with pytest.raises(err, match="timeout"):
        rv.compare_validity(va.View(va.Buffer((4,))), timeout=-1)
    with pytest.raises(err, match="rocmlir_validity_checks: expected a TransformMap"):
        rv.rocmlir_validity_checks(four)
    pad = va.parse_transform_map(PAD)
    with pytest.raises(err, match="is not an Embed of the map"):
        rv.rocmlir_embed_can_be_invalid(pad, pad.ops[0])  # pyright: ignore[reportArgumentType]
    with pytest.raises(err, match="invalid_set: expected a View"):
        vv.invalid_set(bad)


def file_views() -> list[tuple[str, va.View]]:
    """Every meaningful view of rocMLIR's test files in tests/data, once each."""
    seen: dict[va.View, str] = {}
    for path in ROCMLIR_FILES:
        for k, parsed in enumerate(va.text.parse_mlir_views(path.read_text())):
            view = parsed.view
            if view is not None and not any(p.blocking for m in view.maps for p in va.transforms.problems(m)):
                seen.setdefault(view, f"{path.name}:{k}")
    return [(name, view) for view, name in seen.items()]


def test_rocmlir_test_views_both_paths_agree() -> None:
    """On every small view of rocMLIR's test files the two exact paths give the same answer
    (witnesses aside), and the comparison too."""
    small = [(n, v) for n, v in file_views() if np.prod(v.shape) <= vv.ENUMERATE_LIMIT]
    assert len(small) > 40
    for name, view in small:
        a, b = (vv.answer_by(view, None, m) for m in METHODS)
        assert (a.invalid_count, a.impacting_dims, a.needed_checks, a.sufficient) == \
            (b.invalid_count, b.impacting_dims, b.needed_checks, b.sufficient), name
        assert [[c.kind for c in d] for d in a.checks] == [[c.kind for c in d] for d in b.checks], name
        c, d = (rv.compare_by(view, None, m) for m in METHODS)
        assert (c.verdict, c.rocmlir_invalid_count, [(u.map_index, u.dim) for u in c.unchecked],
                [(n.map_index, n.dim, n.kind) for n in c.needless]) == \
            (d.verdict, d.rocmlir_invalid_count, [(u.map_index, u.dim) for u in d.unchecked],
             [(n.map_index, n.dim, n.kind) for n in d.needless]), name


def test_rocmlir_pad_below_an_embed_that_stays_inside() -> None:
    """test_vectorization_inference.mlir (tests/data/rocmlir): Embed{1, 1} over [4, 4] -> [16]
    under Pad{0, 2} over [16] -> [14]: rocMLIR checks the Pad, whose input never exceeds 6."""
    embed = va.parse_transform_map('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] '
                                   '-> ["1pad"] at [0]>] bounds = [4, 4] -> [16]>')
    pad = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<Pad{0, 2} ["1pad"] at [0] -> ["1"] at [0]>] '
                                 'bounds = [16] -> [14]>')
    c = rv.compare_validity(va.View(va.Buffer((14,)), (embed, pad)))
    assert c.rocmlir_checks == ((), (0,)) and c.exact.invalid_count == 0
    assert c.verdict == "rocMLIR conservative" and [(n.map_index, n.kind) for n in c.needless] == [(1, "never fails")]


@pytest.mark.parametrize(("text", "buffer", "points", "value"), [
    # docs/validity.md, unsafe case 4: lenient maps whose bounds break the op's rule
    ('<affine_map<(d0) -> (d0 floordiv 3, d0 mod 3)> by [<Merge{2, 3} ["m"] at [0] -> ["a", "b"] at [0, 1]>] '
     'bounds = [8] -> [2, 3]>', (2, 3), {(6,), (7,)}, 2),
    ('<affine_map<(d0) -> (d0 + 2)> by [<Slice{2, 6} ["s"] at [0] -> ["x"] at [0]>] bounds = [4] -> [5]>',
     (5,), {(3,)}, 5),
])
def test_lenient_maps_are_unsafe(text: str, buffer: tuple[int, ...], points: set[tuple[int, ...]],
                                 value: int) -> None:
    view = va.View(va.Buffer(buffer), (va.parse_transform_map(text, strict=False),), strict=False)
    for method in METHODS:
        c = rv.compare_by(view, None, method)
        assert c.rocmlir_checks == ((),) and c.verdict == "rocMLIR unsound"
        (u,) = c.unchecked
        assert (u.map_index, u.dim, u.emitted) == (0, 0, False)
        assert u.point in points and u.value == value
        assert c.exact.invalid_count == len(points)


def test_per_term_test_counts_the_size_not_the_largest_index() -> None:
    """docs/validity.md, conservative case 1: Embed{2} over [4] -> [7] is checked (4 * 2 > 7)
    though its largest value is 6."""
    view = one_map('<affine_map<(d0) -> (d0 * 2)> by [<Embed{2} ["u"] at [0] -> ["x"] at [0]>] '
                   'bounds = [4] -> [7]>', (7,))
    c = rv.compare_validity(view)
    assert c.rocmlir_checks == ((0,),) and c.exact.invalid_count == 0
    assert [(n.kind, n.point) for n in c.needless] == [("never fails", None)]
    assert c.verdict == "rocMLIR conservative"


def test_padded_conv_input_keeps_the_pad_checks() -> None:
    """docs/validity.md: in a padded conv input view the Pad's checks and the buffer's hi, wi
    dims fail at the same points; none is needed alone, the sufficient set is the Pad's."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    conv_stack: Any = importlib.import_module("conv_stack")
    view: va.View = conv_stack.conv2d_input_view(2, 3, 5, 5)
    brute = Brute(view)
    for method in METHODS:
        answer = vv.answer_by(view, None, method)
        check_answer(view, answer, brute)
        assert answer.invalid_count == 336 and answer.needed_checks == ()
        assert answer.sufficient == ((2, 3), (2, 4)) and not any(m.needed for m in answer.maps)
        assert [(k, d) for k, dims in enumerate(rv.compare_by(view, None, method).rocmlir_checks)
                for d in dims] == [(2, 3), (2, 4)]


# ROCm/rocmlirTriton's lit test of -rock-transforms-invariant-code-motion (TransformsInvariant-
# CodeMotion.cpp): @no_hoist_with_pad (a Pad on K, which the loop's iv, view dim 0, feeds: the
# mask depends on the iv) and @hoist_pad_on_non_iv_dim (a Pad on gemmM: the mask does not
# depend on the iv, so the load is hoisted).
NO_HOIST = (
    (32512,),
    '<affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0 * 64 + d4, d3 * 64 + d5)> by [<PassThrough ["g_block"] at [1] '
    '-> ["g"] at [0]>, <Unmerge{4, 64} ["k_loop", "k_iter"] at [0, 4] -> ["k"] at [1]>, <Unmerge{2, 64} '
    '["n_block", "n_iter"] at [3, 5] -> ["n"] at [2]>, <AddDim{1} ["m_block"] at [2] -> [] at []>] '
    'bounds = [4, 1, 1, 2, 64, 64] -> [1, 256, 128]>',
    '<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Pad{0, 2} ["kpad"] '
    'at [1] -> ["k"] at [1]>, <PassThrough ["n"] at [2] -> ["n"] at [2]>] bounds = [1, 256, 128] -> [1, 254, 128]>',
    '<affine_map<(d0, d1, d2) -> (d1 * 128 + d2)> by [<Unmerge{254, 128} ["k", "n"] at [1, 2] -> ["raw"] at [0]>, '
    '<AddDim{1} ["g"] at [0] -> [] at []>] bounds = [1, 254, 128] -> [32512]>')
HOIST = (
    (36864,),
    '<affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2 * 256 + d4, d0 * 32 + d5)> by [<PassThrough ["g_block"] at [1] '
    '-> ["g"] at [0]>, <Unmerge{18, 32} ["k_loop", "k_iter"] at [0, 5] -> ["k"] at [2]>, <Unmerge{1, 256} '
    '["m_block", "m_iter"] at [2, 4] -> ["m"] at [1]>, <AddDim{3136} ["n_block"] at [3] -> [] at []>] '
    'bounds = [18, 1, 1, 3136, 256, 32] -> [1, 256, 576]>',
    '<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Pad{0, 192} '
    '["gemmMPad"] at [1] -> ["m"] at [1]>, <PassThrough ["k"] at [2] -> ["k"] at [2]>] '
    'bounds = [1, 256, 576] -> [1, 64, 576]>',
    '<affine_map<(d0, d1, d2) -> (d1 * 576 + d2)> by [<Unmerge{64, 576} ["m", "k"] at [1, 2] -> ["raw"] at [0]>, '
    '<AddDim{1} ["g"] at [0] -> [] at []>] bounds = [1, 64, 576] -> [36864]>')


@pytest.mark.parametrize(("case", "iv_in_mask", "dims", "invalid", "extra"), [
    (NO_HOIST, True, (0, 4), 2 * 2 * 64, ()),             # k = 64 * k_loop + k_iter >= 254
    (HOIST, False, (4,), 18 * 3136 * 192 * 32, (2,)),     # m_iter >= 64; m_block has size 1
])
def test_rocmlir_mask_depends_on_iv(case: tuple[tuple[int, ...], str, str, str], iv_in_mask: bool,
                                    dims: tuple[int, ...], invalid: int, extra: tuple[int, ...]) -> None:
    buffer, *texts = case
    view = va.View(va.Buffer(buffer, "f16"), tuple(va.parse_transform_map(t) for t in texts))
    assert (0 in rv.rocmlir_impacting_view_dims(view)) is iv_in_mask
    c = rv.compare_validity(view)
    assert c.exact.impacting_dims == dims and c.exact.invalid_count == invalid
    assert c.verdict == "equal" and c.extra_dims == extra and c.exact.sufficient == ((1, 1),)
    for impact in c.exact.dims:
        if impact.matters:
            assert impact.valid_point is not None and impact.invalid_point is not None
            assert view.address(impact.valid_point) is not None and view.address(impact.invalid_point) is None


@given(view=views(max_maps=3, max_points=300))
@settings(derandomize=True, deadline=None, max_examples=60)
def test_without_counting_every_other_answer_is_the_same(view: va.View):
    for method in ("enumerate", "isl"):
        counted = vv.answer_by(view, None, method)
        uncounted = vv.answer_by(view, None, method, count=False)
        assert uncounted.invalid_count is None
        assert uncounted == replace(counted, invalid_count=None)
    c = va.rocmlir.compare_validity(view, count=False)
    assert c.rocmlir_invalid_count is None and c.exact.invalid_count is None
    assert c.verdict == va.rocmlir.compare_validity(view).verdict
