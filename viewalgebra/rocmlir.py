"""rocMLIR's own rules, ported to compare against: ``invertTransforms``, the vectorization
inference and its data-type cap, the 64-bit index decision (docs/invert.md, docs/vectorize.md,
docs/index-range.md)."""

from ._rocmlir import (
    Comparison,
    IndexWidthComparison,
    RocmlirInversion,
    compare_index_width,
    compare_vector_lengths,
    rocmlir_invert,
    rocmlir_needs_64bit,
    rocmlir_vector_length,
)
from ._vectorize import elements_per_access

__all__ = ["Comparison", "IndexWidthComparison", "RocmlirInversion", "compare_index_width",
           "compare_vector_lengths", "elements_per_access", "rocmlir_invert", "rocmlir_needs_64bit",
           "rocmlir_vector_length"]
