"""Inversion benchmark: ``invert`` (closed form + ISL certificate) beside brute force, the port
of rocMLIR's ``invertTransformMap`` and the previous method, measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_invert.py [--quick]``. Medians of repeated runs from
cold caches. "brute" enumerates every upper point with numpy and inverts by a dictionary of
images (only where the box is small enough). "previous" is the method ``invert`` used before: the
certificate by equality of relations with an identity, and a witness of non-injectivity always
from ISL (``f⁻¹ ∘ f`` minus the identity); it stays reachable as ``_invert(..., fast=False)``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from conv_stack import conv2d_input_view  # noqa: E402
from oracle import images  # noqa: E402
from rocmlir_data import cases  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra._analyses.invert import _invert  # noqa: E402, TID251 -- the uncached path, timed against rocMLIR's
from viewalgebra.rocmlir import rocmlir_invert  # noqa: E402

Row = tuple[str, float, str, float | None, str]
"""What was measured, its seconds, the baseline's name, the baseline's seconds (or ``None``), the target."""

BRUTE_LIMIT = 200_000
"""Boxes of at most this many points are also inverted by brute force."""

TILED_CONV_SIZES = [(1, 1, 4, 8), (2, 16, 32, 32), (64, 256, 56, 56), (512, 1024, 256, 256)]
"""(N, C, H, W) of ``tiled_conv_chain``: about 10^3, 10^6, 10^9 and 10^12 points."""


def conformance_maps() -> list[va.TransformMap]:
    """Every consistent map of the rocMLIR test files."""
    maps = []
    for path in sorted((ROOT / "tests" / "data" / "rocmlir").glob("*.mlir")):
        for entry in va.text.parse_mlir_transform_maps(path.read_text(), errors="collect"):
            if entry.map is not None and not va.transforms.problems(entry.map):
                maps.append(entry.map)
    return maps


def inversion_cases() -> list[va.TransformMap]:
    """The maps of the ``invertTransformMap`` cases of rocmlir-cases.json."""
    return [va.parse_transform_map(c["input"]["map"], strict=False) for c in cases("invertTransformMap")]


def _pass(dims: tuple[int, ...], lower: tuple[int, ...] | None = None) -> va.transforms.PassThrough:
    names = tuple(f"d{d}" for d in dims)
    return va.transforms.PassThrough((), names, dims, names, dims if lower is None else lower)


def tiled_conv_chain(n: int, c: int, h: int, w: int) -> tuple[va.TransformMap, ...]:
    """Ten maps, top first: the conv2d NCHW input stack (4 maps, ``conv_stack``) under six tiling
    maps (gemmK and gemmN unmerged, a transpose, the blocks merged, the width padded, the threads
    merged over channels, window and padded width, an ``AddDim{3}``). Not injective twice over:
    the AddDim and the stack's sliding windows. The top box has ``27 N H C (W + 4)`` points."""
    k, nh, wp = 9 * c, n * h, w + 4
    tiles = [  # bottom first
        va.TransformMap((_pass((0,)), va.transforms.Unmerge((c, 9), ("c", "yx"), (1, 2), ("k",), (1,)),
                         va.transforms.Unmerge((nh, w), ("nh", "w"), (3, 4), ("nn",), (2,))),
                        (1, c, 9, nh, w), (1, k, n * h * w)),
        va.TransformMap((_pass((0, 1, 2, 3, 4), (0, 3, 1, 2, 4)),), (1, nh, c, 9, w), (1, c, 9, nh, w)),
        va.TransformMap((va.transforms.Merge((1, nh), ("bid",), (0,), ("g", "nh"), (0, 1)),
                         _pass((1, 2, 3), (2, 3, 4))),
                        (nh, c, 9, w), (1, nh, c, 9, w)),
        va.TransformMap((_pass((0, 1, 2)), va.transforms.Pad((1, 3), ("wp",), (3,), ("w",), (3,))),
                        (nh, c, 9, wp), (nh, c, 9, w)),
        va.TransformMap((_pass((0,)),
                         va.transforms.Merge((c, 9, wp), ("tid",), (1,), ("c", "yx", "wp"), (1, 2, 3))),
                        (nh, c * 9 * wp), (nh, c, 9, wp)),
        va.TransformMap((_pass((0, 1)), va.transforms.AddDim((3,), ("v",), (2,), (), ())),
                        (nh, c * 9 * wp, 3), (nh, c * 9 * wp)),
    ]
    return (*reversed(tiles), *conv2d_input_view(n, c, h, w).maps)


@cache
def _times(label: str, repeat: int) -> tuple[list[va.TransformMap], list[float], list[float]]:
    """The maps of one set, ``invert`` and the previous method on each (measured once per run)."""
    maps = conformance_maps() if label == "test files" else inversion_cases()
    now = [median_time(lambda m=tm: va.invert(m), repeat) for tm in maps]
    before = [median_time(lambda m=tm: _invert((m,), 60.0, fast=False), repeat) for tm in maps]
    return maps, now, before


