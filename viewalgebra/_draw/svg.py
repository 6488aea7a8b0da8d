"""The SVG text of a picture: one cell per view point holding its buffer address, coloured by
``address % 8`` so contiguous runs read as a repeating rainbow, padding grey with no number, and
the aligned runs of the exact vector length outlined. Written as text: no plotting dependency.
"""

from __future__ import annotations

import html
import math

import numpy as np

from .._maps.equations import dim_names
from .._maps.view import View, addresses_of
from ..errors import DrawError
from .slice import Slice

PALETTE = ("#9ecae9", "#ffbe7d", "#8cd17d", "#ff9d9a", "#c8b3e0", "#d4a6a0", "#f7b6d2", "#e0e08a")
"""Fill colours, by ``address % len(PALETTE)``: light enough for black numbers."""


PAD_FILL = "#d0d0d0"
"""Fill of padding (invalid) cells."""


_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


_MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


_MARGIN = 12.0


def check_options(cell: object, title: object) -> None:
    if cell is not None:
        if isinstance(cell, bool) or not isinstance(cell, int | float) or not math.isfinite(cell):
            raise DrawError(f"draw_svg: cell must be a number of pixels, got {cell!r}")
        if cell < 8:
            raise DrawError(f"draw_svg: cell must be at least 8 pixels, got {cell}")
    if title is not None and not isinstance(title, str):
        raise DrawError(f"draw_svg: title must be a string, got {title!r}")


