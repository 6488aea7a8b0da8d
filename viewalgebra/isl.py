"""The exact ISL objects behind every answer (islpy), named by what they mean.

``va.isl.coordinates(chain)`` relates each valid upper point to its lower point;
``va.isl.addresses(view)`` each valid view point to its buffer address; ``va.isl.valid_points(x)``
is the set of valid (non-padding) points of the top box. ISL objects are values compared with
``is_equal``, never with ``==`` or hashing.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy

from .maps.chain import Chain
from .maps.relations import address_function, chain_function, view_function
from .maps.transform_map import TransformMap
from .maps.view import View

__all__ = ["addresses", "coordinates", "valid_points"]


def coordinates(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> islpy.Map:
    """Upper point -> lower point of a chain (a view's maps: coordinates in its buffer), on the
    valid points of the top box.

    Example: ``<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>`` over ``[7] -> [4]`` gives
    ``{ [i0] -> [-2 + i0] : 2 <= i0 <= 5 }``.
    """
    if isinstance(x, View) and not x.maps:
        return islpy.Map.from_pw_multi_aff(view_function(x))
    return islpy.Map.from_pw_multi_aff(chain_function(Chain.of(x).maps))


def addresses(view: View) -> islpy.Map:
    """View point -> buffer address, on the valid view points (docs/semantics.md, Address)."""
    return islpy.Map.from_pw_aff(address_function(view))


def valid_points(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> islpy.Set:
    """The valid (non-padding) points of the top box of a chain or a view."""
    return coordinates(x).domain()
