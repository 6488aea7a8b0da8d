"""The views rocMLIR builds in gridwise lowering, for real problems and tuning configs
(docs/gridwise.md): the problems (``GemmProblem``, ``ConvProblem``) and rocMLIR's lists of them
(``parse_problem_list``), the archs (``arch``) and their matrix instructions, the perf configs
(``PerfConfig.parse``) with the sizes derived from them, the per-thread copy layout
(``copy_layout``), and the tuning spaces (``tuning_space``, ``quick_configs``)."""

from ._recipes.arch import Arch, MfmaInstruction, WmmaInstruction, arch, archs
from ._recipes.perf_config import AccelPerfConfig, GemmSize, GeneralPerfConfig, PerfConfig, gemm_size
from ._recipes.problems import ConvProblem, GemmProblem
from ._recipes.thread_copy import CopyLayout, copy_layout, vector_dim
from ._recipes.tier1 import ProblemLine, parse_problem_list
from ._recipes.tuning import could_be_performant, parse_config_list, quick_configs, rejection, tuning_space

__all__ = [
    "AccelPerfConfig",
    "Arch",
    "ConvProblem",
    "CopyLayout",
    "GemmProblem",
    "GemmSize",
    "GeneralPerfConfig",
    "MfmaInstruction",
    "PerfConfig",
    "ProblemLine",
    "WmmaInstruction",
    "arch",
    "archs",
    "copy_layout",
    "could_be_performant",
    "gemm_size",
    "parse_config_list",
    "parse_problem_list",
    "quick_configs",
    "rejection",
    "tuning_space",
    "vector_dim",
]
