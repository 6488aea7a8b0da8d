"""``viewalgebra draw``: an SVG picture of one view's buffer addresses on a 2-D slice, padding
shaded and the maximal vector runs outlined. The file is read a part at a time until its view
(``--view LINE``, else the first) is read; what follows is not read. A view named by
``--view NAME`` is drawn when the file is read (a second view of that name asks for its
line)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from .._maps.buffer import Buffer
from .._maps.syntax import read_transform_map
from .._maps.view import View
from .._mlir.scan import ParsedView, Scanner
from ..errors import ViewAlgebraError
from .errors import InputError, bad_input
from .inputs import Input, inputs, write_text
from .stream import NAMES, unbuilt


def run(args: argparse.Namespace) -> int:
    from .._draw import cli_crop_note, cli_slice, render_svg

    try:
        (source,) = inputs(args.input, "draw")
        name, view = _choose(args, source)
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


def _choose(args: argparse.Namespace, source: Input) -> tuple[str, View]:
    """The view to draw: the one ``--view`` names by its line, or the only view of its name
    (a second view of that name asks for the line), or the first of all; a view before it that
    cannot be built is bad input, as is a statement that is not MLIR."""
    names: list[str] = []
    chosen: ParsedView | None = None
    for v in _views(args, source):
        if chosen is not None:
            if v.name == chosen.name:
                raise InputError(f"{source.label}: view {chosen.name} is on line {chosen.line} and again "
                                 f"on line {v.line}: give the line of the one to draw, e.g. "
                                 f"--view {chosen.line}")
            continue
        if v.view is None:
            raise unbuilt(v)
        if args.view is None or args.view == str(v.line):
            return v.name, v.view
        if args.view == v.name:
            chosen = v  # read on: a second view of the name makes the name ambiguous
            continue
        if v.name in names:
            continue
        if len(names) < NAMES:
            names.append(v.name)
        elif names[-1] != "...":
            names.append("...")
    if chosen is not None and chosen.view is not None:
        return chosen.name, chosen.view
    if not names:
        raise InputError(f"{source.label}: no view to draw")
    raise InputError(f"{source.label}: no view {args.view} (there are {', '.join(names)}; or give the "
                     "view's line)")


def _views(args: argparse.Namespace, source: Input) -> Iterator[ParsedView]:
    """The views of a file in file order, read as they are asked for; a map given as text is
    seen over a row-major buffer of ``--dtype``."""
    if source.path is None:
        tm = read_transform_map(source.text, strict=False).map
        if tm is not None:
            yield ParsedView("map", View(Buffer(tm.lower_bounds, args.dtype), (tm,), strict=False), 1, 1)
        return
    for item in Scanner(unreadable="raise").read(source.parts()):
        if isinstance(item, ParsedView):
            yield item
