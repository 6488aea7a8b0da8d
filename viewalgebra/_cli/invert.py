"""``viewalgebra invert``: the certified inverse of every map beside rocMLIR's, or with
``--view`` of that view's whole chain."""

from __future__ import annotations

import argparse

from .._maps.lint import Finding
from .._maps.syntax import ParsedMap
from .._maps.view import View
from .entries import inverse, lint_of, map_fields, unusable, unusable_error, view_fields
from .stream import Command, Entry, run_report


class Invert(Command):
    name = "invert"

    @property
    def reports_maps(self) -> bool:
        return self.chosen is None

    def map_entry(self, label: str, m: ParsedMap) -> Entry | None:
        if m.map is None or self.chosen is not None:
            return None
        bad = unusable(lint_of(m.map))
        entry = map_fields(m, m.map, bad is None)
        if bad is not None:  # what it cannot do, and why
            entry["error"] = unusable_error(bad, label, m.line, f"map {m.name or m.form}: ")
        entry["inverse"] = inverse(m.map) if bad is None else None
        return entry

    def view_entry(self, label: str, name: str, view: View, line: int,
                   typed: tuple[Finding, ...]) -> Entry | None:
        if self.chosen is None:
            return None
        bad = unusable(lint_of(view))
        entry = view_fields(name, view, line)
        if bad is not None:
            entry["error"] = unusable_error(bad, label, line, f"view {name}: ")
        entry["inverse"] = inverse(view.maps) if bad is None and view.maps else None
        return entry


def run(args: argparse.Namespace) -> int:
    return run_report(args, Invert(args))
