"""The ``viewalgebra`` command line: its arguments, and the command each runs (one module per
command, imported when it runs, so that ``--help`` imports neither sympy nor the MLIR front end).

Exit codes: 0 nothing to report, 1 findings (hazards, an unsound rocMLIR answer), 2 bad input
(one line on stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

_COMMANDS = {
    "check": "every map and view of an .mlir file (or a directory of them): lint, inverse, "
             "exact vector lengths beside rocMLIR's, and each kernel's loads and stores followed "
             "through its fused ops; exit 1 on findings or an unsound rocMLIR answer",
    "show": "the formulas of every map (one per lower dim) and the address formula of every view",
    "invert": "the certified inverse of every map, beside rocMLIR's",
    "vectorize": "the exact vector length along one dim of every view, beside rocMLIR's; "
                 "exit 1 when rocMLIR's answer is unsound",
    "draw": "an SVG picture of a view's buffer addresses on a 2-D slice, padding shaded and the "
            "maximal vector runs outlined",
    "regularize": "regularize every kernel of an .mlir file (functions with the kernel attribute and "
                  "a fusion root) and write the MLIR; exit 1 when views stay between an allocation "
                  "and a fusing op or a function cannot be read (it is written back unchanged)",
    "emit-lit": "the views of an .mlir file (or a directory of them) where rocMLIR's vector length differs "
                "from the exact one, written as a rocMLIR -rock-vectorization-inference-test lit test whose "
                "CHECK lines state the exact lengths; exit 1 when a written rocMLIR answer is unsound",
    "audit": "every (problem, config) pair of a tier1 problem list: rocMLIR's width of each per-thread "
             "load and store beside the exact width and the best layout's, on Dask (this machine's cores "
             "or a cluster); writes results.parquet and a picture, prints a summary; exit 1 on an unsound "
             "or failing width, a failing check or an error",
    "lds": "the LDS bank conflicts of every LDS store and read of an .mlir file (rock.threadwise_write_all "
           "into and rock.threadwise_read_into from workgroup memory), or of rocMLIR's LDS layouts for a "
           "gemm perf config beside the alternatives (--gemm): each access's instruction, worst degree, "
           "predicted SQ_LDS_BANK_CONFLICT cycles and a witness",
    "layout": "one layout given as text (CuTe's, pycute's, FlyDSL's or Triton's: what "
              "va.layouts.parse_layout reads): its size; with --vector the exact vector length of its "
              "flat index with a witness, with --draw its offsets on a grid (text, or an SVG file)",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = argument_parser().parse_args(argv)
    try:
        status = _run(args)
    except BrokenPipeError:  # e.g. piped into `head`: the rest of the output is not wanted
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status



def _vector_options(sub: argparse.ArgumentParser, prefix: str, whole: str, starts: str) -> None:
    """The options of a vector-length query (``vectorize``, ``layout --vector``)."""
    sub.add_argument("--length", type=int, help=f"{prefix}run length (default: {whole})")
    sub.add_argument("--bits", type=int,
                     help=f"{prefix}cap the answer at this many bits per access (e.g. 128)")
    sub.add_argument("--power-of-two", action="store_true", help=f"{prefix}powers of two only")
    sub.add_argument("--aligned", action="store_true",
                     help=f"{prefix}also require {starts} that are multiples of the length")

def _run(args: argparse.Namespace) -> int:
    """Run the command's module, imported now (``--help`` imports none of them)."""
    if getattr(args, "dtype", None) is not None:  # a bad --dtype is bad input for a file too
        from .._maps.buffer import dtype_bits
        from ..errors import InvalidTransformError
        from .errors import InputError, bad_input

        try:
            dtype_bits(args.dtype)
        except InvalidTransformError as e:
            return bad_input(args, InputError(f"--dtype {args.dtype}: {e}"))
    if args.command == "check":
        from . import check as command
    elif args.command == "show":
        from . import show as command
    elif args.command == "invert":
        from . import invert as command
    elif args.command == "vectorize":
        from . import vectorize as command
    elif args.command == "draw":
        from . import draw as command
    elif args.command == "audit":
        from . import audit as command
    elif args.command == "emit-lit":
        from . import emit_lit as command
    elif args.command == "lds":
        from . import lds as command
    elif args.command == "layout":
        from . import layout as command
    else:
        from . import regularize as command
    return command.run(args)


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="viewalgebra", description="Exact algebra of rocMLIR tensor views. Exit status: 0 "
        "nothing to report, 1 findings, 2 bad input (one line on stderr).")
    parser.add_argument("--version", action="version", version=f"viewalgebra {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in _COMMANDS.items():
        sub = commands.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        if name == "regularize":
            sub.add_argument("input", help="an .mlir file")
        elif name == "emit-lit":
            sub.add_argument("input", help="an .mlir file or a directory of .mlir files")
            sub.add_argument("-o", "--output", help="the .mlir test to write (default: stdout)")
            sub.add_argument("--all", action="store_true",
                             help="every view, not only those where rocMLIR's answer differs")
            sub.add_argument("--generic", action="store_true",
                             help="write the ops in generic form (MLIR's parser reads it without rocMLIR)")
        elif name == "layout":
            sub.add_argument("input", metavar="TEXT",
                             help='the layout, e.g. "(4,8):(1,4)", "Sw<3,3,3> o (24,8):(1,32)" or '
                                  '"#ttg.linear<{...}>"')
            sub.add_argument("--vector", action="store_true",
                             help="the exact vector length of the flat index -> offset, with a witness")
            sub.add_argument("--draw", nargs="?", const="", metavar="OUT.svg",
                             help="the offsets on a grid: mode 0 down, the other modes across; printed as "
                                  "text, or written to OUT.svg when given")
            sub.add_argument("--dtype", default="f32",
                             help="element type of the offsets, for --bits (default f32)")
            _vector_options(sub, "--vector: ", "the layout's size", "first offsets")
        elif name == "audit":
            sub.add_argument("input", metavar="PROBLEMS",
                             help="a problem list in rocMLIR's tier1 format (conv and gemm lines)")
            sub.add_argument("--configs", default="quick", metavar="quick|full|FILE",
                             help="the perf configs of each problem: its quick or full tuning space on "
                                  "--arch, or the configs of FILE, one a line (default quick)")
            sub.add_argument("--arch", default="gfx942", help="the target (default gfx942)")
            sub.add_argument("--limit", type=int, metavar="N", help="at most N configs per problem")
            sub.add_argument("--out", default="audit-out", metavar="DIR",
                             help="where results.parquet and the picture go (default audit-out)")
            sub.add_argument("--scheduler", metavar="ADDRESS",
                             help="a running Dask scheduler (tcp://host:port) to send the tasks to "
                                  "(default: a local cluster of this machine's cores)")
            sub.add_argument("--workers", type=int, metavar="N",
                             help="worker processes of the local cluster (default: the cores)")
            sub.add_argument("--provider", metavar="MODULE:FUNCTION",
                             help="the function (problem, config, arch) -> [gw.AuditItem] giving the "
                                  "accesses to audit, importable where the workers run (default: "
                                  "rocMLIR's per-thread accesses as the recipes build them; docs/audit.md)")
        elif name == "lds":
            sub.add_argument("input", nargs="?", help="an .mlir file (not with --gemm)")
            sub.add_argument("--arch", required=True,
                             help="the target: gfx90a, gfx942, gfx950, gfx1100 or gfx1201")
            sub.add_argument("--gemm", metavar="PARAMS",
                             help="instead of a file: rocMLIR's LDS layouts of a gemm beside the others its "
                                  "maps express, PARAMS its perf config (e.g. "
                                  "v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1)")
            sub.add_argument("--problem", metavar="LINE",
                             help="with --gemm: the problem, one line of rocMLIR's tier1 format as audit "
                                  "reads (gemm or conv; default: one tile of the config, untransposed, in "
                                  "--dtype)")
            sub.add_argument("--dtype", help="with --gemm and no --problem: the element type (default f16)")
            sub.add_argument("--operand", choices=("a", "b"),
                             help="with --gemm: only this operand's layouts (default: both)")
            sub.add_argument("--svg", metavar="OUT",
                             help="also write an SVG picture of the worst access's phases (va.draw.banks)")
        else:
            sub.add_argument("input", help="an .mlir file, a directory of .mlir files (check), or "
                                           "one transform map in rocMLIR syntax")
            sub.add_argument("--dtype", default="f32",
                             help="element type of the buffer under a map given as text (default f32)")
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "check":
            sub.add_argument("-r", "--recursive", action="store_true",
                             help="a directory's whole tree: the .mlir files of its subdirectories too")
        if name == "vectorize":
            sub.add_argument("--dim", type=int, required=True, help="the view dim to vectorize")
            _vector_options(sub, "", "the dim's size", "start addresses")
        if name in ("show", "vectorize"):
            sub.add_argument("--view", help="only this view of the file: its name (e.g. %%3) or its line "
                                            "(default: every view)")
        if name == "invert":
            sub.add_argument("--view", help="invert this view's whole chain instead of each map: its name "
                                            "(e.g. %%3) or its line")
        if name == "draw":
            sub.add_argument("-o", "--output", required=True, help="the .svg file to write")
            sub.add_argument("--view", help="which view of the file: its name (e.g. %%3) or its line "
                                            "(default: the first)")
            sub.add_argument("--rows", metavar="D[:START:STOP]",
                             help="the dim drawn down the rows, optionally only its coordinates "
                                  "START..STOP-1 (at most 64), e.g. 1 or 1:0:32 (default: a dim "
                                  "other than --cols, of size above 1 if any)")
            sub.add_argument("--cols", metavar="D[:START:STOP]",
                             help="the dim drawn across the columns, optionally with a window as "
                                  "--rows (default: the dim with the longest exact vector run); a side "
                                  "longer than 64 with no window is cut to its first 32 rows or 64 "
                                  "columns, and the picture and stderr say so")
            sub.add_argument("--fixed", action="append", default=[], metavar="DIM=COORD",
                             help="the coordinate of a dim that is not drawn (repeatable; default 0)")
            sub.add_argument("--vector-dim", metavar="D",
                             help="the dim whose vector runs are outlined (default: the drawn dim "
                                  "with the longer runs)")
        if name == "regularize":
            sub.add_argument("-o", "--output", help="the .mlir file to write (default: stdout)")
            sub.add_argument("--style", choices=("seed", "rocmlir"), default="seed",
                             help="seed: R1/R2 to the fixpoint (default); rocmlir: rocMLIR's placement")
            sub.add_argument("--generic", action="store_true",
                             help="print every op in generic form (as mlir-opt --mlir-print-op-generic)")
    return parser


def _version() -> str:
    """The installed distribution's version (``pyproject.toml``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("viewalgebra")
    except PackageNotFoundError:  # run from a checkout without installing
        return "unknown (not installed)"
