"""The audit of many (docs/audit.md): configs audited per second, serially without memoization
(the baseline: every config from cold caches), serially with it, on one Dask worker and on a local
cluster of every core, all in the same run on the same pairs.

Run: ``.venv/bin/python benchmarks/bench_audit.py [--quick] [--problems P] [--limit N]`` (needs the
``audit`` extra). The accesses are rocMLIR's own (``gw.rocmlir_accesses``, the command's default:
A's and B's global loads, LDS stores and LDS reads and the C store, each with every thread layout
rocMLIR could have chosen, and the block and tile checks), for the first P gemm problems of
rocMLIR's tier1-gemm-configs, the first N configs of the quick (default) or full tuning space of
each on gfx942 (``--space``). The Dask
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


def pairs(problems: int, limit: int, space: str) -> list[tuple[str, object, list[object]]]:
    gfx942 = gw.arch("gfx942")
    lines = [line for line in gw.parse_problem_list((DATA / "tier1-gemm-configs").read_text())][:problems]
    return [(line.text, line.problem, list(gw.tuning_space(line.problem, gfx942, space)[:limit]))
            for line in lines]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer pairs")
    parser.add_argument("--problems", type=int)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--space", choices=("quick", "full"), default="quick")
    args = parser.parse_args()
    problems = args.problems or (4 if args.quick else 24)
    limit = args.limit or (4 if args.quick else 30)
    work = pairs(problems, limit, args.space)
    tasks = runner.tasks_of(work, "gfx942", "viewalgebra.gridwise:rocmlir_accesses")  # type: ignore[arg-type]
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

    per_access(work)
    base = results[0][1]
    for name, seconds in results:
        print(f"{name:40s} {seconds:8.2f} s  {configs / seconds:8.1f} configs/s  "
              f"{base / seconds:6.2f}x baseline")


def per_access(work: list[tuple[str, object, list[object]]]) -> None:
    """Each access of each (problem, config) from cold caches in a warm process (its imports done
    and its ISL worker started): the time ``audit_access`` takes for the access alone (rocMLIR's
    width, the exact width, the verdict) and with the best width over its alternatives; beside it
    the brute force of the access's own exact width (numpy enumeration, on the smaller views)."""
    gfx942 = gw.arch("gfx942")
    times: list[tuple[float, str]] = []
    alone: list[float] = []
    ratios: list[float] = []
    _, problem, configs = work[-1]
    for item in gw.rocmlir_accesses(problem, configs[0], gfx942):  # type: ignore[arg-type]
        gw.audit_access(item, gfx942)  # the process warms up: imports, the ISL worker
    for text, problem, configs in work:
        for config in configs:
            va.clear_caches()
            for item in gw.rocmlir_accesses(problem, config, gfx942):  # type: ignore[arg-type]
                va.clear_caches()
                start = time.perf_counter()
                gw.audit_access(gw.AuditItem(item.access), gfx942)
                alone.append(time.perf_counter() - start)
                va.clear_caches()
                start = time.perf_counter()
                gw.audit_access(item, gfx942)
                took = time.perf_counter() - start
                times.append((took, f"{item.access.name} of {text[-36:]} | {config}"))
                if _points(item.access.view) <= 2_000_000:
                    va.clear_caches()
                    start = time.perf_counter()
                    answer = gw.exact_width(item.access).length
                    exact = time.perf_counter() - start
                    start = time.perf_counter()
                    if _brute_width(item.access) != answer:
                        raise SystemExit(f"{item.access.name}: exact {answer} differs from brute force")
                    ratios.append((time.perf_counter() - start) / max(exact, 1e-9))
    times.sort()
    alone.sort()
    median = times[len(times) // 2][0]
    print(f"per access ({len(times)}), cold caches in a warm process: the access alone (rocMLIR's width, "
          f"exact width, verdict): median {alone[len(alone) // 2] * 1e3:.2f} ms, "
          f"max {alone[-1] * 1e3:.1f} ms; "
          f"with its best width over every alternative: median {median * 1e3:.2f} ms, "
          f"max {times[-1][0] * 1e3:.1f} ms ({times[-1][1]})")
    if ratios:
        ratios.sort()
        print(f"  its exact width against numpy brute force ({len(ratios)} views of at most 2e6 points): "
              f"median {ratios[len(ratios) // 2]:.1f}x faster")


def _points(view: va.View) -> int:
    total = 1
    for size in view.shape:
        total *= size
    return total


def _brute_width(access: gw.ThreadAccess) -> int:
    """The widest legal power of two along ``iter`` by enumeration: the tests' oracle
    (tests/test_audit.py) on the access seen as scalars."""
    from test_audit import brute_exact

    scalars = gw.scalar_access(access)
    run = access.values if access.kind in ("global_load", "lds_read") else access.view.shape[access.dim]
    return brute_exact(scalars.view, scalars.dim, run, max(128 // scalars.view.buffer.bits, 1))


if __name__ == "__main__":
    main()
