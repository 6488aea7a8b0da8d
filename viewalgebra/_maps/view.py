"""``View``: a buffer seen through a chain of transform maps, listed top (view side) first.

See docs/semantics.md, Direction and composition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .._engine.cache import on_clear
from ..errors import InvalidTransformError, TooComplexError
from .buffer import Buffer
from .equations import affine_map_of, validity_checks
from .evaluate import (
    INT64_MAX,
    BoolArray,
    IntArray,
    apply_array,
    check_coords,
    check_masks,
    evaluate,
    evaluate_array,
    lower_columns,
    lower_dependencies,
    magnitude,
    points_array,
    require_int64,
)
from .transform_map import TransformMap, require_meaningful


@dataclass(frozen=True, slots=True)
class View:
    """``view[u] = buffer[M_bottom(...M_top(u))]`` with ``maps = (M_top, ..., M_bottom)``.

    Example: ``View(Buffer((8, 4)), [transpose])`` where ``transpose`` maps ``[4, 8] -> [8, 4]``.
    Each map's lower bounds must equal the next map's upper bounds and the last map's lower
    bounds the buffer's shape; ``strict=False`` only requires the ranks to agree (rocMLIR's own
    tests contain such views).
    """

    buffer: Buffer
    maps: tuple[TransformMap, ...] = ()
    strict: bool = field(default=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.buffer, Buffer):
            raise InvalidTransformError(f"View needs a Buffer, got {self.buffer!r}")
        if isinstance(self.maps, TransformMap):  # one map: unambiguous
            object.__setattr__(self, "maps", (self.maps,))
        if isinstance(self.maps, str) or not isinstance(self.maps, Sequence):
            raise InvalidTransformError(
                f"View maps must be TransformMaps listed top first, got {self.maps!r}")
        maps = tuple(self.maps)
        for m in maps:
            if not isinstance(m, TransformMap):
                raise InvalidTransformError(f"View maps must be TransformMaps, got {m!r}")
        object.__setattr__(self, "maps", maps)
        for k, (upper, lower) in enumerate(self.links()):
            what = ("buffer shape" if k == len(maps) - 1 else f"upper bounds of map {k + 1}")
            if len(upper) != len(lower):
                raise InvalidTransformError(
                    f"View: lower rank of map {k} ({len(upper)}) != rank of {what} ({len(lower)})")
            if self.strict and upper != lower:
                raise InvalidTransformError(
                    f"View: lower bounds of map {k} {list(upper)} != {what} {list(lower)}")

    def links(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(lower bounds of map k, the shape of the space below it) for every map."""
        below = [m.upper_bounds for m in self.maps[1:]] + [self.buffer.shape]
        return [(m.lower_bounds, b) for m, b in zip(self.maps, below, strict=False)]

    def narrow_links(self) -> tuple[tuple[int, int, int], ...]:
        """``(k, d, bound)`` wherever the space below map ``k`` is narrower along ``d`` than the
        map's lower bounds (only in a lenient view): a point whose coordinate there reaches
        ``bound`` is invalid (docs/semantics.md, Validity)."""
        return tuple((k, d, b) for k, (lower, below) in enumerate(self.links())
                     for d, (n, b) in enumerate(zip(lower, below, strict=True)) if b < n)

    @property
    def shape(self) -> tuple[int, ...]:
        """The view's shape: the top map's upper bounds (the buffer's shape with no maps)."""
        return self.maps[0].upper_bounds if self.maps else self.buffer.shape

    @property
    def rank(self) -> int:
        return len(self.shape)

    def address(self, coords: Sequence[int]) -> int | None:
        """The buffer address of a view point, or ``None`` if the point is invalid (padding).

        Example: through ``Merge{4, 8}`` + PassThrough over ``memref<4x5x8xf32>``,
        ``address((9, 3)) == 1*40 + 3*8 + 1 == 65``.
        """
        point = check_coords(coords, self.shape, "View.address")
        narrow = self.narrow_links()
        for k, m in enumerate(self.maps):
            point, valid = evaluate(m, point)
            if not valid or any(point[d] >= b for j, d, b in narrow if j == k):
                return None
        return self.buffer.address(point)

    def addresses(self) -> tuple[IntArray, BoolArray]:
        """Every point's address and validity, by numpy enumeration (the brute-force oracle).

        Returns two arrays of the view's shape; invalid points hold address -1.
        """
        points = all_points(self.shape)
        # The bounds prove most views fit 64-bit integers once; the others are checked per map.
        addr, valid = (addresses_in_box if fits_int64(self) else addresses_of)(self, points)
        return addr.reshape(self.shape), valid.reshape(self.shape)


def all_points(shape: Sequence[int]) -> IntArray:
    """Every point of the box ``shape`` in row-major order, as an ``(N, rank)`` array."""
    if not shape:
        return np.zeros((1, 0), dtype=np.int64)
    grids = np.indices(tuple(shape), dtype=np.int64)
    return grids.reshape(len(shape), -1).T.copy()


