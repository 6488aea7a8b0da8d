"""The audit of many (docs/audit.md): configs audited per second, serially without memoization
(the baseline: every config from cold caches), serially with it, on one Dask worker and on a local
cluster of every core, all in the same run on the same pairs.

Run: ``.venv/bin/python benchmarks/bench_audit.py [--quick] [--problems P] [--limit N]`` (needs the
``audit`` extra). The accesses come from the tests' stand-in provider (tests/audit_tiles.py): A and
B loads in two layouts each and the C store, for the first P gemm problems of rocMLIR's
tier1-gemm-configs, the first N configs of the full tuning space of each on gfx942. The Dask
figures include starting the cluster (printed on its own) and each worker's first imports: what
a user waits for.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

import viewalgebra as va  # noqa: E402
import viewalgebra.gridwise as gw  # noqa: E402
from viewalgebra._audit import run as runner  # noqa: E402, TID251 -- the runner the command uses

DATA = HERE.parent / "tests" / "data" / "rocmlir"


def pairs(problems: int, limit: int) -> list[tuple[str, object, list[object]]]:
    gfx942 = gw.arch("gfx942")
    lines = [line for line in gw.parse_problem_list((DATA / "tier1-gemm-configs").read_text())][:problems]
    return [(line.text, line.problem, list(gw.tuning_space(line.problem, gfx942, "full")[:limit]))
            for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer pairs")
    parser.add_argument("--problems", type=int)
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    problems = args.problems or (4 if args.quick else 24)
    limit = args.limit or (4 if args.quick else 50)
    work = pairs(problems, limit)
    tasks = runner.tasks_of(work, "gfx942", "audit_tiles:provider")  # type: ignore[arg-type]
    configs = sum(len(t.configs) for t in tasks)
    print(f"{len(work)} problems, {configs} configs, {os.cpu_count()} cores")
    results: list[tuple[str, float]] = []

    start = time.perf_counter()
    for task in tasks:
        for config in task.configs:
            va.clear_caches()
            one = runner.Task(task.problem_text, task.problem, (config,), task.arch, task.provider)
            runner.audit_task(one)
    results.append(("serial, no memoization (baseline)", time.perf_counter() - start))

    va.clear_caches()
    start = time.perf_counter()
    serial = runner.run_serial(tasks)
    results.append(("serial, memoized", time.perf_counter() - start))

    start = time.perf_counter()
    runner.run_tasks([], workers=1)
    print(f"starting and stopping a local cluster of 1 worker: {time.perf_counter() - start:.2f} s")
    for workers in sorted({1, os.cpu_count() or 1}):
        start = time.perf_counter()
        rows = runner.run_tasks(tasks, workers=workers)
        results.append((f"Dask LocalCluster, {workers} worker(s)", time.perf_counter() - start))
        assert len(rows) == len(serial)

    base = results[0][1]
    for name, seconds in results:
        print(f"{name:40s} {seconds:8.2f} s  {configs / seconds:8.1f} configs/s  "
              f"{base / seconds:6.2f}x baseline")


if __name__ == "__main__":
    main()
