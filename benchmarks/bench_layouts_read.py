"""Layout readers: read the text, build the view and enumerate every offset through the chain
(numpy), beside ``va.layouts.evaluate`` at every index in a Python loop, same run.

Run: ``.venv/bin/python benchmarks/bench_layouts_read.py [--quick]``.

The layouts: a 128 x 64 swizzled CuTe tile (``Sw<3,3,3> o 0 o (128,64):(64,1)``, 8192 offsets),
a Triton ``#ttg.linear`` of 16 x 128 x 4 registers, lanes and warps (8192 inputs) and a padded
shared 64 x 128 tile (``#ttg.padded_shared<[128:+8] ...>``, 8192 elements). Figures are medians of
repeated runs from cold caches; the enumeration must equal the loop, point for point.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

from timing import median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402

L = va.layouts
TEXTS = {
    "CuTe swizzled tile": "Sw<3,3,3> o 0 o (128,64):(64,1)",
    "Triton #ttg.linear": ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8]], lane = [[1, 0], "
                           "[2, 0], [4, 0], [8, 0], [16, 0], [0, 16], [0, 32]], warp = [[32, 0], [64, 0]], "
                           "block = []}>"),
    "Triton padded shared": "#ttg.padded_shared<[128:+8] {order = [1, 0], shape = [64, 128]}>",
}
Row = tuple[str, float, str, float, str]


def through_chain(text: str) -> list[int]:
    addr, valid = L.layout_view(L.parse_layout(text)).addresses()
    if not valid.all():
        raise SystemExit(f"bench_layouts_read: invalid points in {text}")
    return addr.tolist()


def by_loop(text: str) -> list[int]:
    layout = L.parse_layout(text)
    return [L.evaluate(layout, i) for i in range(layout.size)]


def rows(quick: bool) -> list[Row]:
    repeat = 3 if quick else 7
    found: list[Row] = []
    for name, text in TEXTS.items():
        if through_chain(text) != by_loop(text):
            raise SystemExit(f"bench_layouts_read: the chain differs from evaluate ({name})")
        start = time.perf_counter()
        by_loop(text)
        baseline = time.perf_counter() - start
        found.append((f"parse + layout_view + addresses, {name}",
                      median_time(lambda text=text: through_chain(text), repeat), "evaluate loop",
                      baseline, ""))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args(argv).quick
    for what, value, base, base_value, _ in rows(quick):
        print(f"{what}: {ms(value)} (median); {base}: {ms(base_value)}; ratio {value / base_value:.4f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
