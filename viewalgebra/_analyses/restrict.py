"""``restrict``: the sub-tile view of a block or a thread as a rock chain, certified by ISL
(docs/sub-dimensions.md).

Fixing upper dims of a chain (a block id, a thread id) to a value, or narrowing them to a range,
is a new top map: PassThrough for a kept dim, ``Slice{b, e}`` for a range, ``ConstDim{v, n}`` for a
value. ``restrict`` folds that map into the chain's first map where each op of it can take the
fixed values (a constant through Pad, Slice, Embed, Unmerge, Merge or Broadcast becomes a
``ConstDim``; a range through PassThrough, Pad, Slice or Broadcast becomes a ``Slice``, and an
Embed or Unmerge left with one unit-coefficient input a ``Slice`` at the fixed offset), so the
result is no longer than the chain; elsewhere it keeps the new map on top. Either way
``equivalent`` proves the result equal, point by point and padding included, to the chain seen
through the new top map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .._engine.budget import check_timeout
from .._maps.chain import Chain
from .._maps.evaluate import evaluate
from .._maps.transform_map import TransformMap
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    ConstDim,
    Embed,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from ..errors import InvalidArgumentError, InvalidTransformError
from .equivalence import Equivalence, equivalent
from .sub_dimensions import chain_of, upper_dim

Fixed = int | range
"""A fixed upper dim: one value, or a range of step 1 (the dim stays, narrowed)."""


@dataclass(frozen=True, slots=True)
class Restricted:
    """The answer of ``restrict``: the sub-tile chain and its certificate.

    Example: block 1 of ``Unmerge{2, 4} ["bid", "tid"]`` over ``[2, 4] -> [8]`` is the one map
    ``<Slice{4, 8} ["tid"] at [0] -> ["x"] at [0]>`` over ``[4] -> [8]``, certified equivalent.
    """

    chain: Chain
    """The restricted chain: its top dims are ``dims``, its bottom the original chain's."""
    dims: tuple[int, ...]
    """The original upper dim of each new top dim (kept dims and dims narrowed to a range)."""
    starts: tuple[int, ...]
    """Where each new top dim starts in its original dim (0 for a kept dim)."""
    fixed: tuple[tuple[int, int], ...]
    """``(dim, value)`` for each dim fixed to one value."""
    reference: Chain
    """The chain seen through the new top map (PassThrough, Slice, ConstDim), which ``chain``
    equals."""
    certificate: Equivalence
    """ISL's proof that ``chain`` and ``reference`` agree at every point, validity included."""
    folded: bool
    """Whether the new top map was folded into the chain's first map (else it is on top)."""

    def __str__(self) -> str:
        maps = len(self.chain.maps)
        return (f"{list(self.chain.upper_bounds)} -> {list(self.chain.lower_bounds)} in {maps} "
                f"map{'s' if maps != 1 else ''} ({self.certificate})")


