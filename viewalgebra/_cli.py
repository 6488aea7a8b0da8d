"""The ``viewalgebra`` command line: ``check``, ``show``, ``invert``, ``vectorize``, ``draw``,
``regularize``.

Exit codes: 0 nothing to report, 1 findings (hazards, an unsound rocMLIR answer), 2 bad input
(one line on stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ._analyses.invert import invert
from ._analyses.vectorize import Witness, elements_per_access, max_vector_length

# The package's core only; sympy, the MLIR front end, drawing and the rocMLIR port are imported
# by the commands that use them, so that ``--help`` stays fast.
from ._kernel.graph import Kernel
from ._maps.buffer import Buffer
from ._maps.equations import dim_names
from ._maps.lint import lint
from ._maps.syntax import ParsedMap, read_transform_map
from ._maps.syntax import print_transform_map as print_map
from ._maps.transform_map import TransformMap
from ._maps.view import View
from ._regularize import check_invariant, regularize
from .errors import (
    CoordinateError,
    InvalidArgumentError,
    InvalidTransformError,
    TooComplexError,
    TransformParseError,
    ViewAlgebraError,
)

if TYPE_CHECKING:
    from ._mlir.scan import ParsedView

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
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="viewalgebra", description="Exact algebra of rocMLIR tensor views. Exit status: 0 "
        "nothing to report, 1 findings, 2 bad input (one line on stderr).")
    parser.add_argument("--version", action="version", version=f"viewalgebra {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in _COMMANDS.items():
        sub = commands.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        if name == "regularize":
            sub.add_argument("input", help="an .mlir file")
        else:
            sub.add_argument("input", help="an .mlir file, a directory of .mlir files (check), or "
                                           "one transform map in rocMLIR syntax")
            sub.add_argument("--dtype", default="f32",
                             help="element type of the buffer under a map given as text (default f32)")
        sub.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "vectorize":
            sub.add_argument("--dim", type=int, required=True, help="the view dim to vectorize")
            sub.add_argument("--length", type=int, help="run length (default: the dim's size)")
            sub.add_argument("--bits", type=int,
                             help="cap the answer at this many bits per access (e.g. 128)")
            sub.add_argument("--power-of-two", action="store_true", help="powers of two only")
            sub.add_argument("--aligned", action="store_true",
                             help="also require start addresses that are multiples of the length")
        if name in ("show", "vectorize"):
            sub.add_argument("--view", help="only this view of the file: its name (e.g. %%3) or its line "
                                            "(default: every view)")
        if name == "invert":
            sub.add_argument("--view", help="invert this view's whole chain instead of each map: its name "
                                            "(e.g. %%3) or its line")
        if name == "draw":
            sub.add_argument("-o", "--output", required=True, help="the .svg file to write")
            sub.add_argument("--view", help="which view of the file (e.g. %%3; default: the first)")
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
    args = parser.parse_args(argv)
    if args.command == "draw":
        return _draw(args)
    if args.command == "regularize":
        return _regularize(args)
    try:
        inputs = _inputs(args.input, args.command)
    except _InputError as e:
        return _bad_input(args, e)
    reports: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for i, (label, load) in enumerate(inputs, start=1):
        if len(inputs) > 1:
            print(f"[{i}/{len(inputs)}] {label}", file=sys.stderr)
        try:
            reports.append(_report(args, label, load()))
        except _InputError as e:
            print(f"viewalgebra: {e}", file=sys.stderr)
            errors.append(_error_object(e))
    try:
        if args.json:
            print(json.dumps(_document(args, inputs, reports, errors), indent=2))
        elif reports:
            print("\n\n".join(_render(r) for r in reports))
            if len(reports) > 1 and args.command == "check":
                print(_render_summary(_total(r["summary"] for r in reports), "total"))
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    for r in reports:  # what could not be answered, on stderr too
        for item in r["maps"] + r["views"]:
            if "error" in item:
                print(f"viewalgebra: {item['error']['message']}", file=sys.stderr)
    if errors or any("error" in item for r in reports for item in r["maps"] + r["views"]):
        return 2
    return 1 if any(_has_findings(r) for r in reports) else 0


def _version() -> str:
    """The installed distribution's version (``pyproject.toml``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("viewalgebra")
    except PackageNotFoundError:  # run from a checkout without installing
        return "unknown (not installed)"


