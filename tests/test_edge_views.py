"""Every verb on the edges of the view space: views with a size-0 dim (a box without a point) and
views whose valid points leave whole coordinate ranges empty (``views(zero=True)`` and
``views(thin=True)`` in strategies.py). Each verb either answers, equal to brute-force enumeration,
or refuses with a ``ViewAlgebraError`` whose message says why; any other exception fails."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import box_points, chain_points, check_witness, images, legal_lengths
from strategies import buffers, views
from test_index_range import brute, check_witnesses, pairs
from test_sub_dimensions import as_triples, brute_pieces, lower_grid
from test_sub_dimensions import check_witness as check_sub_witness
from test_validity import Brute, check_answer, check_comparison

import viewalgebra as va
from viewalgebra._analyses import index_range as ir  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._analyses import sub_dimensions as sd  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._analyses import validity as vv  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._rocmlir import validity as rv  # noqa: TID251 -- each path to the answer is tested on its own

SETTINGS = settings(derandomize=True, deadline=None, max_examples=80)
EDGE_VIEWS = views(max_maps=3, max_points=200, zero=True) | views(max_maps=3, max_points=200, thin=True)
T = TypeVar("T")


def answer_or_refusal(call: Callable[[], T], refusal: str | None) -> T | None:
    """``call()``; a ``ViewAlgebraError`` only where ``refusal`` (a regex of its one-line message)
    expects one, ``None`` then. Any other exception propagates and fails the test."""
    try:
        answer = call()
    except va.ViewAlgebraError as e:
        assert refusal is not None, f"refused where an answer was due: {type(e).__name__}: {e}"
        assert re.search(refusal, str(e)) and "\n" not in str(e), str(e)
        return None
    assert refusal is None, f"answered {answer!r} where {refusal!r} was due"
    return answer


def empty(view: va.View) -> bool:
    return math.prod(view.shape) == 0


def check_vector_lengths(view: va.View) -> None:
    for d, n in enumerate(view.shape):
        refusal = f"max_vector_length: dim {d} has size 0: there is nothing to vectorize" if n == 0 else None
        answer = answer_or_refusal(lambda d=d: va.max_vector_length(view, d), refusal)
        if answer is None:
            continue
        legal = legal_lengths(view, d, n)
        assert answer.length == legal[-1] and answer.legal == tuple(legal)
        if answer.witness is not None:
            check_witness(view, d, answer.witness)


def check_inverse(chain: tuple[va.TransformMap, ...]) -> None:
    result = answer_or_refusal(lambda: va.invert(chain), None)
    assert result is not None
    found = images(chain)
    if not all(len(pre) == 1 for pre in found.values()):
        assert result.kind == "not-injective" and result.witness is not None
        u, v = result.witness
        assert u != v and any(u in pre and v in pre for pre in found.values())
        return
    lower_box = {tuple(int(c) for c in p) for p in box_points(chain[-1].lower_bounds)}
    assert result.kind == ("bijective" if set(found) == lower_box else "injective")
    if result.maps is None:
        assert result.reason
        return
    assert result.certificate is not None and result.certificate.ok
    lower = box_points(chain[-1].lower_bounds)
    back, valid = chain_points(result.maps, lower)
    for y, u, ok in zip(lower, back, valid, strict=True):
        y = tuple(int(c) for c in y)
        assert (ok and tuple(int(c) for c in u) == found[y][0]) if y in found else not ok


def check_simplified(view: va.View) -> None:
    s = answer_or_refusal(lambda: va.simplify(view), None)
    assert s is not None and s.certificate.ok and s.result.shape == view.shape
    a, valid_a = view.addresses()
    b, valid_b = s.result.addresses()
    assert (valid_a == valid_b).all() and (a[valid_a] == b[valid_b]).all()


def check_sub_dimensions(chain: va.Chain) -> None:
    grid = None if math.prod(chain.upper_bounds) == 0 else lower_grid(chain)
    for d, size in enumerate(chain.upper_bounds):
        answers = [answer_or_refusal(lambda d=d, m=m: sd._answer(chain, d, None, m), None)  # noqa: SLF001
                   for m in ("enumerate", "isl")]
        if grid is None:
            # no point, so no step: no lower dim moves
            assert all(a is not None and all(dep.pieces == () for dep in a.lower) for a in answers)
            continue
        rows = np.moveaxis(grid, d, -2).reshape(math.prod(chain.upper_bounds) // size, size,
                                                len(chain.lower_bounds))
        steps = rows - rows[:, :1, :]
        for answer in answers:
            assert answer is not None
            for j, dep in enumerate(answer.lower):
                assert as_triples(dep) == brute_pieces(steps[:, :, j], size)
                if dep.pieces is None:
                    check_sub_witness(chain, d, dep, grid)


def chain_image(maps: tuple[va.TransformMap, ...], point: tuple[int, ...]) -> tuple[int, ...] | None:
    lower = point
    for m in maps:
        lower, valid = va.evaluate(m, lower)
        if not valid:
            return None
    return lower


def check_restricted(view: va.View, data: st.DataObject) -> None:
    fix: dict[int, int | range] = {}
    refusal = None
    for d, n in enumerate(view.shape):
        kind = data.draw(st.sampled_from(["keep", "value", "range"]))
        if kind == "keep":
            continue
        if n == 0:
            fix[d] = 0 if kind == "value" else range(0, 0)
            refusal = refusal or (rf"restrict: value 0 of upper dim {d} is outside \[0, 0\)" if kind == "value"
                                  else f"restrict: range of upper dim {d} must be non-empty")
        elif kind == "value":
            fix[d] = data.draw(st.integers(0, n - 1))
        else:
            start = data.draw(st.integers(0, n - 1))
            fix[d] = range(start, data.draw(st.integers(start + 1, n)))
    r = answer_or_refusal(lambda: va.restrict(view, fix=fix), refusal)
    if r is None:
        return
    assert r.certificate.ok
    values = dict(r.fixed)
    for new in itertools.product(*map(range, r.chain.upper_bounds)):
        full = [values.get(d, 0) for d in range(view.rank)]
        for k, (d, start) in enumerate(zip(r.dims, r.starts, strict=True)):
            full[d] = start + new[k]
        assert chain_image(r.chain.maps, new) == chain_image(view.maps, tuple(full))


def check_equivalent(view: va.View, data: st.DataObject) -> None:
    other = va.View(data.draw(buffers(view.buffer.shape)), view.maps)
    result = answer_or_refusal(lambda: va.equivalent(view, other), None)
    assert result is not None
    a, valid_a = view.addresses()
    b, valid_b = other.addresses()
    assert result.ok == bool((valid_a == valid_b).all() and (a[valid_a] == b[valid_b]).all())
    if not result.ok:
        assert result.point is not None
        assert result.images == (view.address(result.point), other.address(result.point))


def check_lint(view: va.View) -> None:
    """A strict view's only hazards are coordinates that leave their lower bound at a point that
    passes every check rocMLIR emits down to that map (an Embed onto a size-0 dim, which rocMLIR's
    per-term test never checks, is one)."""
    findings = answer_or_refusal(lambda: va.lint(view), None)
    assert findings is not None
    truth = Brute(view)
    emitted = rv.rocmlir_view_checks(view)
    expected: set[tuple[int, int]] = set()
    passing = np.ones(len(truth.points), dtype=bool)
    for k, m in enumerate(view.maps):
        for d in emitted[k]:
            v = truth.value[(k, d)]
            passing &= (v >= 0) & (v < m.lower_bounds[d])
        for d, n in enumerate(m.lower_bounds):
            v = truth.value[(k, d)]
            if (passing & ((v < 0) | (v >= n))).any():
                expected.add((k, d))
    found: set[tuple[int, int]] = set()
    for f in findings:
        assert f.code == "unchecked-out-of-bounds" and f.map_index is not None and f.point is not None
        match = re.match(r"lower dim (\d+) leaves", f.message)
        assert match is not None
        key = (f.map_index, int(match.group(1)))
        found.add(key)
        row = truth.row(f.point)
        value = int(truth.value[key][row])
        assert not 0 <= value < view.maps[key[0]].lower_bounds[key[1]]
        assert all(0 <= truth.value[(j, e)][row] < view.maps[j].lower_bounds[e]
                   for j in range(key[0] + 1) for e in emitted[j])
    assert found == expected


def check_index_range(view: va.View) -> None:
    on_valid, on_box, address = brute(view)
    for method in ("enumerate", "isl"):
        answer = answer_or_refusal(lambda m=method: ir._answer(view, None, m), None)  # noqa: SLF001
        assert answer is not None
        assert pairs(answer.coordinates) == on_valid and pairs(answer.box_coordinates) == on_box
        assert (None if answer.address is None else (answer.address.low, answer.address.high)) == address
        check_witnesses(view, answer)


def check_validity(view: va.View) -> None:
    truth = Brute(view)
    for method in ("enumerate", "isl"):
        answer = answer_or_refusal(lambda m=method: vv.answer_by(view, None, m), None)
        assert answer is not None
        check_answer(view, answer, truth)
        comparison = answer_or_refusal(lambda m=method: rv.compare_by(view, None, m), None)
        assert comparison is not None
        check_comparison(view, comparison, truth)


@given(view=EDGE_VIEWS, data=st.data())
@SETTINGS
def test_every_verb_answers_exactly_or_refuses_clearly(view: va.View, data: st.DataObject) -> None:
    va.clear_caches()
    check_vector_lengths(view)
    check_inverse(view.maps)
    check_simplified(view)
    check_sub_dimensions(va.Chain.of(view))
    check_restricted(view, data)
    check_equivalent(view, data)
    check_lint(view)
    check_index_range(view)
    check_validity(view)


def test_the_edge_strategies_draw_what_they_promise() -> None:
    """Size-0 dims, views without a valid point and valid sets that pin a view dim to fewer values
    than its size while others stay valid (a thin set) all occur."""
    seen: set[str] = set()

    @given(view=EDGE_VIEWS)
    @settings(derandomize=True, deadline=None, max_examples=SETTINGS.max_examples, database=None)
    def collect(view: va.View) -> None:
        _, valid = view.addresses()
        if empty(view):
            seen.add("size-0 dim")
            return
        if not valid.any():
            seen.add("no valid point")
        elif not valid.all():
            seen.add("some valid")
            if any(np.moveaxis(valid, d, 0).reshape(n, -1).any(axis=1).sum() < n
                   for d, n in enumerate(view.shape)):
                seen.add("a view dim with values no valid point has")

    collect()
    assert seen == {"size-0 dim", "no valid point", "some valid", "a view dim with values no valid point has"}


@pytest.mark.parametrize("view", [
    va.View(va.Buffer((0, 4))),
    va.View(va.Buffer((4, 0)), [va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, '
        '<Slice{0, 0} ["b"] at [1] -> ["b"] at [1]>] bounds = [4, 0] -> [4, 0]>')]),
], ids=["buffer 0x4", "empty slice of nothing"])
def test_size_0_views_by_hand(view: va.View) -> None:
    assert va.validity(view).points == 0
    assert va.index_range(view).coordinates == tuple((None,) * m.lower_rank for m in view.maps)
    assert va.simplify(view).certificate.ok
    assert va.equivalent(view, view).ok
