"""Exact inversion: kinds, inverse maps and witnesses against brute-force enumeration."""

from __future__ import annotations

import math
import re

import islpy as isl
import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracle import box_points, chain_points, images, isl_points
from rocmlir_data import cases
from strategies import shapes, transform_maps, views

import viewalgebra as va
from viewalgebra._analyses.inverse_forms import invert_chain  # noqa: TID251 -- the closed forms, certified
from viewalgebra._analyses.invert import (  # noqa: TID251 -- each path to the certificate is tested on its own
    _by_relation,
    _certify,
    _certify_by_relations,
    _solve,
)
from viewalgebra._analyses.invert_witness import (  # noqa: TID251 -- each path to the witness is tested on its own
    ENUMERATE_LIMIT,
    enumerated_witness,
    structural_witness,
)
from viewalgebra._maps.relations import chain_function  # noqa: TID251 -- the certificate's inputs

P = va.parse_transform_map


def isl_pairs(relation: isl.Map) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    n_in, n_out = relation.dim(isl.dim_type.in_), relation.dim(isl.dim_type.out)
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def add(p: isl.Point) -> None:
        c = tuple(p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(n_in + n_out))
        found.add((c[:n_in], c[n_in:]))

    relation.wrap().foreach_point(add)
    return found


@st.composite
def chains(draw):
    view = draw(views(max_maps=3, max_points=200))
    return view.maps


@pytest.mark.slow
@settings(derandomize=True, deadline=None, max_examples=600)
@given(chain=chains())
def test_inverse_equals_brute_force(chain):
    result = va.invert(chain)
    assert va.invert(list(chain)) is result  # asked again: the cached answer
    _, valid = chain_points(chain, box_points(chain[0].upper_bounds))
    assert result.has_padding == (not valid.all())
    found = images(chain)
    injective = all(len(pre) == 1 for pre in found.values())
    lower_box = {tuple(int(c) for c in p) for p in box_points(chain[-1].lower_bounds)}
    event(f"{result.kind}, maps {'yes' if result.maps else 'no'}")
    # The exact relation, point by point.
    assert isl_pairs(result.relation) == {(lo, u) for lo, pre in found.items() for u in pre}
    if not injective:
        assert result.kind == "not-injective" and result.maps is None and result.witness is not None
        u, v = result.witness
        assert u != v and any(u in pre and v in pre for pre in found.values())
        return
    assert result.kind == ("bijective" if set(found) == lower_box else "injective")
    if result.kind == "injective":
        assert result.uncovered is not None and isl_points(result.uncovered) == lower_box - set(found)
    if result.maps is None:
        assert result.reason
        return
    assert result.certificate is not None and result.certificate.ok
    # The inverse maps, evaluated numerically, send every image point back and nothing else.
    inverse = result.maps
    assert inverse[0].upper_bounds == chain[-1].lower_bounds
    assert inverse[-1].lower_bounds == chain[0].upper_bounds
    lower = box_points(chain[-1].lower_bounds)
    back, valid = chain_points(inverse, lower)
    for y, u, ok in zip(lower, back, valid, strict=True):
        y = tuple(int(c) for c in y)
        if y in found:
            assert ok and tuple(int(c) for c in u) == found[y][0]
        else:
            assert not ok
    # The inverse prints in rocMLIR syntax and loads again (strict).
    for m in inverse:
        assert P(va.print_transform_map(m)) == m
    assert va.verify_inverse(chain, inverse).ok


def test_rocmlir_fails_where_viewalgebra_inverts():
    pad = P('<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>] bounds = [7] -> [4]>')
    result = va.invert(pad)
    assert result.kind == "bijective" and result.certificate == va.answers.Certificate(True, True)
    assert va.print_transform_map(result.maps[0]) == (
        '#rock.transform_map<affine_map<(d0) -> (d0 + 2)> by [<Slice{2, 6} ["y"] at [0] -> ["x"] at [0]>] '
        'bounds = [4] -> [7]>')
    assert isl_points(result.padding) == {(0,), (1,), (6,)}


