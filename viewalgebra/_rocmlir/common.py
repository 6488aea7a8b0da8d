"""What every port of rocMLIR's rules shares: its arithmetic as compiled (C++ division,
``math_util::gcd``, indexing that asserts out of range), raised as ``RocmlirRuleError`` where
rocMLIR would stop on an ``assert``, and the verdict of a comparison with the exact answer."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, TypeVar

from .._maps.transforms import (
    AnyTransform,
)
from ..errors import RocmlirRuleError

T = TypeVar("T")

Verdict = Literal["equal", "rocMLIR conservative", "rocMLIR unsound"]
"""``equal``; ``rocMLIR conservative``: legal but below the exact answer (missed performance);
``rocMLIR unsound``: not a legal answer at all (wrong results)."""


def gcd(a: int, b: int) -> int:
    """``math_util::gcd``: absolute values, ``gcd(x, 0) = x``; ``gcd(0, 0)`` asserts."""
    if a == 0 and b == 0:
        raise RocmlirRuleError("rocMLIR gcd(0, 0) is undefined (an assert in math_util::gcd)")
    return math.gcd(a, b)


def div(a: int, b: int, what: str) -> int:
    """C++ ``int64_t`` division (truncates toward zero); division by zero is an error."""
    if b == 0:
        raise RocmlirRuleError(f"{what}: division by zero ({a} / 0)")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def at(data: Sequence[T], dim: int, what: str) -> T:
    """``IndexedMap::operator[]``: out-of-range indices assert in rocMLIR."""
    if not 0 <= dim < len(data):
        raise RocmlirRuleError(f"{what}: dim {dim} out of range for a space of rank {len(data)}")
    return data[dim]


def store(result: list[T], dim: int, info: T,
           what: str) -> None:
    if not 0 <= dim < len(result):
        raise RocmlirRuleError(
            f"{what}: lower dim {dim} out of range for a lower space of rank {len(result)}")
    result[dim] = info


def param(params: Sequence[int], k: int, what: str) -> int:
    """``ArrayRef::operator[]`` on a transform's params: out of range asserts in rocMLIR."""
    if not 0 <= k < len(params):
        raise RocmlirRuleError(f"{what}: parameter {k} missing (the op has {len(params)} params)")
    return params[k]


def describe(op: AnyTransform) -> str:
    params = "{" + ", ".join(map(str, op.params)) + "}" if op.params else ""
    return f"{op.kind}{params} at {list(op.upper_dims)} -> {list(op.lower_dims)}"
