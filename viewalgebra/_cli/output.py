"""Where the reports of ``check``, ``show``, ``invert`` and ``vectorize`` go, written as they
are made: text, or one JSON document (docs/cli.md).

A report is written a part of its file at a time. What must come first but is only known at
the end waits in a spool (``jsonout.Spool``: memory, then a temporary file): the views of a
report that also lists maps (maps come first), and everything of ``check``'s text, whose first
lines are the differences of the whole file. A file found bad after some of its report was
written ends that report with its error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InternalError
from .jsonout import JsonWriter, ListSpool, Spool
from .render import finding_text, kernel_line, map_lines, summary_line, total, view_lines

Entry = dict[str, Any]
Differences = Callable[[str, Entry], list[tuple[int, str]]]
"""``check``'s lines of one entry (``"map"`` or ``"view"``) for the head of its text, each with
its rank (the head lists rank 0 first)."""

RANKS = 4


@dataclass(frozen=True, slots=True)
class Layout:
    """What a command's output holds."""

    json: bool
    many: bool
    """Several files (a directory): one document or text for all, with a total for ``check``."""
    summary: bool
    """``check``: a summary per file, a total for a directory."""
    views_wait: bool
    """The command lists maps: its views come after them, so they wait until the file is read."""
    differences: Differences | None = None
    """``check``'s text: the differences first, so the whole text waits for the file's end."""


class Output:
    """The output of one run: its reports, its errors, and what decides the exit status."""

    def __init__(self, layout: Layout, write: Callable[[str], object]) -> None:
        self.layout = layout
        self.write = write
        self.json = JsonWriter(write)
        self.errors: list[Entry] = []
        self.summaries: Entry = {}
        self.finished = 0
        """Reports written whole."""
        self.started = 0
        """JSON reports begun."""
        self.texts = 0
        """Reports that wrote text (a blank line comes before the next one)."""
        self.findings = False
        self.item_errors = False
        self._files_open = False

    def report(self, label: str) -> FileReport:
        return JsonReport(self, label) if self.layout.json else TextReport(self, label)

    def failed(self, error: Entry) -> None:
        """A file that could not be read (its report, if begun, ends with the error)."""
        self.errors.append(error)

    def files(self) -> None:
        """Open a directory's document before its first report."""
        if self.layout.many and not self._files_open:
            self.json.open("{")
            self.json.open("[", "files")
            self._files_open = True

    def close(self) -> None:
        if self.layout.json and self.layout.many:
            self.files()
            self.json.close("]")
            self.json.value(self.errors, "errors")
            if self.layout.summary:
                self.json.value(self.summaries, "summary")
            self.json.close("}")
        elif self.layout.json and self.errors and not self.started:
            self.json.value({"error": self.errors[0]})
            self.write("\n")
        elif self.layout.many and self.layout.summary and self.finished > 1:
            self.write(summary_line(self.summaries, "total") + "\n")

    def status(self) -> int:
        if self.errors or self.item_errors:
            return 2
        return 1 if self.findings else 0

    def entries(self, maps: list[Entry], views: list[Entry]) -> None:
        """What the entries of a part add to the exit status; their errors, on stderr too."""
        for item in (*maps, *views):
            if "error" in item:
                self.item_errors = True
                print(f"viewalgebra: {item['error']['message']}", file=sys.stderr)
            self.findings = self.findings or bool(item.get("findings")) or any(
                answer["verdict"] == "rocMLIR unsound"
                for answer in [*item.get("vectors", []), *(item[k] for k in _UTILITIES if k in item)])


_UTILITIES = ("simplified", "validity", "index_width")
"""The per-view answers of ``check`` beside rocMLIR's transform-map utilities."""


def _title(kind: str, entry: Entry) -> str:
    """How ``check``'s text names a map or a view."""
    if kind == "view":
        return f"view {entry['name']} (line {entry['line']})"
    name = f"#{entry['name']}" if entry["name"] else f"{entry['form']} map"
    return f"{name} (line {entry['line']})"


class FileReport:
    """One file's report, given a part of the file at a time."""

    def __init__(self, output: Output, label: str) -> None:
        self.output = output
        self.label = label
        self.nothing = ""
        """What a file with nothing for the command says (``0 views and 0 maps, nothing to
        show``): the text's one line (``check`` says it in its head)."""

    def add(self, maps: list[Entry], views: list[Entry]) -> None:
        raise NotImplementedError

    def begin_kernels(self) -> None:
        """The report lists kernels (``check`` of a file), given after every part was added."""
        raise NotImplementedError

    def kernel(self, entry: Entry) -> None:
        """An access of a kernel."""
        raise NotImplementedError

    def drop_kernels(self) -> None:
        """Forget the kernels given so far (the file turned out not to be one of kernels)."""
        raise NotImplementedError

    def finish(self, summary: Entry | None) -> None:
        raise NotImplementedError

    def fail(self, error: Entry, summary: Entry | None) -> None:
        """The file is bad: end what was written of the report with ``error`` (and the
        ``summary`` of what it lists)."""
        raise NotImplementedError


