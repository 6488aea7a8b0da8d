"""Map builders that name dims as rocMLIR's do: ``TopDownMapBuilder`` starts from the upper
(view-side) shape and defines the lower dims, ``BottomUpMapBuilder`` starts from the lower shape
and defines the upper dims; ``get()`` returns a verified, strict ``TransformMap``.

A port of ``TopDownTMBuilder`` and ``BottomUpTMBuilder`` (rocMLIR's
mlir/include/mlir/Dialect/Rock/IR/TransformMapBuilder.h at 045c8a25751f and
mlir/lib/Dialect/Rock/IR/TransformMapBuilder.cpp at e7743480a5c1; their wrappers and
``expandNamesInPlace`` are in dims_wrappers.py; docs/gridwise.md). Each method takes its rocMLIR
overload's arguments in the same order under a snake_case name; where rocMLIR asserts (a name
defined twice, a Merge whose sizes do not multiply to the upper size) these raise
``InvalidTransformError`` naming the dim and the rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from .._common.ints import integer, integers
from .._maps.transform_map import TransformMap
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from ..errors import InvalidTransformError

Names = str | Sequence[str]
"""One dim name or several (rocMLIR's ``StringRef`` and ``ArrayRef<StringRef>`` overloads)."""
Dims = int | Sequence[int]


def as_names(value: Names, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise InvalidTransformError(f"{what} must be a dim name or a sequence of dim names, got {value!r}")
    return tuple(value)


def _dims(value: Dims, what: str) -> tuple[int, ...]:
    if isinstance(value, Sequence):
        return integers(value, what, InvalidTransformError)
    return (integer(value, what, InvalidTransformError),)


def quote_names(names: Sequence[str]) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


class MapBuilder:
    """What both directions share: the start space (given), the end space (being defined), the
    transforms so far. "Start" is the space the builder began from, "end" the one it builds."""

    _direction: Literal["top-down", "bottom-up"]
    _pad_sign: int
    """+1 bottom-up (padding grows the upper dim), -1 top-down (it shrinks the lower one)."""

    def __init__(self, names: Sequence[str] | None, shape: Sequence[int]) -> None:
        kind = type(self).__name__
        sizes = integers(shape, f"{kind}: shape", InvalidTransformError)
        if any(s < 0 for s in sizes):
            raise InvalidTransformError(f"{kind}: shape {list(sizes)} has a negative size")
        start = (tuple(f"dim{i}" for i in range(len(sizes))) if names is None
                 else as_names(names, f"{kind}: names"))
        if len(start) != len(sizes):
            raise InvalidTransformError(
                f"{kind}: {len(start)} names for {len(sizes)} sizes "
                "(rocMLIR: \"Start names and shape must have the same size\")")
        repeated = sorted({n for n in start if start.count(n) > 1})
        if repeated:
            raise InvalidTransformError(f"{kind}: start dim {quote_names(repeated)[1:-1]} is named twice")
        self._start_names = start
        self._start_shape = sizes
        self._start_index = {n: i for i, n in enumerate(start)}
        self._end_names: dict[int, str] = {}
        self._end_shape: dict[int, int] = {}
        self._end_index: dict[str, int] = {}
        self._ops: list[AnyTransform] = []
        self._result: TransformMap | None = None

    # -- the two spaces ---------------------------------------------------------------------

    @property
    def start_names(self) -> tuple[str, ...]:
        return self._start_names

    @property
    def start_shape(self) -> tuple[int, ...]:
        return self._start_shape

    @property
    def end_names(self) -> tuple[str, ...]:
        """The end dims defined so far, by position (``getEndNames``)."""
        return tuple(self._end_names[d] for d in sorted(self._end_names))

    def start_index(self, name: str, method: str = "start_index") -> int:
        """The position of start dim ``name`` (``startIndex``)."""
        if name not in self._start_index:
            raise InvalidTransformError(
                f"{type(self).__name__}.{method}: \"{name}\" is not a start dim "
                f"(start dims: {quote_names(self._start_names)})")
        return self._start_index[name]

    def start_size(self, name: str | int) -> int:
        """The size of a start dim, by name or position (``startSize``)."""
        dim = self.start_index(name, "start_size") if isinstance(name, str) else name
        if not 0 <= dim < len(self._start_shape):
            raise InvalidTransformError(f"{type(self).__name__}.start_size: no start dim {dim}")
        return self._start_shape[dim]

    def end_index(self, name: str) -> int:
        """The position of end dim ``name`` (``endIndex``)."""
        if name not in self._end_index:
            raise InvalidTransformError(
                f"{type(self).__name__}.end_index: \"{name}\" is not defined yet "
                f"(end dims: {quote_names(self.end_names)})")
        return self._end_index[name]

    def end_size(self, name: str | int) -> int:
        dim = self.end_index(name) if isinstance(name, str) else name
        if dim not in self._end_shape:
            raise InvalidTransformError(f"{type(self).__name__}.end_size: end dim {dim} is not defined")
        return self._end_shape[dim]

    # -- defining end dims and adding transforms --------------------------------------------

    def _add(self, method: str, op: type[AnyTransform], params: Sequence[int],
             start: tuple[Sequence[str], Sequence[int]], end: tuple[Sequence[str], Sequence[int]],
             defines: Sequence[tuple[str, int, int]]) -> None:
        """Define the end dims ``defines`` (name, position, size) and add one transform from the
        start dims ``start`` to the end dims ``end``; nothing changes if a rule is broken."""
        kind = f"{type(self).__name__}.{method}"
        if self._result is not None:
            raise InvalidTransformError(
                f"{kind}: the map was already built by get() (rocMLIR: \"It's a bug to add to a "
                "coordinate transform after fetching the attribute\")")
        names: dict[str, int] = {}
        dims: dict[int, str] = {}
        for name, dim, size in defines:
            if name in self._end_index or name in names:
                raise InvalidTransformError(
                    f"{kind}: end dim \"{name}\" is already defined (rocMLIR: \"Trying to redefine "
                    "a result name in a coordinate transformation\")")
            if dim in self._end_names or dim in dims:
                raise InvalidTransformError(
                    f"{kind}: end position {dim} (\"{name}\") already holds "
                    f"\"{self._end_names.get(dim, dims.get(dim))}\" (rocMLIR: \"Trying to redefine "
                    "a result dimension in a coordinate transform\")")
            if dim < 0:
                raise InvalidTransformError(f"{kind}: end dim \"{name}\" at negative position {dim}")
            if size < 0:
                raise InvalidTransformError(f"{kind}: end dim \"{name}\" would have size {size}")
            names[name] = dim
            dims[dim] = name
        if self._direction == "top-down":
            upper, lower = start, end
        else:
            upper, lower = end, start
        try:
            transform = op(params=tuple(params), upper_names=tuple(upper[0]), upper_dims=tuple(upper[1]),
                           lower_names=tuple(lower[0]), lower_dims=tuple(lower[1]))
        except InvalidTransformError as e:
            raise InvalidTransformError(f"{kind}: {e}") from None
        for name, dim, size in defines:
            self._end_index[name] = dim
            self._end_names[dim] = name
            self._end_shape[dim] = size
        self._ops.append(transform)

    def _starts(self, names: Sequence[str], method: str) -> tuple[int, ...]:
        return tuple(self.start_index(n, method) for n in names)

    def pass_through(self, out_names: Names, out_dims: Dims | None = None,
                     in_names: Names | None = None) -> None:
        """Copy start dims to end dims (``passThrough``): ``in_names`` (default ``out_names``)
        become ``out_names`` at ``out_dims`` (default: where the start dims are).

        rocMLIR's ``passThrough(name)``, ``passThrough(names)``, ``passThrough(outName, inName)``
        and ``passThrough(outNames, outDims, inNames)`` are ``pass_through(name)``,
        ``pass_through(names)``, ``pass_through(out_name, in_names=in_name)`` and
        ``pass_through(out_names, out_dims, in_names)``.
        """
        outs = as_names(out_names, "pass_through: out_names")
        ins = outs if in_names is None else as_names(in_names, "pass_through: in_names")
        if len(outs) != len(ins):
            raise InvalidTransformError(
                f"{type(self).__name__}.pass_through: {len(outs)} out names for {len(ins)} in names "
                "(rocMLIR: \"One output per input\")")
        in_dims = self._starts(ins, "pass_through")
        dims = in_dims if out_dims is None else _dims(out_dims, "pass_through: out_dims")
        if len(dims) != len(outs):
            raise InvalidTransformError(
                f"{type(self).__name__}.pass_through: {len(dims)} positions for {len(outs)} out names "
                "(rocMLIR: \"One location per output\")")
        defines = [(n, d, self._start_shape[s]) for n, d, s in zip(outs, dims, in_dims, strict=True)]
        self._add("pass_through", PassThrough, (), (ins, in_dims), (outs, dims), defines)

    def pass_through_indices(self, end_dims: Sequence[int], start_dims: Sequence[int]) -> None:
        """Copy the start dims at ``start_dims`` to ``end_dims``, keeping their names
        (``passThrough(ArrayRef<uint32_t> endIndices, ArrayRef<uint32_t> startIndices)``)."""
        ends = integers(end_dims, "pass_through_indices: end_dims", InvalidTransformError)
        starts = integers(start_dims, "pass_through_indices: start_dims", InvalidTransformError)
        if len(ends) != len(starts):
            raise InvalidTransformError(
                f"{type(self).__name__}.pass_through_indices: {len(ends)} end dims for {len(starts)} "
                "start dims (rocMLIR: \"One output per input\")")
        for s in starts:
            if not 0 <= s < len(self._start_names):
                raise InvalidTransformError(
                    f"{type(self).__name__}.pass_through_indices: no start dim {s} "
                    f"(start dims: {quote_names(self._start_names)})")
        names = tuple(self._start_names[s] for s in starts)
        defines = [(n, e, self._start_shape[s]) for n, e, s in zip(names, ends, starts, strict=True)]
        self._add("pass_through_indices", PassThrough, (), (names, starts), (names, ends), defines)

    def pad(self, out_names: Names, params: Sequence[int], out_dims: Dims | None = None,
            in_names: Names | None = None) -> None:
        """Pad start dims (``pad``): ``params`` is ``(left, right)`` per dim in order; the end
        dim's size is the start size plus the padding bottom-up and minus it top-down.

        rocMLIR's ``pad(names, params)``, ``pad(outName, inName, left, right)`` and
        ``pad(outNames, outDims, inNames, params)`` are ``pad(names, params)``,
        ``pad(out_name, [left, right], in_names=in_name)`` and
        ``pad(out_names, params, out_dims, in_names)``.
        """
        outs = as_names(out_names, "pad: out_names")
        ins = outs if in_names is None else as_names(in_names, "pad: in_names")
        amounts = integers(params, "pad: params", InvalidTransformError)
        kind = f"{type(self).__name__}.pad"
        if len(outs) != len(ins):
            raise InvalidTransformError(f"{kind}: {len(outs)} out names for {len(ins)} in names "
                                        "(rocMLIR: \"Same number of output and input dimensions\")")
        if len(amounts) != 2 * len(outs):
            raise InvalidTransformError(f"{kind}: {len(amounts)} parameters for {len(outs)} dims "
                                        "(rocMLIR: \"Two padding parameters given per dimension\")")
        in_dims = self._starts(ins, "pad")
        dims = in_dims if out_dims is None else _dims(out_dims, "pad: out_dims")
        if len(dims) != len(outs):
            raise InvalidTransformError(f"{kind}: {len(dims)} positions for {len(outs)} out names "
                                        "(rocMLIR: \"One name needed per dimension in padding\")")
        defines: list[tuple[str, int, int]] = []
        for i, (name, dim, start) in enumerate(zip(outs, dims, in_dims, strict=True)):
            left, right = amounts[2 * i], amounts[2 * i + 1]
            if left < 0 or right < 0:
                raise InvalidTransformError(f"{kind}: negative padding ({left}, {right}) of \"{ins[i]}\"")
            defines.append((name, dim, self._start_shape[start] + self._pad_sign * (left + right)))
        self._add("pad", Pad, amounts, (ins, in_dims), (outs, dims), defines)

    def get(self) -> TransformMap:
        """The map built so far, verified (a strict ``TransformMap``); nothing can be added
        afterwards (``get``)."""
        kind = f"{type(self).__name__}.get"
        if self._result is not None:
            return self._result
        count = max(self._end_names, default=-1) + 1
        missing = [d for d in range(count) if d not in self._end_names]
        if missing:
            which = "lower" if self._direction == "top-down" else "upper"
            raise InvalidTransformError(
                f"{kind}: {which} dim {missing[0]} is defined by no transform (rocMLIR: \"Lower "
                "dimension must have associated output expression\")")
        end = tuple(self._end_shape[d] for d in range(count))
        upper, lower = ((self._start_shape, end) if self._direction == "top-down"
                        else (end, self._start_shape))
        try:
            self._result = TransformMap(tuple(self._ops), upper, lower)
        except InvalidTransformError as e:
            raise InvalidTransformError(f"{kind}: {e}") from None
        return self._result

    def _next_start(self, result: TransformMap, method: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The start names and shape of the builder of the next map (``nextTransforms``)."""
        if self._result is None or result != self._result:
            raise InvalidTransformError(
                f"{type(self).__name__}.{method}: pass the map this builder's get() returned")
        bounds = result.lower_bounds if self._direction == "top-down" else result.upper_bounds
        return self.end_names, bounds


class TopDownMapBuilder(MapBuilder):
    """Builds a map from its upper (view-side) shape down (rocMLIR's ``TopDownTMBuilder``).

    Example (rocMLIR's ``computeOutputTransforms``, a C tile of ``[1, 64, 64]`` blocks of 16)::

        b = TopDownMapBuilder(["g_block", "m_block", "n_block", "m_iter", "n_iter"], [1, 4, 4, 16, 16])
        b.pass_through(["gemmG"], [0], ["g_block"])
        b.unmerge("gemmM", 1, ["m_block", "m_iter"], [4, 16])
        b.unmerge("gemmN", 2, ["n_block", "n_iter"], [4, 16])
        b.get()  # bounds = [1, 4, 4, 16, 16] -> [1, 64, 64]
    """

    _direction = "top-down"
    _pad_sign = -1

    @classmethod
    def below(cls, previous: TopDownMapBuilder, result: TransformMap) -> TopDownMapBuilder:
        """A builder for the next map down: its start dims are ``previous``'s end dims, with
        ``result``'s lower bounds (``TopDownTMBuilder::below``)."""
        return cls(*previous._next_start(result, "below"))

    def ignore(self, name: str) -> None:
        """Drop upper dim ``name`` from the lower space (``ignore``: an ``AddDim``)."""
        dim = self.start_index(name, "ignore")
        self._add("ignore", AddDim, (self._start_shape[dim],), ((name,), (dim,)), ((), ()), ())

    def const_dim(self, lower_names: Names, lower_dims: Dims, values: Dims, sizes: Dims) -> None:
        """Lower dims of the given sizes held at constant values (``constDim``)."""
        names = as_names(lower_names, "const_dim: lower_names")
        dims = _dims(lower_dims, "const_dim: lower_dims")
        vals = _dims(values, "const_dim: values")
        lens = _dims(sizes, "const_dim: sizes")
        if not len(names) == len(dims) == len(vals) == len(lens):
            raise InvalidTransformError(
                f"TopDownMapBuilder.const_dim: {len(names)} names, {len(dims)} positions, {len(vals)} "
                f"values and {len(lens)} sizes (rocMLIR: \"must have equal number of constant values "
                "and dimension lengths\")")
        params = [x for pair in zip(vals, lens, strict=True) for x in pair]
        defines = list(zip(names, dims, lens, strict=True))
        self._add("const_dim", ConstDim, params, ((), ()), (names, dims), defines)

    def embed(self, lower_name: str, lower_dim: int, lower_size: int, upper_names: Sequence[str],
              coefficients: Sequence[int]) -> None:
        """``lower = sum coefficient_i * upper_i`` with the lower size given (``embed``)."""
        uppers = as_names(upper_names, "embed: upper_names")
        coeffs = integers(coefficients, "embed: coefficients", InvalidTransformError)
        if len(uppers) != len(coeffs):
            raise InvalidTransformError(
                f"TopDownMapBuilder.embed: {len(coeffs)} coefficients for {len(uppers)} upper dims of "
                f"\"{lower_name}\" (rocMLIR: \"Must provide a coefficient for each dimension\")")
        dim = integer(lower_dim, "embed: lower_dim", InvalidTransformError)
        size = integer(lower_size, "embed: lower_size", InvalidTransformError)
        self._add("embed", Embed, coeffs, (uppers, self._starts(uppers, "embed")),
                  ((lower_name,), (dim,)), [(lower_name, dim, size)])

    def unmerge(self, lower_name: str, lower_dim: int, upper_names: Sequence[str],
                lengths: Sequence[int]) -> None:
        """``lower = (((u_0) * l_1 + u_1) * l_2 + ...)``; its size is the product of
        ``lengths`` (``unmerge``)."""
        uppers = as_names(upper_names, "unmerge: upper_names")
        lens = integers(lengths, "unmerge: lengths", InvalidTransformError)
        kind = "TopDownMapBuilder.unmerge"
        if len(uppers) != len(lens):
            raise InvalidTransformError(
                f"{kind}: {len(lens)} lengths for {len(uppers)} upper dims of \"{lower_name}\" "
                "(rocMLIR: \"Must provide a length for each dimension\")")
        starts = self._starts(uppers, "unmerge")
        for name, start, length in zip(uppers, starts, lens, strict=True):
            if self._start_shape[start] != length:
                raise InvalidTransformError(
                    f"{kind}: upper dim \"{name}\" has size {self._start_shape[start]}, "
                    f"its length in the unmerge to \"{lower_name}\" is {length}")
        dim = integer(lower_dim, "unmerge: lower_dim", InvalidTransformError)
        self._add("unmerge", Unmerge, lens, (uppers, starts), ((lower_name,), (dim,)),
                  [(lower_name, dim, math.prod(lens))])

    def merge(self, lower_names: Sequence[str], lower_dims: Sequence[int], upper_name: str,
              sizes: Sequence[int]) -> None:
        """Split upper dim ``upper_name`` into lower dims of the given sizes (``merge``)."""
        lowers = as_names(lower_names, "merge: lower_names")
        dims = integers(lower_dims, "merge: lower_dims", InvalidTransformError)
        lens = integers(sizes, "merge: sizes", InvalidTransformError)
        kind = "TopDownMapBuilder.merge"
        if not len(lowers) == len(dims) == len(lens):
            raise InvalidTransformError(
                f"{kind}: {len(lowers)} lower names, {len(dims)} positions and {len(lens)} sizes "
                "(rocMLIR: \"One name per dimension required in merge\")")
        start = self.start_index(upper_name, "merge")
        if self._start_shape[start] != math.prod(lens):
            raise InvalidTransformError(
                f"{kind}: upper dim \"{upper_name}\" has size {self._start_shape[start]}, the lower "
                f"sizes {list(lens)} multiply to {math.prod(lens)} (rocMLIR: \"Upper dimension to "
                "merge must have same size as combined lower dimensions\")")
        self._add("merge", Merge, lens, ((upper_name,), (start,)), (lowers, dims),
                  list(zip(lowers, dims, lens, strict=True)))


class BottomUpMapBuilder(MapBuilder):
    """Builds a map from its lower shape up (rocMLIR's ``BottomUpTMBuilder``).

    Example (rocMLIR's ``padMatrix``, K of ``[1, 36, 320]`` padded by 28)::

        b = BottomUpMapBuilder(["gemmG", "gemmK", "gemmM"], [1, 36, 320])
        b.pass_through("gemmG")
        b.pad("gemmKPad", [0, 28], in_names="gemmK")
        b.pass_through("gemmM")
        b.get()  # <Pad{0, 28} ["gemmKPad"] at [1] -> ["gemmK"] at [1]> ... bounds = [1, 64, 320] -> ...
    """

    _direction = "bottom-up"
    _pad_sign = 1

    @classmethod
    def above(cls, previous: BottomUpMapBuilder, result: TransformMap) -> BottomUpMapBuilder:
        """A builder for the next map up: its start dims are ``previous``'s end dims, with
        ``result``'s upper bounds (``BottomUpTMBuilder::above``)."""
        return cls(*previous._next_start(result, "above"))

    def add_dim(self, name: str, dim: int, size: int) -> None:
        """An upper dim no lower coordinate depends on (``addDim``)."""
        at = integer(dim, "add_dim: dim", InvalidTransformError)
        length = integer(size, "add_dim: size", InvalidTransformError)
        self._add("add_dim", AddDim, (length,), ((), ()), ((name,), (at,)), [(name, at, length)])

    def broadcast(self, end_dims: Sequence[int], end_sizes: Sequence[int]) -> None:
        """Broadcast the lower dims at ``end_dims`` to the sizes ``end_sizes``, keeping their
        names (``broadcast``: the params are the lower sizes)."""
        dims = integers(end_dims, "broadcast: end_dims", InvalidTransformError)
        lens = integers(end_sizes, "broadcast: end_sizes", InvalidTransformError)
        if len(dims) != len(lens):
            raise InvalidTransformError(
                f"BottomUpMapBuilder.broadcast: {len(dims)} dims for {len(lens)} sizes")
        for d in dims:
            if not 0 <= d < len(self._start_names):
                raise InvalidTransformError(f"BottomUpMapBuilder.broadcast: no start dim {d} "
                                            f"(start dims: {quote_names(self._start_names)})")
        names = tuple(self._start_names[d] for d in dims)
        params = tuple(self._start_shape[d] for d in dims)
        self._add("broadcast", Broadcast, params, (names, dims), (names, dims),
                  list(zip(names, dims, lens, strict=True)))

    def slice(self, upper_names: Sequence[str], lower_names: Sequence[str], begins: Sequence[int],
              ends: Sequence[int]) -> None:
        """Take ``[begin, end)`` of each lower dim as an upper dim at the same position
        (``slice``)."""
        uppers = as_names(upper_names, "slice: upper_names")
        lowers = as_names(lower_names, "slice: lower_names")
        first = integers(begins, "slice: begins", InvalidTransformError)
        last = integers(ends, "slice: ends", InvalidTransformError)
        if not len(uppers) == len(lowers) == len(first) == len(last):
            raise InvalidTransformError(
                f"BottomUpMapBuilder.slice: {len(uppers)} upper names, {len(lowers)} lower names, "
                f"{len(first)} begins and {len(last)} ends (rocMLIR: \"Need same number of input and "
                "output dimensions in slice\")")
        dims = self._starts(lowers, "slice")
        for name, b, e, d in zip(lowers, first, last, dims, strict=True):
            if not 0 <= b <= e <= self._start_shape[d]:
                raise InvalidTransformError(
                    f"BottomUpMapBuilder.slice: [{b}, {e}) is not a slice of \"{name}\" "
                    f"(size {self._start_shape[d]})")
        params = [x for pair in zip(first, last, strict=True) for x in pair]
        defines = [(u, d, e - b) for u, d, b, e in zip(uppers, dims, first, last, strict=True)]
        self._add("slice", Slice, params, (lowers, dims), (uppers, dims), defines)

    def embed(self, upper_names: Sequence[str], upper_dims: Sequence[int], upper_sizes: Sequence[int],
              lower_name: str, coefficients: Sequence[int]) -> None:
        """``lower = sum coefficient_i * upper_i`` with the upper sizes given (``embed``)."""
        uppers = as_names(upper_names, "embed: upper_names")
        dims = integers(upper_dims, "embed: upper_dims", InvalidTransformError)
        lens = integers(upper_sizes, "embed: upper_sizes", InvalidTransformError)
        coeffs = integers(coefficients, "embed: coefficients", InvalidTransformError)
        if not len(uppers) == len(dims) == len(lens) == len(coeffs):
            raise InvalidTransformError(
                f"BottomUpMapBuilder.embed: {len(uppers)} upper names, {len(dims)} positions, "
                f"{len(lens)} sizes and {len(coeffs)} coefficients for \"{lower_name}\" (rocMLIR: "
                "\"One coefficient per upper dimension needed in merge\")")
        lower = self.start_index(lower_name, "embed")
        self._add("embed", Embed, coeffs, ((lower_name,), (lower,)), (uppers, dims),
                  list(zip(uppers, dims, lens, strict=True)))

    def unmerge(self, upper_names: Sequence[str], upper_dims: Sequence[int], lower_name: str,
                lengths: Sequence[int]) -> None:
        """Split lower dim ``lower_name`` into upper dims of the given lengths, outermost first
        (``unmerge``)."""
        uppers = as_names(upper_names, "unmerge: upper_names")
        dims = integers(upper_dims, "unmerge: upper_dims", InvalidTransformError)
        lens = integers(lengths, "unmerge: lengths", InvalidTransformError)
        kind = "BottomUpMapBuilder.unmerge"
        if not len(uppers) == len(dims) == len(lens):
            raise InvalidTransformError(
                f"{kind}: {len(uppers)} upper names, {len(dims)} positions and {len(lens)} lengths "
                "(rocMLIR: \"One length needed per upper dimension in unmerge\")")
        lower = self.start_index(lower_name, "unmerge")
        if math.prod(lens) != self._start_shape[lower]:
            raise InvalidTransformError(
                f"{kind}: lower dim \"{lower_name}\" has size {self._start_shape[lower]}, the lengths "
                f"{list(lens)} multiply to {math.prod(lens)} (rocMLIR: \"failed to partition unmerge "
                "length among upper dimensions\")")
        self._add("unmerge", Unmerge, lens, ((lower_name,), (lower,)), (uppers, dims),
                  list(zip(uppers, dims, lens, strict=True)))

    def merge(self, upper_name: str, upper_dim: int, lower_names: Sequence[str]) -> None:
        """Combine lower dims into one upper dim; the sizes are the lower dims' (``merge``)."""
        lowers = as_names(lower_names, "merge: lower_names")
        dims = self._starts(lowers, "merge")
        lens = tuple(self._start_shape[d] for d in dims)
        at = integer(upper_dim, "merge: upper_dim", InvalidTransformError)
        self._add("merge", Merge, lens, (lowers, dims), ((upper_name,), (at,)),
                  [(upper_name, at, math.prod(lens))])
