"""Which view points are invalid, which view dims decide it, and which bound checks are needed,
all exact (docs/validity.md).

A view point is valid when every lower coordinate of every map lies in ``[0, bound)``
(docs/semantics.md, Validity). Here every lower dim of every map is a *check*; ``validity``
answers which view dims the outcome depends on, the invalid set (its size and a point of it),
and for each check and each map whether dropping it would change the valid set, each with a
witness point: numpy over every point of a small view, ISL otherwise. Both are exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import islpy as isl
import numpy as np

from .._engine.budget import check_timeout, isl_errors, run_bounded
from .._engine.cache import AnswerCache
from .._maps.equations import affine_map_of
from .._maps.evaluate import BoolArray, IntArray, apply_array
from .._maps.relations import CTX, affine_function, box, point_coords, upper_box, val, valid_set
from .._maps.transform_map import require_meaningful
from .._maps.view import View, all_points, fits_int64
from ..errors import InternalError, InvalidArgumentError

ENUMERATE_LIMIT = 1 << 12
"""Views of at most this many points are answered by numpy over every point."""

ANSWERS: AnswerCache[tuple[View, bool], Validity] = AnswerCache(1024)
"""Answers by view and whether points were counted (views are values: equal views share answers)."""

Method = Literal["auto", "enumerate", "isl"]
CheckKind = Literal["needed", "implied", "never fails"]
Key = tuple[int, int]
"""A check by ``(map index, lower dim)``; map 0 is the top map."""


@dataclass(frozen=True, slots=True)
class CheckNeed:
    """Whether one check, ``0 <= lower[dim] < bound`` after map ``map_index``, is needed.

    ``needed``: some view point fails this check and no other one (dropping the check would
    make it valid). ``implied``: the check fails somewhere, but every point where it fails
    fails another check too (``implied_by`` lists every other check failing at some such
    point). ``never fails``: no point of the box leaves the bound here.
    """

    map_index: int
    dim: int
    bound: int
    """The map's lower bound, or the narrower extent of the space below in a lenient view."""
    kind: CheckKind
    point: tuple[int, ...] | None
    """``needed``: a view point invalid through this check alone; ``implied``: a view point
    where it fails; ``never fails``: ``None``."""
    value: int | None
    """The lower coordinate at ``point``."""
    implied_by: tuple[Key, ...] = ()

    @property
    def needed(self) -> bool:
        return self.kind == "needed"

    def __str__(self) -> str:
        head = f"map {self.map_index}, lower dim {self.dim} (bound {self.bound}): {self.kind}"
        if self.kind == "needed":
            return f"{head}, e.g. {list(self.point or ())} (value {self.value})"
        if self.kind == "implied":
            return f"{head} by {', '.join(f'map {k} dim {d}' for k, d in self.implied_by)}"
        return head


@dataclass(frozen=True, slots=True)
class MapNeed:
    """Whether a map needs any check: some view point fails a check of this map and none of
    the other maps' checks (``point``: one such point)."""

    map_index: int
    needed: bool
    point: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class DimImpact:
    """Whether validity depends on one view dim: two points of the box that differ only in
    this dim, one valid (``valid_point``) and one invalid (``invalid_point``)."""

    dim: int
    matters: bool
    valid_point: tuple[int, ...] | None
    invalid_point: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Validity:
    """The answer of ``validity`` (docs/validity.md).

    Example: ``Embed{1, 1}`` over ``[10, 10] -> [12]`` has 28 invalid points of 100, both view
    dims matter, and its one check (map 0, lower dim 0) is needed, e.g. at ``[3, 9]``.
    """

    shape: tuple[int, ...]
    points: int
    """Points of the box."""
    invalid_count: int | None
    """Invalid points of the box (``None``: not counted, ``validity(..., count=False)``)."""
    witness: tuple[int, ...] | None
    """An invalid point (``None``: every point is valid)."""
    dims: tuple[DimImpact, ...]
    """One per view dim."""
    checks: tuple[tuple[CheckNeed, ...], ...]
    """``checks[k][d]``: lower dim ``d`` of map ``k`` (top first)."""
    maps: tuple[MapNeed, ...]
    """One per map (top first)."""
    sufficient: tuple[Key, ...]
    """Checks that together decide validity exactly: from the last check of the bottom map up,
    each check is dropped when the checks still kept reject every point where it fails. It
    holds every needed check; ``kind`` judges each check against all the others, so two checks
    that fail at the same points are both ``implied`` while one of them stays here."""

    @property
    def impacting_dims(self) -> tuple[int, ...]:
        """The view dims validity depends on."""
        return tuple(d.dim for d in self.dims if d.matters)

    @property
    def needed_checks(self) -> tuple[Key, ...]:
        """``(map, lower dim)`` of every needed check."""
        return tuple((c.map_index, c.dim) for dims in self.checks for c in dims if c.needed)

    def __str__(self) -> str:
        if self.points == 0:
            return "no point: a dim of the view has size 0"
        if self.witness is None:
            return f"every one of the {self.points} points is valid"
        how_many = "some" if self.invalid_count is None else str(self.invalid_count)
        return (f"{how_many} of {self.points} points invalid (e.g. {list(self.witness)}); "
                f"view dims {list(self.impacting_dims)} matter; needed checks (map, dim): "
                f"{[list(k) for k in self.needed_checks]}")


