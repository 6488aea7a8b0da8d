"""Timing helpers shared by the benchmarks: medians of repeated runs from cold caches."""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from viewalgebra import clear_caches  # noqa: E402


def median_time(run: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` timed runs, each from cold caches, after one untimed warm-up."""
    run()
    times = []
    for _ in range(repeat):
        clear_caches()  # answers and ISL objects, here and in the worker process
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms"


def conv_family_row(name: str, query: Callable[[Any], object], repeat: int
                    ) -> tuple[str, float, str, float | None, str]:
    """``query`` on the conv2d input view at 8 * 10^10 elements beside the same at 1.6 * 10^4 (both
    past every enumeration limit, so the same method): flat in size is within 2x. A benchmark row
    ``(what, figure, baseline, baseline figure, target)``."""
    from conv_stack import conv2d_input_view

    small, large = conv2d_input_view(4, 16, 16, 16), conv2d_input_view(6400, 1024, 112, 112)
    return (f"{name}: conv2d input at {math.prod(large.buffer.shape):.0e} elements",
            median_time(lambda: query(large), repeat), f"{math.prod(small.buffer.shape):.0e} elements",
            median_time(lambda: query(small), repeat), "<= 2x baseline")


Row = tuple[str, float, str, float | None, str]
"""One row of a benchmark's table: ``(what, figure, baseline, baseline figure, target)``."""


def figure(value: float, what: str) -> str:
    """A figure in its unit: MB where the row says so, else a time in us, ms or s."""
    if "(MB)" in what:
        return f"{value:.1f} MB"
    if value < 1e-3:
        return f"{value * 1e6:.1f} us"
    if value < 1:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def ratio_text(r: float) -> str:
    """``2.50x``, or ``1/200x`` for a figure far below its baseline."""
    return f"{r:.2f}x" if r >= 0.1 else f"1/{1 / r:.0f}x"


def quick_flag(doc: str | None, argv: list[str] | None, help_text: str = "fewer repetitions") -> bool:
    """A benchmark script's one option, ``--quick``."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0] if doc else None)
    parser.add_argument("--quick", action="store_true", help=help_text)
    return parser.parse_args(argv).quick


def print_rows(rows: Iterable[Row]) -> None:
    """One line per row: the figure, its baseline measured in the same run, the ratio, the target."""
    for what, value, base, base_value, target in rows:
        baseline = "" if base_value is None else f"; {base}: {figure(base_value, what)}"
        ratio = f" ({ratio_text(value / base_value)})" if base_value else ""
        print(f"{what}: {figure(value, what)}{baseline}{ratio}; target {target or '-'}", flush=True)
