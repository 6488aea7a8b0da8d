"""MLIR front end: read rocMLIR kernels from ``.mlir`` text into kernel graphs and write them back."""

from .parts import text_parts
from .reader import (
    SUPPORTED,
    MlirFunction,
    MlirModule,
    Unreadable,
    iter_mlir,
    iter_mlir_parts,
    read_mlir,
)
from .writer import ItemWriter, write_function, write_mlir

__all__ = ["SUPPORTED", "ItemWriter", "MlirFunction", "MlirModule", "Unreadable", "iter_mlir",
           "iter_mlir_parts", "read_mlir", "text_parts", "write_function", "write_mlir"]
