"""The numpy paths of ``max_vector_length`` (docs/vectorize.md): every step of a small box
(``enumerated``), every step of the queried dim's group of interacting dims with the other groups
at a valid point (``separated``), and the probe of a few lines of a large box (``probe``), each an
exact answer or exact facts that ISL then completes.
"""

from __future__ import annotations

import math

import numpy as np

from .._maps.evaluate import IntArray
from .._maps.view import View, addresses_on_grid, check_dependencies, fits_int64, grid_checks
from ..errors import (
    InternalError,
    InvalidTransformError,
    TooComplexError,
)

SEPARATE_LIMIT = 1 << 14
"""A dim whose group of interacting dims (``separated``) spans at most this many points, each
other group too, is answered by numpy over that group, not by ISL."""

PROBE_START = 1024
PROBE_LINES = 48
PROBE_POSITIONS = 64
"""The probe checks the first ``PROBE_START`` steps of the line through the origin, or, where they
are all good, up to ``PROBE_LINES`` lines along the dim at the first and the last
``PROBE_POSITIONS`` positions of each."""


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


class Enumerated:
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


def enumerated(view: View, dim: int) -> Enumerated | None:
    """The numpy facts of a small view; ``None`` where numpy cannot evaluate it exactly."""
    try:
        addr, valid = addresses_on_grid(view, _box_grid(view.shape))
    except (TooComplexError, InvalidTransformError):  # beyond 64-bit integers, or a map numpy
        # cannot evaluate: ISL decides
        return None
    return Enumerated(view, dim, np.broadcast_to(addr, view.shape), valid)


class Separated:
    """Every bad step, from numpy over the dims that interact with ``dim`` (its group), the other
    dims at a valid point.

    The address is a sum of terms and the validity a conjunction of checks, each depending on the
    dims of one group (``dim_groups``). A step along ``dim`` changes only ``dim``'s group, so where
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


def dim_groups(view: View) -> tuple[list[frozenset[int]], list[int]]:
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


def separated(view: View, dim: int, seeds: list[tuple[int, ...]]) -> Separated | None:
    """The facts of ``dim`` from numpy over its group of dims; ``None`` where a group needed is
    larger than ``SEPARATE_LIMIT`` points or numpy cannot evaluate the view exactly."""
    try:
        if not fits_int64(view):
            return None
        groups, check_groups = dim_groups(view)
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
            return Separated(view, dim, seeds, None)
        for d in dims:  # an index of the grid is the value (0 where the checks ignore the dim)
            point[d] = int(first[0][d])
    addr, masks = grid_checks(view, _sub_grid(view.shape, groups[own], point))
    shape = tuple(n if d in groups[own] else 1 for d, n in enumerate(view.shape))
    valid = np.ones(shape, dtype=np.bool_)
    for mask, group in zip(masks, check_groups, strict=True):
        if group in (own, -1):  # those of the other groups hold at the point
            valid = valid & mask
    return Separated(view, dim, seeds, (np.where(valid, addr, -1), valid, groups[own], point))


def _sub_grid(shape: tuple[int, ...], dims: frozenset[int], point: list[int]) -> list[IntArray]:
    """Every value of ``dims``, the other dims at ``point``: one broadcastable array per dim."""
    return [np.arange(n, dtype=np.int64).reshape([n if j == k else 1 for j in range(len(shape))])
            if k in dims else np.full((1,) * len(shape), point[k], dtype=np.int64)
            for k, n in enumerate(shape)]


def _box_grid(shape: tuple[int, ...]) -> list[IntArray]:
    """The coordinates of every point of the box, one broadcastable array per dim."""
    return [np.arange(n, dtype=np.int64).reshape([n if j == k else 1 for j in range(len(shape))])
            for k, n in enumerate(shape)]


def probe(view: View, dim: int, g: int) -> list[tuple[int, ...]]:
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
