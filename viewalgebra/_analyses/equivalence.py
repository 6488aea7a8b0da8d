"""``equivalent``: whether two chains send every point to the same place (or two views to the same
address), proven by ISL, else a point where they differ with both images."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import islpy as isl

from .._engine.budget import run_bounded
from .._maps.chain import Chain
from .._maps.evaluate import evaluate_chain
from .._maps.relations import address_function, chain_function, point_coords
from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import InvalidTransformError

Image = tuple[int, ...] | int | None
"""Where a point goes: lower coordinates (chains), an address (views), ``None`` where invalid."""


@dataclass(frozen=True, slots=True)
class Equivalence:
    """The answer of ``equivalent``: the same everywhere, or a point where the two differ."""

    ok: bool
    on: Literal["coordinates", "addresses"]
    """What was compared: lower coordinates (two chains) or buffer addresses (two views)."""
    point: tuple[int, ...] | None = None
    """A point of the common upper box where the two differ (``None`` when ``ok``, or when the
    spaces differ: see ``reason``)."""
    images: tuple[Image, Image] | None = None
    """Where ``point`` goes through each (``None``: invalid there)."""
    reason: str | None = None
    """Why the two cannot be the same without a point to show (different shapes)."""

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return f"equivalent (same {self.on} at every point)"
        if self.point is None:
            return f"not equivalent: {self.reason}"
        first, second = self.images or (None, None)
        return f"not equivalent: {list(self.point)} goes to {first} and to {second} ({self.on})"


Operand = Chain | TransformMap | Sequence[TransformMap] | str | View


def equivalent(a: Operand, b: Operand, *, timeout: float | None = 60.0) -> Equivalence:
    """Whether ``a`` and ``b`` agree at every point of their upper box: two chains (or maps) on
    lower coordinates, two views on buffer addresses (a view's buffer counts, not its shape).
    Invalid points (padding) must be invalid in both.

    Example: ``compose(tm, invert(tm).chain)`` agrees with the identity ``PassThrough`` on the
    upper box of a ``tm`` without padding (``Merge{4, 8}``, say); a ``memref<4x8xf32>`` seen
    row-major and the same shape with ``strided<[1, 4]>`` differ, at ``[0, 7]`` say (addresses 7 and 28).
    ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond).
    """
    if isinstance(a, View) != isinstance(b, View):
        raise InvalidTransformError(
            "equivalent: compare two views (addresses) or two chains (coordinates); for a view's "
            "coordinates use Chain.of(view)")
    if isinstance(a, View) and isinstance(b, View):
        if a.shape != b.shape:
            return Equivalence(False, "addresses",
                               reason=f"the views have shapes {list(a.shape)} and {list(b.shape)}")
        point = run_bounded(_view_difference, (a, b), timeout, "equivalent")
        if point is None:
            return Equivalence(True, "addresses")
        return Equivalence(False, "addresses", point, (a.address(point), b.address(point)))
    ca, cb = Chain.of(a), Chain.of(b)
    if ca.upper_bounds != cb.upper_bounds or len(ca.lower_bounds) != len(cb.lower_bounds):
        return Equivalence(False, "coordinates", reason=(
            f"the chains map {list(ca.upper_bounds)} -> {list(ca.lower_bounds)} and "
            f"{list(cb.upper_bounds)} -> {list(cb.lower_bounds)}"))
    point = run_bounded(_chain_difference, (ca.maps, cb.maps), timeout, "equivalent")
    if point is None:
        return Equivalence(True, "coordinates")
    images = (evaluate_chain(ca.maps, point), evaluate_chain(cb.maps, point))
    return Equivalence(False, "coordinates", point, images)


def _difference(first: isl.Map, second: isl.Map) -> tuple[int, ...] | None:
    where = (first - second).domain() | (second - first).domain()
    if where.is_empty():
        return None
    return point_coords(where.sample_point(), where.dim(isl.dim_type.set))


def _chain_difference(a: tuple[TransformMap, ...], b: tuple[TransformMap, ...]) -> tuple[int, ...] | None:
    return _difference(isl.Map.from_pw_multi_aff(chain_function(a)),
                       isl.Map.from_pw_multi_aff(chain_function(b)))


def _view_difference(a: View, b: View) -> tuple[int, ...] | None:
    return _difference(isl.Map.from_pw_aff(address_function(a)),
                       isl.Map.from_pw_aff(address_function(b)))
