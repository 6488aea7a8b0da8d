"""docs/rocmlir-workflows.md, run as its reader runs it.

Every ```sh block of the guide runs, in order, in one bash process; every ```python block runs,
in order, in one Python process (docs/README.md's rule for ``print(...)  # text`` lines is checked
by tests/test_docs.py). Both run in a scratch copy of ``tests/data/rocmlir`` and ``examples`` with
the environment's ``viewalgebra`` and ``python3`` first on ``PATH``. The output of a block must
match the ```text block shown under it: a line ``...`` stands for any lines, ``...`` inside a line
for any text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GUIDE = ROOT / "docs" / "rocmlir-workflows.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```\n(?:\n```text\n(.*?)^```\n)?", re.S | re.M)
MARK = "@@ next block @@"


def blocks(language: str) -> list[tuple[int, int, str, str | None]]:
    """(section, line, code, shown output or None) of every block of ``language`` in the guide; the
    section counts the headings (``##`` and ``###``) above the block."""
    text = GUIDE.read_text()
    found = []
    for m in FENCE.finditer(text):
        if m[1] == language:
            section = len(re.findall(r"^###? ", text[:m.start()], re.M))
            found.append((section, text.count("\n", 0, m.start()) + 1, m[2], m[3]))
    return found


def pattern(shown: str) -> re.Pattern[str]:
    """The regex of a shown output: ``...`` alone on a line is any lines, inside a line any text."""
    lines = []
    for line in shown.rstrip("\n").split("\n"):
        if line == "...":
            lines.append(r"(?:[^\n]*\n)*?")
        else:
            lines.append(".*?".join(re.escape(part) for part in re.split(r"\s*\.\.\.\s*", line)) + r"\n")
    return re.compile("".join(lines), re.S)


def matches(output: str, shown: str) -> bool:
    return pattern(shown).fullmatch(output) is not None


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A working directory holding the guide's inputs, and an environment that finds the tools."""
    work = tmp_path_factory.mktemp("workflows")
    shutil.copytree(ROOT / "tests" / "data" / "rocmlir", work / "tests" / "data" / "rocmlir")
    shutil.copytree(ROOT / "examples", work / "examples")
    tools = work / "bin"  # `viewalgebra` and `python3` of this environment, whatever is installed
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    (tools / "viewalgebra").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m viewalgebra "$@"\n')
    (tools / "viewalgebra").chmod(0o755)
    env = dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(ROOT))
    return work, env


def start(language: str, code: list[str], work: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    """One process running the blocks ``code`` in order, a marker line printed before each."""
    if language == "sh":
        command = ["bash", "-c", "".join(f"echo '{MARK}'\n{c}" for c in code)]
    else:
        command = [sys.executable, "-c", "".join(f"print({MARK!r}, flush=True)\n{c}" for c in code)]
    return subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


@pytest.fixture(scope="module")
def outputs(scratch: tuple[Path, dict[str, str]]) -> dict[str, list[tuple[int, str, str | None]]]:
    """(line, output, shown) of every block, by language. The sh blocks of each section (or
    subsection) run in one bash process, since they build on each other, the sections side by side;
    the python blocks run in one process, as in a session."""
    work, env = scratch
    groups: dict[tuple[str, int], list[tuple[int, str, str | None]]] = {}
    for language in ("sh", "python"):
        for section, line, code, shown in blocks(language):
            groups.setdefault((language, section if language == "sh" else 0), []).append((line, code, shown))
    running = {key: start(key[0], [code for _, code, _ in group], work, env) for key, group in groups.items()}
    found: dict[str, list[tuple[int, str, str | None]]] = {"sh": [], "python": []}
    for key, proc in running.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert "Traceback" not in stderr and "command not found" not in stderr, stderr
        assert key[0] == "sh" or proc.returncode == 0, stderr
        printed = stdout.split(MARK + "\n")[1:]
        assert len(printed) == len(groups[key]), stdout
        found[key[0]] += [(line, output, shown) for (line, _, shown), output in zip(groups[key], printed, strict=True)]
    return found


@pytest.mark.parametrize("language", ["sh", "python"])
def test_every_block_prints_what_the_guide_shows(language, outputs):
    assert outputs[language]
    wrong = [f"{GUIDE.name}:{line}: printed\n{output}\nthe guide shows\n{shown}"
             for line, output, shown in outputs[language]
             if shown is not None and not matches(output, shown)]
    assert not wrong, "\n\n".join(wrong)


def test_each_workflow_shows_its_output():
    text = GUIDE.read_text()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(sections) == 4
    shown = {line for _, line, _, out in blocks("sh") + blocks("python") if out is not None}
    starts = [text.index(f"## {s.splitlines()[0]}") for s in sections] + [len(text)]
    for start, end in zip(starts, starts[1:], strict=False):
        lines = range(text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1)
        assert any(line in lines for line in shown), text[start:start + 60]


def test_the_report_fields_the_guide_lists(scratch, outputs):
    """The JSON fields named in the guide are in a report (the sh blocks of workflow 1 wrote it)."""
    work, _ = scratch
    report = json.loads((work / "reports" / "tests_data_rocmlir.json").read_text())
    assert set(report) == {"files", "errors", "summary"} and report["errors"] == []
    files = {Path(f["file"]).name: f for f in report["files"]}
    assert {"file", "summary", "maps", "views", "kernels"} <= set(files["regularize.mlir"])
    summary = report["summary"]
    assert {"views", "dims", "vector_lengths", "validity", "index_width", "collapse", "simplified", "maps",
            "inverses", "inverses_rocmlir_cannot_find"} <= set(summary)
    assert set(summary["validity"]) == {"equal", "rocMLIR conservative", "rocMLIR unsound"}
    m = files["input-output-fusion-regularize.mlir"]["maps"][0]
    assert {"name", "line", "text", "upper_bounds", "lower_bounds", "formulas", "findings", "inverse"} <= set(m)
    assert {"kind", "maps", "certified", "rocmlir"} <= set(m["inverse"])
    view = files["test_vectorization_inference.mlir"]["views"][0]
    assert {"name", "line", "buffer", "shape", "findings", "address", "vectors", "simplified", "validity",
            "index_width"} <= set(view)
    assert {"dim", "size", "exact", "legal", "rocmlir", "verdict", "witness"} <= set(view["vectors"][0])
    assert all("verdict" in view[k] for k in ("simplified", "validity", "index_width"))
    kernel = files["regularize.mlir"]["kernels"][0]
    assert {"function", "op", "access", "shape", "argument", "lengths"} <= set(kernel)


def test_the_check_values_of_the_whole_file(outputs):
    """What the guide says of its CHECK generator: every op it reads agrees with the file."""
    (printed,) = [out for _, out, shown in outputs["python"] if shown and shown.startswith("9: // CHECK-SAME")]
    lines = printed.splitlines()
    assert len(lines) == 49 and not any("the file says" in line for line in lines)
    text = (ROOT / "tests/data/rocmlir/test_vectorization_inference.mlir").read_text()
    assert text.count('"get_length"') == 54 and text.count("traverseFusions}") == 5


def test_the_output_rule():
    assert matches("a\nb\nc\n", "a\n...\nc\n") and matches("a\nc\n", "a\n...\nc\n")
    assert matches("total: 3 view(s); more\n", "total: 3 ...\n") and not matches("a\nb\n", "a\n")