def test_embed_of_a_permuted_radix():
    embed = P('<affine_map<(d0, d1) -> (d0 + d1 * 4)> by [<Embed{1, 4} ["a", "b"] at [0, 1] -> ["y"] at [0]>] '
              'bounds = [4, 8] -> [40]>')
    result = va.invert(embed)
    assert result.kind == "injective" and isl_points(result.uncovered) == {(y,) for y in range(32, 40)}
    assert [va.text.print_transform(op) for m in result.maps for op in m.ops] == [
        '<Pad{0, 8} ["y"] at [0] -> ["y"] at [0]>',
        '<Merge{8, 4} ["y"] at [0] -> ["b", "a"] at [1, 0]>']


def test_sliding_window_is_not_injective():
    window = P('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["y", "ho"] at [0, 1] -> ["h"] at [0]>] '
               'bounds = [3, 8] -> [10]>')
    result = va.invert(window)
    assert result.kind == "not-injective" and result.maps is None
    assert "not a permuted mixed radix" in result.reason
    u, v = result.witness
    assert u != v and va.evaluate(window, u) == va.evaluate(window, v)


def test_constants_invert_on_their_image():
    tm = P('<affine_map<(d0) -> (d0, 2)> by [<PassThrough ["b"] at [0] -> ["b"] at [0]>, '
           '<ConstDim{2, 4} [] at [] -> ["c"] at [1]>] bounds = [5] -> [5, 4]>')
    result = va.invert(tm)
    assert result.kind == "injective"
    assert isl_points(result.uncovered) == {(b, c) for b in range(5) for c in (0, 1, 3)}
    assert [len(m.ops) for m in result.maps] == [2, 2]


def test_adddim_larger_than_one_is_not_injective():
    tm = P('<affine_map<(d0, d1) -> (d1)> by [<AddDim{3} ["a"] at [0] -> [] at []>, '
           '<PassThrough ["b"] at [1] -> ["b"] at [0]>] bounds = [3, 5] -> [5]>')
    result = va.invert(tm)
    assert result.kind == "not-injective" and "AddDim{3}" in result.reason


def test_verify_inverse_refutes_a_wrong_inverse():
    merge = P('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] -> '
              '["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>')
    good = P('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>] '
             'bounds = [4, 8] -> [32]>')
    wrong = P('<affine_map<(d0, d1) -> (d0 + d1 * 4)> by [<Embed{1, 4} ["a", "b"] at [0, 1] -> ["k"] at [0]>] '
              'bounds = [4, 8] -> [32]>')
    assert va.verify_inverse(merge, good).ok
    refuted = va.verify_inverse(merge, wrong)
    assert not refuted.ok and refuted.side == "left"
    u = refuted.point
    f_u, g_f_u = refuted.images
    assert va.evaluate(merge, u)[0] == f_u and va.evaluate(wrong, f_u)[0] == g_f_u and g_f_u != u
    assert str(refuted).startswith(f"refuted: u = {list(u)} gives f(u) = ")


