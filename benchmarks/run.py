"""Every performance target in one table: the figure, the baseline measured in the same run, the
ratio, the target.

Run: ``.venv/bin/python benchmarks/run.py [--quick]``. Times are medians of repeated runs from
cold caches (``clear_caches``) unless a row says otherwise; docs/performance.md has a table from
this script and the machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "tests")]  # this checkout

import bench_fresh  # noqa: E402
import bench_gridwise  # noqa: E402
import bench_import  # noqa: E402
import bench_index_range  # noqa: E402
import bench_invert  # noqa: E402
import bench_layouts  # noqa: E402
import bench_lds  # noqa: E402
import bench_lds_layouts  # noqa: E402
import bench_scale  # noqa: E402
import bench_service  # noqa: E402
import bench_simplify  # noqa: E402
import bench_stream  # noqa: E402
import bench_sub_dimensions  # noqa: E402
import bench_validity  # noqa: E402
import bench_vectorize  # noqa: E402
from timing import figure, ratio_text  # noqa: E402

SECTIONS = (("import", bench_import), ("vector length", bench_vectorize), ("invert", bench_invert),
            ("index range", bench_index_range), ("simplify", bench_simplify),
            ("sub-dimensions", bench_sub_dimensions), ("validity", bench_validity),
            ("regularize and write", bench_scale), ("large files", bench_stream), ("service", bench_service),
            ("fresh process", bench_fresh), ("gridwise", bench_gridwise), ("lds", bench_lds),
            ("lds layouts", bench_lds_layouts), ("layouts", bench_layouts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and queries")
    quick = parser.parse_args(argv).quick
    import islpy
    import numpy

    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"islpy {islpy.__version__}, numpy {numpy.__version__}{', --quick' if quick else ''}")
    print()
    print("| what | figure | baseline (same run) | baseline figure | ratio | target |")
    print("|---|---|---|---|---|---|")
    for section, module in SECTIONS:
        for what, value, base, base_value, target in module.rows(quick):
            ratio = "" if not base_value else ratio_text(value / base_value)
            base_figure = "" if base_value is None else figure(base_value, what)
            print(f"| {section}: {what} | {figure(value, what)} | {base} | {base_figure} | {ratio} "
                  f"| {target} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
