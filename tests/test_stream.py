"""The streaming path of ``viewalgebra regularize`` (``iter_mlir``, ``ItemWriter``): the same
text as ``read_mlir`` -> ``regularize`` -> ``write_mlir`` on every rocMLIR file and example."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest

import viewalgebra as va
from viewalgebra._mlir import ItemWriter, MlirFunction, Unreadable, iter_mlir, iter_mlir_parts, text_parts  # noqa: TID251 -- the CLI's private path  # noqa: TID251 -- the CLI's private path

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(p for p in (ROOT / "tests/data/rocmlir").rglob("*.mlir") if "corpus" not in p.parts),
                *(ROOT / "examples").glob("*.mlir")])  # the corpus: tests/test_corpus.py


def whole(text: str, style: Literal["seed", "rocmlir"], generic: bool) -> str:
    module = va.read_mlir(text, errors="collect")
    kernels = {f.name: va.regularize(f.kernel, style).kernel for f in module.functions
               if f.is_kernel and any(op.root for op in f.kernel.ops)}
    return va.write_mlir(module, kernels, generic=generic)


def streamed(text: str, style: Literal["seed", "rocmlir"], generic: bool) -> str:
    writer = ItemWriter(generic)
    out: list[str] = []
    for item in iter_mlir(text, errors="collect"):
        kernel = None
        if isinstance(item, MlirFunction) and item.is_kernel and any(op.root for op in item.kernel.ops):
            kernel = va.regularize(item.kernel, style).kernel
        out.append(writer.write(item, kernel))
    return "".join(out) or "\n"


def outcome(run: Callable[[str, Literal["seed", "rocmlir"], bool], str], text: str,
            style: Literal["seed", "rocmlir"], generic: bool) -> tuple[str, str]:
    try:
        return "ok", run(text, style, generic)
    except Exception as e:  # noqa: BLE001 -- the same failure either way
        return type(e).__name__, str(e)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_streaming_writes_what_the_whole_module_writes(path: Path) -> None:
    text = path.read_text()
    for style in ("seed", "rocmlir"):
        generic = style == "rocmlir"  # both forms of output, without doubling the test time
        assert outcome(streamed, text, style, generic) == outcome(whole, text, style, generic)


def test_streaming_a_file_of_many_functions() -> None:
    base = (ROOT / "examples/bert_part_11.mlir").read_text()
    text = "\n".join(base.replace("@bert_part_11__part_0", f"@copy{i}") for i in range(5))
    text = "module {\n" + text + "\n}\n// -----\n" + base
    assert list(iter_mlir(text)) == list(va.read_mlir(text).items)
    for generic in (False, True):
        assert streamed(text, "rocmlir", generic) == whole(text, "rocmlir", generic)


def in_parts(text: str, size: int) -> list[object]:
    """The items of ``text`` read a part of at least ``size`` characters at a time, with each
    unreadable function's message (exceptions compare by identity)."""
    return [(item.name, str(item.error)) if isinstance(item, Unreadable) else item
            for item in iter_mlir_parts(text_parts(text.splitlines(keepends=True), size), errors="collect")]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_file_read_in_parts_reads_as_the_whole_text(path: Path) -> None:
    text = path.read_text()
    whole_items = [(item.name, str(item.error)) if isinstance(item, Unreadable) else item
                   for item in iter_mlir(text, errors="collect")]
    for size in (1, 200, 1 << 20):  # a part per item, a few items, the whole file
        assert in_parts(text, size) == whole_items, size


def test_parts_keep_aliases_lines_and_module_braces() -> None:
    base = (ROOT / "tests/data/rocmlir/test_collapse_contiguous_merges.mlir").read_text().split("// -----")[1]
    text = "module {\n" + "\n".join(base.replace("@test_basic_unmerge", f"@f{i}") for i in range(4)) + "\n}\n"
    parts = list(text_parts(text.splitlines(keepends=True), 1))
    assert len(parts) > 4  # cut inside the module, after the alias
    assert in_parts(text, 1) == list(iter_mlir(text))
    at = text.index("#unmerge_trmap =")
    broken = text[:at] + text[at:].replace("Merge{4, 3, 2}", "Merge{4, 3, x}", 1)  # an alias every part uses
    items = in_parts(broken, 1)
    assert items == [(i.name, str(i.error)) if isinstance(i, Unreadable) else i
                     for i in iter_mlir(broken, errors="collect")]
    assert [item for item in items if isinstance(item, tuple)] == [  # at the alias, read in an earlier part
        ("f0", "13:18: expected an integer, found 'x'")]
