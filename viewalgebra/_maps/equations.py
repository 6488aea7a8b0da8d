"""The compiled equations of each transform: lower coordinates as affine expressions of the upper
ones, and the validity checks (rocMLIR's ``assembleMapFor`` and masking rule; docs/semantics.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, assert_never

from .._engine.cache import on_clear
from ..errors import InvalidTransformError
from . import affine as A
from .transform_map import TransformMap, require_meaningful
from .transforms import (
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


@dataclass(frozen=True, slots=True)
class Check:
    """A validity check: ``0 <= lower[dim] < bound`` must hold for the point to be valid."""

    dim: int
    bound: int
    op: AnyTransform


@lru_cache(maxsize=1024)
def affine_map_of(tm: TransformMap) -> A.AffineMap:
    """The affine map rocMLIR computes from the ops (``TransformMapAttr::get``).

    Example: ``Merge{2, 3, 5}`` gives ``(d0) -> (d0 floordiv 15, (d0 mod 15) floordiv 5, d0 mod 5)``.
    """
    require_meaningful(tm)
    results: list[A.AffineExpr | None] = [None] * tm.lower_rank
    for op in tm.ops:
        for d, e in zip(op.lower_dims, _lower_exprs(op), strict=True):
            results[d] = e
    return A.AffineMap(tm.upper_rank, tuple(r if r is not None else A.const(0) for r in results))


@lru_cache(maxsize=1024)
def validity_checks(tm: TransformMap) -> tuple[Check, ...]:
    """The lower dims whose range decides validity (docs/semantics.md): every lower dim that some
    point of the upper box can send outside ``[0, bound)``. In a consistent (strict) map these are
    the Pad dims with non-zero padding and the Embeds that can overflow; a lenient map (bounds
    that break an op's rule) adds the dims its bounds let leave.

    Example: ``<PassThrough ["a"] at [0] -> ["b"] at [0]>`` over ``[4] -> [1]`` (lenient) checks
    lower dim 0: points 1..3 of the upper dim are invalid.
    """
    amap = affine_map_of(tm)
    largest = [max(n - 1, 0) for n in tm.upper_bounds]
    owner = {d: op for op in tm.ops for d in op.lower_dims}
    checks: list[Check] = []
    for d, e in enumerate(amap.results):
        low, high = value_range(e, largest)
        if (low < 0 or high >= tm.lower_bounds[d]) and d in owner:
            checks.append(Check(d, tm.lower_bounds[d], owner[d]))
    return tuple(checks)


@lru_cache(maxsize=1024)
def masked_checks(tm: TransformMap) -> tuple[Check, ...]:
    """The checks rocMLIR's masking emits (``updateValidityAfter`` in
    ``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``): Pad dims with non-zero padding and
    the Embeds that its per-term test ``embedCanBeInvalid`` flags (a negative coefficient, or
    some ``upper_bound * coefficient`` above the lower bound). A point valid here whose
    coordinates leave the bounds is a read out of range in rocMLIR (``lint``:
    ``unchecked-out-of-bounds``): ``Embed{1, 1}`` over ``[10, 10] -> [12]`` has none."""
    checks: list[Check] = []
    for op in tm.ops:
        if isinstance(op, Pad):
            for d, (left, right) in zip(op.lower_dims, op.amounts, strict=True):
                if (left, right) != (0, 0):
                    checks.append(Check(d, tm.lower_bounds[d], op))
        elif isinstance(op, Embed):
            bound = tm.lower_bounds[op.lower_dims[0]]
            if any(c < 0 or tm.upper_bounds[u] * c > bound
                   for c, u in zip(op.params, op.upper_dims, strict=True)):
                checks.append(Check(op.lower_dims[0], bound, op))
    return tuple(checks)


def value_range(e: A.AffineExpr, largest: Sequence[int]) -> tuple[int, int]:
    """The least and greatest value of ``e`` when each ``d_i`` ranges over ``[0, largest[i]]``:
    exact for the expressions transforms compile to (each dim appears once, divisors positive),
    an enclosing interval otherwise."""
    if isinstance(e, A.DimExpr):
        return 0, int(largest[e.index])
    if isinstance(e, A.ConstExpr):
        return e.value, e.value
    low, high = value_range(e.lhs, largest)
    c_low, c_high = value_range(e.rhs, largest)
    if e.op == "+":
        return low + c_low, high + c_high
    c = c_low  # the right side of *, mod and the divisions is a constant in an affine expression
    if e.op == "*":
        return min(low * c, high * c), max(low * c, high * c)
    if c <= 0:
        raise InvalidTransformError(f"{e}: a {e.op} by {c} has no meaning")
    if e.op == "mod":
        return (low, high) if low >= 0 and high < c else (0, c - 1)
    if e.op == "floordiv":
        return low // c, high // c
    return -(-low // c), -(-high // c)


def _lower_exprs(op: AnyTransform) -> list[A.AffineExpr]:
    u = [A.dim(d) for d in op.upper_dims]
    match op:
        case PassThrough():
            return u
        case Pad():
            return [A.add(x, A.const(-left)) for x, (left, _) in zip(u, op.amounts, strict=True)]
        case Slice():
            return [A.add(x, A.const(begin)) for x, (begin, _) in zip(u, op.ranges, strict=True)]
        case Embed():
            expr: A.AffineExpr = A.const(0)
            for x, c in zip(u, op.params, strict=True):
                expr = A.add(expr, A.mul(x, c))
            return [expr]
        case Unmerge():
            expr = u[0]
            for x, s in zip(u[1:], op.params[1:], strict=True):
                expr = A.add(A.mul(expr, s), x)
            return [expr]
        case Merge():
            return _merge_exprs(u[0], op.params)
        case Broadcast():
            return [A.mod(x, p) for x, p in zip(u, op.params, strict=True)]
        case ConstDim():
            return [A.const(value) for value, _ in op.values]
        case AddDim():
            return []
        case _:
            assert_never(op)


def _merge_exprs(x: A.AffineExpr, sizes: tuple[int, ...]) -> list[A.AffineExpr]:
    # rocMLIR's compiled form: the first non-trivial lower dim is not reduced modulo its size.
    total = math.prod(sizes)
    strides = [math.prod(sizes[i + 1:]) for i in range(len(sizes))]
    rem = x
    out: list[A.AffineExpr] = []
    for i, t in enumerate(strides):
        if t == total or (i > 0 and t == strides[i - 1]):
            out.append(A.const(0))
            continue
        out.append(A.floordiv(rem, t))
        rem = A.mod(rem, t)
    return out


def formulas(tm: TransformMap) -> tuple[str, ...]:
    """One readable equation per lower dim, in rocMLIR's dim names where they are identifiers.

    Example: ``Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]`` gives
    ``("a = k floordiv 8", "b = k mod 8")``; unnamed or numeric dims read ``u<i>`` / ``l<i>``.
    """
    upper, lower = dim_names(tm, "upper"), dim_names(tm, "lower")
    amap = affine_map_of(tm)
    return tuple(f"{lower[d]} = {A.print_expr(e, names=upper)}" for d, e in enumerate(amap.results))


def dim_names(tm: TransformMap, side: Literal["upper", "lower"]) -> tuple[str, ...]:
    """Readable names of a map's dims: rocMLIR's where they are distinct identifiers, else
    ``u<i>`` (upper) / ``l<i>`` (lower)."""
    if side == "upper":
        rank, prefix = tm.upper_rank, "u"
        named = [(d, n) for op in tm.ops for d, n in zip(op.upper_dims, op.upper_names, strict=True)]
    else:
        rank, prefix = tm.lower_rank, "l"
        named = [(d, n) for op in tm.ops for d, n in zip(op.lower_dims, op.lower_names, strict=True)]
    fallback = tuple(f"{prefix}{d}" for d in range(rank))
    names = dict(named)
    chosen = [names.get(d, fallback[d]) for d in range(rank)]
    usable = [bool(re.fullmatch(r"[A-Za-z_]\w*", n)) and n not in ("floordiv", "ceildiv", "mod")
              for n in chosen]
    if len(set(chosen)) != rank:
        return fallback
    return tuple(n if ok else f"{prefix}{d}" for d, (n, ok) in enumerate(zip(chosen, usable, strict=True)))


on_clear(affine_map_of.cache_clear)
on_clear(validity_checks.cache_clear)
on_clear(masked_checks.cache_clear)
