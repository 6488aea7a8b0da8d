"""The text output: the lines of each entry of a report (a map, a view, a kernel's access) and
of a summary, from the entries the JSON output writes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast


def map_lines(m: dict[str, Any]) -> list[str]:
    title = f"#{m['name']}" if m["name"] else f"{m['form']} map"
    if m["text"] is None:
        out = [f"{title} (line {m['line']}): rejected"]
    else:
        out = [f"{title} (line {m['line']}): {m['upper_bounds']} -> {m['lower_bounds']}", f"  {m['text']}"]
    if "error" in m:
        out.append(f"  cannot answer: {m['error']['reason']}")
    out.extend(f"    {f}" for f in m.get("formulas", []))
    if m.get("moves"):
        out.append(f"    dims moved: {', '.join(m['moves'])}")
    if "findings" in m:
        out.extend(findings_lines(m["findings"]))
    if m.get("inverse") is not None:
        out.extend(inverse_lines(m["inverse"]))
    return out


def view_lines(v: dict[str, Any]) -> list[str]:
    out = [f"view {v['name']} (line {v['line']}): {v['buffer']} through {v['maps']} map(s), "
           f"shape {v['shape']}"]
    if "error" in v:
        out.append(f"  cannot answer: {v['error']['reason']}")
    if "findings" in v:
        out.extend(findings_lines(v["findings"]))
    if v.get("address"):
        out.append(f"  {v['address']}")
    if v.get("inverse") is not None:
        out.extend(inverse_lines(v["inverse"]))
    for vec in v.get("vectors", []):
        out.append(f"  vector length along dim {vec['dim']} (size {vec['size']}): exact "
                   f"{vec['exact']}, rocMLIR {vec['rocmlir']}: {vec['verdict']}")
        if vec["witness"]:
            out.append(f"    next candidate {vec['witness']['text']}")
        if "with_options" in vec:
            opt = vec["with_options"]
            cap = f" (cap {opt['cap']})" if opt["cap"] else ""
            out.append(f"    with the options{cap}: {opt['length']}, legal {opt['legal']}")
    out.extend(utility_lines(v))
    return out


def kernel_line(k: dict[str, Any]) -> str:
    if "error" in k and "op" not in k:
        return f"kernel @{k['function']}: cannot regularize: {k['error']['reason']}"
    if "error" in k:
        return (f"kernel @{k['function']}: {k['op']} {k['access']} of {k['shape']}: cannot follow the "
                f"fused ops ({k['error']['reason']})")
    return (f"kernel @{k['function']}: {k['op']} {k['access']} of {k['shape']} reaches %{k['argument']}: "
            f"exact vector lengths {k['lengths']}")


def utility_lines(v: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if "simplified" in v:
        s = v["simplified"]
        shorter = (f"{v['maps']} map(s) -> {s['maps']} over {s['buffer']}, certified by ISL ("
                   + "; ".join(s["log"]) + ")" if s["log"] else "already as short as it gets")
        collapse = (f"rocMLIR unsound: its collapse ({', '.join(s['rocmlir_collapsed'])}) moves valid point "
                    f"{s['witness']} from address {s['addresses'][0]} to {s['addresses'][1]}"
                    if s["witness"] is not None else s["verdict"])
        lines.append(f"  simplify: {shorter}; rocMLIR's collapse of contiguous merges: {collapse}")
        lines.extend(f"    {m}" for m in s["chain"])
    if "validity" in v:
        c = v["validity"]
        detail = [f"{u['value']} at {u['point']} leaves [0, {u['bound']}) of map {u['map']}, lower dim "
                  f"{u['dim']}, unchecked" for u in c["unchecked"]]
        detail += [f"view dim {d} decides validity but rocMLIR's rule does not name it"
                   for d in c["missed_dims"]]
        detail += [f"its check of map {n['map']}, lower dim {n['dim']} (bound {n['bound']}) {n['kind']}"
                   + ("" if n["kind"] == "never fails" else " by the others") for n in c["needless"]]
        lines.append(f"  validity checks: {c['verdict']}" + (": " + "; ".join(detail) if detail else ""))
    if "index_width" in v:
        w = v["index_width"]
        exact = (f"exact 64-bit ({w['reason']} at {w['witness']})" if w["needs_64bit"] else "exact 32-bit")
        lines.append(f"  index width: {exact}, rocMLIR {'64' if w['rocmlir'] else '32'}-bit: {w['verdict']}")
    return lines


def inverse_lines(inv: dict[str, Any]) -> list[str]:
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


def findings_lines(found: list[dict[str, Any]]) -> list[str]:
    if not found:
        return ["  lint: clean"]
    return [f"  lint: {finding_text(f)}" for f in found]


def finding_text(f: dict[str, Any]) -> str:
    """One lint finding: its code, its map, its message."""
    return f"{f['code']}: " + ("" if f["map_index"] is None else f"map {f['map_index']}: ") + f["message"]


def summary_line(s: dict[str, Any], title: str = "summary") -> str:
    def counts(c: dict[str, int]) -> str:
        return ", ".join(f"{n} {verdict}" for verdict, n in c.items())

    return (f"{title}: {s['views']} view(s), {s['dims']} dim(s); "
            f"vector lengths: {counts(s['vector_lengths'])}; "
            f"validity checks: {counts(s['validity'])}; index width: {counts(s['index_width'])}; "
            f"collapse: {counts(s['collapse'])}; {s['simplified']} view(s) simplify; {s['maps']} map(s), "
            f"{s['inverses']} with a certified inverse, {s['inverses_rocmlir_cannot_find']} of them rocMLIR "
            f"cannot find; {s.get('lint_findings', 0)} lint finding(s)")


def total(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Summaries added up."""
    out: dict[str, Any] = {}
    for s in summaries:
        for key, value in s.items():
            if isinstance(value, dict):
                counts = cast("dict[str, int]", value)
                inner = out.setdefault(key, {})
                for verdict, n in counts.items():
                    inner[verdict] = inner.get(verdict, 0) + n
            else:
                out[key] = out.get(key, 0) + value
    return out
