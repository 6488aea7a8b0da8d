"""Lint: every hazard it reports is real (checked by evaluation), and clean maps stay clean."""

from __future__ import annotations

import numpy as np

import viewalgebra as va


def lenient(text: str) -> va.TransformMap:
    return va.parse_transform_map(text, strict=False)


def test_slice_beyond_its_lower_bound_is_an_unchecked_read():
    tm = lenient('<affine_map<(d0) -> (d0 + 2)> by [<Slice{2, 7} ["x"] at [0] -> ["x"] at [0]>] '
                 'bounds = [5] -> [6]>')
    findings = va.lint(tm)
    assert [f.code for f in findings] == ["rule", "unchecked-out-of-bounds"]
    (hazard,) = [f for f in findings if f.code == "unchecked-out-of-bounds"]
    lower, valid = va.evaluate(tm, hazard.point)
    # rocMLIR reads past the end there, unmasked; here the point is invalid (docs/semantics.md)
    assert not valid and lower[0] >= 6


def test_broadcast_longer_than_its_lower_dim_is_an_unchecked_read():
    tm = lenient('<affine_map<(d0) -> (d0 mod 4)> by [<Broadcast{4} ["x"] at [0] -> ["x"] at [0]>] '
                 'bounds = [8] -> [2]>')
    (hazard,) = [f for f in va.lint(tm) if f.code == "unchecked-out-of-bounds"]
    assert va.evaluate(tm, hazard.point)[0][0] >= 2


def test_padding_is_checked_so_it_is_no_hazard():
    tm = va.parse_transform_map(
        '<affine_map<(d0) -> (d0 - 3)> by [<Pad{3, 1} ["x"] at [0] -> ["x"] at [0]>] bounds = [8] -> [4]>')
    assert va.lint(tm) == ()


def test_an_embed_that_rocmlirs_per_term_test_misses_is_a_hazard():
    # rocMLIR's embedCanBeInvalid calls Embed{1, 1} over [10, 10] -> [12] "never invalid" (10 <= 12
    # term by term), so it emits no check: 9 + 3 = 12 is read out of range. Here it is invalid.
    tm = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [10, 10] -> [12]>')
    (finding,) = va.lint(tm)
    assert finding.code == "unchecked-out-of-bounds" and finding.point is not None
    assert sum(finding.point) >= 12
    flagged = va.parse_transform_map(  # 16 * 1 > 12: the per-term test flags it, rocMLIR checks it
        '<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [16, 10] -> [12]>', strict=False)
    assert [f.code for f in va.lint(flagged)] == []
    view = va.View(va.Buffer((12,)), [tm])
    assert view.address((9, 9)) is None and view.address((9, 2)) == 11
    _, valid = view.addresses()
    assert valid.sum() == sum(1 for a in range(10) for b in range(10) if a + b < 12)


def test_a_view_that_outgrows_its_buffer_is_reported_at_the_right_map():
    merge = va.parse_transform_map(
        '<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)> by [<Merge{3, 4} ["x"] at [0] -> ["a", "b"] at [0, 1]>] '
        'bounds = [12] -> [3, 4]>')
    view = va.View(va.Buffer((2, 4)), [merge], strict=False)
    findings = va.lint(view)
    assert [f.code for f in findings] == ["chain", "unchecked-out-of-bounds"]
    hazard = findings[1]
    assert hazard.map_index == 0 and "lower dim 0 leaves [0, 2) of the space below" in hazard.message
    addr, valid = view.addresses()
    # rocMLIR would read past the 8-element buffer there; here the point is invalid
    assert not valid[hazard.point] and addr[hazard.point] == -1 and view.address(hazard.point) is None


def test_the_conv_example_view_is_clean():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "examples" / "conv2d_fwd_nchw.mlir").read_text()
    (parsed,) = va.text.parse_mlir_views(text)
    assert parsed.view is not None and va.lint(parsed.view) == ()
    assert all(va.lint(m) == () for m in va.text.parse_mlir_transform_maps(text))


def test_findings_print_readably():
    tm = lenient('<affine_map<(d0) -> (d0 + 2)> by [<Slice{2, 7} ["x"] at [0] -> ["x"] at [0]>] '
                 'bounds = [5] -> [6]>')
    text = [str(f) for f in va.lint(tm)]
    assert text[0] == "rule: Slice{2, 7} at [0] -> [0]: slice end 7 exceeds lower bound 6 of lower dim 0"
    assert text[1].startswith("unchecked-out-of-bounds: lower dim 0 leaves [0, 6)")


def test_witness_points_are_inside_the_box():
    merge = lenient('<affine_map<(d0) -> (d0 floordiv 3, d0 mod 3)> by [<Merge{2, 3} ["x"] at [0] -> '
                    '["a", "b"] at [0, 1]>] bounds = [10] -> [2, 3]>')
    (hazard,) = [f for f in va.lint(merge) if f.code == "unchecked-out-of-bounds"]
    assert 6 <= hazard.point[0] < 10
    assert np.all(np.asarray(hazard.point) >= 0)
