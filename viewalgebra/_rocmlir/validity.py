"""A port of rocMLIR's validity rule, and its comparison with the exact answer (docs/validity.md).

rocMLIR masks a view point with bound checks emitted per map (ROCm/rocMLIR,
``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``):

* ``rocmlir_embed_can_be_invalid`` is ``embedCanBeInvalid``: some coefficient is negative, or
  ``upper_bound[u_i] * c_i > lower_bound`` for some term (a per-term test);
* ``rocmlir_map_impacts_validity`` is ``mapImpactsValidity``: a Pad with a non-zero amount pair,
  or an Embed that can be invalid;
* ``rocmlir_validity_checks`` lists the lower dims ``updateValidityAfter`` checks with
  ``lower <u lower_bound``: every Pad lower dim with a non-zero pair, the lower dim of every
  Embed that can be invalid;
* ``rocmlir_validity_impacting_upper_dims`` is ``validityImpactingUpperDims`` of rocmlirTriton
  (``mlir/lib/Dialect/Rock/Transforms/TransformsInvariantCodeMotion.cpp`` in ROCm/rocmlirTriton),
  and ``rocmlir_impacting_view_dims`` follows its ``maskDependsOnIv`` to the view dims.

``compare_validity`` names every coordinate rocMLIR lets leave its bound at a point it treats
as valid (unsafe, with that point) and every check it emits that never fails or that other
emitted checks imply (cost). Numpy over every point of a small view, ISL otherwise; both exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .._analyses.validity import (
    ENUMERATE_LIMIT,
    DimImpact,
    Key,
    Validity,
    answer_by,
    bounds,
    coordinate_affs,
    count_points,
    fail_set,
    fails_array,
    pass_set,
    sample,
    sufficient_array,
    sufficient_isl,
    validity,
    value_at,
)
from .._engine.budget import check_timeout, run_bounded
from .._engine.cache import AnswerCache
from .._maps import affine as A
from .._maps.equations import affine_map_of
from .._maps.relations import box
from .._maps.transform_map import TransformMap, require_meaningful
from .._maps.transforms import Embed, Pad
from .._maps.view import View, all_points, fits_int64
from ..errors import InternalError, InvalidArgumentError, RocmlirRuleError

__all__ = [
    "MissedDim",
    "NeedlessCheck",
    "UncheckedAccess",
    "ValidityComparison",
    "compare_validity",
    "rocmlir_embed_can_be_invalid",
    "rocmlir_impacting_view_dims",
    "rocmlir_map_impacts_validity",
    "rocmlir_validity_checks",
    "rocmlir_validity_impacting_upper_dims",
    "rocmlir_view_checks",
]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

COMPARISONS: AnswerCache[tuple[View, bool], ValidityComparison] = AnswerCache(1024)

Verdict = Literal["equal", "rocMLIR conservative", "rocMLIR unsound"]


# {{{ the port


def rocmlir_embed_can_be_invalid(tm: TransformMap, op: Embed) -> bool:
    """rocMLIR's ``embedCanBeInvalid``: a negative coefficient, or a term whose
    ``upper_bound * coefficient`` exceeds the lower bound (each term on its own).

    Example: ``Embed{1, 1}`` over ``[10, 10] -> [12]`` is judged never invalid (10 <= 12 for
    both terms), though ``9 + 9 = 18`` leaves the bound.
    """
    if not isinstance(op, Embed) or op not in tm.ops:
        raise InvalidArgumentError(f"rocmlir_embed_can_be_invalid: {op!r} is not an Embed of the map")
    require_meaningful(tm)
    lower_bound = tm.lower_bounds[op.lower_dims[0]]
    for c, u in zip(op.params, op.upper_dims, strict=True):
        product = tm.upper_bounds[u] * c
        if not INT64_MIN <= product <= INT64_MAX:
            raise RocmlirRuleError(
                f"embedCanBeInvalid: {tm.upper_bounds[u]} * {c} overflows int64 (undefined in rocMLIR)")
        if c < 0 or product > lower_bound:
            return True
    return False


def rocmlir_map_impacts_validity(tm: TransformMap) -> bool:
    """rocMLIR's ``mapImpactsValidity``: a Pad with a non-zero ``(left, right)`` pair, or an
    Embed that ``embedCanBeInvalid``.

    Example: ``Pad{0, 0}`` does not; ``Pad{0, 8}`` over ``[16] -> [8]`` does.
    """
    return bool(rocmlir_validity_checks(tm))


def rocmlir_validity_checks(tm: TransformMap) -> tuple[int, ...]:
    """The lower dims rocMLIR's ``updateValidityAfter`` checks (``lower <u lower_bound``), in
    the order it emits them; empty when ``mapImpactsValidity`` is false.

    Example: ``<Pad{1, 7} ["pad"] at [0] -> ["raw"] at [0]>`` over ``[16] -> [8]`` gives ``(0,)``
    (rocMLIR's ``bounds_check_pad_left`` test).
    """
    if not isinstance(tm, TransformMap):
        raise InvalidArgumentError(f"rocmlir_validity_checks: expected a TransformMap, got {tm!r}")
    require_meaningful(tm)
    dims: list[int] = []
    for op in tm.ops:
        if isinstance(op, Pad):
            dims.extend(d for d, (left, right) in zip(op.lower_dims, op.amounts, strict=True)
                        if (left, right) != (0, 0))
        elif isinstance(op, Embed) and rocmlir_embed_can_be_invalid(tm, op):
            dims.append(op.lower_dims[0])
    return tuple(dims)


def rocmlir_validity_impacting_upper_dims(tm: TransformMap) -> tuple[int, ...]:
    """rocmlirTriton's ``validityImpactingUpperDims``: the upper dims of every Pad dim with a
    non-zero pair and every upper dim of an Embed that can be invalid.

    Example: ``Embed{2, 0}`` over ``[4, 3] -> [6]`` gives ``(0, 1)``: the dim with coefficient
    0 too.
    """
    if not isinstance(tm, TransformMap):
        raise InvalidArgumentError(
            f"rocmlir_validity_impacting_upper_dims: expected a TransformMap, got {tm!r}")
    require_meaningful(tm)
    dims: list[int] = []
    for op in tm.ops:
        if isinstance(op, Pad):
            dims.extend(u for u, (left, right) in zip(op.upper_dims, op.amounts, strict=True)
                        if (left, right) != (0, 0))
        elif isinstance(op, Embed) and rocmlir_embed_can_be_invalid(tm, op):
            dims.extend(op.upper_dims)
    return tuple(dims)


def rocmlir_impacting_view_dims(view: View) -> tuple[int, ...]:
    """The view dims rocmlirTriton's ``maskDependsOnIv`` finds the mask depending on: for every
    map that impacts validity and each of its ``validityImpactingUpperDims``, the view dims the
    composed expression of that upper dim mentions (``isFunctionOfDim``).

    The expressions are the ones compiled from the ops, composed without MLIR's algebraic
    simplification, so a dim MLIR's simplifier cancels (``(d0 * 4 + d1) mod 4``) is still
    named here: this set contains rocMLIR's.

    Example: ``Pad{0, 8}`` below a transpose ``[4, 16] -> [16, 4]`` gives ``(1,)``.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"rocmlir_impacting_view_dims: expected a View, got {view!r}")
    env: list[frozenset[int]] = [frozenset((d,)) for d in range(view.rank)]
    found: set[int] = set()
    for m in view.maps:
        require_meaningful(m)
        for u in rocmlir_validity_impacting_upper_dims(m):
            found |= env[u]
        env = [frozenset().union(*(env[u] for u in _dims_of(e)))
               for e in affine_map_of(m).results]
    return tuple(sorted(found))


