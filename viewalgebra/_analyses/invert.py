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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import islpy as isl

from .._engine.budget import check_timeout, isl_errors, run_bounded
from .._engine.cache import AnswerCache
from .._maps.chain import Chain
from .._maps.evaluate import evaluate_chain
from .._maps.relations import box, chain_function, identity_on, point_coords
from .._maps.transform_map import TransformMap, blocking_problems
from .._maps.view import View
from ..errors import InvalidTransformError, NotInvertibleError
from .inverse_forms import invert_chain
from .invert_witness import (
    Pair,
    enumerated_witness,
    structural_witness,
)

Kind = Literal["bijective", "injective", "not-injective"]


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
        pair = structural_witness(chain) or enumerated_witness(chain)
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