def perturbations(m: va.TransformMap) -> list[va.TransformMap]:
    """Consistent maps of the same bounds as ``m`` with one op changed."""
    found = []
    for k, op in enumerate(m.ops):
        changed: list[va.transforms.Transform] = []
        fields = (op.upper_names, op.upper_dims, op.lower_names, op.lower_dims)
        if isinstance(op, va.transforms.Unmerge) and sum(s > 1 for s in op.params) >= 2:
            sizes = op.params
            changed.append(va.transforms.Embed(tuple(math.prod(sizes[:i]) for i in range(len(sizes))), *fields))
        if isinstance(op, va.transforms.Pad):
            for i, (left, right) in enumerate(op.amounts):
                for new in ((left + 1, right - 1), (left - 1, right + 1)):
                    if min(new) >= 0:
                        params = list(op.params)
                        params[2 * i:2 * i + 2] = new
                        changed.append(va.transforms.Pad(tuple(params), *fields))
        if isinstance(op, va.transforms.Slice):
            for i, ((begin, end), d) in enumerate(zip(op.ranges, op.lower_dims, strict=True)):
                for shift in (1, -1):
                    if begin + shift >= 0 and end + shift <= m.lower_bounds[d]:
                        params = list(op.params)
                        params[2 * i:2 * i + 2] = (begin + shift, end + shift)
                        changed.append(va.transforms.Slice(tuple(params), *fields))
        if isinstance(op, va.transforms.PassThrough):
            for i in range(len(op.lower_dims)):
                for j in range(i + 1, len(op.lower_dims)):
                    di, dj = op.lower_dims[i], op.lower_dims[j]
                    if m.lower_bounds[di] == m.lower_bounds[dj] > 1:
                        lower = list(op.lower_dims)
                        lower[i], lower[j] = dj, di
                        changed.append(va.transforms.PassThrough((), op.upper_names, op.upper_dims, op.lower_names,
                                                      tuple(lower)))
        found += [va.TransformMap((*m.ops[:k], new, *m.ops[k + 1:]), m.upper_bounds, m.lower_bounds)
                  for new in changed]
    return found


@settings(derandomize=True, deadline=None, max_examples=300)
@given(chain=chains(), data=st.data())
def test_a_perturbed_inverse_is_refuted(chain, data):
    result = va.invert(chain)
    options = [(k, p) for k, m in enumerate(result.maps or ()) for p in perturbations(m)]
    if not options:
        return
    k, changed = data.draw(st.sampled_from(options))
    perturbed = (*result.maps[:k], changed, *result.maps[k + 1:])
    verdict = va.verify_inverse(chain, perturbed)
    # Brute force: is the perturbed chain still an inverse on the image, and nothing more?
    found = images(chain)
    lower = box_points(chain[-1].lower_bounds)
    back, valid = chain_points(perturbed, lower)
    really = all((tuple(int(c) for c in y) in found) == bool(ok) and (
        not ok or tuple(int(c) for c in u) == found[tuple(int(c) for c in y)][0])
        for y, u, ok in zip(lower, back, valid, strict=True))
    assert verdict.ok == really
    if not verdict.ok:
        point, (first, second) = verdict.point, verdict.images
        if verdict.side == "left":
            assert first == tuple(int(c) for c in chain_points(chain, np.array([point]))[0][0])
            assert second != point
        else:
            assert second != point
    event("refuted" if not verdict.ok else "perturbation harmless")


def test_bad_chains_are_rejected():
    a = P('<affine_map<(d0) -> (d0)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>] bounds = [4] -> [4]>')
    b = P('<affine_map<(d0) -> (d0)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>] bounds = [5] -> [5]>')
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape("lower bounds of map 0 [4] != upper bounds of map 1 [5]")):
        va.invert([a, b])
    with pytest.raises(va.errors.InvalidTransformError, match="the chain is empty"):
        va.invert([])
    with pytest.raises(va.errors.InvalidTransformError, match="verify_inverse: an inverse of a chain"):
        va.verify_inverse(a, b)


@pytest.mark.parametrize("case", cases("invertTransformMap"), ids=lambda c: c["id"])
def test_conformance_inversions(case):
    tm = P(case["input"]["map"], strict=False)
    ours, theirs = va.invert(tm), va.rocmlir.rocmlir_invert(tm)
    if theirs.maps is not None:
        # Where rocMLIR inverts, the inverse is the same ops and bounds, and it is certified.
        assert ours.maps == theirs.maps
        assert ours.kind == "bijective" and ours.certificate.ok
    else:
        assert case["expected"]["fails"]
        if ours.maps is not None:
            assert ours.certificate.ok and va.verify_inverse(tm, ours.maps).ok


