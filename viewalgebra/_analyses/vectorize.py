"""Exact maximal vector lengths of loads and stores through a view (docs/vectorize.md).

A length ``v`` is legal along ``dim`` for a run length ``L`` when ``v`` divides ``L`` and the size of
``dim`` and every piece ``u, u + e_dim, ..., u + (v - 1) e_dim`` with ``u[dim] % v == 0`` is either
entirely invalid or entirely valid with addresses ``a, a + 1, ..., a + v - 1``. A piece is good iff
each of its internal steps ``p -> p + e_dim`` is good, so the legal lengths are exactly the divisors
of ``g = gcd(L, size, {p[dim] + 1 : p a bad step})``, found by the cheapest exact method: numpy
over every step of a small view, a numpy probe whose genuine bad steps settle ``g = 1``, else ISL
over all steps (the cost depends on the view's structure, not its size).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

import islpy as isl
import numpy as np

from .._common.ints import integer
from .._engine.budget import check_timeout, run_bounded
from .._engine.cache import AnswerCache, on_clear
from .._maps.buffer import dtype_bits
from .._maps.evaluate import IntArray
from .._maps.relations import CTX, address_function, point_coords, total_address_and_checks, val
from .._maps.view import View, addresses_on_grid, check_dependencies, fits_int64, grid_checks
from ..errors import (
    CoordinateError,
    InternalError,
    InvalidArgumentError,
    InvalidTransformError,
    TooComplexError,
)
from .divisors import divisors

Reason = Literal["address jump", "mixed validity", "crosses the end of the dim", "misaligned"]

LINE_WINDOW = 64
"""How many positions of one line along the dim seed the gcd before ISL proves it."""

ENUMERATE_LIMIT = 1 << 14
"""Views of at most this many points are answered by checking every step with numpy."""

SEPARATE_LIMIT = 1 << 14
"""A dim whose group of interacting dims (``_separated``) spans at most this many points, each
other group too, is answered by numpy over that group, not by ISL."""

PROBE_START = 1024
PROBE_LINES = 48
PROBE_POSITIONS = 64
"""The probe checks the first ``PROBE_START`` steps of the line through the origin, or, where they
are all good, up to ``PROBE_LINES`` lines along the dim at the first and the last
``PROBE_POSITIONS`` positions of each."""

ANSWERS: AnswerCache[tuple[object, ...], VectorLength] = AnswerCache(4096)
"""Answers by query (the view is a value, so equal views share answers)."""


@dataclass(frozen=True, slots=True)
class Witness:
    """Why ``length`` is not legal: a view point and what goes wrong there."""

    length: int
    reason: Reason
    point: tuple[int, ...]
    """``address jump`` / ``mixed validity``: the first point of a step inside one piece;
    ``crosses the end of the dim``: the start of the last, partial piece;
    ``misaligned``: the start of a valid piece whose address is not a multiple of ``length``."""
    next_point: tuple[int, ...] | None
    """The point one step further along the dim (for a step), else ``None``."""
    addresses: tuple[int | None, ...]
    """The addresses of ``point`` (and ``next_point``); ``None`` where invalid."""

    def __str__(self) -> str:
        if self.next_point is None:
            where = f"at {list(self.point)} (address {self.addresses[0]})"
        else:
            invalid = "; None is invalid" if None in self.addresses else ""
            where = (f"from {list(self.point)} to {list(self.next_point)} (addresses "
                     f"{self.addresses[0]} -> {self.addresses[1]}{invalid})")
        return f"{self.length} is illegal: {self.reason} {where}"


@dataclass(frozen=True, slots=True)
class VectorLength:
    """The answer of ``max_vector_length`` with its evidence."""

    length: int
    """The largest legal vector length (within the cap, if one was given)."""
    legal: tuple[int, ...]
    """Every legal length dividing the run length, ascending (only powers of two if asked)."""
    witness: Witness | None
    """Evidence against the smallest illegal candidate above ``length`` (``None``: there is none
    up to the run length and the cap)."""
    dim: int
    run: int
    """The run length ``L``."""
    cap: int | None = None


def elements_per_access(x: View | str, bits: int = 128) -> int:
    """How many elements of the view's (or the named) element type fit in ``bits`` bits.

    rocMLIR's data-type cap: ``128 // bitwidth``. Example: 4 for ``f32``, 8 for ``f16``.
    """
    width = x.buffer.bits if isinstance(x, View) else dtype_bits(x)
    return max(bits // width, 1)


def max_vector_length(view: View, dim: int, length: int | None = None, *,
                      max_elements: int | None = None, power_of_two: bool = False,
                      aligned: bool = False, rocmlir_compatible: bool = False,
                      timeout: float | None = 60.0) -> VectorLength:
    """The largest legal vector length along ``dim`` for runs of ``length`` (default: the dim's size).

    ``max_elements`` caps the answer at the largest legal length not above it (with
    ``rocmlir_compatible=True``: ``gcd(cap, answer)``, rocMLIR's convention, so results compare one
    to one); ``power_of_two`` admits powers of two only; ``aligned`` also requires each vector's
    start address to be a multiple of its length. ISL work is bounded by ``timeout`` seconds
    (``QueryTimeoutError`` beyond), never by guessing. Answers are cached (``clear_caches``).

    Example: through ``Merge{4, 8}`` over ``memref<4x8xf32>``, dim 0 gives 32 (8 with
    ``length=8``; 4 with ``max_elements=elements_per_access(view)``).
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"max_vector_length: expected a View, got {view!r}")
    dim = integer(dim, "max_vector_length: dim", InvalidArgumentError)
    if not 0 <= dim < view.rank:
        raise CoordinateError(f"max_vector_length: dim {dim} out of range for rank {view.rank}")
    run = view.shape[dim] if length is None else integer(length, "max_vector_length: length",
                                                         InvalidArgumentError)
    if run < 1:
        raise InvalidArgumentError(
            f"max_vector_length: dim {dim} has size 0: there is nothing to vectorize" if length is None
            else f"max_vector_length: run length must be at least 1, got {run}")
    if max_elements is not None:
        max_elements = integer(max_elements, "max_vector_length: max_elements", InvalidArgumentError)
    for flag, value in (("power_of_two", power_of_two), ("aligned", aligned),
                        ("rocmlir_compatible", rocmlir_compatible)):
        if not isinstance(value, bool):
            raise InvalidArgumentError(f"max_vector_length: {flag} must be True or False, got {value!r}")
    if max_elements is not None and max_elements < 1:
        raise InvalidArgumentError(f"max_vector_length: max_elements must be at least 1, got {max_elements}")
    check_timeout(timeout, "max_vector_length")
    query = (view, dim, run, max_elements, power_of_two, aligned, rocmlir_compatible)
    cached = ANSWERS.get(query)
    if cached is not None:
        return cached
    answer = _answer(query, timeout, "auto")
    ANSWERS.put(query, answer)
    return answer


