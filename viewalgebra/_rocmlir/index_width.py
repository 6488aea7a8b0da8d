"""A port of rocMLIR's 64-bit index decision (``untransform``'s flag: ``needs64BitIndices`` of each
map and ``is4GBMemoryType`` of the buffer, ``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``
and ``loweringUtils.cpp``), beside the exact index range (docs/index-range.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._analyses.index_range import INT32_MAX, IndexRange, index_range
from .._maps.view import View
from ..errors import InvalidArgumentError
from .common import Verdict

UINT32_MAX = 2**32 - 1


def rocmlir_needs_64bit(view: View) -> bool:
    """rocMLIR's decision that a view needs 64-bit indices (docs/index-range.md).

    ``untransform`` ORs ``needs64BitIndices`` over the view's maps (some upper or lower bound
    negative or above ``INT32_MAX``) with ``is4GBMemoryType`` of the buffer (its element count
    times ``bitwidth / 8`` bytes, integer division, above ``UINT32_MAX``), in
    ``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp`` and ``loweringUtils.cpp``. Only
    bounds and sizes count: not the values the maps compute, nor the strides or offset.

    Example: ``memref<2147483648xf32>`` with no maps: ``True`` (8 GiB), although every address
    fits 32 bits.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"rocmlir_needs_64bit: expected a View, got {view!r}")

    def is_big(n: int) -> bool:
        return n < 0 or n > INT32_MAX

    if any(is_big(n) for m in view.maps for n in (*m.upper_bounds, *m.lower_bounds)):
        return True
    return math.prod(view.buffer.shape) * (view.buffer.bits // 8) > UINT32_MAX


@dataclass(frozen=True, slots=True)
class IndexWidthComparison:
    """rocMLIR's 64-bit decision beside the exact one (``index_range``), for one view."""

    exact: IndexRange
    rocmlir: bool
    """What ``needs64BitIndices`` and ``is4GBMemoryType`` decide."""
    verdict: Verdict
    """``equal``; ``rocMLIR conservative``: 64-bit where every value fits 32 bits (cost);
    ``rocMLIR unsound``: 32-bit where a value leaves it (``exact.witness`` reaches it)."""
    address_only: bool
    """Unsound only through the address of a valid point below ``2**32`` bytes, which rocMLIR's
    buffer operations take as an unsigned byte offset (docs/index-range.md)."""

    def __str__(self) -> str:
        return f"exact: {self.exact}; rocMLIR 64-bit: {self.rocmlir}: {self.verdict}"


def compare_index_width(view: View, *, timeout: float | None = 60.0) -> IndexWidthComparison:
    """The exact 64-bit decision (``index_range``) and rocMLIR's, compared.

    Example: ``Embed{1048576, 1}`` from ``[4096, 4]`` to ``[4096]`` over ``memref<4096xf32>``:
    rocMLIR 32-bit, but the Embed reaches ``4095 * 2**20 + 3`` at padding point ``[4095, 3]``
    (before masking): unsound.
    """
    exact = index_range(view, timeout=timeout)
    theirs = rocmlir_needs_64bit(view)
    verdict: Verdict = ("equal" if theirs == exact.needs_64bit else
                        "rocMLIR conservative" if theirs else "rocMLIR unsound")
    # Without maps the view coordinates are the buffer's, which the address covers.
    coordinates_fit = (all(e is None or e.fits_int32() for dims in exact.box_coordinates for e in dims)
                       and (not view.maps or all(n - 1 <= INT32_MAX for n in view.shape)))
    address_only = (verdict == "rocMLIR unsound" and coordinates_fit and exact.address is not None
                    and exact.address.low >= 0
                    and (exact.address.high + 1) * view.buffer.bits <= 8 * (UINT32_MAX + 1))
    return IndexWidthComparison(exact, theirs, verdict, address_only)
