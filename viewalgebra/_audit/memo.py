"""The gridwise operands of a (problem, config), memoized on the config fields they depend on
(docs/audit.md, Memo keys): the fields ``gemm_to_gridwise`` reads, so that the configs of one
problem that differ only in the wave tile, the schedule or the output swizzle share one build."""

from __future__ import annotations

from functools import lru_cache

from .._engine.cache import on_clear
from .._recipes.gemm_to_gridwise import GridwiseGemm, gridwise_views
from .._recipes.perf_config import AccelPerfConfig, GeneralPerfConfig
from .._recipes.problems import ConvProblem, GemmProblem
from ..errors import InvalidArgumentError

GridKey = tuple[GemmProblem | ConvProblem, int, int, int, int, int]
"""``(problem, m_per_block, n_per_block, kpack_per_block, kpack, split_k_factor)``."""


def grid_key(problem: GemmProblem | ConvProblem, config: AccelPerfConfig | GeneralPerfConfig) -> GridKey:
    """The memo key of the gridwise operands: the problem and the five fields the padding and the
    split-K layout read (a general config's ``k_per_block`` stands for ``kpack_per_block`` with
    ``kpack`` 1, as rocMLIR's ``requiredPadding`` reads it).

    Example: ``v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1`` gives ``(problem, 64, 64, 8, 8, 1)``.
    """
    if isinstance(config, AccelPerfConfig):
        return (problem, config.m_per_block, config.n_per_block, config.kpack_per_block, config.kpack,
                config.split_k_factor)
    if isinstance(config, GeneralPerfConfig):
        return (problem, config.m_per_block, config.n_per_block, config.k_per_block, 1, config.split_k_factor)
    raise InvalidArgumentError(f"grid_key: expected a perf config, got {config!r}")


@lru_cache(maxsize=256)
def _views(key: GridKey) -> GridwiseGemm:
    problem, m, n, kpb, kpack, split = key
    return gridwise_views(problem, m_per_block=m, n_per_block=n, kpack_per_block=kpb, kpack=kpack,
                          split_k_factor=split)


on_clear(_views.cache_clear)


def config_views(problem: GemmProblem | ConvProblem,
                 config: AccelPerfConfig | GeneralPerfConfig) -> GridwiseGemm:
    """``gridwise_views`` of the problem for a perf config, memoized on ``grid_key``.

    Example: with ``PerfConfig.parse("v4:32,32,4,32,32,32,4,1,1,2,0,0,1,1")``,
    ``config_views(GemmProblem(m=64, n=64, k=64), config).a.shape`` is ``(1, 64, 64)``.
    """
    return _views(grid_key(problem, config))
