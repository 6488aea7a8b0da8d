"""SVG pictures of views: well-formed, one cell per point with its address, runs outlined, any
size drawn through a window that the picture states."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import viewalgebra as va
from viewalgebra._cli import main  # noqa: TID251 -- the command line, in process
from viewalgebra._draw import DEFAULT_WINDOW, MAX_SIDE, PAD_FILL, PALETTE  # noqa: TID251 -- limits, colours
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


def coords_of(root: ET.Element) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in g.get("data-coord", "").split(",") if c) for g in cells(root)]


def title_of(root: ET.Element) -> str:
    (head,) = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "title"]
    return "".join(head.itertext())


def check_cells_at(root: ET.Element, view: va.View, expected: set[tuple[int, ...]]) -> None:
    """The drawn cells are exactly the points ``expected``, each with ``view.address`` (for views too
    large to enumerate)."""
    assert set(coords_of(root)) == expected and len(cells(root)) == len(expected)
    for g in cells(root):
        point = tuple(int(c) for c in g.get("data-coord", "").split(","))
        a = view.address(point)
        assert g.get("data-address") == (None if a is None else str(a))


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
    # dim 0 has runs of 8, dim 1 steps by 8 in the buffer: by default dim 0 goes across the columns.
    root = parse(draw_svg(MERGE_VIEW))
    check_cells(root, MERGE_VIEW, lambda a: a)
    assert "dim 0 \u2192" in texts(root) and "dim 1 \u2193" in texts(root)
    assert "vector length 8 along dim 0 (exact)" in texts(root)
    assert runs(root) == (32 * 5 // 8, 0)
    # vector_dim picks the other dim's runs of 1
    assert runs(parse(draw_svg(MERGE_VIEW, vector_dim=1))) == (32 * 5, 0)


def test_runs_are_outlined_along_the_rows_when_they_are_longer_there():
    # dim 0 is drawn down the rows, as asked; its runs of 8 are the ones outlined
    root = parse(draw_svg(MERGE_VIEW, rows=0, cols=1))
    check_cells(root, MERGE_VIEW, lambda a: a)
    v = va.max_vector_length(MERGE_VIEW, 0).length
    assert v == 8 and va.max_vector_length(MERGE_VIEW, 1).length == 1
    assert "dim 0 \u2193" in texts(root)
    assert f"vector length {v} along dim 0 (exact)" in texts(root)
    assert runs(root) == (32 * 5 // v, 0)
    heights = {r.get("height") for r in root.iter("{http://www.w3.org/2000/svg}rect")
               if r.get("class") == "run"}
    assert heights == {str(v * 30 - 3)}  # tall outlines: runs go down the rows


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
    (va.View(va.Buffer((6, 4, 8), strides=(1, 48, 6))), {}, 0, 6),  # the longest runs, by default
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
    assert width > 32 * 30 and height > 5 * 30  # dim 0 (runs of 8) across, dim 1 down
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
    (MERGE_VIEW, {"rows": 0, "fixed": {0: 1}}, "dim 0 is drawn (rows); it cannot also be fixed"),
    (va.View(va.Buffer((3, 4, 5))), {"fixed": {2: 5}}, "fixed coordinate of dim 2 is 5, outside [0, 5)"),
    (va.View(va.Buffer((3, 4, 5))), {"fixed": {3: 0}}, "fixed dim 3 out of range for a view of rank 3"),
    (va.View(va.Buffer((3, 4, 5))), {"vector_dim": 0}, "vector_dim 0 is not drawn (rows=1, cols=2)"),
    (va.View(va.Buffer(())), {"cols": 0}, "cols dim 0 out of range for a view of rank 0"),
    (MERGE_VIEW, {"fixed": [0, 1]}, "fixed must be a mapping {dim: coordinate}, got [0, 1]"),
    (PAD_1D, {"row_window": (0, 1)}, "row_window (0, 1): no dim is drawn down the rows"),
    (MERGE_VIEW, {"row_window": range(0, 6, 2)}, "row_window must have step 1, got range(0, 6, 2)"),
    (MERGE_VIEW, {"col_window": [0, 4]}, "col_window must be a range(START, STOP) or a (START, STOP) pair"),
    (MERGE_VIEW, {"col_window": (0, 33)},
     "draw_svg: col_window (0, 33) is outside dim 0 of size 32: a window START:STOP needs 0 <= START < STOP "
     "<= 32"),
    (MERGE_VIEW, {"rows": 0, "row_window": range(5, 5)}, "row_window range(5, 5) is outside dim 0 of size 32"),
    (MERGE_VIEW, {"row_window": (-1, 3)}, "row_window (-1, 3) is outside dim 1 of size 5"),
])
def test_bad_dims_and_coordinates(view, kwargs, message):
    with pytest.raises(va.errors.CoordinateError, match=re.escape(message)):
        draw_svg(view, **kwargs)


def test_a_long_side_is_cut_to_the_default_window_and_says_so():
    view = va.View(va.Buffer((MAX_SIDE + 1, 4)))  # dim 1 has the runs: across; dim 0 down, too long
    root = parse(draw_svg(view))
    rows = DEFAULT_WINDOW[0]
    check_cells(root, view, lambda a: a[:rows])
    assert title_of(root).endswith(f", cells 0:{rows} x 0:4 of {MAX_SIDE + 1} x 4")
    assert any(t.startswith(f"window: dim 0 0:{rows} of {MAX_SIDE + 1}, dim 1 0:4 of 4; only the first")
               for t in texts(root))
    # a side of MAX_SIDE is drawn whole, and says nothing of windows
    whole = parse(draw_svg(va.View(va.Buffer((MAX_SIDE, 4)))))
    assert len(cells(whole)) == MAX_SIDE * 4 and "cells" not in title_of(whole)
    # a window of MAX_SIDE is allowed anywhere; one more is refused with the argument to change
    draw_svg(va.View(va.Buffer((MAX_SIDE + 1, 4, 2))), rows=0, row_window=(1, MAX_SIDE + 1))
    with pytest.raises(DrawError, match=re.escape(
            f"draw_svg: row_window range(0, {MAX_SIDE + 1}) has {MAX_SIDE + 1} cells down the rows, more "
            f"than the {MAX_SIDE} that stay readable: draw at most {MAX_SIDE}, e.g. "
            f"row_window=range(0, {MAX_SIDE})")):
        draw_svg(view, row_window=range(MAX_SIDE + 1))


def conv_view() -> va.View:
    (parsed,) = va.text.parse_mlir_views((EXAMPLES / "conv2d_fwd_nchw.mlir").read_text())
    assert parsed.view is not None and parsed.view.shape == (1, 2304, 200704)
    return parsed.view


def test_readme_example_draws_with_no_options():
    view = conv_view()
    root = parse(draw_svg(view))
    rows, cols = DEFAULT_WINDOW
    # dims 1 and 2 are drawn (dim 0 has size 1), cut to the default window, and the title says so
    check_cells_at(root, view, {(0, i, j) for i in range(rows) for j in range(cols)})
    assert title_of(root).endswith(f", cells 0:{rows} x 0:{cols} of 2304 x 200704")
    assert "slice: dim 0 (gemmG) = 0" in texts(root)
    assert "dim 1 (gemmK) \u2193" in texts(root) and "dim 2 (gemmN) \u2192" in texts(root)
    assert sum(g.get("class") == "cell padding" for g in cells(root)) > 0  # the conv's padding, in grey


def test_readme_example_draws_through_windows():
    view = conv_view()
    root = parse(draw_svg(view, rows=1, row_window=range(100, 116), cols=2, col_window=(40, 72)))
    check_cells_at(root, view, {(0, i, j) for i in range(100, 116) for j in range(40, 72)})
    assert title_of(root).endswith(", cells 100:116 x 40:72 of 2304 x 200704")
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "col-label"]
    assert labels == [str(j) for j in range(40, 72)]
    assert not any("only the first" in t for t in texts(root))  # a window given is not a cut
    # dim 2 across and dim 0 fixed: one row of it
    one = parse(draw_svg(view, fixed={1: 7}, col_window=(0, 10)))
    check_cells_at(one, view, {(0, 7, j) for j in range(10)})


def test_runs_cut_by_a_window_run_past_its_edges():
    root = parse(draw_svg(MERGE_1D, col_window=range(8, 16)))
    check_cells(root, MERGE_1D, lambda a: a[8:16])
    assert "vector length 32 along dim 0 (exact)" in texts(root)
    assert runs(root) == (1, 0)
    (run,) = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "run"]
    first = min(float(r.get("x", "0")) for g in cells(root) for r in g.iter("{http://www.w3.org/2000/svg}rect"))
    assert float(run.get("x", "0")) < first  # it starts before the window, clipped to the grid
    clip = root.find("svg:defs/svg:clipPath/svg:rect", NS)
    assert clip is not None and float(clip.get("x", "0")) == first


def test_defaults_skip_fixed_dims():
    view = va.View(va.Buffer((3, 4, 5)))
    root = parse(draw_svg(view, fixed={2: 1}))  # dim 2 has the runs, but it is fixed
    check_cells(root, view, lambda a: a[:, :, 1])
    assert "slice: dim 2 = 1" in texts(root) and "dim 1 \u2192" in texts(root)
    column = parse(draw_svg(PAD_1D, rows=0))  # a rank-1 view down the rows: one column
    check_cells(column, PAD_1D, lambda a: a)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["draw", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_draws_the_readme_example_and_names_the_flags_of_the_cut(tmp_path, capsys):
    out = tmp_path / "conv.svg"
    code, stdout, stderr = run_cli(capsys, str(EXAMPLES / "conv2d_fwd_nchw.mlir"), "-o", str(out))
    assert (code, stdout) == (0, f"wrote {out}\n")
    rows, cols = DEFAULT_WINDOW
    assert stderr.count("\n") == 1 and f"drew only 0:{rows} x 0:{cols} of 2304 x 200704 cells" in stderr
    assert f"as --rows 1:0:{rows} --cols 2:0:{cols} would" in stderr
    assert "draw others with --rows 1:START:STOP and --cols 2:START:STOP" in stderr
    assert len(cells(parse(out.read_text()))) == rows * cols
    # the same window, asked for: nothing cut, nothing to say
    code, _, stderr = run_cli(capsys, str(EXAMPLES / "conv2d_fwd_nchw.mlir"), "-o", str(out),
                              "--rows", f"1:0:{rows}", "--cols", f"2:0:{cols}")
    assert (code, stderr) == (0, "")
    code, stdout, _ = run_cli(capsys, str(EXAMPLES / "conv2d_fwd_nchw.mlir"), "-o", str(out),
                              "--rows", "1:100:116", "--cols", "2:40:72", "--json")
    report = json.loads(stdout)
    assert code == 0 and report["row_window"] == [100, 116] and report["col_window"] == [40, 72]
    assert (report["vector_dim"], report["fixed"], report["cut"]) == (2, [{"dim": 0, "coordinate": 0}], [])
    root = parse(out.read_text())
    check_cells_at(root, conv_view(), {(0, i, j) for i in range(100, 116) for j in range(40, 72)})


@pytest.mark.parametrize(("args", "message"), [
    (["--rows", "0:32"], "--rows 0:32: expected D or D:START:STOP (a dim, optionally with the window "
                         "START:STOP of its coordinates), e.g. --rows 1 or --rows 1:0:32"),
    (["--cols", "2:-1:5"], "--cols 2:-1:5: expected D or D:START:STOP"),
    (["--rows", "1:0:100"], "--rows 1:0:100 has 100 cells down the rows, more than the 64 that stay "
                            "readable: draw at most 64, e.g. --rows 1:0:64"),
    (["--cols", "2:200700:200710"], "--cols 2:200700:200710 is outside dim 2 of size 200704: a window "
                                    "START:STOP needs 0 <= START < STOP <= 200704"),
    (["--rows", "3"], "--rows dim 3 out of range for a view of rank 3"),
    (["--rows", "2", "--cols", "2:0:8"], "--rows and --cols are both dim 2; pick two different dims"),
    (["--rows", "1", "--fixed", "1=0"], "dim 1 is drawn (--rows); it cannot also be fixed"),
    (["--fixed", "1=2304"], "--fixed coordinate of dim 1 is 2304, outside [0, 2304)"),
    (["--fixed", "0=0", "--fixed", "0=1"], "--fixed 0=1: dim 0 is already fixed (at 0)"),
    (["--vector-dim", "x"], "--vector-dim x: expected a dim (an integer), e.g. --vector-dim 1"),
    (["--view", "%9"], "no view %9 (there are %3; or give the view's line)"),
    (["--vector-dim", "0"], "--vector-dim 0 is not drawn (--rows 1, --cols 2); its runs would not be visible"),
])
def test_cli_errors_name_the_flags(tmp_path, capsys, args, message):
    out = tmp_path / "x.svg"
    code, stdout, stderr = run_cli(capsys, str(EXAMPLES / "conv2d_fwd_nchw.mlir"), "-o", str(out), *args)
    assert (code, stdout) == (2, "") and not out.exists()
    assert stderr.count("\n") == 1 and message in stderr and "draw_svg" not in stderr


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
