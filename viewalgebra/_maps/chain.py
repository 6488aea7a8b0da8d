"""``Chain``: transform maps listed top first, linked by their bounds; ``compose`` joins two."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidArgumentError, InvalidTransformError
from .syntax import parse_transform_map
from .transform_map import TransformMap
from .view import View


@dataclass(frozen=True, slots=True)
class Chain:
    """Transform maps listed top (view side) first; each map's lower bounds are the next map's
    upper bounds, checked once here.

    Example: ``Chain.of(view)`` is the view's maps; ``compose(transpose, merge)`` is a ``Chain``.
    """

    maps: tuple[TransformMap, ...]

    def __post_init__(self) -> None:
        maps = tuple(self.maps)
        if not maps:
            raise InvalidTransformError("Chain: a chain needs at least one map")
        for m in maps:
            if not isinstance(m, TransformMap):
                raise InvalidTransformError(f"Chain: maps must be TransformMaps, got {m!r}")
        for k, (a, b) in enumerate(zip(maps, maps[1:], strict=False)):
            if a.lower_bounds != b.upper_bounds:
                raise InvalidTransformError(
                    f"Chain: lower bounds of map {k} {list(a.lower_bounds)} != upper bounds of map "
                    f"{k + 1} {list(b.upper_bounds)}")
        object.__setattr__(self, "maps", maps)

    @staticmethod
    def of(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> Chain:
        """A chain from a chain, one map, maps listed top first, one map in rocMLIR syntax, or a
        view (its maps)."""
        if isinstance(x, Chain):
            return x
        if isinstance(x, TransformMap):
            return Chain((x,))
        if isinstance(x, str):
            return Chain((parse_transform_map(x),))
        if isinstance(x, View):
            return Chain(x.maps)
        if not isinstance(x, Sequence):
            raise InvalidArgumentError(
                f"expected a Chain, a TransformMap, maps listed top first, map text or a View, got {x!r}")
        return Chain(tuple(parse_transform_map(m) if isinstance(m, str) else m for m in x))

    @property
    def upper_bounds(self) -> tuple[int, ...]:
        """The shape of the top (view-side) space."""
        return self.maps[0].upper_bounds

    @property
    def lower_bounds(self) -> tuple[int, ...]:
        """The shape of the bottom space."""
        return self.maps[-1].lower_bounds


def compose(upper: Chain | TransformMap | Sequence[TransformMap] | str | View,
            lower: Chain | TransformMap | Sequence[TransformMap] | str | View) -> Chain:
    """``upper`` followed by ``lower``: a point goes through ``upper``'s maps, then ``lower``'s.

    Example: a transpose ``[5, 32] -> [32, 5]`` composed with ``Merge{4, 8}`` over
    ``[32, 5] -> [4, 5, 8]`` is a chain ``[5, 32] -> [4, 5, 8]`` of two maps.
    """
    a, b = Chain.of(upper), Chain.of(lower)
    if a.lower_bounds != b.upper_bounds:
        raise InvalidTransformError(
            f"compose: the upper chain ends in {list(a.lower_bounds)} but the lower chain starts "
            f"at {list(b.upper_bounds)}")
    return Chain(a.maps + b.maps)
