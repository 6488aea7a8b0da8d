"""A ``linalg.generic`` input's indexing map as transform maps, the way rocMLIR's regularize pass
rewrites a parallel generic to identity maps (``insertTransposeAndBroadcastTransforms`` in
``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``): dims the map does not use are added as
unit dims and then broadcast, and a permutation becomes a PassThrough.

The maps returned are top-first, from the iteration space (the output's shape) down to the input.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._maps import affine as A
from .._maps.transform_map import TransformMap
from .._maps.transforms import AddDim, AnyTransform, Broadcast, ConstDim, PassThrough
from ..errors import InvalidTransformError


def indexing_maps(amap: A.AffineMap, space: Sequence[int],
                  operand: Sequence[int]) -> tuple[TransformMap, ...]:
    """The views that let an input of shape ``operand`` be read with the identity map over the
    iteration ``space``, given its indexing map ``amap`` (a projected permutation; a result may
    also be the constant 0 on a unit dim). ``()`` for the identity.

    Example: ``affine_map<(d0, d1, d2) -> (d2)>`` on ``memref<12xf32>`` over ``12x12x12`` gives
    ``<AddDim{1} ["exp0"] ...>, <AddDim{1} ["exp1"] ...>, <PassThrough ["exp2"] ...>`` (``12`` to
    ``1x1x12``) above ``<Broadcast{1, 1} ...>`` (``1x1x12`` to ``12x12x12``).
    """
    space, operand = tuple(space), tuple(operand)
    if amap.num_dims != len(space) or len(amap.results) != len(operand):
        raise InvalidTransformError(
            f"indexing map {amap} has {amap.num_dims} dims and {len(amap.results)} results but the "
            f"loops are {list(space)} and the operand is {list(operand)}")
    below: list[TransformMap] = []  # bottom-up
    results = list(amap.results)
    if any(isinstance(r, A.ConstExpr) for r in results):
        below.append(_drop_constants(results, operand))
        operand = below[-1].upper_bounds
        results = [r for r in results if not isinstance(r, A.ConstExpr)]
    dims: list[int] = []
    for r in results:
        if not isinstance(r, A.DimExpr) or r.index in dims:
            raise InvalidTransformError(
                f"indexing map {amap} is not a projected permutation (result {A.print_expr(r)})")
        dims.append(r.index)
    for d, size in zip(dims, operand, strict=True):
        if size != space[d]:
            raise InvalidTransformError(
                f"indexing map {amap}: d{d} runs over {space[d]} but the operand dim is {size}")
    if dims != list(range(len(space))):
        below.append(_permute_and_add(dims, space, operand))
        unit = below[-1].upper_bounds
        broadcast = [d for d in range(len(space)) if d not in dims and space[d] != 1]
        if broadcast:
            below.append(_broadcast(broadcast, space, unit))
    return tuple(reversed(below))


def _drop_constants(results: list[A.AffineExpr], operand: tuple[int, ...]) -> TransformMap:
    ops: list[AnyTransform] = []
    upper: list[int] = []
    for i, (r, size) in enumerate(zip(results, operand, strict=True)):
        if isinstance(r, A.ConstExpr):
            if r.value != 0 or size != 1:
                raise InvalidTransformError(
                    f"indexing map result {r.value} on an operand dim of size {size}: only the "
                    "constant 0 on a unit dim is supported")
            ops.append(ConstDim((0, 1), (), (), (f"const{i}",), (i,)))
        else:
            ops.append(PassThrough((), (f"dim{i}",), (len(upper),), (f"dim{i}",), (i,)))
            upper.append(size)
    return TransformMap(tuple(ops), tuple(upper), operand)


def _permute_and_add(dims: list[int], space: tuple[int, ...], operand: tuple[int, ...]) -> TransformMap:
    ops: list[AnyTransform] = []
    upper: list[int] = []
    for d in range(len(space)):
        if d in dims:
            ops.append(PassThrough((), (f"dim{d}",), (d,), (f"in{dims.index(d)}",), (dims.index(d),)))
            upper.append(space[d])
        else:
            ops.append(AddDim((1,), (f"exp{d}",), (d,), (), ()))
            upper.append(1)
    return TransformMap(tuple(ops), tuple(upper), operand)


def _broadcast(dims: list[int], space: tuple[int, ...], unit: tuple[int, ...]) -> TransformMap:
    ops: list[AnyTransform] = [Broadcast(tuple(1 for _ in dims), tuple(f"dim{d}" for d in dims),
                                      tuple(dims), tuple(f"dim{d}" for d in dims), tuple(dims))]
    kept = [d for d in range(len(space)) if d not in dims]
    if kept:
        names = tuple(f"dim{d}" for d in kept)
        ops.append(PassThrough((), names, tuple(kept), names, tuple(kept)))
    return TransformMap(tuple(ops), space, unit)
