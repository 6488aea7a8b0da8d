"""SVG pictures of a view's addresses on a 2-D slice, in the style of CuTe's layout pictures.

Each cell of the grid shows the buffer address of one view point, coloured by ``address % 8`` so
contiguous runs read as a repeating rainbow; padding (invalid points) is grey with no number. The
aligned runs of the exact maximal vector length (``max_vector_length``) get a thick outline. The
SVG is written as text: no plotting dependency.
"""

from __future__ import annotations

import html
import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import SupportsIndex

import numpy as np

from ._maps.equations import dim_names
from ._maps.view import View, addresses_of
from ._vectorize import max_vector_length
from .errors import CoordinateError, DrawError, InvalidArgumentError

MAX_SIDE = 64
"""The most cells along either side of a picture; larger grids are refused as unreadable."""

PALETTE = ("#9ecae9", "#ffbe7d", "#8cd17d", "#ff9d9a", "#c8b3e0", "#d4a6a0", "#f7b6d2", "#e0e08a")
"""Fill colours, by ``address % len(PALETTE)``: light enough for black numbers."""

PAD_FILL = "#d0d0d0"
"""Fill of padding (invalid) cells."""

_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
_MARGIN = 12.0


@dataclass(frozen=True, slots=True)
class _Slice:
    """Which dims are drawn and where the others are fixed."""

    rows: int | None
    """The dim drawn down the rows (``None``: one row)."""
    cols: int | None
    """The dim drawn across the columns (``None``: one column, only for rank 0)."""
    fixed: tuple[int, ...]
    """The coordinate of every dim (those of ``rows`` and ``cols`` are ignored)."""
    n_rows: int
    n_cols: int


