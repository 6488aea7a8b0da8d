"""Layouts of CuTe (and pycute), FlyDSL and Triton read exactly as chains of rock transform maps,
with each layout's own function for checking (docs/layouts.md)."""

from ._layouts.algebra import (
    Composition,
    Mismatch,
    coalesce,
    complement,
    composition,
    left_inverse,
    logical_divide,
    right_inverse,
)
from ._layouts.chains import layout_chain, layout_view
from ._layouts.checks import LayoutCheck, check_composition, check_layout
from ._layouts.padded import PaddedSharedLayout
from ._layouts.read import parse_layout
from ._layouts.values import (
    AnyLayout,
    ComposedLayout,
    IntTuple,
    Layout,
    LinearLayout,
    Swizzle,
    evaluate,
    idx2crd,
    linear_layout,
)
from ._layouts.vector import vector_length
from ._layouts.vectors import (
    CommonVector,
    CuteComparison,
    VectorWitness,
    cute_max_common_vector,
    cute_swizzle_vector,
    max_common_vector,
)

__all__ = ["AnyLayout", "CommonVector", "ComposedLayout", "Composition", "CuteComparison", "IntTuple",
           "Layout", "LayoutCheck", "LinearLayout", "Mismatch", "PaddedSharedLayout", "Swizzle",
           "VectorWitness", "check_composition", "check_layout", "coalesce", "complement", "composition",
           "cute_max_common_vector", "cute_swizzle_vector", "evaluate", "idx2crd", "layout_chain",
           "layout_view", "left_inverse", "linear_layout", "logical_divide", "max_common_vector",
           "parse_layout", "right_inverse", "vector_length"]