Query = tuple[View, int, int, int | None, bool, bool, bool]
"""(view, dim, run, cap, power_of_two, aligned, rocmlir_compatible)."""

Method = Literal["auto", "enumerate", "probe", "separate", "isl"]


def _answer(query: Query, timeout: float | None, method: Method) -> VectorLength:
    """The answer by the cheapest sound method (``method="auto"``), or by the one named.

    All four are exact: ``enumerate`` checks every step of the box with numpy; ``probe`` settles
    the answer 1 when bad steps found on a few lines already have gcd 1; ``separate`` checks
    every step of the dims that interact with ``dim`` with numpy, the others at a valid point;
    ``isl`` proves the gcd over all steps, starting from the probe's steps. Tests drive each
    against brute force.
    """
    view, dim, run = query[:3]
    aligned = query[5]
    deadline = None if timeout is None else time.monotonic() + timeout
    g = math.gcd(run, view.shape[dim])
    if method == "enumerate" or (method == "auto" and math.prod(view.shape) <= ENUMERATE_LIMIT):
        facts = _enumerated(view, dim) if g > 1 else None
        if facts is not None:
            return _solve(query, facts, deadline)
    seeds = _probe(view, dim, g) if g > 1 and method in ("auto", "probe") else []
    if g == 1 or math.gcd(g, *(p[dim] + 1 for p in seeds)) == 1:
        return _solve(query, _Steps(view, dim, seeds, isl_allowed=False), deadline)
    if method in ("auto", "separate") and not aligned:  # alignment also depends on the other dims
        separated = _separated(view, dim, seeds)
        if separated is not None:
            return _solve(query, separated, deadline)
    return run_bounded(_solve_by_isl, (query, seeds), timeout, f"max_vector_length(dim={dim})")


