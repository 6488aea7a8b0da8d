"""The exception hierarchy: one root, precise leaves."""

from __future__ import annotations

from ._common.lines import line_column


class ViewAlgebraError(Exception):
    """Root of every error viewalgebra raises on purpose."""


class InvalidTransformError(ViewAlgebraError, ValueError):
    """A transform, transform map or view breaks a rule (rocMLIR's verifier or a stricter one)."""

    offset: int | None = None
    """Raised while parsing: character offset of the offending text (the message starts with its
    line and column)."""
    reason: str = ""
    """Raised while parsing: the message without its location."""


class TransformParseError(ViewAlgebraError, ValueError):
    """Text that is not valid rocMLIR / MLIR syntax.

    The message names the line and column and what was expected there.
    """

    def __init__(self, message: str, text: str, offset: int) -> None:
        self.text = text
        """The whole text that was being parsed."""
        self.offset = offset
        """Character offset of the error in ``text``."""
        self.line, self.column = line_column(text, offset)
        """1-based line and column of the error."""
        self.reason = message
        """The message without its location."""
        super().__init__(f"{self.line}:{self.column}: {message}")


class ConfigParseError(TransformParseError):
    """A line of rocMLIR's problem lists or a perf config string that rocMLIR would refuse.

    The message names the line and column, the token and what was expected there.
    """

    def __init__(self, message: str, text: str, offset: int, token: str) -> None:
        self.token = token
        """The offending token (empty at the end of the text)."""
        super().__init__(message, text, offset)


class LayoutSyntaxError(TransformParseError):
    """Layout text (CuTe, FlyDSL, Triton) that cannot be read.

    The message names the line and column and what was expected there.
    """


class CoordinateError(ViewAlgebraError, IndexError):
    """A coordinate tuple of the wrong rank or outside the box it indexes."""


class NotInvertibleError(ViewAlgebraError):
    """A view or map that has no inverse where one was asked for."""


class TooComplexError(ViewAlgebraError):
    """A query whose expressions are too large or too deeply nested to answer within bounds."""


class QueryTimeoutError(ViewAlgebraError, TimeoutError):
    """An ISL query did not finish within its wall-clock limit."""


class DrawError(ViewAlgebraError, ValueError):
    """A picture that cannot be drawn (an empty view) or would be unreadable (too many cells)."""


class RegularizeError(ViewAlgebraError):
    """The regularizer cannot rewrite a kernel (an honest refusal, with the reason)."""


class InvalidArgumentError(ViewAlgebraError, ValueError):
    """An argument outside its range or of the wrong kind: a run length of 0, a negative timeout,
    an unknown style."""


class KernelError(ViewAlgebraError, ValueError):
    """Misuse of the kernel graph: an unknown or twice-defined value, a view with no buffer below
    it, an op the interpreter cannot run as built."""


class RocmlirRuleError(ViewAlgebraError):
    """rocMLIR's own rule fails on this input (in rocMLIR it would assert, divide by zero or read
    out of range); the exact answer may still exist."""


class CuteRuleError(ViewAlgebraError):
    """CuTe's own rule refuses this input; the exact answer may still exist.

    A static assertion in NVIDIA/cutlass ``include/cute/layout.hpp`` would stop the compilation."""


class LayoutAlgebraError(ViewAlgebraError, ValueError):
    """A layout operation with no answer of the kind asked, with a witness.

    No single ``shape:stride``, an inverse of a layout that is not one-to-one, a composition
    leaving the outer layout's domain.

    ``witness`` names where it fails (an index and both values, or two indices with one offset).
    """

    def __init__(self, message: str, witness: tuple[object, ...] | None = None) -> None:
        super().__init__(message)
        self.witness = witness
        """Where it fails; its meaning is stated in the message."""


class WorkerError(ViewAlgebraError, RuntimeError):
    """The worker process that bounds ISL work ended without an answer (killed from outside, or
    out of memory)."""


class InternalError(ViewAlgebraError, RuntimeError):
    """A bug in viewalgebra, not in the input: please report it with the input that caused it."""


class MissingDependencyError(ViewAlgebraError, ImportError):
    """An optional dependency a feature needs is not installed; the message names the extra to
    install (``viewalgebra audit`` needs the ``audit`` extra)."""


class MlirParseError(TransformParseError):
    """An ``.mlir`` file the MLIR reader cannot read: bad syntax, or a construct it does not model.

    The message names the line and column and what was expected there.
    """


class UnsupportedOpsError(MlirParseError):
    """A function uses ops outside the supported set; ``ops`` lists each with its location."""

    def __init__(self, message: str, text: str, offset: int,
                 ops: tuple[tuple[str, int, int], ...]) -> None:
        self.ops = ops
        """``(op name, line, column)`` of every unsupported op, in file order."""
        super().__init__(message, text, offset)


class LdsModelError(ViewAlgebraError, ValueError):
    """An LDS model that is unknown or inconsistent: an architecture without a table, an
    instruction kind or width the table lacks, phases that do not partition the wave."""


class LdsAccessError(ViewAlgebraError, ValueError):
    """An LDS access that cannot be counted as given: a thread dim not in the view, a vector
    length that does not match its dim, a buffer larger than the LDS or outside it."""


class MlirWriteError(ViewAlgebraError):
    """A kernel that cannot be written back as MLIR (e.g. an op built with a Python ``fn``)."""


__all__ = [
    "ConfigParseError",
    "CoordinateError",
    "CuteRuleError",
    "DrawError",
    "InternalError",
    "InvalidArgumentError",
    "InvalidTransformError",
    "KernelError",
    "LayoutAlgebraError",
    "LayoutSyntaxError",
    "LdsAccessError",
    "LdsModelError",
    "MissingDependencyError",
    "MlirParseError",
    "MlirWriteError",
    "NotInvertibleError",
    "QueryTimeoutError",
    "RegularizeError",
    "RocmlirRuleError",
    "TooComplexError",
    "TransformParseError",
    "UnsupportedOpsError",
    "ViewAlgebraError",
    "WorkerError",
]
