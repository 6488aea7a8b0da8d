"""The picture of where width is lost (docs/audit.md): a grid of problems (rows) by accesses
(columns), each cell coloured by the geometric mean over the configs of how many times wider the
best layout is than rocMLIR's width, outlined red where some config is unsound or fails. Written
as SVG text, as ``_draw/svg.py`` writes its pictures: no plotting dependency."""

from __future__ import annotations

import html
import math
from collections import defaultdict
from collections.abc import Sequence

from .access import AuditRow
from .report import FINDINGS, is_access, lost

SCALE = ("#e5f5e0", "#fff7bc", "#fec44f", "#fe9929", "#d95f0e", "#993404")
"""Fill by ``log2`` of the mean lost factor: none, up to x2, x4, x8, x16, more."""

ERROR_FILL = "#d0d0d0"
CELL, ROW_HEAD, COL_HEAD, MARGIN = 56.0, 320.0, 120.0, 12.0
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _fill(factor: float) -> str:
    return SCALE[min(int(math.ceil(math.log2(factor) - 1e-9)), len(SCALE) - 1)] if factor > 1 else SCALE[0]


def _short(text: str, size: int = 48) -> str:
    return text if len(text) <= size else text[:size - 3] + "..."


def render(rows: Sequence[AuditRow], title: str = "Width lost by rocMLIR's per-thread accesses") -> str:
    """The SVG text of the grid."""
    problems = list(dict.fromkeys(r.problem for r in rows))
    accesses = sorted({r.access for r in rows if is_access(r) or r.kind not in ("check", "provider")})
    factors: dict[tuple[str, str], list[float]] = defaultdict(list)
    bad: set[tuple[str, str]] = set()
    for r in rows:
        key = (r.problem, r.access)
        if is_access(r):
            factors[key].append(lost(r))
        if r.verdict in FINDINGS:
            bad.add(key)
    width = 2 * MARGIN + ROW_HEAD + CELL * max(len(accesses), 1)
    height = 2 * MARGIN + 28 + COL_HEAD + CELL * max(len(problems), 1) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'font-family="{_FONT}" font-size="11">',
           f'<text x="{MARGIN}" y="{MARGIN + 14}" font-size="14">{html.escape(title)}</text>']
    top = MARGIN + 28 + COL_HEAD
    left = MARGIN + ROW_HEAD
    for j, name in enumerate(accesses):
        x = left + CELL * j + CELL / 2
        out.append(f'<text transform="translate({x:.1f},{top - 6:.1f}) rotate(-60)">'
                   f'{html.escape(name)}</text>')
    for i, problem in enumerate(problems):
        y = top + CELL * i
        out.append(f'<text x="{MARGIN}" y="{y + CELL / 2 + 4:.1f}">{html.escape(_short(problem))}</text>')
        for j, name in enumerate(accesses):
            x = left + CELL * j
            values = factors.get((problem, name), [])
            if values:
                mean = math.exp(sum(math.log(v) for v in values) / len(values))
                fill, label = _fill(mean), f"x{mean:.1f}" if mean > 1 else "="
            else:
                fill, label = ERROR_FILL, "-"
            stroke = ' stroke="#d62728" stroke-width="3"' if (problem, name) in bad else ' stroke="#ffffff"'
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{CELL}" height="{CELL}" fill="{fill}"{stroke}>'
                       f'<title>{html.escape(problem)} / {html.escape(name)}: {label}'
                       f'{" (unsound, failing or error in some config)" if (problem, name) in bad else ""}'
                       f'</title></rect>')
            out.append(f'<text x="{x + CELL / 2:.1f}" y="{y + CELL / 2 + 4:.1f}" text-anchor="middle">'
                       f'{html.escape(label)}</text>')
    legend_y = top + CELL * max(len(problems), 1) + 16
    for k, (fill, text) in enumerate(zip(SCALE, ("none", "<=x2", "<=x4", "<=x8", "<=x16", ">x16"),
                                         strict=True)):
        x = MARGIN + 70 * k
        out.append(f'<rect x="{x}" y="{legend_y:.1f}" width="14" height="14" fill="{fill}" stroke="#888"/>'
                   f'<text x="{x + 18}" y="{legend_y + 11:.1f}">{html.escape(text)}</text>')
    x = MARGIN + 70 * len(SCALE)
    out.append(f'<rect x="{x}" y="{legend_y:.1f}" width="14" height="14" fill="#ffffff" stroke="#d62728" '
               f'stroke-width="3"/><text x="{x + 18}" y="{legend_y + 11:.1f}">unsound / fails / error</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
