"""rocMLIR's text: transforms, affine maps, memref types, the maps and views of an ``.mlir`` file,
and the formulas of a map. The SymPy forms (``sympy_formulas``, ...) import sympy on first use."""

import importlib
from typing import TYPE_CHECKING

from ._maps.affine import AffineMap
from ._maps.buffer import dtype_bits
from ._maps.equations import affine_map_of, dim_names, formulas
from ._maps.syntax import (
    ParsedMap,
    parse_affine_map,
    parse_memref_type,
    parse_transform,
    print_transform,
    read_transform_map,
)
from ._mlir.scan import ParsedView, parse_mlir_transform_maps, parse_mlir_views

if TYPE_CHECKING:
    from ._maps.sympy_formulas import (
        chain_affine_map,
        compose_affine,
        format_formulas,
        sympy_formulas,
        to_sympy,
    )

_SYMPY = ("chain_affine_map", "compose_affine", "format_formulas", "sympy_formulas", "to_sympy")
"""The names defined with sympy, imported on first use."""


def __getattr__(name: str) -> object:
    if name not in _SYMPY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("._maps.sympy_formulas", __package__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)


__all__ = ["AffineMap", "ParsedMap", "ParsedView", "affine_map_of", "chain_affine_map", "compose_affine",
           "dim_names", "dtype_bits", "format_formulas", "formulas", "parse_affine_map",
           "parse_memref_type", "parse_mlir_transform_maps", "parse_mlir_views", "parse_transform",
           "print_transform", "read_transform_map", "sympy_formulas", "to_sympy"]
