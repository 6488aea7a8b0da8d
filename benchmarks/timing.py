"""Timing helpers shared by the benchmarks: medians of repeated runs from cold caches."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from viewalgebra import vectorize  # noqa: E402, TID251
from viewalgebra.maps import equations, relations  # noqa: E402, TID251

CACHED = (relations.formula, relations.map_function, relations.chain_function,
          relations.view_function, relations.address_function, relations.total_address_and_checks,
          equations.affine_map_of, equations.validity_checks, vectorize.bad_steps)
"""Every cached function of the package: cleared before each timed run."""


def median_time(run: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` timed runs, each from cold caches, after one untimed warm-up."""
    run()
    times = []
    for _ in range(repeat):
        for f in CACHED:
            f.cache_clear()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.2f} ms"
