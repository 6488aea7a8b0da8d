"""Timing helpers shared by the benchmarks: medians of repeated runs from cold caches."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

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
