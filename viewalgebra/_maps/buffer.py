"""``Buffer``: a memref shape with element type, strides and offset (MLIR's strided layout)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._common.ints import integer, integers
from ..errors import InvalidTransformError
from .types import memref_type

_FIXED_BITS = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "tf32": 32, "f80": 80, "f128": 128,
    "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6, "f8E8M0FNU": 8, "f8E3M4": 8,
    "f8E4M3": 8, "f8E4M3FN": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8, "f8E5M2": 8,
    "f8E5M2FNUZ": 8, "index": 64,
}
_INT_TYPE = re.compile(r"(?:i|si|ui)([1-9][0-9]*)")


def dtype_bits(dtype: str) -> int:
    """Bit width of an MLIR element type: ``f32`` 32, ``bf16`` 16, ``i8`` 8, ``index`` 64, ...

    Example: ``dtype_bits("f16") == 16``.
    """
    if not isinstance(dtype, str):
        raise InvalidTransformError(f"element type must be an MLIR type name such as f32, got {dtype!r}")
    if dtype in _FIXED_BITS:
        return _FIXED_BITS[dtype]
    m = _INT_TYPE.fullmatch(dtype)
    if m:
        return int(m.group(1))
    raise InvalidTransformError(
        f"unknown element type {dtype!r} (expected an MLIR type such as f32, f16, bf16, i8, i32)")


def _mlir_type(dtype: object) -> str:
    """An MLIR element type name, also from a numpy dtype (``np.float16`` is ``f16``, ``np.int8``
    is ``i8``, ``np.uint8`` is ``ui8``, ``np.bool_`` is ``i1``)."""
    if isinstance(dtype, str):
        return dtype
    try:
        np_type = np.dtype(cast(Any, dtype))
    except TypeError:
        raise InvalidTransformError(
            f"element type must be an MLIR type name such as f32 or a numpy dtype, got {dtype!r}") from None
    prefix = {"f": "f", "i": "i", "u": "ui", "b": "i"}.get(np_type.kind)
    if prefix is None:
        raise InvalidTransformError(f"numpy dtype {np_type} has no MLIR element type")
    return "i1" if np_type.kind == "b" else f"{prefix}{np_type.itemsize * 8}"


def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Strides of a row-major (identity layout) memref of this shape."""
    return tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))


@dataclass(frozen=True, slots=True)
class Buffer:
    """A memory buffer: ``memref<shape x dtype, strided<strides, offset: offset>>``.

    Address of a coordinate = ``offset + sum(coord[k] * strides[k])``, in elements
    (docs/semantics.md, Address).
    Example: ``Buffer((4, 8), "f32")`` is ``memref<4x8xf32>`` with strides ``(8, 1)``.
    """

    shape: tuple[int, ...]
    dtype: str = "f32"
    strides: tuple[int, ...] | None = None
    """Element strides; ``None`` means row-major (filled in at construction)."""
    offset: int = 0

    def __post_init__(self) -> None:
        shape = integers(self.shape, "Buffer shape", InvalidTransformError)
        strides = (row_major_strides(shape) if self.strides is None
                   else integers(self.strides, "Buffer strides", InvalidTransformError))
        offset = integer(self.offset, "Buffer offset", InvalidTransformError)
        if any(s < 0 for s in shape):
            raise InvalidTransformError(f"Buffer shape {list(shape)} has a negative size")
        if len(strides) != len(shape):
            raise InvalidTransformError(
                f"Buffer has {len(shape)} dims but {len(strides)} strides")
        dtype = _mlir_type(self.dtype)
        dtype_bits(dtype)
        object.__setattr__(self, "dtype", dtype)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "strides", strides)
        object.__setattr__(self, "offset", offset)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def bits(self) -> int:
        """Bit width of one element."""
        return dtype_bits(self.dtype)

    @property
    def is_row_major(self) -> bool:
        return self.strides == row_major_strides(self.shape) and self.offset == 0

    def address(self, coords: Sequence[int]) -> int:
        """The element address of buffer coordinates (no bounds check)."""
        return self.offset + sum(c * s for c, s in zip(coords, self.strides or (), strict=True))

    def __str__(self) -> str:
        return memref_type(self.shape, self.dtype, strides=None if self.is_row_major else self.strides,
                           offset=self.offset)
