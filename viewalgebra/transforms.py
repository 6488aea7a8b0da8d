"""The nine rock transforms, what a strict transform map rejects, and maps built from reshapes."""

from ._maps.reshape import collapse_shape_map, expand_shape_map
from ._maps.transform_map import Problem, problems
from ._maps.transforms import (
    AddDim,
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

__all__ = ["AddDim", "Broadcast", "ConstDim", "Embed", "Merge", "Pad", "PassThrough", "Problem", "Slice",
           "Transform", "Unmerge", "collapse_shape_map", "expand_shape_map", "problems"]
