"""rocMLIR's helpers around the map builders: ``TopDownBottomDimsWrapper`` and
``BottomUpTopDimsWrapper`` place the dims a builder defines by name (``TopDownTMBottomDimsWrapper``,
``BottomUpTMTopDimsWrapper``), ``expand_names_in_place`` computes those places
(``expandNamesInPlace``); mlir/lib/Dialect/Rock/IR/TransformMapBuilder.cpp at e7743480a5c1.
A name the map lacks is an error here, where rocMLIR's ``StringMap::operator[]`` reads it as 0."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import InvalidTransformError
from .builder import BottomUpMapBuilder, Dims, MapBuilder, Names, TopDownMapBuilder, as_names, quote_names


def _lookup(dims: Mapping[str, int], names: Sequence[str], kind: str) -> tuple[int, ...]:
    missing = [n for n in names if n not in dims]
    if missing:
        raise InvalidTransformError(
            f"{kind}: \"{missing[0]}\" has no position in the wrapper's map "
            f"(it has {quote_names(sorted(dims))})")
    return tuple(dims[n] for n in names)


class TopDownBottomDimsWrapper:
    """A top-down builder whose lower dims are placed by a name -> position map
    (``TopDownTMBottomDimsWrapper``), for maps where a merge adds dims.

    Example: ``TopDownBottomDimsWrapper(b, {"k_outer": 0, "kpack": 2}).merge(["k_outer",
    "kpack"], "k", [4, 8])`` on ``b = TopDownMapBuilder(["x", "k"], [2, 32])`` adds
    ``<Merge{4, 8} ["k"] at [1] -> ["k_outer", "kpack"] at [0, 2]>``.
    """

    def __init__(self, builder: TopDownMapBuilder, bottom_dims: Mapping[str, int]) -> None:
        self.builder = builder
        self.bottom_dims = dict(bottom_dims)

    def to_bottom_dims(self, names: Names) -> tuple[int, ...]:
        return _lookup(self.bottom_dims, as_names(names, "names"), "TopDownBottomDimsWrapper")

    def pass_through(self, names: Names) -> None:
        self.builder.pass_through(names, self.to_bottom_dims(names), names)

    def pad(self, out_names: Names, in_names: Names, params: Sequence[int]) -> None:
        self.builder.pad(out_names, params, self.to_bottom_dims(out_names), in_names)

    def const_dim(self, lower_names: Names, values: Dims, sizes: Dims) -> None:
        self.builder.const_dim(lower_names, self.to_bottom_dims(lower_names), values, sizes)

    def embed(self, lower_name: str, lower_size: int, upper_names: Sequence[str],
              coefficients: Sequence[int]) -> None:
        self.builder.embed(lower_name, self.to_bottom_dims(lower_name)[0], lower_size, upper_names,
                           coefficients)

    def unmerge(self, lower_name: str, upper_names: Sequence[str], lengths: Sequence[int]) -> None:
        self.builder.unmerge(lower_name, self.to_bottom_dims(lower_name)[0], upper_names, lengths)

    def merge(self, lower_names: Sequence[str], upper_name: str, sizes: Sequence[int]) -> None:
        self.builder.merge(lower_names, self.to_bottom_dims(lower_names), upper_name, sizes)


class BottomUpTopDimsWrapper:
    """A bottom-up builder whose upper dims are placed by a name -> position map
    (``BottomUpTMTopDimsWrapper``), for maps where an embed or unmerge adds dims; the map
    usually comes from ``expand_names_in_place``.

    Example (``ConvToGemm.cpp``'s embed of the padded input): over ``["ni", "gi", "ci", "0ipad",
    "1ipad"]`` with the positions ``expand_names_in_place(pad, {"0ipad": ["0", "0o"], "1ipad":
    ["1", "1o"]})``, ``embed(["0", "0o"], [3, 64], "0ipad", [1, 1])`` adds ``<Embed{1, 1} ["0",
    "0o"] at [3, 4] -> ["0ipad"] at [3]>``.
    """

    def __init__(self, builder: BottomUpMapBuilder, top_dims: Mapping[str, int]) -> None:
        self.builder = builder
        self.top_dims = dict(top_dims)

    def to_top_dims(self, names: Names) -> tuple[int, ...]:
        return _lookup(self.top_dims, as_names(names, "names"), "BottomUpTopDimsWrapper")

    def pass_through(self, names: Names, in_names: Names | None = None) -> None:
        """Pass ``in_names`` (default ``names``) through as ``names`` at their mapped positions;
        with ``in_names`` this is the ``passThrough(outName, inName)`` that ``ConvToGemm.cpp``
        uses for a filter of size 1."""
        self.builder.pass_through(names, self.to_top_dims(names), names if in_names is None else in_names)

    def pad(self, out_names: Names, in_names: Names, params: Sequence[int]) -> None:
        self.builder.pad(out_names, params, self.to_top_dims(out_names), in_names)

    def add_dim(self, name: str, size: int) -> None:
        self.builder.add_dim(name, self.to_top_dims(name)[0], size)

    def embed(self, upper_names: Sequence[str], upper_sizes: Sequence[int], lower_name: str,
              coefficients: Sequence[int]) -> None:
        self.builder.embed(upper_names, self.to_top_dims(upper_names), upper_sizes, lower_name, coefficients)

    def unmerge(self, upper_names: Sequence[str], lower_name: str, lengths: Sequence[int]) -> None:
        self.builder.unmerge(upper_names, self.to_top_dims(upper_names), lower_name, lengths)

    def merge(self, upper_name: str, lower_names: Sequence[str]) -> None:
        self.builder.merge(upper_name, self.to_top_dims(upper_name)[0], lower_names)


def expand_names_in_place(original: Sequence[str] | MapBuilder,
                          expansion: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Positions of ``original``'s names with some replaced in place by several
    (``expandNamesInPlace``); a builder stands for its end names.

    Example: ``expand_names_in_place(["a", "b", "c"], {"b": ["x", "y"]}) == {"a": 0, "x": 1,
    "y": 2, "c": 3}``.
    """
    names = original.end_names if isinstance(original, MapBuilder) else as_names(original, "original")
    found: dict[str, int] = {}
    for name in names:
        for new in expansion.get(name, (name,)):
            if new in found:
                raise InvalidTransformError(
                    f"expand_names_in_place: \"{new}\" appears twice (rocMLIR: \"Duplicate dimension "
                    "in dimension expansion\")")
            found[new] = len(found)
    return found
