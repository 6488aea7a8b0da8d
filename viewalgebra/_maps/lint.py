"""Hazards of maps and views: a written affine map that disagrees with the ops, a coordinate that
leaves its declared bounds without a validity check (docs/semantics.md, Validity), bounds that
break an op's rule.

Every finding is decided exactly with ISL and carries a witness point where there is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import islpy as isl

from .._engine.budget import check_timeout, run_bounded
from ..errors import InvalidArgumentError
from . import affine as A
from .equations import affine_map_of
from .relations import affine_function, box, masked_formula, point_coords, val
from .syntax import ParsedMap
from .transform_map import TransformMap, blocking_problems, problems
from .view import View

Code = Literal["affine-map-mismatch", "unchecked-out-of-bounds", "rule", "chain", "unusable"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One hazard."""

    code: Code
    """``affine-map-mismatch``, ``unchecked-out-of-bounds``, ``rule`` (a check beyond rocMLIR's
    verifier fails), ``chain`` (a view's bounds do not line up), ``unusable`` (no meaning)."""
    message: str
    map_index: int | None = None
    """Which map of a view (0 = top), if the finding belongs to one."""
    point: tuple[int, ...] | None = None
    """A witness upper (view) point, where there is one."""

    def __str__(self) -> str:
        where = "" if self.map_index is None else f"map {self.map_index}: "
        return f"{self.code}: {where}{self.message}"


def lint(x: TransformMap | View | ParsedMap, *, timeout: float | None = 60.0) -> tuple[Finding, ...]:
    """The hazards of a map, a parsed map (also its written affine map) or a view.

    Example: a ``Merge{3, 8}`` written as ``(d0 floordiv 4, d0 mod 4)`` gives an
    ``affine-map-mismatch`` finding with a point where the two differ.
    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond).
    """
    check_timeout(timeout, "lint")
    if isinstance(x, ParsedMap):
        if x.map is None:
            return (Finding("unusable", f"rejected: {x.error}"),)
        written = None if x.written is None or blocking_problems(x.map) else x.written
        return run_bounded(_lint_written, (x.map, written), timeout, "lint")
    if isinstance(x, TransformMap):
        return run_bounded(_lint_map, (x,), timeout, "lint")
    if not isinstance(x, View):
        raise InvalidArgumentError(f"lint: expected a TransformMap, a View or a ParsedMap, got {x!r}")
    return run_bounded(_lint_view, (x,), timeout, "lint")


def _lint_written(tm: TransformMap, written: A.AffineMap | None) -> tuple[Finding, ...]:
    return _lint_map(tm) + (() if written is None else _compare_written(tm, written))


def _lint_map(tm: TransformMap, index: int | None = None) -> tuple[Finding, ...]:
    found = [Finding("unusable" if p.blocking else "rule", p.message, index) for p in problems(tm)]
    if any(p.blocking for p in problems(tm)):
        return tuple(found)
    f = masked_formula(tm).intersect_domain(box(tm.upper_bounds))
    found.extend(_outside(f, tm.lower_bounds, index, "lower bounds of the map"))
    return tuple(found)


def _lint_view(view: View) -> tuple[Finding, ...]:
    found: list[Finding] = []
    for k, m in enumerate(view.maps):
        found.extend(f for f in _lint_map(m, k) if f.code != "unchecked-out-of-bounds")
    if any(f.code == "unusable" for f in found):
        return tuple(found)
    f = isl.PwMultiAff.from_multi_aff(isl.MultiAff.identity(
        isl.Space.alloc(isl.DEFAULT_CONTEXT, 0, view.rank, view.rank)))
    top_box = box(view.shape)
    for k, (m, (lower, b)) in enumerate(zip(view.maps, view.links(), strict=True)):
        if lower != b:
            what = "the buffer shape" if k == len(view.maps) - 1 else f"upper bounds of map {k + 1}"
            found.append(Finding(
                "chain", f"lower bounds {list(m.lower_bounds)} != {what} {list(b)}", k))
        f = masked_formula(m).pullback_pw_multi_aff(f)
        found.extend(_outside(f.intersect_domain(top_box), m.lower_bounds, k, "its lower bounds"))
        if lower != b:
            found.extend(_outside(f.intersect_domain(top_box), b, k, "the space below"))
    return tuple(found)


def _outside(f: isl.PwMultiAff, bounds: tuple[int, ...], index: int | None,
             what: str) -> list[Finding]:
    """Valid points whose image leaves ``bounds`` (no validity check guards them)."""
    graph = isl.Map.from_pw_multi_aff(f)
    space = isl.Space.set_alloc(isl.DEFAULT_CONTEXT, 0, len(bounds))
    ls = isl.LocalSpace.from_space(space)
    zero = isl.Aff.zero_on_domain(ls)
    found: list[Finding] = []
    for d, n in enumerate(bounds):
        coord = isl.Aff.var_on_domain(ls, isl.dim_type.set, d)
        outside = coord.lt_set(zero) | coord.ge_set(zero.add_constant_val(val(n)))
        bad = graph.intersect_range(outside)
        if bad.is_empty():
            continue
        point = _sample(bad.domain())
        found.append(Finding(
            "unchecked-out-of-bounds",
            f"lower dim {d} leaves [0, {n}) of {what} with no validity check in rocMLIR"
            f" (at upper point {list(point)}; invalid here: docs/semantics.md)", index, point))
    return found


def _compare_written(tm: TransformMap, written: A.AffineMap) -> tuple[Finding, ...]:
    upper = box(tm.upper_bounds)
    ours = isl.Map.from_multi_aff(affine_function(affine_map_of(tm))).intersect_domain(upper)
    theirs = isl.Map.from_multi_aff(affine_function(written)).intersect_domain(upper)
    if ours.is_equal(theirs):
        return ()
    point = _sample(ours.subtract(theirs).domain())
    ops_value = [A.evaluate_expr(e, point) for e in affine_map_of(tm).results]
    text_value = [A.evaluate_expr(e, point) for e in written.results]
    return (Finding(
        "affine-map-mismatch",
        f"the written affine map ({written}) disagrees with the ops ({affine_map_of(tm)}): "
        f"at {list(point)} the ops give {ops_value}, the text gives {text_value}", None, point),)


def _sample(s: isl.Set) -> tuple[int, ...]:
    return point_coords(s.sample_point(), s.dim(isl.dim_type.set))
