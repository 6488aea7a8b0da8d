"""The views rocMLIR builds in gridwise lowering, for real problems and tuning configs
(docs/gridwise.md): the problems (``GemmProblem``, ``ConvProblem``), the map builders rocMLIR's
recipes are written with (``TopDownMapBuilder``, ``BottomUpMapBuilder``), the gemm views of a
forward conv (``conv_to_gemm``) and the operands of ``rock.gridwise_gemm`` (``gemm_to_gridwise``,
``gridwise_views``)."""

from ._recipes.builder import BottomUpMapBuilder, TopDownMapBuilder
from ._recipes.conv_to_gemm import ConvGemm, conv_to_gemm
from ._recipes.dims_wrappers import BottomUpTopDimsWrapper, TopDownBottomDimsWrapper, expand_names_in_place
from ._recipes.gemm_to_gridwise import (
    GridwiseGemm,
    calculate_padding,
    gemm_to_gridwise,
    gridwise_views,
    normalize_matrix,
    pad_matrix,
    split_k,
)
from ._recipes.problems import ConvProblem, GemmProblem

__all__ = [
    "BottomUpMapBuilder",
    "BottomUpTopDimsWrapper",
    "ConvGemm",
    "ConvProblem",
    "GemmProblem",
    "GridwiseGemm",
    "TopDownBottomDimsWrapper",
    "TopDownMapBuilder",
    "calculate_padding",
    "conv_to_gemm",
    "expand_names_in_place",
    "gemm_to_gridwise",
    "gridwise_views",
    "normalize_matrix",
    "pad_matrix",
    "split_k",
]
