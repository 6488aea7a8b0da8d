"""Which lower dims an upper dim moves, and by which (size, stride) pieces (docs/sub-dimensions.md).

For an upper dim ``d`` of a chain and a lower dim ``j`` of its bottom, let ``l_j(x)`` be the lower
coordinate the compiled equations give at an upper point ``x`` of the box (padding included: the
index arithmetic rocMLIR emits), and ``g(x, t) = l_j(x with x_d = t) - l_j(x with x_d = 0)``. The
dependence of ``l_j`` on ``d`` is **affine-strided** when there are pieces ``(size n_i, stride s_i,
upper_stride a_i)`` with ``a_1 = 1``, ``a_{i+1} = a_i * n_i`` (zero-stride pieces dropped) such that

    g(x, t) = sum_i ((t div a_i) mod n_i) * s_i     for every x of the box and t in [0, bound_d).

Each piece is a digit of ``t`` (``a_i`` its place value in ``t``) that lands in ``l_j`` as a digit of
place value ``s_i`` and ``n_i`` values: the meaning of rocMLIR's ``SubDimInfo{size, stride}`` at
lower dim ``j``, which records ``n_i`` and ``s_i`` (and not ``a_i``). Merging neighbours that
continue each other (``s_{i+1} = n_i * s_i``) and capping the last size at ``ceil(bound_d / a_i)``
makes the pieces unique; both paths below find exactly these (greedily, along the row where every
other coordinate is 0, then verified over the whole box). Where the verification fails, no pieces
exist (the greedy pieces are the only candidates) and the answer names the points that show it.

Two paths, each exact: numpy over every point of a small chain, ISL (``lexmin`` of the first place
the greedy digit breaks, emptiness of the set where the pieces fail) otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, cast

import islpy as isl
import numpy as np

from .._engine.budget import check_timeout, run_bounded
from .._engine.cache import AnswerCache
from .._maps.chain import Chain
from .._maps.equations import affine_map_of, dim_names
from .._maps.evaluate import IntArray, apply_array, evaluate, magnitude
from .._maps.relations import CTX, affine_function, box, point_coords, val
from .._maps.transform_map import TransformMap, require_meaningful
from .._maps.view import all_points
from ..errors import InvalidArgumentError

ENUMERATE_LIMIT = 1 << 12
"""Chains of at most this many upper points are answered by numpy over every point."""

Method = Literal["auto", "enumerate", "isl"]

ANSWERS: AnswerCache[tuple[Chain, int], SubDimensions] = AnswerCache(1024)
"""Answers by (chain, dim): chains are values, so equal chains share answers."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One digit of an upper coordinate ``t`` as it lands in a lower coordinate:
    ``((t div upper_stride) mod size) * stride``.

    Example: ``Merge{4, 8}`` over ``[32] -> [4, 8]`` splits its dim into ``Piece(4, 1, 8)`` in lower
    dim 0 and ``Piece(8, 1, 1)`` in lower dim 1.
    """

    size: int
    """How many values the digit takes (at least 2); rocMLIR's ``SubDimInfo.size``."""
    stride: int
    """Its place value in the lower coordinate; rocMLIR's ``SubDimInfo.stride``."""
    upper_stride: int
    """Its place value in the upper coordinate (rocMLIR does not record it)."""


@dataclass(frozen=True, slots=True)
class LowerDependence:
    """How one lower dim of the bottom depends on the upper dim asked about.

    Example: for ``Merge{4, 8}`` over ``[32] -> [4, 8]``, dim 0 gives
    ``LowerDependence(1, (Piece(8, 1, 1),))`` at lower dim 1; after ``Unmerge{3, 10}`` and
    ``Merge{5, 6}``, dim 1 gives ``pieces=None`` at lower dim 0 (the carry depends on dim 0).
    """

    dim: int
    """The lower dim (of the chain's bottom)."""
    pieces: tuple[Piece, ...] | None
    """The pieces, slowest-varying digit of ``t`` last (empty: the dim does not move);
    ``None``: the dependence is not affine-strided."""
    witness: tuple[tuple[int, ...], ...] = ()
    """Where ``pieces`` is ``None``: upper points that show it, in pairs ``(x with t = 0, x)``;
    the first pair moves the lower coordinate by a different amount than the pieces found along
    the origin's row predict, and when a second pair (on that row, same ``t``) follows, the
    amount depends on the other coordinates."""
    reason: str | None = None
    """Where ``pieces`` is ``None``: what the witness points show, in words."""

    @property
    def strided(self) -> bool:
        """Whether the dependence is affine-strided."""
        return self.pieces is not None

    @property
    def moves(self) -> bool:
        """Whether the upper dim changes this lower coordinate somewhere in the box."""
        return self.pieces is None or bool(self.pieces)


