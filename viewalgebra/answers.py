"""The values the verbs answer with: an inverse and its certificate, a vector length and its
witness, an equivalence, a lint finding, index ranges, a simplified chain."""

from ._equivalence import Equivalence
from ._index_range import Extent, IndexRange
from ._invert import Certificate, Inverse, Verification
from ._maps.lint import Finding
from ._simplify import Simplified
from ._vectorize import VectorLength, Witness

__all__ = ["Certificate", "Equivalence", "Extent", "Finding", "IndexRange", "Inverse", "Simplified",
           "VectorLength", "Verification", "Witness"]
