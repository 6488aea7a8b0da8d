"""Layout algebra benchmark: the exact answers of ``va.layouts`` beside CuTe's rules (the ports)
and a plain-Python brute force, measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_layouts_algebra.py [--quick]``. Medians of repeated runs
from cold caches. "CuTe rule" is the port of CuTe's ``composition`` / ``max_common_vector``
(fast, not always right); "brute" evaluates every index in Python loops.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

from timing import median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra._layouts.cute_rules import (  # noqa: E402, TID251 -- CuTe's rules, timed as the baseline
    cute_composition,
    cute_max_common_vector,
)

L = va.layouts
P = L.parse_layout

COMPOSITIONS = [
    ("(4,6,8):(2,3,5) o 6:3", "(4,6,8):(2,3,5)", "6:3"),
    ("(10,2):(16,4) o (3,4):(1,5)", "(10,2):(16,4)", "(3,4):(1,5)"),
    ("(64,64):(64,1) o (8,512):(512,1)", "(64,64):(64,1)", "(8,512):(512,1)"),
    ("(128,128):(1,128) o ((4,32),(8,16)):((1,512),(4,32))", "(128,128):(1,128)",
     "((4,32),(8,16)):((1,512),(4,32))"),
]

VECTORS = [
    ("(6,4):(1,8) with itself", "(6,4):(1,8)", "(6,4):(1,8)"),
    ("(64,64):(64,1) with (64,64):(1,64)", "(64,64):(64,1)", "(64,64):(1,64)"),
    ("Sw<3,3,3> o 0 o (64,64):(64,1) with 4096:1", "Sw<3,3,3> o 0 o (64,64):(64,1)", "4096:1"),
]


def brute_composition(a: str, b: str) -> list[int]:
    outer, inner = P(a), P(b)
    return [L.evaluate(outer, L.evaluate(inner, i)) for i in range(inner.size)]


def brute_vector(a: str, b: str) -> int:
    outer, inner = P(a), P(b)
    back = {L.evaluate(inner, i): i for i in range(inner.size)}
    n = max(back) + 1
    values = [L.evaluate(outer, back[y]) if y in back else None for y in range(n)]
    best = 1
    for v in range(2, n + 1):
        if n % v:
            continue
        good = True
        for p in range(0, n, v):
            known = [x for x in values[p:p + v] if x is not None]
            if known and (len(known) < v or any(known[k + 1] != known[k] + 1 for k in range(v - 1))):
                good = False
        if good:
            best = v
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    repeat = 3 if parser.parse_args().quick else 7
    print(f"{'what':66} {'exact':>12} {'CuTe rule':>12} {'brute':>12} {'exact/brute':>11}")
    for name, a, b in COMPOSITIONS:
        exact = median_time(lambda a=a, b=b: L.composition(P(a), P(b)), repeat)
        try:
            cute = ms(median_time(lambda a=a, b=b: cute_composition(P(a), P(b)), repeat))
        except va.errors.CuteRuleError:
            cute = "rejects".rjust(12)
        brute = median_time(lambda a=a, b=b: brute_composition(a, b), repeat)
        print(f"{'composition ' + name:66} {ms(exact)} {cute:>12} {ms(brute)} {exact / brute:10.2f}x")
    for name, a, b in VECTORS:
        exact = median_time(lambda a=a, b=b: L.max_common_vector(P(a), P(b)), repeat)
        layout = P(a)
        inner = layout.layout if isinstance(layout, L.ComposedLayout) else layout
        cute = median_time(lambda inner=inner, b=b: cute_max_common_vector(inner, P(b)), repeat)
        brute = median_time(lambda a=a, b=b: brute_vector(a, b), repeat)
        print(f"{'max_common_vector ' + name:66} {ms(exact)} {ms(cute)} {ms(brute)} {exact / brute:10.2f}x")


if __name__ == "__main__":
    main()
