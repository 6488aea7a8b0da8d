"""The exact ISL objects behind every answer (islpy), named by what they mean.

``va.isl.coordinates(chain)`` relates each valid upper point to its lower point;
``va.isl.addresses(view)`` each valid view point to its buffer address;
``va.isl.valid_points(x)`` is the set of valid (non-padding) points of the top box, ``va.isl.box(x)``
the whole top box. ISL objects are values compared with
``is_equal``, never with ``==`` or hashing.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy

from ._engine.budget import isl_errors
from ._maps.chain import Chain
from ._maps.relations import address_function, chain_function, view_function
from ._maps.relations import box as box_set
from ._maps.transform_map import TransformMap
from ._maps.view import View

__all__ = ["addresses", "box", "coordinates", "valid_points"]


def coordinates(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> islpy.Map:
    """Upper point -> lower point of a chain (a view's maps: coordinates in its buffer), on the
    valid points of the top box.

    Example: ``<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>`` over ``[7] -> [4]`` gives
    ``{ [i0] -> [-2 + i0] : 2 <= i0 <= 5 }``.
    """
    with isl_errors("va.isl.coordinates"):
        if isinstance(x, View) and (not x.maps or x.narrow_links()):
            return islpy.Map.from_pw_multi_aff(view_function(x))
        return islpy.Map.from_pw_multi_aff(chain_function(Chain.of(x).maps))


def addresses(view: View) -> islpy.Map:
    """View point -> buffer address, on the valid view points (docs/semantics.md, Address)."""
    with isl_errors("va.isl.addresses"):
        return islpy.Map.from_pw_aff(address_function(view))


def valid_points(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> islpy.Set:
    """The valid (non-padding) points of the top box of a chain or a view."""
    with isl_errors("va.isl.valid_points"):
        return coordinates(x).domain()


def box(x: Chain | TransformMap | Sequence[TransformMap] | str | View) -> islpy.Set:
    """The top box of a chain or a view: every upper point, valid or padding."""
    with isl_errors("va.isl.box"):
        return box_set(x.shape if isinstance(x, View) else Chain.of(x).upper_bounds)