def test_viewalgebra_inverts_what_rocmlir_cannot():
    by_id = {c["id"]: P(c["input"]["map"], strict=False) for c in cases("invertTransformMap")}
    inverted = {i for i, tm in by_id.items()
                if va.rocmlir.rocmlir_invert(tm).maps is None and va.invert(tm).maps is not None}
    assert inverted == {"invert/derived#transform_inject_non_unit_const", "invert/derived#transform_map5",
                        "invert/derived#transform_map6", "invert/derived#transform_map2"}


# Each path to the answer on its own, against brute force: the certificate, the structural
# witness, the numpy enumeration, and ISL's relation (the fallback, forced here).


def brute_certificate(chain, inverse) -> va.answers.Certificate:
    """``g(f(u)) == u`` for every valid ``u``; ``f(g(y)) == y`` wherever ``g`` is defined."""

    def inside(points, shape):
        return ((points >= 0) & (points < np.asarray(shape, dtype=np.int64))).all(axis=1)

    def round_trip(first, second):
        start = box_points(first[0].upper_bounds)
        middle, ok = chain_points(first, start)
        start, middle = start[ok], middle[ok]
        defined = inside(middle, second[0].upper_bounds)
        back, back_ok = chain_points(second, middle)
        return bool((defined & back_ok).all() and (back == start).all())

    return va.answers.Certificate(round_trip(chain, inverse), round_trip(inverse, chain))


@settings(derandomize=True, deadline=None, max_examples=300)
@given(chain=chains(), data=st.data())
def test_certificate_equals_brute_force(chain, data):
    """The per-piece certificate, on closed-form inverses and on perturbed ones."""
    try:
        inverse = invert_chain(chain)
    except (va.errors.NotInvertibleError, va.errors.InvalidTransformError):
        return
    candidates = [inverse]
    options = [(k, q) for k, m in enumerate(inverse) for q in perturbations(m)]
    if options:
        k, changed = data.draw(st.sampled_from(options))
        candidates.append((*inverse[:k], changed, *inverse[k + 1:]))
    for g_maps in candidates:
        f, g = chain_function(chain), chain_function(g_maps)
        certificate = _certify(f, g)
        assert certificate == _certify_by_relations(f, g) == brute_certificate(chain, g_maps)
        event(f"left {certificate.left}, right {certificate.right}")


@st.composite
def culprits(draw, lower: tuple[int, ...]) -> tuple[va.TransformMap, bool]:
    """A map over ``lower`` with one op that is not injective by itself (an AddDim{n > 1}, a
    Broadcast wider than its length, an Embed with overlapping terms), the other dims passed
    through; and whether the structural search must find a pair when the map is on top."""
    rank = len(lower)
    kind = draw(st.sampled_from(["AddDim", "Broadcast", "Embed"] if rank else ["AddDim"]))
    d = draw(st.integers(0, max(rank - 1, 0)))
    upper = list(lower)
    if kind == "AddDim":
        n = draw(st.integers(2, 4))
        upper.insert(d, n)
        kept = [(k if k < d else k + 1, k) for k in range(rank)]
        op: va.transforms.Transform = va.transforms.AddDim((n,), ("a",), (d,), (), ())
        sure = True
    elif kind == "Broadcast":
        p = lower[d]
        upper[d] = draw(st.integers(p + 1, 2 * p + 2))
        kept = [(k, k) for k in range(rank) if k != d]
        op = va.transforms.Broadcast((p,), ("b",), (d,), ("b",), (d,))
        sure = upper[d] >= 2 * p
    else:
        coefficients = draw(st.sampled_from([(1, 1), (2, 1), (1, 2), (3, 2), (2, 3), (0, 1), (1, -1), (2, -2)]))
        upper[d] = draw(st.integers(2, 4))
        upper.append(draw(st.integers(2, 4)))
        kept = [(k, k) for k in range(rank) if k != d]
        op = va.transforms.Embed(coefficients, ("y", "x"), (d, rank), ("h",), (d,))
        sure = False
    names = tuple(f"p{k}" for _, k in kept)
    through = [va.transforms.PassThrough((), names, tuple(u for u, _ in kept), names, tuple(k for _, k in kept))] if kept else []
    return va.TransformMap((op, *through), tuple(upper), lower), sure