def restrict(chain: object, keep: Sequence[int | str] | None = None,
             fix: Mapping[int | str, Fixed] | None = None, *, timeout: float | None = 60.0) -> Restricted:
    """The chain with the upper dims in ``fix`` fixed to a value or narrowed to a ``range``, and
    the dims in ``keep`` kept (by default every dim not in ``fix``); each upper dim must be in
    exactly one of them. Dims are indices or top-map names. Padding stays exact: a point is valid
    in the result exactly where its image is valid in the chain.

    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond).

    Example: ``restrict(view, fix={"bid": 3})`` is block 3's sub-tile. Over
    ``<Pad{1, 1} ["x"] at [0] -> ["x"] at [0]>`` with bounds ``[6] -> [4]``,
    ``fix={0: range(0, 5)}`` gives the one map ``<Pad{1, 0} ["x"] at [0] -> ["x"] at [0]>`` over
    ``[5] -> [4]``, and ``fix={0: 3}`` the map ``<ConstDim{2, 4} [] at [] -> ["x"] at [0]>``.
    """
    c = chain_of(chain, "restrict")
    check_timeout(timeout, "restrict")
    shape = c.upper_bounds
    fixes: dict[int, Fixed] = {}
    for key, value in (fix or {}).items():
        d = upper_dim(c, key, "restrict")
        if d in fixes:
            raise InvalidArgumentError(f"restrict: upper dim {d} is fixed twice")
        fixes[d] = _checked_value(value, shape[d], d)
    if keep is None:
        kept = [d for d in range(len(shape)) if d not in fixes]
    else:
        if isinstance(keep, str | int):
            raise InvalidArgumentError(f"restrict: keep must be a collection of dims, got {keep!r}")
        kept = [upper_dim(c, k, "restrict") for k in keep]
        if len(set(kept)) != len(kept):
            raise InvalidArgumentError(f"restrict: keep names a dim twice: {list(keep)}")
        both = sorted(set(kept) & set(fixes))
        missing = [d for d in range(len(shape)) if d not in kept and d not in fixes]
        if both:
            raise InvalidArgumentError(f"restrict: upper dims {both} are both kept and fixed")
        if missing:
            raise InvalidArgumentError(
                f"restrict: upper dims {missing} are neither kept nor fixed (each dim needs one)")
    dims = tuple(d for d in range(len(shape)) if d in set(kept) or isinstance(fixes.get(d), range))
    ranges = {d: v for d, v in fixes.items() if isinstance(v, range)}
    starts = tuple(ranges[d].start if d in ranges else 0 for d in dims)
    sizes = tuple(len(ranges[d]) if d in ranges else shape[d] for d in dims)
    values = tuple((d, v) for d, v in sorted(fixes.items()) if isinstance(v, int))
    top = _top_map(c.maps[0], dims, starts, sizes, dict(values))
    reference = Chain((top, *c.maps))
    folded_map = _fold(c.maps[0], dims, starts, sizes, dict(values))
    result = reference if folded_map is None else Chain((folded_map, *c.maps[1:]))
    certificate = equivalent(result, reference, timeout=timeout)
    if not certificate:  # a folding defect: the new top map over the chain is the honest answer
        result, folded_map = reference, None
        certificate = equivalent(result, reference, timeout=timeout)
    return Restricted(result, dims, starts, values, reference, certificate, folded_map is not None)


def _checked_value(value: object, bound: int, d: int) -> Fixed:
    if isinstance(value, bool) or not isinstance(value, int | range):
        raise InvalidArgumentError(
            f"restrict: upper dim {d} must be fixed to an int or a range, got {value!r}")
    if isinstance(value, int):
        if not 0 <= value < bound:
            raise InvalidArgumentError(f"restrict: value {value} of upper dim {d} is outside [0, {bound})")
        return value
    if value.step != 1 or not 0 <= value.start < value.stop <= bound:
        raise InvalidArgumentError(
            f"restrict: range of upper dim {d} must be non-empty, of step 1 and inside [0, {bound}], "
            f"got {value!r}")
    return value


def _names(tm: TransformMap) -> dict[int, str]:
    return {d: n for op in tm.ops for d, n in zip(op.upper_dims, op.upper_names, strict=True)}


def _top_map(first: TransformMap, dims: tuple[int, ...], starts: tuple[int, ...],
             sizes: tuple[int, ...], values: dict[int, int]) -> TransformMap:
    """The restriction as a map from the new top dims to the chain's top dims."""
    names = _names(first)
    ops: list[AnyTransform] = []
    for i, (d, start, size) in enumerate(zip(dims, starts, sizes, strict=True)):
        name = names.get(d, f"d{d}")
        if start == 0 and size == first.upper_bounds[d]:
            ops.append(PassThrough((), (name,), (i,), (name,), (d,)))
        else:
            ops.append(Slice((start, start + size), (name,), (i,), (name,), (d,)))
    for d, v in sorted(values.items()):
        ops.append(ConstDim((v, first.upper_bounds[d]), (), (), (names.get(d, f"d{d}"),), (d,)))
    return TransformMap(tuple(ops), sizes, first.upper_bounds)


def _fold(first: TransformMap, dims: tuple[int, ...], starts: tuple[int, ...],
          sizes: tuple[int, ...], values: dict[int, int]) -> TransformMap | None:
    """The first map rewritten over the new top dims, or ``None`` where an op cannot take them."""
    new_index = {d: i for i, d in enumerate(dims)}
    start = dict(zip(dims, starts, strict=True))
    size = dict(zip(dims, sizes, strict=True))
    full = {d: start[d] == 0 and size[d] == first.upper_bounds[d] for d in dims}
    # the compiled equations at the fixed values (kept dims at their start) give each constant
    base = tuple(values.get(d, start.get(d, 0)) for d in range(first.upper_rank))
    at_base, _ = evaluate(first, base)
    ops: list[AnyTransform] = []
    try:
        for op in first.ops:
            new_ops = _fold_op(op, first, new_index, start, size, full, values, at_base)
            if new_ops is None:
                return None
            ops.extend(new_ops)
        return TransformMap(tuple(ops), sizes, first.lower_bounds)
    except InvalidTransformError:  # an op or map the fold would build breaks a rule: keep the top map
        return None


