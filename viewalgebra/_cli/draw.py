"""``viewalgebra draw``: an SVG picture of one view's buffer addresses on a 2-D slice, padding
shaded and the maximal vector runs outlined. The file is read a part at a time until its view
(``--view LINE``, else the first) is read; what follows is not read. A view named by
``--view NAME`` is drawn when the file is read (a second view of that name asks for its
line: names are unique only within a function, so no earlier point can tell). A file with no
view to draw (nothing to do) says so and writes no picture."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from .._maps.buffer import Buffer
from .._maps.syntax import ParsedMap, read_transform_map
from .._maps.view import View
from .._mlir.scan import ParsedView, Scanner
from ..errors import TransformParseError, ViewAlgebraError
from .errors import InputError, bad_input
from .inputs import MAP, Input, inputs, write_text
from .stream import NAMES, unbuilt


def run(args: argparse.Namespace) -> int:
    from .._draw import cli_crop_note, cli_slice, render_svg

    try:
        (source,) = inputs(args.input, "draw")
        chosen = _choose(args, source)
        if isinstance(chosen, str):  # nothing to draw: said, and nothing is written
            return _nothing(args, source, chosen)
        name, view = chosen
        sl = cli_slice(view, rows=args.rows, cols=args.cols, fixed=args.fixed, vector_dim=args.vector_dim)
        write_text(args.output, render_svg(view, sl))
    except (ViewAlgebraError, InputError) as e:
        return bad_input(args, e)
    note = cli_crop_note(sl)
    if note is not None:  # never crop silently
        print(f"viewalgebra: {source.label}: view {name}: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({
            "file": source.label, "view": name, "output": args.output, "rows": sl.rows, "cols": sl.cols,
            "row_window": [sl.row_window.start, sl.row_window.stop],
            "col_window": [sl.col_window.start, sl.col_window.stop],
            "fixed": [{"dim": d, "coordinate": x} for d, x in enumerate(sl.fixed)
                      if d not in (sl.rows, sl.cols)],
            "vector_dim": sl.vector_dim, "vector_length": sl.vector_length, "cut": list(sl.cropped)},
            indent=2))
    else:
        print(f"wrote {args.output}")
    return 0


def _nothing(args: argparse.Namespace, source: Input, line: str) -> int:
    """A file with no view to draw (only comments, ops that make no view, views not analysed)."""
    if args.json:
        print(json.dumps({
            "file": source.label, "view": None, "output": None, "rows": None, "cols": None, "row_window": [],
            "col_window": [], "fixed": [], "vector_dim": None, "vector_length": None, "cut": []}, indent=2))
    else:
        print(f"{source.label}: {line}")
    return 0


def _choose(args: argparse.Namespace, source: Input) -> tuple[str, View] | str:
    """The view to draw: the one ``--view`` names by its line, or the only view of its name
    (a second view of that name asks for the line), or the first of all; or, for a file with
    no view and no map (or only views not analysed), what it says. A view before the one drawn
    that cannot be built is bad input, as is a statement that is not MLIR; a view not analysed
    (a dynamic size) is noted on stderr, as the other commands do."""
    names: list[str] = []
    chosen: ParsedView | None = None
    maps = noted = 0
    for v in _items(args, source):
        if not isinstance(v, ParsedView):
            maps += 1
            continue
        if chosen is not None:
            if v.name == chosen.name:
                raise InputError(f"view {chosen.name} is on line {chosen.line} and again on line {v.line}: "
                                 f"give the line of the one to draw, e.g. --view {chosen.line}",
                                 file=source.label)
            continue
        if v.note and args.view not in (v.name, str(v.line)):
            print(f"viewalgebra: {source.label}:{v.line}:{v.column}: view {v.name}: not analysed: {v.note}",
                  file=sys.stderr)
            noted += 1
            continue
        if v.view is None and not v.note:
            raise unbuilt(v)
        if args.view == v.name:
            chosen = v  # read on: a second view of the name makes the name ambiguous
            continue
        if args.view is None or args.view == str(v.line):
            return _drawable(source, v)
        if v.name in names:
            continue
        if len(names) < NAMES:
            names.append(v.name)
        elif names[-1] != "...":
            names.append("...")
    if chosen is not None:
        return _drawable(source, chosen)
    if args.view is not None:
        raise InputError(f"no view {args.view} (there are {', '.join(names) or 'none'}; or give the view's "
                         "line)", file=source.label)
    if noted:
        return f"{noted} view(s) not analysed and no other view, nothing to draw"
    if maps:
        raise InputError(f"holds {maps} transform map(s) but no view (a chain of rock.transform ops on a "
                         "value) to draw; give one map as text to see it over a row-major buffer",
                         file=source.label)
    if source.reads_as_mlir():
        return "0 views and 0 maps, nothing to draw"
    raise InputError("holds no transform map or view and no function", file=source.label)


def _drawable(source: Input, v: ParsedView) -> tuple[str, View]:
    if v.view is None:  # a view not analysed, asked for by --view
        raise InputError(f"view {v.name}: not analysed: {v.note}", file=source.label, line=v.line,
                         column=v.column)
    return v.name, v.view


def _items(args: argparse.Namespace, source: Input) -> Iterator[ParsedMap | ParsedView]:
    """The maps and views of a file in file order, read as they are asked for; a map given as
    text is seen over a row-major buffer of ``--dtype``."""
    if source.path is None:
        try:
            m = read_transform_map(source.text, strict=False)
        except TransformParseError as e:  # said as the other commands say it
            raise InputError(e.reason, file=MAP, line=e.line, column=e.column) from e
        if m.map is None:
            raise m.error or InputError("not a transform map", file=MAP)
        yield ParsedView("map", View(Buffer(m.map.lower_bounds, args.dtype), (m.map,), strict=False), 1, 1)
        return
    yield from Scanner(unreadable="raise").read(source.parts())