def _solve_by_isl(query: Query, seeds: list[tuple[int, ...]]) -> VectorLength:
    return _solve(query, _Steps(query[0], query[1], seeds, isl_allowed=True))


class _Facts(Protocol):
    def gcd(self, g: int) -> tuple[int, list[tuple[int, ...]]]:
        """``gcd(g, {p[dim] + 1 : p a bad step})`` and bad steps whose positions give it."""
        ...

    def misaligned(self, v: int) -> tuple[int, ...] | None:
        """A valid piece start (``x[dim] % v == 0``) whose address is not a multiple of ``v``."""
        ...


def _solve(query: Query, facts: _Facts, deadline: float | None = None) -> VectorLength:
    """The answer from the facts; lengths are divisors, found by factorising within ``deadline``
    (``time.monotonic()``; in a worker process the worker's own limit bounds it)."""
    view, dim, run, cap, power_of_two, aligned, compatible = query
    size = view.shape[dim]
    g, found = facts.gcd(math.gcd(run, size))
    top = next(v for v in reversed(divisors(g, deadline))
               if v == 1 or facts.misaligned(v) is None) if aligned else g
    legal = tuple(v for v in divisors(top, deadline) if not power_of_two or _is_power_of_two(v))
    if cap is None:
        answer = legal[-1]
    elif compatible:
        answer = math.gcd(legal[-1], cap)
    else:
        answer = max(v for v in legal if v <= cap)
    legal_set = set(legal)
    witness = None
    for c in divisors(run, deadline):
        if c <= answer or c in legal_set or (power_of_two and not _is_power_of_two(c)):
            continue
        if cap is not None and c > cap:
            break
        witness = _witness(view, dim, c, size, g, found, facts)
        break
    return VectorLength(answer, legal, witness, dim, run, cap)


# {{{ numpy: every step of a small box, or the steps of a few lines of a large one


def _bad_mask(addr: IntArray, valid: np.ndarray, axis: int) -> np.ndarray:
    """Which steps ``p -> p + e_axis`` are bad, for arrays of addresses and validity."""
    here = (slice(None),) * axis + (slice(None, -1),)
    there = (slice(None),) * axis + (slice(1, None),)
    a0, a1, v0, v1 = addr[here], addr[there], valid[here], valid[there]
    return ~((v0 & v1 & (a1 == a0 + 1)) | ~(v0 | v1))


def _decisive(positions: IntArray, g: int) -> IntArray:
    """Indices of the bad steps (at these positions along the dim) that lower the running
    ``gcd(g, p + 1, ...)``: at most log2(g) of them, with the same gcd as all."""
    running = np.gcd.accumulate(np.r_[np.int64(g), positions + 1])
    return np.flatnonzero(running[1:] < running[:-1])