def validity(view: View, *, count: bool = True, timeout: float | None = 60.0) -> Validity:
    """Which view dims can make a point invalid, how many points are invalid (with one), and
    which bound checks, per map and per lower dim, are needed (each with a witness point).

    ``count=False`` leaves ``invalid_count`` out (``None``): counting the points of a large view
    with Merges can take seconds, everything else takes milliseconds. ISL work is bounded by
    ``timeout`` seconds (``QueryTimeoutError`` beyond). Answers are cached (``clear_caches``).

    Example: ``<Pad{1, 7} ["pad"] at [0] -> ["raw"] at [0]>`` over ``[16] -> [8]`` (rocMLIR's
    ``bounds_check_pad_left``): 8 invalid points, dim 0 matters, the check of map 0 lower
    dim 0 is needed.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"validity: expected a View, got {view!r}")
    check_timeout(timeout, "validity")
    cached = ANSWERS.get((view, count))
    if cached is not None:
        return cached
    answer = answer_by(view, timeout, "auto", count=count)
    ANSWERS.put((view, count), answer)
    return answer


def invalid_set(view: View) -> isl.Set:
    """The invalid points of the view's box as an ISL set (built in this process, unbounded).

    Example: for ``Pad{2, 1}`` over ``[7] -> [4]`` it is ``{ [i0] : i0 <= 1 or i0 = 6 }``
    within the box.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"invalid_set: expected a View, got {view!r}")
    for m in view.maps:
        require_meaningful(m)
    with isl_errors("invalid_set"):
        return upper_box(view).subtract(valid_set(view))


def answer_by(view: View, timeout: float | None, method: Method, *, count: bool = True) -> Validity:
    """By numpy over every point (a small view, ``"enumerate"``) or by ISL (``"isl"``)."""
    for m in view.maps:
        require_meaningful(m)
    if method == "enumerate" or (method == "auto" and math.prod(view.shape) <= ENUMERATE_LIMIT
                                 and fits_int64(view)):
        answer = _enumerated(view)
        return answer if count else replace(answer, invalid_count=None)
    return run_bounded(_by_isl, (view, count), timeout, "validity")


def bounds(view: View) -> tuple[tuple[int, ...], ...]:
    """The bound of every check: each map's lower bound, or the narrower extent of the space
    below it in a lenient view (docs/semantics.md, Validity)."""
    below = [m.upper_bounds for m in view.maps[1:]] + [view.buffer.shape][:len(view.maps)]
    return tuple(tuple(min(n, b) for n, b in zip(m.lower_bounds, under, strict=True))
                 for m, under in zip(view.maps, below, strict=True))


# {{{ numpy


def fails_array(view: View, points: IntArray) -> tuple[list[Key], list[BoolArray], list[IntArray]]:
    """For every check: its key, where it fails and the coordinate, at the given view points."""
    keys: list[Key] = []
    fails: list[BoolArray] = []
    values: list[IntArray] = []
    coords = points
    for k, (m, bs) in enumerate(zip(view.maps, bounds(view), strict=True)):
        coords, _ = apply_array(m, coords)
        for d, b in enumerate(bs):
            c = coords[:, d]
            keys.append((k, d))
            fails.append((c < 0) | (c >= b))
            values.append(c)
    return keys, fails, values


def sufficient_array(keys: list[Key], fails: list[BoolArray]) -> tuple[Key, ...]:
    """The checks kept when, from the last one back, each is dropped if the kept others fail
    wherever it fails (checks that never fail are dropped)."""
    kept = [i for i, f in enumerate(fails) if f.any()]
    for i in reversed(list(kept)):
        others = [fails[o] for o in kept if o != i]
        if others and not (fails[i] & ~np.logical_or.reduce(others)).any():
            kept.remove(i)
    return tuple(keys[i] for i in kept)


