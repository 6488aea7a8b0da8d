"""The command line and the README: run as a user runs them."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import viewalgebra as va

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "conv2d_fwd_nchw.mlir"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (what ``python -m viewalgebra`` runs), its output captured."""
    from viewalgebra._cli import main  # noqa: TID251 -- the command line's entry point

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:  # argparse: --help, bad arguments
            code = e.code if isinstance(e.code, int) else 2
    return subprocess.CompletedProcess(["viewalgebra", *args], code, out.getvalue(), err.getvalue())


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "viewalgebra", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_show_the_bundled_example():
    result = run_process("check", str(EXAMPLE))  # the README's first command, as a process
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("lint: clean") == 5
    assert "    y = (gemmK mod 9) floordiv 3" in result.stdout  # MLIR's notation, as in the maps
    assert "      gemmK = ci * 9 + x + y * 3" in result.stdout  # the inverse of the gemm Merges
    assert ("  address = gemmG * 802816 + gemmK + gemmN + (gemmK floordiv 9) * 2968 + (gemmK floordiv 3) * 53 + "
            "(gemmN floordiv 3136) * 799680 - 57 (where the point is valid: off the padding, inside every "
            "bound)\n") in result.stdout
    assert "view %3 (line 36): memref<64x256x56x56xf32> through 4 map(s)" in result.stdout
    assert "vector length along dim 2 (size 200704): exact 1, rocMLIR 1: equal" in result.stdout
    assert "next candidate 2 is illegal: mixed validity" in result.stdout
    assert "<Slice{1, 57, 1, 57} [\"hi\", \"wi\"] at [3, 4] -> [\"hipad\", \"wipad\"] at [3, 4]>" in result.stdout
    assert "  rocMLIR: fails (Pad is unsupported)" in result.stdout
    assert "  inverse: none, not injective:" in result.stdout
    assert "share an image\n  rocMLIR: fails (Embed is unsupported)" in result.stdout


def test_show_json():
    result = run("check", "--json", str(EXAMPLE))
    report = json.loads(result.stdout)
    assert [m["name"] for m in report["maps"]] == [
        "conv_input_g", "conv_input_pad", "conv_input_embed", "conv_input_gemm"]
    assert report["views"][0]["shape"] == [1, 2304, 200704]
    assert [v["exact"] for v in report["views"][0]["vectors"]] == [1, 1, 1]
    assert set(report["views"][0]["vectors"][1]) == {"dim", "size", "exact", "legal", "rocmlir",
                                                      "verdict", "witness"}
    assert set(report["maps"][0]) - {"moves"} == {"name", "form", "line", "column", "text", "upper_bounds",
                                      "lower_bounds", "formulas", "findings", "inverse"}
    assert report["maps"][1]["inverse"]["kind"] == "bijective"
    assert report["maps"][1]["inverse"]["certified"] is True
    assert report["maps"][2]["inverse"]["kind"] == "not-injective"


def test_findings_exit_1():
    result = run("check", str(ROOT / "tests/data/rocmlir/test_vectorization_inference.mlir"))
    assert result.returncode == 1
    assert "lint: affine-map-mismatch" in result.stdout