@dataclass(frozen=True, slots=True)
class SubDimensions:
    """The answer of ``sub_dimensions``: for one upper dim, its dependence in every lower dim of
    the chain's bottom (docs/sub-dimensions.md).

    Example: ``str(sub_dimensions(merge, 0))`` for ``Merge{4, 8}`` over ``[32] -> [4, 8]`` reads
    ``upper dim 0: lower dim 0: 4@1 (from 8); lower dim 1: 8@1 (from 1)``.
    """

    dim: int
    """The upper dim asked about."""
    size: int
    """Its bound."""
    lower: tuple[LowerDependence, ...]
    """One entry per lower dim of the bottom, in order."""

    @property
    def strided(self) -> bool:
        """Whether every lower dim depends on the upper dim by pieces."""
        return all(dep.strided for dep in self.lower)

    @property
    def moved(self) -> tuple[int, ...]:
        """The lower dims the upper dim changes somewhere."""
        return tuple(dep.dim for dep in self.lower if dep.moves)

    def sub_dim_info(self) -> dict[int, tuple[tuple[int, int], ...]] | None:
        """rocMLIR's shape of the answer: lower dim -> ``(size, stride)`` pairs, for the dims that
        move (``None`` when some dependence is not affine-strided)."""
        if not self.strided:
            return None
        return {dep.dim: tuple((p.size, p.stride) for p in dep.pieces or ())
                for dep in self.lower if dep.pieces}

    def __str__(self) -> str:
        parts: list[str] = []
        for dep in self.lower:
            if dep.pieces is None:
                parts.append(f"lower dim {dep.dim}: not affine-strided ({dep.reason})")
            elif dep.pieces:
                parts.append(f"lower dim {dep.dim}: " + ", ".join(
                    f"{p.size}@{p.stride} (from {p.upper_stride})" for p in dep.pieces))
        return f"upper dim {self.dim}: " + ("; ".join(parts) if parts else "moves no lower dim")


def sub_dimensions(chain: object, dim: int | str, *, timeout: float | None = 60.0) -> SubDimensions:
    """Exactly which lower dims of the chain's bottom the upper dim ``dim`` (an index, or a dim
    name of the top map) moves, and by which ``(size, stride)`` pieces; or, per lower dim, that the
    dependence is not affine-strided, with points that show it (docs/sub-dimensions.md).

    ``chain`` is a ``Chain``, a map, maps listed top first, map text or a ``View`` (its maps).
    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond); answers are cached.

    Example: for ``<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["x"] at [0]>`` over ``[4, 8] -> [32]``
    then ``<Merge{2, 16} ["x"] at [0] -> ["p", "q"] at [0, 1]>`` over ``[32] -> [2, 16]``, dim
    ``"a"`` moves lower dim 0 by ``Piece(2, 1, 2)`` and lower dim 1 by ``Piece(2, 8, 1)``.
    """
    c = chain_of(chain, "sub_dimensions")
    d = upper_dim(c, dim, "sub_dimensions")
    check_timeout(timeout, "sub_dimensions")
    cached = ANSWERS.get((c, d))
    if cached is not None:
        return cached
    answer = _answer(c, d, timeout, "auto")
    ANSWERS.put((c, d), answer)
    return answer


def chain_of(chain: object, what: str) -> Chain:
    """``Chain.of`` with an ``InvalidArgumentError`` naming the function for anything else."""
    from .._maps.view import View  # noqa: PLC0415 -- kept beside its only use
    if not isinstance(chain, Chain | TransformMap | str | View | list | tuple):
        raise InvalidArgumentError(
            f"{what}: expected a Chain, a TransformMap, maps listed top first, map text or a View, "
            f"got {chain!r}")
    c = Chain.of(cast("Chain | TransformMap | str | View | Sequence[TransformMap]", chain))
    for m in c.maps:
        require_meaningful(m)
    return c