def _enumerated(view: View) -> Validity:
    points = all_points(view.shape)
    n = len(points)
    keys, fails, values = fails_array(view, points)
    count = np.zeros(n, dtype=np.int64)
    for f in fails:
        count += f
    invalid = count > 0
    per_map = {k: np.zeros(n, dtype=np.bool_) for k in range(len(view.maps))}
    for (k, _), f in zip(keys, fails, strict=True):
        per_map[k] |= f

    def at(where: BoolArray) -> tuple[int, ...] | None:
        if not where.any():
            return None
        return tuple(int(c) for c in points[int(np.argmax(where))])

    checks: list[list[CheckNeed]] = [[] for _ in view.maps]
    all_bounds = bounds(view)
    for i, ((k, d), f, v) in enumerate(zip(keys, fails, values, strict=True)):
        bound = all_bounds[k][d]
        alone = f & (count == 1)
        if alone.any():
            j = int(np.argmax(alone))
            checks[k].append(CheckNeed(k, d, bound, "needed", at(alone), int(v[j])))
        elif f.any():
            j = int(np.argmax(f))
            others = tuple(key for o, (key, g) in enumerate(zip(keys, fails, strict=True))
                           if o != i and (g & f).any())
            checks[k].append(CheckNeed(k, d, bound, "implied", at(f), int(v[j]), others))
        else:
            checks[k].append(CheckNeed(k, d, bound, "never fails", None, None))
    maps: list[MapNeed] = []
    for k in range(len(view.maps)):
        mine = per_map[k]
        elsewhere = np.zeros(n, dtype=np.bool_)
        for j, f in per_map.items():
            if j != k:
                elsewhere |= f
        point = at(mine & ~elsewhere)
        maps.append(MapNeed(k, point is not None, point))
    grid = invalid.reshape(view.shape)
    dims: list[DimImpact] = []
    for d in range(view.rank):
        if n == 0:
            # A size-0 dim: no point, so no two points differ in validity along any dim.
            dims.append(DimImpact(d, False, None, None))
            continue
        first = np.take(grid, [0], axis=d)
        differs = (grid != first).reshape(-1)
        if not differs.any():
            dims.append(DimImpact(d, False, None, None))
            continue
        p = tuple(int(c) for c in points[int(np.argmax(differs))])
        q = tuple(0 if i == d else c for i, c in enumerate(p))
        bad, good = (p, q) if invalid.reshape(view.shape)[p] else (q, p)
        dims.append(DimImpact(d, True, good, bad))
    return Validity(view.shape, n, int(invalid.sum()), at(invalid), tuple(dims),
                    tuple(tuple(c) for c in checks), tuple(maps), sufficient_array(keys, fails))


# }}}


# {{{ ISL


def coordinate_affs(view: View) -> list[tuple[Key, isl.Aff, int]]:
    """Every check as ``(key, coordinate as a quasi-affine function of the view point, bound)``."""
    comp = isl.MultiAff.identity(isl.Space.alloc(CTX, 0, view.rank, view.rank))
    out: list[tuple[Key, isl.Aff, int]] = []
    for k, (m, bs) in enumerate(zip(view.maps, bounds(view), strict=True)):
        comp = affine_function(affine_map_of(m)).pullback_multi_aff(comp)
        out.extend(((k, d), comp.get_at(d), b) for d, b in enumerate(bs))
    return out


def pass_set(aff: isl.Aff, bound: int) -> isl.Set:
    """``{ u : 0 <= aff(u) < bound }``."""
    zero = isl.Aff.zero_on_domain(aff.get_domain_local_space())
    return aff.ge_set(zero) & aff.lt_set(zero.add_constant_val(val(bound)))


def fail_set(aff: isl.Aff, bound: int, the_box: isl.Set) -> isl.Set:
    """``{ u in box : aff(u) < 0 or aff(u) >= bound }``."""
    zero = isl.Aff.zero_on_domain(aff.get_domain_local_space())
    return (aff.lt_set(zero) | aff.ge_set(zero.add_constant_val(val(bound)))) & the_box


def sample(s: isl.Set, rank: int) -> tuple[int, ...] | None:
    """A point of ``s``, or ``None`` if it is empty."""
    if s.is_empty():
        return None
    return point_coords(s.sample_point(), rank)


def value_at(aff: isl.Aff, point: tuple[int, ...]) -> int:
    """The value of a quasi-affine function at an integer point."""
    p = isl.Point.zero(aff.get_domain_space())
    for i, c in enumerate(point):
        p = p.set_coordinate_val(isl.dim_type.set, i, val(c))
    v = isl.PwAff.from_aff(aff).eval(p).to_python()
    if not isinstance(v, int):
        raise InternalError(f"validity: {aff} has no integer value at {list(point)} (please report)")
    return v


