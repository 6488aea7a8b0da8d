"""``emit-lit`` and ``va.mlir.emit_lit``: the rocMLIR lit test written for the views of
examples/rocmlir_differences.mlir states ``va.max_vector_length`` in its CHECK lines, is read back to
the same views, and its generic form parses in MLIR's own parser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli import run
from test_mlir_valid import parse

import viewalgebra as va

ROOT = Path(__file__).parent.parent
DIFFERENCES = ROOT / "examples" / "rocmlir_differences.mlir"
VIEWS = va.text.parse_mlir_views(DIFFERENCES.read_text())

CASE = re.compile(r"^// \S+:(\d+): view \S+\n(?:// dim .*\n)*// CHECK-LABEL: @(\w+)\n", re.M)
CHECK = re.compile(r'// CHECK-SAME: result = (\d+) : index\n\s*"get_length"\(%\w+\) \{in_dim = (\d+) : index\}')


def emitted(tmp_path: Path, *options: str) -> str:
    out = tmp_path / "test.mlir"
    result = run("emit-lit", str(DIFFERENCES), "-o", str(out), *options)
    assert result.returncode == 1, result.stderr  # the file holds unsound rocMLIR answers
    assert result.stderr == ""
    return out.read_text()


def cases(text: str) -> dict[int, tuple[str, list[tuple[int, int]]]]:
    """Each case's source line: its function and its (dim, CHECK value) pairs, in order."""
    found: dict[int, tuple[str, list[tuple[int, int]]]] = {}
    chunks = re.split(r"\n(?=// \S+:\d+: view )", text)
    for chunk in chunks[1:]:
        head = CASE.match(chunk)
        assert head is not None, chunk
        found[int(head[1])] = (head[2], [(int(d), int(r)) for r, d in CHECK.findall(chunk)])
    return found


def test_check_values_are_the_exact_lengths(tmp_path):
    text = emitted(tmp_path)
    assert text.startswith("// RUN: rocmlir-opt -rock-vectorization-inference-test \\\n")
    written = cases(text)
    by_line = {v.line: v.view for v in VIEWS}
    differing = {line for line, v in by_line.items() if v is not None and any(
        va.max_vector_length(v, d).length != va.rocmlir.rocmlir_vector_length(v, d) for d in range(v.rank))}
    assert set(written) == differing and len(differing) == 3  # the view at line 68 agrees
    for line, (_, checks) in written.items():
        view = by_line[line]
        assert view is not None
        assert checks == [(d, va.max_vector_length(view, d).length) for d in range(view.rank)]
    assert written[23][1] == [(0, 12)]  # rocMLIR says 24 (docs/rocmlir.md)


def test_all_writes_every_view(tmp_path):
    every = cases(emitted(tmp_path, "--all"))
    assert sorted(every) == sorted(v.line for v in VIEWS) and len(every) == 4
    assert set(cases(emitted(tmp_path))) < set(every)


def _view_of(kernel: va.kernel.Kernel) -> va.View:
    (op,) = {o.reads for o in kernel.ops if o.kind == "get_length"}
    buffer, maps = kernel.chain(op[0])
    return va.View(va.Buffer(kernel.shape(buffer), kernel.values[buffer].dtype), maps)


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_read_back_to_the_same_views(tmp_path, generic):
    text = emitted(tmp_path, "--all", *(["--generic"] if generic else []))
    names = {line: name for line, (name, _) in cases(text).items()}
    source = {names[v.line]: v.view for v in VIEWS}
    module = va.read_mlir(text, errors="collect")
    # The view of line 23 reads past its memref<12xf32> (bounds [24] on 12 elements): the kernel
    # reader refuses such a function; the file scan below reads it.
    assert [u.name for u in module.unreadable] == [names[23]]
    assert "lower bounds [24] != the shape" in str(module.unreadable[0].error)
    read = {f.name: _view_of(f.kernel) for f in module.functions}
    assert set(read) == set(source) - {names[23]}
    for name, view in read.items():
        assert va.equivalent(view, source[name]), name
    if generic:
        parse(text)  # MLIR's own parser, the rock ops unregistered
        parse(va.write_mlir(va.mlir.MlirModule(tuple(module.functions)), generic=True))
    else:
        scanned = va.text.parse_mlir_views(text)
        assert len(scanned) == len(source)
        for v in scanned:
            name = re.findall(r"^func\.func @(\w+)", "\n".join(text.split("\n")[:v.line]), re.M)[-1]
            assert v.view is not None and va.equivalent(v.view, source[name]), name


def test_the_api_writes_what_the_command_writes(tmp_path):
    named = {f"rocmlir_differences_l{v.line}": v.view for v in VIEWS if v.view is not None}
    api = va.mlir.emit_lit(named, all_views=True)
    command = emitted(tmp_path, "--all")
    assert re.sub(r"^// \S+:\d+: view .*\n", "", command, flags=re.M) == api
    parse(va.mlir.emit_lit(named, generic=True))
    assert va.mlir.emit_lit([]).count("\n") == 3  # only the RUN line


def test_json_and_a_directory(tmp_path):
    (tmp_path / "a.mlir").write_text(DIFFERENCES.read_text())
    (tmp_path / "comments.mlir").write_text("// nothing here\n")
    result = run("emit-lit", str(tmp_path), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["views"] == 4 and [c["function"] for c in report["cases"]] == [
        "a_l23", "a_l44", "a_l56"]
    assert report["cases"][0]["dims"] == [{"dim": 0, "exact": 12, "rocmlir": 24, "verdict": "rocMLIR unsound"}]
    assert report["mlir"].startswith("// RUN:")


def test_nothing_differs(tmp_path):
    agreeing = tmp_path / "agree.mlir"
    agreeing.write_text("\n".join(DIFFERENCES.read_text().split("\n")[59:]))  # the last function
    assert len(va.text.parse_mlir_views(agreeing.read_text())) == 1
    result = run("emit-lit", str(agreeing), "-o", str(tmp_path / "out.mlir"))
    assert (result.returncode, result.stdout) == (0, "")
    assert "nothing written" in result.stderr and not (tmp_path / "out.mlir").exists()
    result = run("emit-lit", str(agreeing), "--all")
    assert result.returncode == 0 and result.stdout.count("CHECK-SAME: result =") == 2


@pytest.mark.parametrize("argument", ["missing.mlir", "README.md", "<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>"])
def test_bad_input_is_one_line_and_exit_2(argument):
    result = run("emit-lit", str(ROOT / argument) if not argument.startswith("<") else argument)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("viewalgebra: ")


def test_json_has_the_documented_shape(tmp_path):
    from test_cli import conforms, documented_shapes

    for options in ([], ["-o", str(tmp_path / "out.mlir")]):
        result = run("emit-lit", str(DIFFERENCES), "--json", *options)
        conforms(json.loads(result.stdout), documented_shapes()["emit_lit"])
