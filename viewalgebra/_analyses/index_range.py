"""Exact ranges of the index values a view computes, and whether they fit 32-bit indexing
(docs/index-range.md).

The values are the ones rocMLIR's lowering computes for a view point (the view coordinates, each
map's lower coordinates, the buffer address); ``index_range`` gives each one's least and
greatest value over the valid view points and over every point of the box, each with a view
point that reaches it: numpy over every point of a small view, ISL (``min_val`` / ``max_val``
of each quasi-affine value, then a point where it is reached) otherwise. Both are exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import islpy as isl
import numpy as np

from .._engine.budget import check_timeout, run_bounded
from .._engine.cache import AnswerCache
from .._maps.equations import affine_map_of
from .._maps.evaluate import BoolArray, IntArray, apply_array
from .._maps.relations import (
    CTX,
    affine_function,
    box,
    point_coords,
    val,
    view_function,
)
from .._maps.transform_map import TransformMap, require_meaningful
from .._maps.view import View, all_points, fits_int64, through_maps
from ..errors import InternalError, InvalidArgumentError

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
"""The range of a signed 32-bit index (rocMLIR's ``needs64BitIndices`` bound is ``INT32_MAX``)."""

ENUMERATE_LIMIT = 1 << 12
"""Views of at most this many points are answered by numpy over every point."""

ANSWERS: AnswerCache[View, IndexRange] = AnswerCache(1024)
"""Answers by view (the view is a value, so equal views share answers)."""

Method = Literal["auto", "enumerate", "isl"]


@dataclass(frozen=True, slots=True)
class Extent:
    """The least and greatest value of one index value over a set of view points, with a view
    point reaching each."""

    low: int
    high: int
    low_at: tuple[int, ...]
    """A view point where the value is ``low``."""
    high_at: tuple[int, ...]
    """A view point where the value is ``high``."""

    def fits_int32(self) -> bool:
        """Whether every value lies in ``[-2**31, 2**31 - 1]``."""
        return self.low >= INT32_MIN and self.high <= INT32_MAX


@dataclass(frozen=True, slots=True)
class IndexRange:
    """The answer of ``index_range``: the exact range of every index value a view computes, and
    whether 32-bit indexing holds them (docs/index-range.md)."""

    coordinates: tuple[tuple[Extent | None, ...], ...]
    """``coordinates[k][d]``: lower dim ``d`` after map ``k`` (top first), over the valid view
    points (``None``: the view has no valid point)."""
    box_coordinates: tuple[tuple[Extent | None, ...], ...]
    """The same over every point of the box, padding included (``None``: an empty box)."""
    address: Extent | None
    """The buffer address (docs/semantics.md, Address) over the valid view points."""
    box_address: Extent | None
    """The address formula over every point of the box (a masked access never uses it)."""
    needs_64bit: bool
    """Some counted value leaves ``[-2**31, 2**31 - 1]``: a view coordinate, a lower coordinate
    of a map at any point of the box, or the address of a valid point."""
    witness: tuple[int, ...] | None
    """A view point where the first such value (in the order above) leaves the range."""
    reason: str | None
    """Which value it is and what it reaches there, e.g. ``"map 0, lower dim 1: 2147483648"``."""

    def __str__(self) -> str:
        if not self.needs_64bit:
            return "32-bit indices suffice"
        return f"needs 64-bit indices: {self.reason} at {list(self.witness or ())}"


def index_range(view: View, *, timeout: float | None = 60.0) -> IndexRange:
    """The exact least and greatest value of every lower coordinate after every map and of the
    buffer address, over the valid view points and over the whole box, and whether a value
    leaves 32-bit signed indices (``needs_64bit``, with a witness point).

    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond). Answers are
    cached (``clear_caches``).

    Example: ``memref<2147483649xi8>`` needs 64 bits (address 2**31 at ``[2147483648]``);
    ``memref<2147483648xi8>`` does not.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"index_range: expected a View, got {view!r}")
    check_timeout(timeout, "index_range")
    cached = ANSWERS.get(view)
    if cached is not None:
        return cached
    answer = _answer(view, timeout, "auto")
    ANSWERS.put(view, answer)
    return answer


def _answer(view: View, timeout: float | None, method: Method) -> IndexRange:
    """By numpy over every point (a small view, ``"enumerate"``) or by ISL (``"isl"``)."""
    for m in view.maps:
        require_meaningful(m)
    points = math.prod(view.shape)
    if method == "enumerate" or (method == "auto" and points <= ENUMERATE_LIMIT and fits_int64(view)):
        return _enumerated(view)
    return run_bounded(_by_isl, (view,), timeout, "index_range")


def _judge(view: View, box_coordinates: tuple[tuple[Extent | None, ...], ...],
           address: Extent | None) -> tuple[bool, tuple[int, ...] | None, str | None]:
    for d, n in enumerate(view.shape):
        if n - 1 > INT32_MAX:
            return True, tuple(n - 1 if k == d else 0 for k in range(view.rank)), \
                f"view dim {d}: {n - 1}"
    for k, dims in enumerate(box_coordinates):
        for d, e in enumerate(dims):
            if e is None or e.fits_int32():
                continue
            low = e.low < INT32_MIN
            return True, e.low_at if low else e.high_at, \
                f"map {k}, lower dim {d}: {e.low if low else e.high}"
    if address is not None and not address.fits_int32():
        low = address.low < INT32_MIN
        return True, address.low_at if low else address.high_at, \
            f"address: {address.low if low else address.high}"
    return False, None, None


def _result(view: View, coordinates: tuple[tuple[Extent | None, ...], ...],
            box_coordinates: tuple[tuple[Extent | None, ...], ...], address: Extent | None,
            box_address: Extent | None) -> IndexRange:
    needs, witness, reason = _judge(view, box_coordinates, address)
    return IndexRange(coordinates, box_coordinates, address, box_address, needs, witness, reason)


# {{{ numpy


def _extent(values: IntArray, where: BoolArray, points: IntArray) -> Extent | None:
    if not where.any():
        return None
    masked = np.flatnonzero(where)
    chosen = values[masked]
    lo, hi = masked[int(np.argmin(chosen))], masked[int(np.argmax(chosen))]
    return Extent(int(values[lo]), int(values[hi]), tuple(int(c) for c in points[lo]),
                  tuple(int(c) for c in points[hi]))


def _enumerated(view: View) -> IndexRange:
    points = all_points(view.shape)
    everywhere = np.ones(len(points), dtype=np.bool_)
    per_map: list[IntArray] = []

    def apply_and_keep(m: TransformMap, c: IntArray) -> tuple[IntArray, BoolArray]:
        lower, ok = apply_array(m, c)
        per_map.append(lower)
        return lower, ok

    coords, valid = through_maps(view, points, apply_and_keep)
    addr = view.buffer.offset + coords @ np.asarray(view.buffer.strides, dtype=np.int64)
    coordinates = tuple(tuple(_extent(c[:, d], valid, points) for d in range(c.shape[1]))
                        for c in per_map)
    box_coordinates = tuple(tuple(_extent(c[:, d], everywhere, points) for d in range(c.shape[1]))
                            for c in per_map)
    return _result(view, coordinates, box_coordinates, _extent(addr, valid, points),
                   _extent(addr, everywhere, points))


# }}}


# {{{ ISL


def _isl_extent(value: isl.Aff, domain: isl.Set, rank: int) -> Extent | None:
    if domain.is_empty():
        return None
    # The set's min_val / max_val of the integer function itself: a PwAff restricted to the
    # domain would have ISL substitute the domain's equalities into it, and an equality such as
    # 2 * b = a (an Embed{1, -2} onto a size-1 dim) turns b into the rational a / 2, which ISL's
    # optimizer refuses ("expecting integer affine expression").
    low, high = domain.min_val(value).to_python(), domain.max_val(value).to_python()
    if not isinstance(low, int) or not isinstance(high, int):
        raise InternalError(f"index_range: unbounded value {value} on a bounded box (please report)")

    def reaching(v: int) -> tuple[int, ...]:
        where = value.eq_set(isl.Aff.zero_on_domain(value.get_domain_local_space())
                             .add_constant_val(val(v))) & domain
        return point_coords(where.sample_point(), rank)

    return Extent(low, high, reaching(low), reaching(high))


def _by_isl(view: View) -> IndexRange:
    rank = view.rank
    the_box = box(view.shape)
    valid = view_function(view).domain()
    comp = isl.MultiAff.identity(isl.Space.alloc(CTX, 0, rank, rank))
    coordinates: list[tuple[Extent | None, ...]] = []
    box_coordinates: list[tuple[Extent | None, ...]] = []
    for m in view.maps:
        comp = affine_function(affine_map_of(m)).pullback_multi_aff(comp)
        exprs = [comp.get_at(d) for d in range(m.lower_rank)]
        coordinates.append(tuple(_isl_extent(e, valid, rank) for e in exprs))
        box_coordinates.append(tuple(_isl_extent(e, the_box, rank) for e in exprs))
    buf = view.buffer
    ls = isl.LocalSpace.from_space(isl.Space.set_alloc(CTX, 0, buf.rank))
    addr = isl.Aff.zero_on_domain(ls).add_constant_val(val(buf.offset))
    for k, s in enumerate(buf.strides or ()):
        addr = addr.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, k).scale_val(val(s)))
    addr = addr.pullback_multi_aff(comp)
    return _result(view, tuple(coordinates), tuple(box_coordinates),
                   _isl_extent(addr, valid, rank), _isl_extent(addr, the_box, rank))


# }}}
