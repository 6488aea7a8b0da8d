"""Gridwise recipes benchmark: reading rocMLIR's problem lists and perf configs, and enumerating
tuning spaces, each beside a baseline measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_gridwise.py [--quick]``.

Figures are medians of repeated runs (nothing here is cached). The tuning spaces' baseline is the
literal transcription of rocMLIR's loops and rules in tests/test_gridwise_configs.py (every
combination tried, no pruning); the readers' baselines only split the text into tokens.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

import test_gridwise_configs as oracle  # noqa: E402
from timing import print_rows, quick_flag  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]
DATA = HERE.parent / "tests" / "data" / "rocmlir"


def _median(run: Callable[[], object], repeat: int) -> float:
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rows(quick: bool) -> list[Row]:
    repeat = 3 if quick else 7
    gw = va.gridwise
    gfx942 = gw.arch("gfx942")
    problem = gw.GemmProblem(m=4096, n=4096, k=4096, dtype="f16")
    found: list[Row] = []
    for kind in ("full", "exhaustive"):
        found.append((f"tuning_space, f16 gemm on gfx942, {kind}",
                      _median(lambda kind=kind: gw.tuning_space(problem, gfx942, kind), repeat),
                      "rocMLIR's loops transcribed",
                      _median(lambda kind=kind: oracle._rocmlir_brute_force(gfx942, "f16", kind), repeat),
                      "<= 1x baseline"))
    conv_list = (DATA / "tier1-conv-configs").read_text()
    found.append(("parse_problem_list, tier1-conv-configs (938 lines)",
                  _median(lambda: gw.parse_problem_list(conv_list), repeat), "tokens only",
                  _median(lambda: [line.split() for line in conv_list.splitlines()], repeat), "<= 300 ms"))
    strings = [str(c) for key in ("conv", "gemm") for dtype in ("f16", "f32", "i8")
               for c in gw.quick_configs(gfx942, key, dtype)]
    found.append((f"PerfConfig.parse, gfx942's quick lists ({len(strings)} strings), per string",
                  _median(lambda: [gw.PerfConfig.parse(s) for s in strings], repeat) / len(strings),
                  "tokens only",
                  _median(lambda: [re.split("[:,]", s) for s in strings], repeat) / len(strings), "<= 50 us"))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
