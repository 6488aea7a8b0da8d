"""What a picture of a view shows: the two drawn dims, their windows (at most ``MAX_SIDE`` cells a
side; ``DEFAULT_WINDOW`` of a longer side when none is given), where the other dims are fixed and
which dim's runs are outlined; chosen from ``draw_svg``'s keywords or the command line's flags,
whose spelling the errors use (``Names``).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, SupportsIndex, cast

from .._analyses.vectorize import max_vector_length
from .._maps.view import View
from ..errors import CoordinateError, DrawError

MAX_SIDE = 64
"""The most cells along either side of a picture; a larger window is refused as unreadable."""


DEFAULT_WINDOW = (32, 64)
"""(rows, columns) drawn of a side longer than ``MAX_SIDE`` when no window is given: its first cells."""


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


def python_window(value: object, what: str) -> Window | None:
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


def _index(value: object, what: str, names: Names) -> int:
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise CoordinateError(f"{names.prefix}{what} must be an integer, got {value!r}")
    return operator.index(value)


def _dim(value: object, what: str, rank: int, names: Names) -> int:
    d = _index(value, what, names)
    if not 0 <= d < rank:
        raise CoordinateError(f"{names.prefix}{what} {d} out of range for a view of rank {rank}")
    return d


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
