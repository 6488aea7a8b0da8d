"""The width rocMLIR gives one per-thread load or store: the vector length of the loop that
``--rock-threadwise-gemm-lowering`` makes of ``rock.threadwise_read_into`` and
``rock.threadwise_write_all`` (docs/audit.md).

Ported from ROCm/rocMLIR:

* ``mlir/lib/Dialect/Rock/Transforms/ThreadwiseGemmLowering.cpp``,
  ``ThreadwiseReadIntoRewritePattern`` and ``ThreadwiseWriteAllRewritePattern``, read in the
  version that calls ``getGlobalToLDSTransform`` and builds ops with ``Op::create`` (2025; the
  stored copy carries no commit) and in the stored version at commit
  c9887473eb3db8b3c98548dc9862cc03495ef67f;
* ``mlir/lib/Dialect/Rock/utility/loweringUtils.cpp``, ``getThreadwiseReadIntoLoopInfo``, where
  the newest version read (after ROCm/rocMLIR PR #2097, November 2025; no commit stored) moved the
  read's rule, with the arch's direct-to-LDS cap (``AmdArchInfo::getMaxLDSVectorLength``,
  ``mlir/lib/Dialect/Rock/IR/AmdArchDb.cpp``) that PR added;
* ``getMaxVectorization`` (``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``) is the port
  ``rocmlir_vector_length`` (``vectorization.py``), with its data-type cap on, as both patterns
  call it (``ignoreDataType`` false, no fusion root).

The rules, in rocMLIR's order:

1. A read (``read_into``) from a buffer whose element is already ``vector<N x T>`` reads N at a
   time; else ``getMaxVectorization(view, iter dim, numValues)``, capped at
   ``gcd(128 / bits, ...)``.
2. A read from global memory into LDS (direct-to-LDS) is capped further at the arch's
   direct-to-LDS width (128 bits where the arch has ``direct_to_lds_128b``, else 32), and the
   lowering then accepts only 16-byte or 4-byte loads: any other width fails to compile
   (``RocmlirRuleError``); an arch with neither feature fails too.
3. Dynamic validities (``rock.threadwise_read_into``'s ``dynamicValidities`` operands: masks
   computed at run time, which gridwise gemm's loads never pass) force the read's width to 1.
   The static validity checks of the view (``rocmlir_validity_checks``: Pads, Embeds that can
   leave their bound) do not: ``getMaxVectorization`` sees them through its Pad rule.
4. A write (``write_all``) to a view whose element is already ``vector<N x T>`` writes N at a
   time; else ``getMaxVectorization(view, iter dim)`` over the dim's whole size, capped.
"""

from __future__ import annotations

from typing import Literal

from .._maps.view import View
from ..errors import CoordinateError, InvalidArgumentError, RocmlirRuleError
from .vectorization import MAX_VECTOR_BITS, rocmlir_vector_length

ThreadwiseOp = Literal["read_into", "write_all"]

DIRECT_TO_LDS_BYTES = (16, 4)
"""The load sizes the direct-to-LDS lowering accepts (``GlobalLoadToLDSOp``: 128- and 32-bit)."""


def rocmlir_threadwise_width(view: View, dim: int, values: int | None = None, *,
                             op: ThreadwiseOp, vector_elements: int = 1,
                             direct_to_lds_bits: int | None = None,
                             dynamic_validity: bool = False) -> int:
    """The vector width rocMLIR's threadwise lowering gives the access of ``view`` along ``dim``.

    ``values`` is ``numValues`` of a read (the destination's element count, or for
    direct-to-LDS the size of the top map's last dim; default: the dim's size); a write always
    uses the dim's size, as rocMLIR does. ``vector_elements`` is N when the buffer's element is
    ``vector<N x T>``. ``direct_to_lds_bits`` marks a global-to-LDS read and gives the arch's
    direct-to-LDS width (128 or 32; 0: the arch has none, which fails). ``dynamic_validity``: the
    read has dynamic validities.

    Example: a read along ``iter`` of ``<Unmerge{4, 8} ["t", "iter"] at [0, 1] -> ["x"] at [0]>``
    over ``memref<32xf16>`` is 8 wide (128 bits); direct-to-LDS with 32 bits, 2; with dynamic
    validities, 1.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"rocmlir_threadwise_width: expected a View, got {view!r}")
    if op not in ("read_into", "write_all"):
        raise InvalidArgumentError(
            f"rocmlir_threadwise_width: op must be 'read_into' or 'write_all', got {op!r}")
    if not isinstance(dim, int) or not 0 <= dim < view.rank:
        raise CoordinateError(f"rocmlir_threadwise_width: dim {dim!r} out of range for rank {view.rank}")
    if not isinstance(vector_elements, int) or vector_elements < 1:
        raise InvalidArgumentError(
            f"rocmlir_threadwise_width: vector_elements must be a positive integer, got {vector_elements!r}")
    if op == "write_all":
        if direct_to_lds_bits is not None or dynamic_validity:
            raise InvalidArgumentError("rocmlir_threadwise_width: direct-to-LDS and dynamic validities "
                                       "are properties of a read (read_into), not of a write")
        # ThreadwiseWriteAllRewritePattern: a vector-typed destination sets the width outright.
        if vector_elements > 1:
            return vector_elements
        return rocmlir_vector_length(view, dim, limit_for_data_type=True)
    run = view.shape[dim] if values is None else values
    if not isinstance(run, int) or run < 1:
        raise InvalidArgumentError(
            f"rocmlir_threadwise_width: values must be a positive integer, got {run!r}")
    if vector_elements > 1:
        if direct_to_lds_bits is not None:  # asserted against in rocMLIR
            raise RocmlirRuleError("global to LDS should not have vector buffers (an assert in "
                                   "ThreadwiseReadIntoRewritePattern)")
        width = vector_elements
    else:
        width = rocmlir_vector_length(view, dim, run, limit_for_data_type=True)
        if direct_to_lds_bits is not None:
            width = min(width, _direct_to_lds_cap(direct_to_lds_bits, view.buffer.bits))
    if dynamic_validity:
        width = 1
    if direct_to_lds_bits is not None:
        size = width * view.buffer.bits
        if size % 8 or size // 8 not in DIRECT_TO_LDS_BYTES:
            raise RocmlirRuleError(
                f"global to LDS is only supported for 128-bit or 32-bit loads currently: {width} x "
                f"{view.buffer.dtype} is {size} bits (ThreadwiseReadIntoRewritePattern)")
    return width


def _direct_to_lds_cap(bits: int, element_bits: int) -> int:
    """``AmdArchInfo::getMaxLDSVectorLength``: elements per direct-to-LDS load; an arch without
    the feature fails earlier in rocMLIR ("Direct to LDS is not supported by the hardware")."""
    if bits not in (32, MAX_VECTOR_BITS):
        if bits == 0:
            raise RocmlirRuleError("Direct to LDS is not supported by the hardware "
                                   "(ThreadwiseReadIntoRewritePattern)")
        raise InvalidArgumentError(
            f"rocmlir_threadwise_width: direct_to_lds_bits must be 128, 32 or 0, got {bits!r}")
    return max(bits // element_bits, 1)
