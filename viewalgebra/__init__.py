"""viewalgebra: exact algebra of rocMLIR tensor views as ISL relations.

The front door (docs/api.md): the values (``Buffer``, ``View``, ``Chain``, ``TransformMap``), the
verbs, the error root, and namespaces for the rest: ``va.transforms`` (the nine transforms),
``va.answers`` (what the verbs answer with), ``va.errors``, ``va.isl`` (the exact ISL objects),
``va.lds`` (LDS bank conflicts), ``va.layouts`` (CuTe, FlyDSL and Triton layouts as chains),
``va.text`` (rocMLIR's syntax and formulas), ``va.kernel`` (kernel graphs, the interpreter),
``va.mlir``, ``va.rocmlir`` (ports of rocMLIR's rules),
``va.gridwise`` (the problems, perf configs and tuning spaces of rocMLIR's gridwise lowering) and
``va.draw``.

sympy, the MLIR front end, drawing, the interpreter, the rocMLIR ports and the gridwise recipes
are imported on first use of one of their names (PEP 562).
"""

import importlib
import warnings
from typing import TYPE_CHECKING

from . import answers, errors, isl, layouts, lds, transforms
from ._analyses.equivalence import equivalent
from ._analyses.index_range import index_range
from ._analyses.invert import invert, verify_inverse
from ._analyses.restrict import restrict
from ._analyses.simplify import simplify
from ._analyses.sub_dimensions import sub_dimensions
from ._analyses.validity import validity
from ._analyses.vectorize import max_vector_length
from ._engine.cache import clear_caches
from ._maps.buffer import Buffer
from ._maps.chain import Chain, compose
from ._maps.evaluate import evaluate, evaluate_array
from ._maps.lint import lint
from ._maps.syntax import parse_transform_map, print_transform_map
from ._maps.transform_map import TransformMap
from ._maps.view import View
from ._regularize import regularize
from .errors import ViewAlgebraError

if TYPE_CHECKING:
    from . import draw, gridwise, kernel, mlir, rocmlir, text
    from ._mlir import read_mlir, write_mlir

_LAZY = {"read_mlir": "._mlir", "write_mlir": "._mlir", "draw": ".draw", "gridwise": ".gridwise",
         "kernel": ".kernel", "mlir": ".mlir", "rocmlir": ".rocmlir", "text": ".text"}
"""Public name -> the module that defines it (or the namespace itself), for names imported on
first use."""

_MOVED = {
    **dict.fromkeys(transforms.__all__, "transforms"),
    **dict.fromkeys(answers.__all__, "answers"),
    **dict.fromkeys((name for name in errors.__all__ if name != "ViewAlgebraError"), "errors"),
    **dict.fromkeys(["AffineMap", "ParsedMap", "ParsedView", "affine_map_of", "chain_affine_map",
                     "compose_affine", "dim_names", "dtype_bits", "format_formulas", "formulas",
                     "parse_affine_map", "parse_memref_type", "parse_mlir_transform_maps",
                     "parse_mlir_views", "parse_transform", "print_transform", "read_transform_map",
                     "sympy_formulas", "to_sympy"], "text"),
    **dict.fromkeys(["Kernel", "Op", "Regularized", "Rewrite", "Violation", "check_invariant",
                     "run_kernel"], "kernel"),
    **dict.fromkeys(["MlirFunction", "MlirModule", "Unreadable"], "mlir"),
    **dict.fromkeys(["Comparison", "RocmlirInversion", "compare_vector_lengths", "elements_per_access",
                     "rocmlir_invert", "rocmlir_vector_length"], "rocmlir"),
    "draw_svg": "draw",
}
"""Names the package root exported before the namespaces (0.1): still found, with a
DeprecationWarning naming their new home (CHANGELOG.md)."""

_RENAMED = {
    "map_function": "va.isl.coordinates (an islpy.Map)",
    "view_function": "va.isl.coordinates (an islpy.Map)",
    "address_function": "va.isl.addresses (an islpy.Map)",
    "valid_set": "va.isl.valid_points",
    "upper_box": "va.isl.box",
    "relation": "va.isl.coordinates for coordinates, va.isl.addresses for a view's addresses",
    "same_relation": "va.equivalent",
}
"""Old ISL accessors (0.1), still found with a DeprecationWarning; each keeps its old answer."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is not None:
        value = importlib.import_module(module, __name__)
        if module != f".{name}":
            value = getattr(value, name)
        globals()[name] = value  # later lookups find it without calling __getattr__
        return value
    if name in _MOVED:
        home = f"va.{_MOVED[name]}.{name}"
        warnings.warn(f"va.{name} is deprecated: use {home}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(f".{_MOVED[name]}", __name__), name)
    if name in _RENAMED:
        warnings.warn(f"va.{name} is deprecated: use {_RENAMED[name]}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("._maps.relations", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)


__all__ = [
    "Buffer",
    "Chain",
    "TransformMap",
    "View",
    "ViewAlgebraError",
    "answers",
    "clear_caches",
    "compose",
    "draw",
    "equivalent",
    "errors",
    "evaluate",
    "evaluate_array",
    "gridwise",
    "index_range",
    "invert",
    "isl",
    "kernel",
    "layouts",
    "lds",
    "lint",
    "max_vector_length",
    "mlir",
    "parse_transform_map",
    "print_transform_map",
    "read_mlir",
    "regularize",
    "restrict",
    "rocmlir",
    "simplify",
    "sub_dimensions",
    "text",
    "transforms",
    "validity",
    "verify_inverse",
    "write_mlir",
]