class _Enumerated:
    """Every step of the box, from the numpy evaluation of every point."""

    def __init__(self, view: View, dim: int, addr: IntArray, valid: np.ndarray) -> None:
        self.view, self.dim, self.addr, self.valid = view, dim, addr, valid

    def gcd(self, g: int) -> tuple[int, list[tuple[int, ...]]]:
        bad = np.argwhere(_bad_mask(self.addr, self.valid, self.dim))
        found = [tuple(int(c) for c in p) for p in bad[_decisive(bad[:, self.dim], g)]]
        return math.gcd(g, *(p[self.dim] + 1 for p in found)), found

    def misaligned(self, v: int) -> tuple[int, ...] | None:
        starts = [slice(None)] * self.view.rank
        starts[self.dim] = slice(None, None, v)
        where = self.valid[tuple(starts)] & (self.addr[tuple(starts)] % v != 0)
        hits = np.argwhere(where)
        if not len(hits):
            return None
        return tuple(int(c) * (v if k == self.dim else 1) for k, c in enumerate(hits[0]))


def _enumerated(view: View, dim: int) -> _Enumerated | None:
    """The numpy facts of a small view; ``None`` where numpy cannot evaluate it exactly."""
    try:
        addr, valid = addresses_on_grid(view, _box_grid(view.shape))
    except (TooComplexError, InvalidTransformError):  # beyond 64-bit integers, or a map numpy
        # cannot evaluate: ISL decides
        return None
    return _Enumerated(view, dim, np.broadcast_to(addr, view.shape), valid)


class _Separated:
    """Every bad step, from numpy over the dims that interact with ``dim`` (its group), the other
    dims at a valid point.

    The address is a sum of terms and the validity a conjunction of checks, each depending on the
    dims of one group (``_groups``). A step along ``dim`` changes only ``dim``'s group, so where
    the other groups are valid it is bad exactly where it is bad with them at any valid point (the
    other terms cancel in the address difference), and elsewhere both ends are invalid: good.
    """

    def __init__(self, view: View, dim: int, seeds: list[tuple[int, ...]],
                 steps: tuple[IntArray, np.ndarray, frozenset[int], list[int]] | None) -> None:
        """``steps``: the addresses and validity over ``dim``'s group (the axes of the other dims
        of length 1), that group and the valid point of the other dims; ``None``: no valid point."""
        self.view, self.dim, self.seeds, self.steps = view, dim, seeds, steps

    def gcd(self, g: int) -> tuple[int, list[tuple[int, ...]]]:
        found = list(self.seeds)
        g = math.gcd(g, *(p[self.dim] + 1 for p in found))
        if self.steps is None:  # no valid point: no bad step
            return g, found
        addr, valid, own, point = self.steps
        bad = np.argwhere(_bad_mask(addr, valid, self.dim))
        found += [tuple(int(c) if k in own else point[k] for k, c in enumerate(p))
                  for p in bad[_decisive(bad[:, self.dim], g)]]
        return math.gcd(g, *(p[self.dim] + 1 for p in found)), found

    def misaligned(self, v: int) -> tuple[int, ...] | None:
        raise InternalError("internal: alignment asked of the separated dims (please report)")


def _groups(view: View) -> tuple[list[frozenset[int]], list[int]]:
    """The view's dims in groups such that every term of the address and every validity check
    depends on the dims of one group; and the group of each check (-1: a constant check)."""
    terms, checks = check_dependencies(view)
    parent = list(range(view.rank))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for dims in (*terms, *checks):
        ordered = sorted(dims)
        for d in ordered[1:]:
            parent[find(d)] = find(ordered[0])
    roots = sorted({find(d) for d in range(view.rank)})
    groups = [frozenset(d for d in range(view.rank) if find(d) == r) for r in roots]
    return groups, [roots.index(find(min(dims))) if dims else -1 for dims in checks]


