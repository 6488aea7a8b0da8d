"""The layout values: CuTe's ``Layout``, ``Swizzle`` and ``ComposedLayout``, Triton's
``LinearLayout``, CuTe's coordinates (``idx2crd``) and each layout's own function (``evaluate``),
computed directly from its definition, not through a chain of transform maps.

CuTe's definitions (NVIDIA/cutlass ``include/cute/layout.hpp``, ``include/cute/swizzle.hpp``,
``python/pycute/layout.py``): a layout ``S:D`` maps a coordinate to ``sum(c_i * d_i)`` over the
leaves of its nested shape; an index becomes a coordinate colexicographically (the first mode is
the fastest); ``Swizzle<B, M, S>`` maps ``x`` to ``x ^ shiftr(x & yyy_msk, S)`` with
``yyy_msk = ((1 << B) - 1) << (M + max(0, S))`` (``shiftr`` by a negative ``S`` is a left shift).
Triton's linear layouts (triton-lang/triton ``include/triton/Tools/LinearLayout.h``): each input
dim of size ``2^k`` has ``k`` basis vectors, and the layout maps an input to the XOR of the basis
vectors of its set bits, one value per output dim.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, cast

from .._common.ints import integer
from ..errors import InvalidArgumentError
from .padded import PaddedSharedLayout

IntTuple: TypeAlias = int | tuple["IntTuple", ...]
"""An integer or a (nested) tuple of them: CuTe's shapes, strides and coordinates."""


def _int_tuple(value: object, what: str) -> IntTuple:
    if isinstance(value, tuple | list):
        return tuple(_int_tuple(v, what) for v in cast("tuple[object, ...]", value))
    return integer(value, what, InvalidArgumentError)


def flatten(t: IntTuple) -> tuple[int, ...]:
    """The leaves of a nested tuple, left to right: ``flatten(((2, 3), 4)) == (2, 3, 4)``."""
    if isinstance(t, int):
        return (t,)
    return tuple(x for e in t for x in flatten(e))


def _congruent(a: IntTuple, b: IntTuple) -> bool:
    if isinstance(a, int) or isinstance(b, int):
        return isinstance(a, int) and isinstance(b, int)
    return len(a) == len(b) and all(_congruent(x, y) for x, y in zip(a, b, strict=True))


def _cute_text(t: IntTuple) -> str:
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(_cute_text(e) for e in t) + ")"


def compact_strides(shape: IntTuple) -> IntTuple:
    """CuTe's compact colexicographic strides of a shape (``make_layout(shape)``, the first mode
    fastest): ``compact_strides((4, (2, 3))) == (1, (4, 8))``."""
    current = 1

    def walk(s: IntTuple) -> IntTuple:
        nonlocal current
        if isinstance(s, int):
            d, current = current, current * s
            return d
        return tuple(walk(e) for e in s)

    return walk(shape)


@dataclass(frozen=True, slots=True)
class Layout:
    """A CuTe layout ``shape:stride``: a coordinate ``c`` goes to ``sum(c_i * stride_i)`` over the leaves.

    An index is a coordinate colexicographically (the first mode fastest).

    Example: ``str(Layout((4, 8), (1, 4))) == "(4,8):(1,4)"``; ``evaluate(it, 5) == 5``.
    """

    shape: IntTuple
    stride: IntTuple

    def __post_init__(self) -> None:
        shape = _int_tuple(self.shape, "Layout shape")
        stride = _int_tuple(self.stride, "Layout stride")
        if not _congruent(shape, stride):
            raise InvalidArgumentError(
                f"Layout: shape {_cute_text(shape)} and stride {_cute_text(stride)} are not congruent "
                "(give one stride per shape leaf, nested alike)")
        if any(s < 1 for s in flatten(shape)):
            raise InvalidArgumentError(f"Layout: shape {_cute_text(shape)} has a size below 1")
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "stride", stride)

    @property
    def size(self) -> int:
        """The number of indices: the product of the shape."""
        return math.prod(flatten(self.shape))

    @property
    def rank(self) -> int:
        """The number of top-level modes (1 for an integer shape)."""
        return 1 if isinstance(self.shape, int) else len(self.shape)

    @property
    def modes(self) -> tuple[Layout, ...]:
        """The top-level modes, each a layout (an integer shape is its own one mode)."""
        if isinstance(self.shape, int) or isinstance(self.stride, int):
            return (self,)
        return tuple(Layout(s, d) for s, d in zip(self.shape, self.stride, strict=True))

    @property
    def cosize(self) -> int:
        """One more than the largest offset (CuTe's ``cosize``; strides may be negative, then the
        smallest offset is below 0 and ``cosize`` still counts from 0)."""
        return 1 + sum((s - 1) * max(d, 0) for s, d in zip(flatten(self.shape), flatten(self.stride),
                                                           strict=True))

    def __str__(self) -> str:
        return f"{_cute_text(self.shape)}:{_cute_text(self.stride)}"