def render_svg(view: View, sl: Slice, *, cell: float | None = None, title: str | None = None) -> str:
    """The SVG text of the slice ``sl`` of ``view`` (from ``choose_slice``)."""
    check_options(cell, title)
    ri = np.asarray(sl.row_window, dtype=np.int64)
    ci = np.asarray(sl.col_window, dtype=np.int64)
    grid = np.stack(np.meshgrid(ri, ci, indexing="ij")).reshape(2, -1)
    points = np.tile(np.asarray(sl.fixed, dtype=np.int64), (sl.n_rows * sl.n_cols, 1))
    if sl.rows is not None:
        points[:, sl.rows] = grid[0]
    if sl.cols is not None:
        points[:, sl.cols] = grid[1]
    addr, valid = addresses_of(view, points)
    addresses: list[list[int]] = addr.reshape(sl.n_rows, sl.n_cols).tolist()
    valids: list[list[bool]] = valid.reshape(sl.n_rows, sl.n_cols).tolist()
    return _Picture(view, sl, addresses, valids, cell, title).svg()


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def coord(x: float) -> str:
    """A coordinate for SVG: at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def text_width(text: str, size: float) -> float:
    """A generous estimate of rendered text width (no font metrics without a renderer)."""
    return 0.62 * size * len(text)


class _Picture:
    """Layout and SVG text of one picture."""

    def __init__(self, view: View, sl: Slice, addresses: list[list[int]], valid: list[list[bool]],
                 cell: float | None, title: str | None) -> None:
        self.view, self.sl, self.addresses, self.valid = view, sl, addresses, valid
        self.vdim, self.v = sl.vector_dim, sl.vector_length
        widest = max((len(str(a)) for row, ok in zip(addresses, valid, strict=True)
                      for a, o in zip(row, ok, strict=True) if o), default=1)
        self.h = 30.0 if cell is None else float(cell)
        self.font = max(4.0, min(12.0, self.h * 0.42))
        # Long addresses widen the cells rather than shrink the numbers.
        self.w = max(self.h, math.ceil(text_width("0" * widest, self.font) + (12 if cell is None else 4)))
        self.names = dim_names(view.maps[0], "upper") if view.maps else ()
        buf = view.buffer
        memref = "x".join([*map(str, buf.shape), buf.dtype])
        # A window is stated in the title itself, so that no crop goes unseen.
        self.title = title if title is not None else (
            f"view {list(view.shape)} of memref<{memref}>: buffer addresses"
            + (f", cells {sl.cells_text()}" if sl.is_window() else ""))
        self.lines: list[str] = []
        if sl.is_window():
            line = "window: " + ", ".join(
                f"{self.dim_label(d)} {w.start}:{w.stop} of {sl.shape[d]}"
                for d, w in (sl.drawn("rows"), sl.drawn("cols")) if d is not None)
            if sl.cropped:
                line += "; only the first cells, to stay readable: choose a window to see others"
            self.lines.append(line)
        if any(d not in (sl.rows, sl.cols) for d in range(view.rank)):
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
        left = 0.0 if sl.rows is None else max(text_width(str(sl.row_window.stop - 1), label_font),
                                               text_width(self.row_axis_label(), 12.0)) + 8
        x0 = _MARGIN + left
        y0 = _MARGIN + head + col_axis + col_labels
        legend = self.legend()
        grid_w, grid_h = sl.n_cols * self.w, sl.n_rows * self.h
        texts = [(self.title, 14.0), *((t, 12.0) for t in self.lines), *((t, 12.0) for t, _ in legend)]
        width = max(x0 + grid_w, *(_MARGIN + text_width(t, z) + (24 if z == 12.0 else 0) for t, z in texts))
        width += _MARGIN
        legend_y = y0 + grid_h + 10
        height = legend_y + 20.0 * len(legend) + _MARGIN - 4
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{coord(width)}" height="{coord(height)}" '
            f'viewBox="0 0 {coord(width)} {coord(height)}" font-family="{_FONT}">',
            f'<rect class="background" x="0" y="0" width="{coord(width)}" height="{coord(height)}" '
            'fill="#ffffff"/>',
            f'<text class="title" x="{coord(_MARGIN)}" y="{coord(_MARGIN + 14)}" font-size="14" '
            f'font-weight="bold">{esc(self.title)}</text>',
        ]
        for k, line in enumerate(self.lines):
            kind = line.split(":", 1)[0]
            out.append(f'<text class="{kind}" x="{coord(_MARGIN)}" y="{coord(_MARGIN + 22 + 17 * k + 12)}" '
                       f'font-size="12">{esc(line)}</text>')
        out += self.axes(x0, y0, label_font, col_axis)
        out += self.cells(x0, y0)
        out += self.runs(x0, y0, grid_w, grid_h)
        for k, (text, kind) in enumerate(legend):
            out += self.legend_line(text, kind, legend_y + 20.0 * k)
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def axes(self, x0: float, y0: float, font: float, col_axis: float) -> list[str]:
        sl, w, h = self.sl, self.w, self.h
        out: list[str] = []
        if sl.cols is not None:
            out.append(f'<text class="axis" x="{coord(x0)}" y="{coord(y0 - 15 - col_axis + 12)}" '
                       f'font-size="12">{esc(self.dim_label(sl.cols))} \u2192</text>')
            size = min(font, w * 0.4, 1.6 * w / max(1, len(str(sl.col_window.stop - 1))))
            for j, label in enumerate(sl.col_window):
                out.append(f'<text class="col-label" x="{coord(x0 + (j + 0.5) * w)}" y="{coord(y0 - 4)}" '
                           f'font-size="{coord(size)}" text-anchor="middle" fill="#555555">{label}</text>')
        if sl.rows is not None:
            out.append(f'<text class="axis" x="{coord(x0 - 5)}" y="{coord(y0 - 4)}" font-size="12" '
                       f'text-anchor="end">{esc(self.row_axis_label())}</text>')
            size = min(font, h * 0.4)
            for i, label in enumerate(sl.row_window):
                y = y0 + (i + 0.5) * h + 0.35 * size
                out.append(f'<text class="row-label" x="{coord(x0 - 5)}" y="{coord(y)}" '
                           f'font-size="{coord(size)}" text-anchor="end" fill="#555555">{label}</text>')
        return out

    def point(self, i: int, j: int) -> tuple[int, ...]:
        """The view point of the cell in row ``i`` and column ``j`` of the grid."""
        sl = self.sl
        return tuple(sl.row_window[i] if d == sl.rows else sl.col_window[j] if d == sl.cols else x
                     for d, x in enumerate(sl.fixed))

    def cells(self, x0: float, y0: float) -> list[str]:
        w, h = self.w, self.h
        out: list[str] = []
        for i, (row, ok) in enumerate(zip(self.addresses, self.valid, strict=True)):
            for j, (a, o) in enumerate(zip(row, ok, strict=True)):
                p = self.point(i, j)
                x, y = x0 + j * w, y0 + i * h
                point = ",".join(map(str, p))
                rect = (f'<rect x="{coord(x)}" y="{coord(y)}" width="{coord(w)}" height="{coord(h)}" '
                        f'fill="{PALETTE[a % len(PALETTE)] if o else PAD_FILL}" stroke="#ffffff" '
                        'stroke-width="1"/>')
                if o:
                    # A baseline offset instead of dominant-baseline, which renderers disagree on.
                    base = y + h / 2 + 0.35 * self.font
                    body = (f'<text class="address" x="{coord(x + w / 2)}" y="{coord(base)}" '
                            f'font-size="{coord(self.font)}" font-family="{_MONO}" text-anchor="middle" '
                            f'fill="#111111">{a}</text>')
                    tip = f"{list(p)} -> address {a}"
                    out.append(f'<g class="cell" data-coord="{point}" data-address="{a}">'
                               f"<title>{esc(tip)}</title>{rect}{body}</g>")
                else:
                    dot = (f'<circle cx="{coord(x + w / 2)}" cy="{coord(y + h / 2)}" '
                           f'r="{coord(max(1.0, h / 14))}" fill="#8c8c8c"/>')
                    tip = f"{list(p)} -> padding (invalid)"
                    out.append(f'<g class="cell padding" data-coord="{point}">'
                               f"<title>{esc(tip)}</title>{rect}{dot}</g>")
        return out

    def runs(self, x0: float, y0: float, grid_w: float, grid_h: float) -> list[str]:
        """The outlines of the aligned runs of ``v`` cells along the vector dim.

        Runs are aligned in the view's coordinates, not the window's: one cut by the window's edge
        is drawn at its full length (at most one cell past the edge) and clipped to the grid, so
        that its open end shows that it goes on.
        """
        sl, cw, ch, v = self.sl, self.w, self.h, self.v
        if v is None or self.vdim is None:
            return []
        across = self.vdim == sl.cols
        window = sl.col_window if across else sl.row_window
        other = sl.n_rows if across else sl.n_cols
        first, last = window.start, window.stop
        out: list[str] = []
        for k in range(other):
            for s in range(first // v * v, last, v):
                lo, hi = max(s, first), min(s + v, last)  # the run's cells inside the window
                oks = [self.valid[k][t - first] if across else self.valid[t - first][k]
                       for t in range(lo, hi)]
                a, b = max(s, first - 1) - first, min(s + v, last + 1) - first  # drawn span, in cells
                x, y, w, h = ((x0 + a * cw, y0 + k * ch, (b - a) * cw, ch) if across
                              else (x0 + k * cw, y0 + a * ch, cw, (b - a) * ch))
                box = (f'x="{coord(x + 1.5)}" y="{coord(y + 1.5)}" '
                       f'width="{coord(w - 3)}" height="{coord(h - 3)}"')
                if all(oks):
                    out.append(f'<rect class="run" {box} fill="none" stroke="#1a1a1a" stroke-width="3" '
                               'rx="2"/>')
                elif not any(oks):
                    out.append(f'<rect class="run padding" {box} fill="none" stroke="#6e6e6e" '
                               'stroke-width="1.5" stroke-dasharray="4 3" rx="2"/>')
                # A legal length never splits a piece into valid and padding cells, so there is no third case.
        if not out:
            return []
        return ['<defs><clipPath id="grid"><rect '
                f'x="{coord(x0)}" y="{coord(y0)}" width="{coord(grid_w)}" '
                f'height="{coord(grid_h)}"/></clipPath></defs>',
                '<g class="runs" clip-path="url(#grid)">', *out, "</g>"]

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
            mark = (f'<rect x="{coord(x + 1)}" y="{coord(y + 1)}" width="16" height="12" fill="none" '
                    'stroke="#1a1a1a" stroke-width="3" rx="2"/>')
        elif kind == "padding":
            mark = f'<rect x="{coord(x)}" y="{coord(y)}" width="18" height="14" fill="{PAD_FILL}"/>'
        else:
            mark = "".join(f'<rect x="{coord(x + 2.25 * k)}" y="{coord(y)}" width="2.25" height="14" '
                           f'fill="{c}"/>' for k, c in enumerate(PALETTE))
        return [f'<g class="legend">{mark}<text x="{coord(x + 24)}" y="{coord(y + 11)}" font-size="12">'
                f"{esc(text)}</text></g>"]
