"""Fresh processes: the first query of a new ``python -c`` process beside the same query warm, and
the CLI's wall time on the README's example, measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_fresh.py [--quick]``. Each fresh figure is the median over
several new processes (taking turns, after one untimed run for compiled bytecode) of the time
``max_vector_length`` takes there, import and building the view not included; the warm figure is
the same query in this process, from cold caches (``clear_caches``), its worker already running.
Each family is the one of bench_vectorize.py's size rows, at the sizes it uses, and the dim is the
one whose warm query is the slowest. ``VIEWALGEBRA_WORKERS=spawn`` gives the previous method: every
worker a fresh interpreter.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

import conv_stack  # noqa: E402
from timing import ROOT, median_time, print_rows, quick_flag  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]

FAMILIES: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    ("gemm tiling [kloop, bid, tid, iter]", "gemm_tiling_view", (1, 2, 1, 2, 8, 2, 4)),
    ("gemm tiling [kloop, bid, tid, iter]", "gemm_tiling_view", (1, 16, 16)),
    ("gemm tiling [kloop, bid, tid, iter]", "gemm_tiling_view", (16, 4096, 1024, 4, 64, 4, 4)),
    ("conv2d input", "conv2d_input_view", (1, 2, 6, 6)),
    ("conv2d input", "conv2d_input_view", (6400, 1024, 112, 112)),
)
"""(family, function of conv_stack.py, its arguments): bench_vectorize.py's family rows (the
small and the large end of each) and its gemm tiling at 10^6 elements."""

PREVIOUS = FAMILIES[2]
"""Where the previous method (fresh-interpreter workers) is measured too: the largest gemm view."""

CLI = ("check", "examples/rocmlir_differences.mlir")

FIRST_QUERY = """
import sys, time
sys.path[:0] = [{here!r}, {root!r}]
import viewalgebra as va
import conv_stack
view = conv_stack.{function}(*{args!r})
start = time.perf_counter()
va.max_vector_length(view, {dim})
print(time.perf_counter() - start)
"""


def _view(function: str, args: tuple[int, ...]) -> va.View:
    build: Callable[..., va.View] = getattr(conv_stack, function)
    return build(*args)


def _env(spawn: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "VIEWALGEBRA_WORKERS"}
    return {**env, "VIEWALGEBRA_WORKERS": "spawn"} if spawn else env


def _first_query(code: str, spawn: bool) -> float:
    """Seconds of the query in a new process, as that process measures it."""
    done = subprocess.run([sys.executable, "-c", code], env=_env(spawn), cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return float(done.stdout)


def _wall(args: list[str], spawn: bool) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], env=_env(spawn), cwd=ROOT, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # check exits 1: some of rocMLIR's answers are unsound
        raise RuntimeError(f"{' '.join(args)} exited with {done.returncode}: {done.stderr[-2000:]}")
    return elapsed


def _medians(runs: dict[str, Callable[[], float]], repeat: int) -> dict[str, float]:
    """The median of each measurement; they take turns, so that a busy moment of the machine is
    shared among them."""
    for run in runs.values():
        run()
    times: dict[str, list[float]] = {what: [] for what in runs}
    for _ in range(repeat):
        for what, run in runs.items():
            times[what].append(run())
    return {what: statistics.median(t) for what, t in times.items()}


def rows(quick: bool) -> list[Row]:
    """One row per family and size, the previous method at the largest gemm view, and the CLI."""
    repeat = 3 if quick else 7
    warm: dict[str, float] = {}
    runs: dict[str, Callable[[], float]] = {}
    names: dict[str, str] = {}
    for family, function, args in FAMILIES:
        view = _view(function, args)
        times = [median_time(lambda v=view, d=d: va.max_vector_length(v, d), repeat)
                 for d in range(view.rank)]
        dim = max(range(view.rank), key=lambda d: times[d])
        key = f"{family} at {math.prod(view.buffer.shape):.0e} elements"
        warm[key], names[key] = times[dim], f"{key}, dim {dim}"
        code = FIRST_QUERY.format(here=str(HERE), root=str(ROOT), function=function, args=args, dim=dim)
        runs[key] = lambda code=code: _first_query(code, spawn=False)
        if (family, function, args) == PREVIOUS:
            runs["spawn"] = lambda code=code: _first_query(code, spawn=True)
            warm["spawn"], names["spawn"] = warm[key], f"{key}, dim {dim}, fresh-interpreter workers"
    cli = ["-m", "viewalgebra", *CLI]
    runs["cli"] = lambda: _wall(cli, spawn=False)
    runs["cli spawn"] = lambda: _wall(cli, spawn=True)
    runs["help"] = lambda: _wall(["-m", "viewalgebra", "--help"], spawn=False)
    fresh = _medians(runs, repeat)
    found: list[Row] = [(f"first query in a new process: {names[key]}", fresh[key],
                         "the same query warm", warm[key], "<= baseline + 30 ms")
                        for key in warm if key != "spawn"]
    found.append((f"first query in a new process: {names['spawn']} (VIEWALGEBRA_WORKERS=spawn)",
                  fresh["spawn"], "the same query warm", warm["spawn"], "reference: the previous method"))
    command = f"viewalgebra {' '.join(CLI)}, wall time"
    found.append((command, fresh["cli"], "viewalgebra --help", fresh["help"], "reference"))
    found.append((command, fresh["cli"], "VIEWALGEBRA_WORKERS=spawn (the previous method)",
                  fresh["cli spawn"], "reference"))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv, "3 processes each instead of 7")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
