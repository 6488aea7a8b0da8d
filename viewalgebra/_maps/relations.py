"""Transform maps and views as exact ISL objects (islpy), built with islpy's constructors.

Each map is a quasi-affine function (``isl.PwMultiAff``) from upper to lower coordinates whose
domain is the upper box intersected with the valid set (docs/semantics.md, Validity). A view
composes its maps by substitution (``pullback``), never by relational ``apply_range``, which
leaves unknown existentials behind on conv stacks and makes later queries orders of magnitude
slower. Results are cached beside the frozen values, keyed on them; ISL objects are never hashed.
"""

from __future__ import annotations

from functools import lru_cache

import islpy as isl

from .._engine.cache import on_clear
from ..errors import InvalidArgumentError, InvalidTransformError
from . import affine as A
from .equations import Check, affine_map_of, masked_checks, validity_checks
from .transform_map import TransformMap
from .view import View

CTX = isl.DEFAULT_CONTEXT
"""The one ISL context every object lives in (objects of different contexts must not mix)."""


def val(v: int) -> isl.Val:
    """An ISL integer of any size."""
    return isl.Val.int_from_si(CTX, v) if -(2**62) < v < 2**62 else isl.Val(str(v), CTX)


def _aff(e: A.AffineExpr, ls: isl.LocalSpace) -> isl.Aff:
    if isinstance(e, A.DimExpr):
        return isl.Aff.var_on_domain(ls, isl.dim_type.set, e.index)
    if isinstance(e, A.ConstExpr):
        return isl.Aff.zero_on_domain(ls).add_constant_val(val(e.value))
    lhs = _aff(e.lhs, ls)
    if e.op == "+":
        return lhs.add(_aff(e.rhs, ls))
    if not isinstance(e.rhs, A.ConstExpr):
        raise InvalidTransformError(f"not affine: {A.print_expr(e)}")
    c = e.rhs.value
    if e.op == "*":
        return lhs.scale_val(val(c))
    if c <= 0:
        raise InvalidTransformError(f"division by the non-positive constant {c}: {A.print_expr(e)}")
    if e.op == "floordiv":
        return lhs.scale_down_val(val(c)).floor()
    if e.op == "ceildiv":
        return lhs.scale_down_val(val(c)).ceil()
    return lhs.mod_val(val(c))


def point_coords(p: isl.Point, n: int) -> tuple[int, ...]:
    """The first ``n`` coordinates of an ISL point as Python integers."""
    return tuple(p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(n))


def identity_on(domain: isl.Set) -> isl.Map:
    """The identity relation restricted to ``domain``."""
    n = domain.dim(isl.dim_type.set)
    return isl.Map.identity(isl.Space.alloc(CTX, 0, n, n)).intersect_domain(domain)


def _set_space(rank: int) -> isl.Space:
    return isl.Space.set_alloc(CTX, 0, rank)


@lru_cache(maxsize=1024)
def box(shape: tuple[int, ...]) -> isl.Set:
    """``{ [i0, ...] : 0 <= i_k < shape[k] }``."""
    ls = isl.LocalSpace.from_space(_set_space(len(shape)))
    result = isl.BasicSet.universe(_set_space(len(shape)))
    zero = isl.Aff.zero_on_domain(ls)
    for k, n in enumerate(shape):
        var = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        result = result.intersect(var.ge_basic_set(zero)).intersect(
            var.lt_basic_set(zero.add_constant_val(val(n))))
    return isl.Set.from_basic_set(result)


def affine_function(amap: A.AffineMap) -> isl.MultiAff:
    """An affine map as an ISL function on the whole space."""
    space = isl.Space.alloc(CTX, 0, amap.num_dims, len(amap.results))
    ls = isl.LocalSpace.from_space(_set_space(amap.num_dims))
    affs = isl.AffList.alloc(CTX, len(amap.results))
    for r in amap.results:
        affs = affs.add(_aff(r, ls))
    return isl.MultiAff.from_aff_list(space, affs)


@lru_cache(maxsize=1024)
def formula(tm: TransformMap) -> isl.PwMultiAff:
    """The map's equations with domain = valid points of the whole (unbounded) upper space."""
    return _checked(tm, validity_checks(tm))


@lru_cache(maxsize=1024)
def masked_formula(tm: TransformMap) -> isl.PwMultiAff:
    """``formula`` with only the checks rocMLIR's masking emits (``masked_checks``)."""
    return _checked(tm, masked_checks(tm))


def _checked(tm: TransformMap, checks: tuple[Check, ...]) -> isl.PwMultiAff:
    ma = affine_function(affine_map_of(tm))
    ls = isl.LocalSpace.from_space(_set_space(tm.upper_rank))
    valid = isl.Set.universe(_set_space(tm.upper_rank))
    zero = isl.Aff.zero_on_domain(ls)
    for check in checks:
        lower = ma.get_at(check.dim)
        valid = valid & lower.ge_set(zero) & lower.lt_set(zero.add_constant_val(val(check.bound)))
    return isl.PwMultiAff.from_multi_aff(ma).intersect_domain(valid)


@lru_cache(maxsize=1024)
def map_function(tm: TransformMap) -> isl.PwMultiAff:
    """The map as an ISL function: upper point -> lower point, on the valid part of the upper box.

    Example: ``Pad{2, 1}`` over ``[7] -> [4]`` gives ``{ [i0] -> [(-2 + i0)] : 2 <= i0 <= 5 }``.
    """
    return formula(tm).intersect_domain(box(tm.upper_bounds))