def _dims_of(e: A.AffineExpr) -> set[int]:
    if isinstance(e, A.DimExpr):
        return {e.index}
    if isinstance(e, A.ConstExpr):
        return set()
    return _dims_of(e.lhs) | _dims_of(e.rhs)


def rocmlir_view_checks(view: View) -> tuple[tuple[int, ...], ...]:
    """``rocmlir_validity_checks`` of every map of the view, top first.

    Example: a transpose over ``Pad{0, 8}`` over ``[16, 4] -> [8, 4]`` gives ``((), (0,))``.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"rocmlir_view_checks: expected a View, got {view!r}")
    return tuple(rocmlir_validity_checks(m) for m in view.maps)


# }}}
# {{{ the comparison


@dataclass(frozen=True, slots=True)
class UncheckedAccess:
    """A lower coordinate that leaves its bound at a point rocMLIR treats as valid: rocMLIR
    reads or writes there (a wrong element, or outside the buffer)."""

    map_index: int
    dim: int
    bound: int
    point: tuple[int, ...]
    """A view point that passes every check rocMLIR emits."""
    value: int
    """The coordinate there."""
    emitted: bool
    """rocMLIR checks this coordinate, but against the map's wider lower bound (a lenient view
    whose space below is narrower)."""

    def __str__(self) -> str:
        how = "checked only against the map's wider bound" if self.emitted else "never checked"
        return (f"map {self.map_index}, lower dim {self.dim}: {self.value} leaves [0, {self.bound}) "
                f"at {list(self.point)} ({how})")


@dataclass(frozen=True, slots=True)
class NeedlessCheck:
    """A check rocMLIR emits that could be dropped without changing what it masks."""

    map_index: int
    dim: int
    bound: int
    kind: Literal["never fails", "implied"]
    """``never fails``: no point of the box leaves the bound; ``implied``: dropped, from the
    last emitted check back, because the emitted checks still kept reject every point where it
    fails (``implied_by``: the kept ones failing at some such point). Every needless check can
    be dropped together."""
    point: tuple[int, ...] | None
    """``implied``: a point where it fails."""
    implied_by: tuple[Key, ...] = ()

    def __str__(self) -> str:
        head = f"map {self.map_index}, lower dim {self.dim} (bound {self.bound}): {self.kind}"
        if self.kind == "implied":
            return f"{head} by {', '.join(f'map {k} dim {d}' for k, d in self.implied_by)}"
        return head


MissedDim = DimImpact
"""A view dim validity depends on that ``rocmlir_impacting_view_dims`` does not name."""


@dataclass(frozen=True, slots=True)
class ValidityComparison:
    """rocMLIR's validity checks beside the exact answer (docs/validity.md).

    ``verdict``: ``"rocMLIR unsound"`` when some point rocMLIR treats as valid is invalid
    (``unchecked``) or a dim validity depends on is missing from its impacting dims;
    ``"rocMLIR conservative"`` when it is sound but emits a check it could drop (``needless``);
    ``"equal"`` otherwise.
    """

    exact: Validity
    rocmlir_checks: tuple[tuple[int, ...], ...]
    """The lower dims rocMLIR checks after each map (top first)."""
    rocmlir_invalid_count: int | None
    """Points of the box rocMLIR masks (``None``: not counted, ``count=False``)."""
    rocmlir_dims: tuple[int, ...]
    """``rocmlir_impacting_view_dims``."""
    unchecked: tuple[UncheckedAccess, ...]
    needless: tuple[NeedlessCheck, ...]
    missed_dims: tuple[MissedDim, ...]
    extra_dims: tuple[int, ...]
    """Dims in ``rocmlir_dims`` that validity does not depend on (not part of the verdict: the
    port may name more dims than rocMLIR's simplifier leaves)."""

    @property
    def verdict(self) -> Verdict:
        if self.unchecked or self.missed_dims:
            return "rocMLIR unsound"
        if self.needless:
            return "rocMLIR conservative"
        return "equal"

    def __str__(self) -> str:
        if self.rocmlir_invalid_count is None or self.exact.invalid_count is None:
            some = "some points invalid" if self.exact.witness else "every point valid"
            lines = [f"{self.verdict}: {some}"]
        else:
            lines = [f"{self.verdict}: {self.exact.invalid_count} invalid points, "
                     f"rocMLIR masks {self.rocmlir_invalid_count}"]
        lines += [f"  unsafe: {u}" for u in self.unchecked]
        lines += [f"  cost: {n}" for n in self.needless]
        lines += [f"  missed view dim {d.dim}: {list(d.valid_point or ())} valid, "
                  f"{list(d.invalid_point or ())} invalid" for d in self.missed_dims]
        return "\n".join(lines)


def compare_validity(view: View, *, count: bool = True, timeout: float | None = 60.0) -> ValidityComparison:
    """Compare rocMLIR's validity checks with the exact answer: every coordinate rocMLIR lets
    leave its bound at a point it treats as valid (with that point), every check it emits that
    never fails or is implied by its others, and the view dims its rule names against those
    that matter.

    ``count=False`` leaves out the two counts of invalid points (see ``validity``).

    Example: ``Embed{1, 1}`` over ``[10, 10] -> [12]``: rocMLIR emits no check, 28 points leave
    the buffer, e.g. ``[3, 9]`` (coordinate 12): ``"rocMLIR unsound"``.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"compare_validity: expected a View, got {view!r}")
    check_timeout(timeout, "compare_validity")
    cached = COMPARISONS.get((view, count))
    if cached is not None:
        return cached
    answer = compare_by(view, timeout, "auto", count=count)
    COMPARISONS.put((view, count), answer)
    return answer


def compare_by(view: View, timeout: float | None, method: Literal["auto", "enumerate", "isl"], *,
               count: bool = True) -> ValidityComparison:
    for m in view.maps:
        require_meaningful(m)
    emitted = rocmlir_view_checks(view)
    dims = rocmlir_impacting_view_dims(view)
    small = math.prod(view.shape) <= ENUMERATE_LIMIT and fits_int64(view)
    if method == "enumerate" or (method == "auto" and small):
        exact = (validity(view, count=count, timeout=timeout) if method == "auto"
                 else answer_by(view, timeout, "enumerate", count=count))
        rocmlir_invalid, unchecked, needless = _enumerated(view, emitted)
        rocmlir_invalid = rocmlir_invalid if count else None
    else:
        exact = (validity(view, count=count, timeout=timeout) if method == "auto"
                 else answer_by(view, timeout, "isl", count=count))
        rocmlir_invalid, unchecked, needless = run_bounded(
            _by_isl, (view, emitted, count), timeout, "compare_validity")
    if rocmlir_invalid is not None and exact.invalid_count is not None \
            and rocmlir_invalid > exact.invalid_count:
        raise InternalError("compare_validity: rocMLIR masks a valid point (please report)")
    missed = tuple(d for d in exact.dims if d.matters and d.dim not in dims)
    extra = tuple(d for d in dims if not exact.dims[d].matters)
    return ValidityComparison(exact, emitted, rocmlir_invalid, dims, unchecked, needless, missed, extra)


def _rocmlir_bounds(view: View, emitted: tuple[tuple[int, ...], ...]) -> dict[Key, int]:
    return {(k, d): m.lower_bounds[d] for k, m in enumerate(view.maps) for d in emitted[k]}


def _enumerated(view: View, emitted: tuple[tuple[int, ...], ...]
                ) -> tuple[int, tuple[UncheckedAccess, ...], tuple[NeedlessCheck, ...]]:
    points = all_points(view.shape)
    keys, fails, values = fails_array(view, points)
    index = {key: i for i, key in enumerate(keys)}
    theirs = _rocmlir_bounds(view, emitted)
    r_keys = list(theirs)
    r_fails = [(values[index[key]] < 0) | (values[index[key]] >= theirs[key]) for key in r_keys]
    count = np.zeros(len(points), dtype=np.int64)
    for f in r_fails:
        count += f
    accessed = count == 0

    def at(where: np.ndarray) -> tuple[int, ...]:
        return tuple(int(c) for c in points[int(np.argmax(where))])

    unchecked: list[UncheckedAccess] = []
    for (k, d), f, v in zip(keys, fails, values, strict=True):
        bad = f & accessed
        if bad.any():
            j = int(np.argmax(bad))
            unchecked.append(UncheckedAccess(k, d, bounds(view)[k][d], at(bad), int(v[j]),
                                             (k, d) in theirs))
    needless: list[NeedlessCheck] = []
    kept = sufficient_array(r_keys, r_fails)
    for key, f in zip(r_keys, r_fails, strict=True):
        if not f.any():
            needless.append(NeedlessCheck(*key, theirs[key], "never fails", None))
        elif key not in kept:
            others = tuple(o for o, g in zip(r_keys, r_fails, strict=True) if o in kept and (f & g).any())
            needless.append(NeedlessCheck(*key, theirs[key], "implied", at(f), others))
    return int((~accessed).sum()), tuple(unchecked), tuple(needless)


def _by_isl(view: View, emitted: tuple[tuple[int, ...], ...], count: bool
            ) -> tuple[int | None, tuple[UncheckedAccess, ...], tuple[NeedlessCheck, ...]]:
    rank = view.rank
    the_box = box(view.shape)
    checks = coordinate_affs(view)
    theirs = _rocmlir_bounds(view, emitted)
    affs = {key: aff for key, aff, _ in checks}
    r_keys = list(theirs)
    r_fails = [fail_set(affs[key], theirs[key], the_box) for key in r_keys]
    r_passes = [pass_set(affs[key], theirs[key]) for key in r_keys]

    accessed = the_box
    for p in r_passes:
        accessed = accessed & p
    unchecked: list[UncheckedAccess] = []
    for key, aff, bound in checks:
        point = sample(fail_set(aff, bound, the_box) & accessed, rank)
        if point is not None:
            unchecked.append(UncheckedAccess(*key, bound, point, value_at(aff, point), key in theirs))
    needless: list[NeedlessCheck] = []
    kept = sufficient_isl(r_keys, r_fails, r_passes, the_box)
    for key, f in zip(r_keys, r_fails, strict=True):
        point = sample(f, rank)
        if point is None:
            needless.append(NeedlessCheck(*key, theirs[key], "never fails", None))
        elif key not in kept:
            others = tuple(o for o, g in zip(r_keys, r_fails, strict=True)
                           if o in kept and not (f & g).is_empty())
            needless.append(NeedlessCheck(*key, theirs[key], "implied", point, others))
    invalid = math.prod(view.shape) - count_points(accessed) if count else None
    return invalid, tuple(unchecked), tuple(needless)


# }}}