@st.composite
def non_injective_chains(draw) -> tuple[tuple[va.TransformMap, ...], bool]:
    """A culprit map under 0-2 random maps and over 0-1; and whether the structural search must
    find a pair (the culprit on top, a shift that stays in the box from any point)."""
    lower = draw(shapes(max_rank=3, max_points=60, min_rank=1))
    below: list[va.TransformMap] = []
    for _ in range(draw(st.integers(0, 1))):
        below.insert(0, draw(transform_maps(lower, max_points=120)))
        lower = below[0].upper_bounds
    culprit, sure = draw(culprits(lower))
    above = [culprit]
    for _ in range(draw(st.integers(0, 2))):
        above.insert(0, draw(transform_maps(above[0].upper_bounds, max_points=200, max_add_dims=1)))
    return (*above, *below), sure and len(above) == 1


def assert_genuine(pair, found) -> None:
    u, v = pair
    assert u != v and any(u in pre and v in pre for pre in found.values())


@settings(derandomize=True, deadline=None, max_examples=200)
@given(case=non_injective_chains())
def test_structural_witness_is_genuine(case):
    chain, sure = case
    found = images(chain)
    pair = structural_witness(chain)
    if pair is not None:
        assert_genuine(pair, found)
    elif sure:
        assert not found, "a valid point on top of an AddDim or a wide Broadcast has a partner"
    event(("found" if pair else "not found") + (" (must be)" if sure and found else ""))


@settings(derandomize=True, deadline=None, max_examples=200)
@given(case=non_injective_chains() | chains().map(lambda c: (c, False)))
def test_enumerated_witness_is_genuine(case):
    chain, _ = case
    found = images(chain)
    pair = enumerated_witness(chain)
    if pair is not None:
        assert_genuine(pair, found)
    if math.prod(chain[0].upper_bounds) <= ENUMERATE_LIMIT:  # the whole box: found iff not injective
        assert (pair is not None) == any(len(pre) > 1 for pre in found.values())
    event("found" if pair else "not found")


@settings(derandomize=True, deadline=None, max_examples=150)
@given(case=non_injective_chains() | chains().map(lambda c: (c, False)))
def test_each_path_equals_brute_force(case):
    """ISL's relation alone (the fallback), the fast answer, and ``invert`` itself."""
    chain, _ = case
    found = images(chain)
    injective = all(len(pre) == 1 for pre in found.values())
    lower_box = {tuple(int(c) for c in p) for p in box_points(chain[-1].lower_bounds)}
    expected = "not-injective" if not injective else "bijective" if set(found) == lower_box else "injective"
    for answer in (_by_relation(chain, "forced"), _solve(chain), va.invert(chain)):
        assert answer.kind == expected
        if expected == "not-injective":
            assert_genuine(answer.witness, found)
        elif expected == "injective":
            assert isl_points(isl.Set(str(answer.uncovered))) == lower_box - set(found)
        else:
            assert answer.uncovered is None
    event(expected)


