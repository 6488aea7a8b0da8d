"""A layout's function as an array, and the ``shape:stride`` layouts that have a given function
(docs/layouts.md, The algebra, exactly).

The index domains of the layouts the algebra answers for are small (at most ``LIMIT`` indices),
so their functions are enumerated: each answer is a statement about every index, not a rule of
thumb. A function ``f`` on ``0..n-1`` is a layout with a first mode ``k:t`` exactly when
``f(j) = j·t`` for ``j < k`` and ``f(j + k·q) = f(j) + f(k·q)`` for every ``j < k`` and ``q``; the rest
is then ``f(k·q)``, a layout again. ``decompose`` tries every divisor in turn (largest first), so
it finds a layout whenever one exists whose shape refines the given leaf sizes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..errors import TooComplexError

Ints = npt.NDArray[np.int64]
Modes = tuple[tuple[int, int], ...]
"""Flat ``(size, stride)`` pairs, the first mode fastest."""

LIMIT = 1 << 20
"""The most indices a layout of the algebra may have (its function is enumerated)."""

_STEPS = 200_000
"""The most divisor trials one decomposition may make (each is a numpy check)."""


def check_size(size: int, what: str) -> None:
    if size > LIMIT:
        raise TooComplexError(
            f"{what}: {size} indices, more than the {LIMIT} the algebra enumerates; give a smaller layout")


def values(modes: Modes) -> Ints:
    """``f(i)`` for every flat index ``i`` (colexicographic: the first mode fastest)."""
    n = math.prod(s for s, _ in modes)
    index = np.arange(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    for s, d in modes:
        out += (index % s) * d
        index //= s
    return out


def _divisors(n: int) -> list[int]:
    return [k for k in range(n, 1, -1) if n % k == 0]


def _splits(f: Ints, k: int) -> bool:
    """Whether ``f`` has a first mode of size ``k`` (see the module docstring)."""
    grid = f.reshape(-1, k)
    first = grid[0]
    t = int(first[1])
    return bool(np.array_equal(first, t * np.arange(k, dtype=np.int64))
                and np.array_equal(grid, grid[:, :1] + first[None, :]))


def decompose(f: Ints, leaves: Sequence[int]) -> tuple[Modes, ...] | None:
    """Modes for each leaf (sizes multiplying to it) of a layout equal to ``f`` on every index,
    or ``None`` when no layout whose shape refines ``leaves`` has this function; ``f(0)`` must be 0.
    """
    if f.size == 0 or int(f[0]) != 0:
        return None
    steps = [0]

    def solve(g: Ints, leaf: int, rest: int) -> list[Modes] | None:
        if leaf == len(leaves):
            return [] if g.size == 1 else None
        if rest == 1:
            tail = solve(g, leaf + 1, leaves[leaf + 1] if leaf + 1 < len(leaves) else 1)
            return None if tail is None else [(), *tail]
        for k in _divisors(rest):
            steps[0] += 1
            if steps[0] > _STEPS:
                raise TooComplexError(
                    f"decompose: more than {_STEPS} trials for a function of {f.size} indices; "
                    "give a smaller layout")
            if not _splits(g, k):
                continue
            tail = solve(g[::k], leaf, rest // k)
            if tail is not None:
                mode = (k, int(g[1]))
                return [(mode, *tail[0]), *tail[1:]]
        return None

    if not leaves:
        return () if f.size == 1 else None
    found = solve(f, 0, leaves[0])
    if found is None:
        return None
    return tuple(m if m else ((1, 0),) for m in found)


def candidate(f: Ints, leaves: Sequence[int]) -> tuple[Modes, ...]:
    """A layout that follows ``f`` as far as a greedy choice can: each mode the longest run of
    equal steps that divides what is left of its leaf (for the witness where none is exact)."""
    out: list[Modes] = []
    g = f
    for leaf in leaves:
        modes: list[tuple[int, int]] = []
        rest = leaf
        while rest > 1:
            t = int(g[1] - g[0])
            k = next((k for k in _divisors(rest)
                      if np.array_equal(g[:k] - g[0], t * np.arange(k, dtype=np.int64))), rest)
            modes.append((k, t))
            g = g[::k]
            rest //= k
        out.append(tuple(modes) or ((1, 0),))
    return tuple(out)


def first_difference(a: Ints, b: Ints) -> int | None:
    """The first index where two functions differ (``None``: equal everywhere)."""
    diff = np.flatnonzero(a != b)
    return None if diff.size == 0 else int(diff[0])