@lru_cache(maxsize=1024)
def chain_function(maps: tuple[TransformMap, ...]) -> isl.PwMultiAff:
    """A top-first chain of maps as one ISL function on the valid points of the top box.

    A point is valid where every map's lower coordinates stay in its lower bounds (each map's
    ``validity_checks``; docs/semantics.md, Validity).
    """
    if not maps:
        raise InvalidTransformError("chain_function: an empty chain has no spaces")
    f = formula(maps[0])
    for m in maps[1:]:
        f = formula(m).pullback_pw_multi_aff(f)
    return f.intersect_domain(box(maps[0].upper_bounds))


@lru_cache(maxsize=1024)
def view_function(view: View) -> isl.PwMultiAff:
    """The view as an ISL function: view point -> buffer coordinates, on the valid view points."""
    if view.maps and not view.narrow_links():
        return chain_function(view.maps)
    if view.maps:  # a lenient view: coordinates must also stay inside the narrower space below
        f = formula(view.maps[0]).intersect_domain(box(view.shape))
        for k, m in enumerate(view.maps):
            if k:
                f = formula(m).pullback_pw_multi_aff(f)
            for _, d, b in (link for link in view.narrow_links() if link[0] == k):
                coordinate = f.get_pw_aff(d)
                f = f.intersect_domain(coordinate.lt_set(isl.PwAff.val_on_domain(f.domain(), val(b))))
        return f
    identity = isl.MultiAff.identity(isl.Space.alloc(CTX, 0, view.rank, view.rank))
    return isl.PwMultiAff.from_multi_aff(identity).intersect_domain(box(view.shape))


@lru_cache(maxsize=1024)
def address_function(view: View) -> isl.PwAff:
    """The view as an ISL function: view point -> buffer address (docs/semantics.md), on valid points."""
    buf = view.buffer
    ls = isl.LocalSpace.from_space(_set_space(buf.rank))
    addr = isl.Aff.zero_on_domain(ls).add_constant_val(val(buf.offset))
    for k, s in enumerate(buf.strides or ()):
        addr = addr.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, k).scale_val(val(s)))
    return isl.PwAff.from_aff(addr).pullback_pw_multi_aff(view_function(view))


@lru_cache(maxsize=1024)
def total_address_and_checks(view: View) -> tuple[isl.Aff, tuple[tuple[isl.Aff, int], ...]]:
    """The view's address formula on the whole (unbounded) view space, and its validity checks:
    a view point is valid iff ``0 <= e < bound`` for every ``(e, bound)``.

    Each formula is a single quasi-affine expression; sets built from them never need the
    complement of a many-piece set, which keeps per-point conditions cheap for ISL.
    """
    comp = isl.MultiAff.identity(isl.Space.alloc(CTX, 0, view.rank, view.rank))
    checks: list[tuple[isl.Aff, int]] = []
    narrow = view.narrow_links()
    for k, m in enumerate(view.maps):
        ma = affine_function(affine_map_of(m))
        checks.extend((ma.get_at(c.dim).pullback_multi_aff(comp), c.bound) for c in validity_checks(m))
        comp = ma.pullback_multi_aff(comp)
        checks.extend((comp.get_at(d), b) for j, d, b in narrow if j == k)
    buf = view.buffer
    ls = isl.LocalSpace.from_space(_set_space(buf.rank))
    addr = isl.Aff.zero_on_domain(ls).add_constant_val(val(buf.offset))
    for k, s in enumerate(buf.strides or ()):
        addr = addr.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, k).scale_val(val(s)))
    return addr.pullback_multi_aff(comp), tuple(checks)


def valid_set(x: TransformMap | View) -> isl.Set:
    """The valid (non-padding) points of a map's upper box or a view's box."""
    if isinstance(x, TransformMap):
        return map_function(x).domain()
    return view_function(x).domain()


def upper_box(x: TransformMap | View) -> isl.Set:
    """The box of upper (view) coordinates."""
    return box(x.upper_bounds if isinstance(x, TransformMap) else x.shape)


def relation(x: TransformMap | View) -> isl.Map:
    """The exact relation: upper -> lower point for a map, view point -> address for a view."""
    if isinstance(x, TransformMap):
        return isl.Map.from_pw_multi_aff(map_function(x))
    return isl.Map.from_pw_aff(address_function(x))


def same_relation(a: TransformMap | View, b: TransformMap | View) -> bool:
    """Semantic equality: same box, same valid set, same image of every valid point.

    For maps the image is the lower point; for views it is the buffer address, so two views of
    different buffers that touch the same addresses in the same way are the same relation.
    (``==`` is structural equality of the values.)
    """
    if type(a) is not type(b):
        raise InvalidArgumentError(
            f"same_relation: cannot compare a {type(a).__name__} with a {type(b).__name__}")
    if isinstance(a, TransformMap) and isinstance(b, TransformMap):
        if a.upper_bounds != b.upper_bounds or a.lower_rank != b.lower_rank:
            return False
    elif isinstance(a, View) and isinstance(b, View) and a.shape != b.shape:
        return False
    return relation(a).is_equal(relation(b))


for _cached in (box, formula, masked_formula, map_function, chain_function, view_function, address_function,
                total_address_and_checks):
    on_clear(_cached.cache_clear)
