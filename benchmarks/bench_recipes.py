"""Recipe benchmark: building the gridwise operands of a problem (docs/gridwise.md), beside reading
the same maps from rocMLIR's text in the same run.

Run: ``.venv/bin/python benchmarks/bench_recipes.py [--quick]``.

The conv is the one of tests/data/rocmlir/bug-1550-reduction-fusion-compile-failure.mlir (3x3,
padding 1, NCHW, gemm [1, 36, 320] x [1, 36, 8192]) with that kernel's tuning (kpackPerBlock 4,
mPerBlock 128, nPerBlock 16, kpack 8): ``conv_to_gemm`` builds five maps, ``gridwise_views`` eight.
The baseline parses the kernel's ``.mlir`` text, which holds those eight maps beside the others
of the kernel (``va.text.parse_mlir_views``). Medians of repeated runs, each from cold caches.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout, whether or not it is installed

from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
import viewalgebra.gridwise as gw  # noqa: E402

KERNEL = (ROOT / "tests" / "data" / "rocmlir" / "bug-1550-reduction-fusion-compile-failure.mlir").read_text()
CONV = gw.ConvProblem(n=2, c=4, hi=64, wi=64, k=320, y=3, x=3, padding=(1, 1, 1, 1))
GEMM = gw.GemmProblem(m=1000, n=1000, k=1000, dtype="f16", transpose_a=True)
BLOCKS = dict(m_per_block=128, n_per_block=16, kpack_per_block=4, kpack=8)


def maps(*views: va.View) -> int:
    return sum(len(v.maps) for v in views)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    repeat = 5 if parser.parse_args().quick else 31
    conv, grid = gw.conv_to_gemm(CONV), gw.gridwise_views(CONV, **BLOCKS)
    split = gw.gridwise_views(GEMM, **BLOCKS, split_k_factor=4)
    count = va.text.parse_mlir_transform_maps(KERNEL)
    rows = [
        (f"conv_to_gemm ({maps(conv.a, conv.b, conv.c)} maps)",
         median_time(lambda: gw.conv_to_gemm(CONV), repeat)),
        (f"gridwise_views of the conv ({maps(grid.a, grid.b, grid.c)} maps)",
         median_time(lambda: gw.gridwise_views(CONV, **BLOCKS), repeat)),
        (f"gridwise_views of a gemm, split-K 4 ({maps(split.a, split.b, split.c)} maps)",
         median_time(lambda: gw.gridwise_views(GEMM, **BLOCKS, split_k_factor=4), repeat)),
        (f"baseline: parse the kernel's text ({len(count)} maps)",
         median_time(lambda: va.text.parse_mlir_views(KERNEL), repeat)),
    ]
    width = max(len(label) for label, _ in rows)
    for label, seconds in rows:
        print(f"{label:<{width}}  {ms(seconds)}")


if __name__ == "__main__":
    main()
