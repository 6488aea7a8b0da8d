"""Numeric evaluation of transform maps: scalar (from the affine equations) and numpy-vectorized
(written per op, independently of the equations, so each checks the other).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import assert_never

import numpy as np
import numpy.typing as npt

from .._common.ints import integers
from ..errors import CoordinateError, TooComplexError
from . import affine as A
from .affine import evaluate_expr
from .equations import affine_map_of, validity_checks
from .transform_map import TransformMap, require_meaningful
from .transforms import (
    AddDim,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def check_coords(coords: Sequence[int], shape: tuple[int, ...], what: str) -> tuple[int, ...]:
    """``coords`` as a tuple of ints, or ``CoordinateError`` if it is not a point of ``shape``."""
    point = integers(coords, f"{what}: coordinates", CoordinateError)
    if len(point) != len(shape):
        raise CoordinateError(
            f"{what}: {len(point)} coordinates for a space of rank {len(shape)}")
    for k, (c, n) in enumerate(zip(point, shape, strict=True)):
        if not 0 <= c < n:
            raise CoordinateError(f"{what}: coordinate {k} is {c}, outside [0, {n})")
    return point


def points_array(points: IntArray, rank: int, what: str) -> IntArray:
    """``points`` as an int64 array of shape ``(N, rank)``, or ``CoordinateError``."""
    given = np.asarray(points)
    if given.size and given.dtype.kind not in "iu":  # 1.5 or True must not become 1
        raise CoordinateError(f"{what}: points must be integers, got an array of {given.dtype}")
    if given.dtype.kind == "u" and given.size and int(given.max()) > INT64_MAX:
        raise CoordinateError(f"{what}: points beyond 64-bit integers")
    array = given.astype(np.int64)
    if array.ndim != 2 or array.shape[1] != rank:
        raise CoordinateError(
            f"{what}: points must have shape (N, {rank}), got {tuple(array.shape)}")
    return array


INT64_MAX = 2**63 - 1


def magnitude(e: A.AffineExpr, bounds: Sequence[int]) -> int:
    """An upper bound on ``|e|`` when each ``|d_i| <= bounds[i]`` (exact Python integers)."""
    if isinstance(e, A.DimExpr):
        return int(bounds[e.index])
    if isinstance(e, A.ConstExpr):
        return abs(e.value)
    lhs = magnitude(e.lhs, bounds)
    if e.op == "+":
        return lhs + magnitude(e.rhs, bounds)
    c = abs(magnitude(e.rhs, bounds))
    if e.op == "*":
        return lhs * c
    if e.op == "mod":
        return c
    return lhs  # floordiv, ceildiv by a positive constant: |x div c| <= |x|


def require_int64(magnitudes: Sequence[int], what: str) -> None:
    """Refuse numpy evaluation whose int64 arithmetic could overflow (it would wrap silently)."""
    if any(m > INT64_MAX for m in magnitudes):
        raise TooComplexError(
            f"{what}: values can reach {max(magnitudes)}, beyond 64-bit integers; "
            "use the scalar evaluation or the ISL relation instead")


def evaluate(tm: TransformMap, coords: Sequence[int]) -> tuple[tuple[int, ...], bool]:
    """The lower coordinates of an upper point, and whether the point is valid (docs/semantics.md).

    No bounds check on ``coords``: outside the box the compiled equations still apply.
    Example: for ``<Pad{2, 1} ["x"] at [0] -> ["x"] at [0]>`` over ``[7] -> [4]``,
    ``evaluate(tm, (1,)) == ((-1,), False)``.
    """
    amap = affine_map_of(tm)
    point = integers(coords, "evaluate: coordinates", CoordinateError)
    lower = tuple(evaluate_expr(e, point) for e in amap.results)
    valid = all(0 <= lower[c.dim] < c.bound for c in validity_checks(tm))
    return lower, valid


def evaluate_chain(maps: Sequence[TransformMap], point: Sequence[int]) -> tuple[int, ...] | None:
    """The lower point of ``point`` through maps listed top first, or ``None`` where it is invalid."""
    lower = tuple(point)
    for m in maps:
        lower, valid = evaluate(m, lower)
        if not valid:
            return None
    return lower


def evaluate_array(tm: TransformMap, coords: IntArray) -> tuple[IntArray, BoolArray]:
    """``evaluate`` for many points at once: ``coords`` has shape ``(N, upper_rank)``.

    Returns lower coordinates of shape ``(N, lower_rank)`` and a validity mask of shape ``(N,)``.
    """
    require_meaningful(tm)
    coords = points_array(coords, tm.upper_rank, "evaluate_array")
    if len(coords):
        largest = np.abs(coords).max(axis=0).tolist()
        require_int64([magnitude(e, largest) for e in affine_map_of(tm).results], "evaluate_array")
    return apply_array(tm, coords)


def apply_array(tm: TransformMap, coords: IntArray) -> tuple[IntArray, BoolArray]:
    """``evaluate_array`` without its checks: the caller has checked that ``tm`` is meaningful,
    that ``coords`` has shape ``(N, upper_rank)`` and that no value can leave 64-bit integers."""
    # Column-major: each op reads and writes whole columns, which are then contiguous.
    n = coords.shape[0]
    coords = np.asfortranarray(coords)
    out = np.zeros((n, tm.lower_rank), dtype=np.int64, order="F")
    valid = np.ones(n, dtype=np.bool_)

    for op in tm.ops:
        u, lo = list(op.upper_dims), list(op.lower_dims)
        match op:
            case PassThrough():
                out[:, lo] = coords[:, u]
            case Pad():
                for k, (ud, ld) in enumerate(zip(u, lo, strict=True)):
                    out[:, ld] = coords[:, ud] - op.params[2 * k]
            case Slice():
                for k, (ud, ld) in enumerate(zip(u, lo, strict=True)):
                    out[:, ld] = coords[:, ud] + op.params[2 * k]
            case Embed():
                out[:, lo[0]] = coords[:, u] @ np.asarray(op.params, dtype=np.int64)
            case Unmerge():
                acc = coords[:, u[0]].copy()
                for ud, s in zip(u[1:], op.params[1:], strict=True):
                    acc = acc * s + coords[:, ud]
                out[:, lo[0]] = acc
            case Merge():
                _merge_array(coords[:, u[0]], op.params, out, lo)
            case Broadcast():
                for ud, ld, p in zip(u, lo, op.params, strict=True):
                    out[:, ld] = coords[:, ud] % p
            case ConstDim():
                for k, ld in enumerate(lo):
                    out[:, ld] = op.params[2 * k]
            case AddDim():
                pass
            case _:
                assert_never(op)
    for c in validity_checks(tm):
        column = out[:, c.dim]
        np.logical_and(valid, (column >= 0) & (column < c.bound), out=valid)
    return out, valid


def apply_columns(tm: TransformMap, columns: Sequence[IntArray]) -> tuple[list[IntArray], BoolArray]:
    """``apply_array`` on a grid: the upper coordinates as one array per dim, broadcastable against
    each other (``np.arange(n).reshape(...)`` per dim of a box, say), the lower ones likewise.

    Each op computes on arrays only as large as the dims it reads: a Merge of one upper dim divides
    that dim's values, not every point's. The arithmetic is ``apply_array``'s, with the same
    caller's checks (a meaningful map, no value beyond 64-bit integers); the validity mask
    broadcasts like the columns.
    """
    out = lower_columns(tm, columns)
    valid = np.ones((1,) * max((c.ndim for c in columns), default=0), dtype=np.bool_)
    for mask in check_masks(tm, out):
        valid = valid & mask
    return out, valid


def lower_columns(tm: TransformMap, columns: Sequence[IntArray]) -> list[IntArray]:
    """The lower coordinates of ``apply_columns``, without the validity."""
    ndim = max((c.ndim for c in columns), default=0)
    zero = np.zeros((1,) * ndim, dtype=np.int64)
    out: list[IntArray] = [zero] * tm.lower_rank
    for op in tm.ops:
        u, lo = op.upper_dims, op.lower_dims
        match op:
            case PassThrough():
                for ud, ld in zip(u, lo, strict=True):
                    out[ld] = columns[ud]
            case Pad():
                for k, (ud, ld) in enumerate(zip(u, lo, strict=True)):
                    out[ld] = columns[ud] - op.params[2 * k]
            case Slice():
                for k, (ud, ld) in enumerate(zip(u, lo, strict=True)):
                    out[ld] = columns[ud] + op.params[2 * k]
            case Embed():
                acc = zero
                for ud, c in zip(u, op.params, strict=True):
                    acc = acc + columns[ud] * c
                out[lo[0]] = acc
            case Unmerge():
                acc = columns[u[0]]
                for ud, s in zip(u[1:], op.params[1:], strict=True):
                    acc = acc * s + columns[ud]
                out[lo[0]] = acc
            case Merge():
                total = math.prod(op.params)  # exact: numpy's product wraps past 64 bits
                rem, prev_stride = columns[u[0]], None
                for i, ld in enumerate(lo):  # as _merge_array
                    stride = math.prod(op.params[i + 1:])
                    if stride in (total, prev_stride):
                        out[ld] = zero
                    else:
                        out[ld], rem = np.divmod(rem, stride)
                    prev_stride = stride
            case Broadcast():
                for ud, ld, p in zip(u, lo, op.params, strict=True):
                    out[ld] = columns[ud] % p
            case ConstDim():
                for k, ld in enumerate(lo):
                    out[ld] = zero + op.params[2 * k]
            case AddDim():
                pass
            case _:
                assert_never(op)
    return out


def check_masks(tm: TransformMap, lower: Sequence[IntArray]) -> list[BoolArray]:
    """Where each of the map's validity checks (``validity_checks``, in order) holds, given the
    lower coordinates of ``lower_columns``."""
    return [(lower[c.dim] >= 0) & (lower[c.dim] < c.bound) for c in validity_checks(tm)]


def lower_dependencies(tm: TransformMap, upper: Sequence[frozenset[int]]) -> list[frozenset[int]]:
    """Which of some dims each lower coordinate of the map can depend on, given those each upper
    coordinate can depend on: ``lower_columns``'s data flow (an upper coordinate that no op
    reads is dropped; a lower one no op writes is 0)."""
    out: list[frozenset[int]] = [frozenset()] * tm.lower_rank
    for op in tm.ops:
        u, lo = op.upper_dims, op.lower_dims
        match op:
            case PassThrough() | Pad() | Slice() | Broadcast():
                for ud, ld in zip(u, lo, strict=True):
                    out[ld] = upper[ud]
            case Embed() | Unmerge():
                out[lo[0]] = frozenset().union(*(upper[ud] for ud in u))
            case Merge():
                for ld in lo:
                    out[ld] = upper[u[0]]
            case ConstDim():
                for ld in lo:
                    out[ld] = frozenset()
            case AddDim():
                pass
            case _:
                assert_never(op)
    return out


def _merge_array(x: IntArray, sizes: tuple[int, ...], out: IntArray, lower: list[int]) -> None:
    # Walk the lower dims slowest first; a dim whose stride equals the total (all sizes so far 1)
    # or the previous stride (its size is 1) is constant 0; the first other dim is not reduced.
    total = math.prod(sizes)  # exact: numpy's product wraps past 64 bits
    rem = x.copy()
    prev_stride = None
    for i, d in enumerate(lower):
        stride = math.prod(sizes[i + 1:])
        if stride in (total, prev_stride):
            out[:, d] = 0
        else:
            out[:, d] = rem // stride
            rem = rem % stride
        prev_stride = stride