def _separated(view: View, dim: int, seeds: list[tuple[int, ...]]) -> _Separated | None:
    """The facts of ``dim`` from numpy over its group of dims; ``None`` where a group needed is
    larger than ``SEPARATE_LIMIT`` points or numpy cannot evaluate the view exactly."""
    try:
        if not fits_int64(view):
            return None
        groups, check_groups = _groups(view)
    except InvalidTransformError:  # a map numpy cannot evaluate: ISL decides
        return None
    own = next(h for h, dims in enumerate(groups) if dim in dims)
    if math.prod(view.shape[d] for d in groups[own]) > SEPARATE_LIMIT:
        return None
    point = [0] * view.rank
    for h, dims in enumerate(groups):  # a valid point of every other group with checks
        if h == own or h not in check_groups:
            continue
        if math.prod(view.shape[d] for d in dims) > SEPARATE_LIMIT:
            return None
        _, masks = grid_checks(view, _sub_grid(view.shape, dims, point))
        holds = np.ones((1,) * view.rank, dtype=np.bool_)
        for mask, group in zip(masks, check_groups, strict=True):
            if group == h:
                holds = holds & mask
        first = np.argwhere(holds)
        if not len(first):  # this group is never valid, so no point of the view is
            return _Separated(view, dim, seeds, None)
        for d in dims:  # an index of the grid is the value (0 where the checks ignore the dim)
            point[d] = int(first[0][d])
    addr, masks = grid_checks(view, _sub_grid(view.shape, groups[own], point))
    shape = tuple(n if d in groups[own] else 1 for d, n in enumerate(view.shape))
    valid = np.ones(shape, dtype=np.bool_)
    for mask, group in zip(masks, check_groups, strict=True):
        if group in (own, -1):  # those of the other groups hold at the point
            valid = valid & mask
    return _Separated(view, dim, seeds, (np.where(valid, addr, -1), valid, groups[own], point))


def _sub_grid(shape: tuple[int, ...], dims: frozenset[int], point: list[int]) -> list[IntArray]:
    """Every value of ``dims``, the other dims at ``point``: one broadcastable array per dim."""
    return [np.arange(n, dtype=np.int64).reshape([n if j == k else 1 for j in range(len(shape))])
            if k in dims else np.full((1,) * len(shape), point[k], dtype=np.int64)
            for k, n in enumerate(shape)]


def _box_grid(shape: tuple[int, ...]) -> list[IntArray]:
    """The coordinates of every point of the box, one broadcastable array per dim."""
    return [np.arange(n, dtype=np.int64).reshape([n if j == k else 1 for j in range(len(shape))])
            for k, n in enumerate(shape)]


def _probe(view: View, dim: int, g: int) -> list[tuple[int, ...]]:
    """Genuine bad steps on a few lines along ``dim`` (every step of those lines is checked):
    the start of the line through the origin, or, where it has no bad step (all padding, say),
    up to ``PROBE_LINES`` lines at both ends of the dim. What they leave open, ISL proves."""
    size = view.shape[dim]
    if size < 2 or max(view.shape) >= 2**62:  # nothing to find, or points beyond 64-bit integers
        return []
    origin = np.zeros((1, view.rank), dtype=np.int64)
    found = _steps_on_lines(view, dim, origin, np.arange(min(size, PROBE_START + 1)), g)
    if found:
        return found
    positions = np.unique(np.r_[np.arange(min(size, PROBE_POSITIONS + 1)),
                                np.arange(max(size - PROBE_POSITIONS - 1, 0), size)])
    return _steps_on_lines(view, dim, _probe_lines(view.shape, dim), positions, g)


