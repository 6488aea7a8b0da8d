"""SVG pictures of one LDS instruction's phases (docs/lds.md): one small multiple per phase, its
columns the banks, each column the distinct dwords of the phase on that bank (its height is the
bank's degree), each cell one dword with the lanes that touch it; a bank holding two or more
distinct dwords in a phase, a conflict, is red. Written as text, in the style of ``svg.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .._analyses.lds import BankConflicts, LdsAccess, bank_conflicts, lane_addresses, plan
from .._analyses.lds_model import LdsModel
from .._common.ints import integer
from .._maps.equations import dim_names
from ..errors import CoordinateError, DrawError
from .svg import PALETTE, coord, esc, text_width

CONFLICT_FILL = "#e8474b"
"""Fill of the cells and bank labels of a bank that conflicts in its phase (degree above 1)."""


CONFLICT_TEXT = "#b2182b"
"""Colour of a conflicting bank's label and of a panel's heading when it conflicts."""


FREE_FILL = PALETTE[0]
"""Fill of a cell on a bank that does not conflict (one distinct dword in the phase)."""


_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
_MARGIN = 12.0
_LABEL_CAP = 14
"""The most characters of lanes written in a cell; longer lists are written as ``N lanes`` (the
cell's tooltip and ``data-lanes`` hold them all)."""


@dataclass(frozen=True, slots=True)
class BankCell:
    """One dword of a phase: its bank, its place in the bank's column, and the lanes touching it."""

    bank: int
    row: int
    """0 for the bank's lowest dword in the phase, 1 for the next, ..."""
    dword: int
    """The dword address (byte address // bank bytes)."""
    lanes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BankPanel:
    """One phase of the instruction: its lanes and the dwords they touch, bank by bank."""

    phase: int
    lanes: tuple[int, ...]
    cells: tuple[BankCell, ...]

    def degrees(self) -> dict[int, int]:
        """Bank -> the number of distinct dwords it holds in the phase (banks not touched left out)."""
        found: dict[int, int] = {}
        for c in self.cells:
            found[c.bank] = found.get(c.bank, 0) + 1
        return found

    @property
    def degree(self) -> int:
        """The phase's degree: the most distinct dwords on one bank (0 when no lane accesses)."""
        return max(self.degrees().values(), default=0)


def banks(conflicts: BankConflicts | LdsAccess, model: LdsModel, *, access: LdsAccess | None = None,
          wave: int | None = None, instance: Sequence[int] | None = None, instruction: int | None = None,
          cell: float | None = None, title: str | None = None) -> str:
    """An SVG picture of one LDS instruction's phases: banks across, dwords down, conflicts red.

    One panel per phase: a column per bank holding the distinct dwords the phase's lanes touch on
    it, each cell a dword with those lanes; red where a bank holds more than one dword of the phase
    (a conflict; the column's height is its degree).

    ``conflicts`` is an ``LdsAccess`` (its ``bank_conflicts`` on ``model`` are computed) or its
    ``BankConflicts``, then with the ``access`` it answers. The instruction drawn is that of
    ``wave`` (default: the witness's, else 0), ``instance`` (the instance dims' values as
    ``Collision.instance`` has them; default: the witness's, else the first) and ``instruction``
    (which of a split vector's instructions; default: the witness's, else the one of the highest
    degree there). ``cell`` is a cell's height in pixels (default 30); ``title`` replaces the
    title (the instruction and the arch; the wave, instance and degrees are stated under it). A
    wave, instance or instruction the access does not have raises ``CoordinateError``.

    Example: gfx942 lanes reading f32 at a stride of 8 bytes (``ds_read_b32``, 2 phases of 32
    lanes): each phase's panel has every even bank red, holding 2 dwords (lanes ``l`` and ``l + 16``).
    """
    if isinstance(conflicts, LdsAccess):
        if access is not None and access != conflicts:
            raise DrawError("banks: give an LdsAccess, or its BankConflicts with access=, not two accesses")
        access, result = conflicts, bank_conflicts(conflicts, model)
    elif isinstance(conflicts, BankConflicts):
        if not isinstance(access, LdsAccess):
            raise DrawError("banks: a BankConflicts needs the LdsAccess it answers: banks(result, model, "
                            f"access=access), got access={access!r}")
        result = conflicts
    else:
        raise DrawError(f"banks: expected an LdsAccess or a BankConflicts, got {type(conflicts).__name__}")
    p = plan(access, model)
    if (p.instance_shape, p.instructions) != (result.instance_shape, result.instructions):
        raise DrawError("banks: the BankConflicts does not answer this access on this model "
                        f"(instances {list(result.instance_shape)}, {result.instructions} instruction(s); "
                        f"the access has {list(p.instance_shape)}, {p.instructions})")
    byte, waves = lane_addresses(access, model, p)
    w, n, j = _choose(access, result, waves, wave, instance, instruction)
    values = _instance_values(access, result, n)
    nd = max(result.width // model.bank_bytes, 1)
    lane_dwords = {lane: tuple(range(int(b) // model.bank_bytes, int(b) // model.bank_bytes + nd))
                   for lane, b in enumerate(byte[w, n, j].tolist()) if b >= 0}
    panels = bank_panels(lane_dwords, result.rule.groups, model.banks)
    split = f", instruction {j + 1} of {result.instructions}" if result.instructions > 1 else ""
    names = dim_names(access.view.maps[0], "upper") if access.view.maps else ()
    named = ", ".join(f"{names[d] if d < len(names) else f'dim {d}'} = {x}"
                      for d, x in zip(result.instance_dims, values, strict=True))
    where = f"wave {w}" + (f", instance {tuple(values)} ({named})" if values else "") + split
    degree = int(result.degrees[w, n, j].max()) if result.degrees.size else 0
    cycles = int(np.maximum(result.degrees[w, n, j] - 1, 0).sum())
    lines = [f"{where}: degree {degree}, {cycles} conflict cycle(s); the whole access: degree "
             f"{result.max_degree}, {result.counter} cycle(s)",
             f"{model.arch}: {model.banks} banks of {model.bank_bytes} bytes; phases of "
             f"{result.instruction}: {result.rule.provenance}"]
    heading = title if title is not None else f"{result.instruction} on {model.arch}"
    return render_banks(panels, banks=model.banks, cell=cell, bank_bytes=model.bank_bytes, title=heading,
                        lines=lines)


def _choose(access: LdsAccess, result: BankConflicts, waves: int, wave: int | None,
            instance: Sequence[int] | None, instruction: int | None) -> tuple[int, int, int]:
    """(wave, instance index, instruction) to draw."""
    wit = result.witness
    if wave is None:
        w = wit.wave if wit is not None else 0
    else:
        w = integer(wave, "banks: wave", CoordinateError)
    if not 0 <= w < waves:
        raise CoordinateError(f"banks: wave {w} is not a wave of the access (it has {waves})")
    if instance is None:
        values = wit.instance if wit is not None else tuple(0 for _ in result.instance_dims)
    elif isinstance(instance, str) or not isinstance(instance, Sequence):
        raise CoordinateError(
            f"banks: instance must be a tuple of the instance dims' values, got {instance!r}")
    else:
        values = tuple(integer(x, "banks: instance", CoordinateError) for x in instance)
    n = _instance_index(access, result, values)
    if instruction is None:
        j = (wit.instruction if wit is not None and (wit.wave, wit.instance) == (w, values)
             else int(np.argmax(result.degrees[w, n].max(axis=1))))
    else:
        j = integer(instruction, "banks: instruction", CoordinateError)
        if not 0 <= j < result.instructions:
            raise CoordinateError(
                f"banks: instruction {j}: the vector takes {result.instructions} instruction(s)")
    return w, n, j


def _instance_index(access: LdsAccess, result: BankConflicts, values: tuple[int, ...]) -> int:
    """The index into ``degrees`` of the instance dims' values (a vector dim's value is its vector's
    first coordinate)."""
    dims, shape = result.instance_dims, result.instance_shape
    names = dim_names(access.view.maps[0], "upper") if access.view.maps else ()

    def dim(d: int) -> str:
        return f"dim {d} ({names[d]})" if d < len(names) and names[d] != f"u{d}" else f"dim {d}"

    if len(values) != len(dims):
        raise CoordinateError(f"banks: instance {values} has {len(values)} value(s); the access has "
                              f"{len(dims)} instance dim(s) ({', '.join(map(dim, dims)) or 'none'})")
    index: list[int] = []
    for d, size, x in zip(dims, shape, values, strict=True):
        step = access.vector_length if d == access.vector_axis else 1
        if x % step or not 0 <= x // step < size:
            what = f"a multiple of {step} below {size * step}" if step > 1 else f"in 0..{size - 1}"
            raise CoordinateError(f"banks: instance value {x} of {dim(d)} must be {what}")
        index.append(x // step)
    return int(np.ravel_multi_index(tuple(index), shape)) if shape else 0


def _instance_values(access: LdsAccess, result: BankConflicts, n: int) -> tuple[int, ...]:
    if not result.instance_shape:
        return ()
    index = np.unravel_index(n, result.instance_shape)
    return tuple(int(x) * (access.vector_length if d == access.vector_axis else 1)
                 for d, x in zip(result.instance_dims, index, strict=True))


def bank_panels(lane_dwords: Mapping[int, Sequence[int]], groups: Sequence[Sequence[int]],
                banks: int) -> tuple[BankPanel, ...]:
    """The panels of one instruction: for each phase (a lane group), the distinct dwords its lanes
    touch, each on bank ``dword % banks``, with their lanes. Lanes missing from ``lane_dwords``
    (or with no dword) access nothing."""
    panels: list[BankPanel] = []
    for phase, group in enumerate(groups):
        on: dict[int, dict[int, list[int]]] = {}
        for lane in group:
            for dword in sorted(set(lane_dwords.get(lane, ()))):
                on.setdefault(dword % banks, {}).setdefault(dword, []).append(lane)
        cells = [BankCell(bank, row, dword, tuple(sorted(lanes)))
                 for bank in sorted(on) for row, (dword, lanes) in enumerate(sorted(on[bank].items()))]
        panels.append(BankPanel(phase, tuple(group), tuple(cells)))
    return tuple(panels)


def lanes_text(lanes: Sequence[int]) -> str:
    """Lanes as ranges: ``0-3,20-23``."""
    parts: list[str] = []
    ordered = sorted(lanes)
    k = 0
    while k < len(ordered):
        j = k
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[k]) if j == k else f"{ordered[k]}-{ordered[j]}")
        k = j + 1
    return ",".join(parts)


def render_banks(panels: Sequence[BankPanel], *, banks: int, title: str, lines: Sequence[str] = (),
                 cell: float | None = None, bank_bytes: int = 4) -> str:
    """The SVG text of the panels (from ``bank_panels``), one under the other."""
    if cell is not None and (isinstance(cell, bool) or not isinstance(cell, int | float)
                             or not math.isfinite(cell) or cell < 8):
        raise DrawError(f"banks: cell must be a number of pixels, at least 8, got {cell!r}")
    if not panels:
        raise DrawError("banks: no phase to draw")
    return _Picture(panels, banks, title, tuple(lines), cell, bank_bytes).svg()


def _label(lanes: Sequence[int]) -> str:
    text = lanes_text(lanes)
    return text if len(text) <= _LABEL_CAP else f"{len(lanes)} lanes"


class _Picture:
    """Layout and SVG text of one picture: a title, notes, then one panel per phase."""

    def __init__(self, panels: Sequence[BankPanel], banks: int, title: str, lines: tuple[str, ...],
                 cell: float | None, bank_bytes: int) -> None:
        self.panels, self.banks, self.title, self.lines = panels, banks, title, lines
        self.bank_bytes = bank_bytes
        self.h = 30.0 if cell is None else float(cell)
        self.font = max(4.0, min(11.0, self.h * 0.34))
        widest = max((len(_label(c.lanes)) for p in panels for c in p.cells), default=1)
        widest = max(widest, len(str(banks - 1)))
        self.w = max(self.h, math.ceil(text_width("0" * widest, self.font) + 6))

    def heading(self, p: BankPanel) -> str:
        degrees = self.degree_list(p)
        red = [b for b, d in degrees if d > 1]
        text = f"phase {p.phase}: lanes {lanes_text(p.lanes)}; degree {p.degree}"
        if len(red) > 8:
            text += f", {len(red)} conflicting banks"
        elif red:
            text += f", conflicting bank{'s' if len(red) > 1 else ''} {', '.join(map(str, red))}"
        return text

    @staticmethod
    def degree_list(p: BankPanel) -> list[tuple[int, int]]:
        return sorted(p.degrees().items())

    def svg(self) -> str:
        head = 22.0 + 17.0 * len(self.lines)
        grid_w = self.banks * self.w
        panel_heads = 17.0 + 14.0  # the phase's heading, then the bank numbers
        heights = [panel_heads + max(1, p.degree) * self.h + 14.0 for p in self.panels]
        legend = self.legend()
        texts = [(self.title, 14.0), *((t, 12.0) for t in self.lines),
                 *((self.heading(p), 12.0) for p in self.panels), *((t, 12.0) for t, _ in legend)]
        width = max(_MARGIN + grid_w, *(_MARGIN + text_width(t, z) + 24 for t, z in texts)) + _MARGIN
        y = _MARGIN + head
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            "",  # the svg element, once the height is known
            "",
            f'<text class="title" x="{coord(_MARGIN)}" y="{coord(_MARGIN + 14)}" font-size="14" '
            f'font-weight="bold">{esc(self.title)}</text>',
        ]
        for k, line in enumerate(self.lines):
            out.append(f'<text class="note" x="{coord(_MARGIN)}" y="{coord(_MARGIN + 22 + 17 * k + 12)}" '
                       f'font-size="12">{esc(line)}</text>')
        for p, height in zip(self.panels, heights, strict=True):
            out += self.panel(p, _MARGIN, y + 4)
            y += height
        for k, (text, kind) in enumerate(legend):
            out += self.legend_line(text, kind, y + 4 + 20.0 * k)
        height = y + 4 + 20.0 * len(legend) + _MARGIN
        out[1] = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{coord(width)}" height="{coord(height)}" '
                  f'viewBox="0 0 {coord(width)} {coord(height)}" font-family="{_FONT}">')
        out[2] = (f'<rect class="background" x="0" y="0" width="{coord(width)}" height="{coord(height)}" '
                  'fill="#ffffff"/>')
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def panel(self, p: BankPanel, x0: float, y: float) -> list[str]:
        w, h = self.w, self.h
        degrees = p.degrees()
        red = p.degree > 1
        out = [f'<g class="phase{" conflict" if red else ""}" data-phase="{p.phase}" '
               f'data-degree="{p.degree}" data-lanes="{" ".join(map(str, p.lanes))}">',
               f'<text class="heading" x="{coord(x0)}" y="{coord(y + 12)}" font-size="12" font-weight="bold" '
               f'fill="{CONFLICT_TEXT if red else "#111111"}">{esc(self.heading(p))}</text>']
        top = y + 17.0 + 14.0
        size = min(self.font, w * 0.45)
        for b in range(self.banks):
            hot = degrees.get(b, 0) > 1
            style = f'fill="{CONFLICT_TEXT}" font-weight="bold"' if hot else 'fill="#555555"'
            out.append(f'<text class="bank-label{" conflict" if hot else ""}" data-bank="{b}" '
                       f'x="{coord(x0 + (b + 0.5) * w)}" y="{coord(top - 4)}" font-size="{coord(size)}" '
                       f'text-anchor="middle" {style}>{b}</text>')
        rows = max(1, p.degree)
        out.append(f'<rect class="frame" x="{coord(x0)}" y="{coord(top)}" width="{coord(self.banks * w)}" '
                   f'height="{coord(rows * h)}" fill="#f4f4f4" stroke="#cccccc" stroke-width="1"/>')
        for c in p.cells:
            hot = degrees[c.bank] > 1
            x, cy = x0 + c.bank * w, top + c.row * h
            lanes = " ".join(map(str, c.lanes))
            tip = (f"bank {c.bank}, dword {c.dword} (byte {c.dword * self.bank_bytes}): "
                   f"lane{'s' if len(c.lanes) > 1 else ''} {lanes_text(c.lanes)}"
                   + (f"; bank {c.bank} holds {degrees[c.bank]} dwords" if hot else ""))
            rect = (f'<rect x="{coord(x)}" y="{coord(cy)}" width="{coord(w)}" height="{coord(h)}" '
                    f'fill="{CONFLICT_FILL if hot else FREE_FILL}" stroke="#ffffff" stroke-width="1"/>')
            base = cy + h / 2 + 0.35 * self.font
            body = (f'<text class="lanes" x="{coord(x + w / 2)}" y="{coord(base)}" '
                    f'font-size="{coord(self.font)}" '
                    f'font-family="{_MONO}" text-anchor="middle" fill="#111111">'
                    f"{esc(_label(c.lanes))}</text>")
            out.append(f'<g class="cell{" conflict" if hot else ""}" data-bank="{c.bank}" '
                       f'data-dword="{c.dword}" data-lanes="{lanes}">'
                       f"<title>{esc(tip)}</title>{rect}{body}</g>")
        out.append("</g>")
        return out

    def legend(self) -> list[tuple[str, str]]:
        return [("a cell: one dword of the phase, with the lanes touching it (several: a broadcast)", "free"),
                ("red: a bank holding more than one distinct dword in its phase; degree = column height",
                 "conflict")]

    def legend_line(self, text: str, kind: str, y: float) -> list[str]:
        fill = CONFLICT_FILL if kind == "conflict" else FREE_FILL
        mark = f'<rect x="{coord(_MARGIN)}" y="{coord(y)}" width="18" height="14" fill="{fill}"/>'
        return [f'<g class="legend">{mark}<text x="{coord(_MARGIN + 24)}" y="{coord(y + 11)}" font-size="12">'
                f"{esc(text)}</text></g>"]