@dataclass(frozen=True, slots=True)
class Swizzle:
    """CuTe's ``Swizzle<B, M, S>``: ``x ^ shiftr(x & (((1 << B) - 1) << (M + max(0, S))), S)``.

    The ``B`` bits at ``M + max(0, S)`` are XOR-ed into those at ``M - min(0, S)``.

    Example: ``Swizzle(3, 3, 3)`` maps 64 to ``64 ^ 8 == 72``; ``str`` is ``Sw<3,3,3>``.
    """

    bits: int
    base: int
    shift: int

    def __post_init__(self) -> None:
        for name in ("bits", "base", "shift"):
            object.__setattr__(self, name, integer(getattr(self, name), f"Swizzle {name}",
                                                   InvalidArgumentError))
        if self.bits < 0 or self.base < 0:
            raise InvalidArgumentError(
                f"Swizzle: B and M must not be negative, got Sw<{self.bits},{self.base},{self.shift}>")
        if abs(self.shift) < self.bits:
            raise InvalidArgumentError(
                "Swizzle: |S| must be at least B (CuTe's rule), got "
                f"Sw<{self.bits},{self.base},{self.shift}>")

    @property
    def source_bit(self) -> int:
        """The lowest of the bits read (CuTe's ``yyy_msk``)."""
        return self.base + max(0, self.shift)

    @property
    def target_bit(self) -> int:
        """The lowest of the bits changed (CuTe's ``zzz_msk``)."""
        return self.base - min(0, self.shift)

    @property
    def top_bit(self) -> int:
        """One above the highest bit the swizzle reads or changes (0 if ``B == 0``)."""
        return self.base + abs(self.shift) + self.bits if self.bits else 0

    def __call__(self, x: int) -> int:
        mask = ((1 << self.bits) - 1) << self.source_bit
        y = x & mask
        return x ^ (y >> self.shift if self.shift >= 0 else y << -self.shift)

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"


@dataclass(frozen=True, slots=True)
class ComposedLayout:
    """CuTe's ``Sw<B,M,S> o OFF o L``: the index ``x`` goes to ``swizzle(offset + layout(x))``.

    Example: ``str(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))))`` is
    ``Sw<3,3,3> o 0 o (8,64):(64,1)``.
    """

    swizzle: Swizzle
    offset: int
    layout: Layout

    def __post_init__(self) -> None:
        if not isinstance(self.swizzle, Swizzle) or not isinstance(self.layout, Layout):
            raise InvalidArgumentError(
                "ComposedLayout needs a Swizzle, an integer offset and a Layout, got "
                f"{self.swizzle!r}, {self.offset!r}, {self.layout!r}")
        object.__setattr__(self, "offset", integer(self.offset, "ComposedLayout offset",
                                                   InvalidArgumentError))

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def rank(self) -> int:
        return self.layout.rank

    def __str__(self) -> str:
        return f"{self.swizzle} o {self.offset} o {self.layout}"