def _steps_on_lines(view: View, dim: int, lines: IntArray, positions: IntArray,
                    g: int) -> list[tuple[int, ...]]:
    """Bad steps on the given lines that decide their gcd with ``g`` (``_decisive``)."""
    grid = [lines[:, k:k + 1] for k in range(view.rank)]
    grid[dim] = positions.reshape(1, -1)
    try:
        addr, valid = addresses_on_grid(view, grid)
    except (TooComplexError, InvalidTransformError):  # beyond 64-bit integers: ISL decides alone
        return []
    shape = (len(lines), len(positions))  # a rank-1 view's lines are all the one line
    addr, valid = np.broadcast_to(addr, shape), np.broadcast_to(valid, shape)
    # Only steps between neighbouring positions count (the two ranges may leave a gap).
    bad = np.argwhere(_bad_mask(addr, valid, 1) & (np.diff(positions) == 1))
    return [tuple(int(positions[k]) if j == dim else int(c) for j, c in enumerate(lines[line]))
            for line, k in bad[_decisive(positions[bad[:, 1]], g)]]


def _probe_lines(shape: tuple[int, ...], dim: int) -> IntArray:
    """Starting points of the probed lines: the origin, each other dim at a few telling values
    (1, 2, the middle, the last), and pseudo-random points (a fixed seed: answers are repeatable)."""
    rank = len(shape)
    lines = [np.zeros(rank, dtype=np.int64)]
    for k, n in enumerate(shape):
        if k == dim:
            continue
        for c in sorted({1, 2, n // 2, n - 1}):
            if 0 < c < n:
                line = np.zeros(rank, dtype=np.int64)
                line[k] = c
                lines.append(line)
    found = np.stack(lines[:PROBE_LINES])
    if len(found) < PROBE_LINES:
        more = np.random.default_rng(0).integers(0, np.array(shape, dtype=np.int64),
                                                 size=(PROBE_LINES - len(found), rank))
        found = np.concatenate([found, more])
    return np.unique(found, axis=0)


# }}}


def _is_power_of_two(v: int) -> bool:
    return v & (v - 1) == 0


# {{{ ISL


def _space(n: int) -> isl.Space:
    return isl.Space.set_alloc(CTX, 0, n)


def _shift(n: int, dim: int) -> isl.MultiAff:
    """``x -> x + e_dim``."""
    ls = isl.LocalSpace.from_space(_space(n))
    affs = isl.AffList.alloc(CTX, n)
    for k in range(n):
        a = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        affs = affs.add(a.add_constant_val(val(1)) if k == dim else a)
    return isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, n, n), affs)


def _split(n: int, dim: int, v: int) -> isl.MultiAff:
    """``(x with x[dim] = q, r) -> x with x[dim] = v*q + r``: residues without a new div."""
    ls = isl.LocalSpace.from_space(_space(n + 1))
    affs = isl.AffList.alloc(CTX, n)
    for k in range(n):
        a = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        if k == dim:
            a = a.scale_val(val(v)).add(isl.Aff.var_on_domain(ls, isl.dim_type.set, n))
        affs = affs.add(a)
    return isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, n + 1, n), affs)


def _residues(n: int, low: int, high: int) -> isl.BasicSet:
    """``{ (x, r) : low <= r <= high }`` in the space of ``_split``."""
    ls = isl.LocalSpace.from_space(_space(n + 1))
    r = isl.Aff.var_on_domain(ls, isl.dim_type.set, n)
    zero = isl.Aff.zero_on_domain(ls)
    return r.ge_basic_set(zero.add_constant_val(val(low))).intersect(
        r.le_basic_set(zero.add_constant_val(val(high))))


