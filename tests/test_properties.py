"""Property tests over random consistent maps and views (``tests/strategies.py``).

Every property is checked point by point over the whole box: the ISL relations against the numpy
enumeration against the scalar evaluation, the text syntax round trip, lint on consistent views,
and ``same_relation`` against the numpy oracle on deliberately altered views.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracle import isl_graph, isl_points
from strategies import KINDS, transform_maps, views

import viewalgebra as va

SETTINGS = settings(derandomize=True, deadline=None, max_examples=400)


VIEWS = views(max_maps=3, min_maps=0)
MAPS = transform_maps(max_points=400)


# Independent enumeration helpers

def box_points(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every point of a box in row-major order (the order of numpy's ``reshape``)."""
    return [tuple(int(c) for c in p) for p in np.ndindex(*shape)] if shape else [()]


def chain_coords(view: va.View, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Buffer coordinates and validity of view points, by chaining ``evaluate_array``."""
    coords = np.asarray(pts, dtype=np.int64)
    valid = np.ones(coords.shape[0], dtype=bool)
    for m in view.maps:
        coords, ok = va.evaluate_array(m, coords)
        valid &= ok
    return coords, valid


def as_array(pts: list[tuple[int, ...]], rank: int) -> np.ndarray:
    return np.asarray(pts, dtype=np.int64).reshape(len(pts), rank)


# Views: ISL == numpy == scalar

@given(view=VIEWS)
@SETTINGS
def test_view_isl_equals_numpy(view: va.View) -> None:
    addr, valid = view.addresses()
    assert addr.shape == view.shape and valid.shape == view.shape
    pts = box_points(view.shape)

    graph = isl_graph(va.isl.addresses(view))
    assert isl_points(va.isl.valid_points(view)) == set(graph)
    assert isl_points(va.isl.box(view)) == set(pts)
    expected = {p: (int(addr[p]),) for p in pts if valid[p]}
    assert graph == expected
    assert all(addr[p] == -1 for p in pts if not valid[p])

    # Buffer coordinates too: strides of 0 or aliasing can hide a wrong coordinate in an address.
    coords, ok = chain_coords(view, as_array(pts, view.rank))
    assert np.array_equal(ok, valid.reshape(-1))
    expected_coords = {p: tuple(int(c) for c in coords[i]) for i, p in enumerate(pts) if ok[i]}
    assert isl_graph(va.isl.coordinates(view)) == expected_coords
    event(f"valid points: {'none' if not valid.any() else 'all' if valid.all() else 'some'}")


@given(view=VIEWS)
@SETTINGS
def test_view_scalar_equals_numpy(view: va.View) -> None:
    addr, valid = view.addresses()
    for p in box_points(view.shape):
        expected = int(addr[p]) if valid[p] else None
        assert view.address(p) == expected, p


# Single maps: scalar == numpy == ISL

@given(tm=MAPS)
@SETTINGS
def test_map_scalar_equals_array_equals_isl(tm: va.TransformMap) -> None:
    pts = box_points(tm.upper_bounds)
    lower, valid = va.evaluate_array(tm, as_array(pts, tm.upper_rank))
    assert lower.shape == (len(pts), tm.lower_rank) and valid.shape == (len(pts),)
    for i, p in enumerate(pts):
        assert va.evaluate(tm, p) == (tuple(int(c) for c in lower[i]), bool(valid[i])), p

    graph = isl_graph(va.isl.coordinates(tm))
    assert graph == {p: tuple(int(c) for c in lower[i]) for i, p in enumerate(pts) if valid[i]}
    assert isl_points(va.isl.valid_points(tm)) == {p for i, p in enumerate(pts) if valid[i]}
    assert isl_points(va.isl.box(tm)) == set(pts)
    # A valid point stays in the lower box (consistent bounds; Pad and Embed are checked).
    assert all(0 <= c < n for q in graph.values() for c, n in zip(q, tm.lower_bounds, strict=True))


@given(tm=MAPS)
@SETTINGS
def test_map_print_parse_round_trip(tm: va.TransformMap) -> None:
    text = va.print_transform_map(tm)
    parsed = va.parse_transform_map(text)
    assert parsed == tm
    assert va.print_transform_map(parsed) == text
    assert va.equivalent(tm, parsed)
    inline = va.print_transform_map(tm, prefix=False)
    assert va.parse_transform_map(inline) == tm
    for op in tm.ops:
        assert va.text.parse_transform(va.text.print_transform(op)) == op
    # The printed affine map is the ops' own, so lint finds no mismatch in the text.
    read = va.text.read_transform_map(text)
    assert read.map == tm and read.written is not None
    assert va.lint(read) == ()


# Lint

@given(view=VIEWS)
@SETTINGS
def test_lint_is_clean_on_consistent_views(view: va.View) -> None:
    # Consistent bounds keep every unchecked coordinate in range: PassThrough, zero Pad,
    # Unmerge and Merge are bijections between their boxes, Slice and ConstDim land inside
    # [0, lower), Broadcast is reduced mod its lower size, AddDim has no lower coordinate; Pad
    # with padding and Embed are validity-checked, and invalid points leave the domain before the
    # next map sees them.
    assert va.lint(view) == ()
    for m in view.maps:
        assert va.lint(m) == ()


# same_relation

def altered_ops(tm: va.TransformMap, op: va.transforms.Transform) -> Iterator[tuple[str, va.transforms.Transform]]:
    """Ops that may replace ``op`` in ``tm`` without breaking the bound rules."""
    params = list(op.params)

    def with_params(changes: dict[int, int]) -> va.transforms.Transform:
        p = params.copy()
        for i, v in changes.items():
            p[i] = v
        return dataclasses.replace(op, params=tuple(p))

    pairs = range(0, len(params), 2)
    match op:
        case va.transforms.Pad():
            # Move one unit of padding from one side to the other: the upper bound is unchanged.
            for i in pairs:
                left, right = params[i], params[i + 1]
                for a, b in ((left + 1, right - 1), (left - 1, right + 1)):
                    if min(a, b) >= 0:
                        yield "Pad amount", with_params({i: a, i + 1: b})
        case va.transforms.Embed():
            for i, c in enumerate(params):
                yield "Embed coefficient", with_params({i: c + 1})
                yield "Embed coefficient", with_params({i: c - 1})
        case va.transforms.Slice():
            for i, d in zip(pairs, op.lower_dims, strict=True):
                begin, end = params[i], params[i + 1]
                for a, b in ((begin + 1, end + 1), (begin - 1, end - 1)):
                    if a >= 0 and b <= tm.lower_bounds[d]:
                        yield "Slice range", with_params({i: a, i + 1: b})
        case va.transforms.ConstDim():
            for i in pairs:
                for v in (params[i] + 1, params[i] - 1):
                    if 0 <= v < params[i + 1]:
                        yield "ConstDim value", with_params({i: v})
        case va.transforms.PassThrough():
            dims = op.upper_dims
            for a, b in itertools.combinations(range(len(dims)), 2):
                if tm.upper_bounds[dims[a]] == tm.upper_bounds[dims[b]]:
                    swapped = list(dims)
                    swapped[a], swapped[b] = swapped[b], swapped[a]
                    yield "PassThrough transpose", dataclasses.replace(
                        op, upper_dims=tuple(swapped))
        case _:
            pass


def alterations(view: va.View) -> Iterator[tuple[str, va.View]]:
    """Consistent views of the same shape that differ from ``view`` in one op or the buffer.

    Some of them are still the same relation (a changed Embed coefficient on a unit dim, an
    identity map on top); the test decides that by enumeration.
    """
    for k, m in enumerate(view.maps):
        for j, op in enumerate(m.ops):
            for what, new in altered_ops(m, op):
                ops = m.ops[:j] + (new,) + m.ops[j + 1:]
                maps = view.maps[:k] + (dataclasses.replace(m, ops=ops),) + view.maps[k + 1:]
                yield what, dataclasses.replace(view, maps=maps)
    buf = view.buffer
    yield "buffer offset", dataclasses.replace(
        view, buffer=dataclasses.replace(buf, offset=buf.offset + 1))
    if buf.rank:
        strides = list(buf.strides or ())
        strides[-1] += 1
        yield "buffer stride", dataclasses.replace(
            view, buffer=dataclasses.replace(buf, strides=tuple(strides)))
    # Semantically neutral changes: an identity map on top, a zero Pad on top.
    shape = view.shape
    if shape:
        dims = tuple(range(len(shape)))
        names = tuple(f"d{d}" for d in dims)
        identity = va.TransformMap((va.transforms.PassThrough((), names, dims, names, dims),), shape, shape)
        yield "identity map", dataclasses.replace(view, maps=(identity, *view.maps))
        zero_pad = va.TransformMap(
            (va.transforms.Pad((0, 0) * len(shape), names, dims, names, dims),), shape, shape)
        yield "zero Pad", dataclasses.replace(view, maps=(zero_pad, *view.maps))


@given(view=VIEWS, data=st.data())
@SETTINGS
def test_equivalent_agrees_with_enumeration(view: va.View, data: st.DataObject) -> None:
    assert va.equivalent(view, view)
    copy = va.View(dataclasses.replace(view.buffer),
                   tuple(va.parse_transform_map(va.print_transform_map(m)) for m in view.maps))
    assert copy == view and va.equivalent(copy, view)

    candidates: dict[str, list[va.View]] = {}
    for name, v in alterations(view):
        candidates.setdefault(name, []).append(v)
    # Ops are altered three times as often as the buffer or by an identity on top.
    neutral = {"buffer offset", "buffer stride", "identity map", "zero Pad"}
    weighted = sorted(candidates) + 2 * sorted(set(candidates) - neutral)
    what = data.draw(st.sampled_from(weighted), label="alteration")
    altered = data.draw(st.sampled_from(candidates[what]), label=what)
    assert altered.shape == view.shape
    addr, valid = view.addresses()
    addr2, valid2 = altered.addresses()
    expected = bool(np.array_equal(valid, valid2) and np.array_equal(addr, addr2))
    event(f"{what}: {'same' if expected else 'different'}")
    assert va.equivalent(view, altered).ok is expected
    assert va.equivalent(altered, view).ok is expected


# The strategies cover what they promise

def features(view: va.View) -> set[str]:
    """What a view exercises (for the coverage test)."""
    found: set[str] = set()
    bounds = [b for m in view.maps for b in m.upper_bounds + m.lower_bounds]
    if any(b & (b - 1) for b in bounds):
        found.add("non-power-of-two size")
    if 1 in bounds:
        found.add("unit dim")
    found.add(f"{len(view.maps)} maps")
    found.add("row-major buffer" if view.buffer.is_row_major else "strided buffer")
    if view.buffer.rank == 0:
        found.add("rank-0 buffer")
    if view.rank == 0 or any(m.upper_rank == 0 for m in view.maps):
        found.add("rank-0 space")
    valid = view.addresses()[1]
    found.add("all valid" if valid.all() else "none valid" if not valid.any() else "some valid")
    for m in view.maps:
        for op in m.ops:
            found.add(op.kind)
            match op:
                case va.transforms.PassThrough() if len(op.upper_dims) > 1:
                    if np.argsort(op.upper_dims).tolist() != np.argsort(op.lower_dims).tolist():
                        found.add("transpose")
                case va.transforms.Pad():
                    for pair in op.amounts:
                        found.add("zero Pad" if pair == (0, 0) else "non-zero Pad")
                case va.transforms.Embed():
                    c = op.params
                    if any(x < 0 for x in c):
                        found.add("negative Embed coefficient")
                    if 0 in c:
                        found.add("zero Embed coefficient")
                    if len(set(c)) < len(c):
                        found.add("colliding Embed coefficients")
                case va.transforms.Unmerge():
                    if 1 in op.params and len(op.params) > 1:
                        found.add("Unmerge unit factor")
                    if sum(s > 1 for s in op.params) > 1:
                        found.add("Unmerge split")
                case va.transforms.Merge() if len(op.params) > 1:
                    found.add("Merge of several dims")
                case va.transforms.Broadcast():
                    for p, d in zip(op.params, op.upper_dims, strict=True):
                        if m.upper_bounds[d] % p:
                            found.add("Broadcast not dividing")
                case va.transforms.ConstDim() if any(v for v, _ in op.values):
                    found.add("non-zero ConstDim")
                case _:
                    pass
    return found


def test_strategies_cover_every_feature() -> None:
    seen: set[str] = set()
    largest = [0]

    @given(view=VIEWS)
    @settings(derandomize=True, deadline=None, max_examples=600, database=None)
    def collect(view: va.View) -> None:
        seen.update(features(view))
        largest[0] = max(largest[0], math.prod(view.shape),
                         *(math.prod(m.upper_bounds) for m in view.maps))

    collect()
    wanted = set(KINDS) | {
        "non-power-of-two size", "unit dim", "0 maps", "1 maps", "2 maps", "3 maps", "row-major buffer",
        "strided buffer", "all valid", "none valid", "some valid", "transpose", "zero Pad",
        "non-zero Pad", "negative Embed coefficient", "zero Embed coefficient",
        "colliding Embed coefficients", "Unmerge unit factor", "Unmerge split",
        "Merge of several dims", "Broadcast not dividing", "non-zero ConstDim"}
    assert wanted <= seen, sorted(wanted - seen)
    assert largest[0] <= 400


def test_rank0_view_addresses() -> None:
    const = va.transforms.ConstDim((1, 3), (), (), ("x",), (0,))
    view = va.View(va.Buffer((3,)), (va.TransformMap((const,), (), (3,)),))
    assert view.address(()) == 1
    addr, valid = view.addresses()
    assert addr[()] == 1 and valid[()]
