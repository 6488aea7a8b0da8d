"""Layouts of CuTe (and pycute), FlyDSL and Triton read exactly as chains of rock transform maps,
with each layout's own function for checking (docs/layouts.md)."""

from ._layouts.chains import layout_chain, layout_view
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

__all__ = ["AnyLayout", "ComposedLayout", "IntTuple", "Layout", "LinearLayout", "Swizzle", "evaluate",
           "idx2crd", "layout_chain", "layout_view", "linear_layout", "parse_layout",
           "vector_length"]