def _draw(args: argparse.Namespace) -> int:
    from ._draw import cli_crop_note, cli_slice, render_svg

    try:
        ((label, load),) = _inputs(args.input, "draw")
        views = _views(args, label, load())
        if not views:
            raise _InputError(f"{label}: no view to draw")
        chosen = [(name, v) for name, v, _ in views if args.view in (None, name)]
        if not chosen:
            raise _InputError(f"{label}: no view {args.view} (there are {', '.join(n for n, _, _ in views)})")
        name, view = chosen[0]
        sl = cli_slice(view, rows=args.rows, cols=args.cols, fixed=args.fixed, vector_dim=args.vector_dim)
        _write_text(args.output, render_svg(view, sl))
    except (ViewAlgebraError, _InputError) as e:
        return _bad_input(args, e)
    note = cli_crop_note(sl)
    if note is not None:  # never crop silently
        print(f"viewalgebra: {label}: view {name}: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({
            "file": label, "view": name, "output": args.output, "rows": sl.rows, "cols": sl.cols,
            "row_window": [sl.row_window.start, sl.row_window.stop],
            "col_window": [sl.col_window.start, sl.col_window.stop],
            "fixed": [{"dim": d, "coordinate": x} for d, x in enumerate(sl.fixed)
                      if d not in (sl.rows, sl.cols)],
            "vector_dim": sl.vector_dim, "vector_length": sl.vector_length, "cut": list(sl.cropped)},
            indent=2))
    else:
        print(f"wrote {args.output}")
    return 0


def _bad_input(args: argparse.Namespace, e: Exception) -> int:
    """Report ``e`` in one line on stderr (and as ``{"error": ...}`` on stdout with ``--json``);
    exit status 2."""
    error = _error_object(e, file=None if isinstance(e, _InputError) else args.input)
    print(f"viewalgebra: {error['message']}", file=sys.stderr)
    if args.json:
        print(json.dumps({"error": error}, indent=2))
    return 2


def _error_object(e: Exception, *, file: str | None = None, line: int | None = None,
                  what: str = "") -> dict[str, Any]:
    """What went wrong, as the JSON contract has it (docs/cli.md): the one-line message of the
    text output, where (file, line, column when known), the reason alone, and the error's type."""
    column: int | None = None
    cause: BaseException = e
    if isinstance(e, _InputError):
        file, line, column = e.file, e.line, e.column
        cause = e.__cause__ or e
    if isinstance(cause, TransformParseError) and line is None:
        line, column = cause.line, cause.column
    reason = cause.reason if isinstance(cause, TransformParseError) else (
        e.reason if isinstance(e, _InputError) else str(e))
    where = ":".join(str(x) for x in (file, line, column) if x is not None)
    message = str(e) if isinstance(e, _InputError) else f"{where}{': ' if where else ''}{what}{reason}"
    kind = "InputError" if cause is e and isinstance(e, _InputError) else type(cause).__name__
    return {"message": message, "file": file, "line": line, "column": column, "reason": what + reason,
            "type": kind}


def _document(args: argparse.Namespace, inputs: list[tuple[str, Callable[[], str]]],
              reports: list[dict[str, Any]], errors: list[dict[str, Any]]) -> dict[str, Any]:
    """The one JSON document of a run: a file's report, ``{"error": ...}``, or for a directory
    ``{"files": [...], "errors": [...]}`` (with the total ``summary`` for ``check``)."""
    if len(inputs) == 1:
        return reports[0] if reports else {"error": errors[0]}
    document: dict[str, Any] = {"files": reports, "errors": errors}
    if args.command == "check":
        document["summary"] = _total(r["summary"] for r in reports)
    return document


def _regularize(args: argparse.Namespace) -> int:
    """Read, regularize and write one function at a time: memory stays bounded by the largest
    function, not the file. Output goes to a file beside ``-o`` that replaces it at the end (a
    failed run leaves no partial file), or to stdout as each function is written."""
    from ._mlir import ItemWriter, MlirFunction, Unreadable, iter_mlir_parts, text_parts

    report: list[dict[str, Any]] = []
    """Per function, for ``--json``; without it only the last entry is kept (memory stays
    bounded by a function), and ``findings`` says whether any had views left or was unreadable."""
    findings = False
    sink = _Sink(args.output, keep=args.json and not args.output)
    try:
        writer = ItemWriter(args.generic)
        pending: list[str] = []
        any_function = False
        lines = _file_lines(Path(args.input))  # read a part at a time: memory bounded by a function
        for item in iter_mlir_parts(text_parts(lines), errors="collect"):
            kernel: Kernel | None = None
            if isinstance(item, Unreadable):
                any_function = True
                report.append({"function": item.name, "unreadable": str(item.error)})
                print(f"viewalgebra: {args.input}:{item.error} (@{item.name} left as written)",
                      file=sys.stderr)
            elif isinstance(item, MlirFunction):
                any_function = True
                kernel = _regularize_function(args, item, report)
            # What comes before a function (aliases, a module's header) is written with it: a
            # run that stops at its first function writes nothing.
            pending.append(writer.write(item, kernel))
            if isinstance(item, (MlirFunction, Unreadable)):
                sink.write("".join(pending))
                pending.clear()
                findings = findings or bool(report[-1].get("views_left") or report[-1].get("unreadable"))
                if not args.json:
                    report.clear()
        if not any_function:
            raise _InputError("holds no function to regularize", file=args.input)
        sink.write("".join(pending))
        sink.close()
    except (ViewAlgebraError, _InputError) as e:
        sink.abandon()
        return _bad_input(args, e)
    if args.json:
        print(json.dumps({"file": args.input, "output": args.output, "functions": report}
                         | ({} if args.output else {"mlir": sink.text()}), indent=2))
    elif args.output:
        print(f"wrote {args.output}")
    return 1 if findings else 0


