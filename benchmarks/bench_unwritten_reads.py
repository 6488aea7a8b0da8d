"""The cost of regularize's check for reads of memory nothing wrote (docs/regularize.md), beside
regularizing each of rocMLIR's regularize test kernels without it, in the same run.

Run: ``.venv/bin/python benchmarks/bench_unwritten_reads.py [--quick]``. Medians of repeated runs
from cold caches.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

from bench_mlir import FILES  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra import _regularize  # noqa: E402, TID251 -- the check alone, and regularize without it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repetitions instead of 9")
    repeat = 3 if parser.parse_args(argv).quick else 9
    check = _regularize.refuse_undefined_reads
    print(f"{'file':48} {'check':>12} {'seed':>12} {'without':>12} {'rocmlir':>12} {'without':>12}")
    for name in FILES:
        (f,) = va.read_mlir((ROOT / "tests" / "data" / "rocmlir" / name).read_text()).functions
        k = f.kernel
        alone = median_time(lambda k=k: check(k), repeat)
        row = [ms(alone)]
        for style in ("seed", "rocmlir"):
            row.append(ms(median_time(lambda k=k, style=style: va.regularize(k, style), repeat)))
            _regularize.refuse_undefined_reads = lambda kernel: None
            try:
                row.append(ms(median_time(lambda k=k, style=style: va.regularize(k, style), repeat)))
            finally:
                _regularize.refuse_undefined_reads = check
        print(f"{name[:48]:48} {' '.join(row)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
