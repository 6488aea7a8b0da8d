"""Vector-length benchmark: the exact query beside brute force and rocMLIR's rules, same run.

Run: ``.venv/bin/python benchmarks/bench_vectorize.py [--quick]``.

Every figure is a median of repeated runs (``time.perf_counter``), each from cold caches (the
package's cached ISL objects are cleared before every run). "exact" is ``max_vector_length`` (ISL);
"brute" enumerates every point with numpy and checks every candidate length (tests/oracle.py);
"rocMLIR" is the port of rocMLIR's rules (``rocmlir_vector_length``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from conv_stack import conv2d_input_view  # noqa: E402
from oracle import legal_lengths  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra.rocmlir import rocmlir_vector_length  # noqa: E402, TID251


def conformance_views() -> list[tuple[str, va.View, int, int | None]]:
    """(name, view, dim, run length) of every chain case of the conformance data."""
    data = ROOT / "tests" / "data"
    found = []
    for case in json.loads((data / "rocmlir-cases.json").read_text()):
        inp = case["input"]
        if case["category"] != "vectorization" or "transform_chain_top_to_bottom" not in inp:
            continue
        maps = [va.parse_transform_map(m["text"], strict=False) for m in inp["transform_chain_top_to_bottom"]]
        view = va.View(va.parse_memref_type(inp["underlying_buffer_type"]), maps, strict=False)
        found.append((case["id"], view, inp["in_dim"], inp["in_dim_len"]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repetitions instead of 11")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 11

    print("conformance cases: one query each (medians over repetitions, then over cases)")
    exact_t, brute_t, port_t = [], [], []
    slowest = ("", 0.0)
    for name, view, dim, run in conformance_views():
        length = run or view.shape[dim]
        e = median_time(lambda v=view, d=dim, r=length: va.max_vector_length(v, d, r), repeat)
        b = median_time(lambda v=view, d=dim, r=length: legal_lengths(v, d, r), repeat)
        p = median_time(lambda v=view, d=dim, r=run: rocmlir_vector_length(v, d, r), repeat)
        exact_t.append(e)
        brute_t.append(b)
        port_t.append(p)
        slowest = max(slowest, (name, e), key=lambda t: t[1])
    n = len(exact_t)
    print(f"  {n} cases: exact {ms(statistics.median(exact_t))}, brute {ms(statistics.median(brute_t))}, "
          f"rocMLIR rules {ms(statistics.median(port_t))} (medians over cases)")
    vs_brute = statistics.median(b / e for b, e in zip(brute_t, exact_t, strict=True))
    vs_port = statistics.median(e / p for e, p in zip(exact_t, port_t, strict=True))
    print(f"  brute force / exact: {vs_brute:.2f}x (median ratio); exact / rocMLIR rules: {vs_port:.1f}x")
    print(f"  slowest exact case: {slowest[0]} {ms(slowest[1])}; max over cases {ms(max(exact_t))}")
    print()
    print("conv2d forward NCHW input stack, 3x3, pad 1, view [1, C*9, N*Ho*Wo], query per dim")
    print(f"  {'size (N, C, H, W)':<24} {'points':>14}  {'dim':>3} {'exact':>12} {'brute':>12} "
          f"{'rocMLIR':>12} {'answer':>6}")
    sizes = [(2, 8, 16, 16), (4, 16, 32, 32), (64, 256, 56, 56), (640, 256, 56, 56), (6400, 256, 56, 56)]
    for size in sizes:
        view = conv2d_input_view(*size)
        points = 1
        for s in view.shape:
            points *= s
        for dim in (1, 2):
            e = median_time(lambda v=view, d=dim: va.max_vector_length(v, d), repeat)
            p = median_time(lambda v=view, d=dim: rocmlir_vector_length(v, d), repeat)
            answer = va.max_vector_length(view, dim).length
            brute = "-"
            if points <= 3_000_000:
                b = median_time(lambda v=view, d=dim: legal_lengths(v, d, v.shape[d]), max(repeat // 3, 1))
                brute = ms(b)
                if legal_lengths(view, dim, view.shape[dim])[-1] != answer:
                    raise SystemExit(f"exact and brute force disagree at {size} dim {dim}")
            print(f"  {str(size):<24} {points:>14,}  {dim:>3} {ms(e)} {brute:>12} {ms(p)} {answer:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
