"""SVG pictures of a view's addresses on a 2-D slice, in the style of CuTe's layout pictures.

Each cell of the grid shows the buffer address of one view point, coloured by ``address % 8`` so
contiguous runs read as a repeating rainbow; padding (invalid points) is grey with no number. The
aligned runs of the exact maximal vector length (``max_vector_length``) get a thick outline. The
SVG is written as text: no plotting dependency.

A picture shows at most ``MAX_SIDE`` cells a side. A larger slice is drawn through a window: one
given (``row_window``/``col_window``; ``--rows D:START:STOP``/``--cols D:START:STOP`` on the command
line) or, by default, its first ``DEFAULT_WINDOW`` cells, which the picture's title states.
"""

from __future__ import annotations

import html
import math
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, SupportsIndex, cast

import numpy as np

from ._analyses.vectorize import max_vector_length
from ._maps.equations import dim_names
from ._maps.view import View, addresses_of
from .errors import CoordinateError, DrawError, InvalidArgumentError

MAX_SIDE = 64
"""The most cells along either side of a picture; a larger window is refused as unreadable."""

DEFAULT_WINDOW = (32, 64)
"""(rows, columns) drawn of a side longer than ``MAX_SIDE`` when no window is given: its first cells."""

PALETTE = ("#9ecae9", "#ffbe7d", "#8cd17d", "#ff9d9a", "#c8b3e0", "#d4a6a0", "#f7b6d2", "#e0e08a")
"""Fill colours, by ``address % len(PALETTE)``: light enough for black numbers."""

PAD_FILL = "#d0d0d0"
"""Fill of padding (invalid) cells."""

_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
_MARGIN = 12.0

Side = Literal["rows", "cols"]
Window = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Names:
    """How the caller spells the options, for error messages: Python keywords or command-line flags."""

    cli: bool
    """True: ``--rows``, ``--cols``, ``--fixed``, ``--vector-dim``; False: ``draw_svg``'s keywords."""
    rows_text: str = ""
    """The text given to ``--rows``, or the ``repr`` of ``row_window``."""
    cols_text: str = ""
    """The text given to ``--cols``, or the ``repr`` of ``col_window``."""

    @property
    def prefix(self) -> str:
        return "" if self.cli else "draw_svg: "

    def arg(self, key: Literal["rows", "cols", "fixed", "vector_dim"]) -> str:
        return "--" + key.replace("_", "-") if self.cli else key

    def window(self, side: Side) -> str:
        """The window as the caller gave it."""
        text = self.rows_text if side == "rows" else self.cols_text
        return f"--{side} {text}" if self.cli else f"{side[:-1]}_window {text}"

    def window_example(self, side: Side, dim: int, start: int, stop: int) -> str:
        if self.cli:
            return f"--{side} {dim}:{start}:{stop}"
        return f"{side[:-1]}_window=range({start}, {stop})"


PYTHON = Names(cli=False)


@dataclass(frozen=True, slots=True)
class Slice:
    """What a picture shows: the drawn dims, their windows, where the other dims are fixed."""

    shape: tuple[int, ...]
    """The view's shape."""
    rows: int | None
    """The dim drawn down the rows (``None``: one row)."""
    cols: int | None
    """The dim drawn across the columns (``None``: one column)."""
    row_window: range
    """The coordinates of ``rows`` drawn (``range(1)`` when ``rows`` is ``None``)."""
    col_window: range
    """The coordinates of ``cols`` drawn (``range(1)`` when ``cols`` is ``None``)."""
    fixed: tuple[int, ...]
    """The coordinate of every dim (those of ``rows`` and ``cols`` are ignored)."""
    vector_dim: int | None
    """The dim whose runs are outlined (``None``: no dim is drawn)."""
    vector_length: int | None
    """``max_vector_length(view, vector_dim).length``."""
    cropped: tuple[Side, ...]
    """The sides cut to ``DEFAULT_WINDOW`` because they were too long and no window was given."""

    @property
    def n_rows(self) -> int:
        return len(self.row_window)

    @property
    def n_cols(self) -> int:
        return len(self.col_window)

    def drawn(self, side: Side) -> tuple[int | None, range]:
        return (self.rows, self.row_window) if side == "rows" else (self.cols, self.col_window)

    def is_window(self) -> bool:
        """Whether a drawn dim is not drawn whole."""
        return any(d is not None and len(w) != self.shape[d]
                   for d, w in (self.drawn("rows"), self.drawn("cols")))

    def cells_text(self) -> str:
        """``0:32 x 0:64 of 2304 x 200704``: the window against the slice."""
        sides = [(w, self.shape[d]) for d, w in (self.drawn("rows"), self.drawn("cols")) if d is not None]
        return (f"{' x '.join(f'{w.start}:{w.stop}' for w, _ in sides)} of "
                f"{' x '.join(str(n) for _, n in sides)}")