class TextReport(FileReport):
    def __init__(self, output: Output, label: str) -> None:
        super().__init__(output, label)
        self.wrote = False
        self.maps, self.views, self.kernels = Spool(), Spool(), Spool()
        self.ranks = [Spool() for _ in range(RANKS)]
        self.differences = 0
        self.lint = 0
        self.first_lint = ""
        """``check``: the lint findings of the file's maps and views, and the first, named."""

    def _begin(self) -> None:
        """Before the report's first line: a blank line after the report before it."""
        if not self.wrote:
            if self.output.texts:
                self.output.write("\n")
            self.output.texts += 1
            self.wrote = True

    def _direct(self, lines: list[str]) -> None:
        if lines:
            self._begin()
            self.output.write("".join(line + "\n" for line in lines))

    def _copy(self, spool: Spool) -> None:
        if not spool.empty:
            self._begin()
        spool.copy_to(self.output.write)

    def add(self, maps: list[Entry], views: list[Entry]) -> None:
        layout = self.output.layout
        self.output.entries(maps, views)
        for kind, entries in (("map", maps), ("view", views)):
            for entry in entries:
                lines = map_lines(entry) if kind == "map" else view_lines(entry)
                if layout.differences is not None and entry.get("findings"):
                    if not self.lint:
                        self.first_lint = f"{_title(kind, entry)}: {finding_text(entry['findings'][0])}"
                    self.lint += len(entry["findings"])
                if layout.differences is not None:
                    for rank, line in layout.differences(kind, entry):
                        self.ranks[rank].write(line + "\n")
                        self.differences += 1
                    (self.maps if kind == "map" else self.views).write("".join(f"{x}\n" for x in lines))
                elif kind == "view" and layout.views_wait:
                    self.views.write("".join(f"{x}\n" for x in lines))
                else:
                    self._direct(lines)

    def begin_kernels(self) -> None:
        pass

    def kernel(self, entry: Entry) -> None:
        self.kernels.write(kernel_line(entry) + "\n")

    def drop_kernels(self) -> None:
        self.kernels.close()

    def finish(self, summary: Entry | None) -> None:
        if self.output.layout.differences is not None:
            n = self.differences
            empty = summary is not None and not summary["views"] and not summary["maps"]
            head = (f"{self.label}: {n} answer(s) of rocMLIR's rules differ from the exact ones" if n
                    else f"{self.label}: 0 views and 0 maps, nothing to check" if empty
                    else f"{self.label}: rocMLIR's rules give the exact answers here")
            if self.lint:
                head += f", and {self.lint} lint finding(s)"
            self._direct([head + ("" if empty else " (details below, summary at the end)")])
            if self.lint:
                self._direct([f"  the first lint finding: {self.first_lint}"])
            for spool in (*self.ranks, self.maps):
                self._copy(spool)
        self._copy(self.views)
        self._copy(self.kernels)
        if not self.wrote:
            self._direct([f"{self.label}: {self.nothing or 'no transform maps'}"])
        if summary is not None:
            self._direct([summary_line(summary)])
            self.output.summaries = total([self.output.summaries, summary])
        self.output.finished += 1

    def fail(self, error: Entry, summary: Entry | None) -> None:
        if self.output.layout.differences is None:
            self._copy(self.views)  # what was read before the error
        for spool in (self.maps, self.views, self.kernels, *self.ranks):
            spool.close()


class JsonReport(FileReport):
    def __init__(self, output: Output, label: str) -> None:
        super().__init__(output, label)
        self.json = output.json
        self.started = False
        self.views: ListSpool | None = None
        self.kernels: ListSpool | None = None
        self.depth = 0
        """How deep the items of the report's lists are."""

    def _start(self) -> None:
        if self.started:
            return
        self.started = True
        self.output.started += 1
        self.output.files()
        self.json.open("{")
        self.json.value(self.label, "file")
        if self.output.layout.views_wait:
            self.json.open("[", "maps")
            self.views = ListSpool(self.json.depth)
        else:
            self.json.value([], "maps")
            self.json.open("[", "views")
        self.depth = self.json.depth

    def add(self, maps: list[Entry], views: list[Entry]) -> None:
        self.output.entries(maps, views)
        if not maps and not views:
            return
        self._start()
        if maps and self.views is None:
            raise InternalError("maps after the views of a report")
        for entry in maps:
            self.json.value(entry)
        for entry in views:
            if self.views is not None:
                self.views.add(entry)
            else:
                self.json.value(entry)

    def begin_kernels(self) -> None:
        self._start()
        self.kernels = ListSpool(self.depth)

    def kernel(self, entry: Entry) -> None:
        if self.kernels is None:
            raise InternalError("a kernel before begin_kernels")
        self.kernels.add(entry)

    def drop_kernels(self) -> None:
        if self.kernels is not None:
            self.kernels.spool.close()
        self.kernels = ListSpool(self.depth)

    def _lists(self) -> None:
        self.json.close("]")
        if self.views is not None:
            self.json.spooled("views", self.views)

    def finish(self, summary: Entry | None) -> None:
        self._start()
        self._lists()
        if summary is not None:
            self.json.value(summary, "summary")
            self.output.summaries = total([self.output.summaries, summary])
        if self.kernels is not None:
            self.json.spooled("kernels", self.kernels)
        self.json.close("}")
        self.output.finished += 1

    def fail(self, error: Entry, summary: Entry | None) -> None:
        if not self.started:
            return
        self._lists()
        if summary is not None:
            self.json.value(summary, "summary")
        if self.kernels is not None:
            self.kernels.spool.close()
        self.json.value(error, "error")
        self.json.close("}")
