"""Exact inversion of transform maps and chains, with certificates (docs/invert.md).

A chain ``f`` (top-first maps, from the top upper space to the bottom lower space) is inverted on
its valid points ``D``. The answer says whether ``f`` is one-to-one there (``bijective`` onto the
lower box, ``injective`` with the lower points it misses, or ``not-injective`` with two points that
share an image), gives the exact inverse relation, and, whenever each op has a closed-form inverse,
the inverse as rock transform maps. Closed forms are checked by ISL: ``g(f(u)) = u`` on ``D`` and
``f(g(y)) = y`` wherever ``g`` is defined, which also proves ``f`` injective and ``dom g`` its image.

Where there is no closed form, two points sharing an image are looked for first by construction
from an op that is not injective by itself, then among the first points of the box (numpy); each
pair found is checked by evaluating the chain, and settles ``not-injective`` on its own. Only when
none is found does ISL decide, by the relation ``f⁻¹ ∘ f`` minus the identity.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Literal, assert_never

import islpy as isl
import numpy as np

from .._engine.budget import check_timeout, isl_errors, run_bounded
from .._engine.cache import AnswerCache
from .._maps.chain import Chain
from .._maps.evaluate import evaluate_array, evaluate_chain
from .._maps.relations import box, chain_function, identity_on, point_coords
from .._maps.transform_map import TransformMap, blocking_problems
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
from .._maps.view import View
from ..errors import InvalidTransformError, NotInvertibleError, TooComplexError

Kind = Literal["bijective", "injective", "not-injective"]
Pair = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Certificate:
    """What ISL checked about a transform-level inverse ``g`` of a chain ``f``."""

    left: bool
    """``g(f(u)) == u`` for every valid ``u`` (so ``f`` is injective and ``g`` defined on its image)."""
    right: bool
    """``f(g(y)) == y`` for every ``y`` where ``g`` is defined (so ``dom g`` is exactly the image)."""

    @property
    def ok(self) -> bool:
        return self.left and self.right


@dataclass(frozen=True, slots=True, eq=False)
class Inverse:
    """The inverse of a map or chain on its valid points (compare two with
    ``va.equivalent(a.chain, b.chain)``, not ``==``).

    The answer is plain data; its ISL sets and relations are built when first read (answers are
    cached and shared, and ISL objects are never kept in them).
    """

    kind: Kind
    maps: tuple[TransformMap, ...] | None
    """The inverse as rock transform maps, top-first (upper space: the chain's lower space), or
    ``None`` (see ``reason``)."""
    reason: str | None
    """Why there are no ``maps``; ``None`` when there are."""
    certificate: Certificate | None
    """ISL's check of ``maps``; ``None`` without maps."""
    witness: tuple[tuple[int, ...], tuple[int, ...]] | None
    """``not-injective``: two distinct valid upper points with the same image."""
    source: tuple[TransformMap, ...]
    """The chain that was inverted, top-first."""
    has_padding: bool
    """Whether some points of the upper box are invalid (``padding`` is not empty)."""
    uncovered_text: str | None = field(default=None, repr=False)

    @property
    def chain(self) -> Chain | None:
        """The inverse as a ``Chain`` (``maps``), or ``None`` without maps."""
        return None if self.maps is None else Chain(self.maps)

    @property
    def relation(self) -> isl.Map:
        """The exact inverse: lower point -> the upper points mapping to it."""
        with isl_errors("Inverse.relation"):
            return isl.Map.from_pw_multi_aff(chain_function(self.source)).reverse()

    @property
    def uncovered(self) -> isl.Set | None:
        """``injective``: the points of the lower box without a preimage; else ``None``."""
        with isl_errors("Inverse.uncovered"):
            return None if self.uncovered_text is None else isl.Set(self.uncovered_text)

    @property
    def padding(self) -> isl.Set:
        """Points of the upper box that are invalid (no image at all; empty for most maps)."""
        with isl_errors("Inverse.padding"):
            return box(self.source[0].upper_bounds) - chain_function(self.source).domain()


@dataclass(frozen=True, slots=True)
class Verification:
    """The result of ``verify_inverse``."""

    ok: bool
    side: Literal["left", "right"] | None = None
    """``left``: ``g(f(u)) != u`` at ``point``; ``right``: ``f(g(y)) != y`` at ``point``."""
    point: tuple[int, ...] | None = None
    images: tuple[tuple[int, ...] | None, tuple[int, ...] | None] | None = None
    """``left``: ``(f(u), g(f(u)))``; ``right``: ``(g(y), f(g(y)))``; ``None`` where undefined."""

    def __str__(self) -> str:
        if self.ok:
            return "verified: the two are inverse on the valid points"
        first, second = self.images or (None, None)
        if self.side == "left":
            return f"refuted: u = {list(self.point or ())} gives f(u) = {first}, g(f(u)) = {second}"
        return f"refuted: y = {list(self.point or ())} gives g(y) = {first}, f(g(y)) = {second}"


def _chain(maps: Chain | TransformMap | View | Sequence[TransformMap] | str) -> tuple[TransformMap, ...]:
    if (isinstance(maps, View) and not maps.maps) or (isinstance(maps, Sequence) and not maps):
        raise InvalidTransformError("invert: the chain is empty")
    try:
        chain = Chain.of(maps).maps
    except InvalidTransformError as e:
        raise InvalidTransformError(f"invert: {e}") from None
    for m in chain:
        if blocking_problems(m):
            raise InvalidTransformError(
                "invert: a map has no defined meaning: " + "; ".join(map(str, blocking_problems(m))))
    return chain


# {{{ closed-form inverses of the ops


Resize = dict[int, tuple[int, type[Pad] | type[Slice], tuple[int, int]]]
"""Lower dim of the map -> (its new size, Pad or Slice, their params): done by a map placed
before the inverse, for an Embed whose radix does not fill its bound or a non-unit ConstDim."""


def _inverse_op(tm: TransformMap, op: AnyTransform, resize: Resize) -> list[AnyTransform]:
    """The op's inverse (its upper dims are ``op``'s lower ones); raises ``NotInvertibleError``."""
    up, low = op.upper_dims, op.lower_dims
    un, ln = op.upper_names, op.lower_names
    ub, lb = tm.upper_bounds, tm.lower_bounds
    match op:
        case PassThrough():
            return [PassThrough((), ln, low, un, up)]
        case Pad():
            params = [x for (left, _), d in zip(op.amounts, low, strict=True) for x in (left, left + lb[d])]
            return [Slice(tuple(params), ln, low, un, up)]
        case Slice():
            params = [x for (begin, end), d in zip(op.ranges, low, strict=True) for x in (begin, lb[d] - end)]
            return [Pad(tuple(params), ln, low, un, up)]
        case Merge():
            return [Unmerge(op.params, ln, low, un, up)]
        case Unmerge():
            return [Merge(op.params, ln, low, un, up)]
        case AddDim():
            if op.params[0] != 1:
                raise NotInvertibleError(
                    f"AddDim{{{op.params[0]}}} at {list(up)}: its dim of size {op.params[0]} "
                    "reaches no lower coordinate (not injective)")
            return [ConstDim((0, 1), (), (), un, up)]
        case ConstDim():
            # Only the constant has a preimage: a Pad keeps exactly it, then the dim is dropped.
            for (value, length), d in zip(op.values, low, strict=True):
                if length != 1:
                    resize[d] = (1, Pad, (value, length - value - 1))
            return [AddDim((1,), (name,), (d,), (), ()) for name, d in zip(ln, low, strict=True)]
        case Broadcast():
            for p, d in zip(op.params, up, strict=True):
                if ub[d] > p:
                    raise NotInvertibleError(
                        f"Broadcast{{{p}}} at [{d}]: upper size {ub[d]} > {p}, so u and u + {p} "
                        "share an image (not injective)")
            params = [x for p, d in zip(op.params, up, strict=True) for x in (0, p - ub[d])]
            return [Pad(tuple(params), ln, low, un, up)]
        case Embed():
            return _inverse_embed(tm, op, resize)
        case _:
            assert_never(op)


def _inverse_embed(tm: TransformMap, op: Embed, resize: Resize) -> list[AnyTransform]:
    """An Embed whose coefficients over its non-unit dims are a permuted mixed radix is an
    Unmerge up to a permutation: its inverse is a Merge (slowest dim first), unit dims are 0."""
    sizes = [tm.upper_bounds[d] for d in op.upper_dims]
    where = f"Embed{{{', '.join(map(str, op.params))}}} at {list(op.upper_dims)}"
    terms = sorted((c, k) for k, c in enumerate(op.params) if sizes[k] > 1)
    stride = 1
    for c, k in terms:
        if c != stride:
            raise NotInvertibleError(
                f"{where}: coefficients {list(op.params)} over sizes {sizes} are not a permuted "
                f"mixed radix (expected {stride} where there is {c})")
        stride *= sizes[k]
    y, bound = op.lower_dims[0], tm.lower_bounds[op.lower_dims[0]]
    if stride < bound:  # the radix fills less than the bound: the rest has no preimage
        resize[y] = (stride, Pad, (0, bound - stride))
    elif stride > bound:  # the bound cuts the radix short: only its first values are reached
        resize[y] = (stride, Slice, (0, bound))
    units = [ConstDim((0, 1), (), (), (op.upper_names[k],), (op.upper_dims[k],))
             for k, n in enumerate(sizes) if n == 1]
    slow_first = list(reversed(terms))
    if not slow_first:
        return [AddDim((1,), op.lower_names, (y,), (), ()), *units]
    merge = Merge(tuple(sizes[k] for _, k in slow_first), op.lower_names, (y,),
                  tuple(op.upper_names[k] for _, k in slow_first),
                  tuple(op.upper_dims[k] for _, k in slow_first))
    return [merge, *units]


def invert_map(tm: TransformMap) -> tuple[TransformMap, ...]:
    """The closed-form inverse of one map, top-first (one map, or two when an Embed's bound
    must first be narrowed or widened); raises ``NotInvertibleError`` with the reason.

    Example: ``<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>`` over ``[7] -> [4]`` inverts to
    ``<Slice{2, 6} ["y"] at [0] -> ["x"] at [0]>`` over ``[4] -> [7]``.
    """
    uses = Counter(d for op in tm.ops for d in op.upper_dims)
    shared = sorted(d for d, n in uses.items() if n > 1)
    if shared:
        raise NotInvertibleError(
            f"upper dim {shared[0]} is used by {uses[shared[0]]} transforms; an inverse made of "
            "transforms would define it more than once")
    resize: Resize = {}
    ops = [inv for op in tm.ops for inv in _inverse_op(tm, op, resize)]
    middle = tuple(resize[d][0] if d in resize else n for d, n in enumerate(tm.lower_bounds))
    main = TransformMap(tuple(ops), middle, tm.upper_bounds)
    if not resize:
        return (main,)
    names = {d: n for op in tm.ops for d, n in zip(op.lower_dims, op.lower_names, strict=True)}
    pre: list[AnyTransform] = []
    for d in range(tm.lower_rank):
        name = (names[d],)
        if d in resize:
            _, kind, params = resize[d]
            pre.append(kind(params, name, (d,), name, (d,)))
        else:
            pre.append(PassThrough((), name, (d,), name, (d,)))
    return (TransformMap(tuple(pre), tm.lower_bounds, middle), main)


def invert_chain(maps: Sequence[TransformMap]) -> tuple[TransformMap, ...]:
    """The closed-form inverse of a top-first chain: each map inverted, in reverse order."""
    return tuple(inv for m in reversed(tuple(maps)) for inv in invert_map(m))


# }}}
# {{{ ISL checks


def _certify(f: isl.PwMultiAff, g: isl.PwMultiAff) -> Certificate:
    return Certificate(_is_identity_on(g.pullback_pw_multi_aff(f), f.domain()),
                       _is_identity_on(f.pullback_pw_multi_aff(g), g.domain()))


def _is_identity_on(h: isl.PwMultiAff, domain: isl.Set) -> bool:
    """Whether ``h`` is defined exactly on ``domain`` and ``h(x) = x`` there.

    Piece by piece and output by output: ``h_j(x) - x_j`` must be zero on the piece, an emptiness
    check of one quasi-affine condition (comparing relations instead costs several times more).
    """
    if not h.domain().is_equal(domain):
        return False
    pieces: list[tuple[isl.Set, isl.MultiAff]] = []
    h.foreach_piece(lambda piece, ma: pieces.append((piece, ma)))
    for piece, ma in pieces:
        ls = isl.LocalSpace.from_space(ma.get_domain_space())
        zero = isl.Aff.zero_on_domain(ls)
        for j in range(ma.dim(isl.dim_type.out)):
            diff = ma.get_at(j).sub(isl.Aff.var_on_domain(ls, isl.dim_type.set, j))
            if not diff.plain_is_zero() and not (piece & diff.ne_set(zero)).is_empty():
                return False
    return True


def _certify_by_relations(f: isl.PwMultiAff, g: isl.PwMultiAff) -> Certificate:
    """``_certify`` by relation equality with an identity (the slower, earlier method)."""
    left = isl.Map.from_pw_multi_aff(g.pullback_pw_multi_aff(f))
    right = isl.Map.from_pw_multi_aff(f.pullback_pw_multi_aff(g))
    return Certificate(left.is_equal(identity_on(f.domain())),
                       right.is_equal(identity_on(g.domain())))


@dataclass(frozen=True, slots=True)
class _Answer:
    """What the bounded ISL work returns (plain data: it may come from a worker process)."""

    kind: Kind
    maps: tuple[TransformMap, ...] | None
    reason: str | None
    certificate: Certificate | None
    uncovered: str | None
    witness: Pair | None
    has_padding: bool = False


def _solve(chain: tuple[TransformMap, ...], fast: bool = True) -> _Answer:
    """The answer for a checked chain; ``fast=False`` is the earlier method (certificate by
    relation equality, witnesses only from ISL), kept as the benchmarks' baseline."""
    try:
        inverse = invert_chain(chain)
    except (NotInvertibleError, InvalidTransformError) as e:
        return _without_maps(chain, str(e), fast)
    g = chain_function(inverse)
    certificate = (_certify if fast else _certify_by_relations)(chain_function(chain), g)
    if not certificate.ok:
        return _without_maps(chain, "internal: the closed-form inverse failed its ISL check (please report)",
                             fast)
    uncovered = box(chain[-1].lower_bounds) - g.domain()
    kind: Kind = "bijective" if uncovered.is_empty() else "injective"
    return _Answer(kind, inverse, None, certificate, None if kind == "bijective" else str(uncovered),
                   None)


def _without_maps(chain: tuple[TransformMap, ...], reason: str, fast: bool) -> _Answer:
    if fast:
        pair = _structural_witness(chain) or _enumerated_witness(chain)
        if pair is not None:
            return _Answer("not-injective", None, reason, None, None, pair)
    return _by_relation(chain, reason)


def _by_relation(chain: tuple[TransformMap, ...], reason: str) -> _Answer:
    """The answer from ISL alone: ``f⁻¹ ∘ f`` minus the identity is empty iff ``f`` is injective."""
    f = chain_function(chain)
    graph = isl.Map.from_pw_multi_aff(f)
    n = chain[0].upper_rank
    shared = graph.apply_range(graph.reverse()) - identity_on(f.domain())
    if not shared.is_empty():
        pair = point_coords(shared.wrap().sample_point(), 2 * n)
        return _Answer("not-injective", None, reason, None, None, (pair[:n], pair[n:]))
    uncovered = box(chain[-1].lower_bounds) - graph.range()
    kind: Kind = "bijective" if uncovered.is_empty() else "injective"
    return _Answer(kind, None, reason, None, None if kind == "bijective" else str(uncovered), None)


# }}}
# {{{ witnesses without ISL: two valid points with one image, checked by evaluation


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


def _structural_witness(chain: tuple[TransformMap, ...]) -> Pair | None:
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
"""Points of the top box (from the origin) that ``_enumerated_witness`` evaluates with numpy."""


def _enumerated_witness(chain: tuple[TransformMap, ...], limit: int = ENUMERATE_LIMIT) -> Pair | None:
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


# }}}


def invert(maps: Chain | TransformMap | View | Sequence[TransformMap] | str, *,
           timeout: float | None = 60.0) -> Inverse:
    """The exact inverse of a map, a top-first chain of maps, or a view's maps, on valid points.

    Example: ``<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>`` over ``[32] -> [4, 8]`` is
    ``bijective`` with ``maps`` = ``<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>``;
    ``<Embed{1, 1} ...>`` of a sliding window is ``not-injective`` with a witness pair.
    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond).
    """
    check_timeout(timeout, "invert")
    return _invert(_chain(maps), timeout)


def _invert(chain: tuple[TransformMap, ...], timeout: float | None, fast: bool = True) -> Inverse:
    cached = ANSWERS.get((chain, fast))
    if cached is not None:
        return cached
    answer = run_bounded(_answer, (chain, fast), timeout, "invert")
    inverse = Inverse(answer.kind, answer.maps, answer.reason, answer.certificate, answer.witness,
                      chain, answer.has_padding, answer.uncovered)
    ANSWERS.put((chain, fast), inverse)
    return inverse


ANSWERS: AnswerCache[tuple[object, ...], Inverse] = AnswerCache(4096)
"""Inverses by chain (and method)."""


def _answer(chain: tuple[TransformMap, ...], fast: bool) -> _Answer:
    answer = _solve(chain, fast)
    padding = box(chain[0].upper_bounds) - chain_function(chain).domain()
    return replace(answer, has_padding=not padding.is_empty())


def verify_inverse(maps: Chain | TransformMap | View | Sequence[TransformMap] | str,
                   inverse_maps: Chain | TransformMap | Sequence[TransformMap] | str, *,
                   timeout: float | None = 60.0) -> Verification:
    """Check a claimed inverse (for instance rocMLIR's): ok, or a counterexample with both images.

    ``g(f(u)) == u`` must hold for every valid ``u``, and ``f(g(y)) == y`` wherever ``g`` is
    defined. Example: a Merge{4, 8} and the Unmerge{4, 8} over the same dims verify; an
    Unmerge{8, 4} is refuted at a point where the two disagree.
    """
    chain = _chain(maps)
    inverse = _chain(inverse_maps)
    if inverse[0].upper_bounds != chain[-1].lower_bounds or inverse[-1].lower_bounds != chain[0].upper_bounds:
        raise InvalidTransformError(
            f"verify_inverse: an inverse of a chain {list(chain[0].upper_bounds)} -> "
            f"{list(chain[-1].lower_bounds)} must map {list(chain[-1].lower_bounds)} -> "
            f"{list(chain[0].upper_bounds)}, but the one given maps {list(inverse[0].upper_bounds)} -> "
            f"{list(inverse[-1].lower_bounds)}")
    found = run_bounded(_counterexample, (chain, inverse), timeout, "verify_inverse")
    if found is None:
        return Verification(True)
    side, point = found
    first, second = (chain, inverse) if side == "left" else (inverse, chain)
    middle = evaluate_chain(first, point)
    back = None if middle is None else evaluate_chain(second, middle)
    return Verification(False, side, point, (middle, back))


def _counterexample(chain: tuple[TransformMap, ...], inverse: tuple[TransformMap, ...],
                    ) -> tuple[Literal["left", "right"], tuple[int, ...]] | None:
    f, g = chain_function(chain), chain_function(inverse)
    sides: tuple[tuple[Literal["left", "right"], isl.PwMultiAff, isl.PwMultiAff], ...] = (
        ("left", f, g), ("right", g, f))
    for side, first, second in sides:
        composite = isl.Map.from_pw_multi_aff(second.pullback_pw_multi_aff(first))
        domain = first.domain()
        wrong = (composite - identity_on(domain)).domain() | (domain - composite.domain())
        if not wrong.is_empty():
            return side, point_coords(wrong.sample_point(), domain.dim(isl.dim_type.set))
    return None
