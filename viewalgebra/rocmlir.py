"""rocMLIR's own rules, ported to compare against: ``invertTransforms``, the vectorization
inference and its data-type cap (docs/invert.md, docs/vectorize.md)."""

from ._rocmlir import (
    Comparison,
    RocmlirInversion,
    compare_vector_lengths,
    rocmlir_invert,
    rocmlir_vector_length,
)
from ._vectorize import elements_per_access

__all__ = ["Comparison", "RocmlirInversion", "compare_vector_lengths", "elements_per_access",
           "rocmlir_invert", "rocmlir_vector_length"]
