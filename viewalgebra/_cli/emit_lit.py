"""``viewalgebra emit-lit``: the views of ``.mlir`` files where rocMLIR's vector length differs from
the exact one (every view with ``--all``) written as a rocMLIR ``-rock-vectorization-inference-test``
lit test stating the exact lengths (``viewalgebra/_mlir/lit.py``, docs/cli.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .._mlir.lit import LitCase, lit_case, lit_text, symbol
from .._mlir.scan import ParsedView, Scanner
from ..errors import ViewAlgebraError
from .entries import lint_of, unusable
from .errors import InputError, bad_input
from .inputs import MAP, Input, inputs, write_text


def run(args: argparse.Namespace) -> int:
    """Read every input a part at a time, compare each view's dims, write the test (``-o`` or
    stdout); exit 1 when a written case has an unsound rocMLIR answer."""
    try:
        sources = inputs(args.input, "emit-lit")
        if sources[0].path is None:
            raise InputError("needs an .mlir file or a directory of them", file=MAP)
        cases: list[LitCase] = []
        left_out: list[str] = []
        views = maps = 0
        for source in sources:
            found, read = file_cases(source, left_out)
            maps += read
            views += len(found)
            cases += [c for c in found if args.all or c.differs]
        if not views and not left_out and (maps or not all(source.reads_as_mlir() for source in sources)):
            raise InputError((f"holds {maps} transform map(s) but no view" if maps else "holds no view")
                             + " (a chain of rock.transform ops on a value) to write a test of",
                             file=args.input)
        text = lit_text(cases, generic=args.generic) if cases else ""
        if cases and args.output:
            write_text(args.output, text)
    except (ViewAlgebraError, InputError) as e:
        return bad_input(args, e)
    for note in left_out:
        print(f"viewalgebra: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({"input": args.input, "output": args.output, "views": views,
                          "cases": [case_entry(c) for c in cases], "left_out": left_out}
                         | ({} if args.output else {"mlir": text}), indent=2))
    elif not views:  # MLIR with no view to answer: nothing to do
        print(f"viewalgebra: {args.input}: 0 views, nothing to write a test of", file=sys.stderr)
    elif not cases:
        print(f"viewalgebra: {args.input}: rocMLIR's answers equal the exact ones on all {views} view(s); "
              "nothing written (--all writes every view)", file=sys.stderr)
    elif args.output:
        print(f"wrote {args.output}: {len(cases)} case(s) of {views} view(s)")
    else:
        sys.stdout.write(text)
    return 1 if any(c.unsound for c in cases) else 0


def file_cases(source: Input, left_out: list[str]) -> tuple[list[LitCase], int]:
    """A case per view of the file (every dim compared), and the number of maps read; views
    that cannot be built or answered are noted in ``left_out``."""
    stem = Path(source.label).stem
    found: list[LitCase] = []
    maps = 0
    for item in Scanner().read(source.parts()):
        if not isinstance(item, ParsedView):
            maps += 1
            continue
        where = f"{source.label}:{item.line}: view {item.name}"
        if item.view is None:
            why = item.error or (f"not analysed: {item.note}" if item.note else "cannot be built")
            left_out.append(f"{where} left out: {why}")
            continue
        bad = unusable(lint_of(item.view))
        if bad is not None:
            left_out.append(f"{where} left out: {bad.message}")
            continue
        try:
            found.append(lit_case(symbol(f"{stem}_l{item.line}"), item.view, where))
        except ViewAlgebraError as e:  # e.g. a query past its time limit: that view alone
            left_out.append(f"{where} left out: {e}")
    return found, maps


def case_entry(c: LitCase) -> dict[str, Any]:
    return {"function": c.name, "source": c.source, "buffer": str(c.view.buffer), "shape": list(c.view.shape),
            "dims": [{"dim": d.dim, "exact": d.exact.length, "rocmlir": d.rocmlir, "verdict": d.verdict}
                     for d in c.dims]}