@dataclass(frozen=True, slots=True)
class LinearLayout:
    """A Triton linear layout: an input goes to the XOR of the basis vectors of its set bits.

    Basis vectors per input dim (one integer per output dim) and the output dims with their sizes.

    Build one with ``linear_layout``. Example: ``linear_layout({"register": [[1], [2]], "lane":
    [[4]]}, {"dim0": 8})`` is the identity on 8 elements (register fastest).
    """

    bases: tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]
    """Input dim name -> its basis vectors, one integer per output dim."""
    out_dims: tuple[tuple[str, int], ...]
    """Output dim names and sizes, the first the most minor (Triton's order)."""

    def __post_init__(self) -> None:
        outs = tuple((str(n), integer(s, f"size of output dim {n!r}", InvalidArgumentError))
                     for n, s in self.out_dims)
        if len({n for n, _ in outs}) != len(outs):
            raise InvalidArgumentError(f"LinearLayout: output dims {[n for n, _ in outs]} repeat a name")
        if any(s < 1 for _, s in outs):
            raise InvalidArgumentError(f"LinearLayout: output dims {dict(outs)} have a size below 1")
        bases: list[tuple[str, tuple[tuple[int, ...], ...]]] = []
        for name, vectors in self.bases:
            vs: list[tuple[int, ...]] = []
            for v in vectors:
                if isinstance(v, int) and len(outs) == 1:
                    v = (v,)
                vec = tuple(integer(x, f"basis of {name!r}", InvalidArgumentError) for x in v)
                if len(vec) != len(outs):
                    raise InvalidArgumentError(
                        f"LinearLayout: basis {list(vec)} of input dim {name!r} has {len(vec)} "
                        f"entries, give one per output dim ({len(outs)})")
                for x, (o, s) in zip(vec, outs, strict=True):
                    if not 0 <= x < 1 << (s - 1).bit_length():
                        raise InvalidArgumentError(
                            f"LinearLayout: basis {list(vec)} of input dim {name!r} has {x} for "
                            f"output dim {o!r} of size {s} (give 0 <= value < {1 << (s - 1).bit_length()})")
                vs.append(vec)
            bases.append((str(name), tuple(vs)))
        if len({n for n, _ in bases}) != len(bases):
            raise InvalidArgumentError(f"LinearLayout: input dims {[n for n, _ in bases]} repeat a name")
        object.__setattr__(self, "bases", tuple(bases))
        object.__setattr__(self, "out_dims", outs)

    @property
    def in_dims(self) -> tuple[tuple[str, int], ...]:
        """Input dim names and sizes (``2^k`` for ``k`` basis vectors), the first the most minor."""
        return tuple((n, 1 << len(vs)) for n, vs in self.bases)

    @property
    def size(self) -> int:
        """The number of inputs: the product of the input dims' sizes."""
        return math.prod(s for _, s in self.in_dims)

    @property
    def out_strides(self) -> tuple[int, ...]:
        """The stride of each output dim in the flat offset (the first output dim the most minor)."""
        return tuple(math.prod(s for _, s in self.out_dims[:k]) for k in range(len(self.out_dims)))

    @property
    def cosize(self) -> int:
        """One more than the largest flat offset any output can reach (the product of the output
        sizes when they are powers of two)."""
        return 1 + sum(((1 << (s - 1).bit_length()) - 1) * d
                       for (_, s), d in zip(self.out_dims, self.out_strides, strict=True))

    def __str__(self) -> str:
        ins = ", ".join(f"{n}: [" + ", ".join("[" + ", ".join(map(str, v)) + "]" for v in vs) + "]"
                        for n, vs in self.bases)
        outs = ", ".join(f"{n}: {s}" for n, s in self.out_dims)
        return f"{{{ins}}} -> {{{outs}}}"


AnyLayout: TypeAlias = Layout | ComposedLayout | LinearLayout | PaddedSharedLayout
"""Any layout the readers produce (and a swizzle alone, ``Swizzle``)."""


def linear_layout(bases: Mapping[str, Sequence[Sequence[int]]],
                  out_dims: Mapping[str, int] | Sequence[tuple[str, int]]) -> LinearLayout:
    """A Triton linear layout from its bases and its output dims.

    Bases: input dim -> basis vectors, one integer per output dim; output dims: name -> size, the
    first the most minor.

    Example: ``linear_layout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})``.
    """
    if not isinstance(bases, Mapping):
        raise InvalidArgumentError(f"linear_layout: bases must map input dim names to vectors, got {bases!r}")
    outs = tuple(out_dims.items()) if isinstance(out_dims, Mapping) else tuple(out_dims)
    return LinearLayout(tuple((n, tuple(tuple(v) for v in vs)) for n, vs in bases.items()), outs)


def idx2crd(index: int, shape: IntTuple) -> IntTuple:
    """CuTe's colexicographic coordinate of an index in a shape (the first mode fastest).

    Example: ``idx2crd(5, (2, (2, 3))) == (1, (0, 1))``.
    """
    i = integer(index, "idx2crd index", InvalidArgumentError)
    shape = _int_tuple(shape, "idx2crd shape")
    size = math.prod(flatten(shape))
    if not 0 <= i < size:
        raise InvalidArgumentError(f"idx2crd: index {i} outside 0..{size - 1} of shape {_cute_text(shape)}")

    def walk(s: IntTuple) -> IntTuple:
        nonlocal i
        if isinstance(s, int):
            c, i = i % s, i // s
            return c
        return tuple(walk(e) for e in s)

    return walk(shape)


def _crd2idx(coord: IntTuple, shape: IntTuple, stride: IntTuple) -> int:
    if isinstance(coord, int):
        if isinstance(shape, int):
            return coord * _first(stride)
        # An integer coordinate of a tuple mode: split colexicographically (CuTe's crd2idx).
        return _crd2idx(idx2crd(coord, shape), shape, stride)
    if isinstance(shape, int) or isinstance(stride, int) or len(coord) != len(shape):
        raise InvalidArgumentError(f"evaluate: coordinate {_cute_text(coord)} does not fit shape "
                                   f"{_cute_text(shape)}")
    return sum(_crd2idx(c, s, d) for c, s, d in zip(coord, shape, stride, strict=True))


def _first(t: IntTuple) -> int:
    return t if isinstance(t, int) else _first(t[0])


