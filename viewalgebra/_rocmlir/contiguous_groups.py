"""A port of rocMLIR's ``findContiguousGroups`` (with ``findCountiguousGroupsUnmerge``), in
``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``: for each Merge of a view, the classes of
its lower dims that later maps keep contiguous. The vectorization rules (``vectorization.py``) and
the collapse of contiguous merges (``collapse.py``) both use it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from .._maps.transform_map import TransformMap
from .._maps.transforms import (
    AddDim,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from ..errors import RocmlirRuleError
from .common import describe, param

GroupKey = tuple[TransformMap, Merge]
"""A Merge identified as rocMLIR does: ``(map, transform)`` compared by value."""

ContiguousGroups = Mapping[GroupKey, tuple[frozenset[int], ...]]
"""For each Merge, the classes of its lower dims found contiguous (``findContiguousGroups``)."""


@dataclass(frozen=True, slots=True)
class _DimInfo:
    """rocMLIR's ``DimInfo``: the Merge a dim came from and its position in it."""

    map: TransformMap
    merge: Merge
    position: int

    @property
    def pair(self) -> GroupKey:
        return (self.map, self.merge)


_DimToMerge = dict[int, _DimInfo | None]
"""rocMLIR's ``DimToMergeMap``; a key mapped to ``None`` is a default-inserted empty entry."""


class _EquivalenceClasses:
    """Enough of ``llvm::EquivalenceClasses<uint32_t>`` for the groups (union-find)."""

    def __init__(self) -> None:
        self._parent: dict[int, int] = {}

    def _leader(self, x: int) -> int:
        while self._parent[x] != x:
            x = self._parent[x]
        return x

    def union_sets(self, a: int, b: int) -> None:
        for x in (a, b):
            self._parent.setdefault(x, x)
        ra, rb = self._leader(a), self._leader(b)
        if ra != rb:
            self._parent[rb] = ra

    def classes(self) -> tuple[frozenset[int], ...]:
        members: dict[int, set[int]] = {}
        for x in self._parent:
            members.setdefault(self._leader(x), set()).add(x)
        return tuple(frozenset(m) for m in members.values())


_Groups = dict[GroupKey, _EquivalenceClasses]


def _lookup(dim_to_merge: _DimToMerge, dim: int) -> _DimInfo | None:
    """``DenseMap::operator[]``: a lookup inserts an empty entry (so ``contains`` becomes true)."""
    return dim_to_merge.setdefault(dim, None)


def _find_contiguous_groups_unmerge(dims: Sequence[int], params: Sequence[int],
                                   dim_to_merge: _DimToMerge, groups: _Groups) -> None:
    """rocMLIR's ``findCountiguousGroupsUnmerge`` (sic), with all its quirks.

    ``dims``/``params`` go from the slowest dim to the fastest. Consecutive dims that come from
    the same Merge with the same lengths in the same order become one group (keyed by the
    Merge's lower dims); unit dims from elsewhere are skipped, and ``i`` then advances by the
    group size only. The erasures use the Merge's lower-space indices against ``dim_to_merge``,
    which is keyed by the current space, exactly as rocMLIR does.
    """
    i = 0
    while i < len(dims):
        key_i = _lookup(dim_to_merge, dims[i])
        if key_i is None:
            i += 1
            continue
        candidate: list[int] = []
        positions: list[int] = []
        for j in range(i, len(dims)):
            key_j = _lookup(dim_to_merge, dims[j])
            length = param(params, j, "findCountiguousGroupsUnmerge")
            # Unit lengths from another transform do not matter; a unit length from the Merge
            # itself does (Merge{2, 16, 1} -> Unmerge{2, 1, 16} must not be grouped).
            if length == 1 and key_j is None:
                continue
            if key_j is None or key_j.pair != key_i.pair:
                break
            if length != key_j.merge.params[key_j.position]:
                break
            candidate.append(key_j.merge.lower_dims[key_j.position])
            positions.append(key_j.position)
        i += max(1, len(candidate))
        if len(candidate) > 1 and positions == sorted(positions):
            _record_group(key_i, candidate, positions, dim_to_merge, groups)


