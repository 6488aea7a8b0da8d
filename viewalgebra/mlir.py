"""What ``va.read_mlir`` reads into: a module of functions, each a kernel graph, and the
functions it could not read, with the reason; ``emit_lit``, views written as a rocMLIR
vectorization-inference lit test stating the exact vector lengths; and ``generic_ops``, MLIR
text whose ops of dialects MLIR does not register (rock, migraphx) are printed in generic form."""

from ._mlir import MlirFunction, MlirModule, Unreadable
from ._mlir.generic_text import generic_ops
from ._mlir.lit import emit_lit

__all__ = ["MlirFunction", "MlirModule", "Unreadable", "emit_lit", "generic_ops"]
