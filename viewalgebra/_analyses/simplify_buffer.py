"""``simplify``'s last rewrite (docs/simplify.md): a view's buffer absorbs its bottom map where the
map is a reshape of it (MLIR's ``collapse_shape``, ``expand_shape``), and a bottom Merge whose
members are contiguous in the buffer is collapsed over a reshaped buffer. A strided buffer also
absorbs a transpose or a slice (a new layout); a row-major one does not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import assert_never

from .._maps.buffer import Buffer, row_major_strides
from .._maps.transform_map import TransformMap
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
from ..errors import InvalidTransformError


def absorb(tm: TransformMap, buffer: Buffer) -> Buffer | None:
    """The buffer that ``tm`` followed by ``buffer`` reads, over ``tm``'s upper shape, when every op
    of ``tm`` is a reshape, transpose, slice or constant of the buffer's dims."""
    strides = buffer.strides or ()
    upper = [0] * tm.upper_rank
    offset = buffer.offset
    for op in tm.ops:
        match op:
            case PassThrough():
                for u, lo in zip(op.upper_dims, op.lower_dims, strict=True):
                    upper[u] = strides[lo]
            case Slice():
                for u, lo, (begin, _) in zip(op.upper_dims, op.lower_dims, op.ranges, strict=True):
                    upper[u] = strides[lo]
                    offset += begin * strides[lo]
            case Unmerge():
                stride = strides[op.lower_dims[0]]
                for u, s in reversed(list(zip(op.upper_dims, op.params, strict=True))):
                    upper[u] = stride
                    stride *= s
            case Merge():
                stride = _contiguous(op, strides)
                if stride is None:
                    return None
                upper[op.upper_dims[0]] = stride
            case ConstDim():
                for lo, (value, _) in zip(op.lower_dims, op.values, strict=True):
                    offset += value * strides[lo]
            case Pad() | Embed() | Broadcast() | AddDim():
                return None
            case _:
                assert_never(op)
    if sorted(d for op in tm.ops for d in op.upper_dims) != list(range(tm.upper_rank)):
        return None  # an upper dim read twice: the buffer can give it one stride only
    return _layout(tm.upper_bounds, buffer, tuple(upper), offset)


def _layout(shape: tuple[int, ...], buffer: Buffer, strides: tuple[int, ...], offset: int) -> Buffer | None:
    """The buffer of this shape, strides and offset, row-major where the strides of its non-unit
    dims are (a unit dim's stride never counts); ``None`` where a row-major ``buffer`` would
    become strided: rocMLIR's views are over row-major buffers, so a transpose or slice stays a map."""
    row_major = row_major_strides(shape)
    if offset == 0 and all(n == 1 or s == r for n, s, r in zip(shape, strides, row_major, strict=True)):
        return Buffer(shape, buffer.dtype)
    return None if buffer.is_row_major else Buffer(shape, buffer.dtype, strides, offset)


def _contiguous(op: Merge, strides: Sequence[int]) -> int | None:
    """The stride of the Merged dim if its members are contiguous in the buffer, in order."""
    members = [(d, s) for d, s in zip(op.lower_dims, op.params, strict=True) if s != 1]
    if not members:
        return 0
    for (d, _), (e, s) in zip(members, members[1:], strict=False):
        if strides[d] != strides[e] * s:
            return None
    return strides[members[-1][0]]


def collapse_into(tm: TransformMap, buffer: Buffer) -> tuple[TransformMap, Buffer] | None:
    """``tm`` with each Merge's runs of members that are adjacent and contiguous in the buffer
    as one member, over the buffer with those dims collapsed."""
    strides = buffer.strides or ()
    runs: list[list[int]] = []
    for op in tm.ops:
        if not isinstance(op, Merge):
            continue
        members = list(op.lower_dims)
        run = [members[0]]
        for d, e in zip(members, members[1:], strict=False):
            if e == d + 1 and strides[d] == strides[e] * buffer.shape[e]:
                run.append(e)
            else:
                runs.append(run)
                run = [e]
        runs.append(run)
    runs = [r for r in runs if len(r) > 1]
    if not runs:
        return None
    first = {r[0]: r for r in runs}
    inside = {d for r in runs for d in r[1:]}
    new_dim: dict[int, int] = {}
    shape: list[int] = []
    new_strides: list[int] = []
    names = dict(zip((d for op in tm.ops for d in op.lower_dims),
                     (n for op in tm.ops for n in op.lower_names), strict=True))
    for d in range(buffer.rank):
        if d in inside:
            continue
        run = first.get(d, [d])
        new_dim[d] = len(shape)
        shape.append(math.prod(buffer.shape[e] for e in run))
        new_strides.append(strides[run[-1]])
    ops: list[AnyTransform] = []
    for op in tm.ops:
        if isinstance(op, Merge):
            kept = [(d, s) for d, s in zip(op.lower_dims, op.params, strict=True) if d not in inside]
            sizes = tuple(math.prod(buffer.shape[e] for e in first.get(d, [d])) if d in first else s
                          for d, s in kept)
            dims = tuple(new_dim[d] for d, _ in kept)
            lower_names = tuple(names[d] for d, _ in kept)
            ops.append(PassThrough((), op.upper_names, op.upper_dims, lower_names, dims) if len(kept) == 1
                       else Merge(sizes, op.upper_names, op.upper_dims, lower_names, dims))
        else:
            ops.append(type(op)(op.params, op.upper_names, op.upper_dims, op.lower_names,
                                tuple(new_dim[d] for d in op.lower_dims)))
    layout = _layout(tuple(shape), buffer, tuple(new_strides), buffer.offset)
    try:
        collapsed = TransformMap(tuple(ops), tm.upper_bounds, tuple(shape))
    except InvalidTransformError:
        return None
    return None if layout is None else (collapsed, layout)