def _record_group(key: _DimInfo, candidate: list[int], positions: list[int],
                  dim_to_merge: _DimToMerge, groups: _Groups) -> None:
    classes = groups.setdefault(key.pair, _EquivalenceClasses())
    fastest = candidate[-1]
    for d in candidate:
        dim_to_merge.pop(d, None)  # the dimension cannot be reused
        classes.union_sets(fastest, d)
    # PR #1410: unit dims of the Merge strictly inside the group (before the fastest member).
    first, last = positions[0], positions[-1]
    for d, size in zip(key.merge.lower_dims[first:last], key.merge.params[first:last],
                       strict=True):
        if size == 1 and d in dim_to_merge:
            dim_to_merge.pop(d)
            classes.union_sets(fastest, d)


def _embed_as_unmerge(tm: TransformMap, op: Embed) -> tuple[list[int], list[int]] | None:
    """The ``(dims, params)`` of an Embed of the form ``[1, l0, l0*l1, ...]``, slowest first."""
    if not all(p > 0 for p in op.params):
        return None
    data = sorted(zip(op.params, op.upper_dims, strict=True))
    params: list[int] = []
    dims: list[int] = []
    for (coef, dim), (next_coef, _) in zip(data, data[1:], strict=False):
        q = next_coef // coef
        if q * coef != next_coef:
            return None
        params.append(q)
        dims.append(dim)
    if data[0][0] != 1 or not tm.upper_bounds:
        return None
    slowest = data[-1][1]
    if not 0 <= slowest < len(tm.upper_bounds):
        raise RocmlirRuleError(
            f"findContiguousGroups: {describe(op)}: upper dim {slowest} out of range for upper "
            f"bounds {list(tm.upper_bounds)}")
    params.append(tm.upper_bounds[slowest])
    dims.append(slowest)
    return dims[::-1], params[::-1]


def _map_groups(tm: TransformMap, dim_to_merge: _DimToMerge, groups: _Groups) -> _DimToMerge:
    """One map of ``findContiguousGroups``: returns the ``DimToMergeMap`` of its lower space."""
    this: _DimToMerge = {}
    for op in tm.ops:
        match op:
            case Merge():
                for k, lower in enumerate(op.lower_dims):
                    this[lower] = _DimInfo(tm, op, k)
            case AddDim() | ConstDim():
                pass  # no merge can be associated with these
            case Embed():
                as_unmerge = _embed_as_unmerge(tm, op)
                if as_unmerge is not None:
                    _find_contiguous_groups_unmerge(*as_unmerge, dim_to_merge, groups)
            case PassThrough() | Slice() | Pad() | Broadcast():
                for upper, lower in zip(op.upper_dims, op.lower_dims, strict=False):
                    this[lower] = _lookup(dim_to_merge, upper)
            case Unmerge():
                _find_contiguous_groups_unmerge(op.upper_dims, op.params, dim_to_merge, groups)
            case _:
                assert_never(op)
    return this


def find_contiguous_groups(maps: Sequence[TransformMap], shape: Sequence[int]) -> ContiguousGroups:
    """rocMLIR's ``findContiguousGroups`` over ``maps`` (top first) and the buffer ``shape``.

    The implicit final unmerge over ``shape`` (row-major) closes the walk.
    Example: ``Merge{8, 3}`` then a transpose then ``<Unmerge{8, 3} ["a", "b"] at [1, 0] -> ...>``
    puts both lower dims of the Merge into one class: ``{(merge map, Merge): ({0, 1},)}``.
    """
    groups: _Groups = {}
    dim_to_merge: _DimToMerge = {}
    for tm in maps:
        dim_to_merge = _map_groups(tm, dim_to_merge, groups)
    _find_contiguous_groups_unmerge(range(len(shape)), shape, dim_to_merge, groups)
    return {key: classes.classes() for key, classes in groups.items()}


def is_equivalent(classes: tuple[frozenset[int], ...], a: int, b: int) -> bool:
    """``EquivalenceClasses::isEquivalent``: a dim is always equivalent to itself."""
    return a == b or any(a in c and b in c for c in classes)
