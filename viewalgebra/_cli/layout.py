"""``viewalgebra layout TEXT``: one layout read back (``parse_layout``: CuTe, pycute, FlyDSL,
Triton), its size and the number of offsets of its view's buffer; ``--vector`` its exact vector
length with a witness (docs/layouts.md); ``--draw`` its offsets as a text grid, or as an SVG
picture with ``--draw OUT.svg``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .._draw import cli_crop_note, cli_slice, render_svg
from .._draw.slice import Slice
from .._layouts.chains import layout_view
from .._layouts.cute_rules import cute_max_common_vector as cute_rule
from .._layouts.cute_rules import cute_swizzle_vector as cute_swizzle_rule
from .._layouts.padded import PaddedSharedLayout
from .._layouts.read import parse_layout
from .._layouts.values import ComposedLayout, Layout, LinearLayout, Swizzle
from .._layouts.vector import vector_length, vector_method
from .._maps.view import View
from ..errors import CuteRuleError, InternalError, TransformParseError, ViewAlgebraError
from .entries import witness
from .errors import InputError, bad_input
from .inputs import write_text

LAYOUT = "<layout>"
"""The label of a layout given as text."""

Drawn = Layout | ComposedLayout | LinearLayout | PaddedSharedLayout | Swizzle


def run(args: argparse.Namespace) -> int:
    if args.length is not None and args.length < 1:
        return bad_input(args, InputError(f"--length {args.length}: a run length is at least 1"))
    if args.bits is not None and args.bits < 1:
        return bad_input(args, InputError(f"--bits {args.bits}: a width is at least 1 bit"))
    try:
        layout = _read(args.input)
        flat = layout_view(layout)
        report: dict[str, Any] = {"layout": str(layout), "kind": _kind(layout), "size": flat.shape[0],
                                  "cosize": flat.buffer.shape[0]}
        low = flat.buffer.offset  # below 0 for a negative stride: the buffer starts there
        span = f"offsets below {report['cosize']}" if low == 0 else (
            f"offsets {low} to {low + report['cosize'] - 1}")
        lines = [f"layout: {report['layout']} ({report['kind']}; size {report['size']}, {span})"]
        if args.vector:
            report["vector"] = _vector(layout, args, lines)
        if args.draw is not None:
            report["draw"] = _draw(layout, args.draw, lines)
    except (ViewAlgebraError, InputError) as e:
        return bad_input(args, e)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(lines))
    return 0


def _read(text: str) -> Drawn:
    try:
        return parse_layout(text)
    except TransformParseError as e:  # located as the other commands locate a map given as text
        raise InputError(e.reason, file=LAYOUT, line=e.line, column=e.column) from e


def _kind(layout: Drawn) -> str:
    if isinstance(layout, Layout):
        return "CuTe layout"
    if isinstance(layout, ComposedLayout):
        return "CuTe swizzled layout"
    if isinstance(layout, Swizzle):
        return "CuTe swizzle"
    if isinstance(layout, PaddedSharedLayout):
        return "Triton padded shared layout"
    return "Triton linear layout"


def _vector(layout: Drawn, args: argparse.Namespace, lines: list[str]) -> dict[str, Any]:
    """The exact vector length of the flat index with its witness, and CuTe's rule beside the
    exact length without options (a shape:stride or swizzled layout)."""
    answer = vector_length(layout, length=args.length, aligned=args.aligned,
                           power_of_two=args.power_of_two, bits=args.bits, dtype=args.dtype)
    method = vector_method(layout)
    options = [f"runs of {answer.run}"] + (["aligned"] if args.aligned else []) + (
        ["powers of two"] if args.power_of_two else []) + (
        [f"at most {answer.cap} {args.dtype} ({args.bits} bits)"] if answer.cap is not None else [])
    lines.append(f"vector length: {answer.length} ({method}; {', '.join(options)}); legal: "
                 + ", ".join(str(v) for v in answer.legal))
    if answer.witness is not None:
        lines.append(f"  {answer.witness}")
    found: dict[str, Any] = {"length": answer.length, "legal": list(answer.legal), "run": answer.run,
                             "cap": answer.cap, "method": method, "witness": witness(answer.witness)}
    if isinstance(layout, Layout | ComposedLayout):
        found["cute"] = _cute(layout, lines)
    return found


def _cute(layout: Layout | ComposedLayout, lines: list[str]) -> dict[str, Any]:
    """CuTe's rule for the flat index (the algebra's port of ``max_common_vector`` with the
    identity ``size:1``; for a swizzled layout, capped at ``2^M``) beside the exact length without
    options, with the algebra's verdicts (the rule alone: no enumeration, any size)."""
    identity = Layout(layout.size, 1)
    rule = ("min(max_common_vector(L, size:1), 2^M)" if isinstance(layout, ComposedLayout)
            else "max_common_vector(layout, size:1)")
    exact = vector_length(layout)
    reason = None
    try:
        cute: int | None = (cute_swizzle_rule(layout, identity) if isinstance(layout, ComposedLayout)
                            else cute_rule(layout, identity))
    except CuteRuleError as e:
        cute, reason = None, str(e)
    verdict = ("CuTe rejects" if cute is None else "equal" if cute == exact.length else
               "CuTe conservative" if cute in exact.legal else "CuTe unsound")
    said = "rejects the layout" if cute is None else str(cute)
    lines.append(f"CuTe's rule {rule}: {said}; exact {exact.length}: {verdict}"
                 + ("" if reason is None else f" ({reason})"))
    return {"rule": rule, "length": cute, "exact": exact.length, "verdict": verdict, "reason": reason}


