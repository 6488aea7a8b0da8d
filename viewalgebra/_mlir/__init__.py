"""MLIR front end: read rocMLIR kernels from ``.mlir`` text into kernel graphs and write them back."""

from .reader import SUPPORTED, MlirFunction, MlirModule, Unreadable, read_mlir
from .writer import write_function, write_mlir

__all__ = ["SUPPORTED", "MlirFunction", "MlirModule", "Unreadable", "read_mlir", "write_function",
           "write_mlir"]
