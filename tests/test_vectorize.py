"""Exact vector lengths: equal to brute-force enumeration, with genuine witnesses."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracle import check_witness, expected_answer, legal_lengths
from rocmlir_data import DATA, cases
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import vectorize as vectorize  # noqa: TID251 -- each path to the answer is tested on its own

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
    steps), ISL alone (from one sampled bad step and its line window)."""
    view, dim, run = query
    for method in ("enumerate", "probe", "isl"):
        result = vectorize._answer((view, dim, run, cap, power_of_two, aligned, False), 60, method)
        _check(view, dim, run, cap, power_of_two, aligned, False, result)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(view=views(max_maps=3, max_points=6000, max_buffer_points=600).filter(
    lambda v: v.rank > 1 and math.prod(v.shape) > 1500), data=st.data())
def test_probe_steps_are_genuine_and_settle_only_what_they_prove(view, data):
    dim = data.draw(st.integers(0, view.rank - 1))
    size = view.shape[dim]
    seeds = vectorize._probe(view, dim, size)
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
    assert vectorize._enumerated(view, 1) is None and vectorize._probe(view, 1, 2) == []
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
