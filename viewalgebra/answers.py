"""The values the verbs answer with: an inverse and its certificate, a vector length and its
witness, an equivalence, a lint finding, index ranges, a simplified chain, sub-dimensions and a
restricted chain, the validity of a view."""

from ._analyses.equivalence import Equivalence
from ._analyses.index_range import Extent, IndexRange
from ._analyses.invert import Certificate, Inverse, Verification
from ._analyses.restrict import Restricted
from ._analyses.simplify import Simplified
from ._analyses.sub_dimensions import LowerDependence, Piece, SubDimensions
from ._analyses.validity import CheckNeed, DimImpact, MapNeed, Validity
from ._analyses.vectorize import VectorLength, Witness
from ._maps.lint import Finding

__all__ = ["Certificate", "CheckNeed", "DimImpact", "Equivalence", "Extent", "Finding", "IndexRange",
           "Inverse", "LowerDependence", "MapNeed", "Piece", "Restricted", "Simplified", "SubDimensions",
           "Validity", "VectorLength", "Verification", "Witness"]
