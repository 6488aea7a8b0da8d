"""What ``va.read_mlir`` reads into: a module of functions, each a kernel graph, and the
functions it could not read, with the reason; and ``emit_lit``, views written as a rocMLIR
vectorization-inference lit test stating the exact vector lengths."""

from ._mlir import MlirFunction, MlirModule, Unreadable
from ._mlir.lit import emit_lit

__all__ = ["MlirFunction", "MlirModule", "Unreadable", "emit_lit"]