def _two_modes(layout: Drawn) -> tuple[Drawn, str, str]:
    """The layout with its top-level modes after the first grouped into one (CuTe's pictures
    show mode 0 down the rows and mode 1 across), and the ``--rows``/``--cols`` that draw them
    (empty: ``draw``'s choice)."""
    if isinstance(layout, ComposedLayout) and layout.layout.rank > 1:
        return ComposedLayout(layout.swizzle, layout.offset, _grouped(layout.layout)), "0", "1"
    if isinstance(layout, Layout) and layout.rank > 1:
        return _grouped(layout), "0", "1"
    return layout, "", ""


def _grouped(layout: Layout) -> Layout:
    """``(s0, s1, s2, ...):(d0, d1, d2, ...)`` as ``(s0, (s1, s2, ...)):(d0, (d1, d2, ...))``: the same
    function of the same flat index, in two modes (a layout of one mode stays one)."""
    shape, stride = layout.shape, layout.stride
    if isinstance(shape, int) or len(shape) <= 2:
        return layout
    if isinstance(stride, int) or len(stride) != len(shape):
        raise InternalError(f"internal: {layout} has a stride not congruent with its shape (please report)")
    return Layout((shape[0], shape[1:]), (stride[0], stride[1:]))


def _draw(layout: Drawn, output: str, lines: list[str]) -> dict[str, Any]:
    """The offsets on a grid: CuTe's mode 0 down, the other modes across (Triton's: two of its
    named dims, as ``draw`` chooses them, the others at 0); an SVG file when ``output`` names one,
    else text."""
    grouped, rows, cols = _two_modes(layout)
    view = layout_view(grouped, "named" if isinstance(layout, LinearLayout | PaddedSharedLayout) else "modes")
    sl = cli_slice(view, rows=rows or None, cols=cols or None, fixed=[], vector_dim=None)
    note = cli_crop_note(sl)
    found: dict[str, Any] = {
        "output": output or None, "rows": sl.rows, "cols": sl.cols,
        "row_window": [sl.row_window.start, sl.row_window.stop],
        "col_window": [sl.col_window.start, sl.col_window.stop], "cut": list(sl.cropped)}
    if output:
        write_text(output, render_svg(view, sl, title=str(layout)))
        lines.append(f"wrote {output}")
    else:
        grid = _grid(view, sl)
        found["grid"] = grid
        lines += _grid_text(grid, sl, _dim_names(layout))
    if note is not None:
        lines.append(f"note: {note}")
    return found


def _grid(view: View, sl: Slice) -> list[list[int]]:
    grid: list[list[int]] = []
    for r in sl.row_window:
        row: list[int] = []
        for c in sl.col_window:
            point = list(sl.fixed)
            if sl.rows is not None:
                point[sl.rows] = r
            if sl.cols is not None:
                point[sl.cols] = c
            address = view.address(tuple(point))
            if address is None:  # every point of a layout's view is valid
                raise InternalError(f"internal: the layout's point {point} has no offset (please report)")
            row.append(address)
        grid.append(row)
    return grid


def _dim_names(layout: Drawn) -> list[str]:
    """What each dim of the drawn view is: CuTe's modes (those after the first grouped into one),
    Triton's input dims or tensor dims."""
    if isinstance(layout, LinearLayout):
        return [name for name, _ in layout.bases]
    if isinstance(layout, PaddedSharedLayout):
        return [f"dim{d}" for d in range(len(layout.shape))]
    inner = layout.layout if isinstance(layout, ComposedLayout) else layout
    if isinstance(inner, Swizzle) or inner.rank == 1:
        return ["index"]
    return ["mode 0", "mode 1" if inner.rank == 2 else f"modes 1-{inner.rank - 1}"]


def _grid_text(grid: list[list[int]], sl: Slice, names: list[str]) -> list[str]:
    """CuTe's ``print_layout`` form: column coordinates on top, row coordinates on the left."""
    width = max(len(str(x)) for row in grid for x in [*row, sl.col_window.stop, sl.row_window.stop])
    down = "one row" if sl.rows is None else f"{names[sl.rows]} down"
    across = "one column" if sl.cols is None else f"{names[sl.cols]} across"
    out = [f"offsets ({down}, {across}):", " " * (width + 1) + " ".join(
        f"{c:>{width}}" for c in sl.col_window)]
    out += [f"{r:>{width}} " + " ".join(f"{x:>{width}}" for x in row) for r, row in zip(sl.row_window, grid,
                                                                                          strict=True)]
    return out