def draw_svg(view: View, *, rows: int | None = None, cols: int | None = None,
             row_window: range | Window | None = None, col_window: range | Window | None = None,
             fixed: Mapping[int, int] | None = None, vector_dim: int | None = None,
             cell: float | None = None, title: str | None = None) -> str:
    """An SVG picture of the view's addresses on the 2-D slice ``rows`` x ``cols``.

    ``cols`` defaults to the dim with the longest exact vector run (``max_vector_length``; ties go
    to a dim of size above 1, then to the last dim) and ``rows`` to another dim (one of size above
    1 first, then the longest run, then the last); dims in ``fixed`` are never chosen. When no dim
    is left the picture has one row (``rows`` is ``None``, e.g. a rank-1 view) or one cell. Dims
    that are not drawn sit at ``fixed[dim]`` (default 0) and the picture says so.

    ``row_window`` and ``col_window`` (a ``range(START, STOP)`` or a ``(START, STOP)`` pair) draw
    only those coordinates of the rows and cols dims, at most ``MAX_SIDE`` of each; a side longer
    than ``MAX_SIDE`` with no window is cut to its first ``DEFAULT_WINDOW`` cells (32 rows, 64
    columns), and the title says which cells are drawn of how many.

    The aligned runs of ``v = max_vector_length(view, vector_dim).length`` cells along
    ``vector_dim`` are outlined: solid when valid, dashed when all padding; runs cut by a window's
    edge continue past it. ``vector_dim`` defaults to the drawn dim with the longer runs (ties:
    ``cols``). ``cell`` is the height of a cell in pixels (default 30); cells are square unless
    widened to fit the longest address. Bad dims, windows and coordinates raise
    ``CoordinateError``; a window above ``MAX_SIDE`` cells or an empty view raises ``DrawError``.

    Example: for ``<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>`` with bounds
    ``[32] -> [4, 8]`` over ``memref<4x8xf32>``, ``draw_svg(view)`` draws one row of 32 cells
    holding ``0 .. 31`` inside one outline (vector length 32 along dim 0), and
    ``draw_svg(view, col_window=range(8, 16))`` the cells ``8 .. 15``, the outline running past
    both edges.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"draw_svg: expected a View, got {type(view).__name__}")
    _check_options(cell, title)
    names = Names(cli=False, rows_text=repr(row_window), cols_text=repr(col_window))
    sl = choose_slice(view, rows=rows, cols=cols, fixed=fixed, vector_dim=vector_dim,
                      row_window=_python_window(row_window, "row_window"),
                      col_window=_python_window(col_window, "col_window"), names=names)
    return render_svg(view, sl, cell=cell, title=title)


def choose_slice(view: View, *, rows: object = None, cols: object = None, fixed: object = None,
                 vector_dim: object = None, row_window: Window | None = None,
                 col_window: Window | None = None, names: Names = PYTHON) -> Slice:
    """The slice ``draw_svg`` draws: the arguments checked and the defaults chosen (see there)."""
    shape, rank, p = view.shape, view.rank, names.prefix
    if 0 in shape:
        raise DrawError(f"{p}the view {list(shape)} is empty; there is nothing to draw")
    r = None if rows is None else _dim(rows, f"{names.arg('rows')} dim", rank, names)
    c = None if cols is None else _dim(cols, f"{names.arg('cols')} dim", rank, names)
    if r is not None and r == c:
        raise CoordinateError(f"{p}{names.arg('rows')} and {names.arg('cols')} are both dim {r}; "
                              "pick two different dims")
    point = [0] * rank
    pinned: set[int] = set()
    if fixed is not None:
        if not isinstance(fixed, Mapping):
            raise CoordinateError(f"{p}fixed must be a mapping {{dim: coordinate}}, got {fixed!r}")
        # The keys and values are checked one by one below.
        for key, value in cast(Mapping[object, object], fixed).items():
            d = _dim(key, f"{names.arg('fixed')} dim", rank, names)
            if d in (r, c):
                side = names.arg("rows") if d == r else names.arg("cols")
                raise CoordinateError(f"{p}dim {d} is drawn ({side}); it cannot also be fixed")
            x = _index(value, f"{names.arg('fixed')} coordinate of dim {d}", names)
            if not 0 <= x < shape[d]:
                raise CoordinateError(f"{p}{names.arg('fixed')} coordinate of dim {d} is {x}, "
                                      f"outside [0, {shape[d]})")
            point[d] = x
            pinned.add(d)
    runs: dict[int, int] = {}

    def run(d: int) -> int:
        if d not in runs:
            runs[d] = max_vector_length(view, d).length
        return runs[d]

    free = [d for d in range(rank) if d not in pinned and d not in (r, c)]
    if c is None and free:
        c = max(free, key=lambda d: (run(d), shape[d] > 1, d))
        free.remove(c)
    if r is None and free:
        r = max(free, key=lambda d: (shape[d] > 1, run(d), d))
    rw, row_cut = _window(view, "rows", r, row_window, names)
    cw, col_cut = _window(view, "cols", c, col_window, names)
    drawn = [d for d in (c, r) if d is not None]  # cols first: it wins ties
    if vector_dim is None:
        vd = max(drawn, key=run) if drawn else None
    else:
        vd = _dim(vector_dim, names.arg("vector_dim"), rank, names)
        if vd not in drawn:
            pairs: tuple[tuple[Side, int | None], ...] = (("rows", r), ("cols", c))
            shown = ", ".join(f"{names.arg(k)}{' ' if names.cli else '='}{x}" for k, x in pairs
                              if x is not None)
            raise CoordinateError(
                f"{p}{names.arg('vector_dim')} {vd} is not drawn ({shown}); its runs would not be visible")
    cut: tuple[Side, ...] = (*(("rows",) if row_cut else ()), *(("cols",) if col_cut else ()))
    return Slice(shape, r, c, rw, cw, tuple(point), vd, None if vd is None else run(vd), cut)


def _window(view: View, side: Side, d: int | None, given: Window | None,
            names: Names) -> tuple[range, bool]:
    """The coordinates of dim ``d`` drawn along ``side``, and whether they were cut by default."""
    p, along = names.prefix, "down the rows" if side == "rows" else "across the columns"
    if d is None:
        if given is not None:
            raise CoordinateError(f"{p}{names.window(side)}: no dim is drawn {along}")
        return range(1), False
    n = view.shape[d]
    if given is None:
        if n <= MAX_SIDE:
            return range(n), False
        return range(DEFAULT_WINDOW[0] if side == "rows" else DEFAULT_WINDOW[1]), True
    start, stop = given
    if not 0 <= start < stop <= n:
        raise CoordinateError(
            f"{p}{names.window(side)} is outside dim {d} of size {n}: a window START:STOP "
            f"needs 0 <= START < STOP <= {n}")
    if stop - start > MAX_SIDE:
        raise DrawError(
            f"{p}{names.window(side)} has {stop - start} cells {along}, more than the "
            f"{MAX_SIDE} that stay readable: draw at most {MAX_SIDE}, e.g. "
            f"{names.window_example(side, d, start, start + MAX_SIDE)}")
    return range(start, stop), False


def _python_window(value: object, what: str) -> Window | None:
    if value is None:
        return None
    if isinstance(value, range):
        if value.step != 1:
            raise CoordinateError(f"draw_svg: {what} must have step 1, got {value!r}")
        return value.start, value.stop
    if isinstance(value, tuple):
        pair = cast(tuple[object, ...], value)
        if len(pair) == 2:
            return (_index(pair[0], f"{what} start", PYTHON), _index(pair[1], f"{what} stop", PYTHON))
    raise CoordinateError(f"draw_svg: {what} must be a range(START, STOP) or a (START, STOP) pair, "
                          f"got {value!r}")


def _check_options(cell: object, title: object) -> None:
    if cell is not None:
        if isinstance(cell, bool) or not isinstance(cell, int | float) or not math.isfinite(cell):
            raise DrawError(f"draw_svg: cell must be a number of pixels, got {cell!r}")
        if cell < 8:
            raise DrawError(f"draw_svg: cell must be at least 8 pixels, got {cell}")
    if title is not None and not isinstance(title, str):
        raise DrawError(f"draw_svg: title must be a string, got {title!r}")


def _index(value: object, what: str, names: Names) -> int:
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise CoordinateError(f"{names.prefix}{what} must be an integer, got {value!r}")
    return operator.index(value)


def _dim(value: object, what: str, rank: int, names: Names) -> int:
    d = _index(value, what, names)
    if not 0 <= d < rank:
        raise CoordinateError(f"{names.prefix}{what} {d} out of range for a view of rank {rank}")
    return d


# The command line's spelling: --rows D[:START:STOP], --cols D[:START:STOP], --fixed DIM=COORD

_SPEC = re.compile(r"\s*(\d+)\s*(?::\s*(\d+)\s*:\s*(\d+)\s*)?")
_FIXED = re.compile(r"\s*(\d+)\s*=\s*(-?\d+)\s*")


def parse_dim_spec(flag: str, text: str) -> tuple[int, Window | None]:
    """``--rows 1`` -> ``(1, None)``; ``--rows 1:0:32`` -> ``(1, (0, 32))``."""
    m = _SPEC.fullmatch(text)
    if m is None:
        raise DrawError(f"{flag} {text}: expected D or D:START:STOP (a dim, optionally with the "
                        f"window START:STOP of its coordinates), e.g. {flag} 1 or {flag} 1:0:32")
    d, start, stop = m.groups()
    return int(d), None if start is None else (int(start), int(stop))


def parse_fixed(items: Sequence[str]) -> dict[int, int]:
    """``["0=3", "2=1"]`` -> ``{0: 3, 2: 1}``."""
    fixed: dict[int, int] = {}
    for item in items:
        m = _FIXED.fullmatch(item)
        if m is None:
            raise DrawError(f"--fixed {item}: expected DIM=COORD, e.g. --fixed 0=3")
        d, x = int(m.group(1)), int(m.group(2))
        if d in fixed:
            raise DrawError(f"--fixed {item}: dim {d} is already fixed (at {fixed[d]})")
        fixed[d] = x
    return fixed


def cli_slice(view: View, *, rows: str | None, cols: str | None, fixed: Sequence[str],
              vector_dim: str | None) -> Slice:
    """``choose_slice`` from the command line's flags; its errors name the flags."""
    r, rw = (None, None) if rows is None else parse_dim_spec("--rows", rows)
    c, cw = (None, None) if cols is None else parse_dim_spec("--cols", cols)
    vd = None
    if vector_dim is not None:
        if not vector_dim.strip().isdecimal():
            raise DrawError(f"--vector-dim {vector_dim}: expected a dim (an integer), e.g. --vector-dim 1")
        vd = int(vector_dim)
    names = Names(cli=True, rows_text=rows or "", cols_text=cols or "")
    return choose_slice(view, rows=r, cols=c, fixed=parse_fixed(fixed), vector_dim=vd,
                        row_window=rw, col_window=cw, names=names)


