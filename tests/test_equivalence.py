"""Chain, compose and equivalent: their laws, checked point by point against enumeration."""

from __future__ import annotations

import re

import islpy
import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracle import box_points, chain_points
from strategies import buffers, views

import viewalgebra as va

SETTINGS = settings(derandomize=True, deadline=None, max_examples=250)


def passthrough(bounds: tuple[int, ...], order: list[int] | None = None) -> va.TransformMap:
    """The identity of ``bounds`` (or the permutation sending upper dim ``order[k]`` to lower ``k``)."""
    order = order if order is not None else list(range(len(bounds)))
    names = tuple(f"d{k}" for k in range(len(bounds)))
    return va.TransformMap((va.transforms.PassThrough((), tuple(names[k] for k in order), tuple(order), names,
                                           tuple(range(len(bounds)))),),
                           tuple(bounds[k] for k in order), bounds)


def images(chain: va.Chain) -> dict[tuple[int, ...], tuple[int, ...] | None]:
    upper = box_points(chain.upper_bounds)
    lower, valid = chain_points(chain.maps, upper)
    return {tuple(int(c) for c in u): (tuple(int(c) for c in lo) if ok else None)
            for u, lo, ok in zip(upper, lower, valid, strict=True)}


@st.composite
def chains(draw, min_maps=1):
    view = draw(views(max_maps=3, min_maps=min_maps, max_points=200).filter(
        lambda v: len(v.maps) >= min_maps and all(n > 0 for n in v.shape)))
    return va.Chain.of(view)


def test_chain_of_accepts_what_a_chain_can_be_given_as():
    text = ('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] -> '
            '["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>')
    tm = va.parse_transform_map(text)
    chain = va.Chain.of(tm)
    assert chain == va.Chain.of(text) == va.Chain.of([tm]) == va.Chain.of(chain)
    assert chain == va.Chain.of(va.View(va.Buffer((4, 8)), [tm]))
    assert (chain.upper_bounds, chain.lower_bounds) == ((32,), (4, 8))
    with pytest.raises(va.errors.InvalidTransformError, match="a chain needs at least one map"):
        va.Chain(())
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "compose: the upper chain ends in [4, 8] but the lower chain starts at [32]")):
        va.compose(tm, tm)
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "Chain: lower bounds of map 0 [4, 8] != upper bounds of map 1 [32]")):
        va.Chain((tm, tm))


@SETTINGS
@given(chain=chains(min_maps=2), data=st.data())
def test_compose_is_applying_one_chain_then_the_other(chain, data):
    k = data.draw(st.integers(1, len(chain.maps) - 1))
    upper, lower = va.Chain(chain.maps[:k]), va.Chain(chain.maps[k:])
    composed = va.compose(upper, lower)
    points = box_points(chain.upper_bounds)
    middle, valid_upper = chain_points(upper.maps, points)
    bottom, valid_lower = chain_points(lower.maps, middle)
    got, valid = chain_points(composed.maps, points)
    assert (valid == (valid_upper & valid_lower)).all()
    assert (got[valid] == bottom[valid]).all()


@SETTINGS
@given(chain=chains())
def test_compose_with_the_inverse_is_the_identity_on_valid_points(chain):
    inverse = va.invert(chain)
    event(f"inverse maps: {inverse.chain is not None}")
    if inverse.chain is None:
        return
    round_trip = images(va.compose(chain, inverse.chain))
    for u, image in images(chain).items():
        if image is not None:
            assert round_trip[u] == u


@SETTINGS
@given(chain=chains(), data=st.data())
def test_equivalent_chains_agree_with_enumeration(chain, data):
    bounds = chain.lower_bounds
    same = [(i, j) for i in range(len(bounds)) for j in range(i + 1, len(bounds)) if bounds[i] == bounds[j]]
    a = va.compose(chain, passthrough(bounds)) if bounds else chain
    if same:
        i, j = data.draw(st.sampled_from(same))
        order = list(range(len(bounds)))
        order[i], order[j] = j, i
        b = va.compose(chain, passthrough(bounds, order))
    else:
        b = chain
    result = va.equivalent(a, b)
    expected_a, expected_b = images(a), images(b)
    assert result.on == "coordinates" and result.ok == (expected_a == expected_b)
    if not result.ok:
        assert result.point is not None and result.images is not None
        assert result.images == (expected_a[result.point], expected_b[result.point])
        assert result.images[0] != result.images[1]
    event("equivalent" if result.ok else "differ")


@SETTINGS
@given(view=views(max_maps=2, max_points=200).filter(lambda v: all(n > 0 for n in v.shape)),
       data=st.data())
def test_equivalent_views_compare_addresses_with_enumeration(view, data):
    other = va.View(data.draw(buffers(view.buffer.shape)), view.maps)
    result = va.equivalent(view, other)
    a, valid_a = view.addresses()
    b, valid_b = other.addresses()
    same = bool((valid_a == valid_b).all() and (a[valid_a] == b[valid_b]).all())
    assert result.on == "addresses" and result.ok == same
    if not result.ok:
        assert result.point is not None and result.images == (view.address(result.point),
                                                                other.address(result.point))
        assert result.images[0] != result.images[1]
    event("equivalent" if same else "differ")


def test_equivalent_says_what_it_compares_and_why_not():
    tm = va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] '
                                'at [0] -> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>')
    result = va.equivalent(tm, passthrough((32,)))
    assert not result and result.point is None
    assert str(result) == "not equivalent: the chains map [32] -> [4, 8] and [32] -> [32]"
    assert va.equivalent(va.compose(tm, va.invert(tm).chain), passthrough((32,)))
    row_major, strided = va.View(va.Buffer((4, 8))), va.View(va.Buffer((4, 8), strides=(1, 4)))
    result = va.equivalent(row_major, strided)
    assert not result and result.point is not None and np.ravel_multi_index(result.point, (4, 8)) == (
        result.images[0])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape("use Chain.of(view)")):
        va.equivalent(row_major, tm)


def isl_pairs(m) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    n_in = m.dim(islpy.dim_type.in_)
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    m.wrap().foreach_point(lambda p: found.add(
        (tuple(p.get_coordinate_val(islpy.dim_type.set, k).to_python() for k in range(n_in)),
         tuple(p.get_coordinate_val(islpy.dim_type.set, k).to_python()
               for k in range(n_in, p.get_space().dim(islpy.dim_type.set))))))
    return found


@settings(derandomize=True, deadline=None, max_examples=150)
@given(view=views(max_maps=3, max_points=120).filter(lambda v: all(n > 0 for n in v.shape)))
def test_isl_objects_equal_enumeration(view):
    chain = va.Chain.of(view)
    expected = {u: image for u, image in images(chain).items() if image is not None}
    assert isl_pairs(va.isl.coordinates(view)) == set(expected.items())
    assert isl_pairs(va.isl.coordinates(chain)) == set(expected.items())
    valid = set()
    va.isl.valid_points(view).foreach_point(lambda p: valid.add(
        tuple(p.get_coordinate_val(islpy.dim_type.set, k).to_python() for k in range(len(view.shape)))))
    assert valid == set(expected)
    addr, ok = view.addresses()
    assert isl_pairs(va.isl.addresses(view)) == {
        (tuple(int(c) for c in u), (int(addr[tuple(u)]),)) for u in np.argwhere(ok)}