def evaluate(layout: AnyLayout | Swizzle, index: int | tuple[object, ...]) -> int:
    """The layout's own function at an index or coordinate, computed from its definition.

    CuTe's ``crd2idx(idx2crd(...))``, the swizzle's XOR, Triton's XOR of bases, Triton's padding;
    not through a chain.

    A CuTe index is a flat index or a (nested) coordinate; a Triton input is a flat index (the
    first input dim the most minor) or one value per input dim; a padded shared layout's input is
    a tensor element, flat (``dim0`` the most minor) or one coordinate per dim.
    Example: ``evaluate(parse_layout("Sw<1,0,1> o 0 o 4:1"), 2) == 3``.
    """
    if isinstance(layout, Layout):
        coord = _int_tuple(index, "evaluate index")
        if isinstance(coord, int):
            if not 0 <= coord < layout.size:
                raise InvalidArgumentError(
                    f"evaluate: index {coord} outside 0..{layout.size - 1} of {layout}")
            coord = idx2crd(coord, layout.shape)
        _check_coord(coord, layout.shape)
        return _crd2idx(coord, layout.shape, layout.stride)
    if isinstance(layout, ComposedLayout):
        return layout.swizzle(layout.offset + evaluate(layout.layout, index))
    if isinstance(layout, LinearLayout):
        return _linear(layout, index)
    if isinstance(layout, PaddedSharedLayout):
        return layout.location(layout.offset_of(_tensor_coords(layout, index)))
    if isinstance(layout, Swizzle):
        x = integer(index, "evaluate index", InvalidArgumentError)
        if x < 0:
            raise InvalidArgumentError(f"evaluate: a swizzle's index must not be negative, got {x}")
        return layout(x)
    raise InvalidArgumentError("evaluate: expected a Layout, ComposedLayout, LinearLayout, "
                               f"PaddedSharedLayout or Swizzle, got {layout!r}")


def _tensor_coords(layout: PaddedSharedLayout, index: int | tuple[object, ...]) -> list[int]:
    if isinstance(index, tuple):
        coords = [integer(v, "evaluate coordinate", InvalidArgumentError) for v in index]
        if len(coords) != len(layout.shape):
            raise InvalidArgumentError(f"evaluate: give one coordinate per tensor dim {list(layout.shape)}, "
                                       f"got {index!r}")
    else:
        flat = integer(index, "evaluate index", InvalidArgumentError)
        if not 0 <= flat < layout.size:
            raise InvalidArgumentError(f"evaluate: index {flat} outside 0..{layout.size - 1}")
        coords: list[int] = []
        for s in layout.shape:
            coords.append(flat % s)
            flat //= s
    for c, s in zip(coords, layout.shape, strict=True):
        if not 0 <= c < s:
            raise InvalidArgumentError(f"evaluate: coordinate {c} outside 0..{s - 1}")
    return coords


def _check_coord(coord: IntTuple, shape: IntTuple) -> None:
    if isinstance(coord, int):
        size = math.prod(flatten(shape))
        if not 0 <= coord < size:
            raise InvalidArgumentError(f"evaluate: coordinate {coord} outside 0..{size - 1}")
        return
    if isinstance(shape, int) or len(coord) != len(shape):
        raise InvalidArgumentError(f"evaluate: coordinate {_cute_text(coord)} does not fit shape "
                                   f"{_cute_text(shape)}")
    for c, s in zip(coord, shape, strict=True):
        _check_coord(c, s)


def _linear(layout: LinearLayout, index: int | tuple[object, ...]) -> int:
    sizes = [s for _, s in layout.in_dims]
    if isinstance(index, tuple):
        values = [integer(v, "evaluate input", InvalidArgumentError) for v in index]
        if len(values) != len(sizes):
            raise InvalidArgumentError(
                f"evaluate: give one value per input dim {[n for n, _ in layout.in_dims]}, got {index!r}")
    else:
        flat = integer(index, "evaluate index", InvalidArgumentError)
        if not 0 <= flat < layout.size:
            raise InvalidArgumentError(f"evaluate: index {flat} outside 0..{layout.size - 1}")
        values: list[int] = []
        for s in sizes:
            values.append(flat % s)
            flat //= s
    out = [0] * len(layout.out_dims)
    for (name, vectors), v, s in zip(layout.bases, values, sizes, strict=True):
        if not 0 <= v < s:
            raise InvalidArgumentError(f"evaluate: input {v} outside 0..{s - 1} of input dim {name!r}")
        for bit, vec in enumerate(vectors):
            if v >> bit & 1:
                out = [a ^ b for a, b in zip(out, vec, strict=True)]
    return sum(o * d for o, d in zip(out, layout.out_strides, strict=True))