@pytest.mark.parametrize(("content", "message"), [
    ("#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> ",
     ":1:84: expected '[' opening the lower names, found end of input"),
    ("#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<Passthrough [\"a\"] at [0] -> "
     "[\"a\"] at [0]>] bounds = [4] -> [4]>", ":1:56: expected a name of a known transform"),
])
def test_bad_input_exits_2_with_one_located_line(tmp_path, content, message):
    path = tmp_path / "bad.mlir"
    path.write_text(content)
    result = run("check", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file_exits_2():
    result = run("check", "no/such/file.mlir")
    assert result.returncode == 2 and "no/such/file.mlir: no such file" in result.stderr


PAD_4_6 = '<affine_map<(d0) -> (d0 - 4)> by [<Pad{4, 6} ["x"] at [0] -> ["y"] at [0]>] bounds = [24] -> [14]>'


def test_show_prints_formulas_only():
    result = run("show", str(EXAMPLE))
    assert result.returncode == 0
    assert "    ho = (gemmN mod 3136) floordiv 56" in result.stdout
    assert "  address = gemmG * 802816" in result.stdout
    assert "floor(" not in result.stdout and "Mod(" not in result.stdout  # one notation: MLIR's
    assert "lint:" not in result.stdout and "inverse" not in result.stdout


def test_invert_a_map_given_as_text():
    result = run("invert", '<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>] '
                           'bounds = [7] -> [4]>')
    assert result.returncode == 0
    assert '<Slice{2, 6} ["y"] at [0] -> ["x"] at [0]>' in result.stdout
    assert "      x = y + 2" in result.stdout and "rocMLIR: fails (Pad is unsupported)" in result.stdout


def test_vectorize_flags_an_unsound_rocmlir_answer():
    result = run("vectorize", "--dim", "0", "--length", "12", PAD_4_6)
    assert result.returncode == 1  # a finding: rocMLIR's answer is unsound
    assert "exact 2, rocMLIR 4: rocMLIR unsound" in result.stdout
    report = json.loads(run("vectorize", "--json", "--dim", "0", "--length", "12", "--bits", "128",
                            "--dtype", "f16", PAD_4_6).stdout)
    (vector,) = report["views"][0]["vectors"]
    assert vector["exact"] == 2 and vector["with_options"]["cap"] == 8


def test_vectorize_bad_dim_exits_2():
    result = run("vectorize", "--dim", "3", PAD_4_6)
    assert result.returncode == 2 and "dim 3 out of range" in result.stderr


@pytest.mark.parametrize(("option", "message"), [
    (["--dim", "-1"], "--dim -1: a dim is numbered from 0"),
    (["--dim", "0", "--length", "0"], "--length 0: a run length is at least 1"),
])
def test_vectorize_an_option_no_view_can_answer_is_one_line(option, message):
    result = run("vectorize", str(ROOT / "tests/data/rocmlir/test_vectorization_inference.mlir"), *option)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"viewalgebra: {message}\n"


@pytest.mark.parametrize("command", ["check", "show", "invert", "vectorize", "draw"])
def test_an_invalid_dtype_is_refused_for_files_too(tmp_path, command):
    extra = {"vectorize": ["--dim", "0"], "draw": ["-o", str(tmp_path / "x.svg")]}.get(command, [])
    result = run(command, str(EXAMPLE), "--dtype", "f33", *extra)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("viewalgebra: --dtype f33: unknown element type 'f33' (expected an MLIR type "
                             "such as f32, f16, bf16, i8, i32)\n")


def test_draw_takes_a_view_by_line_and_asks_for_it_when_two_views_share_a_name(tmp_path):
    function = ('func.func @{}(%a: memref<4x8xf32>) {{\n  %0 = rock.transform %a by <affine_map<(d0, d1) -> '
                '(d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] bounds = [{}] -> '
                '[4, 8]> : memref<4x8xf32> to memref<{}xf32>\n  return\n}}\n')
    path = tmp_path / "two.mlir"
    path.write_text(function.format("f", "8, 4", "8x4") + function.format("g", "8, 4", "8x4"))
    out = tmp_path / "x.svg"
    both = run("draw", str(path), "--view", "%0", "-o", str(out))
    assert both.returncode == 2 and not out.exists()
    assert both.stderr == (f"viewalgebra: {path}: view %0 is on line 2 and again on line 6: give the line "
                           "of the one to draw, e.g. --view 2\n")
    for line in ("2", "6"):
        by_line = run("draw", str(path), "--view", line, "-o", str(out), "--json")
        assert by_line.returncode == 0 and json.loads(by_line.stdout)["view"] == "%0"
    only = tmp_path / "one.mlir"
    only.write_text(function.format("f", "8, 4", "8x4"))
    assert run("draw", str(only), "--view", "%0", "-o", str(out)).returncode == 0
    missing = run("draw", str(path), "--view", "3", "-o", str(out))
    assert missing.returncode == 2 and "no view 3 (there are %0; or give the view's line)" in missing.stderr


def test_check_counts_lint_findings_in_its_header_and_summary_and_names_the_first():
    path = ROOT / "tests/data/gridwise/conv_to_gemm.mlir"  # rocMLIR's own test: exit 1 for a lint finding
    result = run("check", str(path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"{path}: rocMLIR's rules give the exact answers here, and 2 lint finding(s) "
                         "(details below, summary at the end)",
                         "  the first lint finding: view %3 (line 60): chain: map 0: lower bounds [802816] != the "
                         "buffer shape [3211264]"]
    # the same op's result type contradicts the map's upper bounds too
    assert ("  lint: chain: map 0: upper bounds [1, 3136, 256] != the shape [1, 12544, 256] of the result type "
            "memref<1x12544x256xf32> (rock.transform at 60:3)") in lines
    assert lines[-1].startswith("summary: 21 view(s)") and lines[-1].endswith("; 2 lint finding(s)")
    assert json.loads(run("check", "--json", str(path)).stdout)["summary"]["lint_findings"] == 2
    clean = run("check", str(EXAMPLE)).stdout.splitlines()
    assert "lint finding" not in clean[0] + clean[1] and clean[-1].endswith("; 0 lint finding(s)")


def test_check_lints_a_result_type_that_contradicts_its_maps_upper_bounds(tmp_path):
    unmerge = ('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{{4, 8}} ["a", "b"] at [0, 1] -> ["r"] at [0]>] '
               'bounds = [4, 8] -> [32]> : memref<32xf32> to memref<{}xf32>')
    transpose = ('<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
                 'bounds = [8, 4] -> [4, 8]> : memref<{}xf32> to memref<8x4xf32>')
    path = tmp_path / "typed.mlir"
    for written, found in (("4x8", 0), ("2x16", 1)):
        path.write_text(f"func.func @f(%a: memref<32xf32>) {{\n  %0 = rock.transform %a by {unmerge.format(written)}"
                        f"\n    %1 = rock.transform %0 by {transpose.format(written)}\n  return\n}}\n")
        result = run("check", str(path))
        assert result.returncode == (1 if found else 0)
        report = json.loads(run("check", "--json", str(path)).stdout)
        assert report["summary"]["lint_findings"] == found
        assert [f for v in report["views"] for f in v["findings"]] == [] if not found else [{
            "code": "chain", "message": "upper bounds [4, 8] != the shape [2, 16] of the result type "
            "memref<2x16xf32> (rock.transform at 2:3)", "map_index": 1, "point": None}]
    assert result.stdout.startswith(f"{path}: rocMLIR's rules give the exact answers here, and 1 lint finding(s)")
    (view,) = va.text.parse_mlir_views(path.read_text())
    assert [str(f) for f in view.findings] == [f"chain: map 1: {report['views'][0]['findings'][0]['message']}"]


def test_a_transpose_shows_which_upper_dim_lands_where():
    transpose = ('#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> '
                 '["a", "b"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>')
    for command in ("show", "check"):
        lines = run(command, transpose).stdout.splitlines()
        at = lines.index("    b = b")  # the formulas keep the names (and parse back); the next line says where
        assert lines[at:at + 3] == ["    b = b", "    a = a",
                                    "    dims moved: a (upper dim 0) -> lower dim 1, b (upper dim 1) -> lower dim 0"]
        entry = json.loads(run(command, "--json", transpose).stdout)["maps"][0]
        assert entry["moves"] == ["a (upper dim 0) -> lower dim 1", "b (upper dim 1) -> lower dim 0"]
    identity = transpose.replace("at [1, 0]", "at [0, 1]").replace("(d1, d0)", "(d0, d1)").replace("[4, 8]", "[8, 4]")
    assert "moves" not in json.loads(run("show", "--json", identity).stdout)["maps"][0]


def test_a_directory_shows_progress_and_reports_bad_files(tmp_path):
    (tmp_path / "a.mlir").write_text(EXAMPLE.read_text())
    (tmp_path / "b.mlir").write_text("#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<Foo")
    result = run("check", str(tmp_path))
    assert result.returncode == 2
    assert f"[1/2] {tmp_path / 'a.mlir'}" in result.stderr and f"[2/2] {tmp_path / 'b.mlir'}" in result.stderr
    assert "b.mlir:1:56: expected a name of a known transform" in result.stderr
    assert "view %3 (line 36)" in result.stdout  # the good file is still reported


def test_check_r_walks_a_tree_and_check_says_it_does_not_recurse_without_it(tmp_path):
    (tmp_path / "x" / "y").mkdir(parents=True)
    (tmp_path / "x" / "a.mlir").write_text(EXAMPLE.read_text())
    (tmp_path / "x" / "y" / "b.mlir").write_text(EXAMPLE.read_text())
    flat = run("check", str(tmp_path))
    assert flat.returncode == 2 and flat.stdout == ""
    assert flat.stderr == (f"viewalgebra: {tmp_path}: a directory with no .mlir file in it (check does "
                           "not recurse into subdirectories without -r)\n")
    tree = run("check", "-r", str(tmp_path))
    assert tree.returncode == run("check", str(EXAMPLE)).returncode
    assert f"[1/2] {tmp_path / 'x/a.mlir'}" in tree.stderr and f"[2/2] {tmp_path / 'x/y/b.mlir'}" in tree.stderr
    assert tree.stdout.count("view %3 (line 36)") == 2 and "\ntotal: " in tree.stdout
    other = run("show", str(tmp_path))
    assert other.returncode == 2
    assert other.stderr == f"viewalgebra: {tmp_path}: is a directory: only the check and emit-lit commands read directories, not show\n"


def test_not_a_file_nor_a_map_exits_2():
    result = run("check", "nothing-here")
    assert result.returncode == 2
    assert result.stderr == "viewalgebra: nothing-here: no such file, and not a transform map in rocMLIR syntax\n"


def test_every_command_has_help():
    for command in ("check", "show", "invert", "vectorize"):
        result = run(command, "--help")
        assert result.returncode == 0 and "--json" in result.stdout


def test_the_api_reference_lists_every_tier():
    import re
    import types

    import viewalgebra as va

    listed: dict[str, set[str]] = {}
    for section in (ROOT / "docs" / "api.md").read_text().split("\n## ")[1:]:
        tier = re.match(r"`(va[.\w]*)`", section)
        if tier:
            listed[tier.group(1)] = set(re.findall(r"^\| `(\w+)", section, re.M))
    tiers = {"va": set(va.__all__)} | {f"va.{name}": set(getattr(va, name).__all__) for name in va.__all__
                                       if isinstance(getattr(va, name), types.ModuleType)}
    assert listed == tiers


def test_draw_writes_an_svg(tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "pad.svg"
    result = run("draw", '<affine_map<(d0, d1) -> (d0 - 1, d1 - 2)> by [<Pad{1, 1, 2, 2} ["h", "w"] at [0, 1] -> '
                         '["h", "w"] at [0, 1]>] bounds = [6, 8] -> [4, 4]>', "-o", str(out))
    assert result.returncode == 0 and result.stdout == f"wrote {out}\n"
    assert ET.fromstring(out.read_text().split("?>", 1)[1]).tag.endswith("svg")
    cut = run("draw", str(EXAMPLE), "--rows", "1", "--cols", "2", "-o", str(tmp_path / "big.svg"))
    assert cut.returncode == 0 and "as --rows 1:0:32 --cols 2:0:64 would" in cut.stderr
    refused = run("draw", str(EXAMPLE), "--rows", "1:0:65", "-o", str(tmp_path / "big.svg"))
    assert refused.returncode == 2 and "--rows 1:0:65 has 65 cells down the rows" in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stderr.count("\n") == 1
    bad = run("draw", str(EXAMPLE), "--fixed", "x", "-o", str(tmp_path / "bad.svg"))
    assert bad.returncode == 2 and "--fixed x: expected DIM=COORD" in bad.stderr
    for args in ([str(EXAMPLE)], [str(EXAMPLE), "--rows", "1:100:116", "--fixed", "2=5"]):
        document = json.loads(run("draw", *args, "-o", str(tmp_path / "j.svg"), "--json").stdout)
        conforms(document, documented_shapes()["draw"])


def test_regularize_a_file(tmp_path):
    source = ROOT / "tests/data/rocmlir/regularize.mlir"
    out = tmp_path / "out.mlir"
    result = run("regularize", str(source), "--style", "rocmlir", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {out}\n"
    assert "@bert_part_11__part_0: output path on %2 at generic" in result.stderr
    text = out.read_text()
    assert "memref.collapse_shape" not in text and "memref.alloc() {alignment = 128 : i64} : memref<1x12x12x12xf32>" in text
    again = run("regularize", str(out), "--style", "rocmlir", "--json")  # already regular: no rewrite
    report = json.loads(again.stdout)
    assert again.returncode == 0 and report["functions"][0]["rewrites"] == []
    assert set(report) == {"file", "output", "functions", "mlir"}
    assert set(report["functions"][0]) == {"function", "style", "rewrites", "views_left"}


def test_regularize_reports_views_left_with_exit_1():
    result = run("regularize", str(ROOT / "tests/data/rocmlir/bug-1550-reduction-fusion-compile-failure.mlir"),
                 "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [v.split(" at ")[1] for v in report["functions"][0]["views_left"]] == ["reduce", "reduce_0"]
    assert "func.func @mlir_convolution" in report["mlir"]


@pytest.mark.parametrize(("cut", "message"), [
    (300, "4:154: '<' is never closed"),
    (2000, "10:29: '<' is never closed"),
    (3700, "18:18: '{' is never closed"),
])
def test_regularize_a_truncated_file(tmp_path, cut, message):
    bad = tmp_path / "bad.mlir"
    bad.write_text((ROOT / "tests/data/rocmlir/regularize.mlir").read_text()[:cut])
    result = run("regularize", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"viewalgebra: {bad}:{message}\n"


def test_regularize_refuses_what_rocmlir_refuses():
    result = run("regularize", str(ROOT / "tests/data/rocmlir/unknown-path__regularize_invalid_generic_reduction.mlir"),
                 "--style", "rocmlir")
    assert result.returncode == 2 and "Only fully parallel supported" in result.stderr
    assert result.stderr.startswith(f"viewalgebra: {ROOT}/tests/data") and len(result.stderr.strip().splitlines()) == 1


def test_regularize_writes_unreadable_functions_back_unchanged(tmp_path):
    source = ROOT / "tests/data/rocmlir/unknown-path__regularize_input_fusion_rock_gemm_tr.mlir"
    out = tmp_path / "out.mlir"
    result = run("regularize", str(source), "--style", "rocmlir", "-o", str(out), "--json")
    assert result.returncode == 1  # @rock_gemm cannot be read (its types disagree with its map)
    report = {f["function"]: f for f in json.loads(result.stdout)["functions"]}
    assert report["rock_gemm"]["unreadable"].startswith("30:77: the result type's shape [1, 16, 32]")
    assert report["rock_gemm_tr"]["views_left"] == [] and len(report["rock_gemm_tr"]["rewrites"]) == 2
    original = source.read_text()
    start = original.index("func.func @rock_gemm(")
    assert original[start:original.index("  // CHECK-LABEL: @rock_gemm_tr")].strip() in out.read_text()


def test_check_follows_a_kernels_accesses_through_its_fused_ops():
    result = run("check", str(ROOT / "examples/bert_part_11.mlir"))
    assert result.returncode == 0, result.stderr
    assert ("kernel @bert_part_11__part_0: rock.gridwise_gemm_accel store of [12, 16, 16] reaches %arg4: "
            "exact vector lengths [1, 1, 4]") in result.stdout
    kernels = json.loads(run("check", "--json", str(ROOT / "examples/bert_part_11.mlir")).stdout)["kernels"]
    assert [(k["access"], k["argument"], k["lengths"]) for k in kernels] == [
        ("load", "arg0", [1, 32, 1]), ("load", "arg1", [1, 1, 4]), ("store", "arg4", [1, 1, 4])]
    assert set(kernels[0]) == {"function", "op", "access", "shape", "argument", "lengths"}
    reductions = json.loads(run("check", "--json", str(
        ROOT / "tests/data/rocmlir/bug-1550-reduction-fusion-compile-failure.mlir")).stdout)["kernels"]
    assert "rock.reduce) is not elementwise" in reductions[-1]["error"]["reason"]


@pytest.mark.parametrize(("content", "message"), [
    (b"hello world\n", "holds no transform map or view and no function"),
    (b"abc\n\0def", ":2: not text (a NUL byte)"),
    (b"#m = \xff\xfe\n", ":1: not UTF-8 text"),
])
def test_files_that_hold_no_mlir_exit_2_with_one_line(tmp_path, content, message):
    path = tmp_path / "bad.mlir"
    path.write_bytes(content)
    for command in ("check", "show", "invert"):
        result = run(command, str(path))
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and message.replace(" and no function", "") in result.stderr


@pytest.mark.parametrize("content", [
    "", "// only a comment\n", "module {\n}\n", "func.func @g(%a: memref<4xf32>) {\n  return\n}\n"])
def test_check_of_mlir_with_nothing_to_check_says_0_views_and_exits_0(tmp_path, content):
    path = tmp_path / "empty.mlir"
    path.write_text(content)
    result = run("check", str(path))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith(f"{path}: 0 views and 0 maps, nothing to check\nsummary: 0 view(s)")
    assert json.loads(run("check", "--json", str(path)).stdout)["summary"]["views"] == 0
    (tmp_path / "view.mlir").write_text((ROOT / "examples/rocmlir_differences.mlir").read_text())
    directory = run("check", str(tmp_path))  # a directory is not failed by it
    assert directory.returncode == 1 and "viewalgebra:" not in directory.stderr


DYNAMIC_ONLY = ('func.func @f(%a: memref<?x4xf32>) {\n  %0 = rock.transform %a by <affine_map<(d0, d1) -> (d1, d0)> '
                'by [<PassThrough ["a", "b"] at [0, 1] -> ["b", "a"] at [1, 0]>] bounds = [4, 4] -> [4, 4]> : '
                'memref<?x4xf32> to memref<4x4xf32>\n  return\n}\n')


@pytest.mark.parametrize("command", ["show", "invert", "vectorize", "draw", "emit-lit"])
@pytest.mark.parametrize("content", ["// only a comment\n", "func.func @g(%a: memref<4xf32>) {\n  return\n}\n"])
def test_every_command_says_nothing_to_do_and_exits_0_on_mlir_with_no_view(tmp_path, command, content):
    path = tmp_path / "empty.mlir"
    path.write_text(content)
    out = tmp_path / "x.svg"
    extra = {"vectorize": ["--dim", "0"], "draw": ["-o", str(out)]}.get(command, [])
    result = run(command, str(path), *extra)
    assert result.returncode == 0 and not out.exists()
    verb = "write a test of" if command == "emit-lit" else command
    said = f"{path}: 0 views and 0 maps, nothing to {verb}\n" if command != "emit-lit" else ""
    assert (result.stdout, result.stderr) == (said, f"viewalgebra: {path}: 0 views, nothing to {verb}\n"
                                              if command == "emit-lit" else "")
    document = run(command, str(path), "--json", *extra)
    assert document.returncode == 0 and document.stdout.count("\n{") == 0
    conforms(json.loads(document.stdout), documented_shapes()[command.replace("-", "_")])
    if command in ("vectorize", "draw"):  # a view not analysed is said, and nothing is left to do
        path.write_text(DYNAMIC_ONLY)
        dynamic = run(command, str(path), *extra)
        assert dynamic.returncode == 0 and not out.exists()
        assert dynamic.stdout == f"{path}: 1 view(s) not analysed and no other view, nothing to {command}\n"
        assert dynamic.stderr == f"viewalgebra: {path}:2:3: view %0: not analysed: dynamic size (memref<?x4xf32>)\n"
    if command == "emit-lit":  # a directory of such files too
        assert run(command, str(tmp_path)).returncode == 0


def test_draw_of_a_map_that_is_not_rocmlir_syntax_says_why_as_show_does(tmp_path):
    said = [run(command, "<garbage", *extra).stderr for command, extra in (
        ("show", []), ("draw", ["-o", str(tmp_path / "x.svg")]))]
    assert said == ["viewalgebra: <map>:1:2: expected 'affine_map' or an affine map alias such as '#map', "
                    "found 'garbage'\n"] * 2


@pytest.mark.parametrize("command", ["show", "invert", "vectorize", "draw"])
def test_a_view_asked_for_that_is_not_analysed_says_so(tmp_path, command):
    path = tmp_path / "dynamic.mlir"
    path.write_text(DYNAMIC_ONLY)
    extra = {"vectorize": ["--dim", "0"], "draw": ["-o", str(tmp_path / "x.svg")]}.get(command, [])
    said = f"viewalgebra: {path}:2:3: view %0: not analysed: dynamic size (memref<?x4xf32>)\n"
    for view in ("%0", "2"):
        result = run(command, str(path), "--view", view, *extra)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr == said


@pytest.mark.parametrize("generic", [[], ["--generic"]])
@pytest.mark.parametrize("content", ["// only a comment\n", "module {\n}\n"])
def test_regularize_with_nothing_to_do_writes_the_input_back_and_exits_0(tmp_path, content, generic):
    path = tmp_path / "empty.mlir"
    path.write_text(content)
    result = run("regularize", str(path), *generic)
    assert result.returncode == 0
    assert result.stderr == f"viewalgebra: {path}: holds no function to regularize (written back)\n"
    assert result.stdout == ("" if content.startswith("//") else
                             '"builtin.module"() ({\n}) : () -> ()\n' if generic else content)
    alone = run("regularize", str(ROOT / "tests/data/gridwise/gridwise_gemm_accel_lowering.mlir"), *generic)
    assert alone.returncode == 0 and all("left alone" in line for line in alone.stderr.splitlines())


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.mlir"
    os.mkfifo(fifo)
    for args in (("check", str(fifo)), ("regularize", str(fifo))):
        result = run(*args)
        assert result.returncode == 2 and "not a regular file" in result.stderr


@pytest.mark.parametrize("output", ["/no/such/dir/out.mlir", "/dev/full"])
def test_an_unwritable_output_is_one_line_and_exit_2(output):
    result = run("regularize", str(ROOT / "examples/bert_part_11.mlir"), "-o", output)
    assert result.returncode == 2 and result.stderr.splitlines()[-1].startswith(f"viewalgebra: {output}: cannot write")


@pytest.mark.parametrize("bits", ["0", "-8", "7", "48"])
def test_bits_must_be_a_positive_multiple_of_the_element_width(bits):
    result = run("vectorize", "--dim", "0", "--bits", bits, PAD_4_6)
    assert result.returncode == 2 and f"--bits {bits}: must be a positive multiple" in result.stderr


def test_vectorize_errs_per_view_and_picks_a_view_by_name_or_line():
    path = str(ROOT / "tests/data/rocmlir/test_vectorization_inference.mlir")
    everything = run("vectorize", "--json", "--dim", "1", path)
    views = json.loads(everything.stdout)["views"]
    assert everything.returncode == 2
    bad = [v for v in views if "error" in v]
    assert bad and all(v["error"]["reason"] == f"view {v['name']}: dim 1 out of range for a view of rank "
                       f"{len(v['shape'])}" and v["error"]["line"] == v["line"] and v["error"]["file"] == path
                       and v["error"]["type"] == "CoordinateError" for v in bad)
    first = bad[0]["error"]
    assert f"viewalgebra: {first['message']}\n" in everything.stderr
    assert first["message"] == f"{path}:{first['line']}: {first['reason']}"
    assert any(v["vectors"] for v in views)  # the other views are answered
    one = run("vectorize", "--json", "--dim", "0", "--view", "49", path)
    assert one.returncode in (0, 1) and [v["line"] for v in json.loads(one.stdout)["views"]] == [49]
    named = run("vectorize", "--dim", "0", "--view", "%3", path)
    assert named.returncode in (0, 1) and all(line.startswith("view %3") for line in named.stdout.splitlines()
                                              if line.startswith("view "))
    missing = run("vectorize", "--dim", "0", "--view", "%nope", path)
    assert missing.returncode == 2 and "no view %nope (names: %0, %1" in missing.stderr


EMBED_1_1 = ('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
             'bounds = [10, 10] -> [12]>')


def test_check_reports_the_utilities_beside_rocmlirs_with_a_summary():
    result = run("check", EMBED_1_1)
    assert result.returncode == 1  # rocMLIR reads out of range
    assert ("  validity checks: rocMLIR unsound: 12 at [3, 9] leaves [0, 12) of map 0, lower dim 0, "
            "unchecked") in result.stdout
    assert "  index width: exact 32-bit, rocMLIR 32-bit: equal" in result.stdout
    assert "  simplify: already as short as it gets; rocMLIR's collapse of contiguous merges: equal" in result.stdout
    summary = result.stdout.splitlines()[-1]
    assert summary.startswith("summary: 1 view(s), 2 dim(s); vector lengths: 0 equal, 0 rocMLIR conservative, "
                              "2 rocMLIR unsound; validity checks: 0 equal, 0 rocMLIR conservative, 1 rocMLIR "
                              "unsound;")
    report = json.loads(run("check", EMBED_1_1, "--json").stdout)
    (view,) = report["views"]
    assert view["validity"]["unchecked"] == [{"map": 0, "dim": 0, "bound": 12, "point": [3, 9], "value": 12}]
    assert report["summary"]["validity"] == {"equal": 0, "rocMLIR conservative": 0, "rocMLIR unsound": 1}


def test_check_shows_the_shorter_chain_and_rocmlirs_collapse():
    path = ROOT / "tests" / "data" / "rocmlir" / "test_collapse_contiguous_merges.mlir"
    result = run("check", str(path))
    lines = result.stdout.splitlines()
    basic = lines.index(next(line for line in lines if line.startswith("view %0 (line 39)")))
    simplify = next(line for line in lines[basic:] if line.startswith("  simplify:"))
    assert simplify == ("  simplify: 1 map(s) -> 0 over memref<24x5xf32>, certified by ISL (map 0 absorbed by the "
                        "buffer: memref<24x5xf32>); rocMLIR's collapse of contiguous merges: rocMLIR conservative")
    report = json.loads(run("check", str(path), "--json").stdout)
    assert report["summary"]["collapse"]["rocMLIR conservative"] == 3
    assert report["summary"]["simplified"] == sum(1 for v in report["views"] if v["simplified"]["log"])


def test_check_of_a_directory_ends_with_the_total(tmp_path):
    for name in ("a.mlir", "b.mlir"):
        (tmp_path / name).write_text(EXAMPLE.read_text())
    result = run("check", str(tmp_path))
    one = run("check", str(EXAMPLE)).stdout.splitlines()[-1]
    total = result.stdout.splitlines()[-1]
    assert total.startswith("total: 2 view(s), 6 dim(s); vector lengths: 6 equal,")
    assert one.startswith("summary: 1 view(s), 3 dim(s)")


ERROR_KEYS = {"message", "file", "line", "column", "reason", "type"}
TYPO = ("// a map with a typo\n#m = #rock.transform_map<affine_map<(d0) -> (d0)> by "
        '[<PassThrough ["a"] at [0] -> ["a"] at [0]>] bounds = [4] => [4]>\n')


@pytest.mark.parametrize("command", ["check", "show", "invert", "vectorize", "draw", "regularize"])
def test_with_json_a_missing_file_is_one_error_document(command, tmp_path):
    extra = {"vectorize": ["--dim", "0"], "draw": ["-o", str(tmp_path / "x.svg")]}.get(command, [])
    missing = str(tmp_path / "missing.mlir")
    result = run(command, missing, "--json", *extra)
    assert result.returncode == 2
    document = json.loads(result.stdout)
    assert list(document) == ["error"] and set(document["error"]) == ERROR_KEYS
    error = document["error"]
    assert error["file"] == missing and error["line"] is None
    assert result.stderr == f"viewalgebra: {error['message']}\n"
    assert error["message"].startswith(missing + ": ")


@pytest.mark.parametrize("command", ["check", "show", "invert", "vectorize"])
def test_with_json_a_syntax_error_is_located(command, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(TYPO)
    extra = ["--dim", "0"] if command == "vectorize" else []
    result = run(command, str(bad), "--json", *extra)
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert (error["file"], error["line"], error["type"]) == (str(bad), 2, "TransformParseError")
    assert error["column"] is not None and error["reason"] in error["message"]
    assert error["message"] == f"{bad}:{error['line']}:{error['column']}: {error['reason']}"
    assert result.stderr == f"viewalgebra: {error['message']}\n"


def test_with_json_a_directory_is_one_document_with_its_total(tmp_path):
    (tmp_path / "a.mlir").write_text(EXAMPLE.read_text())
    (tmp_path / "b.mlir").write_text(TYPO)
    result = run("check", str(tmp_path), "--json")
    assert result.returncode == 2  # one file cannot be read
    document = json.loads(result.stdout)
    assert set(document) == {"files", "errors", "summary"}
    assert [r["file"] for r in document["files"]] == [str(tmp_path / "a.mlir")]
    (error,) = document["errors"]
    assert error["file"] == str(tmp_path / "b.mlir") and error["line"] is not None
    assert document["summary"]["views"] == 1


def test_with_json_a_vector_witness_is_data():
    report = json.loads(run("vectorize", "--json", "--dim", "0", EMBED_1_1).stdout)
    (vector,) = report["views"][0]["vectors"]
    witness = vector["witness"]
    assert witness["length"] == 2 and witness["reason"] == "mixed validity"
    assert witness["point"] == [2, 9] and witness["next_point"] == [3, 9] and witness["addresses"] == [11, None]
    assert witness["text"].startswith("2 is illegal: mixed validity from [2, 9] to [3, 9]")


def test_version():
    result = run("--version")
    assert result.returncode == 0 and re.fullmatch(r"viewalgebra \d+\.\d+\.\d+\n", result.stdout)


def test_invert_a_views_chain():
    path = str(ROOT / "tests" / "data" / "rocmlir" / "test_collapse_contiguous_merges.mlir")
    result = run("invert", path, "--view", "39", "--json")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["maps"] == []
    (view,) = report["views"]
    assert view["line"] == 39 and view["inverse"]["kind"] == "bijective" and view["inverse"]["certified"]
    assert view["inverse"]["rocmlir"] == view["inverse"]["maps"]
    conv = run("invert", str(EXAMPLE), "--view", "%3")
    assert "  inverse: none, not injective:" in conv.stdout
    assert "  rocMLIR: fails (Pad is unsupported (map 2 of 4" in conv.stdout
    missing = run("invert", str(EXAMPLE), "--view", "%9")
    assert missing.returncode == 2 and "no view %9 (names: %3" in missing.stderr


def test_the_readmes_first_command_shows_the_differences_first():
    readme = (ROOT / "README.md").read_text()
    setup = re.search(r"```sh\n(.*?)\n", readme).group(1)  # type: ignore[union-attr]
    args = setup.split(".venv/bin/viewalgebra ", 1)[1].split()
    result = run_process(*args)
    assert result.returncode == 1, result.stderr  # some rocMLIR answers are unsound
    shown = re.search(r"```text\n(.*?)```", readme, re.S).group(1).splitlines()  # type: ignore[union-attr]
    lines = result.stdout.splitlines()
    cut = shown.index("  ...")
    assert lines[:cut] == shown[:cut]  # the first screen, word for word
    assert all(line in lines[:20] for line in shown[cut + 1:])
    assert lines[-1].startswith("summary: 4 view(s), 8 dim(s); vector lengths: 4 equal, 1 rocMLIR conservative, "
                                "3 rocMLIR unsound;")


def conforms(value: object, shape: object, where: str = "$") -> None:
    """``value`` has the ``shape`` documented in docs/cli.md (see its notation)."""
    if isinstance(shape, str):
        types: dict[str, type | tuple[type, ...]] = {"int": int, "str": str, "bool": bool, "float": (int, float)}
        nullable = shape.endswith("?")
        if value is None:
            assert nullable, f"{where}: null, documented {shape}"
            return
        expected = types[shape.rstrip("?")]
        assert isinstance(value, expected) and (expected is bool) == isinstance(value, bool), \
            f"{where}: {value!r} is not {shape}"
    elif isinstance(shape, list):
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            conforms(item, shape[0] if shape else None, f"{where}[{i}]")
    elif isinstance(shape, dict):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        keys = {k.lstrip("+").rstrip("?"): k for k in shape}
        assert set(value) <= set(keys), f"{where}: undocumented keys {set(value) - set(keys)}"
        for name, key in keys.items():
            if name not in value:
                assert key.startswith("+"), f"{where}: missing {name}"
            elif value[name] is None and key.endswith("?"):
                continue
            else:
                conforms(value[name], shape[key], f"{where}.{name}")
    else:
        raise AssertionError(f"{where}: {value!r} where the documentation has nothing")


def documented_shapes() -> dict[str, object]:
    text = (ROOT / "docs" / "cli.md").read_text()
    return {name: json.loads(body) for name, body in re.findall(r"```json (\w+)\n(.*?)```", text, re.S)}


@pytest.mark.parametrize(("command", "args"), [
    ("check", [str(EXAMPLE)]), ("check", [str(ROOT / "examples" / "rocmlir_differences.mlir")]),
    ("check", [str(ROOT / "tests" / "data" / "rocmlir" / "bug-1550-reduction-fusion-compile-failure.mlir")]),
    ("check", [str(ROOT / "tests" / "data" / "rocmlir" / "invalid.transform-verifier-excerpt.mlir")]),
    ("check", [EMBED_1_1]),
    ("show", [str(ROOT / "tests" / "data" / "rocmlir" / "test_vectorization_inference.mlir")]),
    ("invert", [str(EXAMPLE)]), ("invert", [str(EXAMPLE), "--view", "%3"]),
    ("vectorize", [str(ROOT / "tests" / "data" / "rocmlir" / "test_vectorization_inference.mlir"), "--dim", "1"]),
    ("vectorize", [str(ROOT / "examples" / "rocmlir_differences.mlir"), "--dim", "0", "--bits", "64"]),
    ("regularize", [str(ROOT / "examples" / "bert_part_11.mlir")]),
], ids=lambda x: x if isinstance(x, str) else " ".join(Path(a).name for a in x))
def test_json_output_has_the_documented_shape(command, args):
    shapes = documented_shapes()
    document = json.loads(run(command, *args, "--json").stdout)
    conforms(document, shapes[command])


def test_json_errors_and_directories_have_the_documented_shape(tmp_path):
    error = re.search(r"```json\n(\{\"message\".*?)```", (ROOT / "docs" / "cli.md").read_text(), re.S)
    assert error is not None
    shape = json.loads(error.group(1))
    conforms(json.loads(run("check", str(tmp_path / "missing.mlir"), "--json").stdout), {"error": shape})
    (tmp_path / "a.mlir").write_text(EXAMPLE.read_text())
    (tmp_path / "b.mlir").write_text(TYPO)
    document = json.loads(run("check", str(tmp_path), "--json").stdout)
    check = documented_shapes()["check"]
    assert isinstance(check, dict)
    conforms(document, {"files": [check], "errors": [shape], "summary": check["summary"]})


TWICE = ('<affine_map<(d0, d1) -> (d0, d0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, '
         '<PassThrough ["b"] at [1] -> ["b"] at [0]>] bounds = [4, 4] -> [4, 4]>')


@pytest.mark.parametrize("command", ["show", "invert", "vectorize"])
def test_a_map_without_meaning_is_said_not_skipped(command):
    extra = ["--dim", "0"] if command == "vectorize" else []
    result = run(command, TWICE, *extra)
    assert result.returncode == 2
    assert "cannot answer:" in result.stdout and "lower dim 0 is defined by 2 transforms" in result.stderr
    document = json.loads(run(command, TWICE, "--json", *extra).stdout)
    conforms(document, documented_shapes()[command])
    assert any("error" in item for item in document["maps"] + document["views"])


def test_vectorize_says_a_file_of_maps_has_no_view():
    path = ROOT / "tests" / "data" / "rocmlir" / "test_vectorization_inference.legacy-2023.mlir"
    result = run("vectorize", str(path), "--dim", "0")
    assert result.returncode == 2 and result.stdout == ""
    assert "holds 40 transform map(s) but no view" in result.stderr


FIVE = '<affine_map<(d0) -> (d0)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>] bounds = [5] -> [5]>'


@pytest.mark.parametrize(("length", "message"), [
    ("4", "--length 4: must divide dim 0's size 5: runs of 4 would end in a partial run"),
    ("64", "--length 64: must divide dim 0's size 5: runs of 64 do not fit in 5"),
    ("0", "--length 0: a run length is at least 1"),
])
def test_a_run_length_that_does_not_tile_the_dim_is_the_users_mistake_not_rocmlirs(length, message):
    result = run("vectorize", FIVE, "--dim", "0", "--length", length)
    assert result.returncode == 2 and message in result.stderr
    assert "rocMLIR unsound" not in result.stdout
    assert run("vectorize", FIVE, "--dim", "0", "--length", "5").returncode == 0


@pytest.mark.parametrize(("content", "message"), [
    (b"// fine\n// fine\n#m = \xff\n", ":3: not UTF-8 text"),
    (b"// fine\n\0\n", ":2: not text (a NUL byte)"),
])
def test_regularize_reads_a_file_a_part_at_a_time_and_locates_a_bad_byte(tmp_path, content, message):
    path = tmp_path / "bad.mlir"
    path.write_bytes(content)
    result = run("regularize", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"viewalgebra: {path}{message}\n"
