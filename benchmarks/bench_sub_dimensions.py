"""Sub-dimensions benchmark: the exact pieces beside rocMLIR's rule, same run.

Run: ``.venv/bin/python benchmarks/bench_sub_dimensions.py [--quick]``.

Every figure is a median of repeated runs, each from cold caches (``clear_caches``), over every
(view, dim) of rocMLIR's test files. "exact" is ``sub_dimensions`` (numpy for small views, ISL
otherwise); "rocMLIR" is the port of its ``getLowerSubDimensions``
(``rocmlir_lower_sub_dimensions``). The comparison counts each verdict.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from bench_vectorize import file_views  # noqa: E402
from timing import conv_family_row, median_time, print_rows  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]


def queries() -> list[tuple[str, va.Chain, int]]:
    """Every (view, dim) of rocMLIR's test files in tests/data, each distinct chain once."""
    seen: dict[tuple[va.Chain, int], str] = {}
    for name, view, d in file_views():
        seen.setdefault((va.Chain.of(view), d), name)
    return [(name, chain, d) for (chain, d), name in seen.items()]


def rows(quick: bool) -> list[Row]:
    """One row: the median over rocMLIR's test views and dims (figures in seconds)."""
    repeat = 3 if quick else 5
    exact_t, port_t = [], []
    found = queries()
    for _, chain, d in found:
        exact_t.append(median_time(lambda c=chain, d=d: va.sub_dimensions(c, d), repeat))
        port_t.append(median_time(lambda c=chain, d=d: va.rocmlir.rocmlir_lower_sub_dimensions(c, d), repeat))
    return [(f"sub-dimensions, every dim of rocMLIR's test views ({len(exact_t)}), median",
             statistics.median(exact_t), "rocMLIR rule", statistics.median(port_t), "<= 1 ms"),
            conv_family_row("sub-dimensions",
                            lambda v: max(range(v.rank), key=lambda d: len(str(va.sub_dimensions(v, d)))),
                            repeat)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args(argv).quick
    found = queries()
    repeat = 3 if quick else 5
    times = sorted((median_time(lambda c=chain, d=d: va.sub_dimensions(c, d), repeat), f"{name} dim {d}")
                   for name, chain, d in found)
    print_rows(rows(quick))
    print("slowest:", ", ".join(f"{name} {t * 1e3:.2f} ms" for t, name in times[-5:]))
    verdicts: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    for name, chain, d in found:
        c = va.rocmlir.compare_sub_dimensions(chain, d)
        verdicts[c.verdict] += 1
        examples.setdefault(c.verdict, f"{name} dim {d}: {c}")
    print(f"verdicts over {len(found)} (view, dim): {dict(verdicts)}")
    for verdict, example in sorted(examples.items()):
        print(f"  e.g. {verdict}: {example}")
    print("removeUpperDims of the block, thread and loop dims, per view:")
    for name, chain in _tiled_views():
        top = [n for op in chain.maps[0].ops for n in op.upper_names]
        drop = [n for n in top if any(k in n for k in TILE_WORDS)]
        print(f"  {name} without {drop}: {va.rocmlir.compare_remove_upper_dims(chain, drop)}")
    return 0


TILE_WORDS = ("block", "bid", "tid", "k_loop", "iter", "wave", "thread")
"""Top dim names that rocMLIR's lowering removes for block and thread sub-tiles."""


def _tiled_views() -> list[tuple[str, va.Chain]]:
    seen: dict[va.Chain, str] = {}
    for name, view, _ in file_views():
        chain = va.Chain.of(view)
        if any(k in n for op in chain.maps[0].ops for n in op.upper_names for k in TILE_WORDS):
            seen.setdefault(chain, name)
    return [(name, chain) for chain, name in seen.items()]


if __name__ == "__main__":
    raise SystemExit(main())
