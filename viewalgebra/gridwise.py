"""The views rocMLIR builds in gridwise lowering, for real problems and tuning configs
(docs/gridwise.md): the problems (``GemmProblem``, ``ConvProblem``) and rocMLIR's lists of them
(``parse_problem_list``), the archs (``arch``) and their matrix instructions, the perf configs
(``PerfConfig.parse``) with the sizes derived from them, the per-thread copy layout
(``copy_layout``), the tuning spaces (``tuning_space``, ``quick_configs``), the map builders
rocMLIR's recipes are written with (``TopDownMapBuilder``, ``BottomUpMapBuilder``), the gemm views
of a forward conv (``conv_to_gemm``) and the operands of ``rock.gridwise_gemm``
(``gemm_to_gridwise``, ``gridwise_views``); the per-thread accesses (``ThreadAccess``) and their
audit (``audit_access``, ``audit_config``, docs/audit.md)."""

from ._audit.access import (
    AuditCheck,
    AuditItem,
    AuditRow,
    Provider,
    WidthVerdict,
    audit_access,
    audit_config,
    exact_width,
    judge_width,
    rocmlir_width,
    scalar_access,
)
from ._audit.memo import config_views, grid_key
from ._recipes.access import ThreadAccess
from ._recipes.arch import Arch, MfmaInstruction, WmmaInstruction, arch, archs
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
from ._recipes.perf_config import AccelPerfConfig, GemmSize, GeneralPerfConfig, PerfConfig, gemm_size
from ._recipes.problems import ConvProblem, GemmProblem
from ._recipes.thread_copy import CopyLayout, copy_layout, vector_dim
from ._recipes.tier1 import ProblemLine, parse_problem_list
from ._recipes.tuning import could_be_performant, parse_config_list, quick_configs, rejection, tuning_space

__all__ = [
    "AccelPerfConfig",
    "Arch",
    "AuditCheck",
    "AuditItem",
    "AuditRow",
    "BottomUpMapBuilder",
    "BottomUpTopDimsWrapper",
    "ConvGemm",
    "ConvProblem",
    "CopyLayout",
    "GemmProblem",
    "GemmSize",
    "GeneralPerfConfig",
    "GridwiseGemm",
    "MfmaInstruction",
    "PerfConfig",
    "ProblemLine",
    "Provider",
    "ThreadAccess",
    "TopDownBottomDimsWrapper",
    "TopDownMapBuilder",
    "WidthVerdict",
    "WmmaInstruction",
    "arch",
    "archs",
    "audit_access",
    "audit_config",
    "calculate_padding",
    "config_views",
    "conv_to_gemm",
    "copy_layout",
    "could_be_performant",
    "exact_width",
    "expand_names_in_place",
    "gemm_size",
    "gemm_to_gridwise",
    "grid_key",
    "gridwise_views",
    "judge_width",
    "normalize_matrix",
    "pad_matrix",
    "parse_config_list",
    "parse_problem_list",
    "quick_configs",
    "rejection",
    "rocmlir_width",
    "scalar_access",
    "split_k",
    "tuning_space",
    "vector_dim",
]