@cache
def _tiled_times(size: tuple[int, int, int, int], repeat: int) -> tuple[float, float]:
    """``invert`` and the previous method on ``tiled_conv_chain(*size)`` (measured once per run)."""
    chain = tiled_conv_chain(*size)
    return (median_time(lambda: va.invert(chain), repeat),
            median_time(lambda: _invert(chain, 60.0, fast=False), repeat))


def rows(quick: bool) -> list[Row]:
    """The measurements with targets, each beside the previous method measured in the same run."""
    repeat = 5 if quick else 11
    found: list[Row] = []
    for label, what in (("test files", "rocMLIR test-file maps"), ("cases", "invertTransformMap cases")):
        maps, now, before = _times(label, repeat)
        found.append((f"invert + certificate, {len(maps)} {what}, median", statistics.median(now),
                      "previous method", statistics.median(before), "<= 0.5 ms"))
        found.append((f"invert + certificate, {len(maps)} {what}, max", max(now),
                      "previous method", max(before), "<= 10 ms"))
    for size in TILED_CONV_SIZES:
        points = math.prod(tiled_conv_chain(*size)[0].upper_bounds)
        now_t, before_t = _tiled_times(size, repeat)
        found.append((f"not injective, 10 maps (tiled conv2d input {size}), {points:.1e} points",
                      now_t, "previous method", before_t, "<= 100 ms at any size"))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 repetitions instead of 11")
    quick = parser.parse_args(argv).quick
    repeat = 5 if quick else 11

    maps, exact_t, previous_t = _times("test files", repeat)
    port_t, brute_t = [], []
    kinds: dict[str, int] = {}
    for tm, exact in zip(maps, exact_t, strict=True):
        port_t.append(median_time(lambda m=tm: rocmlir_invert(m), repeat))
        if math.prod(tm.upper_bounds) <= BRUTE_LIMIT:
            brute_t.append((exact, median_time(lambda m=tm: images((m,)), max(repeat // 3, 1))))
        kind = va.invert(tm).kind
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"conformance maps ({len(maps)} consistent maps of the rocMLIR test files; {kinds}):")
    print(f"  invert + certificate {ms(statistics.median(exact_t))} median, {ms(max(exact_t))} max; "
          f"rocMLIR's table {ms(statistics.median(port_t))} median")
    print(f"  previous method      {ms(statistics.median(previous_t))} median, {ms(max(previous_t))} max")
    ratio = statistics.median(b / e for e, b in brute_t)
    print(f"  brute force / invert: {ratio:.2f}x (median over the {len(brute_t)} maps with at most "
          f"{BRUTE_LIMIT:,} points)")
    inversions, now, before = _times("cases", repeat)
    print(f"invertTransformMap cases ({len(inversions)} maps of rocmlir-cases.json):")
    print(f"  invert + certificate {ms(statistics.median(now))} median, {ms(max(now))} max; "
          f"previous method {ms(statistics.median(before))} median, {ms(max(before))} max")
    print()
    print("conv2d forward NCHW input stack (4 maps; Embed sliding windows: not injective)")
    for size in [(2, 8, 16, 16), (64, 256, 56, 56), (640, 256, 56, 56)]:
        view = conv2d_input_view(*size)
        t = median_time(lambda v=view: va.invert(v), max(repeat // 3, 1))
        print(f"  {str(size):<20} invert {ms(t)}  kind {va.invert(view).kind}")
    print("parts of the same stack that are invertible: the gemm Merges; the Pad over the group Unmerge")
    for size in [(2, 8, 16, 16), (64, 256, 56, 56), (640, 256, 56, 56)]:
        view = conv2d_input_view(*size)
        for label, chain in (("Merge", (view.maps[0],)), ("Pad+Unmerge", (view.maps[2], view.maps[3]))):
            t = median_time(lambda c=chain: va.invert(c), repeat)
            result = va.invert(chain)
            print(f"  {str(size):<20} {label:<12} invert {ms(t)}  kind {result.kind}, certified "
                  f"{result.certificate is not None and result.certificate.ok}")
    print()
    print("not injective, 10 maps: the conv2d input stack under six tiling maps with an AddDim{3}")
    print(f"  {'(N, C, H, W)':<22} {'points':>9} {'invert':>12} {'previous':>12} {'brute':>12}  witness")
    for size in TILED_CONV_SIZES:
        chain = tiled_conv_chain(*size)
        points = math.prod(chain[0].upper_bounds)
        t, p = _tiled_times(size, repeat)
        brute = "-"
        if points <= BRUTE_LIMIT:
            brute = ms(median_time(lambda c=chain: images(c), max(repeat // 3, 1)))
        result = va.invert(chain)
        pair = "" if result.witness is None else f", {list(result.witness[0])} and {list(result.witness[1])}"
        print(f"  {str(size):<22} {points:>9.1e} {ms(t)} {ms(p)} {brute:>12}  {result.kind}{pair}")
    print()
    print("targets")
    for what, seconds, baseline, baseline_seconds, target in rows(quick):
        before = "-" if baseline_seconds is None else ms(baseline_seconds)
        print(f"  {what:<78} {ms(seconds)}  ({baseline} {before.strip()}; target {target})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
