"""The views rocMLIR builds in gridwise lowering, for real problems and tuning configs
(docs/gridwise.md): the problems (``GemmProblem``, ``ConvProblem``)."""

from ._recipes.problems import ConvProblem, GemmProblem

__all__ = ["ConvProblem", "GemmProblem"]