def test_structural_witness_at_any_size():
    """A 10-map chain (sliding windows under a Merge and an Unmerge, over transposes) at 10^3 and
    10^12 points: the pair comes from the Embed, carried up by the inverse of the maps above."""
    def chain_of(n: int) -> tuple[va.TransformMap, ...]:
        unmerge = P(f'<affine_map<(d0, d1) -> (d0 * {n} + d1)> by [<Unmerge{{{3 * n}, {n}}} ["i", "j"] at [0, 1] -> '
                    f'["k"] at [0]>] bounds = [{3 * n}, {n}] -> [{3 * n * n}]>')
        merge = P(f'<affine_map<(d0) -> (d0 floordiv {3 * n}, (d0 mod {3 * n}) floordiv {n}, d0 mod {n})> by '
                  f'[<Merge{{{n}, 3, {n}}} ["k"] at [0] -> ["a", "y", "x"] at [0, 1, 2]>] bounds = [{3 * n * n}] -> [{n}, 3, {n}]>')
        window = P(f'<affine_map<(d0, d1, d2) -> (d0, d1 + d2)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, '
                   f'<Embed{{1, 1}} ["y", "x"] at [1, 2] -> ["b"] at [1]>] bounds = [{n}, 3, {n}] -> [{n}, {n + 2}]>')
        swap = [P(f'<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
                  f'bounds = [{a}, {b}] -> [{b}, {a}]>') for a, b in ((n, n + 2), (n + 2, n))]
        return (unmerge, merge, window, *swap * 3, swap[0])

    for n in (18, 577_350):  # 3 n^2: about 10^3 and 10^12 points
        chain = chain_of(n)
        assert len(chain) == 10
        u, v = structural_witness(chain)
        points = [u, v]
        for m in chain:
            points = [va.evaluate(m, p) for p in points]
            assert all(ok for _, ok in points)
            points = [p for p, _ in points]
        assert u != v and points[0] == points[1]
        assert all(0 <= x < b for p in (u, v) for x, b in zip(p, chain[0].upper_bounds, strict=True))
        assert va.invert(chain).kind == "not-injective"
    small = chain_of(18)
    assert_genuine(va.invert(small).witness, images(small))
    assert _solve(small, fast=False).kind == "not-injective"


def test_answers_are_cached_until_cleared():
    tm = P('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] -> ["a", "b"] '
           'at [0, 1]>] bounds = [32] -> [4, 8]>')
    first = va.invert(tm)
    assert va.invert([tm]) is first
    va.clear_caches()
    again = va.invert(tm)
    assert again is not first and (again.kind, again.maps) == (first.kind, first.maps)


@st.composite
def gapped_embeds(draw):
    """An Embed whose coefficients are a permuted mixed radix with gaps (each a multiple of the
    one below, at least the span below it), an innermost coefficient of 1 to 3, and a lower
    bound around the span."""
    rank = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, 5)) for _ in range(rank)]
    coefficients = [draw(st.integers(1, 3))]
    for n in sizes[:-1]:
        coefficients.append(coefficients[-1] * (n + draw(st.integers(0, 2))))
    order = draw(st.permutations(range(rank)))
    span = coefficients[-1] * sizes[-1]
    bound = max(1, span + draw(st.integers(-3, 3)))
    names = tuple(f"x{d}" for d in range(rank))
    embed = va.transforms.Embed(tuple(coefficients[order.index(d)] for d in range(rank)), names,
                                tuple(range(rank)), ("y",), (0,))
    return va.TransformMap((embed,), tuple(sizes[order.index(d)] for d in range(rank)), (bound,))


@settings(derandomize=True, deadline=None, max_examples=60)
@given(tm=gapped_embeds())
def test_gapped_radix_inverts_to_transforms(tm):
    """A gapped radix (CuTe's ``(6,4):(1,8)``) inverts to transforms (Slice or Pad, Merge, then a
    Pad or Embed keeping each digit's values), certified, and equal to the preimages enumerated."""
    result = va.invert(tm)
    assert result.maps is not None and result.certificate == va.answers.Certificate(True, True)
    preimage = {}
    for u in box_points(tm.upper_bounds):
        y, ok = va.evaluate(tm, u)
        if ok:
            preimage[y] = tuple(int(x) for x in u)
    for y in range(tm.lower_bounds[0]):
        point, valid = (y,), True
        for m in result.maps:
            point, ok = va.evaluate(m, point)
            valid = valid and ok
        assert (point if valid else None) == preimage.get((y,))
    assert result.kind == ("bijective" if len(preimage) == tm.lower_bounds[0] else "injective")
