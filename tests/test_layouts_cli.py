"""``viewalgebra layout TEXT``: the layout read back, its exact vector length with a witness,
its offsets on a grid (text or SVG), the JSON shapes of docs/cli.md, bad text in one line."""

from __future__ import annotations

import json
import re

import pytest
from test_cli import ROOT, conforms, documented_shapes, run

import viewalgebra as va

L = va.layouts

SWIZZLED = "Sw<3,3,3> o (24,8):(1,32)"


@pytest.mark.parametrize("args", [
    ["(4,8):(1,4)"], ["(4,8):(1,4)", "--vector"], [SWIZZLED, "--vector", "--draw"], ["Sw<3,3,3> o 0 o 64:1", "--vector"],
    ["((2,4),8):((1,16),2)", "--vector", "--bits", "128", "--dtype", "f16", "--aligned"],
    ["(8,4,2):(1,16,8)", "--draw"], ["Sw<2,0,2>", "--vector", "--draw"], ["(100,3):(3,1)", "--draw"],
], ids=lambda a: " ".join(a))
def test_json_output_has_the_documented_shape(args):
    result = run("layout", *args, "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    conforms(document, documented_shapes()["layout"])
    assert ("vector" in document) == ("--vector" in args) and ("draw" in document) == ("--draw" in args)


def test_the_vector_length_is_the_closed_form_for_shape_stride_and_the_engine_for_a_swizzle():
    plain = json.loads(run("layout", "(8,4,2):(1,16,8)", "--vector", "--json").stdout)["vector"]
    assert plain["method"] == "closed form"
    assert (plain["length"], plain["legal"], plain["run"]) == (8, [1, 2, 4, 8], 64)
    assert plain["witness"] == {"length": 16, "reason": "address jump", "point": [7], "next_point": [8],
                                "addresses": [7, 16], "text": "16 is illegal: address jump from [7] to [8] "
                                "(addresses 7 -> 16)"}
    swizzled = json.loads(run("layout", SWIZZLED, "--vector", "--json").stdout)["vector"]
    assert swizzled["method"] == "general engine"
    layout = L.parse_layout(SWIZZLED)
    exact = va.max_vector_length(L.layout_view(layout), 0)
    assert (swizzled["length"], swizzled["legal"]) == (exact.length, list(exact.legal)) == (8, [1, 2, 4, 8])
    (p,), (q,) = swizzled["witness"]["point"], swizzled["witness"]["next_point"]
    assert swizzled["witness"]["addresses"] == [L.evaluate(layout, p), L.evaluate(layout, q)]
    assert L.evaluate(layout, q) - L.evaluate(layout, p) != 1


@pytest.mark.parametrize("text", ["(8,4,2):(1,16,8)", "((2,4),8):((1,16),2)", "(4,2):(1,0)", "(2,2):(1,1)",
                                  "(4,8):(-1,4)", "(6,4):(4,1)"])
@pytest.mark.parametrize("options", [[], ["--aligned"], ["--bits", "64", "--dtype", "f16"],
                                     ["--power-of-two", "--length", "12"]])
def test_the_cli_answers_as_the_engine_on_the_same_view(text, options):
    vector = json.loads(run("layout", text, "--vector", "--json", *options).stdout)["vector"]
    assert vector["method"] == "closed form"
    cap = 4 if "--bits" in options else None
    length = 12 if "--length" in options else None
    exact = va.max_vector_length(L.layout_view(L.parse_layout(text), "flat", "f16" if cap else "f32"), 0, length,
                                 max_elements=cap, aligned="--aligned" in options,
                                 power_of_two="--power-of-two" in options)
    assert (vector["length"], vector["legal"], vector["cap"]) == (exact.length, list(exact.legal), exact.cap)
    assert (vector["witness"] is None) == (exact.witness is None)
    if exact.witness is not None:
        assert vector["witness"]["reason"] == exact.witness.reason


def test_the_text_grid_is_every_offset_mode_0_down():
    result = run("layout", SWIZZLED, "--draw")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "layout: Sw<3,3,3> o 0 o (24,8):(1,32) (CuTe swizzled layout; size 192, offsets below 512)"
    assert lines[1] == "offsets (mode 0 down, mode 1 across):"
    assert lines[2].split() == [str(c) for c in range(8)]
    layout = L.parse_layout(SWIZZLED)
    for r, line in enumerate(lines[3:]):
        row, *offsets = (int(x) for x in line.split())
        assert row == r and offsets == [L.evaluate(layout, (r, c)) for c in range(8)]
    assert len(lines) == 3 + 24
    grid = json.loads(run("layout", SWIZZLED, "--draw", "--json").stdout)["draw"]["grid"]
    assert grid == [[L.evaluate(layout, (r, c)) for c in range(8)] for r in range(24)]


def test_more_than_two_modes_are_drawn_as_mode_0_by_the_rest():
    layout = L.parse_layout("(2,3,4):(12,1,3)")
    grid = json.loads(run("layout", str(layout), "--draw", "--json").stdout)["draw"]["grid"]
    assert grid == [[L.evaluate(layout, r + 2 * c) for c in range(12)] for r in range(2)]


def test_a_long_side_is_cut_and_said():
    result = run("layout", "(100,3):(3,1)", "--draw", "--json")
    draw = json.loads(result.stdout)["draw"]
    assert draw["cut"] == ["rows"] and draw["row_window"] == [0, 32] and len(draw["grid"]) == 32
    assert "note: drew only 0:32 x 0:3 of 100 x 3 cells" in run("layout", "(100,3):(3,1)", "--draw").stdout


def test_draw_writes_an_svg(tmp_path):
    out = tmp_path / "l.svg"
    result = run("layout", SWIZZLED, "--draw", str(out), "--json")
    assert result.returncode == 0, result.stderr
    draw = json.loads(result.stdout)["draw"]
    assert draw["output"] == str(out) and "grid" not in draw
    svg = out.read_text()
    assert svg.startswith("<?xml") and "Sw&lt;3,3,3&gt; o 0 o (24,8):(1,32)" in svg
    assert all(f">{L.evaluate(L.parse_layout(SWIZZLED), (r, 2))}<" in svg for r in range(24))


@pytest.mark.parametrize(("args", "message"), [
    (["(4,8):(1,4"], r"<layout>:1:11: .*expected"),
    (["(4,8):(1,4,2)"], r"<layout>:1:\d+: "),
    (["Sw<3,3> o (8,8):(8,1)"], r"<layout>:1:\d+: "),
    (["(4,8):(1,4)", "--vector", "--bits", "0"], r"--bits 0: a width is at least 1 bit"),
    (["(4,8):(1,4)", "--vector", "--length", "0"], r"--length 0: a run length is at least 1"),
    (["(4,8):(1,4)", "--dtype", "q7"], r"--dtype q7: unknown element type"),
])
def test_bad_input_is_one_located_line_and_exit_2(args, message):
    result = run("layout", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and re.match(r"viewalgebra: " + message, result.stderr), result.stderr
    error = re.search(r"```json\n(\{\"message\".*?)```", (ROOT / "docs" / "cli.md")
                      .read_text(), re.S)
    assert error is not None
    conforms(json.loads(run("layout", *args, "--json").stdout), {"error": json.loads(error.group(1))})


@pytest.mark.parametrize(("text", "cute", "exact", "verdict"), [
    ("(8,4,2):(1,16,8)", 8, 8, "equal"),
    ("(4,2):(1,0)", 4, 4, "equal"),
    ("Sw<3,3,3> o 0 o 64:1", 8, 64, "CuTe conservative"),
    (SWIZZLED, 8, 8, "equal"),
])
def test_cutes_rule_is_set_beside_the_exact_length(text, cute, exact, verdict):
    result = run("layout", text, "--vector")
    assert result.returncode == 0, result.stderr
    (line,) = (x for x in result.stdout.splitlines() if x.startswith("CuTe's rule"))
    assert line.endswith(f": {cute}; exact {exact}: {verdict}")
    document = json.loads(run("layout", text, "--vector", "--json").stdout)["vector"]["cute"]
    assert (document["length"], document["exact"], document["verdict"]) == (cute, exact, verdict)
    assert document["exact"] == L.vector_length(L.parse_layout(text)).length


def test_a_swizzle_alone_has_no_cute_rule():
    vector = json.loads(run("layout", "Sw<2,0,2>", "--vector", "--json").stdout)["vector"]
    assert "cute" not in vector and vector["method"] == "general engine"
    assert (vector["length"], vector["witness"]["reason"]) == (1, "address jump")


@pytest.mark.parametrize("text", ["8:1", "(8):(2)", "Sw<1,2,3> o 0 o 64:1"])
def test_a_layout_of_one_mode_is_one_row(text):
    draw = json.loads(run("layout", text, "--draw", "--json").stdout)["draw"]
    layout = L.parse_layout(text)
    assert (draw["rows"], draw["cols"]) == (None, 0)
    assert draw["grid"] == [[L.evaluate(layout, i) for i in range(min(layout.size, 64))]]


TRITON = ("#ttg.linear<{register = [[1], [2], [16], [0]], lane = [[0], [0], [0], [0], [0]], warp = [[4], [8]], "
          "block = []}>")
"""A layout of triton-lang/triton's tests (test/Conversion), as tests/test_layouts_read.py reads it."""


def test_a_triton_layout_is_drawn_on_its_named_dims_and_answered_by_the_engine():
    layout = L.parse_layout(TRITON)
    result = run("layout", TRITON, "--vector", "--draw")
    assert result.returncode == 0, result.stderr
    assert "offsets (warp down, register across):" in result.stdout
    document = json.loads(run("layout", TRITON, "--vector", "--draw", "--json").stdout)
    conforms(document, documented_shapes()["layout"])
    vector, draw = document["vector"], document["draw"]
    assert vector["method"] == "general engine" and "cute" not in vector
    exact = va.max_vector_length(L.layout_view(layout), 0)
    assert (vector["length"], vector["legal"]) == (exact.length, list(exact.legal)) == (4, [1, 2, 4])
    # the flat index has register most minor (16), then lane (32), then warp (4)
    assert draw["grid"] == [[L.evaluate(layout, c + 16 * 32 * r) for c in range(16)] for r in range(4)]


@pytest.mark.parametrize(("text", "kind", "rows", "cols"), [
    ("!fly.layout<(4,8):(1,4)>", "CuTe layout", 4, 8),
    ("#ttg.padded_shared<[2:+1, 4:+2] {order = [0], shape = [16]}>", "Triton padded shared layout", 1, 16),
])
def test_flydsl_and_padded_shared_text_read(text, kind, rows, cols):
    document = json.loads(run("layout", text, "--vector", "--draw", "--json").stdout)
    conforms(document, documented_shapes()["layout"])
    layout = L.parse_layout(text)
    assert document["kind"] == kind and document["vector"]["length"] == L.vector_length(layout).length
    assert document["draw"]["grid"] == [[L.evaluate(layout, r + rows * c) for c in range(cols)]
                                        for r in range(rows)]


def test_a_negative_stride_says_where_the_offsets_are():
    result = run("layout", "(4,8):(-1,4)", "--vector")
    assert result.stdout.splitlines()[0] == "layout: (4,8):(-1,4) (CuTe layout; size 32, offsets -3 to 28)"
    assert "2 is illegal: address jump from [0] to [1] (addresses 0 -> -1)" in result.stdout


@pytest.mark.parametrize("text", ["(8,4,2):(1,16,8)", "(6,4):(1,8)", "Sw<3,3,3> o 0 o 64:1",
                                  "Sw<1,2,3> o 0 o (6,4):(1,8)", SWIZZLED, "(4,8):(-1,4)"])
def test_the_verdict_is_the_algebras(text):
    layout = L.parse_layout(text)
    cute = json.loads(run("layout", text, "--vector", "--json").stdout)["vector"]["cute"]
    identity = L.Layout(layout.size, 1)
    compared = (L.cute_swizzle_vector(layout, identity) if isinstance(layout, L.ComposedLayout)
                else L.cute_max_common_vector(layout, identity))
    assert (cute["length"], cute["verdict"], cute["exact"]) == (compared.cute, compared.verdict,
                                                               compared.exact.length)


def test_cutes_rule_is_set_beside_a_layout_past_the_algebras_enumeration():
    result = run("layout", "(1024,2048):(1,1024)", "--vector", "--json")
    assert result.returncode == 0, result.stderr
    cute = json.loads(result.stdout)["vector"]["cute"]
    assert (cute["length"], cute["exact"], cute["verdict"]) == (1 << 21, 1 << 21, "equal")
