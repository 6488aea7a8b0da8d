"""``viewalgebra show``: the formulas of every map (one per lower dim) and the address formula
of every view."""

from __future__ import annotations

import argparse

from .._maps.lint import Finding
from .._maps.syntax import ParsedMap
from .._maps.view import View
from .entries import address, formulas, lint_of, map_fields, moves, unusable, unusable_error, view_fields
from .stream import Command, Entry, run_report


class Show(Command):
    name = "show"

    def map_entry(self, label: str, m: ParsedMap) -> Entry | None:
        if m.map is None:
            return None
        bad = unusable(lint_of(m.map))
        entry = map_fields(m, m.map, bad is None)
        if bad is not None:  # what it cannot do, and why
            entry["error"] = unusable_error(bad, label, m.line, f"map {m.name or m.form}: ")
        entry["formulas"] = formulas(m.map) if bad is None else []
        if bad is None and (moved := moves(m.map)):
            entry["moves"] = moved
        return entry

    def view_entry(self, label: str, name: str, view: View, line: int,
                   typed: tuple[Finding, ...]) -> Entry | None:
        bad = unusable(lint_of(view))
        entry = view_fields(name, view, line)
        if bad is not None:
            entry["error"] = unusable_error(bad, label, line, f"view {name}: ")
        entry["address"] = None if bad is not None else address(view)
        return entry


def run(args: argparse.Namespace) -> int:
    return run_report(args, Show(args))
