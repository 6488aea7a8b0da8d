"""``viewalgebra vectorize``: the exact vector length along one dim of every view beside
rocMLIR's, with the options applied."""

from __future__ import annotations

import argparse

from .._maps.lint import Finding
from .._maps.view import View
from ..errors import ViewAlgebraError
from .entries import lint_of, unusable, unusable_error, vectors, view_fields
from .errors import InputError, bad_input, error_object
from .inputs import Input
from .stream import Command, Entry, run_report


class Vectorize(Command):
    name = "vectorize"

    @property
    def reports_maps(self) -> bool:
        return False

    def view_entry(self, label: str, name: str, view: View, line: int,
                   typed: tuple[Finding, ...]) -> Entry | None:
        bad = unusable(lint_of(view))
        entry = view_fields(name, view, line)
        if bad is not None:
            entry["error"] = unusable_error(bad, label, line, f"view {name}: ")
        try:  # one view's bad dim or length is that view's error, not the file's
            entry["vectors"] = [vectors(view, self.args.dim, self.args)] if bad is None else []
        except ViewAlgebraError as e:
            entry["vectors"] = []
            entry["error"] = error_object(e, file=label, line=line, what=f"view {name}: ")
        return entry

    def nothing(self, source: Input, maps: int, views: int, noted: int) -> str | None:
        if not views and noted:  # each said on stderr
            return f"{noted} view(s) not analysed and no other view, nothing to vectorize"
        if not views and maps:
            raise InputError(f"holds {maps} transform map(s) but no view (a chain of rock.transform ops on a "
                             "value) to vectorize; give one map as text to see it over a row-major buffer",
                             file=source.label)
        return super().nothing(source, maps, views, noted)


def run(args: argparse.Namespace) -> int:
    # An option no view can answer is bad input, one line; a dim beyond one view's rank is that
    # view's error.
    if args.dim < 0:
        return bad_input(args, InputError(f"--dim {args.dim}: a dim is numbered from 0"))
    if args.length is not None and args.length < 1:
        return bad_input(args, InputError(f"--length {args.length}: a run length is at least 1"))
    return run_report(args, Vectorize(args))
