"""The values the verbs answer with: an inverse and its certificate, a vector length and its
witness, an equivalence, a lint finding, index ranges, a simplified chain, sub-dimensions and a
restricted chain, the validity of a view."""

from ._equivalence import Equivalence
from ._index_range import Extent, IndexRange
from ._invert import Certificate, Inverse, Verification
from ._maps.lint import Finding
from ._restrict import Restricted
from ._simplify import Simplified
from ._sub_dimensions import LowerDependence, Piece, SubDimensions
from ._validity import CheckNeed, DimImpact, MapNeed, Validity
from ._vectorize import VectorLength, Witness

__all__ = ["Certificate", "CheckNeed", "DimImpact", "Equivalence", "Extent", "Finding", "IndexRange",
           "Inverse", "LowerDependence", "MapNeed", "Piece", "Restricted", "Simplified", "SubDimensions",
           "Validity", "VectorLength", "Verification", "Witness"]
