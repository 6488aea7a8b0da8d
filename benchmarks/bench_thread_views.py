"""Per-thread views benchmark: building the global-load and LDS-store views of A and B
(docs/gridwise.md, Per-thread views) and asking each for its exact width along ``iter``, beside a
numpy brute force of the same question in the same run.

Run: ``.venv/bin/python benchmarks/bench_thread_views.py [--quick]``.

Problems: the first f16 gemm of tests/data/rocmlir/tier1-gemm-configs and the first f16 conv
of tier1-conv-configs (a 7x7 stride-2 padded conv, 3 channels), each with the first config of its quick tuning
space on gfx942. "build" is the four accesses (``global_load`` and ``lds_store`` of A and B);
"query" is ``max_vector_length(access.view, access.dim, access.values)`` for one access (rocMLIR's
own width beside it: ``vector_elements`` where its LDS buffer holds vectors, else
``rocmlir_vector_length`` with the 128-bit cap), from cold
caches (every cached answer and ISL object cleared before each run, after one untimed warm-up run
in the same process). The baseline enumerates a small gemm's views with numpy (every point's
address, then every candidate width checked piece by piece), beside the same query on those
views: the ratio is brute force / exact. Medians of repeated runs.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout, whether or not it is installed

import numpy as np  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
import viewalgebra.gridwise as gw  # noqa: E402

ARCH = gw.arch("gfx942")
CONFIGS = ROOT / "tests" / "data" / "rocmlir"


def first(path: str, want: Callable[[gw.ProblemLine], bool]) -> gw.GemmProblem | gw.ConvProblem:
    lines = gw.parse_problem_list((CONFIGS / path).read_text())
    return next(line.problem for line in lines if want(line))


Built = tuple[str, list[gw.ThreadAccess], Callable[[], object]]


def accesses(problem: gw.GemmProblem | gw.ConvProblem) -> Built:
    config = gw.tuning_space(problem, ARCH, "quick")[0]
    assert isinstance(config, gw.AccelPerfConfig)
    grid = gw.gridwise_views(problem, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                             kpack_per_block=config.kpack_per_block, kpack=config.kpack)
    dtype = problem.dtype

    def build() -> list[gw.ThreadAccess]:
        return [f(grid, op, config, ARCH, dtype) for op in ("a", "b") for f in (gw.global_load, gw.lds_store)]

    return str(config), build(), build


def brute_width(access: gw.ThreadAccess) -> int:
    """The largest legal width along ``iter`` by enumeration: every piece of ``v`` consecutive
    ``iter`` values at a multiple of ``v`` is all invalid, or all valid at consecutive addresses."""
    addr, valid = access.view.addresses()
    addr = np.moveaxis(addr, access.dim, -1)
    valid = np.moveaxis(valid, access.dim, -1)
    best = 1
    for v in range(2, access.values + 1):
        if access.values % v:
            continue
        a = addr.reshape(*addr.shape[:-1], -1, v)
        ok = valid.reshape(*valid.shape[:-1], -1, v)
        same = (ok.all(axis=-1) & (np.diff(a, axis=-1) == 1).all(axis=-1)) | ~ok.any(axis=-1)
        if same.all():
            best = v
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    repeat = 5 if parser.parse_args().quick else 15
    problems = {
        "tier1 gemm": first("tier1-gemm-configs", lambda line: line.problem.dtype == "f16"),
        "tier1 conv": first("tier1-conv-configs", lambda line: line.problem.dtype == "f16"),
    }
    rows: list[tuple[str, str]] = []
    for name, problem in problems.items():
        config, built, build = accesses(problem)
        rows.append((f"{name} {config}: build 4 accesses", ms(median_time(build, repeat))))
        for access in built:
            points = math.prod(access.view.shape)
            seconds = median_time(lambda a=access: va.max_vector_length(a.view, a.dim, a.values), repeat)
            width = va.max_vector_length(access.view, access.dim, access.values).length
            rocmlir = access.vector_elements
            if rocmlir == 1:
                rocmlir = va.rocmlir.rocmlir_vector_length(access.view, access.dim, access.values,
                                                           limit_for_data_type=True)
            label = f"  query {access.name} ({points:.2e} points, exact width {width}, rocMLIR's {rocmlir})"
            rows.append((label, ms(seconds)))
    small = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    _, small_accesses, _ = accesses(small)
    for access in small_accesses:
        exact = median_time(lambda a=access: va.max_vector_length(a.view, a.dim, a.values), repeat)
        times: list[float] = []
        for _ in range(repeat):
            start = time.perf_counter()
            width = brute_width(access)
            times.append(time.perf_counter() - start)
        brute = statistics.median(times)
        assert width == va.max_vector_length(access.view, access.dim, access.values).length
        rows.append((f"baseline 64^3 gemm {access.name} ({math.prod(access.view.shape)} points): "
                     f"brute force {ms(brute).strip()}, exact {ms(exact).strip()}", f"{brute / exact:9.1f}x"))
    width = max(len(label) for label, _ in rows)
    for label, figure in rows:
        print(f"{label:<{width}}  {figure}")


if __name__ == "__main__":
    main()