@lru_cache(maxsize=256)
def bad_steps(view: View, dim: int) -> tuple[isl.BasicSet, ...]:
    """Points ``p`` with ``p`` and ``p + e_dim`` in the box where the step is not good (not both
    valid with consecutive addresses, and not both invalid), as the non-empty basic sets whose
    union they are.

    Each piece is an intersection of basic sets, which ISL forms without the emptiness checks a
    set-level intersection makes on every pair of pieces.
    """
    n = view.rank
    addr, checks = total_address_and_checks(view)
    shift = _shift(n, dim)
    zero = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(_space(n)))

    def at_least(e: isl.Aff, c: int) -> isl.BasicSet:
        return e.ge_basic_set(zero.add_constant_val(val(c)))

    def below(e: isl.Aff, c: int) -> isl.BasicSet:
        return e.lt_basic_set(zero.add_constant_val(val(c)))

    steps = isl.BasicSet.universe(_space(n))
    for k, size in enumerate(view.shape):
        x = isl.Aff.var_on_domain(isl.LocalSpace.from_space(_space(n)), isl.dim_type.set, k)
        steps = steps.intersect(at_least(x, 0)).intersect(below(x, size - 1 if k == dim else size))
    valid, valid_next = steps, steps
    for e, bound in checks:
        e_next = e.pullback_multi_aff(shift)
        valid = valid.intersect(at_least(e, 0)).intersect(below(e, bound))
        valid_next = valid_next.intersect(at_least(e_next, 0)).intersect(below(e_next, bound))
    both = valid.intersect(valid_next)
    jump = addr.pullback_multi_aff(shift).sub(addr)
    pieces = [both.intersect(below(jump, 1)), both.intersect(at_least(jump, 2))]
    for e, bound in checks:  # mixed validity: one end valid, a check fails at the other
        e_next = e.pullback_multi_aff(shift)
        pieces += [valid.intersect(below(e_next, 0)), valid.intersect(at_least(e_next, bound)),
                   valid_next.intersect(below(e, 0)), valid_next.intersect(at_least(e, bound))]
    return tuple(p for p in pieces if not p.is_empty())


class _Steps:
    """Bad steps proven by ISL, seeded with steps found by the probe."""

    def __init__(self, view: View, dim: int, seeds: list[tuple[int, ...]], *, isl_allowed: bool) -> None:
        self.view, self.dim, self.seeds, self.isl_allowed = view, dim, seeds, isl_allowed

    def _pieces(self) -> tuple[isl.BasicSet, ...]:
        if not self.isl_allowed:
            raise InternalError("internal: an answer settled without ISL needed ISL (please report)")
        return bad_steps(self.view, self.dim)

    def gcd(self, g: int) -> tuple[int, list[tuple[int, ...]]]:
        dim, rank = self.dim, self.view.rank
        found = list(self.seeds)
        g = math.gcd(g, *(p[dim] + 1 for p in found))
        if g == 1:
            return 1, found
        pieces = self._pieces()
        if not pieces:
            return g, found
        if not found:
            first = point_coords(pieces[0].sample_point(), rank)
            found = [first, *_line(self.view, pieces, dim, first)]
            g = math.gcd(g, *(p[dim] + 1 for p in found))
        while g > 1:
            p = _bad_not_dividing(pieces, rank, dim, g)
            if p is None:
                break
            found.append(p)
            g = math.gcd(g, p[dim] + 1)
        return g, found

    def misaligned(self, v: int) -> tuple[int, ...] | None:
        self._pieces()
        return _misaligned(self.view, self.dim, v)


