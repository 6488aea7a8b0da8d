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
FILES = [*sorted((ROOT / "tests/data/rocmlir").rglob("*.mlir")), *sorted((ROOT / "examples").glob("*.mlir"))]


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
                                                   for m in v.view.maps]}
             for v in va.text.parse_mlir_views(text)]
    return {"maps": maps, "views": views}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_scan_finds_what_it_found(path: Path):
    expected = json.loads(SNAPSHOT.read_text())[str(path.relative_to(ROOT))]
    assert scan(path.read_text()) == expected


def test_the_snapshot_covers_every_file():
    assert sorted(json.loads(SNAPSHOT.read_text())) == sorted(str(p.relative_to(ROOT)) for p in FILES)
