"""``viewalgebra regularize``: every kernel of an ``.mlir`` file regularized (functions with the
kernel attribute and a fusion root), the file read, regularized and written a function at a
time (docs/regularize.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from .._kernel.graph import Kernel
from .._regularize import check_invariant, regularize
from ..errors import ViewAlgebraError
from .errors import InputError, bad_input
from .inputs import Input


def run(args: argparse.Namespace) -> int:
    """Read, regularize and write one function at a time: memory stays bounded by the largest
    function, not the file. Output goes to a file beside ``-o`` that replaces it at the end (a
    failed run leaves no partial file), or to stdout as each function is written."""
    from .._mlir import ItemWriter, MlirFunction, Unreadable, iter_mlir_parts

    report: list[dict[str, Any]] = []
    """Per function, for ``--json``; without it only the last entry is kept (memory stays
    bounded by a function), and ``findings`` says whether any had views left or was unreadable."""
    findings = False
    sink = Sink(args.output, keep=args.json and not args.output)
    try:
        writer = ItemWriter(args.generic)
        pending: list[str] = []
        any_function = False
        parts = Input(args.input, Path(args.input)).parts()  # memory bounded by a function
        for item in iter_mlir_parts(parts, errors="collect"):
            kernel: Kernel | None = None
            if isinstance(item, Unreadable):
                any_function = True
                report.append({"function": item.name, "unreadable": str(item.error)})
                print(f"viewalgebra: {args.input}:{item.error} (@{item.name} left as written)",
                      file=sys.stderr)
            elif isinstance(item, MlirFunction):
                any_function = True
                kernel = regularize_function(args, item, report)
            # What comes before a function (aliases, a module's header) is written with it: a
            # run that stops at its first function writes nothing.
            pending.append(writer.write(item, kernel))
            if isinstance(item, (MlirFunction, Unreadable)):
                sink.write("".join(pending))
                pending.clear()
                findings = findings or bool(report[-1].get("views_left") or report[-1].get("unreadable"))
                if not args.json:
                    report.clear()
        if not any_function:  # nothing to do: the input is written back
            print(f"viewalgebra: {args.input}: holds no function to regularize (written back)",
                  file=sys.stderr)
        sink.write("".join(pending))
        sink.close()
    except (ViewAlgebraError, InputError) as e:
        sink.abandon()
        return bad_input(args, e)
    if args.json:
        print(json.dumps({"file": args.input, "output": args.output, "functions": report}
                         | ({} if args.output else {"mlir": sink.text()}), indent=2))
    elif args.output:
        print(f"wrote {args.output}")
    return 1 if findings else 0


def regularize_function(args: argparse.Namespace, f: Any, report: list[dict[str, Any]]) -> Kernel | None:
    """The regularized kernel of ``f`` (an ``MlirFunction``), or ``None`` when it is left alone."""
    if not f.is_kernel or not any(op.root for op in f.kernel.ops):
        why = "no kernel attribute" if not f.is_kernel else "no fusion root"
        report.append({"function": f.name, "skipped": why})
        print(f"@{f.name}: left alone ({why})", file=sys.stderr)
        return None
    result = regularize(f.kernel, args.style)
    left = check_invariant(result.kernel, result.fusing, style=args.style)
    report.append({"function": f.name, "style": args.style,
                   "rewrites": [str(e) for e in result.log],
                   "views_left": [f"%{v.value} of %{v.buffer} at {v.op}" for v in left]})
    for e in result.log:
        print(f"@{f.name}: {e}", file=sys.stderr)
    return result.kernel


class Sink:
    """Where ``regularize`` writes, a function at a time: a file written beside the output and
    moved over it at the end (the output itself when it is not a regular file, e.g. /dev/null),
    stdout, or kept in memory (``--json`` without ``-o`` prints the text in the report)."""

    def __init__(self, output: str | None, keep: bool) -> None:
        self.output = output
        self.kept: list[str] | None = [] if keep else None
        self.file: Any = None
        self.partial: Path | None = None

    def write(self, text: str) -> None:
        if self.kept is not None:
            self.kept.append(text)
        elif self.output is None:
            sys.stdout.write(text)
        else:
            try:
                if self.file is None:
                    path = Path(self.output)
                    if path.is_file() or not path.exists():
                        self.partial = path.with_name(f".{path.name}.partial")
                        path = self.partial
                    self.file = path.open("w")
                self.file.write(text)
            except OSError as e:
                raise InputError(f"cannot write: {e.strerror or e}", file=self.output) from None

    def text(self) -> str:
        return "".join(self.kept or [])

    def close(self) -> None:
        if self.output is None:
            return
        try:
            if self.file is None:
                self.write("")
            if self.file is not None:
                self.file.close()
            if self.partial is not None:
                self.partial.replace(self.output)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", file=self.output) from None

    def abandon(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
        if self.partial is not None:
            self.partial.unlink(missing_ok=True)
