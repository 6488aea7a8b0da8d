"""Exact vector lengths: equal to brute-force enumeration, with genuine witnesses."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from oracle import check_witness, expected_answer, legal_lengths
from rocmlir_data import DATA, cases
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import vectorize as vectorize  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._analyses import vectorize_numpy  # noqa: TID251 -- each path to the answer is tested on its own

SETTINGS = settings(derandomize=True, deadline=None, max_examples=1500)


@st.composite
def queries(draw):
    view = draw(views(max_maps=3, max_points=300).filter(lambda v: v.rank > 0))
    dim = draw(st.integers(0, view.rank - 1))
    size = view.shape[dim]
    run = draw(st.one_of(st.just(max(size, 1)), st.integers(1, max(2 * size, 2)),
                         st.sampled_from([d for d in range(1, size + 1) if size % d == 0] or [1])))
    return view, dim, run


@pytest.mark.slow
@SETTINGS
@given(query=queries(), cap=st.one_of(st.none(), st.integers(1, 12)), power_of_two=st.booleans(),
       aligned=st.booleans(), compatible=st.booleans())
def test_exact_length_equals_brute_force(query, cap, power_of_two, aligned, compatible):
    view, dim, run = query
    result = va.max_vector_length(view, dim, run, max_elements=cap, power_of_two=power_of_two,
                                  aligned=aligned, rocmlir_compatible=compatible)
    _check(view, dim, run, cap, power_of_two, aligned, compatible, result)
    # Asked again, even through an equal but distinct value: the cached answer.
    again = va.View(view.buffer, view.maps, strict=view.strict)
    assert va.max_vector_length(again, dim, run, max_elements=cap, power_of_two=power_of_two,
                                aligned=aligned, rocmlir_compatible=compatible) is result


def _check(view, dim, run, cap, power_of_two, aligned, compatible, result):
    legal = legal_lengths(view, dim, run, aligned=aligned)
    assert list(result.legal) == [v for v in legal if not power_of_two or v & (v - 1) == 0]
    assert result.length == expected_answer(legal, cap, compatible, power_of_two)
    # The witness refutes exactly the smallest illegal candidate above the answer.
    candidates = [c for c in range(result.length + 1, run + 1) if run % c == 0
                  and (not power_of_two or c & (c - 1) == 0) and (cap is None or c <= cap)
                  and c not in legal]
    if candidates:
        assert result.witness is not None and result.witness.length == candidates[0]
        check_witness(view, dim, result.witness)
    else:
        assert result.witness is None


@settings(derandomize=True, deadline=None, max_examples=400)
@given(query=queries(), cap=st.one_of(st.none(), st.integers(1, 12)), power_of_two=st.booleans(),
       aligned=st.booleans())
def test_each_method_equals_brute_force(query, cap, power_of_two, aligned):
    """Every path to the answer on its own: numpy over the whole box, the probe (then ISL from its
    steps), numpy over the dims that interact with ``dim`` (then ISL where that cannot answer),
    ISL alone (from one sampled bad step and its line window)."""
    view, dim, run = query
    for method in ("enumerate", "probe", "separate", "isl"):
        result = vectorize._answer((view, dim, run, cap, power_of_two, aligned, False), 60, method)
        _check(view, dim, run, cap, power_of_two, aligned, False, result)
    if not aligned and math.gcd(run, view.shape[dim]) > 1:
        groups, _ = vectorize_numpy.dim_groups(view)
        separated = vectorize_numpy.separated(view, dim, [])
        event(f"separated: {'no' if separated is None else len(groups)} groups")


@st.composite
def coupled_views(draw: st.DrawFn) -> va.View:
    """Views of three dims whose first two interact only through a validity check (a padded
    ``x + y``, as a convolution's input), only through the address (``x * b + y`` merged again
    with another radix), or not at all beside a constant check (a ConstDim then padded, valid
    or never); the third dim is independent."""
    t = va.transforms
    kind = draw(st.sampled_from(["check", "term", "constant"]))
    a, b, z = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 4))
    keep_z = t.PassThrough((), ("z",), (2,), ("z",), (1,))
    if kind == "check":
        e = a + b - 1
        lo = draw(st.integers(0, min(2, e - 1)))
        hi = draw(st.integers(0, min(2, e - 1 - lo)))
        maps = (va.TransformMap((t.Embed((1, 1), ("x", "y"), (0, 1), ("e",), (0,)), keep_z), (a, b, z), (e, z)),
                va.TransformMap((t.Pad((lo, hi), ("e",), (0,), ("h",), (0,)),
                                 t.PassThrough((), ("z",), (1,), ("z",), (1,))), (e, z), (e - lo - hi, z)))
    elif kind == "term":
        a, b = draw(st.integers(2, 5)), draw(st.integers(2, 5))
        n = a * b
        # Another radix than x's (with d = 1, a or n the Merge gives back x and y, or k alone)
        d = draw(st.sampled_from([k for k in range(2, n) if n % k == 0 and k != a] or [a]))
        maps = (va.TransformMap((t.Unmerge((a, b), ("x", "y"), (0, 1), ("k",), (0,)), keep_z), (a, b, z), (n, z)),
                va.TransformMap((t.Merge((d, n // d), ("k",), (0,), ("p", "q"), (0, 1)),
                                 t.PassThrough((), ("z",), (1,), ("z",), (2,))), (n, z), (d, n // d, z)))
    else:
        size = draw(st.integers(1, 5))
        value = draw(st.integers(0, size - 1))
        lo = draw(st.integers(0, size - 1))
        hi = draw(st.integers(0, size - 1 - lo))
        maps = (va.TransformMap((t.ConstDim((value, size), (), (), ("c",), (0,)),
                                 t.PassThrough((), ("x", "y", "z"), (0, 1, 2), ("x", "y", "z"), (1, 2, 3))),
                                (a, b, z), (size, a, b, z)),
                va.TransformMap((t.Pad((lo, hi), ("c",), (0,), ("c",), (0,)),
                                 t.PassThrough((), ("x", "y", "z"), (1, 2, 3), ("x", "y", "z"), (1, 2, 3))),
                                (size, a, b, z), (size - lo - hi, a, b, z)))
    shape = maps[-1].lower_bounds
    strides = tuple(draw(st.integers(-3, 9)) for _ in shape)  # rarely row-major: a sum of any terms
    return va.View(va.Buffer(shape, "f32", strides=strides, offset=draw(st.integers(0, 50))), maps)


@settings(derandomize=True, deadline=None, max_examples=200)
@given(view=coupled_views(), data=st.data())
def test_dims_that_interact_are_one_group(view, data):
    """Each of ``coupled_views``' kinds: the groups separate the view (the property below) and
    the answer from the first dim's group is brute force's, for every run length."""
    test_groups_of_dims_separate_the_address_and_the_validity.hypothesis.inner_test(view, data)
    groups, check_groups = vectorize_numpy.dim_groups(view)
    event(f"{len(groups)} groups, {check_groups.count(-1)} constant checks")
    dim = data.draw(st.integers(0, view.rank - 1))
    for run in range(1, view.shape[dim] + 1):
        result = vectorize._answer((view, dim, run, None, False, False, False), 60, "separate")
        _check(view, dim, run, None, False, False, False, result)


@settings(derandomize=True, deadline=None, max_examples=150)
@given(view=views(max_maps=3, max_points=400).filter(lambda v: v.rank > 1), data=st.data())
def test_groups_of_dims_separate_the_address_and_the_validity(view, data):
    """``_groups``: the address is a sum of one term per group of dims and the validity a
    conjunction of one condition per group. So swapping one group's coordinates between two
    points keeps the sum of their addresses (where all four points are valid) and whether both
    are valid; checked on pairs of points (all pairs of a small view) against the evaluation of
    every point."""
    groups, check_groups = vectorize_numpy.dim_groups(view)
    assert sorted(d for g in groups for d in g) == list(range(view.rank))
    assert len(check_groups) == len(vectorize.total_address_and_checks(view)[1])
    addr, valid = view.addresses()
    points = np.argwhere(np.ones(view.shape, dtype=bool))
    if len(points) <= 150:
        pairs = np.array(np.meshgrid(np.arange(len(points)), np.arange(len(points)))).reshape(2, -1)
        p, q = points[pairs[0]], points[pairs[1]]
    else:
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        p = rng.integers(0, view.shape, size=(2000, view.rank))
        q = rng.integers(0, view.shape, size=(2000, view.rank))
    for group in groups:
        own = np.isin(np.arange(view.rank), sorted(group))
        r, s = np.where(own, q, p), np.where(own, p, q)  # p with q's group, and q with p's

        def at(points, of):
            return of[tuple(points.T)]

        assert (at(r, valid) & at(s, valid) == at(p, valid) & at(q, valid)).all()
        four = at(p, valid) & at(q, valid)
        assert (at(r, addr) + at(s, addr) == at(p, addr) + at(q, addr))[four].all()
    event(f"{len(groups)} groups of {view.rank} dims")


def test_a_group_that_is_never_valid_leaves_no_bad_step():
    """Another group of dims that no point satisfies (a lenient view over a buffer of size 0
    along it): every point is invalid, so every length is legal."""
    tm = va.parse_transform_map('<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["a", "b"] at [0, 1] -> '
                                '["a", "b"] at [0, 1]>] bounds = [4, 8] -> [4, 8]>')
    view = va.View(va.Buffer((0, 8)), [tm], strict=False)
    separated = vectorize_numpy.separated(view, 1, [])
    assert separated is not None and separated.gcd(8) == (8, [])
    for method in ("separate", "enumerate", "isl"):
        result = vectorize._answer((view, 1, 8, None, False, False, False), 60, method)
        assert result.legal == tuple(legal_lengths(view, 1, 8)) == (1, 2, 4, 8)


def test_rocmlir_views_answered_by_their_groups_of_dims():
    """The views of rocMLIR's tests that the probe leaves open and whose dim interacts with few
    others: numpy over that group alone, the answer ISL proves."""
    text = (DATA / "rocmlir" / "bug-1550-reduction-fusion-compile-failure.mlir").read_text()
    view = va.text.parse_mlir_views(text)[2].view
    assert view is not None and view.shape == (1, 384, 8192)
    groups, _ = vectorize_numpy.dim_groups(view)
    assert frozenset({2}) in groups
    by_group = vectorize._answer((view, 2, 8192, None, False, False, False), 60, "separate")
    assert by_group == vectorize._answer((view, 2, 8192, None, False, False, False), 60, "isl")
    assert by_group.length == 4096 and str(by_group.witness) == (
        "8192 is illegal: address jump from [0, 0, 4095] to [0, 0, 4096] (addresses 4095 -> 1310720)")


@settings(derandomize=True, deadline=None, max_examples=60,
          suppress_health_check=[HealthCheck.filter_too_much])  # large boxes are a fraction of the draws
@given(view=views(max_maps=3, max_points=6000, max_buffer_points=600).filter(
    lambda v: v.rank > 1 and math.prod(v.shape) > 1500), data=st.data())
def test_probe_steps_are_genuine_and_settle_only_what_they_prove(view, data):
    dim = data.draw(st.integers(0, view.rank - 1))
    size = view.shape[dim]
    seeds = vectorize_numpy.probe(view, dim, size)
    for p in seeds:
        q = tuple(c + 1 if k == dim else c for k, c in enumerate(p))
        a, b = view.address(p), view.address(q)
        assert (a is None) != (b is None) or (a is not None and b != a + 1), "a genuine bad step"
    legal = legal_lengths(view, dim, size)
    if math.gcd(size, *(p[dim] + 1 for p in seeds)) == 1:
        assert legal == [1]
    result = vectorize._answer((view, dim, size, None, False, False, False), 60, "probe")
    _check(view, dim, size, None, False, False, False, result)
    event("probe settles" if math.gcd(size, *(p[dim] + 1 for p in seeds)) == 1 else "ISL proves")


def test_answers_are_cached_until_cleared():
    (parsed,) = va.text.parse_mlir_views((DATA.parent.parent / "examples" / "conv2d_fwd_nchw.mlir").read_text())
    first = va.max_vector_length(parsed.view, 1)
    assert va.max_vector_length(parsed.view, 1) is first
    va.clear_caches()
    again = va.max_vector_length(parsed.view, 1)
    assert again is not first and again == first


def _case_view(case) -> va.View:
    inp = case["input"]
    maps = [va.parse_transform_map(m["text"], strict=False) for m in inp["transform_chain_top_to_bottom"]]
    return va.View(va.text.parse_memref_type(inp["underlying_buffer_type"]), maps, strict=False)


CHAIN_CASES = [c for c in cases("vectorization") if "transform_chain_top_to_bottom" in c["input"]]


@pytest.mark.parametrize("case", CHAIN_CASES, ids=lambda c: c["id"])
def test_exact_oracle_of_the_conformance_cases(case):
    inp, expected = case["input"], case["expected"]
    view = _case_view(case)
    cap = va.rocmlir.elements_per_access(view) if inp.get("limitForDataType") else None
    result = va.max_vector_length(view, inp["in_dim"], inp["in_dim_len"], max_elements=cap,
                                  rocmlir_compatible=True)
    assert result.length == expected["exact_oracle"]
    assert list(result.legal) == legal_lengths(view, inp["in_dim"], result.run)


def test_where_rocmlir_is_too_cautious():
    by_id = {c["id"]: c for c in CHAIN_CASES}
    broadcast = _case_view(by_id["vec/test_merge_tr_broadcast"])
    assert va.max_vector_length(broadcast, 0).length == 8  # rocMLIR: 1
    embed = _case_view(by_id["vec/test_embed_1_1_pad"])
    assert va.max_vector_length(embed, 1).length == 4  # rocMLIR: 1


@pytest.mark.parametrize(("pad", "sizes", "run", "exact"), [
    ((4, 6), (24, 14), 12, 2),  # rocMLIR's Pad rule says 4: the vector [16, 19] reads lower 12..15
    ((2, 3), (12, 7), 6, 1),    # rocMLIR says 2
    ((2, 3), (12, 7), 12, 1),
])
def test_where_rocmlir_is_unsound(pad, sizes, run, exact):
    tm = va.TransformMap((va.transforms.Pad(pad, ("x",), (0,), ("x",), (0,)),), (sizes[0],), (sizes[1],))
    result = va.max_vector_length(va.View(va.Buffer((sizes[1],)), [tm]), 0, run)
    assert result.length == exact
    assert result.witness is not None and result.witness.reason == "mixed validity"


def test_vectorization_case_file_against_brute_force():
    data = json.loads((DATA / "rocmlir-vectorization-cases.json").read_text())
    for case in data["cases"]:
        maps = []
        for name in reversed(case["chain"]):  # the file lists maps from the buffer outward
            spec = data["maps"][name]
            ops = [va.text.parse_transform(f"<{kind}{{{', '.join(map(str, params))}}} "
                                      f"[{', '.join(f'u{d}' for d in up)}] at {up} -> "
                                      f"[{', '.join(f'l{d}' for d in low)}] at {low}>".replace("{}", ""))
                   for kind, params, up, low in spec["ops"]]
            maps.append(va.TransformMap(ops, spec["upper"], spec["lower"], strict=False))
        view = va.View(va.Buffer(tuple(case["buffer"])), maps, strict=False)
        run = case.get("in_dim_len") or view.shape[case["in_dim"]]
        result = va.max_vector_length(view, case["in_dim"], run)
        assert list(result.legal) == legal_lengths(view, case["in_dim"], run), case["name"]


def test_example_conv_stack():
    (parsed,) = va.text.parse_mlir_views((DATA.parent.parent / "examples" / "conv2d_fwd_nchw.mlir").read_text())
    view = parsed.view
    assert [va.max_vector_length(view, d).length for d in range(3)] == [1, 1, 1]
    # Along gemmN, runs of wo are contiguous but padding starts mid-run at wo = 0 or 55.
    w = va.max_vector_length(view, 2).witness
    assert w is not None and w.length == 2 and w.reason == "mixed validity"
    check_witness(view, 2, w)


def test_bad_arguments():
    view = va.View(va.Buffer((4, 8)))
    with pytest.raises(va.errors.CoordinateError, match="dim 2 out of range for rank 2"):
        va.max_vector_length(view, 2)
    with pytest.raises(va.ViewAlgebraError, match="run length must be at least 1, got 0"):
        va.max_vector_length(view, 1, 0)
    with pytest.raises(va.ViewAlgebraError, match="max_elements must be at least 1"):
        va.max_vector_length(view, 1, max_elements=0)


def test_elements_per_access():
    assert va.rocmlir.elements_per_access("f32") == 4 and va.rocmlir.elements_per_access("f16") == 8
    assert va.rocmlir.elements_per_access(va.View(va.Buffer((4,), "i8"))) == 16
    assert va.rocmlir.elements_per_access("f64", bits=64) == 1


VERDICTS = {"equal": "equal", "rocMLIR conservative": "rocMLIR conservative",
            "rocMLIR UNSOUND (over-estimates)": "rocMLIR unsound"}


@pytest.mark.parametrize("case", CHAIN_CASES, ids=lambda c: c["id"])
def test_comparison_with_rocmlir(case):
    inp, expected = case["input"], case["expected"]
    view = _case_view(case)
    comparison = va.rocmlir.compare_vector_lengths(view, inp["in_dim"], inp["in_dim_len"],
                                           limit_for_data_type=bool(inp.get("limitForDataType")))
    assert comparison.exact.length == expected["exact_oracle"]
    assert comparison.verdict == VERDICTS[expected["rocmlir_vs_exact"]]
    # An unsound answer really is illegal, by brute force; a conservative one is legal.
    legal = legal_lengths(view, inp["in_dim"], comparison.exact.run)
    assert (comparison.rocmlir in legal) == (comparison.verdict != "rocMLIR unsound")


@settings(derandomize=True, deadline=None, max_examples=200)
@given(query=queries(), limit=st.booleans())
def test_comparison_verdicts_on_random_views(query, limit):
    view, dim, run = query
    comparison = va.rocmlir.compare_vector_lengths(view, dim, run, limit_for_data_type=limit)
    legal = legal_lengths(view, dim, run)
    cap = va.rocmlir.elements_per_access(view) if limit else None
    assert comparison.exact.length == expected_answer(legal, cap, True, False)
    assert (comparison.rocmlir in legal) == (comparison.verdict != "rocMLIR unsound")
    assert (comparison.rocmlir == comparison.exact.length) == (comparison.verdict == "equal")
    event(comparison.verdict)


def test_addresses_beyond_64_bits_are_left_to_isl():
    # numpy cannot evaluate these addresses (3 * 2^62 + 1 > 2^63 - 1): enumeration and the probe
    # step aside, ISL answers with exact integers.
    view = va.View(va.Buffer((4, 2), "f32", strides=(2**62, 1)))
    assert vectorize_numpy.enumerated(view, 1) is None and vectorize_numpy.probe(view, 1, 2) == []
    assert va.max_vector_length(view, 1).length == 2
    result = va.max_vector_length(view, 0)
    assert result.length == 1 and result.witness is not None and result.witness.reason == "address jump"


@given(view=views(max_maps=3, max_points=400), data=st.data())
@settings(derandomize=True, deadline=None, max_examples=150)
def test_the_bad_steps_of_a_line_equal_enumeration(view, data):
    """The first estimate of the ISL path (``_line``): every bad step in a window of the line
    through a bad point, against numpy over the box."""
    if view.rank == 0:
        return
    dim = data.draw(st.integers(0, view.rank - 1))
    if view.shape[dim] < 2:
        return
    addr, valid = view.addresses()
    first = np.take(addr, range(view.shape[dim] - 1), axis=dim)
    second = np.take(addr, range(1, view.shape[dim]), axis=dim)
    ok_first = np.take(valid, range(view.shape[dim] - 1), axis=dim)
    ok_second = np.take(valid, range(1, view.shape[dim]), axis=dim)
    good = (ok_first & ok_second & (second - first == 1)) | (~ok_first & ~ok_second)
    bad = np.argwhere(~good)
    if not len(bad):
        return
    through = tuple(int(c) for c in bad[data.draw(st.integers(0, len(bad) - 1))])
    start = max(through[dim] - vectorize.LINE_WINDOW // 2, 0)
    expected = [p for p in (tuple(int(c) for c in q) for q in bad)
                if all(p[k] == through[k] for k in range(view.rank) if k != dim)
                and start <= p[dim] < start + vectorize.LINE_WINDOW]
    event(f"{len(expected)} bad steps on the line")
    for method in ("numpy", "isl"):
        line = vectorize._line(view, vectorize.bad_steps(view, dim), dim, through, method)  # noqa: SLF001
        assert line == expected and through in line, method
