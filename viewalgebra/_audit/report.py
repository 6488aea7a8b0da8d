"""What the audit of many says (docs/audit.md): the rows as a Parquet table (``SCHEMA``), the counts
per verdict, the worst cases, and the config fields that predict lost width."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._recipes.perf_config import AccelPerfConfig, GeneralPerfConfig, PerfConfig
from ..errors import ViewAlgebraError
from .access import VERDICTS, AuditRow

SCHEMA: tuple[tuple[str, str], ...] = (
    ("problem", "string"), ("config", "string"), ("arch", "string"), ("access", "string"),
    ("operand", "string"), ("kind", "string"), ("dtype", "string"), ("rocmlir_width", "int32"),
    ("exact_width", "int32"), ("best_width", "int32"), ("verdict", "string"), ("witness", "string"),
    ("seconds", "float64"))
"""The columns of ``results.parquet``, one row per (problem, config, access or check), in
``AuditRow``'s order; the widths are null on check and error rows."""

FINDINGS = ("rocmlir_unsound", "rocmlir_fails", "check_fails", "error")
"""Verdicts that make ``viewalgebra audit`` exit 1."""


def write_parquet(rows: Sequence[AuditRow], path: Path, pa: Any, pq: Any) -> None:
    """``rows`` as a Parquet file of ``SCHEMA`` (``pa``, ``pq``: pyarrow and pyarrow.parquet)."""
    schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in SCHEMA])
    columns = {name: [getattr(r, name) for r in rows] for name, _ in SCHEMA}
    pq.write_table(pa.table(columns, schema=schema), str(path))


def lost(row: AuditRow) -> float:
    """How many times wider the best exact layout is than rocMLIR's width (1 when nothing is
    lost; 0 for a row without both widths)."""
    if row.rocmlir_width is None or row.best_width is None or row.rocmlir_width < 1:
        return 0.0
    return max(row.best_width / row.rocmlir_width, 1.0)


def is_access(row: AuditRow) -> bool:
    return row.rocmlir_width is not None and row.best_width is not None


@dataclass(frozen=True, slots=True)
class FieldRates:
    """For one config field, the share of accesses that lose width at each of its values."""

    field: str
    rates: tuple[tuple[str, int, int], ...]
    """``(value, accesses losing width, accesses)`` by value."""

    @property
    def spread(self) -> float:
        shares = [k / n for _, k, n in self.rates if n]
        return max(shares) - min(shares) if len(shares) > 1 else 0.0


def _fields(text: str, cache: dict[str, dict[str, str]]) -> dict[str, str]:
    if text not in cache:
        try:
            config = PerfConfig.parse(text)
        except ViewAlgebraError:
            cache[text] = {}
        else:
            skip = {"version", "long", "wmma", "legacy_m_per_wave"}
            if isinstance(config, AccelPerfConfig | GeneralPerfConfig):
                cache[text] = {f.name: str(getattr(config, f.name)) for f in dataclasses.fields(config)
                               if f.name not in skip}
    return cache[text]


def field_rates(rows: Sequence[AuditRow]) -> list[FieldRates]:
    """Per config field, the lost-width rate at each value, the fields whose rates differ most
    first (a field whose value changes the rate most predicts lost width best)."""
    cache: dict[str, dict[str, str]] = {}
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for row in rows:
        if not is_access(row):
            continue
        for name, value in _fields(row.config, cache).items():
            cell = counts[name][value]
            cell[0] += lost(row) > 1
            cell[1] += 1
    found = [FieldRates(name, tuple(sorted(((v, k, n) for v, (k, n) in values.items()),
                                          key=lambda t: _order(t[0]))))
             for name, values in counts.items() if len(values) > 1]
    return sorted(found, key=lambda f: (-f.spread, f.field))


def _order(value: str) -> tuple[int, float, str]:
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def worst(rows: Sequence[AuditRow], count: int = 10) -> list[AuditRow]:
    """The rows to look at first: findings (unsound, failing, errors), then the accesses that lose
    the most width."""
    rank = {v: i for i, v in enumerate(FINDINGS)}
    chosen = [r for r in rows if r.verdict in rank or lost(r) > 1]
    return sorted(chosen, key=lambda r: (rank.get(r.verdict, len(FINDINGS)), -lost(r), r.problem, r.config,
                                         r.access))[:count]


def describe(row: AuditRow) -> str:
    """One line for a row of the worst cases."""
    head = f"{row.problem} | {row.config} | {row.access}"
    if not is_access(row):
        return f"{head}: {row.verdict}: {row.witness}"
    text = (f"{head}: rocMLIR {row.rocmlir_width}, exact {row.exact_width}, best layout {row.best_width}"
            f" ({row.verdict}")
    factor = lost(row)
    text += f", x{factor:g} lost)" if factor > 1 else ")"
    return text + (f": {row.witness}" if row.witness else "")


def summary(rows: Sequence[AuditRow], *, configs: int, problems: int) -> dict[str, Any]:
    """The summary as data (the ``--json`` document's ``summary``)."""
    verdicts = Counter(r.verdict for r in rows)
    accesses = [r for r in rows if is_access(r)]
    losing = [r for r in accesses if lost(r) > 1]
    return {
        "problems": problems, "configs": configs, "rows": len(rows),
        "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS},
        "accesses": len(accesses), "losing_width": len(losing),
        "mean_lost_factor": math.exp(sum(math.log(lost(r)) for r in losing) / len(losing)) if losing else 1.0,
        "worst": [describe(r) for r in worst(rows)],
        "fields": [{"field": f.field, "spread": round(f.spread, 4),
                    "rates": [{"value": v, "losing": k, "accesses": n} for v, k, n in f.rates]}
                   for f in field_rates(rows)],
    }


def summary_text(data: dict[str, Any], limit: int = 6) -> str:
    """The summary as text, for stdout."""
    lines = [f"{data['problems']} problem(s), {data['configs']} config(s), {data['rows']} row(s)"]
    lines.append("verdicts: " + ", ".join(f"{v} {n}" for v, n in data["verdicts"].items()))
    lines.append(f"accesses losing width (rocMLIR narrower than the best layout): {data['losing_width']} of "
                 f"{data['accesses']}, geometric mean x{data['mean_lost_factor']:.2f}")
    if data["worst"]:
        lines.append("worst cases:")
        lines += [f"  {w}" for w in data["worst"]]
    if data["fields"]:
        lines.append("config fields that predict lost width (share of accesses losing width, by value):")
        for f in data["fields"][:limit]:
            rates = ", ".join(f"{r['value']}: {r['losing']}/{r['accesses']}" for r in f["rates"])
            lines.append(f"  {f['field']} (spread {f['spread']:.2f}): {rates}")
    return "\n".join(lines) + "\n"
