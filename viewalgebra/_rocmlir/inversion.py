"""A port of rocMLIR's ``invertTransformMap`` / ``invertTransforms``
(``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``), for comparison with the exact inverse
(docs/invert.md): what rocMLIR inverts, and where it gives up."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import assert_never

from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap, blocking_problems
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
from ..errors import InvalidArgumentError, RocmlirRuleError
from .common import describe


@dataclass(frozen=True, slots=True)
class RocmlirInversion:
    """What rocMLIR's ``invertTransformMap`` / ``invertTransforms`` answer (docs/invert.md).

    Example: ``<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 1]>`` over ``[32] -> [4, 8]`` has
    the inverse ``<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["1"] at [0]>`` over ``[4, 8] -> [32]``;
    ``<Pad{0, 4} ["b"] at [0] -> ["b"] at [0]>`` fails with the reason ``Pad is unsupported``.
    """

    maps: tuple[TransformMap, ...] | None
    """The inverse chain, top first (its top space is the old bottom space); ``None`` when
    rocMLIR fails."""
    reason: str | None
    """Why rocMLIR fails (it returns a null attribute); ``None`` on success."""

    def __post_init__(self) -> None:
        if (self.maps is None) == (self.reason is None):
            raise InvalidArgumentError("RocmlirInversion: exactly one of maps and reason must be None")

    def __str__(self) -> str:
        if self.maps is None:
            return f"rocMLIR: fails ({self.reason})"
        return "rocMLIR: " + ", ".join(print_transform_map(tm) for tm in self.maps)


class _InversionFailed(Exception):
    """rocMLIR gives up (a null attribute); the message is the reason."""


_Emitted = tuple[AnyTransform, tuple[int, ...]]
"""An op of the inverse with the sizes of its lower dims (what the builder records)."""


def _new_upper_names(tm: TransformMap) -> tuple[str, ...]:
    """Step 1: each lower dim's name, given by the last op that lists it ("" if none does)."""
    names = [""] * tm.lower_rank
    for op in tm.ops:
        for name, dim in zip(op.lower_names, op.lower_dims, strict=True):
            if not 0 <= dim < len(names):
                raise RocmlirRuleError(
                    f"invertTransformMap: {describe(op)}: lower dim {dim} out of range for lower "
                    f"bounds {list(tm.lower_bounds)} (an assert in rocMLIR)")
            names[dim] = name
    return tuple(names)


def _name_resolver(names: tuple[str, ...]) -> Callable[[str], int]:
    """Step 2: the builder's ``startIndex``; with duplicate names the last index wins."""
    indices = {name: i for i, name in enumerate(names)}

    def start(name: str) -> int:
        if name not in indices:
            raise RocmlirRuleError(
                f"invertTransformMap: no dim is named {name!r} in the new upper space "
                f"{list(names)} (an assert in rocMLIR's builder)")
        return indices[name]

    return start


def _invert_op(op: AnyTransform, start: Callable[[str], int],
               bounds: tuple[int, ...]) -> list[_Emitted]:
    """Step 3: the ops rocMLIR emits for one op of ``M`` (``bounds`` is ``M``'s lower bounds)."""
    match op:
        case PassThrough():
            upper = tuple(start(n) for n in op.lower_names)
            return [(PassThrough((), op.lower_names, upper, op.upper_names, op.upper_dims),
                     tuple(bounds[d] for d in upper))]
        case Merge():
            upper = tuple(start(n) for n in op.lower_names)
            return [(Unmerge(op.params, op.lower_names, upper, op.upper_names, op.upper_dims),
                     (math.prod(op.params),))]
        case Unmerge():
            # rocMLIR checks bounds[start] == prod(params) only in debug builds.
            upper = (start(op.lower_names[0]),)
            return [(Merge(op.params, op.lower_names, upper, op.upper_names, op.upper_dims),
                     op.params)]
        case AddDim():
            if op.params[0] != 1:
                raise _InversionFailed(
                    f"AddDim of length > 1 has no coherent inverse (AddDim{{{op.params[0]}}})")
            return [(ConstDim((0, 1), (), (), op.upper_names, op.upper_dims), (1,))]
        case ConstDim():
            return [_uninject(op, k, start, bounds) for k in range(len(op.lower_dims))]
        case Pad() | Slice() | Embed() | Broadcast():
            raise _InversionFailed(f"{op.kind} is unsupported")
        case _:
            assert_never(op)


def _uninject(op: ConstDim, k: int, start: Callable[[str], int],
              bounds: tuple[int, ...]) -> _Emitted:
    """Pair ``k`` of a ConstDim becomes an ``AddDim`` of the bound found by name (``ignore``)."""
    value, length = op.values[k]
    if (value, length) != (0, 1):
        raise _InversionFailed(f"ConstDim{{{value}, {length}}} is not a unit 0")
    name = op.lower_names[k]
    dim = start(name)
    return (AddDim((bounds[dim],), (name,), (dim,), (), ()), ())


def _invert_map(tm: TransformMap) -> TransformMap:
    """``invertTransformMap`` of one map; raises ``_InversionFailed`` where rocMLIR fails."""
    start = _name_resolver(_new_upper_names(tm))
    ops: list[AnyTransform] = []
    sizes: dict[int, int] = {}
    for op in tm.ops:
        for new, lower in _invert_op(op, start, tm.lower_bounds):
            ops.append(new)
            sizes.update(zip(new.lower_dims, lower, strict=True))
    rank = max(sizes, default=-1) + 1
    lower_bounds = tuple(sizes.get(d, 0) for d in range(rank))
    inverse = TransformMap(tuple(ops), tm.lower_bounds, lower_bounds, strict=False)
    blocking = blocking_problems(inverse)
    if blocking:
        raise RocmlirRuleError(
            "invertTransformMap: the inverse has no defined meaning (rocMLIR's builder asserts): "
            + "; ".join(p.message for p in blocking))
    return inverse


def rocmlir_invert(maps: TransformMap | Sequence[TransformMap]) -> RocmlirInversion:
    """rocMLIR's ``invertTransformMap`` (one map) or ``invertTransforms`` (a top-first chain).

    Follows rocMLIR's ``transformMapUtils.cpp`` with its quirks: the inverse looks lower dims up
    by name (duplicate names resolve to the last index), only PassThrough, Merge, Unmerge, ``AddDim{1}``
    and unit ``ConstDim{0, 1}`` invert, and bounds are not checked (the result is built with
    ``strict=False``). A chain is inverted bottom map first; any failure fails the whole chain.
    Where rocMLIR's builder would assert this raises ``RocmlirRuleError``.

    Example: ``<PassThrough ["a", "b"] at [0, 1] -> ["a", "c"] at [0, 2]>, <ConstDim{0, 1} [] at
    [] -> ["b"] at [1]>`` over ``[8, 3] -> [8, 1, 3]`` inverts to ``<PassThrough ["a", "c"] at
    [0, 2] -> ["a", "b"] at [0, 1]>, <AddDim{1} ["b"] at [1] -> [] at []>`` over
    ``[8, 1, 3] -> [8, 3]``.
    """
    chain = (maps,) if isinstance(maps, TransformMap) else tuple(maps)
    inverses: list[TransformMap] = []
    for k in reversed(range(len(chain))):
        try:
            inverses.append(_invert_map(chain[k]))
        except _InversionFailed as e:
            where = f" (map {k} of {len(chain)}, counting from 0 at the top)" if len(chain) > 1 else ""
            return RocmlirInversion(None, f"{e}{where}")
    return RocmlirInversion(tuple(inverses), None)