def addresses_of(view: View, points: IntArray) -> tuple[IntArray, BoolArray]:
    """Addresses (-1 where invalid) and validity of the given view points, shape ``(N, rank)``."""
    coords, valid = through_maps(view, points_array(points, view.rank, "addresses_of"), evaluate_array)
    if len(coords):
        largest = np.abs(coords).max(axis=0).tolist()
        require_int64([abs(view.buffer.offset) + sum(
            abs(s) * c for s, c in zip(view.buffer.strides or (), largest, strict=True))],
            "addresses_of")
    strides = np.asarray(view.buffer.strides, dtype=np.int64)
    addr = view.buffer.offset + coords @ strides
    return np.where(valid, addr, -1), valid


def through_maps(view: View, coords: IntArray,
                  apply: Callable[[TransformMap, IntArray], tuple[IntArray, BoolArray]]
                  ) -> tuple[IntArray, BoolArray]:
    """Buffer coordinates and validity of view points, each map applied by ``apply``; a lenient
    view's narrower spaces below its maps (``View.narrow_links``) count too."""
    valid = np.ones(coords.shape[0], dtype=np.bool_)
    narrow = view.narrow_links()
    for k, m in enumerate(view.maps):
        coords, ok = apply(m, coords)
        valid &= ok
        for _, d, b in (link for link in narrow if link[0] == k):
            valid &= coords[:, d] < b
    return coords, valid


def addresses_in_box(view: View, points: IntArray) -> tuple[IntArray, BoolArray]:
    """``addresses_of`` for an ``(N, rank)`` array of points of the view's box, checked once per
    view (from the bounds, not from the points) instead of per map and call; ``ViewAlgebraError``
    where the bounds let a value leave 64-bit integers (``addresses_of`` may still evaluate it)."""
    if not fits_int64(view):
        raise TooComplexError("addresses_in_box: values can leave 64-bit integers")
    coords, valid = through_maps(view, points, apply_array)
    addr = view.buffer.offset + coords @ np.asarray(view.buffer.strides, dtype=np.int64)
    return np.where(valid, addr, -1), valid


def addresses_on_grid(view: View, columns: Sequence[IntArray]) -> tuple[IntArray, BoolArray]:
    """``addresses_in_box`` of the points of a grid: one array of coordinates per view dim, of
    values inside the box, broadcastable against each other; the results have the shape they
    broadcast to. Each map is applied by ``lower_columns``, so work that depends on a few dims
    is done once per value of those dims, not once per point."""
    addr, masks = grid_checks(view, columns)
    shape = np.broadcast_shapes(*(c.shape for c in columns))
    valid = np.ones((1,) * len(shape), dtype=np.bool_)
    for mask in masks:
        valid = valid & mask
    valid = np.broadcast_to(valid, shape)
    return np.where(valid, addr, -1), valid


def grid_checks(view: View, columns: Sequence[IntArray]) -> tuple[IntArray, list[BoolArray]]:
    """The address of every point of a grid (as ``addresses_on_grid``, also where invalid) and
    where each validity check holds, in the order of ``check_dependencies``: each map's checks
    (``validity_checks``), then those of a lenient view's narrower space below it."""
    if not fits_int64(view):
        raise TooComplexError("addresses_on_grid: values can leave 64-bit integers")
    ndim = max((c.ndim for c in columns), default=0)
    coords = list(columns)
    masks: list[BoolArray] = []
    narrow = view.narrow_links()
    for k, m in enumerate(view.maps):
        coords = lower_columns(m, coords)
        masks += check_masks(m, coords)
        masks += [coords[d] < b for j, d, b in narrow if j == k]
    addr: IntArray = np.full((1,) * ndim, view.buffer.offset, dtype=np.int64)
    for c, s in zip(coords, view.buffer.strides or (), strict=True):
        if s:
            addr = addr + c * s
    return addr, masks


@lru_cache(maxsize=1024)
def check_dependencies(view: View) -> tuple[tuple[frozenset[int], ...], tuple[frozenset[int], ...]]:
    """Which view dims each term of the address (each buffer coordinate with a non-zero stride)
    and each validity check (in ``grid_checks``'s order) can depend on."""
    deps = [frozenset((k,)) for k in range(view.rank)]
    checks: list[frozenset[int]] = []
    narrow = view.narrow_links()
    for k, m in enumerate(view.maps):
        deps = lower_dependencies(m, deps)
        checks += [deps[c.dim] for c in validity_checks(m)]
        checks += [deps[d] for j, d, _ in narrow if j == k]
    terms = tuple(d for d, s in zip(deps, view.buffer.strides or (), strict=True) if s)
    return terms, tuple(checks)


@lru_cache(maxsize=1024)
def fits_int64(view: View) -> bool:
    """Whether every coordinate and address of every point of the box fits 64-bit integers: each
    map's results bounded from the bounds of its inputs, starting from the box."""
    for m in view.maps:
        require_meaningful(m)
    largest = [max(n - 1, 0) for n in view.shape]
    for m in view.maps:
        largest = [magnitude(e, largest) for e in affine_map_of(m).results]
        if any(x > INT64_MAX for x in largest):
            return False
    strides = view.buffer.strides or ()
    address = abs(view.buffer.offset) + sum(abs(s) * x for s, x in zip(strides, largest, strict=True))
    return address <= INT64_MAX


on_clear(fits_int64.cache_clear)
on_clear(check_dependencies.cache_clear)
