"""The reports of ``check``, ``show``, ``invert`` and ``vectorize``: each file read a part at a
time (``text_parts``: whole top-level items of about 1 MB) by the lenient scan
(``viewalgebra/_mlir/scan.py``), each part's maps and views answered and written before the next
part is read.

A file is judged as it would be whole, a part at a time: the first map that is not rocMLIR
syntax is bad input (unless the file is a verifier test, with ``expected-error`` comments), then
the first view that cannot be built (a view over a buffer of a dynamic size is not analysed:
a located note on stderr says so, and the file's other views are), then the first statement
that is not MLIR (which stops the scan); at the file's end, what the file lacks (no map or view
at all, ``--view`` not found). A file of one part (up to 1 MB) is judged before anything of it
is written, so its output is the whole file's; a larger file found bad in a later part ends its
report with the error (docs/cli.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .._maps.buffer import Buffer
from .._maps.lint import Finding
from .._maps.syntax import ParsedMap, read_transform_map
from .._maps.view import View
from .._mlir.scan import ParsedView, Scanner
from ..errors import InvalidTransformError, MlirParseError, TransformParseError, ViewAlgebraError
from .errors import InputError, bad_input, error_object
from .inputs import Input, inputs
from .output import Differences, FileReport, Layout, Output

Entry = dict[str, Any]

NAMES = 50
"""View names an error lists at most (``--view`` not found)."""


class Command:
    """What one report command answers for each map and view (``check.py``, ``show.py``,
    ``invert.py``, ``vectorize.py``)."""

    name = ""
    summarizes = False
    skips_broken_views = False
    """``check``: a view that cannot be built is left out when a map of the file is rejected
    (the map's finding says why); otherwise it is bad input."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args

    @property
    def chosen(self) -> str | None:
        """``--view``: the name or line of the only views to report."""
        view: str | None = getattr(self.args, "view", None)
        return view

    @property
    def reports_maps(self) -> bool:
        return True

    def head(self) -> Differences | None:
        """``check``: the lines of its text's head, for each entry."""
        return None

    def start(self) -> None:
        """A file begins."""

    def added(self, maps: list[Entry], views: list[Entry]) -> None:
        """A part's entries were written."""

    def summary(self) -> Entry | None:
        """``check``: the verdicts of the entries written so far."""
        return None

    def map_entry(self, label: str, m: ParsedMap) -> Entry | None:
        return None

    def view_entry(self, label: str, name: str, view: View, line: int,
                   typed: tuple[Finding, ...]) -> Entry | None:
        return None

    def nothing(self, source: Input, maps: int, views: int, noted: int) -> str | None:
        """What a file that holds nothing for the command says (a success: only comments, or
        only ops that make no view), or ``None``; ``InputError`` for a file that lacks what the
        command answers, or that is not MLIR. ``noted``: views not analysed (a dynamic size)."""
        if maps or views or noted:
            return None
        if source.path is not None and source.reads_as_mlir():
            return f"0 views and 0 maps, nothing to {self.name}"
        raise InputError("holds no transform map or view and no function", file=source.label)

    def finish(self, source: Input, report: FileReport, roots: bool) -> None:
        """End a file's report (``roots``: the scan saw a fusion-root op)."""
        report.finish(self.summary())


def run_report(args: argparse.Namespace, command: Command) -> int:
    """Report on every input of ``args``; the exit status."""
    try:
        sources = inputs(args.input, args.command, getattr(args, "recursive", False))
    except InputError as e:
        return bad_input(args, e)
    layout = Layout(json=args.json, many=len(sources) > 1, summary=command.summarizes,
                    views_wait=command.reports_maps, differences=None if args.json else command.head())
    output = Output(layout, sys.stdout.write)
    for i, source in enumerate(sources, start=1):
        if len(sources) > 1:
            print(f"[{i}/{len(sources)}] {source.label}", file=sys.stderr)
        report = output.report(source.label)
        try:
            FileRun(command, source, report).run()
        except InputError as e:
            print(f"viewalgebra: {e}", file=sys.stderr)
            error = error_object(e)
            report.fail(error, command.summary())
            output.failed(error)
    output.close()
    return output.status()


@dataclass
class Batch:
    """What one part of a file holds."""

    maps: list[ParsedMap] = field(default_factory=list[ParsedMap])
    views: list[ParsedView] = field(default_factory=list[ParsedView])
    stop: TransformParseError | None = None
    """The statement that stopped the scan (not MLIR)."""
    last: bool = True


class FileRun:
    """One file reported a part at a time."""

    def __init__(self, command: Command, source: Input, report: FileReport) -> None:
        self.command, self.source, self.report = command, source, report
        self.label = source.label
        self.maps = self.views = self.noted = 0
        """Maps read, views built, views not analysed (a dynamic size) so far."""
        self.broken = False
        """A map of the file was rejected."""
        self.pending: ParsedView | None = None
        """``check``: the first view that cannot be built, while no map is rejected."""
        self.names: dict[str, None] = {}
        """The first ``NAMES`` view names (``--view`` not found)."""
        self.more_names = False
        self.found = False
        """A view ``--view`` names was read."""
        self.unanalysed: ParsedView | None = None
        """The first view ``--view`` names that is not analysed (a dynamic size)."""
        self.expected: bool | None = None
        self.scanner = Scanner(unreadable="raise")

    def run(self) -> None:
        self.command.start()
        try:
            for batch in self._batches():
                self._batch(batch)
            self.command.finish(self.source, self.report, self.scanner.roots)
        except TransformParseError as e:
            raise InputError(e.reason, file=self.label, line=e.line, column=e.column) from e
        except ViewAlgebraError as e:
            raise InputError(str(e), file=self.label) from e

    def _batches(self) -> Iterator[Batch]:
        if self.source.path is None:  # a map given as text
            yield self._map_batch()
            return
        empty = True
        for text, first_line, last in self.source.marked_parts():
            empty = False
            batch = Batch(last=last)  # known before the part is judged: the file's end is judged with it
            try:
                for item in self.scanner.part(text, first_line):
                    if isinstance(item, ParsedMap):
                        batch.maps.append(item)
                    else:
                        batch.views.append(item)
                if batch.last:
                    batch.views.extend(self.scanner.end())
            except TransformParseError as e:
                batch.stop, batch.last = e, True
            yield batch
            if batch.stop:
                return
        if empty:
            yield Batch()

    def _map_batch(self) -> Batch:
        m = read_transform_map(self.source.text, strict=False)
        views: list[ParsedView] = []
        if m.map is not None:
            view = View(Buffer(m.map.lower_bounds, self.command.args.dtype), (m.map,), strict=False)
            views.append(ParsedView("map", view, 1, 1))
        return Batch([m], views)

    def _expected_errors(self) -> bool:
        """A verifier test: its ``expected-error`` comments say which maps are bad."""
        if self.expected is None:
            self.expected = self.source.contains("expected-error")
        return self.expected

    def _batch(self, batch: Batch) -> None:
        for m in batch.maps:  # text that is not rocMLIR syntax is bad input
            if isinstance(m.error, TransformParseError) and not self._expected_errors():
                raise m.error
        self.maps += len(batch.maps)
        self.broken = self.broken or any(m.map is None for m in batch.maps)
        if self.broken:
            self.pending = None
        views: list[tuple[str, View, int, tuple[Finding, ...]]] = []
        for v in batch.views:
            if v.note:  # valid MLIR this library does not analyse: said, and the file goes on
                self.noted += 1
                if self.command.chosen in (v.name, str(v.line)) and self.unanalysed is None:
                    self.unanalysed = v  # said at the end: the error if no other view is chosen
                else:
                    print(f"viewalgebra: {self._not_analysed(v)}", file=sys.stderr)
            elif v.view is not None:
                views.append((v.name, v.view, v.line, v.findings))
            elif not self.command.skips_broken_views:
                raise unbuilt(v)
            elif not self.broken and self.pending is None:
                self.pending = v
        self._names(views)
        if batch.stop is not None:
            stop = batch.stop
            if not self.maps and not self.views:
                reason = f"holds no transform map or view: {stop.reason}"
                stop = MlirParseError(reason, stop.text, stop.offset)
            raise stop
        if batch.last:
            if self.pending is not None:
                raise unbuilt(self.pending)
            nothing = self.command.nothing(self.source, self.maps, self.views, self.noted)
            chosen = self.command.chosen
            if self.unanalysed is not None and not self.found:
                v = self.unanalysed
                raise InputError(f"view {v.name}: not analysed: {v.note}", file=self.label, line=v.line,
                                 column=v.column)
            if self.unanalysed is not None:
                print(f"viewalgebra: {self._not_analysed(self.unanalysed)}", file=sys.stderr)
            if chosen is not None and not self.found:
                names = ", ".join(self.names) + (", ..." if self.more_names else "") or "none"
                raise InputError(f"no view {chosen} (names: {names}; or give the view's line)",
                                 file=self.label)
            if nothing is not None:
                self.report.nothing = nothing
        chosen = self.command.chosen
        maps = [e for m in batch.maps if (e := self.command.map_entry(self.label, m)) is not None]
        entries = [e for name, view, line, typed in views if chosen in (None, name, str(line))
                   and (e := self.command.view_entry(self.label, name, view, line, typed)) is not None]
        self.report.add(maps, entries)
        self.command.added(maps, entries)

    def _not_analysed(self, v: ParsedView) -> str:
        return f"{self.label}:{v.line}:{v.column}: view {v.name}: not analysed: {v.note}"

    def _names(self, views: list[tuple[str, View, int, tuple[Finding, ...]]]) -> None:
        chosen = self.command.chosen
        self.views += len(views)
        for name, _, line, _ in views:
            self.found = self.found or chosen in (name, str(line))
            if len(self.names) < NAMES:
                self.names[name] = None
            elif name not in self.names:
                self.more_names = True


def unbuilt(v: ParsedView) -> ViewAlgebraError:
    return v.error or InvalidTransformError(f"{v.line}:{v.column}: cannot build view {v.name}")
