"""A port of rocMLIR's ``removeUpperDims`` (``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``)
and its comparison with the exact ``restrict`` (docs/sub-dimensions.md): where rocMLIR returns
``failure()`` the port returns ``None`` with the reason, where it would assert it does the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import islpy as isl

from .._analyses.restrict import Restricted, restrict
from .._analyses.sub_dimensions import chain_of, upper_dim
from .._engine.budget import run_bounded
from .._maps.chain import Chain
from .._maps.relations import CTX, chain_function, point_coords, val
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
from ..errors import InvalidArgumentError, InvalidTransformError
from .common import Verdict
from .sub_dimensions import SubDimInfo, row_major_strides

# {{{ removeUpperDims


@dataclass(frozen=True, slots=True)
class RocmlirRemoved:
    """What the port of ``removeUpperDims`` returns: the sub-tile chain, or a failure.

    Example: removing ``"D"`` from ``Unmerge{4, 256} ["D", "B"]`` keeps ``Unmerge{256} ["B"]`` and
    records ``removed_sub_dims=((1, ((4, 256),)),)`` at the bottom dim it feeds.
    """

    maps: tuple[TransformMap, ...] | None
    """The rebuilt maps, top first (``None``: failure; empty: every map was removed)."""
    kept_upper: tuple[int, ...] = ()
    """The top dims of the original chain that the result keeps, in order."""
    kept_lower: tuple[int, ...] = ()
    """The bottom dims of the original chain that the result keeps, in order."""
    removed_sub_dims: tuple[tuple[int, tuple[SubDimInfo, ...]], ...] = ()
    """Per bottom dim, the ``(size, stride)`` digits rocMLIR divided out of it: the result's
    bottom coordinate is the original one with these digits deleted."""
    reason: str | None = None


@dataclass(slots=True)
class _Args:
    kind: type[AnyTransform]
    upper: list[int]
    lower: list[int]
    upper_names: list[str]
    lower_names: list[str]
    params: list[int]


def rocmlir_remove_upper_dims(chain: object, remove: Iterable[int | str]) -> RocmlirRemoved:
    """rocMLIR's ``removeUpperDims`` (by index, or by name through ``convertDimNamesToIndices``):
    drop upper dims (block id, thread id, ...) from the top map and rebuild every map below, top
    first, keeping each op's preserved dims and dividing the removed sub-dimensions out of Unmerge
    and Merge sizes; a Pad on a partly removed dim becomes ``Pad{0, 0}`` (its padding ignored).

    A name selects every top-map dim of that name; unknown names select nothing (as in rocMLIR,
    whose callers list the names of several kernels' dims at once); an index must be in range.

    Example: removing ``"D"`` from ``Unmerge{4, 256} ["D", "B"]`` gives ``Unmerge{256} ["B"]``
    over ``[256] -> [256]`` (the ``-rock-transform-maps-utils-test`` case ``test0 transform_ex2``).
    """
    c = chain_of(chain, "rocmlir_remove_upper_dims")
    if isinstance(remove, str | int):
        raise InvalidArgumentError(
            f"rocmlir_remove_upper_dims: remove must be a collection of dims, got {remove!r}")
    indices: list[int] = []
    for r in remove:
        if isinstance(r, bool) or not isinstance(r, int | str):
            raise InvalidArgumentError(f"rocmlir_remove_upper_dims: dims are indices or names, got {r!r}")
        if isinstance(r, str):
            for op in c.maps[0].ops:
                for name, dim in zip(op.upper_names, op.upper_dims, strict=True):
                    if name == r and dim not in indices:
                        indices.append(dim)
        elif not 0 <= r < len(c.upper_bounds):
            raise InvalidArgumentError(
                f"rocmlir_remove_upper_dims: upper dim {r} out of range for rank {len(c.upper_bounds)}")
        elif r not in indices:
            indices.append(r)
    removed: list[int] = indices
    upper_bounds = list(c.maps[0].upper_bounds)
    sub_dims: dict[int, list[SubDimInfo]] = {}
    results: list[TransformMap] = []
    for m in c.maps:
        step = _remove_from_map(m, removed, upper_bounds, sub_dims)
        if isinstance(step, str):
            return RocmlirRemoved(None, reason=step)
        new_map, removed, upper_bounds, sub_dims = step
        if new_map is not None:
            results.append(new_map)
    top_removed = set(indices)
    kept_upper = tuple(d for d in range(len(c.upper_bounds)) if d not in top_removed)
    kept_lower = tuple(d for d in range(len(c.lower_bounds)) if d not in set(removed))
    digits = tuple((d, tuple(v)) for d, v in sorted(sub_dims.items()) if v)
    return RocmlirRemoved(tuple(results), kept_upper, kept_lower, digits)


def _remove_from_map(m: TransformMap, removed: list[int], upper_bounds: list[int],
                     sub_dims: dict[int, list[SubDimInfo]]
                     ) -> tuple[TransformMap | None, list[int], list[int], dict[int, list[SubDimInfo]]] | str:
    """``removeUpperDimsFromMap``: the rebuilt map (``None``: no op left), the lower dims removed,
    the lower bounds and the removed sub-dimensions for the next map; a string on failure."""
    remove_set = set(removed)
    lower_bounds = list(m.lower_bounds)
    new_sub: dict[int, list[SubDimInfo]] = {}
    args_list: list[_Args] = []
    removed_lower: list[int] = []
    for op in m.ops:
        kept_upper = [d for d in op.upper_dims if d not in remove_set]
        preserved = len(kept_upper) == len(op.upper_dims)
        gone = not kept_upper
        modified = not preserved and not gone
        kept_lower: list[int] = []
        match op:
            case AddDim() | ConstDim() | Broadcast() | Pad() | Merge() | Unmerge():
                if modified and not isinstance(op, Unmerge):
                    return (f"rocMLIR asserts 'must be preserved or removed completely': {op.kind} "
                            f"at {list(op.upper_dims)} with only {kept_upper} kept")
                if preserved or modified:
                    kept_lower = list(op.lower_dims)
            case PassThrough():
                kept_lower = [lo for up, lo in zip(op.upper_dims, op.lower_dims, strict=True)
                              if up in kept_upper]
            case Slice() | Embed():
                return f"removeUpperDims does not handle {op.kind}"
        args = _Args(type(op), kept_upper, kept_lower,
                     [n for n, d in zip(op.upper_names, op.upper_dims, strict=True) if d in kept_upper],
                     [n for n, d in zip(op.lower_names, op.lower_dims, strict=True) if d in kept_lower], [])
        if preserved or modified:
            failed = _new_params(op, args, remove_set, upper_bounds, lower_bounds, sub_dims, new_sub)
            if failed is not None:
                return failed
            args_list.append(args)
        removed_lower.extend(d for d in op.lower_dims if d not in kept_lower)
    up_kept = sorted({d for a in args_list for d in a.upper})
    low_kept = sorted({d for a in args_list for d in a.lower})
    up_index = {d: i for i, d in enumerate(up_kept)}
    low_index = {d: i for i, d in enumerate(low_kept)}
    if not args_list:
        return None, removed_lower, lower_bounds, new_sub
    ops = tuple(a.kind(tuple(a.params), tuple(a.upper_names), tuple(up_index[d] for d in a.upper),
                       tuple(a.lower_names), tuple(low_index[d] for d in a.lower)) for a in args_list)
    try:
        new_map = TransformMap(ops, tuple(upper_bounds[d] for d in up_kept),
                               tuple(lower_bounds[d] for d in low_kept), strict=False)
    except InvalidTransformError as e:
        return f"rocMLIR builds a map its verifier rejects: {e}"
    return new_map, removed_lower, lower_bounds, new_sub


def _new_params(op: AnyTransform, args: _Args, remove_set: set[int], upper_bounds: list[int],
                lower_bounds: list[int], sub_dims: dict[int, list[SubDimInfo]],
                new_sub: dict[int, list[SubDimInfo]]) -> str | None:
    match op:
        case Unmerge():
            strides = row_major_strides(op.params)
            low = args.lower[0]
            seen: set[int] = set()
            for up, st in zip(op.upper_dims, strides, strict=True):
                for size, stride in sub_dims.get(up, []):
                    new_stride = stride * st
                    if new_stride in seen:
                        continue
                    seen.add(new_stride)
                    if size > 1:
                        new_sub.setdefault(low, []).append((size, new_stride))
            for up, size, st in zip(op.upper_dims, op.params, strides, strict=True):
                if up in remove_set and size > 1:
                    new_sub.setdefault(low, []).append((size, st))
            args.params = [upper_bounds[d] for d in args.upper]
            lower_bounds[low] = math.prod(args.params)
        case Merge():
            strides = row_major_strides(op.params)
            upper = args.upper[0]
            infos = sub_dims.setdefault(upper, [])  # rocMLIR's operator[] inserts the key
            for low, st, size in zip(op.lower_dims, strides, op.params, strict=True):
                for r_size, r_stride in infos:
                    top = st * size
                    if r_stride >= top or r_stride * r_size <= st:
                        continue
                    if r_stride * r_size >= top:
                        rhs = max(r_stride, st)
                        if top % rhs:
                            return "non divisible subDim removal found"
                        diff, new_stride = top // rhs, rhs // st
                    elif r_stride >= st:
                        diff, new_stride = r_size, r_stride // st
                    else:
                        if r_stride * r_size % st:
                            return "non divisible subDim removal found"
                        diff, new_stride = r_stride * r_size // st, 1
                    if diff > 1:
                        new_sub.setdefault(low, []).append((diff, new_stride))
                    if lower_bounds[low] % diff:
                        return "non divisible subDim removal found"
                    lower_bounds[low] //= diff
                args.params.append(lower_bounds[low])
        case PassThrough():
            to_lower = dict(zip(op.upper_dims, op.lower_dims, strict=True))
            for up, lo in to_lower.items():
                lower_bounds[lo] = upper_bounds[up]
            for dim, infos in sub_dims.items():
                if dim in to_lower:
                    new_sub[to_lower[dim]] = list(infos)
        case Pad():
            for k, (up, lo) in enumerate(zip(op.upper_dims, op.lower_dims, strict=True)):
                if up in sub_dims:  # a sub-tiled padded dim: its padding is ignored
                    lower_bounds[lo] = upper_bounds[up]
                    args.params += [0, 0]
                    new_sub[lo] = list(sub_dims[up])
                else:
                    args.params += [op.params[2 * k], op.params[2 * k + 1]]
        case Broadcast() | AddDim() | ConstDim():
            args.params = list(op.params)
        case Slice() | Embed():
            return f"removeUpperDims does not handle {op.kind}"
    return None


# }}}


# {{{ comparison of removeUpperDims


@dataclass(frozen=True, slots=True)
class RemoveUpperDimsComparison:
    """rocMLIR's sub-tile chain beside the exact restriction with the removed dims at 0 (the tile
    of block 0, say), on the top dims and bottom dims rocMLIR keeps, the exact bottom coordinates
    compacted as rocMLIR's are (its removed digits deleted).

    Example: ``Unmerge{2, 4} ["bid", "tid"]`` over ``Pad{2, 2}``, without ``bid``: ``rocMLIR
    unsound: rocMLIR reads a point the exact view marks invalid (padding ignored) at [0]``.
    """

    verdict: Verdict
    exact: Restricted
    rocmlir: RocmlirRemoved
    point: tuple[int, ...] | None = None
    """A point of the kept top dims where the two differ."""
    images: tuple[tuple[int, ...] | None, tuple[int, ...] | None] | None = None
    """Its kept bottom coordinates through the exact restriction and through rocMLIR's chain
    (``None``: invalid there)."""
    reason: str | None = None

    def __str__(self) -> str:
        return self.verdict + (f": {self.reason}" if self.reason else "")


def compare_remove_upper_dims(chain: object, remove: Iterable[int | str], *,
                              timeout: float | None = 60.0) -> RemoveUpperDimsComparison:
    """The port of rocMLIR's ``removeUpperDims`` beside the exact ``restrict`` with the removed
    dims fixed at 0: point by point over the kept top dims, the kept bottom coordinates (the exact
    ones with the digits rocMLIR divides out deleted: ``v mod s + (v div (s n)) * s`` per removed
    digit ``(n, s)``, largest first) and the validity. **unsound**: a point valid in rocMLIR's
    chain where the exact restriction is invalid (padding ignored) or goes elsewhere;
    **conservative**: rocMLIR fails, or marks invalid a point the exact view reads; **equal**: the
    same everywhere.

    Example: with ``Pad{2, 2}`` on a dim that an ``Unmerge{2, 4}`` sub-tiles, rocMLIR's block view
    is ``Pad{0, 0}``: at block 0 it reads lower coordinate 0 where the exact view is padding.
    """
    c = chain_of(chain, "compare_remove_upper_dims")
    if isinstance(remove, str | int):
        raise InvalidArgumentError(
            f"compare_remove_upper_dims: remove must be a collection of dims, got {remove!r}")
    names = list(remove)
    port = rocmlir_remove_upper_dims(c, names)
    removed = _indices(c, names)
    exact = restrict(c, fix=dict.fromkeys(removed, 0), timeout=timeout)
    if port.maps is None:
        return RemoveUpperDimsComparison("rocMLIR conservative", exact, port,
                                         reason=f"rocMLIR fails: {port.reason}")
    if not port.maps:
        return RemoveUpperDimsComparison("equal" if not port.kept_lower else "rocMLIR unsound",
                                         exact, port, reason="rocMLIR removes every map")
    found = run_bounded(_first_difference, (exact.chain.maps, port.maps, port.kept_lower,
                                            port.removed_sub_dims), timeout, "compare_remove_upper_dims")
    if found is None:
        return RemoveUpperDimsComparison("equal", exact, port)
    point, kind = found
    mine = _through(exact.chain.maps, point)
    theirs = _through(port.maps, point)
    digits = dict(port.removed_sub_dims)
    mine_kept = None if mine is None else tuple(_compacted(mine[k], digits.get(k, ()))
                                                for k in port.kept_lower)
    verdict: Verdict = "rocMLIR conservative" if kind == "exact only" else "rocMLIR unsound"
    what = {"rocmlir only": "rocMLIR reads a point the exact view marks invalid (padding ignored)",
            "exact only": "rocMLIR marks invalid a point the exact view reads",
            "differ": "the two go to different lower coordinates"}[kind]
    return RemoveUpperDimsComparison(verdict, exact, port, point, (mine_kept, theirs),
                                     f"{what} at {list(point)}: exact {mine_kept}, rocMLIR {theirs}")


def _indices(c: Chain, names: Iterable[int | str]) -> list[int]:
    out: list[int] = []
    for r in names:
        if isinstance(r, int):
            out.append(upper_dim(c, r, "compare_remove_upper_dims"))
        else:
            out.extend(d for op in c.maps[0].ops
                       for n, d in zip(op.upper_names, op.upper_dims, strict=True) if n == r)
    return sorted(set(out))


def _through(maps: tuple[TransformMap, ...], point: tuple[int, ...]) -> tuple[int, ...] | None:
    from .._maps.evaluate import evaluate_chain  # noqa: PLC0415 -- kept beside its only use
    return evaluate_chain(maps, point)


def _compacted(v: int, digits: tuple[SubDimInfo, ...]) -> int:
    """``v`` with the digits ``(n, s)`` deleted, largest stride first."""
    for n, s in sorted(digits, key=lambda p: -p[1]):
        v = v % s + (v // (s * n)) * s
    return v


def _first_difference(exact: tuple[TransformMap, ...], theirs: tuple[TransformMap, ...],
                      kept_lower: tuple[int, ...],
                      removed: tuple[tuple[int, tuple[SubDimInfo, ...]], ...]
                      ) -> tuple[tuple[int, ...], str] | None:
    full = exact[-1].lower_rank
    ls = isl.LocalSpace.from_space(isl.Space.set_alloc(CTX, 0, full))
    digits = dict(removed)
    affs = isl.AffList.alloc(CTX, len(kept_lower))
    for k in kept_lower:
        v = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        for n, s in sorted(digits.get(k, ()), key=lambda p: -p[1]):
            v = v.mod_val(val(s)).add(v.scale_down_val(val(s * n)).floor().scale_val(val(s)))
        affs = affs.add(v)
    compact = isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, full, len(kept_lower)), affs)
    mine = isl.Map.from_pw_multi_aff(
        isl.PwMultiAff.from_multi_aff(compact).pullback_pw_multi_aff(chain_function(exact)))
    other = isl.Map.from_pw_multi_aff(chain_function(theirs))
    rank = exact[0].upper_rank
    dom_mine, dom_other = mine.domain(), other.domain()
    for where, kind in ((dom_other - dom_mine, "rocmlir only"),
                        ((other - mine).domain() & dom_mine, "differ"),
                        (dom_mine - dom_other, "exact only")):
        if not where.is_empty():
            return point_coords(where.sample_point(), rank), kind
    return None


# }}}
