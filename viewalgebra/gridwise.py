"""The views rocMLIR builds in gridwise lowering, for real problems and tuning configs
(docs/gridwise.md): the problems (``GemmProblem``, ``ConvProblem``) and rocMLIR's lists of them
(``parse_problem_list``), the archs (``arch``) and their matrix instructions, the perf configs
(``PerfConfig.parse``) with the sizes derived from them, the per-thread copy layout
(``copy_layout``), the tuning spaces (``tuning_space``, ``quick_configs``), the map builders
rocMLIR's recipes are written with (``TopDownMapBuilder``, ``BottomUpMapBuilder``), the gemm views
of a forward conv (``conv_to_gemm``) and the operands of ``rock.gridwise_gemm``
(``gemm_to_gridwise``, ``gridwise_views``), and the per-thread views of the loads and stores
(``ThreadAccess``): the global loads and LDS stores of A and B (``global_load``, ``lds_store``)
with the thread layouts and LDS flags they follow (``thread_layouts``, ``thread_layout``,
``lds_layout``), the LDS reads (``lds_read``) and the C store (``c_store``) of the accelerated
gemm with the emitter parameters they follow (``accel_params``, ``operand_lds``); and the audit
of their widths (``audit_access``, ``audit_config`` with the provider of rocMLIR's own accesses,
``rocmlir_accesses``; one access as MLIR, ``access_mlir``; docs/audit.md)."""

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
from ._audit.recipes import rocmlir_accesses
from ._audit.reproducer import access_mlir
from ._recipes.accel_params import AccelParams, OperandLds, accel_params, operand_lds
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
from ._recipes.lds_read import lds_read, lds_tile
from ._recipes.lds_views import LdsLayout, lds_layout, lds_store
from ._recipes.output_views import c_store, c_store_alternatives, c_store_with
from ._recipes.perf_config import AccelPerfConfig, GemmSize, GeneralPerfConfig, PerfConfig, gemm_size
from ._recipes.problems import ConvProblem, GemmProblem
from ._recipes.thread_copy import CopyLayout, copy_layout, vector_dim
from ._recipes.thread_views import global_load, thread_layout, thread_layouts
from ._recipes.tier1 import ProblemLine, parse_problem_list
from ._recipes.tuning import could_be_performant, parse_config_list, quick_configs, rejection, tuning_space

__all__ = [
    "AccelParams",
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
    "LdsLayout",
    "MfmaInstruction",
    "OperandLds",
    "PerfConfig",
    "ProblemLine",
    "Provider",
    "ThreadAccess",
    "TopDownBottomDimsWrapper",
    "TopDownMapBuilder",
    "WidthVerdict",
    "WmmaInstruction",
    "accel_params",
    "access_mlir",
    "arch",
    "archs",
    "audit_access",
    "audit_config",
    "c_store",
    "c_store_alternatives",
    "c_store_with",
    "calculate_padding",
    "config_views",
    "conv_to_gemm",
    "copy_layout",
    "could_be_performant",
    "exact_width",
    "expand_names_in_place",
    "gemm_size",
    "gemm_to_gridwise",
    "global_load",
    "grid_key",
    "gridwise_views",
    "judge_width",
    "lds_layout",
    "lds_read",
    "lds_store",
    "lds_tile",
    "normalize_matrix",
    "operand_lds",
    "pad_matrix",
    "parse_config_list",
    "parse_problem_list",
    "quick_configs",
    "rejection",
    "rocmlir_accesses",
    "rocmlir_width",
    "scalar_access",
    "split_k",
    "thread_layout",
    "thread_layouts",
    "tuning_space",
    "vector_dim",
]