def _by_isl(view: View, count_them: bool) -> Validity:
    rank = view.rank
    the_box = box(view.shape)
    checks = coordinate_affs(view)
    fails = [fail_set(a, b, the_box) for _, a, b in checks]
    passes = [pass_set(a, b) for _, a, b in checks]
    can_fail = [not f.is_empty() for f in fails]

    # Points passing every check outside indices [start, stop) (checks are ordered by map):
    # prefix and suffix intersections make each such set one intersection away.
    n = len(checks)
    prefix = [the_box]
    for i in range(n):
        prefix.append(prefix[-1] & passes[i] if can_fail[i] else prefix[-1])
    suffix = [isl.Set.universe(the_box.get_space())] * (n + 1)
    for i in reversed(range(n)):
        suffix[i] = suffix[i + 1] & passes[i] if can_fail[i] else suffix[i + 1]

    def passing_outside(start: int, stop: int) -> isl.Set:
        return prefix[start] & suffix[stop]

    valid = prefix[n]
    invalid = isl.Set.empty(the_box.get_space())
    for i, ok in enumerate(can_fail):
        if ok:
            invalid = invalid | fails[i]
    total = math.prod(view.shape)
    sufficient = sufficient_isl([key for key, _, _ in checks], fails, passes, the_box)

    out: list[list[CheckNeed]] = [[] for _ in view.maps]
    for i, ((k, d), aff, bound) in enumerate(checks):
        if not can_fail[i]:
            out[k].append(CheckNeed(k, d, bound, "never fails", None, None))
            continue
        alone = sample(fails[i] & passing_outside(i, i + 1), rank)
        if alone is not None:
            out[k].append(CheckNeed(k, d, bound, "needed", alone, value_at(aff, alone)))
            continue
        point = sample(fails[i], rank)
        if point is None:
            raise InternalError("validity: a failing check with no point (please report)")
        others = tuple(checks[o][0] for o in range(len(checks))
                       if o != i and can_fail[o] and not (fails[o] & fails[i]).is_empty())
        out[k].append(CheckNeed(k, d, bound, "implied", point, value_at(aff, point), others))

    maps: list[MapNeed] = []
    for k in range(len(view.maps)):
        mine = [i for i, ((j, _), _, _) in enumerate(checks) if j == k]
        own = isl.Set.empty(the_box.get_space())
        for i in mine:
            if can_fail[i]:
                own = own | fails[i]
        point = sample(own & passing_outside(mine[0], mine[-1] + 1), rank) if mine else None
        maps.append(MapNeed(k, point is not None, point))

    dims: list[DimImpact] = []
    for d in range(rank):
        rows = (valid.project_out(isl.dim_type.set, d, 1)
                & invalid.project_out(isl.dim_type.set, d, 1))
        row = sample(rows, rank - 1)
        if row is None:
            dims.append(DimImpact(d, False, None, None))
            continue
        good, bad = valid, invalid
        for i, c in enumerate(row):
            at = i if i < d else i + 1
            good = good.fix_val(isl.dim_type.set, at, val(c))
            bad = bad.fix_val(isl.dim_type.set, at, val(c))
        dims.append(DimImpact(d, True, sample(good, rank), sample(bad, rank)))

    # Validity does not change along a dim that does not matter, so the valid set is its slice
    # at 0 there times that dim's size: counting the slice is far cheaper.
    counted, factor = valid, 1
    for impact in dims:
        if not impact.matters:
            counted = counted.fix_val(isl.dim_type.set, impact.dim, val(0))
            factor *= view.shape[impact.dim]
    count = None if not count_them else total - count_points(counted) * factor if sufficient else 0
    return Validity(view.shape, total, count, sample(invalid, rank), tuple(dims),
                    tuple(tuple(c) for c in out), tuple(maps), sufficient)


def sufficient_isl(keys: list[Key], fails: list[isl.Set], passes: list[isl.Set],
                   the_box: isl.Set) -> tuple[Key, ...]:
    """``sufficient_array`` with ISL sets: ``fails[i]`` within the box, ``passes[i]`` its
    complement."""
    kept = [i for i, f in enumerate(fails) if not f.is_empty()]
    for i in reversed(list(kept)):
        rest = the_box
        for o in kept:
            if o != i:
                rest = rest & passes[o]
        if len(kept) > 1 and (fails[i] & rest).is_empty():
            kept.remove(i)
    return tuple(keys[i] for i in kept)


def count_points(s: isl.Set) -> int:
    n = s.count_val().to_python()
    if not isinstance(n, int):
        raise InternalError(f"validity: an unbounded count {n} on a bounded box (please report)")
    return n


# }}}
