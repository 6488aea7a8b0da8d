"""``viewalgebra check``: every map and view of an ``.mlir`` file (or of each file of a
directory): lint, formulas, the certified inverse, the exact vector length of every dim and the
exact counterparts of rocMLIR's utilities, each beside rocMLIR's answer; each kernel's loads and
stores followed through its fused ops; a summary counting every verdict.

The text starts with every answer of rocMLIR's rules that differs from the exact one, so it is
written when the file has been read (memory stays bounded: the rest waits in spools)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from .._analyses.vectorize import max_vector_length
from .._maps.lint import Finding
from .._maps.syntax import ParsedMap
from .._maps.view import View
from ..errors import ViewAlgebraError
from .entries import (
    address,
    findings,
    formulas,
    inverse,
    lint_of,
    map_fields,
    map_lint,
    moves,
    unusable,
    utilities,
    vectors,
    view_fields,
)
from .errors import error_object
from .inputs import Input
from .output import Differences, FileReport
from .stream import Command, Entry, run_report

VERDICTS = ("equal", "rocMLIR conservative", "rocMLIR unsound")


class Check(Command):
    name = "check"
    summarizes = True
    skips_broken_views = True

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        self.tally = Tally()

    def start(self) -> None:
        self.tally = Tally()

    def summary(self) -> Entry | None:
        return self.tally.summary()

    def map_entry(self, label: str, m: ParsedMap) -> Entry | None:
        if m.map is None:  # a map rocMLIR's parser or verifier rejects: where and why
            entry: Entry = {"name": m.name, "form": m.form, "line": m.line, "column": m.column, "text": None,
                            "findings": findings(map_lint(m))}
        else:
            usable = unusable(lint_of(m.map)) is None
            entry = map_fields(m, m.map, usable)
            entry["formulas"] = formulas(m.map) if usable else []
            if usable and (moved := moves(m.map)):
                entry["moves"] = moved
            entry["findings"] = findings(map_lint(m))
            entry["inverse"] = inverse(m.map) if usable else None
        return entry

    def view_entry(self, label: str, name: str, view: View, line: int,
                   typed: tuple[Finding, ...]) -> Entry | None:
        found = lint_of(view) + typed  # the written types: what lint of the view cannot see
        usable = unusable(found) is None
        entry = view_fields(name, view, line)
        entry["findings"] = findings(found)
        entry["address"] = address(view) if usable else None
        entry["vectors"] = [vectors(view, d) for d in range(view.rank)] if usable else []
        if usable:
            entry |= utilities(view)
        return entry

    def added(self, maps: list[Entry], views: list[Entry]) -> None:
        for entry in maps:
            self.tally.map(entry)
        for entry in views:
            self.tally.view(entry)

    def finish(self, source: Input, report: FileReport, roots: bool) -> None:
        if source.path is not None:
            report.begin_kernels()
            try:
                for entry in _kernels(source) if roots else ():
                    report.kernel(entry)
            except ViewAlgebraError:
                report.drop_kernels()  # not a file of kernels; the maps and views say what is wrong
        report.finish(self.summary())

    def head(self) -> Differences | None:
        return differences


def run(args: argparse.Namespace) -> int:
    return run_report(args, Check(args))


class Tally:
    """How many of each verdict a file's views and maps got, counted as they come."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {
            k: dict.fromkeys(VERDICTS, 0) for k in ("vector_lengths", "validity", "index_width", "collapse")}
        self.views = self.dims = self.simplified = self.maps = self.inverses = self.cannot = 0
        self.lint = 0

    def map(self, entry: Entry) -> None:
        self.maps += 1
        self.lint += len(entry.get("findings", []))
        inv = entry.get("inverse")
        if inv and inv["maps"]:
            self.inverses += 1
            self.cannot += not inv["rocmlir"]

    def view(self, entry: Entry) -> None:
        self.views += 1
        self.lint += len(entry.get("findings", []))
        for vec in entry.get("vectors", []):
            self.dims += 1
            self.counts["vector_lengths"][vec["verdict"]] += 1
        for key, counted in (("validity", "validity"), ("index_width", "index_width"),
                             ("simplified", "collapse")):
            if key in entry:
                self.counts[counted][entry[key]["verdict"]] += 1
        self.simplified += bool(entry.get("simplified", {}).get("log"))

    def summary(self) -> dict[str, Any]:
        return {"views": self.views, "dims": self.dims, "vector_lengths": self.counts["vector_lengths"],
                "validity": self.counts["validity"], "index_width": self.counts["index_width"],
                "collapse": self.counts["collapse"], "simplified": self.simplified, "maps": self.maps,
                "inverses": self.inverses, "inverses_rocmlir_cannot_find": self.cannot,
                "lint_findings": self.lint}


