"""Kernels as graphs of buffers, views and ops; the interpreter that runs them; what the
regularizer answers with and the invariant it establishes (docs/regularize.md)."""

from ._kernel.graph import Kernel, Op
from ._kernel.interpret import run_kernel
from ._regularize import Regularized, Rewrite, Violation, check_invariant

__all__ = ["Kernel", "Op", "Regularized", "Rewrite", "Violation", "check_invariant", "run_kernel"]
