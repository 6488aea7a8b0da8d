"""Witnesses that a chain is not injective, found without ISL: two valid points with one image,
each checked by evaluation. ``structural_witness`` looks where an op can fold two points together
at any size; ``enumerated_witness`` walks the valid points of a small upper box. ``invert``
asks them before ISL, which then only confirms an injective chain (docs/invert.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from .._maps.evaluate import evaluate_array, evaluate_chain
from .._maps.relations import chain_function, point_coords
from .._maps.transform_map import TransformMap
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    Embed,
    Unmerge,
)
from ..errors import InvalidTransformError, NotInvertibleError, TooComplexError
from .inverse_forms import invert_map

Pair = tuple[tuple[int, ...], tuple[int, ...]]
"""Two upper points."""


def _collide(chain: tuple[TransformMap, ...], u: tuple[int, ...], v: tuple[int, ...]) -> bool:
    """Whether ``u`` and ``v`` are distinct valid points of the top box with the same image."""
    shape = chain[0].upper_bounds
    if u == v or not all(0 <= x < n for p in (u, v) for x, n in zip(p, shape, strict=True)):
        return False
    image = evaluate_chain(chain, u)
    return image is not None and image == evaluate_chain(chain, v)


def _collisions(tm: TransformMap, op: AnyTransform) -> list[dict[int, int]]:
    """Shifts ``delta`` (upper dim -> amount) with ``op(a) == op(a + delta)`` for every ``a``: an
    AddDim wider than 1, a Broadcast wider than its length, two overlapping terms (or a term of
    coefficient 0) of an Embed or of an Unmerge wider than its sizes."""
    ub = tm.upper_bounds
    match op:
        case AddDim():
            return [{d: 1} for d in op.upper_dims if ub[d] > 1]
        case Broadcast():
            return [{d: p} for p, d in zip(op.params, op.upper_dims, strict=True) if ub[d] > p]
        case Embed() | Unmerge():
            dims = op.upper_dims
            coefficients = op.params if isinstance(op, Embed) else tuple(
                math.prod(op.params[k + 1:]) for k in range(len(dims)))
            found = [{d: 1} for c, d in zip(coefficients, dims, strict=True) if c == 0 and ub[d] > 1]
            for (ci, di), (cj, dj) in combinations(zip(coefficients, dims, strict=True), 2):
                if ci and cj:
                    g = math.gcd(ci, cj)
                    if abs(cj // g) < ub[di] and abs(ci // g) < ub[dj]:
                        found.append({di: cj // g, dj: -ci // g})
            return found
        case _:
            return []


def _shifted(a: tuple[int, ...], delta: dict[int, int], bounds: tuple[int, ...]) -> Iterator[Pair]:
    """Pairs ``(p, p + delta)`` inside the box: with ``p = a`` or ``p + delta = a`` if possible,
    else with ``a`` moved as little as needed along the shifted dims."""
    moved = list(a)
    for d, s in delta.items():
        moved[d] = min(max(a[d], -s, 0), bounds[d] - 1 - max(s, 0))
    for p in (a, tuple(x - delta.get(d, 0) for d, x in enumerate(a)), tuple(moved)):
        q = tuple(x + delta.get(d, 0) for d, x in enumerate(p))
        if all(0 <= x < n for r in (p, q) for x, n in zip(r, bounds, strict=True)):
            yield p, q


def _valid_points(chain: tuple[TransformMap, ...]) -> Iterator[tuple[int, ...]]:
    """Some valid points of the top box: the corners and the centre if valid, then ISL's sample."""
    shape = chain[0].upper_bounds
    corners = (tuple(0 for _ in shape), tuple(n // 2 for n in shape), tuple(n - 1 for n in shape))
    for u in dict.fromkeys(corners):
        if all(0 <= x < n for x, n in zip(u, shape, strict=True)) and evaluate_chain(chain, u) is not None:
            yield u
    sample = chain_function(chain).domain().sample_point()
    if not sample.is_void():
        yield point_coords(sample, len(shape))


def structural_witness(chain: tuple[TransformMap, ...]) -> Pair | None:
    """Two valid points with one image, built from an op that is not injective by itself.

    In the upper space of its map, a point ``a`` (the image of a valid top point) and ``a + delta``
    share the op's image; the closed-form inverse of the maps above carries both back to the top.
    The maps above must have one, so the search stops at the first map without it. The time does
    not depend on the sizes.
    """
    shifts: list[tuple[int, tuple[TransformMap, ...], dict[int, int]]] = []
    lift: tuple[TransformMap, ...] = ()  # the closed-form inverse of chain[:k]
    for k, tm in enumerate(chain):
        shifts += [(k, lift, delta) for op in tm.ops for delta in _collisions(tm, op)]
        try:
            lift = invert_map(tm) + lift
        except (NotInvertibleError, InvalidTransformError):
            break
    if not shifts:
        return None
    for top in _valid_points(chain):
        for k, lift, delta in shifts:
            a = evaluate_chain(chain[:k], top)
            if a is None:  # not reached: ``top`` is valid
                continue
            for p, q in _shifted(a, delta, chain[k].upper_bounds):
                u, v = evaluate_chain(lift, p), evaluate_chain(lift, q)
                if u is not None and v is not None and _collide(chain, u, v):
                    return u, v
    return None


ENUMERATE_LIMIT = 4096
"""Points of the top box (from the origin) that ``enumerated_witness`` evaluates with numpy."""


def enumerated_witness(chain: tuple[TransformMap, ...], limit: int = ENUMERATE_LIMIT) -> Pair | None:
    """Two valid points with one image among the points of a sub-box of the top box at the origin
    (sides ``min(n, 2^j)``, at most ``limit`` points), evaluated with numpy."""
    shape = chain[0].upper_bounds
    side = 1
    while side < max(shape, default=0) and math.prod(min(n, 2 * side) for n in shape) <= limit:
        side *= 2
    sub = tuple(min(n, side) for n in shape)
    if math.prod(sub) < 2:
        return None
    upper = np.indices(sub).reshape(len(sub), -1).T
    lower, valid = upper, np.ones(len(upper), dtype=np.bool_)
    try:
        for m in chain:
            lower, ok = evaluate_array(m, lower)
            valid &= ok
    except TooComplexError:  # beyond 64-bit integers: left to ISL
        return None
    upper, lower = upper[valid], lower[valid]
    order = np.lexsort(lower.T[::-1]) if lower.shape[1] else np.arange(len(lower))
    same = np.flatnonzero((lower[order][1:] == lower[order][:-1]).all(axis=1))
    if not same.size:
        return None
    u, v = (tuple(int(x) for x in upper[order[i]]) for i in (same[0], same[0] + 1))
    return (u, v) if _collide(chain, u, v) else None