def differences(kind: str, entry: Entry) -> list[tuple[int, str]]:
    """The head lines of one map or view: every answer of rocMLIR's rules that differs from the
    exact one, with the evidence, ranked: unsound answers (0), conservative ones (1), a collapse
    (one more), what rocMLIR cannot answer at all (3)."""
    def rank(verdict: str) -> int:
        return 0 if verdict == "rocMLIR unsound" else 1

    found: list[tuple[int, str]] = []
    if kind == "map":
        inv = entry.get("inverse")
        if inv and inv["maps"] and not inv["rocmlir"]:
            title = f"#{entry['name']}" if entry["name"] else f"{entry['form']} map"
            found.append((3, f"  {title} (line {entry['line']}): rocMLIR cannot invert it "
                             f"({inv['rocmlir_reason']}); the exact inverse is {inv['kind']}, "
                             "certified by ISL"))
        return found
    where = f"  view {entry['name']} (line {entry['line']})"
    for vec in entry.get("vectors", []):
        if vec["verdict"] != "equal":
            why = f"; {vec['witness']['text']}" if vec["witness"] else ""
            found.append((rank(vec["verdict"]), f"{where}, dim {vec['dim']}: vector length exact "
                          f"{vec['exact']}, rocMLIR {vec['rocmlir']}: {vec['verdict']}{why}"))
    c = entry.get("validity")
    if c and c["verdict"] != "equal":
        first = (f"{c['unchecked'][0]['value']} at {c['unchecked'][0]['point']} leaves [0, "
                 f"{c['unchecked'][0]['bound']}) unchecked" if c["unchecked"] else
                 f"its check of map {c['needless'][0]['map']}, lower dim {c['needless'][0]['dim']} "
                 f"{c['needless'][0]['kind']}" if c["needless"] else "a dim its rule does not name")
        found.append((rank(c["verdict"]), f"{where}: validity checks {c['verdict']}: {first}"))
    w = entry.get("index_width")
    if w and w["verdict"] != "equal":
        bits = "64" if w["needs_64bit"] else "32"
        found.append((rank(w["verdict"]), f"{where}: index width {w['verdict']}: exact {bits}-bit, "
                      f"rocMLIR {'64' if w['rocmlir'] else '32'}-bit"))
    s = entry.get("simplified")
    if s and s["verdict"] != "equal":
        found.append((rank(s["verdict"]) + 1, f"{where}: collapse of contiguous merges {s['verdict']}: "
                      + (f"valid point {s['witness']} moves from address {s['addresses'][0]} to "
                         f"{s['addresses'][1]}" if s["witness"] is not None else
                         f"simplify leaves {s['maps']} map(s) over {s['buffer']}")))
    return found


def _kernels(source: Input) -> Iterator[Entry]:
    """Every load and store of each fusion root, followed through the fused ops to the function
    arguments after ``regularize`` (seed style), with the exact vector length of every dim; the
    file read again a part at a time by the strict reader."""
    from .._kernel.graph import FUSION_ROOTS
    from .._mlir import MlirFunction, Unreadable, iter_mlir_parts
    from .._regularize import regularize

    for f in iter_mlir_parts(source.parts(), errors="collect"):
        if isinstance(f, Unreadable) and any(root in f.text for root in FUSION_ROOTS):
            # a function the reader cannot read stops only itself: said where, the rest goes on
            error = error_object(f.error, file=source.label)
            where = ":".join(str(error[k]) for k in ("file", "line", "column") if error[k] is not None)
            print(f"viewalgebra: {where}: kernel @{f.name} not read (left out of the kernels): "
                  f"{error['reason']}", file=sys.stderr)
        if not isinstance(f, MlirFunction) or not any(op.root for op in f.kernel.ops):
            continue
        try:
            k = regularize(f.kernel).kernel
        except ViewAlgebraError as e:
            yield {"function": f.name, "error": error_object(e, file=source.label)}
            continue
        for op in (op for op in k.ops if op.root):
            for role, operands in (("load", op.reads), ("store", op.writes)):
                for operand in operands:
                    entry: Entry = {"function": f.name, "op": op.kind, "access": role,
                                    "shape": list(k.shape(operand))}
                    try:
                        for argument, view in k.fused_views(op, operand):
                            yield entry | {"argument": argument, "lengths": [
                                max_vector_length(view, d).length for d in range(view.rank)]}
                    except ViewAlgebraError as e:
                        yield entry | {"error": error_object(e, file=source.label)}
