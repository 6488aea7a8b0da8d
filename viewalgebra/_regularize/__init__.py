"""The regularizer: push views off intermediate allocations until no view sits between an
allocation and a fusing op (docs/regularize.md).

The modules, each importing only from those above it in this list:

* ``results``: the log entry ``Rewrite``, the result ``Regularized``, the ``Violation``;
* ``proofs``: the ISL proofs that a rewrite preserves every access;
* ``invariant``: ``check_invariant`` and the fusing ops it is stated for; the ops the reader does not
  model, which no rewrite changes;
* ``fusion``: the seed's index of fusing ops and their anchors, the marking, the termination measure;
* ``patterns``: R1, R2 and the zero fill as patterns (``match`` and ``rewrite``);
* ``driver``: the seed style, the patterns applied to a fixpoint;
* ``rocmlir``: rocMLIR's placement (``style="rocmlir"``).
"""

from __future__ import annotations

from typing import Literal

from .._kernel.graph import Kernel
from ..errors import InvalidArgumentError
from .driver import regularize_seed
from .invariant import check_invariant, refuse_undefined_reads
from .results import Regularized, Rewrite, Violation
from .rocmlir import regularize_rocmlir

__all__ = ["Regularized", "Rewrite", "Violation", "check_invariant", "regularize"]


def regularize(kernel: Kernel, style: Literal["seed", "rocmlir"] = "seed", *,
               max_iterations: int = 1000) -> Regularized:
    """Rewrite until nothing changes; the input kernel is left untouched.

    ``style="seed"`` applies R1 and R2 (``patterns.py``) to a fixpoint; ``style="rocmlir"`` places
    views as rocMLIR's reworked pass does (``mlir/lib/Dialect/Rock/Transforms/Regularize.cpp``;
    docs/regularize.md): each intermediate buffer's writer is classified as an input- or
    output-fusion write; on the input path the writer's views move onto the readers, on the output
    path a single transforming reader's views move onto the writer, and several readers are first
    isolated with copies.

    Both styles refuse (``RegularizeError``) a kernel that reads an allocation element no op
    writes, which is undefined there (docs/regularize.md, "Reads of memory nothing wrote").

    Example: a gemm root writing ``%c`` and a generic reading ``%c`` through a transpose: R2 makes
    the generic iterate over ``%c`` and write its output through the inverse transpose.
    """
    if style not in ("seed", "rocmlir"):
        raise InvalidArgumentError(f"regularize: unknown style {style!r} (expected 'seed' or 'rocmlir')")
    refuse_undefined_reads(kernel)
    if style == "rocmlir":
        return regularize_rocmlir(kernel, max_iterations)
    return regularize_seed(kernel, max_iterations)
