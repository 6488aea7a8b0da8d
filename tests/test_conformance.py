"""rocMLIR's own test files and case lists: verifier rejections, loading, round trips, the
affine maps written in the text, and the builder examples (docs/semantics.md)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from rocmlir_data import INVALID_FILE, ROCMLIR_FILES, cases

import viewalgebra as va

VALID_FILES = [f for f in ROCMLIR_FILES if f != INVALID_FILE]


def _entries(path):
    return va.text.parse_mlir_transform_maps(path.read_text(), errors="collect")


def test_the_case_list_cites_files_of_this_repository():
    """Every file rocmlir-cases.json names as its raw text is in tests/data/rocmlir/."""
    import json

    text = (Path(__file__).parent / "data" / "rocmlir-cases.json").read_text()
    cited = set(re.findall(r"[\w./-]+\.mlir", text))
    local = {c for c in cited if not c.startswith("mlir/")}  # the rest are rocMLIR paths
    assert local and all((Path(__file__).parent.parent / c).is_file() for c in local), sorted(local)
    assert json.loads(text)  # still one document


# {{{ verifier


@pytest.mark.parametrize("case", cases("verifier"), ids=lambda c: c["id"])
def test_verifier_case_is_rejected_for_its_reason(case):
    reason = case["expected"]["errors"][0]
    with pytest.raises(va.ViewAlgebraError) as info:
        va.parse_transform_map(case["input"]["transform_map_text"], strict=False)
    # rocMLIR's message says "outut"; ours spells it "output".
    assert reason.replace("outut", "output") in str(info.value)


def _expected_errors(text: str) -> dict[int, list[str]]:
    """Line -> the expected-error messages that target it (`// expected-error @+N {{...}}`)."""
    expected: dict[int, list[str]] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = re.search(r"expected-error @\+(\d+) \{\{(.*)\}\}", line)
        if m and "failed to parse" not in m.group(2):
            expected.setdefault(lineno + int(m.group(1)), []).append(m.group(2))
    return expected


def test_every_map_of_the_verifier_excerpt_is_rejected_for_the_stated_reason():
    text = INVALID_FILE.read_text()
    expected = _expected_errors(text)
    entries = _entries(INVALID_FILE)
    assert sorted(e.line for e in entries) == sorted(expected)
    for e in entries:
        assert e.map is None and e.error is not None
        reasons = [r.replace("outut", "output") for r in expected[e.line]]
        assert any(r in str(e.error) for r in reasons), (e.line, str(e.error), reasons)
        # The location points into the offending line.
        assert str(e.error).startswith(f"{e.line}:")


# }}}
# {{{ loading and round trips

# Maps rocMLIR accepts that break a rule it does not check: (file, line of the map) -> reason.
LENIENT_ONLY = {
    ("test_vectorization_inference.legacy-2023.mlir", 108): "Unmerge{8, 3} over upper [8, 3]",
    ("test_vectorization_inference.legacy-2023.mlir", 112): "Unmerge{128, 32, 2, 2} reversed",
    ("unknown-path__regularize_invalid_generic_reduction.mlir", 3): "lower dim 0 defined twice",
}


@pytest.mark.parametrize("path", VALID_FILES, ids=lambda p: p.name)
def test_every_map_loads_leniently_and_round_trips(path):
    entries = _entries(path)
    assert entries, "every conformance file holds transform maps"
    for e in entries:
        assert e.error is None, (e.line, e.error)
        assert e.map is not None
        meaningful = not any(p.blocking for p in va.transforms.problems(e.map))
        text = va.print_transform_map(e.map, affine_map=None if meaningful else e.written)
        again = va.parse_transform_map(text, strict=False)
        assert again == e.map
        assert va.print_transform_map(again, affine_map=None if meaningful else e.written) == text
        inline = va.print_transform_map(e.map, prefix=False,
                                        affine_map=None if meaningful else e.written)
        assert va.parse_transform_map(inline, strict=False) == e.map


def test_exactly_the_known_maps_need_strict_false():
    lenient_only = set()
    for path in VALID_FILES:
        for e in _entries(path):
            assert e.map is not None
            try:
                va.TransformMap(e.map.ops, e.map.upper_bounds, e.map.lower_bounds)
            except va.errors.InvalidTransformError:
                lenient_only.add((path.name, e.line))
    assert lenient_only == set(LENIENT_ONLY)


def test_a_map_without_meaning_is_linted_not_evaluated():
    path = [p for p in VALID_FILES if "invalid_generic_reduction" in p.name][0]
    (entry,) = _entries(path)
    codes = {f.code for f in va.lint(entry)}
    assert "unusable" in codes
    with pytest.raises(va.errors.InvalidTransformError, match="lower dim 0 is defined by 2 transforms"):
        va.isl.coordinates(entry.map)


# }}}
# {{{ written affine maps

# The maps whose written affine_map disagrees with their ops: (file, alias).
MISMATCHED = {
    ("test_vectorization_inference.mlir", "transform_map_align_e41"),
    ("test_vectorization_inference.mlir", "transform_merge_4"),
    ("test_vectorization_inference.mlir", "transform_unmerge_7"),
    ("test_vectorization_inference.mlir", "transform_merge_9"),
    ("test_vectorization_inference.mlir", "transform_map_embed_tiebreak1"),
    ("test_vectorization_inference.mlir", "issue_1643_split_iter"),
    ("test_vectorization_inference.legacy-2023.mlir", "transform_map_align_e41"),
    ("test_vectorization_inference.legacy-2023.mlir", "transform_merge_4"),
    ("test_vectorization_inference.legacy-2023.mlir", "transform_unmerge_7"),
    ("test_vectorization_inference.legacy-2023.mlir", "transform_merge_9"),
    ("test_collapse_contiguous_merges.mlir", "unmerge_trmap"),
    ("test_collapse_contiguous_merges.mlir", "conv2gemm_trmap"),
}


def _written_agrees_by_enumeration(entry) -> tuple[bool, tuple[int, ...] | None]:
    """Brute force: evaluate the written affine map and the ops on every point of the box."""
    tm = entry.map
    grid = np.indices(tm.upper_bounds).reshape(tm.upper_rank, -1).T
    ops_values, _ = va.evaluate_array(tm, grid)
    written = np.stack([_eval(r, grid) for r in entry.written.results], axis=1) if (
        entry.written.results) else np.zeros((len(grid), 0), dtype=np.int64)
    differ = np.flatnonzero((written != ops_values).any(axis=1))
    if differ.size == 0:
        return True, None
    return False, tuple(int(c) for c in grid[differ[0]])


def _eval(expr, points):
    """Independent of the library's evaluator: MLIR text evaluated as numpy arithmetic.

    MLIR's ``*``, ``floordiv`` and ``mod`` bind like Python's ``*``, ``//`` and ``%`` (and floor
    the same way for positive divisors).
    """
    text = str(va.text.AffineMap(points.shape[1], (expr,))).split("-> (", 1)[1][:-1]
    text = re.sub(r"\bd(\d+)\b", lambda m: f"X[:, {m.group(1)}]", text)
    text = text.replace("floordiv", "//").replace("mod", "%")
    value = eval(text, {"X": np.asarray(points, dtype=np.int64)})  # noqa: S307
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (len(points),))


@pytest.mark.parametrize("path", VALID_FILES, ids=lambda p: p.name)
def test_affine_map_mismatches_are_reported_exactly(path):
    for e in _entries(path):
        if any(p.blocking for p in va.transforms.problems(e.map)) or np.prod(e.map.upper_bounds) > 2_000_000:
            continue
        findings = [f for f in va.lint(e) if f.code == "affine-map-mismatch"]
        agrees, point = _written_agrees_by_enumeration(e)
        assert agrees == (not findings), (e.line, e.name, point, findings)
        assert ((path.name, e.name) in MISMATCHED) == (not agrees), (e.line, e.name)
        if findings:
            witness = findings[0].point
            ops_value, _ = va.evaluate(e.map, witness)
            text_value = [int(_eval(r, np.array([witness]))[0]) for r in e.written.results]
            assert text_value != list(ops_value)


def test_the_mismatch_list_is_complete():
    seen = set()
    for path in VALID_FILES:
        for e in _entries(path):
            if any(f.code == "affine-map-mismatch" for f in va.lint(e)):
                seen.add((path.name, e.name))
    assert seen == MISMATCHED


# }}}
# {{{ builder examples (rocMLIR's mlir/unittests/Dialect/Rock/TransformMapBuilderTests.cpp)

_BUILT = {
    "builder/PassThroughExchange": (
        '<PassThrough ["y"] at [1] -> ["y"] at [0]>, <PassThrough ["x"] at [0] -> ["x"] at [1]>',
        "[2, 1] -> [1, 2]"),
    "builder/GemmOut": (
        '<PassThrough ["gemmG"] at [0] -> ["g"] at [1]>, '
        '<PassThrough ["gemmM"] at [1] -> ["k"] at [2]>, '
        '<Merge{32, 14, 14} ["gemmN"] at [2] -> ["n", "h", "w"] at [0, 3, 4]>',
        "[1, 64, 6272] -> [32, 1, 64, 14, 14]"),
}


@pytest.mark.parametrize("case", cases("forward_map"), ids=lambda c: c["id"])
def test_builder_example_affine_map(case):
    expected = case["expected"]
    ops, bounds = _BUILT.get(case["id"], (expected["ops_as_built"], expected["bounds_upper_to_lower"]))
    tm = va.parse_transform_map(
        f"<affine_map<{expected['affine_map']}> by [{ops}] bounds = {bounds}>")
    assert str(va.text.affine_map_of(tm)) == expected["affine_map"]


@pytest.mark.parametrize(("sizes", "expected"), [
    ((2, 3, 5), "(d0) -> (d0 floordiv 15, (d0 mod 15) floordiv 5, d0 mod 5)"),
    ((1, 1, 24), "(d0) -> (0, 0, d0)"),
    ((1, 65536, 1), "(d0) -> (0, d0, 0)"),
    ((4, 1, 6), "(d0) -> (d0 floordiv 6, 0, d0 mod 6)"),
    ((2, 320, 64, 64),
     "(d0) -> (d0 floordiv 1310720, (d0 mod 1310720) floordiv 4096, (d0 mod 4096) floordiv 64,"
     " d0 mod 64)"),
])
def test_merge_as_compiled(sizes, expected):
    n = len(sizes)
    merge = va.transforms.Merge(sizes, ("x",), (0,), tuple(f"l{i}" for i in range(n)), tuple(range(n)))
    tm = va.TransformMap((merge,), (int(np.prod(sizes)),), sizes)
    assert str(va.text.affine_map_of(tm)) == expected


def test_merge_first_coordinate_is_not_reduced_outside_the_box():
    # Lenient map whose upper bound exceeds the product: the compiled form keeps going.
    merge = va.transforms.Merge((2, 3), ("x",), (0,), ("a", "b"), (0, 1))
    tm = va.TransformMap((merge,), (9,), (2, 3), strict=False)
    assert va.evaluate(tm, (8,)) == ((2, 2), False)  # beyond the bound of lower dim 0: invalid
    (finding,) = [f for f in va.lint(tm) if f.code == "unchecked-out-of-bounds"]
    assert finding.point is not None and finding.point[0] >= 6


# }}}
