"""The report commands read a file a part at a time (``viewalgebra/_cli/stream.py``): on every
test file cut at several places they write the text and the JSON of the file read whole; text
that is not MLIR stops the scan at its first unreadable statement, located; ``--json`` writes
one document whatever happens, through a writer that writes what ``json.dumps`` writes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import EXAMPLE, ROOT, TYPO, conforms, documented_shapes, run

import viewalgebra as va
from viewalgebra._cli import inputs, jsonout  # noqa: TID251 -- the part size and the writer under test
from viewalgebra._mlir import parts  # noqa: TID251 -- to count what the scan lexes

FILES = sorted([*(p for p in (ROOT / "tests/data/rocmlir").rglob("*.mlir") if "corpus" not in p.parts),
                *(ROOT / "examples").glob("*.mlir")])  # the corpus: tests/test_corpus.py
WHOLE = 1 << 40


def outputs(monkeypatch: pytest.MonkeyPatch, size: int, path: Path, first_view: str | None) -> list[object]:
    """What each report command writes (status, stdout, stderr) with parts of ``size``."""
    monkeypatch.setattr(inputs, "PART_SIZE", size)
    runs = [["check"], ["check", "--json"], ["show"], ["invert", "--json"], ["vectorize", "--dim", "0"]]
    if first_view is not None:  # one view: the views are written as they come
        runs += [["invert", "--view", first_view], ["vectorize", "--json", "--dim", "1", "--view", first_view]]
    found: list[object] = []
    for args in runs:
        result = run(args[0], str(path), *args[1:])
        found.append((args, result.returncode, result.stdout, result.stderr))
    return found


CUTS = {name: (1, 700) for name in ("test_collapse_contiguous_merges.mlir", "invalid.transform-verifier-excerpt.mlir",
                                      "rocmlir_differences.mlir")}
"""Part sizes: 1 cuts before every function, module and split (a part per top-level item); 700
leaves a few items in a part."""


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_reported_a_part_at_a_time_is_reported_as_the_whole_file(path: Path, monkeypatch: pytest.MonkeyPatch):
    views = va.text.parse_mlir_views(path.read_text())
    whole = outputs(monkeypatch, WHOLE, path, views[0].name if views else None)
    for size in CUTS.get(path.name, (1,)):
        assert outputs(monkeypatch, size, path, views[0].name if views else None) == whole, size


def test_the_test_files_are_cut_into_parts():
    for path in FILES:
        lines = path.read_text().splitlines(keepends=True)
        assert len(list(parts.text_parts(lines, 1))) > 1, path.name
        if path.name in CUTS:
            assert 1 < len(list(parts.text_parts(lines, 700))) < len(list(parts.text_parts(lines, 1))), path.name


NOT_A_STATEMENT = "expected a statement (an op, a function, a module or an alias '#name = ...'), found"
VALID = EXAMPLE.read_text()
VALID_LINES = VALID.count("\n")


@pytest.mark.parametrize(("content", "line", "column", "reason"), [
    ("hello world\n" * 1000, 1, 1, f"holds no transform map or view: {NOT_A_STATEMENT} 'hello'"),
    (VALID + "this is not MLIR\n" + TYPO, VALID_LINES + 1, 1, f"{NOT_A_STATEMENT} 'this'"),
    (VALID + "func.func @f() {\n  %0 = foo.bar (%x] : i32\n}\n" + TYPO, VALID_LINES + 2, 19,
     f"']' closes '(' opened at {VALID_LINES + 2}:16"),
    (VALID + "func.func @f() {\n  %0 = foo.bar ~ %x\n}\n", VALID_LINES + 2, 16, "unexpected character '~'"),
    (VALID + "func.func @f() {\n  return\n", VALID_LINES + 1, 16, "'{' is never closed"),
    ("}\n" + VALID, 1, 1, f"holds no transform map or view: {NOT_A_STATEMENT} '}}'"),
])
def test_text_that_is_not_mlir_stops_the_scan_at_its_first_unreadable_statement(tmp_path, content, line, column,
                                                                                 reason):
    path = tmp_path / "bad.mlir"
    path.write_text(content)
    for args in (["check"], ["show", "--json"], ["invert"], ["vectorize", "--dim", "0"]):
        result = run(args[0], str(path), *args[1:])
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr == f"viewalgebra: {path}:{line}:{column}: {reason}\n", args
        if "--json" in args:
            assert json.loads(result.stdout)["error"]["type"] == "MlirParseError"
        else:
            assert result.stdout == ""


def test_a_statement_continues_on_lines_that_start_none(tmp_path):
    path = tmp_path / "continued.mlir"
    path.write_text('#m =\n  #rock.transform_map<affine_map<(d0) -> (d0)>\n  by [<PassThrough ["a"] at [0] -> ["a"] at [0]>]\n'
                    "  bounds = [4] -> [4]>\nfunc.func @f(%a: memref<4xf32>) -> ()\n    attributes {kernel} {\n"
                    "  %0 = rock.transform %a by #m : memref<4xf32> to memref<4xf32>\n  return\n}\n")
    result = run("show", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("#m (line 2): [4] -> [4]") and "view %0 (line 7)" in result.stdout


def test_garbage_is_not_lexed_to_its_end(tmp_path, monkeypatch: pytest.MonkeyPatch):
    rng = random.Random(0)
    words = ["hello", "%0", "=", "rock.transform", "by", "#x", "(", ")", "<", ">", "{", "}", "@f", "\n"]
    garbage = "junk " + " ".join(rng.choice(words) for _ in range(400_000))  # 2 MB, nothing to cut at
    path = tmp_path / "garbage.mlir"
    path.write_text(garbage)
    lexed: list[int] = []
    tokenize = parts.tokenize

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        lexed.append(kwargs.get("end", len(text)) - kwargs.get("start", 0))
        return tokenize(text, *args, **kwargs)

    monkeypatch.setattr(parts, "tokenize", counting)
    result = run("check", str(path))
    assert result.returncode == 2 and result.stderr.startswith(f"viewalgebra: {path}:1:1: holds no transform map")
    assert 0 < sum(lexed) <= 2 * parts.LazyTokens.BLOCK  # one block, not 2 MB


def test_the_first_unreadable_statement_is_the_error_not_a_map_after_it(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("junk\n" + TYPO)  # the map on line 3 is never read
    result = run("show", str(path))
    assert result.returncode == 2 and f"{path}:1:1: holds no transform map or view" in result.stderr
    path.write_text(TYPO + "junk\n")  # the map comes first, and is the error
    assert f"{path}:2:" in run("show", str(path)).stderr


def late_error_file(tmp_path: Path) -> Path:
    """A file whose last part has a map that is not rocMLIR syntax (with parts of 1 character)."""
    path = tmp_path / "late.mlir"
    path.write_text(VALID + TYPO)
    return path


@pytest.mark.parametrize("command", ["check", "show", "invert"])
def test_a_file_found_bad_in_a_later_part_ends_its_report_with_the_error(tmp_path, monkeypatch, command):
    path = late_error_file(tmp_path)
    line = VALID_LINES + 2
    whole = run(command, str(path), "--json")  # one part: nothing is written before the error
    assert whole.returncode == 2 and list(json.loads(whole.stdout)) == ["error"]
    monkeypatch.setattr(inputs, "PART_SIZE", 1)
    text = run(command, str(path))
    assert text.returncode == 2 and text.stderr.startswith(f"viewalgebra: {path}:{line}:")
    assert (text.stdout == "") == (command == "check")  # check's text waits for the file's end
    document = json.loads(run(command, str(path), "--json").stdout)  # one document
    assert document["error"]["line"] == line and document["error"]["type"] == "TransformParseError"
    assert [m["name"] for m in document["maps"]] == ["conv_input_g", "conv_input_pad", "conv_input_embed",
                                                     "conv_input_gemm"]
    assert ("summary" in document) == (command == "check") and "kernels" not in document
    conforms(document, documented_shapes()[command])


def test_json_is_one_document_whatever_happens(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(inputs, "PART_SIZE", 1)
    late = late_error_file(tmp_path)
    (tmp_path / "dir").mkdir()
    for name, text in (("a.mlir", VALID), ("b.mlir", TYPO), ("c.mlir", late.read_text()), ("d.mlir", "")):
        (tmp_path / "dir" / name).write_text(text)
    cases = [["check", str(tmp_path / "dir")], ["check", str(late)], ["show", str(late)], ["invert", str(EXAMPLE)],
             ["vectorize", str(EXAMPLE), "--dim", "9"], ["show", str(EXAMPLE), "--view", "%9"],
             ["draw", str(late), "-o", str(tmp_path / "x.svg")], ["check", str(tmp_path / "none.mlir")]]
    for args in cases:
        result = run(*args, "--json")
        document = json.loads(result.stdout)  # raises on a second document
        assert isinstance(document, dict) and result.stdout.endswith("}\n"), args
    directory = json.loads(run("check", str(tmp_path / "dir"), "--json").stdout)
    # d.mlir is empty: nothing to check, not an error
    assert [f["file"] for f in directory["files"]] == [str(tmp_path / "dir" / n) for n in ("a.mlir", "c.mlir", "d.mlir")]
    assert [e["file"] for e in directory["errors"]] == [str(tmp_path / "dir" / n) for n in ("b.mlir", "c.mlir")]
    assert "error" in directory["files"][1] and directory["summary"]["views"] == 1


@pytest.mark.parametrize("size", [1, WHOLE])
def test_draw_reads_until_its_view(tmp_path, monkeypatch: pytest.MonkeyPatch, size: int):
    monkeypatch.setattr(inputs, "PART_SIZE", size)
    path = tmp_path / "then-junk.mlir"
    path.write_text(VALID + "func.func @g() {\n  return\n}\njunk\n")  # the next function ends the view's
    result = run("draw", str(path), "-o", str(tmp_path / "x.svg"))
    assert result.returncode == 0 and result.stdout == f"wrote {tmp_path / 'x.svg'}\n"
    assert f"{path}:{VALID_LINES + 4}:1: {NOT_A_STATEMENT} 'junk'" in run("show", str(path)).stderr


def test_a_missing_view_lists_the_first_names(tmp_path):
    view = ('%{} = rock.transform %a by #m : memref<4xf32> to memref<4xf32>\n')
    path = tmp_path / "many.mlir"
    path.write_text('#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough ["a"] at [0] -> ["a"] '
                    'at [0]>] bounds = [4] -> [4]>\n' + "".join(view.format(f"v{i}") for i in range(80)))
    result = run("show", str(path), "--view", "%nope")
    names = ", ".join(f"%v{i}" for i in range(50))
    assert result.returncode == 2 and f"no view %nope (names: {names}, ...; or give the view's line)" in result.stderr
    assert run("show", str(path), "--view", "%v79").returncode == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=25)


def written(value: object, data: st.DataObject) -> str:
    """``value`` written by ``JsonWriter``, each container opened, streamed or spooled as drawn."""
    out: list[str] = []
    w = jsonout.JsonWriter(out.append)

    def write(v: object, key: str | None) -> None:
        how = data.draw(st.sampled_from(["value", "stream", "spool"]))
        if isinstance(v, dict) and how != "value":
            w.open("{", key)
            for k, item in v.items():
                write(item, k)
            w.close("}")
        elif isinstance(v, list) and how == "spool" and key is not None:
            items = jsonout.ListSpool(w.depth + 1)
            for item in v:
                items.add(item)
            w.spooled(key, items)
        elif isinstance(v, list) and how != "value":
            w.open("[", key)
            for item in v:
                write(item, None)
            w.close("]")
        else:
            w.value(v, key)

    write(value, None)
    return "".join(out)


@given(value=json_values, data=st.data())
@settings(derandomize=True, deadline=None, max_examples=300)
def test_the_streaming_json_writer_writes_what_json_dumps_writes(value: object, data: st.DataObject):
    text = written(value, data)
    expected = json.dumps(value, indent=2)
    assert text == expected + ("\n" if text.endswith("\n") else "")
    assert json.loads(text) == value


def test_a_spool_moves_to_a_file_and_keeps_its_text(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(jsonout, "SPOOL_MEMORY", 8)
    spool = jsonout.Spool()
    pieces = [f"line {i} é\n" for i in range(20_000)]
    for piece in pieces:
        spool.write(piece)
    out: list[str] = []
    spool.copy_to(out.append)
    assert "".join(out) == "".join(pieces) and spool.empty


OPS = ROOT / "tests" / "data" / "rocmlir" / "ops.mlir"
"""rocMLIR's ``mlir/test/Dialect/Rock/ops.mlir``: two static ``rock.transform`` views (lines 134 and
150) and one over ``memref<?x?x?x?x?xf32>`` (line 164), after functions of dynamic shapes."""


@pytest.mark.parametrize("command", [["check"], ["show"], ["invert"], ["vectorize", "--dim", "0"]], ids=str)
def test_a_view_over_a_dynamic_shape_is_noted_and_the_static_views_are_analysed(command: list[str]):
    result = run(*command, str(OPS), "--json")
    assert result.returncode in (0, 1), result.stderr
    notes = [line for line in result.stderr.splitlines() if "dynamic size" in line]
    assert notes == [f"viewalgebra: {OPS}:164:3: view %transformed_memref: not analysed: dynamic size "
                     "(memref<?x?x?x?x?xf32>)"]
    report = json.loads(result.stdout)
    if command == ["invert"]:  # inverts maps: all three, the dynamic view's too
        assert [m["line"] for m in report["maps"]] == [135, 151, 165]
    else:
        assert sorted(v["line"] for v in report["views"]) == [134, 150]
