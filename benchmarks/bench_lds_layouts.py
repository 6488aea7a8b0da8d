"""rocMLIR's LDS layouts judged (docs/lds.md, rocMLIR's layouts): ``compare_lds_layouts`` (rocMLIR's
layout and 17 variants, store and read each counted) beside the baseline of scoring rocMLIR's
layout alone, both from cold caches in the same run; ``compare_widget`` beside the exact count of
the same access; ``lds_accesses`` of a rocMLIR test file beside the file scan it builds on
(``parse_mlir_views``).

Run: ``.venv/bin/python benchmarks/bench_lds_layouts.py [--repeat N]``. Target: a whole comparison
(one score per layout, up to 18) under 0.5 s at 512 threads; the widget's comparison within 10x the
exact count alone.
"""

from __future__ import annotations

import argparse

from timing import ROOT, median_time, ms

import viewalgebra as va
import viewalgebra.gridwise as gw
from viewalgebra._audit.lds_compare import rocmlir_variant, score_layout  # noqa: TID251 -- the unit measured

LIT = gw.GemmProblem(g=4, m=24, n=24, k=16, dtype="f16")
CASES = [
    ("16x16 MFMA, kpack 8 (@mlir_dot_sigmoid)", "v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1", LIT),
    ("32x32 MFMA, kpack 8", "v4:32,32,8,32,32,32,8,1,1,2,0,0,1,1", LIT),
    ("PR #2196, 512 threads", "v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1",
     gw.GemmProblem(m=960, n=1024, k=1024, dtype="f16", transpose_a=True)),
]
GFX942 = gw.arch("gfx942")


def row(what: str, figure: float, baseline: float) -> None:
    print(f"{what:58} {ms(figure)} {ms(baseline)} {figure / baseline:6.1f}x")


def comparison(text: str, problem: gw.GemmProblem, repeat: int
               ) -> tuple[gw.AccelPerfConfig, gw.GridwiseGemm, float, float]:
    """A's whole comparison and the score of rocMLIR's layout alone, medians from cold caches."""
    config = gw.PerfConfig.parse(text)
    if not isinstance(config, gw.AccelPerfConfig):
        raise SystemExit(f"{text}: not an accelerated perf config")
    grid = gw.gridwise_views(problem, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                             kpack_per_block=config.kpack_per_block, kpack=config.kpack)
    model = va.lds.lds_model("gfx942")
    mine = rocmlir_variant(gw.operand_lds(grid, "a", config, GFX942, "f16"), config.kpack)
    base = median_time(lambda: score_layout(grid, "a", config, GFX942, "f16", mine, model, rocmlir=True),
                       repeat)
    whole = median_time(lambda: va.lds.compare_lds_layouts(grid, "a", config, GFX942, "f16"), repeat)
    return config, grid, whole, base


def case(name: str, text: str, problem: gw.GemmProblem, repeat: int) -> None:
    config, grid, whole, base = comparison(text, problem, repeat)
    model = va.lds.lds_model("gfx942")
    rows = len(va.lds.compare_lds_layouts(grid, "a", config, GFX942, "f16").rows)
    row(f"compare_lds_layouts, {name} ({rows} rows)", whole, base)
    widget = median_time(lambda: va.rocmlir.compare_widget(grid, "b", config, GFX942, "f16", "write"), repeat)
    store = gw.lds_store(grid, "b", config, GFX942, "f16")
    exact = median_time(lambda: va.lds.bank_conflicts(va.lds.thread_lds_access(store, GFX942), model), repeat)
    row(f"compare_widget (B write), {name}", widget, exact)


def rows(quick: bool) -> list[tuple[str, float, str, float | None, str]]:
    """The rows of ``benchmarks/run.py``'s table: a whole comparison at 512 threads beside scoring
    rocMLIR's layout alone."""
    repeat = 3 if quick else 7
    name, text, problem = CASES[-1]
    _, _, whole, base = comparison(text, problem, repeat)
    return [(f"compare_lds_layouts, {name}, 18 layouts", whole, "rocMLIR's layout alone", base, "<= 0.5 s")]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    print(f"{'what':58} {'median':>12} {'baseline':>12} {'ratio':>7}")
    for name, text, problem in CASES:
        case(name, text, problem, repeat)
    text = (ROOT / "tests" / "data" / "gridwise" / "align-tiling-non-contiguous-strides.mlir").read_text()
    scan = median_time(lambda: va.text.parse_mlir_views(text), repeat)
    found = median_time(lambda: va.lds.lds_accesses(text), repeat)
    row("lds_accesses, align-tiling-non-contiguous-strides.mlir", found, scan)


if __name__ == "__main__":
    main()
