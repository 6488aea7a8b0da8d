"""MLIR front-end benchmark: reading rocMLIR's kernels, regularizing them (both styles, every
rewrite proven by ISL) and writing them back, beside running each kernel once in the reference
interpreter (the brute-force check of a rewrite), measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_mlir.py [--quick]``. Medians of repeated runs from cold
caches.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402

FILES = ("regularize.mlir", "input-output-fusion-regularize.mlir", "bug-1546-compile-failure.mlir",
         "bug-1550-reduction-fusion-compile-failure.mlir",
         "unknown-path__regularize_major_tensor_number.mlir")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repetitions instead of 7")
    repeat = 3 if parser.parse_args(argv).quick else 7
    print(f"{'file':48} {'read':>12} {'seed':>12} {'rocmlir':>12} {'write':>12} {'interpreter':>12}"
          f"  points")
    for name in FILES:
        text = (ROOT / "tests" / "data" / "rocmlir" / name).read_text()
        module = va.read_mlir(text)
        (f,) = module.functions
        k = f.kernel
        done = {f.name: va.regularize(k).kernel}
        read = median_time(lambda text=text: va.read_mlir(text), repeat)
        regular = {style: median_time(lambda style=style, k=k: va.regularize(k, style), repeat)
                   for style in ("seed", "rocmlir")}
        write = median_time(lambda module=module, done=done: va.write_mlir(module, done), repeat)
        run = median_time(lambda k=k: va.kernel.run_kernel(k, {}, seed=0), repeat)
        points = sum(int(math.prod(f.kernel.shape(v))) for op in f.kernel.ops
                     for v in (*op.reads, *op.writes))
        print(f"{name[:48]:48} {ms(read)} {ms(regular['seed'])} {ms(regular['rocmlir'])} {ms(write)} "
              f"{ms(run)}  {points}")
    # Reading scales with the file: copies of bug-1550 under fresh names, time per function.
    text = (ROOT / "tests" / "data" / "rocmlir" / FILES[3]).read_text()
    for copies in (10, 100):
        big = "\n".join(text.replace("@mlir_convolution", f"@copy{i}_convolution") for i in range(copies))
        per = median_time(lambda big=big: va.read_mlir(big), 3) / copies
        print(f"read {copies} copies of {FILES[3]} ({len(big) / 1e6:.1f} MB): {ms(per)} per function")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
