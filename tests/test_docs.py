"""The examples of README.md and docs/*.md run, and print what the text beside them says.

Every ```python block of a page runs, the blocks of one page top to bottom in one namespace (as in
a session). A line ``print(expr)  # text`` must print exactly ``text``, where each ``...`` (and the
blanks around it) stands for text left out: ``# (1, 8) ...`` means the printed text starts with
``(1, 8)``, ``# ... Slice{2, 6} ...`` that it contains ``Slice{2, 6}``.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import sys
import tokenize
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(text: str) -> list[tuple[int, str]]:
    """(line of the block's first code line, code) of every python block of a page."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def expected_prints(code: str) -> list[tuple[int, int, str]]:
    """(first line, last line, written text) of every ``print(...)  # text`` in ``code``."""
    comments = {tok.start[0]: tok.string[1:].strip()
                for tok in tokenize.generate_tokens(io.StringIO(code).readline)
                if tok.type == tokenize.COMMENT}
    found = []
    for node in ast.walk(ast.parse(code)):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "print"
                and node.end_lineno in comments):
            assert node.end_lineno is not None
            found.append((node.lineno, node.end_lineno, comments[node.end_lineno]))
    return found


def matches(printed: str, written: str) -> bool:
    """``printed == written``, where each ``...`` of ``written`` (and the blanks around it) stands for
    any text."""
    pattern = ".*".join(re.escape(part) for part in re.split(r"\s*\.\.\.\s*", written))
    return re.fullmatch(pattern, printed, re.S) is not None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_documentation_examples_print_what_they_say(page: Path) -> None:
    printed: list[tuple[int, str]] = []  # (line in the page, text) of every print

    def record(*args: object, sep: str | None = " ", end: str | None = "\n", file: object = None,
               flush: bool = False) -> None:
        import sys

        printed.append((sys._getframe(1).f_lineno, (" " if sep is None else sep).join(map(str, args))))

    namespace: dict[str, object] = {"print": record}
    expected: list[tuple[int, int, str]] = []
    for start, code in blocks(page.read_text()):
        # Padded so that line numbers in tracebacks and in `record` are the page's own.
        exec(compile("\n" * (start - 1) + code, str(page), "exec"), namespace)  # noqa: S102
        expected += [(first + start - 1, last + start - 1, text) for first, last, text in expected_prints(code)]
    wrong = []
    for first, last, written in expected:
        outputs = [text for line, text in printed if first <= line <= last]
        assert outputs, f"{page.name}:{first}: the print did not run"
        wrong += [f"{page.name}:{first}: printed {text!r}, the page says {written!r}"
                  for text in outputs if not matches(text, written)]
    assert not wrong, "\n".join(wrong)


def test_the_rule_is_checked_on_something() -> None:
    counts = [len(expected_prints(code)) for page in PAGES for _, code in blocks(page.read_text())]
    assert sum(counts) >= 30  # the pages' examples print values, and this test reads them
    assert matches("abc def", "abc ...") and matches("abc def", "... def") and matches("a(b)c", "a ... c")
    assert not matches("abc", "ab") and not matches("abc\ndef", "abc")


def test_ci_runs_the_readmes_test_command() -> None:
    """.ci/run runs the tests exactly as the README's set-up tells a reader to, options included
    (pytest-xdist's, which keep the suite within CI's time on 2 cores)."""
    setup = re.search(r"^```sh\n(.*?)^```", (ROOT / "README.md").read_text(), re.S | re.M)
    assert setup is not None
    shown = [line for line in setup[1].splitlines() if " -m pytest" in line]
    run = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if " -m pytest" in line]
    assert len(shown) == 1 and run == shown, (shown, run)


def test_the_wheel_holds_the_package_and_no_tests(tmp_path: Path) -> None:
    """The wheel builds offline (the test extra brings a setuptools that can) and holds the
    package, its command and its extras, nothing else."""
    source = tmp_path / "source"  # a copy: setuptools writes build/ and *.egg-info beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "viewalgebra", source / "viewalgebra", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True, timeout=120)
    (wheel,) = (tmp_path / "dist").glob("viewalgebra-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        entry_points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "viewalgebra/__init__.py" in names and "viewalgebra/_mlir/reader.py" in names
    assert "viewalgebra/py.typed" in names  # dependents type-check against the annotations
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "viewalgebra").rglob("*.py")}
    assert modules <= set(names)
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "examples/", "docs/"))]
    assert "viewalgebra = viewalgebra._cli:main" in entry_points
    assert {f"Provides-Extra: {extra}" for extra in ("test", "lint", "mlir")} <= set(metadata.splitlines())
