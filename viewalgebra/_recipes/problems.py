"""The problems rocMLIR compiles: a ``rock.gemm`` and a 2-D forward ``rock.conv``, as frozen values
with rocMLIR's dim names, checked on construction (docs/gridwise.md).

A gemm is ``C[G, M, N] = A[G, K, M] * B[G, K, N]`` as ``rock.gemm`` sees it after
``transposeA``/``transposeB`` are applied: A is stored ``[G, M, K]`` when ``transpose_a`` (and
``[G, K, M]`` otherwise), B ``[G, N, K]`` when ``transpose_b``, C ``[G, N, M]`` when
``transpose_c``. A conv is rocMLIR's ``rock.conv`` with its layout attributes: the filter's dims
named ``g, k, c, 0, 1``, the input's ``ni, gi, ci, 0i, 1i`` and the output's ``no, go, ko, 0o, 1o``
(``0`` and ``1`` are the spatial dims, height then width), each layout the order in memory,
outermost first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .._common.ints import integer, integers
from .._maps.buffer import dtype_bits
from ..errors import InvalidArgumentError

FILTER_DIMS = frozenset({"g", "k", "c", "0", "1"})
INPUT_DIMS = frozenset({"ni", "gi", "ci", "0i", "1i"})
OUTPUT_DIMS = frozenset({"no", "go", "ko", "0o", "1o"})


def _positive(value: object, what: str, *, zero: bool = False) -> int:
    n = integer(value, what, InvalidArgumentError)
    if n < 0 or n == 0 and not zero:
        raise InvalidArgumentError(f"{what} must be {'at least 0' if zero else 'positive'}, got {n}")
    return n


def _dtype(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{what} must be an MLIR element type such as f16, got {value!r}")
    dtype_bits(value)  # raises on an unknown type
    return value


@dataclass(frozen=True, slots=True)
class GemmProblem:
    """``rock.gemm``: ``C[G, M, N] = A[G, K, M] * B[G, K, N]`` (stored transposed where asked).

    Example: ``GemmProblem(m=1024, n=512, k=256, dtype="f16")``.
    """

    m: int
    n: int
    k: int
    dtype: str = "f32"
    """The element type of A and B."""
    g: int = 1
    """The batch (group) count ``G``."""
    transpose_a: bool = False
    transpose_b: bool = False
    transpose_c: bool = False
    out_dtype: str | None = None
    """The element type of C (default: ``dtype``, or ``i32`` for ``i8`` inputs)."""

    def __post_init__(self) -> None:
        for name in ("m", "n", "k", "g"):
            object.__setattr__(self, name, _positive(getattr(self, name), f"GemmProblem: {name}"))
        for name in ("transpose_a", "transpose_b", "transpose_c"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgumentError(f"GemmProblem: {name} must be a bool, got {getattr(self, name)!r}")
        _dtype(self.dtype, "GemmProblem: dtype")
        if self.out_dtype is not None:
            _dtype(self.out_dtype, "GemmProblem: out_dtype")

    @property
    def c_dtype(self) -> str:
        """The element type of C."""
        if self.out_dtype is not None:
            return self.out_dtype
        return "i32" if self.dtype == "i8" else self.dtype

    @property
    def a_shape(self) -> tuple[int, int, int]:
        """A as stored: ``[G, M, K]`` when ``transpose_a``, else ``[G, K, M]``."""
        return (self.g, self.m, self.k) if self.transpose_a else (self.g, self.k, self.m)

    @property
    def b_shape(self) -> tuple[int, int, int]:
        """B as stored: ``[G, N, K]`` when ``transpose_b``, else ``[G, K, N]``."""
        return (self.g, self.n, self.k) if self.transpose_b else (self.g, self.k, self.n)

    @property
    def c_shape(self) -> tuple[int, int, int]:
        """C as stored: ``[G, N, M]`` when ``transpose_c``, else ``[G, M, N]``."""
        return (self.g, self.n, self.m) if self.transpose_c else (self.g, self.m, self.n)


Direction = Literal["fwd"]


def _layout(value: Sequence[str], dims: frozenset[str], what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not all(isinstance(d, str) for d in value):
        raise InvalidArgumentError(f"{what} must be a sequence of dim names {sorted(dims)}, got {value!r}")
    layout = tuple(value)
    if sorted(layout) != sorted(dims):
        raise InvalidArgumentError(f"{what} must name each of {sorted(dims)} once, got {list(layout)}")
    return layout


@dataclass(frozen=True, slots=True)
class ConvProblem:
    """A 2-D forward ``rock.conv``: output ``[N, G, K, Ho, Wo]`` from input ``[N, G, C, Hi, Wi]``
    and filter ``[G, K, C, Y, X]`` (per group: ``k`` filters over ``c`` channels), each stored in
    the order its layout gives.

    Example: ``ConvProblem(n=256, c=64, hi=56, wi=56, k=64, y=3, x=3, padding=(1, 1, 1, 1))``
    is NCHW/KCYX/NKHW with 3x3 filters; ``ho`` and ``wo`` are 56.
    """

    n: int
    c: int
    """Input channels per group."""
    hi: int
    wi: int
    k: int
    """Output channels (filters) per group."""
    y: int
    x: int
    dtype: str = "f32"
    g: int = 1
    padding: tuple[int, int, int, int] = (0, 0, 0, 0)
    """``(top, bottom, left, right)``: rocMLIR's ``padding`` attribute ``[h_l, h_r, w_l, w_r]``."""
    stride: tuple[int, int] = (1, 1)
    dilation: tuple[int, int] = (1, 1)
    filter_layout: tuple[str, ...] = ("g", "k", "c", "0", "1")
    input_layout: tuple[str, ...] = ("ni", "gi", "ci", "0i", "1i")
    output_layout: tuple[str, ...] = ("no", "go", "ko", "0o", "1o")
    direction: Direction = "fwd"
    out_dtype: str | None = None
    """The element type of the output (default: ``dtype``, or ``i32`` for ``i8``)."""

    def __post_init__(self) -> None:
        for name in ("n", "c", "hi", "wi", "k", "y", "x", "g"):
            object.__setattr__(self, name, _positive(getattr(self, name), f"ConvProblem: {name}"))
        _dtype(self.dtype, "ConvProblem: dtype")
        if self.out_dtype is not None:
            _dtype(self.out_dtype, "ConvProblem: out_dtype")
        pairs = (("padding", 4, True), ("stride", 2, False), ("dilation", 2, False))
        for name, count, zero in pairs:
            value = integers(getattr(self, name), f"ConvProblem: {name}", InvalidArgumentError)
            if len(value) != count:
                raise InvalidArgumentError(f"ConvProblem: {name} must be {count} integers, got {list(value)}")
            object.__setattr__(self, name, tuple(_positive(v, f"ConvProblem: {name}", zero=zero)
                                                 for v in value))
        object.__setattr__(self, "filter_layout",
                           _layout(self.filter_layout, FILTER_DIMS, "ConvProblem: filter_layout"))
        object.__setattr__(self, "input_layout",
                           _layout(self.input_layout, INPUT_DIMS, "ConvProblem: input_layout"))
        object.__setattr__(self, "output_layout",
                           _layout(self.output_layout, OUTPUT_DIMS, "ConvProblem: output_layout"))
        if self.direction != "fwd":
            raise InvalidArgumentError(
                f"ConvProblem: only forward convolution is modelled, got {self.direction!r}")
        for side, out in (("height", self.ho), ("width", self.wo)):
            if out < 1:
                raise InvalidArgumentError(
                    f"ConvProblem: the filter does not fit the padded input's {side} (output size {out})")

    @property
    def ho(self) -> int:
        """Output height: ``(hi + top + bottom - dilation_h * (y - 1) - 1) // stride_h + 1``."""
        top, bottom, _, _ = self.padding
        return (self.hi + top + bottom - self.dilation[0] * (self.y - 1) - 1) // self.stride[0] + 1

    @property
    def wo(self) -> int:
        """Output width: ``(wi + left + right - dilation_w * (x - 1) - 1) // stride_w + 1``."""
        _, _, left, right = self.padding
        return (self.wi + left + right - self.dilation[1] * (self.x - 1) - 1) // self.stride[1] + 1

    @property
    def c_dtype(self) -> str:
        """The element type of the output."""
        if self.out_dtype is not None:
            return self.out_dtype
        return "i32" if self.dtype == "i8" else self.dtype

    def _shape(self, layout: tuple[str, ...], sizes: dict[str, int]) -> tuple[int, ...]:
        return tuple(sizes[d] for d in layout)

    @property
    def filter_shape(self) -> tuple[int, ...]:
        sizes = {"g": self.g, "k": self.k, "c": self.c, "0": self.y, "1": self.x}
        return self._shape(self.filter_layout, sizes)

    @property
    def input_shape(self) -> tuple[int, ...]:
        sizes = {"ni": self.n, "gi": self.g, "ci": self.c, "0i": self.hi, "1i": self.wi}
        return self._shape(self.input_layout, sizes)

    @property
    def output_shape(self) -> tuple[int, ...]:
        sizes = {"no": self.n, "go": self.g, "ko": self.k, "0o": self.ho, "1o": self.wo}
        return self._shape(self.output_layout, sizes)

    @property
    def gemm(self) -> GemmProblem:
        """The gemm a forward conv becomes (rocMLIR's ``ConvToGemm``): ``G = g``, ``M = k``,
        ``K = c * y * x``, ``N = n * ho * wo``."""
        return GemmProblem(m=self.k, n=self.n * self.ho * self.wo, k=self.c * self.y * self.x,
                           dtype=self.dtype, g=self.g, out_dtype=self.out_dtype)
