"""The library as a long-running, threaded compiler driver uses it: memory over many queries,
8 threads at once, a timeout that holds.

Run: ``.venv/bin/python benchmarks/bench_service.py [--quick]`` (``--quick``: 10,000 queries for
the memory figure instead of 100,000).
"""

from __future__ import annotations

import argparse
import itertools
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

from conv_stack import conv2d_input_view, gemm_tiling_view  # noqa: E402
from timing import print_rows  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra._engine import budget as budget  # noqa: E402, TID251

Row = tuple[str, float, str, float | None, str]


def resident_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def varied_views() -> Iterator[va.View]:
    """Distinct views without end: gemm tiling and conv2d input views of ever new sizes."""
    for i in itertools.count():
        a, b, c = 1 + i % 7, 1 + (i // 7) % 13, 1 + (i // 91) % 17
        if i % 2:
            yield gemm_tiling_view(a, b + i // 1547, c, k_iters=1 + i % 4)
        else:
            yield conv2d_input_view(a, 2 * b + i // 1547, 8 + c, 8 + i % 5)


def memory_row(queries: int) -> Row:
    """RSS growth of a fresh process over ``queries`` queries on distinct views, every dim each,
    measured after the first 1,000 (imports, the worker, the allocator's first arenas)."""
    out = subprocess.run([sys.executable, __file__, "--memory", str(queries)], check=True,
                         capture_output=True, text=True).stdout.split()
    growth, seconds = float(out[0]), float(out[1])
    return (f"memory: RSS growth over {queries - 1000:,} queries on distinct views (MB), "
            f"{seconds / (queries - 1000) * 1e3:.2f} ms a query", growth, "", None, "<= 20 MB")


def _measure_memory(queries: int) -> tuple[float, float]:
    done, start, baseline = 0, 0.0, 0.0
    for view in varied_views():
        for d in range(view.rank):
            va.max_vector_length(view, d)
            done += 1
            if done == 1000:
                start, baseline = time.perf_counter(), resident_mb()
        if done >= queries:
            break
    return resident_mb() - baseline, time.perf_counter() - start


def thread_rows() -> list[Row]:
    views = [conv2d_input_view(n, c, 14, 14) for n in (1, 2) for c in (8, 16)] + [
        gemm_tiling_view(g, 4, m) for g in (1, 2) for m in (4, 8)]
    queries = [(v, d) for v in views for d in range(v.rank)] * 4

    def ask(q: tuple[va.View, int]) -> va.answers.VectorLength:
        return va.max_vector_length(q[0], q[1])

    va.clear_caches()
    start = time.perf_counter()
    serial = [ask(q) for q in queries]
    serial_time = time.perf_counter() - start
    with ThreadPoolExecutor(8) as pool:  # start the 8 workers before timing
        list(pool.map(lambda _: budget.run_bounded(abs, (1,), 30, "warm-up"), range(64)))
        budget.stop_workers()
        list(pool.map(lambda _: budget.run_bounded(abs, (1,), 30, "warm-up"), range(64)))
        va.clear_caches()
        start = time.perf_counter()
        threaded = list(pool.map(ask, queries))
        threaded_time = time.perf_counter() - start
        if threaded != serial:
            raise SystemExit("8 threads gave answers different from the serial ones")

        def sleeper() -> float:
            began = time.monotonic()
            try:
                budget.run_bounded(time.sleep, (30,), 1.0, "sleep")
            except va.errors.QueryTimeoutError:
                return time.monotonic() - began
            raise SystemExit("the timeout did not hold")

        va.clear_caches()
        timed_out = pool.submit(sleeper)
        beside = list(pool.map(ask, queries))
        waited = timed_out.result()
        if beside != serial:
            raise SystemExit("a timeout in one thread changed another thread's answers")
    return [(f"8 threads, {len(queries)} queries at once (answers equal to serial)", threaded_time,
             "serial", serial_time, "same answers"),
            ("timeout=1 s on a 30 s query, in a thread beside 7 querying threads", waited,
             "", None, "<= 2 s")]


def rows(quick: bool) -> list[Row]:
    return [*thread_rows(), memory_row(10_000 if quick else 100_000)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 queries for memory")
    parser.add_argument("--memory", type=int, metavar="N",
                        help="only measure memory over N queries; print MB and seconds")
    args = parser.parse_args(argv)
    if args.memory:
        growth, seconds = _measure_memory(args.memory)
        print(growth, seconds)
        return 0
    print_rows(rows(args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
