"""Index-range benchmark: the exact ranges and 64-bit decision beside rocMLIR's rule, same run.

Run: ``.venv/bin/python benchmarks/bench_index_range.py [--quick]``.

Every figure is a median of repeated runs, each from cold caches (``clear_caches``). "exact" is
``index_range`` (numpy for small views, ISL otherwise); "rocMLIR" is the port of its
``needs64BitIndices`` / ``is4GBMemoryType`` (``rocmlir_needs_64bit``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from bench_vectorize import file_views  # noqa: E402
from timing import conv_family_row, median_time, print_rows  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]


def test_views() -> list[tuple[str, va.View]]:
    """Every meaningful view of rocMLIR's test files in tests/data, once each."""
    seen: dict[va.View, str] = {}
    for name, view, _ in file_views():
        seen.setdefault(view, name)
    return [(name, view) for view, name in seen.items()]


def rows(quick: bool) -> list[Row]:
    """One row: the median over rocMLIR's test views (figures in seconds)."""
    repeat = 3 if quick else 5
    exact_t, port_t = [], []
    for _, view in test_views():
        exact_t.append(median_time(lambda v=view: va.index_range(v), repeat))
        port_t.append(median_time(lambda v=view: va.rocmlir.rocmlir_needs_64bit(v), repeat))
    return [(f"index range, every view of rocMLIR's test files ({len(exact_t)}), median",
             statistics.median(exact_t), "rocMLIR rule", statistics.median(port_t), "<= 1 ms"),
            conv_family_row("index range", va.index_range, repeat)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args(argv).quick
    views = test_views()
    times = sorted((median_time(lambda v=view: va.index_range(v), 3 if quick else 5), name)
                   for name, view in views)
    print_rows(rows(quick))
    print("slowest:", ", ".join(f"{name} {t * 1e3:.2f} ms" for t, name in times[-5:]))
    differ = [(name, c) for name, view in views
              if (c := va.rocmlir.compare_index_width(view)).verdict != "equal"]
    print(f"{len(differ)} of {len(views)} views where rocMLIR's rule differs", *differ[:5], sep="\n  ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