def _line(view: View, pieces: tuple[isl.BasicSet, ...], dim: int, through: tuple[int, ...],
          method: Literal["auto", "numpy", "isl"] = "auto") -> list[tuple[int, ...]]:
    """A cheap first estimate: the bad steps in a window of ``LINE_WINDOW`` points of the line
    along ``dim`` through the bad step ``through``. The proof that no bad step anywhere breaks the
    final gcd is ``_bad_not_dividing``'s.

    numpy evaluates the window's points (where 64-bit integers hold the view's values); ISL
    enumerates the pieces on the window (``foreach_point`` leaks each point it hands over, so it
    is left to views beyond 64 bits)."""
    start = max(through[dim] - LINE_WINDOW // 2, 0)
    stop = min(start + LINE_WINDOW, view.shape[dim] - 1)
    if method == "numpy" or (method == "auto" and fits_int64(view)):
        positions = np.arange(start, stop + 1, dtype=np.int64)
        grid = [positions if k == dim else np.array([x], dtype=np.int64) for k, x in enumerate(through)]
        addr, valid = addresses_on_grid(view, grid)
        addr, valid = np.broadcast_to(addr, positions.shape), np.broadcast_to(valid, positions.shape)
        good = (valid[:-1] & valid[1:] & (addr[1:] - addr[:-1] == 1)) | (~valid[:-1] & ~valid[1:])
        return [tuple(int(c) if k == dim else x for k, x in enumerate(through))
                for c in positions[:-1][~good]]
    found: set[int] = set()
    for piece in pieces:
        line = piece
        for k, c in enumerate(through):
            if k != dim:
                line = line.fix_val(isl.dim_type.set, k, val(c))
        ls = isl.LocalSpace.from_space(line.get_space())
        x = isl.Aff.var_on_domain(ls, isl.dim_type.set, dim)
        zero = isl.Aff.zero_on_domain(ls)
        line = line.intersect(x.ge_basic_set(zero.add_constant_val(val(start)))).intersect(
            x.lt_basic_set(zero.add_constant_val(val(start + LINE_WINDOW))))
        isl.Set.from_basic_set(line).foreach_point(
            lambda p: found.add(p.get_coordinate_val(isl.dim_type.set, dim).to_python()))
    return [tuple(c if k == dim else x for k, x in enumerate(through)) for c in sorted(found)]


def _bad_not_dividing(pieces: tuple[isl.BasicSet, ...], n: int, dim: int, v: int) -> tuple[int, ...] | None:
    """A bad step ``p`` with ``v`` not dividing ``p[dim] + 1`` (a step inside a ``v``-piece)."""
    split, residues = _split(n, dim, v), _residues(n, 0, v - 2)
    for piece in pieces:
        inside = piece.preimage_multi_aff(split).intersect(residues)
        if not inside.is_empty():
            qr = point_coords(inside.sample_point(), n + 1)
            return tuple(v * qr[dim] + qr[n] if k == dim else c for k, c in enumerate(qr[:n]))
    return None


on_clear(bad_steps.cache_clear)


def _misaligned(view: View, dim: int, v: int) -> tuple[int, ...] | None:
    """A valid piece start ``x`` (``x[dim] % v == 0``) whose address is not a multiple of ``v``."""
    n = view.rank
    f = address_function(view).pullback_multi_aff(_split(n, dim, v))
    starts = f.mod_val(val(v)).non_zero_set() & isl.Set.from_basic_set(_residues(n, 0, 0))
    if starts.is_empty():
        return None
    qr = point_coords(starts.sample_point(), n + 1)
    return tuple(v * qr[dim] if k == dim else c for k, c in enumerate(qr[:n]))


def _witness(view: View, dim: int, c: int, size: int, g: int, found: list[tuple[int, ...]],
             facts: _Facts) -> Witness:
    if size % c:
        start = tuple(size - size % c if k == dim else 0 for k in range(view.rank))
        return Witness(c, "crosses the end of the dim", start, None, (view.address(start),))
    if g % c:
        # g is the gcd of the found steps' p[dim] + 1 (with the run and size, which c divides),
        # so one of them lies inside a c-piece.
        p = next((p for p in found if (p[dim] + 1) % c), None)
        if p is None:
            raise InternalError(f"internal: no bad step refutes {c} although {c} does not divide {g}")
        q = tuple(x + 1 if k == dim else x for k, x in enumerate(p))
        a, b = view.address(p), view.address(q)
        if a is None and b is None:
            raise InternalError(f"internal: the bad step {p} -> {q} is invalid at both ends")
        reason: Reason = "address jump" if a is not None and b is not None else "mixed validity"
        return Witness(c, reason, p, q, (a, b))
    x = facts.misaligned(c)
    if x is None:
        raise InternalError(f"internal: {c} divides {g} and is aligned, yet was not legal")
    return Witness(c, "misaligned", x, None, (view.address(x),))


# }}}
