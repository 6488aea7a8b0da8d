"""Integers are integers: Python and numpy integers, never a bool, a float or a string."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import SupportsIndex, cast

import numpy as np

from ..errors import ViewAlgebraError


def _is_integer(value: object) -> bool:
    return not isinstance(value, bool | np.bool_) and isinstance(value, int | np.integer)


def integer(value: object, what: str, error: type[ViewAlgebraError]) -> int:
    """``value`` as an ``int``, or ``error`` naming ``what``: ``True`` and ``8.0`` are refused."""
    if not _is_integer(value):
        raise error(f"{what} must be an integer, got {value!r}")
    return operator.index(cast(SupportsIndex, value))


def integers(values: Iterable[object], what: str, error: type[ViewAlgebraError]) -> tuple[int, ...]:
    """Each of ``values`` as an ``int`` (see ``integer``)."""
    if isinstance(values, str | bytes):
        raise error(f"{what} must be integers, got {values!r}")
    try:
        items = list(values)
    except TypeError:
        raise error(f"{what} must be integers, got {values!r}") from None
    if not all(_is_integer(v) for v in items):
        raise error(f"{what} must be integers, got {items!r}")
    return tuple(operator.index(cast(SupportsIndex, v)) for v in items)