def _regularize_function(args: argparse.Namespace, f: Any, report: list[dict[str, Any]]) -> Kernel | None:
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


class _Sink:
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
                raise _InputError(f"cannot write: {e.strerror or e}", file=self.output) from None

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
            raise _InputError(f"cannot write: {e.strerror or e}", file=self.output) from None

    def abandon(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
        if self.partial is not None:
            self.partial.unlink(missing_ok=True)


class _InputError(Exception):
    """Bad input, reported in one line with exit status 2: ``reason`` at ``file``, ``line``,
    ``column`` (each when known); the message is ``file:line:column: reason``."""

    def __init__(self, reason: str, file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.reason, self.file, self.line, self.column = reason, file, line, column
        where = ":".join(str(x) for x in (file, line, column) if x is not None)
        super().__init__(f"{where}: {reason}" if where else reason)


def _regular_file(path: Path) -> None:
    if not path.exists():
        raise _InputError("no such file", file=str(path))
    if not path.is_file():
        raise _InputError("not a regular file", file=str(path))


def _read_text(path: Path) -> str:
    """The text of a regular file, or ``_InputError`` saying why not (a FIFO or device would
    block or never end; NUL bytes or bytes that are not UTF-8 are not MLIR)."""
    _regular_file(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise _InputError(f"cannot read: {e.strerror or e}", file=str(path)) from None
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise _InputError("not text (a NUL byte)", file=str(path), line=line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise _InputError("not UTF-8 text", file=str(path), line=line) from None


def _file_lines(path: Path) -> Iterator[str]:
    """The lines of a regular file as ``_read_text`` checks them, read one at a time."""
    _regular_file(path)
    try:
        with path.open("rb") as f:
            for number, raw in enumerate(f, start=1):
                if b"\0" in raw:
                    raise _InputError("not text (a NUL byte)", file=str(path), line=number)
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise _InputError("not UTF-8 text", file=str(path), line=number) from None
    except OSError as e:
        raise _InputError(f"cannot read: {e.strerror or e}", file=str(path)) from None


def _write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise _InputError(f"cannot write: {e.strerror or e}", file=path) from None


def _inputs(arg: str, command: str) -> list[tuple[str, Callable[[], str]]]:
    """(label, loader of the .mlir text) per input; a map given as text is a file of one map."""
    path = Path(arg)
    if path.is_dir():
        files = sorted(path.glob("*.mlir"))
        if command != "check" or not files:
            raise _InputError("a directory needs the check command and .mlir files in it", file=arg)
        return [(str(f), lambda f=f: _read_text(f)) for f in files]
    if path.exists():
        return [(arg, lambda: _read_text(path))]
    if arg.lstrip().startswith(("#rock.transform_map", "<")):
        return [("<map>", lambda: arg)]
    raise _InputError("no such file, and not a transform map in rocMLIR syntax", file=arg)


def _report(args: argparse.Namespace, label: str, text: str) -> dict[str, Any]:
    from ._mlir.scan import parse_mlir_transform_maps

    try:
        # A map that fails rocMLIR's verifier is a finding of its file, not the end of it.
        maps = [read_transform_map(text, strict=False)] if label == "<map>" else list(
            parse_mlir_transform_maps(text, errors="collect"))
        # Text that is not rocMLIR syntax is bad input, except in a verifier test (its
        # ``expected-error`` comments say which): there each bad map is a finding.
        errors = [m.error for m in maps if isinstance(m.error, TransformParseError)]
        if errors and "expected-error" not in text:
            raise errors[0]
        # check: the views built on such a map are left out (its finding says why)
        broken = args.command == "check" and any(m.map is None for m in maps)
        views = _views(args, label, text, skip_broken=broken)
        if args.command == "vectorize" and not views and maps:
            raise _InputError(f"holds {len(maps)} transform map(s) but no view (a chain of rock.transform "
                              "ops on a value) to vectorize; give one map as text to see it over a "
                              "row-major buffer", file=label)
        if not maps and not views and not (args.command == "check" and _has_functions(text)):
            raise _InputError("holds no transform map or view"
                              + (" and no function" if args.command == "check" else ""), file=label)
        report = _analyse(args, label, maps, views)
    except TransformParseError as e:
        raise _InputError(e.reason, file=label, line=e.line, column=e.column) from e
    except ViewAlgebraError as e:
        raise _InputError(str(e), file=label) from e
    if args.command == "check" and label != "<map>":
        report["kernels"] = _kernels(label, text)
    return report


def _has_functions(text: str) -> bool:
    from ._mlir import read_mlir

    try:
        module = read_mlir(text, errors="collect")
    except ViewAlgebraError:
        return False
    return bool(module.functions or module.unreadable)


def _kernels(label: str, text: str) -> list[dict[str, Any]]:
    """Every load and store of each fusion root, followed through the fused ops to the function
    arguments after ``regularize`` (seed style), with the exact vector length of every dim."""
    from ._mlir import read_mlir

    try:
        module = read_mlir(text, errors="collect")
    except ViewAlgebraError:
        return []  # not a file of kernels; the maps and views above say what is wrong
    found: list[dict[str, Any]] = []
    for f in module.functions:
        if not any(op.root for op in f.kernel.ops):
            continue
        try:
            k = regularize(f.kernel).kernel
        except ViewAlgebraError as e:
            found.append({"function": f.name, "error": _error_object(e, file=label)})
            continue
        for op in (op for op in k.ops if op.root):
            for role, operands in (("load", op.reads), ("store", op.writes)):
                for operand in operands:
                    entry: dict[str, Any] = {"function": f.name, "op": op.kind, "access": role,
                                             "shape": list(k.shape(operand))}
                    try:
                        for argument, view in k.fused_views(op, operand):
                            found.append(entry | {"argument": argument, "lengths": [
                                max_vector_length(view, d).length for d in range(view.rank)]})
                    except ViewAlgebraError as e:
                        found.append(entry | {"error": _error_object(e, file=label)})
    return found


def _views(args: argparse.Namespace, label: str, text: str, *,
           skip_broken: bool = False) -> list[tuple[str, View, int]]:
    """The views of a file (without those that cannot be built, if ``skip_broken``), or a map
    given as text seen over a row-major buffer of ``--dtype``."""
    if label == "<map>":
        tm = read_transform_map(text, strict=False).map
        if tm is None:
            return []
        return [("map", View(Buffer(tm.lower_bounds, args.dtype), (tm,), strict=False), 1)]
    from ._mlir.scan import parse_mlir_views

    return [(v.name, _built(v), v.line) for v in parse_mlir_views(text)
            if not (skip_broken and v.view is None)]


def _built(v: ParsedView) -> View:
    if v.view is None:
        raise v.error or InvalidTransformError(f"{v.line}:{v.column}: cannot build view {v.name}")
    return v.view


def _has_findings(report: dict[str, Any]) -> bool:
    return any(item.get("findings") for item in report["maps"] + report["views"]) or any(
        answer["verdict"] == "rocMLIR unsound" for v in report["views"]
        for answer in [*v.get("vectors", []), *(v[k] for k in _UTILITIES if k in v)])


_UTILITIES = ("simplified", "validity", "index_width")
"""The per-view answers of ``check`` beside rocMLIR's transform-map utilities."""


def _findings(found: Sequence[Any]) -> list[dict[str, Any]]:
    return [{"code": f.code, "message": f.message, "map_index": f.map_index,
             "point": list(f.point) if f.point is not None else None} for f in found]


def _analyse(args: argparse.Namespace, label: str, parsed: list[ParsedMap],
             views: list[tuple[str, View, int]]) -> dict[str, Any]:
    command = args.command
    maps: list[dict[str, Any]] = []
    chosen = getattr(args, "view", None) if command in ("show", "vectorize", "invert") else None
    for m in parsed if command != "vectorize" and not (command == "invert" and chosen) else []:
        if m.map is None:
            if command == "check":  # a map rocMLIR's parser or verifier rejects: where and why
                maps.append({"name": m.name, "form": m.form, "line": m.line, "column": m.column,
                             "text": None, "findings": _findings(lint(m))})
            continue
        unusable = [f for f in lint(m.map) if f.code == "unusable"]
        usable = not unusable
        entry: dict[str, Any] = {
            "name": m.name, "form": m.form, "line": m.line, "column": m.column,
            "text": print_map(m.map, affine_map=None if usable else m.written),
            "upper_bounds": list(m.map.upper_bounds), "lower_bounds": list(m.map.lower_bounds)}
        if unusable and command in ("show", "invert"):  # what it cannot do, and why
            entry["error"] = _error_object(InvalidTransformError(unusable[0].message), file=label,
                                           line=m.line, what=f"map {m.name or m.form}: ")
        if command in ("check", "show"):
            entry["formulas"] = _formulas(m.map) if usable else []
        if command == "check":
            entry["findings"] = _findings(lint(m))
        if command in ("check", "invert"):
            entry["inverse"] = _inverse(m.map) if usable else None
        maps.append(entry)
    out_views: list[dict[str, Any]] = []
    if chosen is not None and not any(chosen in (name, str(line)) for name, _, line in views):
        names = ", ".join(dict.fromkeys(n for n, _, _ in views)) or "none"
        raise _InputError(f"no view {chosen} (names: {names}; or give the view's line)", file=label)
    for name, view, line in views if command != "invert" or chosen else []:
        if chosen is not None and chosen not in (name, str(line)):
            continue
        findings = lint(view)
        unusable = [f for f in findings if f.code == "unusable"]
        usable = not unusable
        entry = {"name": name, "line": line, "buffer": str(view.buffer), "shape": list(view.shape),
                 "maps": len(view.maps)}
        if unusable and command in ("show", "invert", "vectorize"):  # what it cannot do, and why
            entry["error"] = _error_object(InvalidTransformError(unusable[0].message), file=label,
                                           line=line, what=f"view {name}: ")
        if command == "check":
            entry["findings"] = _findings(findings)
        if command in ("check", "show"):
            entry["address"] = None if not usable else _address(view)
        if command == "check":
            entry["vectors"] = [_vectors(view, d) for d in range(view.rank)] if usable else []
            if usable:
                entry |= _utilities(view)
        if command == "invert":
            entry["inverse"] = _inverse(view.maps) if usable and view.maps else None
        if command == "vectorize":
            try:  # one view's bad dim or length is that view's error, not the file's
                entry["vectors"] = [_vectors(view, args.dim, args)] if usable else []
            except ViewAlgebraError as e:
                entry["vectors"] = []
                entry["error"] = _error_object(e, file=label, line=line, what=f"view {name}: ")
        out_views.append(entry)
    report: dict[str, Any] = {"file": label, "maps": maps, "views": out_views}
    if command == "check":
        report["summary"] = _summary(report)
    return report


def _point(p: Sequence[int] | None) -> list[int] | None:
    return None if p is None else list(p)


def _utilities(view: View) -> dict[str, Any]:
    """The exact counterparts of rocMLIR's transform-map utilities for one view, each beside
    rocMLIR's rule: a shorter chain, the validity checks, the 64-bit decision."""
    from ._rocmlir.collapse import compare_collapse
    from ._rocmlir.index_width import compare_index_width
    from ._rocmlir.validity import compare_validity

    c = compare_collapse(view)
    s = c.exact
    simplified = {
        "verdict": c.verdict, "maps": len(s.maps), "buffer": str(s.result.buffer),
        "chain": [print_map(m) for m in s.maps] if s.changed else [], "log": list(s.log),
        "certified": bool(s.certificate), "rocmlir_collapsed": [str(m) for m in c.rocmlir.collapsed],
        "witness": _point(c.witness), "addresses": None if c.addresses is None else list(c.addresses)}
    v = compare_validity(view, count=False)
    validity = {
        "verdict": v.verdict, "invalid_point": _point(v.exact.witness),
        "impacting_dims": list(v.exact.impacting_dims), "rocmlir_checks": [list(k) for k in v.rocmlir_checks],
        "unchecked": [{"map": u.map_index, "dim": u.dim, "bound": u.bound, "point": list(u.point),
                       "value": u.value} for u in v.unchecked],
        "needless": [{"map": n.map_index, "dim": n.dim, "bound": n.bound, "kind": n.kind,
                      "point": _point(n.point)} for n in v.needless],
        "missed_dims": [d.dim for d in v.missed_dims]}
    w = compare_index_width(view)
    width = {"verdict": w.verdict, "needs_64bit": w.exact.needs_64bit, "rocmlir": w.rocmlir,
             "witness": _point(w.exact.witness), "reason": w.exact.reason}
    return {"simplified": simplified, "validity": validity, "index_width": width}


_VERDICTS = ("equal", "rocMLIR conservative", "rocMLIR unsound")


def _summary(report: dict[str, Any]) -> dict[str, Any]:
    """How many of each verdict the file's views and maps got."""
    views = report["views"]

    def count(items: list[dict[str, Any]]) -> dict[str, int]:
        return {v: sum(1 for i in items if i["verdict"] == v) for v in _VERDICTS}

    vectors = [vec for v in views for vec in v.get("vectors", [])]
    inverses = [m["inverse"] for m in report["maps"] if m.get("inverse")]
    return {
        "views": len(views), "dims": len(vectors), "vector_lengths": count(vectors),
        "validity": count([v["validity"] for v in views if "validity" in v]),
        "index_width": count([v["index_width"] for v in views if "index_width" in v]),
        "collapse": count([v["simplified"] for v in views if "simplified" in v]),
        "simplified": sum(1 for v in views if v.get("simplified", {}).get("log")),
        "maps": len(report["maps"]),
        "inverses": sum(1 for i in inverses if i["maps"]),
        "inverses_rocmlir_cannot_find": sum(1 for i in inverses if i["maps"] and not i["rocmlir"]),
    }


def _address(view: View) -> str:
    """The address formula, or why there is none (a chain too long to write as one formula)."""
    from ._maps.sympy_formulas import format_formulas, sympy_formulas

    try:
        formula = format_formulas(sympy_formulas(
            view, upper=dim_names(view.maps[0], "upper") if view.maps else None))[0]
    except TooComplexError as e:
        return f"address: no formula ({e})"
    from ._maps.equations import validity_checks

    if any(validity_checks(m) for m in view.maps) or view.narrow_links():
        return f"{formula} (where the point is valid: off the padding, inside every bound)"
    return formula


def _formulas(maps: TransformMap | tuple[TransformMap, ...]) -> list[str]:
    """One sympy equation per lower dim, in rocMLIR's names where they are identifiers."""
    from ._maps.sympy_formulas import format_formulas, sympy_formulas

    chain = (maps,) if isinstance(maps, TransformMap) else maps
    eqs = sympy_formulas(chain, upper=dim_names(chain[0], "upper"), lower=dim_names(chain[-1], "lower"))
    return list(format_formulas(eqs))


def _inverse(tm: TransformMap | tuple[TransformMap, ...]) -> dict[str, Any]:
    """The exact inverse of a map or a view's chain beside rocMLIR's."""
    from ._rocmlir.inversion import rocmlir_invert

    ours, theirs = invert(tm), rocmlir_invert(tm)
    return {
        "kind": ours.kind,
        "maps": None if ours.maps is None else [print_map(m) for m in ours.maps],
        "formulas": None if ours.maps is None else _formulas(ours.maps),
        "certified": ours.certificate is not None and ours.certificate.ok,
        "reason": ours.reason,
        "witness": None if ours.witness is None else [list(p) for p in ours.witness],
        "uncovered": None if ours.uncovered is None else str(ours.uncovered),
        "rocmlir": None if theirs.maps is None else [print_map(m) for m in theirs.maps],
        "rocmlir_reason": theirs.reason,
    }


def _vectors(view: View, dim: int, args: argparse.Namespace | None = None) -> dict[str, Any]:
    if not 0 <= dim < view.rank:
        raise CoordinateError(f"dim {dim} out of range for a view of rank {view.rank}")
    length, size = getattr(args, "length", None), view.shape[dim]
    if length is not None and length < 1:
        raise InvalidArgumentError(f"--length {length}: a run length is at least 1")
    if length is not None and (length > size or size % length):
        raise InvalidArgumentError(
            f"--length {length}: must divide dim {dim}'s size {size}: runs of {length} "
            + (f"do not fit in {size}" if length > size else "would end in a partial run")
            + " (va.max_vector_length answers for partial runs, docs/vectorize.md)")
    from ._rocmlir.vectorization import compare_vector_lengths

    c = compare_vector_lengths(view, dim, getattr(args, "length", None))
    entry: dict[str, Any] = {
        "dim": dim, "size": view.shape[dim], "exact": c.exact.length, "legal": list(c.exact.legal),
        "rocmlir": c.rocmlir, "verdict": c.verdict,
        "witness": _witness(c.exact.witness)}
    if args is not None and (args.bits is not None or args.power_of_two or args.aligned):
        if args.bits is not None and (args.bits < 1 or args.bits % view.buffer.bits):
            raise _InputError(f"--bits {args.bits}: must be a positive multiple of the element's "
                              f"{view.buffer.bits} bits ({view.buffer.dtype})")
        cap = elements_per_access(view, args.bits) if args.bits is not None else None
        options = max_vector_length(view, dim, args.length, max_elements=cap,
                                    power_of_two=args.power_of_two, aligned=args.aligned)
        entry["with_options"] = {"length": options.length, "legal": list(options.legal), "cap": cap,
                                 "witness": _witness(options.witness)}
    return entry


def _witness(w: Witness | None) -> dict[str, Any] | None:
    """Why the next length is illegal, as data (and the sentence the text output prints)."""
    if w is None:
        return None
    return {"length": w.length, "reason": w.reason, "point": list(w.point),
            "next_point": _point(w.next_point), "addresses": list(w.addresses), "text": str(w)}


def _differences(report: dict[str, Any]) -> list[str]:
    """``check``'s first lines: every answer of rocMLIR's rules that differs from the exact one,
    with the evidence, before the details: unsound answers first, then conservative ones, then
    what rocMLIR cannot answer at all."""
    found: list[tuple[int, str]] = []

    def rank(verdict: str) -> int:
        return 0 if verdict == "rocMLIR unsound" else 1

    for m in report["maps"]:
        inv = m.get("inverse")
        if inv and inv["maps"] and not inv["rocmlir"]:
            title = f"#{m['name']}" if m["name"] else f"{m['form']} map"
            found.append((3, f"  {title} (line {m['line']}): rocMLIR cannot invert it "
                             f"({inv['rocmlir_reason']}); the exact inverse is {inv['kind']}, "
                             "certified by ISL"))
    for v in report["views"]:
        where = f"  view {v['name']} (line {v['line']})"
        for vec in v.get("vectors", []):
            if vec["verdict"] != "equal":
                why = f"; {vec['witness']['text']}" if vec["witness"] else ""
                found.append((rank(vec["verdict"]), f"{where}, dim {vec['dim']}: vector length exact "
                              f"{vec['exact']}, rocMLIR {vec['rocmlir']}: {vec['verdict']}{why}"))
        c = v.get("validity")
        if c and c["verdict"] != "equal":
            first = (f"{c['unchecked'][0]['value']} at {c['unchecked'][0]['point']} leaves [0, "
                     f"{c['unchecked'][0]['bound']}) unchecked" if c["unchecked"] else
                     f"its check of map {c['needless'][0]['map']}, lower dim {c['needless'][0]['dim']} "
                     f"{c['needless'][0]['kind']}" if c["needless"] else "a dim its rule does not name")
            found.append((rank(c["verdict"]), f"{where}: validity checks {c['verdict']}: {first}"))
        w = v.get("index_width")
        if w and w["verdict"] != "equal":
            bits = "64" if w["needs_64bit"] else "32"
            found.append((rank(w["verdict"]), f"{where}: index width {w['verdict']}: exact {bits}-bit, "
                          f"rocMLIR {'64' if w['rocmlir'] else '32'}-bit"))
        s = v.get("simplified")
        if s and s["verdict"] != "equal":
            found.append((rank(s["verdict"]) + 1, f"{where}: collapse of contiguous merges {s['verdict']}: "
                          + (f"valid point {s['witness']} moves from address {s['addresses'][0]} to "
                             f"{s['addresses'][1]}" if s["witness"] is not None else
                             f"simplify leaves {s['maps']} map(s) over {s['buffer']}")))
    head = (f"{report['file']}: {len(found)} answer(s) of rocMLIR's rules differ from the exact ones"
            if found else f"{report['file']}: rocMLIR's rules give the exact answers here")
    ordered = [line for _, line in sorted(found, key=lambda f: f[0])]
    return [head + " (details below, summary at the end)", *ordered]


def _render(report: dict[str, Any]) -> str:
    out: list[str] = _differences(report) if "summary" in report else []
    for m in report["maps"]:
        title = f"#{m['name']}" if m["name"] else f"{m['form']} map"
        if m["text"] is None:
            out.append(f"{title} (line {m['line']}): rejected")
        else:
            out.append(f"{title} (line {m['line']}): {m['upper_bounds']} -> {m['lower_bounds']}")
            out.append(f"  {m['text']}")
        if "error" in m:
            out.append(f"  cannot answer: {m['error']['reason']}")
        out.extend(f"    {f}" for f in m.get("formulas", []))
        if "findings" in m:
            out.extend(_render_findings(m["findings"]))
        if m.get("inverse") is not None:
            out.extend(_render_inverse(m["inverse"]))
    for v in report["views"]:
        out.append(f"view {v['name']} (line {v['line']}): {v['buffer']} through {v['maps']} map(s), "
                   f"shape {v['shape']}")
        if "error" in v:
            out.append(f"  cannot answer: {v['error']['reason']}")
        if "findings" in v:
            out.extend(_render_findings(v["findings"]))
        if v.get("address"):
            out.append(f"  {v['address']}")
        if v.get("inverse") is not None:
            out.extend(_render_inverse(v["inverse"]))
        for vec in v.get("vectors", []):
            out.append(f"  vector length along dim {vec['dim']} (size {vec['size']}): exact "
                       f"{vec['exact']}, rocMLIR {vec['rocmlir']}: {vec['verdict']}")
            if vec["witness"]:
                out.append(f"    next candidate {vec['witness']['text']}")
            if "with_options" in vec:
                opt = vec["with_options"]
                cap = f" (cap {opt['cap']})" if opt["cap"] else ""
                out.append(f"    with the options{cap}: {opt['length']}, legal {opt['legal']}")
        out.extend(_render_utilities(v))
    for k in report.get("kernels", []):
        if "error" in k and "op" not in k:
            out.append(f"kernel @{k['function']}: cannot regularize: {k['error']['reason']}")
        elif "error" in k:
            out.append(f"kernel @{k['function']}: {k['op']} {k['access']} of {k['shape']}: cannot "
                       f"follow the fused ops ({k['error']['reason']})")
        else:
            out.append(f"kernel @{k['function']}: {k['op']} {k['access']} of {k['shape']} reaches "
                       f"%{k['argument']}: exact vector lengths {k['lengths']}")
    if not out:
        out.append(f"{report['file']}: no transform maps")
    if "summary" in report:
        out.append(_render_summary(report["summary"]))
    return "\n".join(out)


def _render_utilities(v: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if "simplified" in v:
        s = v["simplified"]
        shorter = (f"{v['maps']} map(s) -> {s['maps']} over {s['buffer']}, certified by ISL ("
                   + "; ".join(s["log"]) + ")" if s["log"] else "already as short as it gets")
        collapse = (f"rocMLIR unsound: its collapse ({', '.join(s['rocmlir_collapsed'])}) moves valid point "
                    f"{s['witness']} from address {s['addresses'][0]} to {s['addresses'][1]}"
                    if s["witness"] is not None else s["verdict"])
        lines.append(f"  simplify: {shorter}; rocMLIR's collapse of contiguous merges: {collapse}")
        lines.extend(f"    {m}" for m in s["chain"])
    if "validity" in v:
        c = v["validity"]
        detail = [f"{u['value']} at {u['point']} leaves [0, {u['bound']}) of map {u['map']}, lower dim "
                  f"{u['dim']}, unchecked" for u in c["unchecked"]]
        detail += [f"view dim {d} decides validity but rocMLIR's rule does not name it"
                   for d in c["missed_dims"]]
        detail += [f"its check of map {n['map']}, lower dim {n['dim']} (bound {n['bound']}) {n['kind']}"
                   + ("" if n["kind"] == "never fails" else " by the others") for n in c["needless"]]
        lines.append(f"  validity checks: {c['verdict']}" + (": " + "; ".join(detail) if detail else ""))
    if "index_width" in v:
        w = v["index_width"]
        exact = (f"exact 64-bit ({w['reason']} at {w['witness']})" if w["needs_64bit"] else "exact 32-bit")
        lines.append(f"  index width: {exact}, rocMLIR {'64' if w['rocmlir'] else '32'}-bit: {w['verdict']}")
    return lines


def _total(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The summaries of several files added up."""
    total: dict[str, Any] = {}
    for s in summaries:
        for key, value in s.items():
            if isinstance(value, dict):
                counts = cast("dict[str, int]", value)
                inner = total.setdefault(key, {})
                for verdict, n in counts.items():
                    inner[verdict] = inner.get(verdict, 0) + n
            else:
                total[key] = total.get(key, 0) + value
    return total


def _render_summary(s: dict[str, Any], title: str = "summary") -> str:
    def counts(c: dict[str, int]) -> str:
        return ", ".join(f"{n} {verdict}" for verdict, n in c.items())

    return (f"{title}: {s['views']} view(s), {s['dims']} dim(s); "
            f"vector lengths: {counts(s['vector_lengths'])}; "
            f"validity checks: {counts(s['validity'])}; index width: {counts(s['index_width'])}; "
            f"collapse: {counts(s['collapse'])}; {s['simplified']} view(s) simplify; {s['maps']} map(s), "
            f"{s['inverses']} with a certified inverse, {s['inverses_rocmlir_cannot_find']} of them rocMLIR "
            f"cannot find")


def _render_inverse(inv: dict[str, Any]) -> list[str]:
    rocmlir = ("rocMLIR: inverts it the same way" if inv["maps"] and inv["rocmlir"] == inv["maps"] else
               f"rocMLIR: {'; '.join(inv['rocmlir'])}" if inv["rocmlir"] else
               f"rocMLIR: fails ({inv['rocmlir_reason']})")
    if inv["kind"] == "not-injective":
        u, v = inv["witness"]
        return [f"  inverse: none, not injective: {u} and {v} share an image", f"  {rocmlir}"]
    lines = [f"  inverse: {inv['kind']}" + (f", no preimage for {inv['uncovered']}"
                                            if inv["uncovered"] else "")]
    if inv["maps"] is None:
        lines.append(f"    exact relation only: {inv['reason']}")
    else:
        lines.extend(f"    {text}" for text in inv["maps"])
        lines.extend(f"      {e}" for e in inv["formulas"])
        lines.append("    certified by ISL: inverse(map(u)) = u and map(inverse(y)) = y")
    return [*lines, f"  {rocmlir}"]


def _render_findings(found: list[dict[str, Any]]) -> list[str]:
    if not found:
        return ["  lint: clean"]
    return [f"  lint: {f['code']}: " + ("" if f["map_index"] is None else f"map {f['map_index']}: ")
            + f["message"] for f in found]


if __name__ == "__main__":
    sys.exit(main())