def upper_dim(chain: Chain, dim: object, what: str) -> int:
    """The index of an upper dim given by index or by the top map's dim name."""
    rank = len(chain.upper_bounds)
    if isinstance(dim, bool) or not isinstance(dim, int | str):
        raise InvalidArgumentError(f"{what}: dim must be an upper dim index or name, got {dim!r}")
    if isinstance(dim, str):
        names = [n for op in chain.maps[0].ops for n in op.upper_names]
        dims = [d for op in chain.maps[0].ops for d in op.upper_dims]
        found = sorted({d for n, d in zip(names, dims, strict=True) if n == dim})
        if len(found) != 1:
            raise InvalidArgumentError(
                f"{what}: the top map has {'no' if not found else 'several'} upper dims named "
                f"{dim!r} (its dims: {list(dim_names(chain.maps[0], 'upper'))})")
        return found[0]
    if not 0 <= dim < rank:
        raise InvalidArgumentError(f"{what}: upper dim {dim} out of range for rank {rank}")
    return dim


def _answer(chain: Chain, d: int, timeout: float | None, method: Method) -> SubDimensions:
    points = math.prod(chain.upper_bounds)
    if method == "enumerate" or (method == "auto" and points <= ENUMERATE_LIMIT and _fits_int64(chain)):
        return _enumerated(chain, d)
    return run_bounded(_by_isl, (chain.maps, d), timeout, "sub_dimensions")


def _fits_int64(chain: Chain) -> bool:
    largest = [max(b - 1, 0) for b in chain.upper_bounds]
    for m in chain.maps:
        mags = [magnitude(e, largest) for e in affine_map_of(m).results]
        if any(x > 2**62 for x in mags):
            return False
        largest = mags
    return True