def draw_svg(view: View, *, rows: int | None = None, cols: int | None = None,
             fixed: Mapping[int, int] | None = None, vector_dim: int | None = None,
             cell: float | None = None, title: str | None = None) -> str:
    """An SVG picture of the view's addresses on the 2-D slice ``rows`` x ``cols``.

    ``rows`` and ``cols`` default to dims 0 and 1; a rank-1 view is drawn as one row (its dim is
    ``cols``) and a rank-0 view as one cell. Dims that are not drawn sit at ``fixed[dim]``
    (default 0) and the picture says so. The aligned runs of ``v = max_vector_length(view,
    vector_dim).length`` cells along ``vector_dim`` (default: ``cols``) are outlined: solid when
    valid, dashed when all padding. ``cell`` is the height of a cell in pixels (default 30); cells
    are square unless widened to fit the longest address. Grids above ``MAX_SIDE`` cells a side
    raise ``DrawError``; bad dims and coordinates raise ``CoordinateError``.

    Example: for ``<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>`` with bounds
    ``[32] -> [4, 8]`` over ``memref<4x8xf32>``, ``draw_svg(view)`` draws one row of 32 cells
    holding ``0 .. 31`` inside one outline (vector length 32 along dim 0).
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"draw_svg: expected a View, got {type(view).__name__}")
    _check_options(cell, title)
    sl = _slice(view, rows, cols, fixed)
    vdim = _vector_dim(view, sl, vector_dim)
    grid = np.indices((sl.n_rows, sl.n_cols), dtype=np.int64).reshape(2, -1)
    points = np.tile(np.asarray(sl.fixed, dtype=np.int64), (sl.n_rows * sl.n_cols, 1))
    if sl.rows is not None:
        points[:, sl.rows] = grid[0]
    if sl.cols is not None:
        points[:, sl.cols] = grid[1]
    addr, valid = addresses_of(view, points)
    addresses: list[list[int]] = addr.reshape(sl.n_rows, sl.n_cols).tolist()
    valids: list[list[bool]] = valid.reshape(sl.n_rows, sl.n_cols).tolist()
    v = None if vdim is None else max_vector_length(view, vdim).length
    return _Picture(view, sl, addresses, valids, vdim, v, cell, title).svg()


def _check_options(cell: object, title: object) -> None:
    if cell is not None:
        if isinstance(cell, bool) or not isinstance(cell, int | float) or not math.isfinite(cell):
            raise DrawError(f"draw_svg: cell must be a number of pixels, got {cell!r}")
        if cell < 8:
            raise DrawError(f"draw_svg: cell must be at least 8 pixels, got {cell}")
    if title is not None and not isinstance(title, str):
        raise DrawError(f"draw_svg: title must be a string, got {title!r}")


def _index(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise CoordinateError(f"draw_svg: {what} must be an integer, got {value!r}")
    return operator.index(value)


def _dim(value: object, what: str, rank: int) -> int:
    d = _index(value, what)
    if not 0 <= d < rank:
        raise CoordinateError(f"draw_svg: {what} {d} out of range for a view of rank {rank}")
    return d


def _slice(view: View, rows: int | None, cols: int | None,
           fixed: Mapping[int, int] | None) -> _Slice:
    shape, rank = view.shape, view.rank
    if 0 in shape:
        raise DrawError(f"draw_svg: the view {list(shape)} is empty; there is nothing to draw")
    if rank == 0:
        if rows is not None or cols is not None:
            raise CoordinateError("draw_svg: a rank-0 view has no dims to draw (it is one cell); "
                                  f"got rows={rows}, cols={cols}")
        r, c = None, None
    elif rank == 1:
        if rows is not None:
            raise CoordinateError(f"draw_svg: a rank-1 view is drawn as one row of dim 0; "
                                  f"rows must be None, got {rows}")
        r, c = None, _dim(0 if cols is None else cols, "cols dim", rank)
    else:
        c = _dim(cols, "cols dim", rank) if cols is not None else None
        r = _dim(rows, "rows dim", rank) if rows is not None else None
        if c is None:
            c = 1 if r != 1 else 0
        if r is None:
            r = 0 if c != 0 else 1
        if r == c:
            raise CoordinateError(f"draw_svg: rows and cols are both dim {r}; pick two different dims")
    point = [0] * rank
    for key, value in (fixed or {}).items():
        d = _dim(key, "fixed dim", rank)
        if d in (r, c):
            raise CoordinateError(
                f"draw_svg: dim {d} is drawn ({'rows' if d == r else 'cols'}); it cannot also be fixed")
        x = _index(value, f"fixed coordinate of dim {d}")
        if not 0 <= x < shape[d]:
            raise CoordinateError(
                f"draw_svg: fixed coordinate of dim {d} is {x}, outside [0, {shape[d]})")
        point[d] = x
    n_rows = 1 if r is None else shape[r]
    n_cols = 1 if c is None else shape[c]
    if n_rows > MAX_SIDE or n_cols > MAX_SIDE:
        dims = " x ".join(f"dim {d}" for d in (r, c) if d is not None)
        raise DrawError(
            f"draw_svg: a grid of {n_rows} x {n_cols} cells ({dims} of the view {list(shape)}) is "
            f"too large to read; at most {MAX_SIDE} x {MAX_SIDE}: draw a smaller view, or pick "
            "other dims with rows=/cols= and fix the rest with fixed=")
    return _Slice(r, c, tuple(point), n_rows, n_cols)


def _vector_dim(view: View, sl: _Slice, vector_dim: int | None) -> int | None:
    if vector_dim is None:
        return sl.cols
    d = _dim(vector_dim, "vector_dim", view.rank)
    if d not in (sl.rows, sl.cols):
        drawn = ", ".join(f"{k}={x}" for k, x in (("rows", sl.rows), ("cols", sl.cols)) if x is not None)
        raise CoordinateError(
            f"draw_svg: vector_dim {d} is not drawn ({drawn}); its runs would not be visible")
    return d


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _n(x: float) -> str:
    """A coordinate for SVG: at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _text_width(text: str, size: float) -> float:
    """A generous estimate of rendered text width (no font metrics without a renderer)."""
    return 0.62 * size * len(text)