def cli_crop_note(sl: Slice) -> str | None:
    """What was left out of a slice cut by default, and the flags that draw the rest."""
    if not sl.cropped:
        return None
    sides: list[tuple[Side, int, range]] = []
    for side in ("rows", "cols"):
        d, w = sl.drawn(side)
        if d is not None:
            sides.append((side, d, w))
    same = " ".join(f"--{side} {d}:{w.start}:{w.stop}" for side, d, w in sides)
    cut = [(side, d, w) for side, d, w in sides if side in sl.cropped]
    return (f"drew only {sl.cells_text()} cells of the slice "
            f"{' x '.join(f'dim {d}' for _, d, _ in sides)} ("
            + " and ".join(f"dim {d} cut to its first {len(w)}" for _, d, w in cut)
            + f" to stay readable), as {same} would; draw others with "
            + " and ".join(f"--{side} {d}:START:STOP" for side, d, _ in cut)
            + f", at most {MAX_SIDE} a side")


def render_svg(view: View, sl: Slice, *, cell: float | None = None, title: str | None = None) -> str:
    """The SVG text of the slice ``sl`` of ``view`` (from ``choose_slice``)."""
    _check_options(cell, title)
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

    def __init__(self, view: View, sl: Slice, addresses: list[list[int]], valid: list[list[bool]],
                 cell: float | None, title: str | None) -> None:
        self.view, self.sl, self.addresses, self.valid = view, sl, addresses, valid
        self.vdim, self.v = sl.vector_dim, sl.vector_length
        widest = max((len(str(a)) for row, ok in zip(addresses, valid, strict=True)
                      for a, o in zip(row, ok, strict=True) if o), default=1)
        self.h = 30.0 if cell is None else float(cell)
        self.font = max(4.0, min(12.0, self.h * 0.42))
        # Long addresses widen the cells rather than shrink the numbers.
        self.w = max(self.h, math.ceil(_text_width("0" * widest, self.font) + (12 if cell is None else 4)))
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
        left = 0.0 if sl.rows is None else max(_text_width(str(sl.row_window.stop - 1), label_font),
                                               _text_width(self.row_axis_label(), 12.0)) + 8
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
            kind = line.split(":", 1)[0]
            out.append(f'<text class="{kind}" x="{_n(_MARGIN)}" y="{_n(_MARGIN + 22 + 17 * k + 12)}" '
                       f'font-size="12">{_esc(line)}</text>')
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
            out.append(f'<text class="axis" x="{_n(x0)}" y="{_n(y0 - 15 - col_axis + 12)}" font-size="12">'
                       f'{_esc(self.dim_label(sl.cols))} \u2192</text>')
            size = min(font, w * 0.4, 1.6 * w / max(1, len(str(sl.col_window.stop - 1))))
            for j, label in enumerate(sl.col_window):
                out.append(f'<text class="col-label" x="{_n(x0 + (j + 0.5) * w)}" y="{_n(y0 - 4)}" '
                           f'font-size="{_n(size)}" text-anchor="middle" fill="#555555">{label}</text>')
        if sl.rows is not None:
            out.append(f'<text class="axis" x="{_n(x0 - 5)}" y="{_n(y0 - 4)}" font-size="12" '
                       f'text-anchor="end">{_esc(self.row_axis_label())}</text>')
            size = min(font, h * 0.4)
            for i, label in enumerate(sl.row_window):
                y = y0 + (i + 0.5) * h + 0.35 * size
                out.append(f'<text class="row-label" x="{_n(x0 - 5)}" y="{_n(y)}" '
                           f'font-size="{_n(size)}" text-anchor="end" fill="#555555">{label}</text>')
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
                box = f'x="{_n(x + 1.5)}" y="{_n(y + 1.5)}" width="{_n(w - 3)}" height="{_n(h - 3)}"'
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
                f'x="{_n(x0)}" y="{_n(y0)}" width="{_n(grid_w)}" height="{_n(grid_h)}"/></clipPath></defs>',
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
            mark = (f'<rect x="{_n(x + 1)}" y="{_n(y + 1)}" width="16" height="12" fill="none" '
                    'stroke="#1a1a1a" stroke-width="3" rx="2"/>')
        elif kind == "padding":
            mark = f'<rect x="{_n(x)}" y="{_n(y)}" width="18" height="14" fill="{PAD_FILL}"/>'
        else:
            mark = "".join(f'<rect x="{_n(x + 2.25 * k)}" y="{_n(y)}" width="2.25" height="14" '
                           f'fill="{c}"/>' for k, c in enumerate(PALETTE))
        return [f'<g class="legend">{mark}<text x="{_n(x + 24)}" y="{_n(y + 11)}" font-size="12">'
                f"{_esc(text)}</text></g>"]