def _greedy(size: int, value_at: Callable[[int], int],
            first_break: Callable[[int, int, int], int]) -> tuple[Piece, ...]:
    """The unique maximal digits of ``g`` along one row: at place value ``a``, the digit's stride
    is ``g(a)`` and it extends while ``g(k a) = k g(a)``."""
    pieces: list[Piece] = []
    a = 1
    while a < size:
        s = value_at(a)
        cap = -(-size // a)  # the k with k * a < size
        k = first_break(a, s, cap)
        if s != 0:
            pieces.append(Piece(k, s, a))
        a *= k
    return tuple(pieces)


def _predict(pieces: tuple[Piece, ...], t: IntArray | int) -> IntArray | int:
    total: IntArray | int = 0
    for p in pieces:
        total = total + ((t // p.upper_stride) % p.size) * p.stride
    return total


def _lower_point(maps: tuple[TransformMap, ...], point: tuple[int, ...]) -> tuple[int, ...]:
    """The compiled equations at one point, through every map (validity aside)."""
    for m in maps:
        point, _ = evaluate(m, point)
    return point


def _not_strided(maps: tuple[TransformMap, ...], d: int, j: int, pieces: tuple[Piece, ...],
                 x: tuple[int, ...]) -> LowerDependence:
    """The dependence at lower dim ``j`` given a point ``x`` where ``pieces`` fail."""
    t = x[d]
    x0 = tuple(0 if k == d else c for k, c in enumerate(x))
    moved = _lower_point(maps, x)[j] - _lower_point(maps, x0)[j]
    row = tuple(t if k == d else 0 for k in range(len(x)))
    origin = tuple(0 for _ in x)
    along_row = _lower_point(maps, row)[j] - _lower_point(maps, origin)[j]
    if along_row != moved:
        return LowerDependence(j, None, (x0, x, origin, row), (
            f"lower dim {j} moves by {moved} from {list(x0)} to {list(x)} but by {along_row} from "
            f"{list(origin)} to {list(row)}: the step depends on the other coordinates"))
    return LowerDependence(j, None, (x0, x), (
        f"lower dim {j} moves by {moved} from {list(x0)} to {list(x)}; the digits of upper dim {d} "
        f"below it ({', '.join(f'{p.size}@{p.stride}' for p in pieces) or 'none'}) give "
        f"{_predict(pieces, t)}: no (size, stride) pieces produce this row"))


# {{{ numpy


def _enumerated(chain: Chain, d: int) -> SubDimensions:
    shape = chain.upper_bounds
    rank, size = len(shape), shape[d]
    lower_rank = len(chain.lower_bounds)
    if math.prod(shape) == 0:
        return SubDimensions(d, size, tuple(LowerDependence(j, ()) for j in range(lower_rank)))
    coords = all_points(shape)
    for m in chain.maps:
        coords, _ = apply_array(m, coords)
    grid = coords.reshape((*shape, lower_rank))
    rows = np.moveaxis(grid, d, -2).reshape(math.prod(shape) // size, size, lower_rank)
    steps = rows - rows[:, :1, :]
    others = [n for k, n in enumerate(shape) if k != d]
    deps: list[LowerDependence] = []
    for j in range(lower_rank):
        g = steps[:, :, j]
        row0 = g[0]

        def first_break(a: int, s: int, cap: int, row0: IntArray = row0) -> int:
            ks = np.arange(cap, dtype=np.int64)
            bad = np.flatnonzero(row0[ks * a] != ks * s)
            return int(bad[0]) if len(bad) else cap

        pieces = _greedy(size, lambda a, row0=row0: int(row0[a]), first_break)
        ts = np.arange(size, dtype=np.int64)
        predicted = np.zeros(size, dtype=np.int64) + _predict(pieces, ts)
        bad = np.argwhere(g != predicted[None, :])
        if not len(bad):
            deps.append(LowerDependence(j, pieces))
            continue
        r, t = (int(v) for v in bad[0])
        rest = np.unravel_index(r, others) if others else ()
        x = [int(v) for v in rest]
        x.insert(d, t)
        deps.append(_not_strided(chain.maps, d, j, pieces, tuple(x)))
    _ = rank
    return SubDimensions(d, size, tuple(deps))


# }}}


# {{{ ISL


def _by_isl(maps: tuple[TransformMap, ...], d: int) -> SubDimensions:
    shape = maps[0].upper_bounds
    rank, size = len(shape), shape[d]
    lower_rank = maps[-1].lower_rank
    the_box = box(shape)
    if the_box.is_empty():
        return SubDimensions(d, size, tuple(LowerDependence(j, ()) for j in range(lower_rank)))
    space = isl.Space.alloc(CTX, 0, rank, rank)
    comp = isl.MultiAff.identity(space)
    for m in maps:
        comp = affine_function(affine_map_of(m)).pullback_multi_aff(comp)
    ls = isl.LocalSpace.from_space(isl.Space.set_alloc(CTX, 0, rank))
    zero = isl.Aff.zero_on_domain(ls)
    t_var = isl.Aff.var_on_domain(ls, isl.dim_type.set, d)
    row = the_box
    for k in range(rank):
        if k != d:
            row = row & isl.Aff.var_on_domain(ls, isl.dim_type.set, k).eq_set(zero)
    # x -> x with x_d = 0, to compare each point with the start of its row
    to_row_start = isl.MultiAff.identity(space).set_aff(d, zero)
    origin = tuple(0 for _ in shape)
    base = _lower_point(maps, origin)
    deps: list[LowerDependence] = []
    for j in range(lower_rank):
        lj = comp.get_at(j)
        start = base[j]

        def value_at(a: int, j: int = j) -> int:
            return _lower_point(maps, tuple(a if k == d else 0 for k in range(rank)))[j] - base[j]

        def first_break(a: int, s: int, cap: int, lj: isl.Aff = lj, start: int = start) -> int:
            step = lj.add_constant_val(val(-start)).sub(
                t_var.scale_down_val(val(a)).floor().scale_val(val(s)))
            where = (row & t_var.mod_val(val(a)).eq_set(zero)
                     & t_var.ge_set(zero.add_constant_val(val(2 * a))) & step.ne_set(zero))
            if where.is_empty():
                return cap
            return point_coords(where.lexmin().sample_point(), rank)[d] // a

        pieces = _greedy(size, value_at, first_break)
        predicted = zero
        for p in pieces:
            predicted = predicted.add(t_var.scale_down_val(val(p.upper_stride)).floor()
                                      .mod_val(val(p.size)).scale_val(val(p.stride)))
        step = lj.sub(lj.pullback_multi_aff(to_row_start))
        wrong = the_box & step.sub(predicted).ne_set(zero)
        if wrong.is_empty():
            deps.append(LowerDependence(j, pieces))
        else:
            deps.append(_not_strided(maps, d, j, pieces, point_coords(wrong.sample_point(), rank)))
    return SubDimensions(d, size, tuple(deps))


# }}}
