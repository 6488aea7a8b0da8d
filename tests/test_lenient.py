"""Lenient maps and views (bounds that break an op's rule, a buffer narrower than the map below
it): a point whose coordinates leave a map's lower bounds or the buffer is invalid, for
addresses (which the interpreter reads and writes through) and vector lengths (docs/semantics.md,
Validity). Checked against a
reference written here from the op equations, independent of the library's evaluation."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import isl_graph, legal_lengths_of

import viewalgebra as va

T = va.transforms
SETTINGS = settings(derandomize=True, deadline=None, max_examples=300)


@st.composite
def lenient_views(draw: st.DrawFn) -> tuple[va.View, list[tuple[str, tuple[int, ...], int, int]]]:
    """One lenient map over one or two upper dims, over a buffer that may be narrower; with the
    ops as (kind, params, upper dim, first lower dim) for the reference."""
    upper = draw(st.lists(st.integers(1, 5), min_size=1, max_size=2))
    ops: list[va.transforms.Transform] = []
    spec: list[tuple[str, tuple[int, ...], int, int]] = []
    lower: list[int] = []
    for u, n in enumerate(upper):
        kind = draw(st.sampled_from(["PassThrough", "Slice", "Pad", "Merge"]))
        d = len(lower)
        name = f"u{u}"
        if kind == "PassThrough":
            ops.append(T.PassThrough((), (name,), (u,), (f"l{d}",), (d,)))
            params: tuple[int, ...] = ()
            lower.append(draw(st.integers(1, 6)))
        elif kind == "Slice":
            begin = draw(st.integers(0, 2))
            params = (begin, begin + n)
            ops.append(T.Slice(params, (name,), (u,), (f"l{d}",), (d,)))
            lower.append(draw(st.integers(1, 6)))
        elif kind == "Pad":
            params = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
            ops.append(T.Pad(params, (name,), (u,), (f"l{d}",), (d,)))
            lower.append(draw(st.integers(1, 6)))
        else:
            params = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
            ops.append(T.Merge(params, (name,), (u,), (f"l{d}", f"l{d + 1}"), (d, d + 1)))
            lower += [draw(st.integers(1, 4)), draw(st.integers(1, 4))]
        spec.append((kind, params, u, d))
    tm = va.TransformMap(tuple(ops), tuple(upper), tuple(lower), strict=False)
    shape = tuple(draw(st.integers(1, n)) for n in lower)  # the buffer may be narrower
    return va.View(va.Buffer(shape), [tm], strict=False), spec


def reference(view: va.View, spec: list[tuple[str, tuple[int, ...], int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Address (-1 where invalid) and validity of every view point, from the op equations: valid
    iff every lower coordinate lies in the map's lower bounds and in the buffer."""
    (tm,) = view.maps
    addr = np.full(view.shape, -1, dtype=np.int64)
    valid = np.zeros(view.shape, dtype=bool)
    for point in itertools.product(*(range(n) for n in view.shape)):
        lower = [0] * tm.lower_rank
        for kind, params, u, d in spec:
            x = point[u]
            if kind == "PassThrough":
                lower[d] = x
            elif kind == "Slice":
                lower[d] = x + params[0]
            elif kind == "Pad":
                lower[d] = x - params[0]
            else:  # Merge as compiled: a unit size gives 0, the first other dim is not reduced
                first, second = params
                lower[d] = 0 if first == 1 else x // second
                lower[d + 1] = 0 if second == 1 else (x % second if first != 1 else x)
        inside = all(0 <= c < min(n, b) for c, n, b in
                     zip(lower, tm.lower_bounds, view.buffer.shape, strict=True))
        if inside:
            valid[point] = True
            addr[point] = view.buffer.address(tuple(lower))
    return addr, valid


@SETTINGS
@given(case=lenient_views())
def test_out_of_range_points_are_invalid_everywhere(case):
    view, spec = case
    addr, valid = reference(view, spec)
    got_addr, got_valid = view.addresses()
    np.testing.assert_array_equal(got_valid, valid)
    np.testing.assert_array_equal(got_addr, addr)
    for point in itertools.product(*(range(n) for n in view.shape)):
        assert view.address(point) == (int(addr[point]) if valid[point] else None)
    graph = isl_graph(va.isl.addresses(view))
    assert graph == {p: (int(addr[p]),) for p in itertools.product(*(range(n) for n in view.shape)) if valid[p]}


@SETTINGS
@given(case=lenient_views(), data=st.data())
def test_vector_lengths_never_cross_an_out_of_range_point(case, data):
    view, spec = case
    addr, valid = reference(view, spec)
    dim = data.draw(st.integers(0, view.rank - 1))
    legal = legal_lengths_of(addr, valid, dim, view.shape[dim])
    answer = va.max_vector_length(view, dim)
    assert answer.length == max(legal) and answer.legal == tuple(legal)


def test_the_reported_map_gets_no_vector_across_the_buffer_end():
    # A transpose whose bounds are swapped: coordinates 1..3 of dim 1 leave the 4x1 buffer.
    tm = va.parse_transform_map(
        '#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["B", "A"] at [0, 1] -> '
        '["A", "B"] at [0, 1]>] bounds = [1, 4] -> [4, 1]>', strict=False)
    view = va.View(va.Buffer((4, 1)), [tm])
    answer = va.max_vector_length(view, 1)
    assert answer.length == 1 and answer.witness is not None
    assert answer.witness.reason == "mixed validity" and answer.witness.addresses == (0, None)
    codes = [f.code for f in va.lint(view)]
    assert "unchecked-out-of-bounds" in codes  # rocMLIR reads there unmasked

