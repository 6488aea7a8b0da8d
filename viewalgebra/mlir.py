"""What ``va.read_mlir`` reads into: a module of functions, each a kernel graph, and the
functions it could not read, with the reason."""

from ._mlir import MlirFunction, MlirModule, Unreadable

__all__ = ["MlirFunction", "MlirModule", "Unreadable"]
