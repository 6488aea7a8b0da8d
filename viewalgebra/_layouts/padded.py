"""Triton's padded shared layout (``#ttg.padded_shared``): a tensor element's place in shared
memory, its unpadded offset (the inverse of the layout's linear component) with ``pad`` elements
inserted after every ``interval``.

Triton's definition (triton-lang/triton ``include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td``,
``PaddedSharedEncodingAttr``, and ``emitPadding`` in ``lib/Conversion/TritonGPUToLLVM/Utility.cpp``):
the linear component maps the offset (one input dim, ``offset``, plus ``block``) to the tensor's
dims; the element at unpadded offset ``i`` is stored at ``i + sum_k (i >> log2(interval_k)) <<
log2(pad_k)``, every interval and pad a power of two. The short form ``{order = [...], shape =
[...]}`` is the identity component: offsets walk ``order[0]`` fastest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._common.ints import integer
from ..errors import InvalidArgumentError


def _power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


@dataclass(frozen=True, slots=True)
class PaddedSharedLayout:
    """Triton's ``#ttg.padded_shared``: a tensor element goes to its offset with padding inserted.

    The element at coordinates ``c`` goes to ``i + sum((i >> log2(interval)) << log2(pad))``, with
    ``i`` the offset the linear component maps to ``c``.

    ``offset_bases[b]`` is the tensor coordinate (one integer per dim) of offset ``2^b``; the
    component must be a bijection of the offsets onto the tensor's elements.
    Example: ``parse_layout("#ttg.padded_shared<[4:+1] {order = [1, 0], shape = [4, 8]}>")``.
    """

    padding: tuple[tuple[int, int], ...]
    """``(interval, pad)`` pairs, powers of two."""
    offset_bases: tuple[tuple[int, ...], ...]
    """Tensor coordinates of each offset bit (Triton's ``offset`` bases)."""
    shape: tuple[int, ...]
    """The tensor's shape, ``dim0`` first (powers of two)."""
    inverse: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """For each tensor bit (``dim0``'s bits first, least significant first), the offset it adds
    (XOR-ed): the inverse of the linear component."""

    def __post_init__(self) -> None:
        padding = tuple((integer(i, "padding interval", InvalidArgumentError),
                         integer(p, "padding amount", InvalidArgumentError)) for i, p in self.padding)
        shape = tuple(integer(s, "shape", InvalidArgumentError) for s in self.shape)
        if not padding:
            raise InvalidArgumentError("PaddedSharedLayout: give at least one interval:+pad pair")
        for i, p in padding:
            if not (_power_of_two(i) and _power_of_two(p)):
                raise InvalidArgumentError(
                    f"PaddedSharedLayout: interval {i} and pad {p} must be powers of two (Triton's rule)")
        if not shape or not all(_power_of_two(s) for s in shape):
            raise InvalidArgumentError(f"PaddedSharedLayout: shape {list(shape)} must be powers of two")
        bases = tuple(tuple(integer(x, "offset basis", InvalidArgumentError) for x in b)
                      for b in self.offset_bases)
        for b in bases:
            if len(b) != len(shape) or not all(0 <= x < s for x, s in zip(b, shape, strict=True)):
                raise InvalidArgumentError(
                    f"PaddedSharedLayout: offset basis {list(b)} is not a coordinate of shape {list(shape)}")
        object.__setattr__(self, "padding", padding)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "offset_bases", bases)
        object.__setattr__(self, "inverse", _invert(bases, shape))

    @property
    def size(self) -> int:
        """The number of tensor elements."""
        return math.prod(self.shape)

    @property
    def cosize(self) -> int:
        """One more than the largest padded location."""
        return self.location(self.size - 1) + 1

    def location(self, offset: int) -> int:
        """The padded location of an unpadded offset."""
        return offset + sum((offset >> (i.bit_length() - 1)) << (p.bit_length() - 1) for i, p in self.padding)

    def bit_weights(self) -> tuple[int, ...]:
        """The padded location added by each offset bit (``location`` is linear in the bits, every
        interval being a power of two)."""
        return tuple(self.location(1 << b) for b in range(len(self.offset_bases)))

    def offset_of(self, coords: Sequence[int]) -> int:
        """The unpadded offset the linear component maps to these tensor coordinates."""
        offset, bit = 0, 0
        for c, s in zip(coords, self.shape, strict=True):
            for k in range(s.bit_length() - 1):
                if c >> k & 1:
                    offset ^= _as_int(self.inverse[bit])
                bit += 1
        return offset

    def __str__(self) -> str:
        pads = ", ".join(f"{i}:+{p}" for i, p in self.padding)
        bases = ", ".join("[" + ", ".join(map(str, b)) + "]" for b in self.offset_bases)
        return f"#ttg.padded_shared<[{pads}] {{offset = [{bases}], block = []}}>"


def _as_int(bits: tuple[int, ...]) -> int:
    return sum(b << k for k, b in enumerate(bits))


def _invert(bases: tuple[tuple[int, ...], ...], shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The inverse of the F2-linear map from offset bits to tensor bits, by Gauss-Jordan
    elimination: for each tensor bit, the offset bits (least significant first) it sets."""
    widths = [s.bit_length() - 1 for s in shape]
    n = sum(widths)
    if len(bases) != n:
        raise InvalidArgumentError(
            f"PaddedSharedLayout: {len(bases)} offset bases for a tensor of {1 << n} elements "
            f"(shape {list(shape)}): the linear component is not a bijection of the offsets onto the "
            f"elements; give {n} bases that reach every element once")

    def tensor_bits(b: tuple[int, ...]) -> int:
        value, place = 0, 0
        for x, w in zip(b, widths, strict=True):
            value |= x << place
            place += w
        return value

    # Rows: [image of offset bit j (n bits) | unit j (n bits)]; reduce the left half to the identity.
    rows = [tensor_bits(b) | (1 << (n + j)) for j, b in enumerate(bases)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r] >> col & 1), None)
        if pivot is None:
            raise InvalidArgumentError(
                f"PaddedSharedLayout: offset bases {[list(b) for b in bases]} reach some tensor element "
                "twice and miss another: the linear component is not a bijection, so an element has no "
                "one offset")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r] >> col & 1:
                rows[r] ^= rows[col]
    # Row ``col`` now says: tensor bit ``col`` is the image of the offset bits in its right half.
    return tuple(tuple(rows[t] >> (n + j) & 1 for j in range(n)) for t in range(n))
