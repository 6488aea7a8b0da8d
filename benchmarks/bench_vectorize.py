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
import math
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from conv_stack import conv2d_input_view, gemm_tiling_view  # noqa: E402
from oracle import legal_lengths  # noqa: E402
from timing import ROOT, median_time, ms  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra.rocmlir import rocmlir_vector_length  # noqa: E402


def conformance_views() -> list[tuple[str, va.View, int, int | None]]:
    """(name, view, dim, run length) of every chain case of the conformance data."""
    data = ROOT / "tests" / "data"
    found = []
    for case in json.loads((data / "rocmlir-cases.json").read_text()):
        inp = case["input"]
        if case["category"] != "vectorization" or "transform_chain_top_to_bottom" not in inp:
            continue
        maps = [va.parse_transform_map(m["text"], strict=False) for m in inp["transform_chain_top_to_bottom"]]
        view = va.View(va.text.parse_memref_type(inp["underlying_buffer_type"]), maps, strict=False)
        found.append((case["id"], view, inp["in_dim"], inp["in_dim_len"]))
    return found


Row = tuple[str, float, str, float | None, str]


def file_views() -> list[tuple[str, va.View, int]]:
    """(file:view, view, dim) for every dim of every meaningful view of rocMLIR's test files in
    tests/data (the verifier tests' views, which define a dim twice, have no answer)."""
    found = []
    for path in sorted((ROOT / "tests" / "data" / "rocmlir").glob("*.mlir")):
        for k, parsed in enumerate(va.text.parse_mlir_views(path.read_text())):
            if parsed.view is None or any(p.blocking for m in parsed.view.maps
                                          for p in va.transforms.problems(m)):
                continue
            found.extend((f"{path.name}:{k}", parsed.view, d) for d in range(parsed.view.rank))
    return found


def _family_ratio(name: str, small: va.View, large: va.View, repeat: int) -> Row:
    def worst(v: va.View) -> float:
        return max(median_time(lambda d=d: va.max_vector_length(v, d), repeat) for d in range(v.rank))

    return (f"{name}: slowest dim at {math.prod(large.buffer.shape):.0e} elements "
            f"(baseline: at {math.prod(small.buffer.shape):.0e})",
            worst(large), f"{math.prod(small.buffer.shape):.0e} elements", worst(small), "<= 2x baseline")


def rows(quick: bool) -> list[Row]:
    """One row per target of the vector-length query (figures in seconds)."""
    repeat = 5
    exact_t, port_t, names = [], [], []
    for name, view, dim in file_views():
        exact_t.append(median_time(lambda v=view, d=dim: va.max_vector_length(v, d), repeat))
        port_t.append(median_time(lambda v=view, d=dim: _port(v, d), repeat))
        names.append(f"{name} dim {dim}")
    n = len(exact_t)
    slowest = names[exact_t.index(max(exact_t))]
    found: list[Row] = [
        (f"vector length, every (view, dim) of rocMLIR's test files ({n}), median",
         statistics.median(exact_t), "rocMLIR rules", statistics.median(port_t), "<= 0.3 ms"),
        (f"vector length, every (view, dim) of rocMLIR's test files ({n}), max ({slowest})",
         max(exact_t), "rocMLIR rules", max(port_t), "<= 5 ms")]
    conv = conv2d_input_view(64, 256, 56, 56)
    found.append(("conv2d input N=64 C=256 56x56 3x3 pad 1, slowest dim",
                  max(median_time(lambda d=d: va.max_vector_length(conv, d), repeat) for d in range(3)),
                  "rocMLIR rules", max(median_time(lambda d=d: _port(conv, d), repeat) for d in range(3)),
                  "<= 5 ms"))
    tiny = conv2d_input_view(1, 1, 8, 8)  # 576 points
    found.append(("conv2d input at 576 points, slowest dim",
                  max(median_time(lambda d=d: va.max_vector_length(tiny, d), repeat) for d in range(3)),
                  "numpy brute force",
                  max(median_time(lambda d=d: legal_lengths(tiny, d, tiny.shape[d]), repeat)
                      for d in range(3)),
                  "<= baseline"))
    found.append(_family_ratio("gemm tiling [kloop, bid, tid, iter]", gemm_tiling_view(1, 2, 1, 2, 8, 2, 4),
                               gemm_tiling_view(16, 4096, 1024, 4, 64, 4, 4), repeat))
    found.append(_family_ratio("conv2d input", conv2d_input_view(1, 2, 6, 6),
                               conv2d_input_view(6400, 1024, 112, 112), repeat))
    mid = gemm_tiling_view(1, 16, 16)  # 2^20 elements
    times = [median_time(lambda d=d: va.max_vector_length(mid, d), repeat) for d in range(4)]
    brute = [median_time(lambda d=d: legal_lengths(mid, d, mid.shape[d]), 1 if quick else 3)
             for d in range(4)]
    slowest = max(range(4), key=lambda d: times[d])
    found.append((f"gemm tiling at {math.prod(mid.buffer.shape):.0e} elements, slowest dim",
                  times[slowest], "numpy brute force", brute[slowest], ">= 1000x faster"))
    view, dim = conv, 1
    va.max_vector_length(view, dim)
    found.append(("the same query again (conv2d input, cached)", _repeat_time(view, dim),
                  "first, cold", median_time(lambda: va.max_vector_length(view, dim), repeat), "<= 20 us"))
    return found


def _port(view: va.View, dim: int) -> int | None:
    try:
        return rocmlir_vector_length(view, dim)
    except va.ViewAlgebraError:
        return None


def _repeat_time(view: va.View, dim: int, calls: int = 10_000) -> float:
    import time

    va.max_vector_length(view, dim)
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            va.max_vector_length(view, dim)
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


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
    print("every (view, dim) of rocMLIR's test files, the slowest five (medians from cold caches)")
    times = sorted(((median_time(lambda v=view, d=dim: va.max_vector_length(v, d), repeat),
                     f"{name} dim {dim}") for name, view, dim in file_views()), reverse=True)
    print(f"  {len(times)} (view, dim): median {ms(statistics.median(t for t, _ in times))}")
    for t, name in times[:5]:
        print(f"  {ms(t)}  {name}")
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
