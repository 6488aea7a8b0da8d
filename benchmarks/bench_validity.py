"""Validity benchmark: the exact answer beside rocMLIR's rule, same run.

Run: ``.venv/bin/python benchmarks/bench_validity.py [--quick]``.

Every figure is a median of repeated runs, each from cold caches (``clear_caches``). "exact" is
``validity`` (numpy for small views, ISL otherwise); "rocMLIR rule" is the port of its checks
(``mapImpactsValidity`` / ``updateValidityAfter`` per map, ``rocmlir_validity_checks``);
"comparison" is ``compare_validity`` (the exact answer, rocMLIR's checks and the differences).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from bench_index_range import test_views  # noqa: E402
from timing import conv_family_row, median_time, print_rows  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]


def rows(quick: bool) -> list[Row]:
    """Two rows: the exact answer and the comparison, medians over rocMLIR's test views (figures
    in seconds), each beside the port of rocMLIR's rule timed in the same run."""
    repeat = 3 if quick else 5
    exact_t, compare_t, port_t = [], [], []
    for _, view in test_views():
        exact_t.append(median_time(lambda v=view: va.validity(v), repeat))
        compare_t.append(median_time(lambda v=view: va.rocmlir.compare_validity(v), repeat))
        port_t.append(median_time(lambda v=view: va.rocmlir.rocmlir_view_checks(v), repeat))
    n = len(exact_t)
    port = statistics.median(port_t)
    return [(f"validity, every view of rocMLIR's test files ({n}), median",
             statistics.median(exact_t), "rocMLIR rule", port, "<= 1 ms"),
            (f"compare_validity, every view of rocMLIR's test files ({n}), median",
             statistics.median(compare_t), "rocMLIR rule", port, "<= 1 ms"),
            conv_family_row("validity without counting", lambda v: va.validity(v, count=False), repeat),
            conv_family_row("compare_validity without counting",
                            lambda v: va.rocmlir.compare_validity(v, count=False), repeat)]


def findings() -> list[tuple[str, va.View, object]]:
    """(name, view, comparison) for every test view where rocMLIR's rule and the exact answer differ."""
    return [(name, view, c) for name, view in test_views()
            if (c := va.rocmlir.compare_validity(view)).verdict != "equal"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args(argv).quick
    views = test_views()
    times = sorted((median_time(lambda v=view: va.validity(v), 3 if quick else 5), name)
                   for name, view in views)
    print_rows(rows(quick))
    print("slowest:", ", ".join(f"{name} {t * 1e3:.2f} ms" for t, name in times[-5:]))
    invalid = sum(va.validity(view).invalid_count > 0 for _, view in views)
    checked = sum(any(va.rocmlir.rocmlir_view_checks(view)) for _, view in views)
    print(f"{invalid} of {len(views)} views have invalid points; rocMLIR checks {checked} of them")
    differ = findings()
    print(f"{len(differ)} of {len(views)} views where rocMLIR's rule differs")
    for name, _, c in differ:
        print(f"  {name}: " + str(c).replace("\n", "\n    "))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
