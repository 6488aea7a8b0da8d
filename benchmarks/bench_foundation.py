"""Foundation benchmark: parse, build, evaluate and lint the bundled conv2d-forward view stack.

Run: ``.venv/bin/python benchmarks/bench_foundation.py [--quick]``.

The view is ``examples/conv2d_fwd_nchw.mlir`` (NCHW input [64, 256, 56, 56], pad 1, 3x3 filter,
seen as the gemm operand [gemmG, gemmK, gemmN] = [1, 2304, 200704]). Every figure is the median
of repeated runs measured with ``time.perf_counter``. Build costs are measured from a cold cache:
the package's ``lru_cache``d functions are cleared before every repetition. Evaluation costs are
measured with warm caches (what a caller evaluating many points sees). The baseline for the
address evaluation is one ``View.address`` Python call per point.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout, whether or not it is installed

from timing import ROOT  # noqa: E402

import viewalgebra as va  # noqa: E402

# The benchmark needs the package's internals (the numpy path on given points), which the public
# API does not expose.
from viewalgebra._maps import relations  # noqa: E402, TID251
from viewalgebra._maps.view import addresses_of  # noqa: E402, TID251

EXAMPLE = ROOT / "examples" / "conv2d_fwd_nchw.mlir"
BUFFER = va.Buffer((64, 256, 56, 56), "f32")

@dataclass(frozen=True, slots=True)
class Timing:
    label: str
    seconds: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def measure(label: str, run: Callable[[], object], repeat: int, *, cold: bool) -> Timing:
    """Median-ready timings of ``run``; with ``cold`` the caches are cleared before each run."""
    run()  # warm up imports, the ISL context and the allocator; not timed
    seconds: list[float] = []
    for _ in range(repeat):
        if cold:
            va.clear_caches()
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return Timing(label, tuple(seconds))


def load_view(text: str) -> va.View:
    """The bundled stack as a view (the file lists the maps lowest first, a view top first)."""
    entries = va.text.parse_mlir_transform_maps(text, strict=True)
    maps = [e.map for e in entries]
    if any(m is None for m in maps):
        raise SystemExit(f"{EXAMPLE}: a map was rejected")
    return va.View(BUFFER, [m for m in reversed(maps) if m is not None])


def fmt(seconds: float) -> str:
    if seconds >= 1.0:
        return f"{seconds:8.3f} s "
    if seconds >= 1e-3:
        return f"{seconds * 1e3:8.3f} ms"
    return f"{seconds * 1e6:8.3f} us"


def row(t: Timing, note: str = "") -> str:
    return (f"  {t.label:<47} {len(t.seconds):>4} {fmt(t.median)} "
            f"{fmt(min(t.seconds))} {fmt(max(t.seconds))}  {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="3 repetitions of everything instead of 15 (7 for the Python loop)")
    parser.add_argument("--points", type=int, default=100_000,
                        help="number of random view points to evaluate (default 100000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    repeat, repeat_loop = (3, 3) if args.quick else (15, 7)

    text = EXAMPLE.read_text()
    view = load_view(text)
    rng = np.random.default_rng(args.seed)
    points = np.stack([rng.integers(0, n, args.points, dtype=np.int64) for n in view.shape], axis=1)
    tuples = [tuple(int(c) for c in p) for p in points]

    # Same answers on both evaluation paths, and a clean lint, before anything is timed.
    addr, valid = addresses_of(view, points)
    looped = [view.address(p) for p in tuples]
    if [int(a) if ok else None for a, ok in zip(addr, valid, strict=True)] != looped:
        raise SystemExit("numpy and per-point addresses disagree")
    findings = va.lint(view)
    if findings:
        raise SystemExit("lint findings on the bundled view:\n" + "\n".join(map(str, findings)))

    parse = measure("(a) parse .mlir (4 maps, strict)",
                    lambda: va.text.parse_mlir_transform_maps(text, strict=True), repeat, cold=True)
    build = measure("(b) address_function(view), cold cache",
                    lambda: relations.address_function(view), repeat, cold=True)
    numpy_path = measure(f"(c) addresses_of, {args.points} points (numpy)",
                         lambda: addresses_of(view, points), repeat, cold=False)
    loop = measure(f"(c) view.address x {args.points} (Python) [baseline]",
                   lambda: [view.address(p) for p in tuples], repeat_loop, cold=False)
    lint_cold = measure("(d) lint(view), cold cache", lambda: va.lint(view), repeat, cold=True)
    lint_warm = measure("(d) lint(view), warm cache", lambda: va.lint(view), repeat, cold=False)

    print(f"viewalgebra foundation benchmark: {EXAMPLE.name}")
    print(f"  buffer memref<64x256x56x56xf32>, {len(view.maps)} maps, view shape "
          f"{list(view.shape)} ({int(np.prod(view.shape)):,} points)")
    print(f"  {args.points} random view points (seed {args.seed}), "
          f"{valid.mean():.2%} of them valid (not padding)")
    print(f"  python {platform.python_version()}, islpy {version('islpy')}, "
          f"numpy {np.__version__}; {'--quick, ' if args.quick else ''}medians of n runs")
    print()
    print(f"  {'operation':<47} {'n':>4} {'median':>11} {'min':>11} {'max':>11}")
    print(f"  {'-' * 47} {'-' * 4} {'-' * 11} {'-' * 11} {'-' * 11}")
    print(row(parse))
    print(row(build))
    per_point = numpy_path.median / args.points
    print(row(numpy_path, f"{fmt(per_point).strip()}/point"))
    print(row(loop, f"{fmt(loop.median / args.points).strip()}/point"))
    print(row(lint_cold))
    print(row(lint_warm))
    print()
    print(f"  numpy path vs per-point Python baseline: {loop.median / numpy_path.median:,.1f}x "
          f"faster ({fmt(numpy_path.median).strip()} vs {fmt(loop.median).strip()} "
          f"for {args.points} points, identical answers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
