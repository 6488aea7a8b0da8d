"""The file scan (``va.text.parse_mlir_transform_maps``, ``va.text.parse_mlir_views``): every map
and view of every rocMLIR test file and example, as the scan found them when it was a separate
regex scanner (``tests/data/scan_snapshot.json``): same maps, names, forms, lines, columns,
offsets, errors and views."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import viewalgebra as va

ROOT = Path(__file__).parent.parent
SNAPSHOT = Path(__file__).parent / "data" / "scan_snapshot.json"
FILES = [*sorted(p for p in (ROOT / "tests/data/rocmlir").rglob("*.mlir") if "corpus" not in p.parts),
         *sorted((ROOT / "examples").glob("*.mlir"))]
"""The corpus (tests/data/rocmlir/corpus/, files of every kind) is tests/test_corpus.py's."""


def _error(e: Exception | None) -> list[str] | None:
    return None if e is None else [type(e).__name__, str(e)]


def scan(text: str) -> dict[str, Any]:
    """What the scan finds in ``text``, as plain data."""
    maps = [{"map": None if m.map is None else va.print_transform_map(m.map, affine_map=m.written),
             "written": None if m.written is None else str(m.written), "line": m.line,
             "column": m.column, "name": m.name, "form": m.form, "offset": m.offset,
             "error": _error(m.error), "strict_ok": m.map is not None and m.map.strict}
            for m in va.text.parse_mlir_transform_maps(text, errors="collect")]
    views = [{"name": v.name, "line": v.line, "column": v.column, "error": _error(v.error),
              "buffer": None if v.view is None else [list(v.view.buffer.shape), v.view.buffer.dtype,
                                                     list(v.view.buffer.strides or ()), v.view.buffer.offset],
              "maps": None if v.view is None else [va.print_transform_map(m) if m.strict else repr(m)
                                                   for m in v.view.maps],
              **({"note": v.note} if v.note else {})}
             for v in va.text.parse_mlir_views(text)]
    return {"maps": maps, "views": views}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_scan_finds_what_it_found(path: Path):
    expected = json.loads(SNAPSHOT.read_text())[str(path.relative_to(ROOT))]
    assert scan(path.read_text()) == expected


def test_the_snapshot_covers_every_file():
    assert sorted(json.loads(SNAPSHOT.read_text())) == sorted(str(p.relative_to(ROOT)) for p in FILES)


TRANSPOSE = ('#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["i", "j"] '
             'at [0, 1] -> ["j", "i"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>\n')


@pytest.mark.parametrize(("source", "result", "dtype"), [
    ("tensor<4x8xf16>", "tensor<8x4xf16>", "f16"),
    ("memref<4x8xvector<4xf16>, #gpu.address_space<private>>",
     "memref<8x4xvector<4xf16>, #gpu.address_space<private>>", "f16"),
    ("memref<4x8xi8, 5>", "memref<8x4xi8, 5>", "i8"),
])
def test_views_over_tensors_vectors_and_memory_spaces(source: str, result: str, dtype: str):
    text = TRANSPOSE + f"func.func @f(%a: {source}) {{\n  %0 = rock.transform %a by #t : {source} to {result}\n}}\n"
    (parsed,) = va.text.parse_mlir_views(text)
    assert parsed.error is None and parsed.view is not None
    assert parsed.view.buffer == va.Buffer((4, 8), dtype) and parsed.view.shape == (8, 4)
    assert parsed.view.address((3, 1)) == 1 * 8 + 3


def test_a_view_over_a_memory_space_alias():
    typ, result = "memref<4x8xvector<2xf32>, #wg>", "memref<8x4xvector<2xf32>, #wg>"
    text = (TRANSPOSE + "#wg = #gpu.address_space<workgroup>\n"
            f"func.func @f(%a: {typ}) {{\n  %0 = rock.transform %a by #t : {typ} to {result}\n}}\n")
    (parsed,) = va.text.parse_mlir_views(text)
    assert parsed.error is None and parsed.view is not None and parsed.view.buffer == va.Buffer((4, 8), "f32")


def test_a_buffer_type_that_cannot_be_read_is_located_at_its_view():
    typ = "memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>"
    text = TRANSPOSE + f"func.func @f(%a: {typ}) {{\n  %0 = rock.transform %a by #t : {typ} to memref<8x4xf32>\n}}\n"
    (parsed,) = va.text.parse_mlir_views(text)
    assert parsed.view is None and str(parsed.error).startswith("3:3: memref layouts other than strided")


def test_check_reads_a_transform_over_a_tensor(tmp_path: Path):
    from test_cli import run

    path = tmp_path / "tensor.mlir"
    path.write_text(TRANSPOSE + "func.func @f(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {\n"
                    "  %0 = rock.transform %a by #t : tensor<4x8xf32> to tensor<8x4xf32>\n"
                    "  return %0 : tensor<8x4xf32>\n}\n")
    result = run("check", "--json", str(path))
    assert result.returncode in (0, 1), result.stderr
    (view,) = json.loads(result.stdout)["views"]
    assert (view["name"], view["buffer"], view["shape"]) == ("%0", "memref<4x8xf32>", [8, 4])


def test_a_map_in_its_prefixed_form_after_by():
    text = ("func.func @f(%a: memref<4x8xf32>) {\n  %0 = rock.transform %a by "
            + TRANSPOSE.split(" = ", 1)[1].strip() + " : memref<4x8xf32> to memref<8x4xf32>\n}\n")
    (m,) = va.text.parse_mlir_transform_maps(text)
    (parsed,) = va.text.parse_mlir_views(text)
    assert m.form == "attribute" and parsed.error is None and parsed.view is not None
    assert parsed.view.maps == (m.map,)


def test_views_whose_types_contradict_their_maps_are_read():
    text = (ROOT / "tests/data/rocmlir/test_vectorization_inference.mlir").read_text()
    unreadable = {u.name for u in va.read_mlir(text, errors="collect").unreadable}
    assert "test_fusion_traversal" in unreadable  # the strict reader: a result type of the wrong shape
    views = {v.line: v for v in va.text.parse_mlir_views(text)}
    line = next(i for i, row in enumerate(text.splitlines(), 1)
                if "@test_fusion_traversal(" in row)
    inside = [v for n, v in views.items() if line < n < line + 20]
    assert inside and all(v.error is None and v.view is not None for v in inside)


@pytest.mark.parametrize("text", [
    "memref<4x8xf32>", "memref<f32>", "tensor<2x3xbf16>", "memref<8xvector<4xf16>, #gpu.address_space<private>>",
    "memref<2x3xbf16, strided<[1, 2], offset: 5>>", "memref<16xi8, 5>",
])
def test_one_type_parser_and_printer_round_trip(text: str):
    from viewalgebra._maps.types import parse_shaped_type  # noqa: TID251 -- the one type parser

    assert str(parse_shaped_type(text)) == text
