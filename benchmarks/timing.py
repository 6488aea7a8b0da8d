"""Timing helpers shared by the benchmarks: medians of repeated runs from cold caches."""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
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
