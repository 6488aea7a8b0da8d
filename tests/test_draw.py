"""SVG pictures of views: well-formed, one cell per point with its address, runs outlined."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import viewalgebra as va
from viewalgebra._draw import MAX_SIDE, PAD_FILL, PALETTE  # noqa: TID251 -- the picture's limits and colours
from viewalgebra.draw import draw_svg
from viewalgebra.errors import DrawError

NS = {"svg": "http://www.w3.org/2000/svg"}
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

MERGE_VIEW = va.View(va.Buffer((4, 5, 8), "f32"), [va.parse_transform_map(
    '#rock.transform_map<affine_map<(d0, d1) -> (d0 floordiv 8, d1, d0 mod 8)> '
    'by [<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 2]>, '
    '<PassThrough ["0"] at [1] -> ["0"] at [1]>] bounds = [32, 5] -> [4, 5, 8]>')])

PAD_1D = va.View(va.Buffer((4,)), [va.parse_transform_map(
    '<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 1} ["x"] at [0] -> ["x"] at [0]>] bounds = [7] -> [4]>')])

PAD_2D = va.View(va.Buffer((4, 4)), [va.parse_transform_map(
    '<affine_map<(d0, d1) -> (d0 - 1, d1 - 2)> by [<Pad{1, 1, 2, 2} ["h", "w"] at [0, 1] -> '
    '["h", "w"] at [0, 1]>] bounds = [6, 8] -> [4, 4]>')])

MERGE_1D = va.View(va.Buffer((4, 8)), [va.parse_transform_map(
    '<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>] '
    'bounds = [32] -> [4, 8]>')])


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def cells(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "cell" in g.get("class", "").split()]


def runs(root: ET.Element) -> tuple[int, int]:
    """(valid runs, all-padding runs)."""
    found = [r.get("class", "") for r in root.iter("{http://www.w3.org/2000/svg}rect")
             if "run" in r.get("class", "").split()]
    return sum(c == "run" for c in found), sum(c == "run padding" for c in found)


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def check_cells(root: ET.Element, view: va.View, slice_of) -> None:
    """Every drawn cell shows ``view.addresses()`` at its coordinate; padding has no number."""
    addr, valid = view.addresses()
    drawn = cells(root)
    assert len(drawn) == int(np.asarray(slice_of(addr)).size)
    coords = set()
    for g in drawn:
        point = tuple(int(c) for c in g.get("data-coord", "").split(",") if c)
        coords.add(point)
        rect = g.find("svg:rect", NS)
        number = g.find("svg:text", NS)
        assert rect is not None
        if valid[point]:
            assert "padding" not in g.get("class", "")
            assert number is not None and number.text == str(addr[point])
            assert g.get("data-address") == str(addr[point])
            assert rect.get("fill") == PALETTE[addr[point] % len(PALETTE)]
        else:
            assert g.get("class") == "cell padding"
            assert number is None and g.get("data-address") is None
            assert rect.get("fill") == PAD_FILL
    assert len(coords) == len(drawn)


def test_merge_view_cells_show_the_addresses():
    root = parse(draw_svg(MERGE_VIEW))
    check_cells(root, MERGE_VIEW, lambda a: a)
    # dim 1 steps by 8 in the buffer: no vector longer than 1 along the columns.
    assert "vector length 1 along dim 1 (exact)" in texts(root)
    assert runs(root) == (32 * 5, 0)


def test_merge_view_down_the_rows():
    root = parse(draw_svg(MERGE_VIEW, vector_dim=0))
    check_cells(root, MERGE_VIEW, lambda a: a)
    v = va.max_vector_length(MERGE_VIEW, 0).length
    assert v == 8
    assert f"vector length {v} along dim 0 (exact)" in texts(root)
    assert runs(root) == (32 * 5 // v, 0)


def test_padded_1d_view_is_one_row():
    root = parse(draw_svg(PAD_1D))
    check_cells(root, PAD_1D, lambda a: a)
    assert [g.get("data-coord") for g in cells(root)] == [str(i) for i in range(7)]
    assert sum(g.get("class") == "cell padding" for g in cells(root)) == 3
    assert "grey: padding (invalid, no address)" in texts(root)


def test_padded_2d_view_outlines_valid_and_padding_runs():
    root = parse(draw_svg(PAD_2D))
    check_cells(root, PAD_2D, lambda a: a)
    assert "vector length 2 along dim 1 (exact)" in texts(root)
    # rows 1..4: [pad pad] [0 1] [2 3] [pad pad]; rows 0 and 5: four padding runs
    assert runs(root) == (4 * 2, 4 * 2 + 2 * 4)


@pytest.mark.parametrize(("view", "kwargs", "dim", "v"), [
    (MERGE_1D, {}, 0, 32),
    (va.View(va.Buffer((4, 8))), {}, 1, 8),
    (va.View(va.Buffer((4, 8))), {"vector_dim": 0}, 0, 1),
    (va.View(va.Buffer((6, 4, 8))), {"rows": 1, "cols": 2, "fixed": {0: 5}}, 2, 8),
    (va.View(va.Buffer((6, 4, 8), strides=(1, 48, 6))), {"vector_dim": 0}, 0, 6),
])
def test_contiguous_views_have_cells_over_v_runs(view, kwargs, dim, v):
    root = parse(draw_svg(view, **kwargs))
    assert va.max_vector_length(view, dim).length == v
    assert f"vector length {v} along dim {dim} (exact)" in texts(root)
    assert runs(root) == (len(cells(root)) // v, 0)


def test_rank_3_slice_is_named_and_fixed():
    view = va.View(va.Buffer((3, 4, 5)))
    root = parse(draw_svg(view, rows=0, cols=2, fixed={1: 2}))
    check_cells(root, view, lambda a: a[:, 2, :])
    assert {g.get("data-coord") for g in cells(root)} == {f"{i},2,{j}" for i in range(3) for j in range(5)}
    assert "slice: dim 1 = 2" in texts(root)
    assert "dim 0 \u2193" in texts(root) and "dim 2 \u2192" in texts(root)


def test_dim_names_label_the_axes():
    root = parse(draw_svg(PAD_2D))
    assert "dim 0 (h) \u2193" in texts(root) and "dim 1 (w) \u2192" in texts(root)


def test_rank_0_view_is_one_cell():
    view = va.View(va.Buffer((), offset=7))
    root = parse(draw_svg(view))
    (g,) = cells(root)
    assert g.get("data-address") == "7"
    assert runs(root) == (0, 0)


def test_document_is_sized_and_escaped():
    title = 'a <b> & "c"'
    svg = draw_svg(MERGE_VIEW, title=title)
    root = parse(svg)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert width > 5 * 30 and height > 32 * 30
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    (head,) = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "title"]
    assert head.text == title


def test_cell_size_is_respected():
    root = parse(draw_svg(PAD_2D, cell=12))
    rect = cells(root)[0].find("svg:rect", NS)
    assert rect is not None and rect.get("width") == "12"


@pytest.mark.parametrize(("view", "kwargs", "message"), [
    (MERGE_VIEW, {"rows": 2}, "draw_svg: rows dim 2 out of range for a view of rank 2"),
    (MERGE_VIEW, {"cols": -1}, "draw_svg: cols dim -1 out of range for a view of rank 2"),
    (MERGE_VIEW, {"rows": 1, "cols": 1}, "rows and cols are both dim 1"),
    (MERGE_VIEW, {"vector_dim": 2}, "vector_dim 2 out of range for a view of rank 2"),
    (MERGE_VIEW, {"cols": "1"}, "cols dim must be an integer, got '1'"),
    (MERGE_VIEW, {"fixed": {0: 1}}, "dim 0 is drawn (rows); it cannot also be fixed"),
    (va.View(va.Buffer((3, 4, 5))), {"fixed": {2: 5}}, "fixed coordinate of dim 2 is 5, outside [0, 5)"),
    (va.View(va.Buffer((3, 4, 5))), {"fixed": {3: 0}}, "fixed dim 3 out of range for a view of rank 3"),
    (va.View(va.Buffer((3, 4, 5))), {"vector_dim": 2}, "vector_dim 2 is not drawn (rows=0, cols=1)"),
    (PAD_1D, {"rows": 0}, "a rank-1 view is drawn as one row of dim 0; rows must be None, got 0"),
    (va.View(va.Buffer(())), {"cols": 0}, "a rank-0 view has no dims to draw"),
])
def test_bad_dims_and_coordinates(view, kwargs, message):
    with pytest.raises(va.errors.CoordinateError, match=re.escape(message)):
        draw_svg(view, **kwargs)


def test_oversized_grid_is_refused():
    view = va.View(va.Buffer((MAX_SIDE + 1, 4)))
    with pytest.raises(DrawError, match=re.escape(
            f"a grid of {MAX_SIDE + 1} x 4 cells (dim 0 x dim 1 of the view [{MAX_SIDE + 1}, 4]) is too "
            f"large to read; at most {MAX_SIDE} x {MAX_SIDE}")):
        draw_svg(view)
    # the same view is fine the other way round when only a slice of it is drawn
    draw_svg(va.View(va.Buffer((MAX_SIDE + 1, 4, 2))), rows=2, cols=1, fixed={0: MAX_SIDE})


def test_conv_example_is_refused_with_advice():
    (parsed,) = va.text.parse_mlir_views((EXAMPLES / "conv2d_fwd_nchw.mlir").read_text())
    assert parsed.view is not None
    with pytest.raises(va.ViewAlgebraError, match=re.escape(
            "a grid of 2304 x 200704 cells (dim 1 x dim 2 of the view [1, 2304, 200704])")) as info:
        draw_svg(parsed.view, rows=1, cols=2, fixed={0: 0})
    assert "fixed=" in str(info.value)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"cell": 4}, "cell must be at least 8 pixels, got 4"),
    ({"cell": "big"}, "cell must be a number of pixels, got 'big'"),
    ({"title": 3}, "title must be a string, got 3"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(DrawError, match=re.escape(message)):
        draw_svg(PAD_2D, **kwargs)


def test_empty_view_is_refused():
    with pytest.raises(DrawError, match=re.escape("the view [0, 3] is empty")):
        draw_svg(va.View(va.Buffer((0, 3))))