def _fold_op(op: AnyTransform, tm: TransformMap, new_index: dict[int, int], start: dict[int, int],
             size: dict[int, int], full: dict[int, bool], values: dict[int, int],
             at_base: tuple[int, ...]) -> list[AnyTransform] | None:
    ups = op.upper_dims
    if not ups or all(d in full and full[d] for d in ups):
        return [_renumbered(op, new_index)]
    if all(d in values for d in ups):  # every input fixed: the outputs are constants
        consts: list[AnyTransform] = []
        for lo, name in zip(op.lower_dims, op.lower_names, strict=True):
            v, bound = at_base[lo], tm.lower_bounds[lo]
            if not 0 <= v < bound:
                return None  # padding at every point: kept as a top map
            consts.append(ConstDim((v, bound), (), (), (name,), (lo,)))
        if isinstance(op, AddDim):
            return []
        return consts
    match op:
        case PassThrough() | Pad() | Slice() | Broadcast():
            out: list[AnyTransform] = []
            for k, (up, lo) in enumerate(zip(op.upper_dims, op.lower_dims, strict=True)):
                uname, lname = op.upper_names[k], op.lower_names[k]
                bound = tm.lower_bounds[lo]
                if up in values:
                    v = at_base[lo]
                    if not 0 <= v < bound:
                        return None
                    out.append(ConstDim((v, bound), (), (), (lname,), (lo,)))
                    continue
                shift = _shift(op, k, start[up])  # lower = new + shift on the range
                n = size[up]
                if isinstance(op, Broadcast) and start[up] + n > op.params[k]:
                    return None  # the range wraps around the modulus
                if shift >= 0 and shift + n <= bound:
                    if shift == 0 and n == bound:
                        out.append(PassThrough((), (uname,), (new_index[up],), (lname,), (lo,)))
                    else:
                        out.append(Slice((shift, shift + n), (uname,), (new_index[up],), (lname,), (lo,)))
                elif isinstance(op, Pad):
                    left, right = max(0, -shift), max(0, shift + n - bound)
                    if shift > 0 or n != bound + left + right:
                        return None
                    out.append(Pad((left, right), (uname,), (new_index[up],), (lname,), (lo,)))
                else:
                    return None
            return out
        case AddDim():
            up = ups[0]
            return [AddDim((size[up],), op.upper_names, (new_index[up],), (), ())]
        case Embed() | Unmerge():
            coeffs = op.params if isinstance(op, Embed) else _horner(op.params)
            constant = sum(c * values.get(d, start.get(d, 0)) for c, d in zip(coeffs, ups, strict=True))
            kept = [(c, d, n) for c, d, n in zip(coeffs, ups, op.upper_names, strict=True) if d not in values]
            if len(kept) == 1 and kept[0][0] == 1:  # lower = new + constant: a Slice
                _, d, name = kept[0]
                bound = tm.lower_bounds[op.lower_dims[0]]
                if not 0 <= constant <= constant + size[d] <= bound:
                    return None
                return [Slice((constant, constant + size[d]), (name,), (new_index[d],), op.lower_names,
                              op.lower_dims)]
            if constant != 0:
                return None
            return [Embed(tuple(c for c, _, _ in kept), tuple(n for _, _, n in kept),
                          tuple(new_index[d] for _, d, _ in kept), op.lower_names, op.lower_dims)]
        case _:
            return None


def _shift(op: AnyTransform, k: int, start: int) -> int:
    if isinstance(op, Pad):
        return start - op.params[2 * k]
    if isinstance(op, Slice):
        return start + op.params[2 * k]
    return start


def _horner(sizes: tuple[int, ...]) -> tuple[int, ...]:
    out: list[int] = []
    for i in range(len(sizes)):
        p = 1
        for s in sizes[i + 1:]:
            p *= s
        out.append(p)
    return tuple(out)


def _renumbered(op: AnyTransform, new_index: dict[int, int]) -> AnyTransform:
    return type(op)(op.params, op.upper_names, tuple(new_index[d] for d in op.upper_dims),
                    op.lower_names, op.lower_dims)
