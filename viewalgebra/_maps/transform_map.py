"""``TransformMap``: a list of transforms with upper and lower bounds, and its validation.

Construction always applies rocMLIR's verifier rules. With ``strict=True`` (the default) it also
applies the rules rocMLIR lacks (coverage, dim ranges, parameter counts and signs, bounds that follow
each op's rule); ``strict=False`` accepts what rocMLIR accepts, and ``problems(tm)`` lists what a
strict map would have rejected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import assert_never

from .._common.ints import integers
from .._engine.cache import on_clear
from ..errors import InvalidTransformError
from .transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Transform,
    Unmerge,
)


@dataclass(frozen=True, slots=True)
class Problem:
    """Something a strict map rejects."""

    message: str
    blocking: bool
    """True when the map has no defined meaning (it cannot be evaluated or converted to ISL)."""

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class TransformMap:
    """``#rock.transform_map``: transforms from an upper (view) space to a lower space.

    Example: ``#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by
    [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] bounds = [4, 8] -> [8, 4]>``.
    The affine map of rocMLIR's text is not stored: it follows from the ops (``affine_map_of``).
    """

    ops: tuple[AnyTransform, ...]
    upper_bounds: tuple[int, ...]
    """Shape of the upper (view-side) space."""
    lower_bounds: tuple[int, ...]
    """Shape of the lower space."""
    strict: bool = field(default=True, compare=False, repr=False)
    """Whether the checks beyond rocMLIR's were enforced at construction."""
    _hash: int | None = field(default=None, init=False, compare=False, repr=False)
    """The hash, once asked for: maps key many caches, and hashing one walks all its transforms."""

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            found = hash((self.ops, self.upper_bounds, self.lower_bounds))
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self) -> tuple[object, ...]:
        # Without the hash: strings hash differently in another process (a worker).
        return self.ops, self.upper_bounds, self.lower_bounds, self.strict

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(("ops", "upper_bounds", "lower_bounds", "strict"), state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_hash", None)

    def __post_init__(self) -> None:
        ops = tuple(self.ops)
        for op in ops:
            if not isinstance(op, Transform):
                raise InvalidTransformError(f"TransformMap ops must be transforms, got {op!r}")
        object.__setattr__(self, "ops", ops)
        for name in ("upper_bounds", "lower_bounds"):
            object.__setattr__(self, name, integers(getattr(self, name), name, InvalidTransformError))
        if any(b < 0 for b in self.upper_bounds):
            raise InvalidTransformError("Upper bound/shape component less than 0")
        if any(b < 0 for b in self.lower_bounds):
            raise InvalidTransformError("Lower bound/shape component less than 0")
        if self.strict:
            found = problems(self)
            if found:
                raise InvalidTransformError("; ".join(p.message for p in found))

    @property
    def upper_rank(self) -> int:
        return len(self.upper_bounds)

    @property
    def lower_rank(self) -> int:
        return len(self.lower_bounds)


@lru_cache(maxsize=1024)
def problems(tm: TransformMap) -> tuple[Problem, ...]:
    """Everything a strict map rejects, in op order; blocking problems first within an op."""
    found: list[Problem] = []
    _check_dims(tm, found)
    for op in tm.ops:
        _check_op(tm, op, found)
    return tuple(found)


on_clear(problems.cache_clear)


def blocking_problems(tm: TransformMap) -> tuple[Problem, ...]:
    return tuple(p for p in problems(tm) if p.blocking)


def require_meaningful(tm: TransformMap) -> None:
    """Raise ``InvalidTransformError`` if the map cannot be evaluated at all."""
    blocking = blocking_problems(tm)
    if blocking:
        raise InvalidTransformError(
            "transform map has no defined meaning: " + "; ".join(p.message for p in blocking))


def _describe(op: AnyTransform) -> str:
    params = "{" + ", ".join(map(str, op.params)) + "}" if op.params else ""
    return f"{op.kind}{params} at {list(op.upper_dims)} -> {list(op.lower_dims)}"


def _check_dims(tm: TransformMap, found: list[Problem]) -> None:
    upper_uses = [0] * tm.upper_rank
    lower_defs = [0] * tm.lower_rank
    for op in tm.ops:
        for d in op.upper_dims:
            if 0 <= d < tm.upper_rank:
                upper_uses[d] += 1
            else:
                found.append(Problem(
                    f"{_describe(op)}: upper dim {d} out of range for {tm.upper_rank} upper dims",
                    blocking=True))
        for d in op.lower_dims:
            if 0 <= d < tm.lower_rank:
                lower_defs[d] += 1
            else:
                found.append(Problem(
                    f"{_describe(op)}: lower dim {d} out of range for {tm.lower_rank} lower dims",
                    blocking=True))
    for d, n in enumerate(lower_defs):
        if n != 1:
            found.append(Problem(
                f"lower dim {d} is defined by {n} transforms (must be exactly 1)", blocking=True))
    for d, n in enumerate(upper_uses):  # several uses are fine: rocMLIR emits such maps
        if n == 0:
            found.append(Problem(f"upper dim {d} is used by no transform", blocking=False))


def _check_op(tm: TransformMap, op: AnyTransform, found: list[Problem]) -> None:
    where = _describe(op)

    def bad(message: str, blocking: bool = False) -> None:
        found.append(Problem(f"{where}: {message}", blocking))

    ub = _bounds_at(tm.upper_bounds, op.upper_dims)
    lb = _bounds_at(tm.lower_bounds, op.lower_dims)
    match op:
        case PassThrough():
            for u, lo, d in zip(ub, lb, op.lower_dims, strict=True):
                if u is not None and lo is not None and u != lo:
                    bad(f"lower bound of dim {d} is {lo}, the upper bound {u} passed through")
        case Pad() | Slice():
            if len(op.upper_dims) != len(op.lower_dims):
                bad(f"{len(op.upper_dims)} upper dims but {len(op.lower_dims)} lower dims",
                    blocking=True)
                return
            if len(op.params) != 2 * len(op.upper_dims):
                bad(f"needs 2 parameters per dim ({2 * len(op.upper_dims)}), got {len(op.params)}",
                    blocking=True)
                return
            pairs = list(zip(op.params[0::2], op.params[1::2], strict=True))
            for (a, b), u, lo, d in zip(pairs, ub, lb, op.lower_dims, strict=True):
                if isinstance(op, Pad):
                    if a < 0 or b < 0:
                        bad(f"negative padding ({a}, {b}) on lower dim {d}")
                    elif u is not None and lo is not None and u != lo + a + b:
                        bad(f"upper bound {u} != lower bound {lo} + {a} + {b} on lower dim {d}")
                else:
                    if not 0 <= a <= b:
                        bad(f"slice [{a}, {b}) of lower dim {d} is not 0 <= begin <= end")
                    elif u is not None and u != b - a:
                        bad(f"upper bound {u} != {b} - {a} on lower dim {d}")
                    elif lo is not None and b > lo:
                        bad(f"slice end {b} exceeds lower bound {lo} of lower dim {d}")
        case Unmerge():
            if any(s < 1 for s in op.params):
                bad("sizes must be at least 1")
            for u, s, d in zip(ub, op.params, op.upper_dims, strict=True):
                if u is not None and u != s:
                    bad(f"upper bound {u} of dim {d} != size {s}")
            if lb[0] is not None and lb[0] != math.prod(op.params):
                bad(f"lower bound {lb[0]} != product of sizes {math.prod(op.params)}")
        case Merge():
            if any(s < 1 for s in op.params):
                bad("sizes must be at least 1", blocking=True)
                return
            for lo, s, d in zip(lb, op.params, op.lower_dims, strict=True):
                if lo is not None and lo != s:
                    bad(f"lower bound {lo} of dim {d} != size {s}")
            if ub[0] is not None and ub[0] != math.prod(op.params):
                bad(f"upper bound {ub[0]} != product of sizes {math.prod(op.params)}")
        case Embed():
            pass
        case AddDim():
            if op.params[0] < 0:
                bad("size must not be negative")
            elif ub[0] is not None and ub[0] != op.params[0]:
                bad(f"upper bound {ub[0]} != size {op.params[0]}")
        case Broadcast():
            if any(p < 1 for p in op.params):
                bad("lengths must be at least 1", blocking=True)
                return
            for lo, p, d in zip(lb, op.params, op.lower_dims, strict=True):
                if lo is not None and lo != p:
                    bad(f"lower bound {lo} of dim {d} != length {p}")
        case ConstDim():
            for (value, length), lo, d in zip(op.values, lb, op.lower_dims, strict=True):
                if value < 0:
                    bad(f"negative constant {value} for lower dim {d}")
                if lo is not None and lo != length:
                    bad(f"lower bound {lo} of dim {d} != length {length}")
        case _:
            assert_never(op)


def _bounds_at(bounds: tuple[int, ...], dims: tuple[int, ...]) -> list[int | None]:
    return [bounds[d] if 0 <= d < len(bounds) else None for d in dims]
