"""Bad input: ``InputError``, the error object of the JSON contract (docs/cli.md), and the one
line on stderr with exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import TransformParseError


class InputError(Exception):
    """Bad input, reported in one line with exit status 2: ``reason`` at ``file``, ``line``,
    ``column`` (each when known); the message is ``file:line:column: reason``."""

    def __init__(self, reason: str, file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.reason, self.file, self.line, self.column = reason, file, line, column
        where = ":".join(str(x) for x in (file, line, column) if x is not None)
        super().__init__(f"{where}: {reason}" if where else reason)


def error_object(e: Exception, *, file: str | None = None, line: int | None = None,
                 what: str = "") -> dict[str, Any]:
    """What went wrong, as the JSON contract has it (docs/cli.md): the one-line message of the
    text output, where (file, line, column when known), the reason alone, and the error's type."""
    column: int | None = None
    cause: BaseException = e
    if isinstance(e, InputError):
        file, line, column = e.file, e.line, e.column
        cause = e.__cause__ or e
    if isinstance(cause, TransformParseError) and line is None:
        line, column = cause.line, cause.column
    reason = cause.reason if isinstance(cause, TransformParseError) else (
        e.reason if isinstance(e, InputError) else str(e))
    where = ":".join(str(x) for x in (file, line, column) if x is not None)
    message = str(e) if isinstance(e, InputError) else f"{where}{': ' if where else ''}{what}{reason}"
    kind = "InputError" if cause is e and isinstance(e, InputError) else type(cause).__name__
    return {"message": message, "file": file, "line": line, "column": column, "reason": what + reason,
            "type": kind}


def bad_input(args: argparse.Namespace, e: Exception) -> int:
    """Report ``e`` in one line on stderr (and as ``{"error": ...}`` on stdout with ``--json``);
    exit status 2."""
    error = error_object(e, file=None if isinstance(e, InputError) else args.input)
    print(f"viewalgebra: {error['message']}", file=sys.stderr)
    if args.json:
        print(json.dumps({"error": error}, indent=2))
    return 2
