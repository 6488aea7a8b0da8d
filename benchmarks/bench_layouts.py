"""Layout vector lengths: ``va.layouts.vector_length`` on CuTe shape:stride layouts of up to 8
modes beside pycute's formulas on the same layouts, same run.

Run: ``.venv/bin/python benchmarks/bench_layouts.py [--quick]``.

pycute (PyPI ``nvidia-cutlass``, installed with ``pip install --no-deps nvidia-cutlass``) has
no ``max_common_vector``; CuTe's (``include/cute/layout.hpp`` in NVIDIA/cutlass) is
``coalesce(composition(a, right_inverse(b)))``'s first mode when its stride is 1, which for the
flat index (``b`` the identity of ``size(a)``) is ``coalesce(a)``'s first mode. Both are timed:
"coalesce" and "composition". Each query is timed in batches of calls, the median of repeated
rounds per layout, averaged over the layouts; the three are interleaved layout by layout so that
they share the machine's load; ``clear_caches`` runs before every round.
Without pycute its columns are left out with the reason printed. The general engine
(``max_vector_length`` on ``layout_view``) on the same layouts is a third row, for scale.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from timing import print_rows, quick_flag  # noqa: E402

import viewalgebra as va  # noqa: E402

Row = tuple[str, float, str, float | None, str]

LAYOUTS = (
    ((2, 4, 3, 2, 2, 4, 2, 8), (1, 2, 8, 48, 24, 96, 384, 768)),
    ((8, 4, 2, 2, 4, 2, 2, 4), (1, 8, 32, 64, 128, 512, 1024, 2048)),
    ((4, 8, 2, 2, 2, 2, 2, 2), (64, 1, 8, 256, 512, 1024, 2048, 4096)),
    (((2, 4), (2, 2), 8, (4, 2), 2), ((1, 2), (8, 16), 32, (256, 1024), 0)),
    ((16, 8, 4, 2), (1, 16, 0, 128)),
    ((4, 4, 4, 4, 4, 4, 4, 4), (1, 4, 16, 64, 256, 1024, 4096, 16384)),
    ((3, 5, 7, 2, 2, 3), (1, 3, 15, 105, 210, 420)),
    (((8, 8), (4, 2)), ((1, 64), (8, 512))),
    ((32, 4), (4, 1)),
    ((2, 2, 2, 2, 2, 2, 2, 2), (1, 2, 4, 8, 16, 32, 64, 129)),
)
"""Flat and nested CuTe layouts of up to 8 modes: contiguous, contiguous then permuted,
broadcast (stride 0), column-major tiles, a layout with no contiguous first mode."""


def _timed(sides: list[list[Callable[[], object]]], repeat: int, batch: int) -> list[float]:
    """Per side, the mean over its queries of each query's median time over ``repeat`` rounds;
    a round times ``batch`` calls of each query in turn, the sides interleaved query by query so
    that they share the machine's load. No answer is cached (``clear_caches`` before each round
    clears the library's; neither formula keeps one)."""
    times = [[[] for _ in side] for side in sides]
    for side in sides:  # warm-up (imports, first calls), untimed
        for q in side:
            q()
    for _ in range(repeat):
        va.clear_caches()
        for k in range(len(sides[0])):
            for j, side in enumerate(sides):
                q = side[k]
                start = time.perf_counter()
                for _ in range(batch):
                    q()
                times[j][k].append((time.perf_counter() - start) / batch)
    return [sum(statistics.median(t) for t in side) / len(side) for side in times]


def _pycute_queries() -> tuple[list[Callable[[], object]], list[Callable[[], object]]] | str:
    """pycute's two formulas as queries on pycute's own layouts, or why pycute cannot run."""
    try:
        import pycute  # noqa: PLC0415
    except ImportError as e:
        return f"pycute not importable ({e}; pip install --no-deps nvidia-cutlass)"
    cute = pycute

    def first_mode(c: object) -> int:
        shape, stride = c.shape, c.stride  # type: ignore[attr-defined]
        while isinstance(shape, tuple):
            shape, stride = shape[0], stride[0]
        return shape if stride == 1 else 1

    coalesce: list[Callable[[], object]] = []
    composition: list[Callable[[], object]] = []
    for shape, stride in LAYOUTS:
        a = cute.Layout(shape, stride)
        identity = cute.Layout(cute.size(a))
        coalesce.append(lambda a=a: first_mode(cute.coalesce(a)))
        composition.append(lambda a=a, b=identity: first_mode(
            cute.coalesce(cute.composition(a, cute.right_inverse(b)))))
    for q, (shape, stride) in zip(coalesce, LAYOUTS, strict=True):
        mine = va.layouts.vector_length(va.layouts.Layout(shape, stride)).length
        if q() != mine:
            raise SystemExit(f"bench_layouts: pycute's coalesce formula gives {q()} on {shape}:{stride}, "
                             f"vector_length {mine}")
    return coalesce, composition


def rows(quick: bool) -> list[Row]:
    """``vector_length`` beside pycute's coalesce formula, its composition formula and the
    general engine, per query."""
    repeat, batch = (5, 50) if quick else (21, 200)
    layouts = [va.layouts.Layout(shape, stride) for shape, stride in LAYOUTS]
    queries: list[Callable[[], object]] = [lambda a=a: va.layouts.vector_length(a) for a in layouts]
    what = f"vector_length, shape:stride of up to 8 modes (per query, {len(layouts)} layouts)"
    peers = _pycute_queries()
    found: list[Row] = []
    if isinstance(peers, str):
        print(f"bench_layouts: {peers}: pycute's columns left out", file=sys.stderr)
        (mine,) = _timed([queries], repeat, batch)
        found.append((what, mine, peers, None, "<= 1x pycute"))
    else:
        mine, coalesce, composition = _timed([queries, *peers], repeat, batch)
        found.append((what, mine, "pycute coalesce formula", coalesce, "<= 1x pycute"))
        found.append((what, mine, "pycute composition formula (CuTe's max_common_vector)", composition,
                      "<= 1x pycute"))
    views = [va.layouts.layout_view(a) for a in layouts]
    (engine,) = _timed([[lambda v=v: va.max_vector_length(v, 0) for v in views]], 3 if quick else 7, 1)
    found.append((what, mine, "max_vector_length on layout_view (cold, for scale)", engine, "-"))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
