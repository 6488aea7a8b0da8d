"""The ``viewalgebra`` command line.

Exit codes: 0 nothing to report, 1 findings (hazards), 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import (
    TransformMap,
    ViewAlgebraError,
    compare_vector_lengths,
    dim_names,
    format_formulas,
    invert,
    lint,
    parse_mlir_transform_maps,
    parse_mlir_views,
    rocmlir_invert,
    sympy_formulas,
)
from . import print_transform_map as print_map


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="viewalgebra", description="Exact algebra of rocMLIR tensor views.")
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser(
        "show", help="every transform map and view of an .mlir file: formulas and lint",
        description="Print every transform map of an .mlir file (rocMLIR text, one formula per "
                    "lower dim, lint findings) and every view its rock.transform chains build, "
                    "with the exact vector length of each dim beside rocMLIR's. Exit status 1 "
                    "when there are findings or rocMLIR's answer is unsound.")
    show.add_argument("file", type=Path, help="an .mlir file")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    try:
        report = _show(args.file)
    except (OSError, UnicodeDecodeError) as e:
        print(f"viewalgebra: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    except ViewAlgebraError as e:
        print(f"viewalgebra: {args.file}:{e}", file=sys.stderr)
        return 2
    try:
        print(json.dumps(report, indent=2) if args.json else _render(report))
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    has_findings = any(item["findings"] for item in report["maps"] + report["views"]) or any(
        vec["verdict"] == "rocMLIR unsound" for v in report["views"] for vec in v["vectors"])
    return 1 if has_findings else 0


def _findings(found: Sequence[Any]) -> list[dict[str, Any]]:
    return [{"code": f.code, "message": f.message, "map_index": f.map_index,
             "point": list(f.point) if f.point is not None else None} for f in found]


def _show(path: Path) -> dict[str, Any]:
    text = path.read_text()
    maps: list[dict[str, Any]] = []
    for m in parse_mlir_transform_maps(text):
        if m.map is None:  # only with errors="collect"
            continue
        usable = not any(f.code == "unusable" for f in lint(m.map))
        maps.append({
            "name": m.name, "form": m.form, "line": m.line, "column": m.column,
            "text": print_map(m.map, affine_map=None if usable else m.written),
            "upper_bounds": list(m.map.upper_bounds), "lower_bounds": list(m.map.lower_bounds),
            "formulas": _formulas(m.map) if usable else [],
            "findings": _findings(lint(m)),
            "inverse": _inverse(m.map) if usable else None,
        })
    views: list[dict[str, Any]] = []
    for v in parse_mlir_views(text):
        if v.view is None:
            raise v.error or ViewAlgebraError(f"{v.line}:{v.column}: cannot build view {v.name}")
        findings = lint(v.view)
        usable = not any(f.code == "unusable" for f in findings)
        views.append({
            "name": v.name, "line": v.line, "column": v.column,
            "buffer": str(v.view.buffer), "shape": list(v.view.shape),
            "maps": len(v.view.maps), "findings": _findings(findings),
            "address": None if not usable else format_formulas(sympy_formulas(
                v.view, upper=dim_names(v.view.maps[0], "upper") if v.view.maps else None))[0],
            "vectors": [_vectors(v.view, d) for d in range(v.view.rank)] if usable else [],
        })
    return {"file": str(path), "maps": maps, "views": views}


def _formulas(maps: TransformMap | tuple[TransformMap, ...]) -> list[str]:
    """One sympy equation per lower dim, in rocMLIR's names where they are identifiers."""
    chain = (maps,) if isinstance(maps, TransformMap) else maps
    eqs = sympy_formulas(chain, upper=dim_names(chain[0], "upper"), lower=dim_names(chain[-1], "lower"))
    return list(format_formulas(eqs))


def _inverse(tm: TransformMap) -> dict[str, Any]:
    ours, theirs = invert(tm), rocmlir_invert(tm)
    return {
        "kind": ours.kind,
        "maps": None if ours.maps is None else [print_map(m) for m in ours.maps],
        "formulas": None if ours.maps is None else _formulas(ours.maps),
        "certified": ours.certificate is not None and ours.certificate.ok,
        "reason": ours.reason,
        "witness": None if ours.witness is None else [list(p) for p in ours.witness],
        "uncovered": None if ours.uncovered is None else str(ours.uncovered),
        "rocmlir": None if theirs.maps is None else [print_map(m) for m in theirs.maps],
        "rocmlir_reason": theirs.reason,
    }


def _vectors(view: Any, dim: int) -> dict[str, Any]:
    c = compare_vector_lengths(view, dim)
    w = c.exact.witness
    return {"dim": dim, "size": view.shape[dim], "exact": c.exact.length, "legal": list(c.exact.legal),
            "rocmlir": c.rocmlir, "verdict": c.verdict, "witness": None if w is None else str(w)}


def _render(report: dict[str, Any]) -> str:
    out: list[str] = []
    for m in report["maps"]:
        title = f"#{m['name']}" if m["name"] else f"{m['form']} map"
        out.append(f"{title} (line {m['line']}): {m['upper_bounds']} -> {m['lower_bounds']}")
        out.append(f"  {m['text']}")
        out.extend(f"    {f}" for f in m["formulas"])
        out.extend(_render_findings(m["findings"]))
        if m["inverse"] is not None:
            out.extend(_render_inverse(m["inverse"]))
    for v in report["views"]:
        out.append(f"view {v['name']} (line {v['line']}): {v['buffer']} through {v['maps']} "
                   f"map(s), shape {v['shape']}")
        out.extend(_render_findings(v["findings"]))
        if v["address"]:
            out.append(f"  {v['address']}")
        for vec in v["vectors"]:
            out.append(f"  vector length along dim {vec['dim']} (size {vec['size']}): exact "
                       f"{vec['exact']}, rocMLIR {vec['rocmlir']}: {vec['verdict']}")
            if vec["witness"]:
                out.append(f"    next candidate {vec['witness']}")
    if not out:
        out.append(f"{report['file']}: no transform maps")
    return "\n".join(out)


def _render_inverse(inv: dict[str, Any]) -> list[str]:
    rocmlir = ("rocMLIR: inverts it the same way" if inv["maps"] and inv["rocmlir"] == inv["maps"] else
               f"rocMLIR: {'; '.join(inv['rocmlir'])}" if inv["rocmlir"] else
               f"rocMLIR: fails ({inv['rocmlir_reason']})")
    if inv["kind"] == "not-injective":
        u, v = inv["witness"]
        return [f"  inverse: none, not injective: {u} and {v} share an image", f"  {rocmlir}"]
    lines = [f"  inverse: {inv['kind']}" + (f", no preimage for {inv['uncovered']}"
                                            if inv["uncovered"] else "")]
    if inv["maps"] is None:
        lines.append(f"    exact relation only: {inv['reason']}")
    else:
        lines.extend(f"    {text}" for text in inv["maps"])
        lines.extend(f"      {e}" for e in inv["formulas"])
        lines.append("    certified by ISL: inverse(map(u)) = u and map(inverse(y)) = y")
    return [*lines, f"  {rocmlir}"]


def _render_findings(found: list[dict[str, Any]]) -> list[str]:
    if not found:
        return ["  lint: clean"]
    return [f"  lint: {f['code']}: " + ("" if f["map_index"] is None else f"map {f['map_index']}: ")
            + f["message"] for f in found]


if __name__ == "__main__":
    sys.exit(main())
