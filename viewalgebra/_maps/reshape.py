"""``memref.collapse_shape`` and ``memref.expand_shape`` as transform maps, the way rocMLIR's
regularize pass converts them (``mlir/lib/Dialect/Rock/Transforms/Regularize.cpp``): a reshape
is a view whose addresses are those of the row-major reshaped buffer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import InvalidTransformError
from .transform_map import TransformMap
from .transforms import AddDim, AnyTransform, ConstDim, Merge, PassThrough, Unmerge


def _groups(reassociation: Sequence[Sequence[int]], rank: int, what: str) -> list[list[int]]:
    groups = [list(g) for g in reassociation]
    flat = [d for g in groups for d in g]
    if sorted(flat) != sorted(set(flat)) or any(not 0 <= d < rank for d in flat):
        raise InvalidTransformError(
            f"{what}: reassociation {groups} must use distinct dims of a rank-{rank} shape")
    if flat != sorted(flat):
        raise InvalidTransformError(f"{what}: reassociation {groups} must list the dims in order")
    return groups


def collapse_shape_map(source: Sequence[int], reassociation: Sequence[Sequence[int]]) -> TransformMap:
    """The map from the collapsed shape (upper) to ``source`` (lower).

    Example: ``memref.collapse_shape %x [[0, 1, 2]] : memref<1x2x4xf32> into memref<8xf32>`` is
    ``<Merge{1, 2, 4} ["dim0"] at [0] -> ["col0", "col1", "col2"] at [0, 1, 2]>``.
    Source dims in no group must have size 1 (they become ``ConstDim{0, 1}``).
    """
    shape = tuple(source)
    groups = _groups(reassociation, len(shape), "collapse_shape")
    listed = {d for g in groups for d in g}
    ops: list[AnyTransform] = []
    upper: list[int] = []
    for i, group in enumerate(groups):
        name = f"dim{i}"
        if not group:
            ops.append(AddDim((1,), (name,), (i,), (), ()))
            upper.append(1)
        elif len(group) == 1:
            ops.append(PassThrough((), (name,), (i,), (f"col{group[0]}",), tuple(group)))
            upper.append(shape[group[0]])
        else:
            sizes = tuple(shape[d] for d in group)
            ops.append(Merge(sizes, (name,), (i,), tuple(f"col{d}" for d in group), tuple(group)))
            upper.append(math.prod(sizes))
    for d, n in enumerate(shape):
        if d not in listed:
            if n != 1:
                raise InvalidTransformError(
                    f"collapse_shape: source dim {d} of size {n} is in no group (only unit dims may be)")
            ops.append(ConstDim((0, 1), (), (), (f"const{d}",), (d,)))
    return TransformMap(tuple(ops), tuple(upper), shape)


def expand_shape_map(source: Sequence[int], result: Sequence[int],
                     reassociation: Sequence[Sequence[int]]) -> TransformMap:
    """The map from the expanded ``result`` shape (upper) to ``source`` (lower).

    Example: ``memref.expand_shape %x [[0, 1, 2]] : memref<6xf32> into memref<1x2x3xf32>`` is
    ``<Unmerge{2, 3} ["exp1", "exp2"] at [1, 2] -> ["dim0"] at [0]>`` plus
    ``<AddDim{1} ["unit0"] at [0] -> [] at []>`` (unit dims are AddDims, since rocMLIR PR #1755).
    """
    low, up = tuple(source), tuple(result)
    groups = _groups(reassociation, len(up), "expand_shape")
    if len(groups) != len(low):
        raise InvalidTransformError(
            f"expand_shape: {len(groups)} groups for a rank-{len(low)} source {list(low)}")
    ops: list[AnyTransform] = []
    for i, group in enumerate(groups):
        if not group:
            raise InvalidTransformError(f"expand_shape: source dim {i} has an empty group")
        sizes = [up[d] for d in group]
        if math.prod(sizes) != low[i]:
            raise InvalidTransformError(
                f"expand_shape: dims {group} of sizes {sizes} do not multiply to source dim {i} "
                f"of size {low[i]}")
        kept = [d for d in group if up[d] != 1] or group[-1:]
        if len(kept) == 1:
            ops.append(PassThrough((), (f"exp{kept[0]}",), (kept[0],), (f"dim{i}",), (i,)))
        else:
            ops.append(Unmerge(tuple(up[d] for d in kept), tuple(f"exp{d}" for d in kept),
                               tuple(kept), (f"dim{i}",), (i,)))
        ops.extend(AddDim((1,), (f"unit{d}",), (d,), (), ()) for d in group if d not in kept)
    listed = {d for g in groups for d in g}
    for d, n in enumerate(up):
        if d not in listed:
            raise InvalidTransformError(f"expand_shape: result dim {d} of size {n} is in no group")
    return TransformMap(tuple(ops), up, low)
