"""MLIR front end: read rocMLIR kernels from ``.mlir`` text into kernel graphs and write them back."""

from .reader import SUPPORTED, Function, Module, Unreadable, read_mlir
from .writer import write_function, write_mlir

__all__ = ["SUPPORTED", "Function", "Module", "Unreadable", "read_mlir", "write_function", "write_mlir"]
