"""viewalgebra: exact algebra of rocMLIR tensor views as ISL relations.

The core (values, relations, inversion, vector lengths, the regularizer) is imported with the
package; sympy formulas, the MLIR front end, drawing, the interpreter and the port of rocMLIR's
rules are imported on first use of one of their names (PEP 562).
"""

import importlib
from typing import TYPE_CHECKING

from . import isl
from .budget import QueryTimeoutError
from .cache import clear_caches
from .equivalence import Equivalence, equivalent
from .errors import (
    CoordinateError,
    InternalError,
    InvalidArgumentError,
    InvalidTransformError,
    KernelError,
    MlirParseError,
    MlirWriteError,
    NotInvertibleError,
    RegularizeError,
    RocmlirRuleError,
    TooComplexError,
    TransformParseError,
    UnsupportedOpsError,
    ViewAlgebraError,
    WorkerError,
)
from .graph import Kernel, Op
from .invert import Certificate, Inverse, Verification, invert, verify_inverse
from .maps.affine import AffineMap
from .maps.buffer import Buffer, dtype_bits
from .maps.chain import Chain, compose
from .maps.equations import affine_map_of, dim_names, formulas
from .maps.evaluate import evaluate, evaluate_array
from .maps.lint import Finding, lint
from .maps.relations import (
    address_function,
    map_function,
    relation,
    same_relation,
    upper_box,
    valid_set,
    view_function,
)
from .maps.reshape import collapse_shape_map, expand_shape_map
from .maps.syntax import (
    ParsedMap,
    ParsedView,
    parse_affine_map,
    parse_memref_type,
    parse_mlir_transform_maps,
    parse_mlir_views,
    parse_transform,
    parse_transform_map,
    print_transform,
    print_transform_map,
    read_transform_map,
)
from .maps.transform_map import Problem, TransformMap, problems
from .maps.transforms import (
    AddDim,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Transform,
    Unmerge,
)
from .maps.view import View
from .regularize import Regularized, Rewrite, Violation, check_invariant, regularize
from .vectorize import VectorLength, Witness, elements_per_access, max_vector_length

if TYPE_CHECKING:
    from .draw import DrawError, draw_svg
    from .interpret import run_kernel
    from .maps.sympy_formulas import (
        chain_affine_map,
        compose_affine,
        format_formulas,
        sympy_formulas,
        to_sympy,
    )
    from .mlir import MlirFunction, MlirModule, Unreadable, read_mlir, write_mlir
    from .rocmlir import (
        Comparison,
        RocmlirInversion,
        compare_vector_lengths,
        rocmlir_invert,
        rocmlir_vector_length,
    )

# Lazy modules must not share a name with a public name: importing a submodule binds its name in
# the package (``regularize``, ``invert``), which only the eager imports above bind back.
_LAZY = {
    "Comparison": ".rocmlir",
    "DrawError": ".draw",
    "MlirFunction": ".mlir",
    "MlirModule": ".mlir",
    "RocmlirInversion": ".rocmlir",
    "Unreadable": ".mlir",
    "chain_affine_map": ".maps.sympy_formulas",
    "compare_vector_lengths": ".rocmlir",
    "compose_affine": ".maps.sympy_formulas",
    "draw_svg": ".draw",
    "format_formulas": ".maps.sympy_formulas",
    "read_mlir": ".mlir",
    "rocmlir_invert": ".rocmlir",
    "rocmlir_vector_length": ".rocmlir",
    "run_kernel": ".interpret",
    "sympy_formulas": ".maps.sympy_formulas",
    "to_sympy": ".maps.sympy_formulas",
    "write_mlir": ".mlir",
}
"""Public name -> the submodule that defines it, for the names imported on first use."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    return list(__all__)


__all__ = [
    "AddDim",
    "AffineMap",
    "Broadcast",
    "Buffer",
    "Certificate",
    "Chain",
    "Comparison",
    "ConstDim",
    "CoordinateError",
    "DrawError",
    "Embed",
    "Equivalence",
    "Finding",
    "InternalError",
    "InvalidArgumentError",
    "InvalidTransformError",
    "Inverse",
    "Kernel",
    "KernelError",
    "Merge",
    "MlirFunction",
    "MlirModule",
    "MlirParseError",
    "MlirWriteError",
    "NotInvertibleError",
    "Op",
    "Pad",
    "ParsedMap",
    "ParsedView",
    "PassThrough",
    "Problem",
    "QueryTimeoutError",
    "RegularizeError",
    "Regularized",
    "Rewrite",
    "RocmlirInversion",
    "RocmlirRuleError",
    "Slice",
    "TooComplexError",
    "Transform",
    "TransformMap",
    "TransformParseError",
    "Unmerge",
    "Unreadable",
    "UnsupportedOpsError",
    "VectorLength",
    "Verification",
    "View",
    "ViewAlgebraError",
    "Violation",
    "Witness",
    "WorkerError",
    "address_function",
    "affine_map_of",
    "chain_affine_map",
    "check_invariant",
    "clear_caches",
    "collapse_shape_map",
    "compare_vector_lengths",
    "compose",
    "compose_affine",
    "dim_names",
    "draw_svg",
    "dtype_bits",
    "elements_per_access",
    "equivalent",
    "evaluate",
    "evaluate_array",
    "expand_shape_map",
    "format_formulas",
    "formulas",
    "invert",
    "isl",
    "lint",
    "map_function",
    "max_vector_length",
    "parse_affine_map",
    "parse_memref_type",
    "parse_mlir_transform_maps",
    "parse_mlir_views",
    "parse_transform",
    "parse_transform_map",
    "print_transform",
    "print_transform_map",
    "problems",
    "read_mlir",
    "read_transform_map",
    "regularize",
    "relation",
    "rocmlir_invert",
    "rocmlir_vector_length",
    "run_kernel",
    "same_relation",
    "sympy_formulas",
    "to_sympy",
    "upper_box",
    "valid_set",
    "verify_inverse",
    "view_function",
    "write_mlir",
]