class _Picture:
    """Layout and SVG text of one picture."""

    def __init__(self, view: View, sl: _Slice, addresses: list[list[int]], valid: list[list[bool]],
                 vdim: int | None, v: int | None, cell: float | None, title: str | None) -> None:
        self.view, self.sl, self.addresses, self.valid = view, sl, addresses, valid
        self.vdim, self.v = vdim, v
        widest = max((len(str(a)) for row, ok in zip(addresses, valid, strict=True)
                      for a, o in zip(row, ok, strict=True) if o), default=1)
        self.h = 30.0 if cell is None else float(cell)
        self.font = max(4.0, min(12.0, self.h * 0.42))
        # Long addresses widen the cells rather than shrink the numbers.
        self.w = max(self.h, math.ceil(_text_width("0" * widest, self.font) + (12 if cell is None else 4)))
        self.names = dim_names(view.maps[0], "upper") if view.maps else ()
        buf = view.buffer
        memref = "x".join([*map(str, buf.shape), buf.dtype])
        self.title = title if title is not None else (
            f"view {list(view.shape)} of memref<{memref}>: buffer addresses")
        self.lines: list[str] = []
        if view.rank > 2:
            self.lines.append("slice: " + ", ".join(
                f"{self.dim_label(d)} = {x}" for d, x in enumerate(sl.fixed) if d not in (sl.rows, sl.cols)))

    def dim_label(self, d: int) -> str:
        name = self.names[d] if d < len(self.names) else ""
        return f"dim {d} ({name})" if name and name != f"u{d}" else f"dim {d}"

    def row_axis_label(self) -> str:
        return "" if self.sl.rows is None else f"{self.dim_label(self.sl.rows)} \u2193"

    def svg(self) -> str:
        sl = self.sl
        label_font = 11.0
        head = 22.0 + 17.0 * len(self.lines)
        col_axis = 16.0 if sl.cols is not None else 0.0
        col_labels = 15.0 if sl.cols is not None else 0.0
        # The rows' axis name sits right-aligned on the line of the column numbers, left of the grid.
        left = 0.0 if sl.rows is None else max(
            _text_width(str(sl.n_rows - 1), label_font), _text_width(self.row_axis_label(), 12.0)) + 8
        x0 = _MARGIN + left
        y0 = _MARGIN + head + col_axis + col_labels
        legend = self.legend()
        grid_w, grid_h = sl.n_cols * self.w, sl.n_rows * self.h
        texts = [(self.title, 14.0), *((t, 12.0) for t in self.lines), *((t, 12.0) for t, _ in legend)]
        width = max(x0 + grid_w, *(_MARGIN + _text_width(t, z) + (24 if z == 12.0 else 0) for t, z in texts))
        width += _MARGIN
        legend_y = y0 + grid_h + 10
        height = legend_y + 20.0 * len(legend) + _MARGIN - 4
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{_FONT}">',
            f'<rect class="background" x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
            'fill="#ffffff"/>',
            f'<text class="title" x="{_n(_MARGIN)}" y="{_n(_MARGIN + 14)}" font-size="14" '
            f'font-weight="bold">{_esc(self.title)}</text>',
        ]
        for k, line in enumerate(self.lines):
            out.append(f'<text class="slice" x="{_n(_MARGIN)}" y="{_n(_MARGIN + 22 + 17 * k + 12)}" '
                       f'font-size="12">{_esc(line)}</text>')
        out += self.axes(x0, y0, label_font, col_axis)
        out += self.cells(x0, y0)
        out += self.runs(x0, y0)
        for k, (text, kind) in enumerate(legend):
            out += self.legend_line(text, kind, legend_y + 20.0 * k)
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def axes(self, x0: float, y0: float, font: float, col_axis: float) -> list[str]:
        sl, w, h = self.sl, self.w, self.h
        out: list[str] = []
        if sl.cols is not None:
            out.append(f'<text class="axis" x="{_n(x0)}" y="{_n(y0 - 15 - col_axis + 12)}" font-size="12">'
                       f'{_esc(self.dim_label(sl.cols))} \u2192</text>')
            for j in range(sl.n_cols):
                out.append(f'<text class="col-label" x="{_n(x0 + (j + 0.5) * w)}" y="{_n(y0 - 4)}" '
                           f'font-size="{_n(min(font, w * 0.4))}" text-anchor="middle" '
                           f'fill="#555555">{j}</text>')
        if sl.rows is not None:
            out.append(f'<text class="axis" x="{_n(x0 - 5)}" y="{_n(y0 - 4)}" font-size="12" '
                       f'text-anchor="end">{_esc(self.row_axis_label())}</text>')
            size = min(font, h * 0.4)
            for i in range(sl.n_rows):
                y = y0 + (i + 0.5) * h + 0.35 * size
                out.append(f'<text class="row-label" x="{_n(x0 - 5)}" y="{_n(y)}" '
                           f'font-size="{_n(size)}" text-anchor="end" fill="#555555">{i}</text>')
        return out

    def point(self, i: int, j: int) -> tuple[int, ...]:
        sl = self.sl
        return tuple(i if d == sl.rows else j if d == sl.cols else x for d, x in enumerate(sl.fixed))

    def cells(self, x0: float, y0: float) -> list[str]:
        w, h = self.w, self.h
        out: list[str] = []
        for i, (row, ok) in enumerate(zip(self.addresses, self.valid, strict=True)):
            for j, (a, o) in enumerate(zip(row, ok, strict=True)):
                p = self.point(i, j)
                x, y = x0 + j * w, y0 + i * h
                coord = ",".join(map(str, p))
                rect = (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                        f'fill="{PALETTE[a % len(PALETTE)] if o else PAD_FILL}" stroke="#ffffff" '
                        'stroke-width="1"/>')
                if o:
                    # A baseline offset instead of dominant-baseline, which renderers disagree on.
                    base = y + h / 2 + 0.35 * self.font
                    body = (f'<text class="address" x="{_n(x + w / 2)}" y="{_n(base)}" '
                            f'font-size="{_n(self.font)}" font-family="{_MONO}" text-anchor="middle" '
                            f'fill="#111111">{a}</text>')
                    tip = f"{list(p)} -> address {a}"
                    out.append(f'<g class="cell" data-coord="{coord}" data-address="{a}">'
                               f"<title>{_esc(tip)}</title>{rect}{body}</g>")
                else:
                    dot = (f'<circle cx="{_n(x + w / 2)}" cy="{_n(y + h / 2)}" r="{_n(max(1.0, h / 14))}" '
                           'fill="#8c8c8c"/>')
                    tip = f"{list(p)} -> padding (invalid)"
                    out.append(f'<g class="cell padding" data-coord="{coord}">'
                               f"<title>{_esc(tip)}</title>{rect}{dot}</g>")
        return out

    def runs(self, x0: float, y0: float) -> list[str]:
        sl, cw, ch, v = self.sl, self.w, self.h, self.v
        if v is None or self.vdim is None:
            return []
        across = self.vdim == sl.cols
        out: list[str] = []
        starts = ([(i, j) for i in range(sl.n_rows) for j in range(0, sl.n_cols, v)] if across
                  else [(i, j) for i in range(0, sl.n_rows, v) for j in range(sl.n_cols)])
        for i, j in starts:
            cells = [(i, j + k) if across else (i + k, j) for k in range(v)]
            oks = [self.valid[a][b] for a, b in cells]
            w, h = (v * cw, ch) if across else (cw, v * ch)
            x, y = x0 + j * cw, y0 + i * ch
            if all(oks):
                out.append(f'<rect class="run" x="{_n(x + 1.5)}" y="{_n(y + 1.5)}" width="{_n(w - 3)}" '
                           f'height="{_n(h - 3)}" fill="none" stroke="#1a1a1a" stroke-width="3" rx="2"/>')
            elif not any(oks):
                out.append(f'<rect class="run padding" x="{_n(x + 1.5)}" y="{_n(y + 1.5)}" '
                           f'width="{_n(w - 3)}" height="{_n(h - 3)}" fill="none" stroke="#6e6e6e" '
                           'stroke-width="1.5" stroke-dasharray="4 3" rx="2"/>')
            # A legal length never splits a piece into valid and padding cells, so there is no third case.
        return out

    def legend(self) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        if self.v is not None and self.vdim is not None:
            lines.append((f"vector length {self.v} along dim {self.vdim} (exact)", "run"))
        lines.append((f"colour: address mod {len(PALETTE)}", "colour"))
        if not all(all(row) for row in self.valid):
            lines.append(("grey: padding (invalid, no address)", "padding"))
        return lines

    def legend_line(self, text: str, kind: str, y: float) -> list[str]:
        x = _MARGIN
        if kind == "run":
            mark = (f'<rect x="{_n(x + 1)}" y="{_n(y + 1)}" width="16" height="12" fill="none" '
                    'stroke="#1a1a1a" stroke-width="3" rx="2"/>')
        elif kind == "padding":
            mark = f'<rect x="{_n(x)}" y="{_n(y)}" width="18" height="14" fill="{PAD_FILL}"/>'
        else:
            mark = "".join(f'<rect x="{_n(x + 2.25 * k)}" y="{_n(y)}" width="2.25" height="14" '
                           f'fill="{c}"/>' for k, c in enumerate(PALETTE))
        return [f'<g class="legend">{mark}<text x="{_n(x + 24)}" y="{_n(y + 11)}" font-size="12">'
                f"{_esc(text)}</text></g>"]
