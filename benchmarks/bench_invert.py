"""Inversion benchmark: ``invert`` (closed form + ISL certificate) beside brute force and the
port of rocMLIR's ``invertTransformMap``, measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_invert.py [--quick]``. Medians of repeated runs from
cold caches. "brute" enumerates every upper point with numpy and inverts by a dictionary of
images (only where the box is small enough).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from conv_stack import conv2d_input_view  # noqa: E402
from oracle import images  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra.rocmlir import rocmlir_invert  # noqa: E402, TID251


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repetitions instead of 11")
    repeat = 3 if parser.parse_args(argv).quick else 11

    maps = []
    for path in sorted((ROOT / "tests" / "data" / "rocmlir").glob("*.mlir")):
        for entry in va.parse_mlir_transform_maps(path.read_text(), errors="collect"):
            if entry.map is not None and not va.problems(entry.map):
                maps.append(entry.map)
    exact_t, port_t, brute_t = [], [], []
    kinds: dict[str, int] = {}
    for tm in maps:
        exact_t.append(median_time(lambda m=tm: va.invert(m), repeat))
        port_t.append(median_time(lambda m=tm: rocmlir_invert(m), repeat))
        points = 1
        for n in tm.upper_bounds:
            points *= n
        if points <= 200_000:
            brute_t.append((exact_t[-1], median_time(lambda m=tm: images((m,)), max(repeat // 3, 1))))
        kind = va.invert(tm).kind
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"conformance maps ({len(maps)} consistent maps of the rocMLIR test files; {kinds}):")
    print(f"  invert + certificate {ms(statistics.median(exact_t))} median, {ms(max(exact_t))} max; "
          f"rocMLIR's table {ms(statistics.median(port_t))} median")
    ratio = statistics.median(b / e for e, b in brute_t)
    print(f"  brute force / invert: {ratio:.2f}x (median over the {len(brute_t)} maps with at most "
          f"200,000 points)")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
