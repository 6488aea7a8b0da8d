"""SVG pictures of a view's addresses on a 2-D slice, in the style of CuTe's layout pictures; and
(``banks.py``, ``banks``) of one LDS instruction's phases, bank by bank.

Each cell of the grid shows the buffer address of one view point, coloured by ``address % 8`` so
contiguous runs read as a repeating rainbow; padding (invalid points) is grey with no number. The
aligned runs of the exact maximal vector length (``max_vector_length``) get a thick outline. The
SVG is written as text: no plotting dependency.

A picture shows at most ``MAX_SIDE`` cells a side. A larger slice is drawn through a window: one
given (``row_window``/``col_window``; ``--rows D:START:STOP``/``--cols D:START:STOP`` on the command
line) or, by default, its first ``DEFAULT_WINDOW`` cells, which the picture's title states.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._maps.view import View
from ..errors import InvalidArgumentError
from .banks import banks
from .slice import (
    DEFAULT_WINDOW,
    MAX_SIDE,
    Names,
    Slice,
    Window,
    choose_slice,
    cli_crop_note,
    cli_slice,
    python_window,
)
from .svg import PAD_FILL, PALETTE, check_options, render_svg

__all__ = ["DEFAULT_WINDOW", "MAX_SIDE", "PAD_FILL", "PALETTE", "Slice", "banks", "cli_crop_note",
           "cli_slice", "draw_svg", "render_svg"]



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
    check_options(cell, title)
    names = Names(cli=False, rows_text=repr(row_window), cols_text=repr(col_window))
    sl = choose_slice(view, rows=rows, cols=cols, fixed=fixed, vector_dim=vector_dim,
                      row_window=python_window(row_window, "row_window"),
                      col_window=python_window(col_window, "col_window"), names=names)
    return render_svg(view, sl, cell=cell, title=title)
