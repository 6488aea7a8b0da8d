"""C store and LDS read benchmark: building the per-thread views of an accelerated gemm and asking
their vector length, beside a numpy brute force measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_output_views.py [--quick]``.

The problem is the first gemm of rocMLIR's tier1-gemm-configs (f32, 384 x 2304 x 768) with C
stored transposed (so that the store can be 4 wide), on gfx942 with the first config of its quick
list. Figures are medians: "cold" clears every cache before each run (``median_time``), "warm"
repeats the query on the same view (the answer cache is what a second access hits). The baseline
enumerates every point of the view (``View.addresses``) and tests each candidate length along the
iteration dim with numpy.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np
from timing import ROOT, median_time, print_rows, quick_flag  # also puts this checkout first on sys.path

import viewalgebra as va

Row = tuple[str, float, str, float | None, str]


def _warm(run: Callable[[], object], repeat: int) -> float:
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def brute_force_length(view: va.View, dim: int, values: int, cap: int) -> int:
    """The largest v <= cap dividing ``values`` such that every run of v points along ``dim``
    starting at a multiple of v is all invalid or valid with consecutive addresses."""
    addresses, valid = view.addresses()
    addresses = np.moveaxis(addresses, dim, -1)
    valid = np.moveaxis(valid, dim, -1)
    best = 1
    for v in range(2, min(cap, values) + 1):
        if values % v:
            continue
        runs_a = addresses.reshape(*addresses.shape[:-1], -1, v)
        runs_v = valid.reshape(*valid.shape[:-1], -1, v)
        steps = np.diff(runs_a, axis=-1) == 1
        all_valid = runs_v.all(axis=-1)
        ok = np.where(all_valid, steps.all(axis=-1), ~runs_v.any(axis=-1))
        if ok.all():
            best = v
    return best


def rows(quick: bool) -> list[Row]:
    repeat = 3 if quick else 7
    gw = va.gridwise
    gfx942 = gw.arch("gfx942")
    line = gw.parse_problem_list((ROOT / "tests" / "data" / "rocmlir" / "tier1-gemm-configs").read_text())[0]
    p = line.problem
    problem = gw.GemmProblem(g=p.g, m=p.m, n=p.n, k=p.k, dtype=p.dtype, transpose_a=p.transpose_a,
                             transpose_b=p.transpose_b, transpose_c=True)
    config = gw.tuning_space(problem, gfx942, "quick")[0]
    assert isinstance(config, gw.AccelPerfConfig)
    grid = gw.gridwise_views(problem, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                             kpack_per_block=config.kpack_per_block, kpack=config.kpack,
                             split_k_factor=config.split_k_factor)
    store = gw.c_store(grid, config, gfx942, problem.dtype)
    cap = 128 // va.Buffer((1,), store.dtype).bits
    what = f"{problem.m}x{problem.n}x{problem.k} {problem.dtype}, C transposed, {config} on gfx942"
    exact = va.max_vector_length(store.view, store.dim, store.values, max_elements=cap).length
    rocmlir = va.rocmlir.rocmlir_vector_length(store.view, store.dim, store.values)
    brute = brute_force_length(store.view, store.dim, store.values, cap)
    if not exact == brute:
        raise AssertionError(f"exact {exact} != brute force {brute}")
    print(f"c_store of {what}: exact {exact}, rocMLIR {rocmlir}, brute force {brute} "
          f"({int(np.prod(store.view.shape))} points)")
    base = _warm(lambda: brute_force_length(store.view, store.dim, store.values, cap), max(1, repeat // 2))
    def exact() -> object:
        return va.max_vector_length(store.view, store.dim, store.values, max_elements=cap)

    def read_query() -> object:
        fresh = gw.lds_read(grid, "a", config, gfx942, problem.dtype)
        return va.max_vector_length(fresh.view, fresh.dim, fresh.values)

    found: list[Row] = [
        ("c_store: build the view", _warm(lambda: gw.c_store(grid, config, gfx942, problem.dtype), repeat),
         "brute force of its width", base, "<= 50 ms"),
        ("c_store: max_vector_length along item, cold",
         median_time(exact, repeat),
         "brute force", base, "<= 50 ms"),
        ("c_store: max_vector_length along item, warm",
         _warm(exact, repeat),
         "brute force", base, "<= 50 ms"),
        ("c_store: rocmlir_vector_length along item",
         _warm(lambda: va.rocmlir.rocmlir_vector_length(store.view, store.dim, store.values), repeat),
         "brute force", base, "<= 50 ms"),
    ]
    read = gw.lds_read(grid, "a", config, gfx942, problem.dtype)
    read_base = _warm(lambda: brute_force_length(read.view, read.dim, read.values, read.values), repeat)
    found.append(("lds_read of A: build and max_vector_length along k_iter, cold",
                  median_time(read_query, repeat),
                  "brute force", read_base, "<= 50 ms"))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
