"""Scale benchmark: regularizing and writing back a gemm root with a chain of n elementwise
fusees, each reading the previous one's output through a transpose, at n = 100 beside the linear
extrapolation of n = 10 measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_scale.py [--quick]``. Medians of repeated runs from cold
caches. The seed style cannot be linear on this kernel: its log moves chains of up to n maps (each
R1 hands the next fusee one more transpose), and each of them is inverted and proven by ISL.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

import numpy as np  # noqa: E402
from timing import median_time, print_rows, quick_flag  # noqa: E402

import viewalgebra as va  # noqa: E402
from viewalgebra._mlir.model import GenericText, OpText, Slot  # noqa: E402, TID251 -- builds large kernels directly

Row = tuple[str, float, str, float | None, str]

SMALL, LARGE = 10, 100


def transpose(upper: tuple[int, ...], lower: tuple[int, ...]) -> va.TransformMap:
    """[g, x, y] -> [g, y, x]."""
    return va.parse_transform_map(
        f'<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["g", "x", "y"] at [0, 1, 2] -> '
        f'["g", "x", "y"] at [0, 2, 1]>] bounds = {list(upper)} -> {list(lower)}>')


def fusee_chain(n: int, side_inputs: bool = False) -> va.mlir.MlirModule:
    """A gemm root and ``n`` elementwise fusees, each reading the previous one's output through a
    transpose (and, with ``side_inputs``, an argument of its own); the last writes ``%out``.

    Built with the ``Kernel`` API, then given the text of its ops, as if read from MLIR, so that
    ``write_mlir`` can write it.
    """
    k = va.kernel.Kernel("chain")
    a, b = k.argument("a", (1, 3, 4)), k.argument("b", (1, 3, 5))
    current = k.alloc((1, 4, 5), name="c")
    gemm = k.op("rock.gridwise_gemm", reads=[a, b], writes=[current], root=True, name="gemm")
    for i in range(n):
        g, x, y = k.shape(current)
        reads = [k.view(current, [transpose((g, y, x), (g, x, y))])]
        reads += [k.argument(f"x{i}", (g, y, x))] if side_inputs else []
        target = k.argument("out", (g, y, x)) if i == n - 1 else k.alloc((g, y, x), name=f"y{i}")
        k.op("linalg.generic", reads=reads, writes=[target], fn=np.add if side_inputs else np.tanh,
             name=f"f{i}")
        current = target
    ins, result = (("%in: f32, %x: f32", "arith.addf %in, %x") if side_inputs
                   else ("%in: f32", "math.tanh %in"))
    body = f"{{\n^bb0({ins}, %out: f32):\n  %0 = {result} : f32\n  linalg.yield %0 : f32\n}}"
    shapes = tuple(k.shape(v) for v in (*gemm.reads, *gemm.writes))
    a_type, b_type, c_type = (f"memref<{'x'.join(map(str, s))}xf32>" for s in shapes)
    syntax: dict[str, OpText | GenericText] = {op.name: GenericText(body) for op in k.ops[1:]}
    syntax["gemm"] = OpText(("rock.gridwise_gemm ", Slot("write", 0), " = ", Slot("read", 0), " * ",
                             Slot("read", 1), f" : {c_type} = {a_type} * {b_type}"), shapes)
    return va.mlir.MlirModule((va.mlir.MlirFunction(k, True, 1, syntax=tuple(syntax.items())),))


def regularize_time(n: int, style: Literal["seed", "rocmlir"], repeat: int) -> float:
    k = fusee_chain(n).functions[0].kernel
    return median_time(lambda: va.regularize(k, style), repeat)


def write_time(n: int, repeat: int, side_inputs: bool = False) -> tuple[float, int]:
    """The time to write the seed style's result, and how many ``rock.transform`` it writes."""
    module = fusee_chain(n, side_inputs)
    (f,) = module.functions
    done = {f.name: va.regularize(f.kernel).kernel}
    text = va.write_mlir(module, done)
    va.read_mlir(text)  # what is timed is valid MLIR
    return median_time(lambda: va.write_mlir(module, done), repeat), text.count("rock.transform")


def rows(quick: bool) -> list[Row]:
    """Times at n = 100 beside 10 times those at n = 10 (figures in seconds)."""
    repeat = 5 if quick else 7
    linear = f"{LARGE // SMALL} x gemm + {SMALL} fusees"
    found: list[Row] = []
    styles: tuple[tuple[Literal["seed", "rocmlir"], str], ...] = (("seed", "<= 2 s"), ("rocmlir", "<= 0.5 s"))
    for style, target in styles:
        small, large = (regularize_time(n, style, repeat) for n in (SMALL, LARGE))
        found.append((f"regularize gemm + {LARGE} fusees, {style} style", large, linear,
                      small * LARGE / SMALL, target))
    (small, _), (large, _) = (write_time(n, repeat) for n in (SMALL, LARGE))
    found.append((f"write_mlir of the seed result, gemm + {LARGE} fusees", large, linear,
                  small * LARGE / SMALL, "<= 20 ms"))
    # With a side input per fusee, the seed result has a chain of views on each of them: the
    # text grows with the square of n, and writing should grow with the text.
    (small, few), (large, many) = (write_time(n, repeat, side_inputs=True) for n in (SMALL, LARGE))
    found.append((f"write_mlir of the seed result, gemm + {LARGE} fusees with a side input each "
                  f"({many} rock.transform)", large,
                  f"gemm + {SMALL} such fusees ({few}), per rock.transform", small * many / few,
                  "<= 20 ms, <= 1.5x baseline"))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv, "5 repetitions instead of 7")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
