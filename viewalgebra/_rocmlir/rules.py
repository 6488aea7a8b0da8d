"""A faithful port of rocMLIR's vectorization analysis ``getMaxVectorization``, for comparison.

This is a reference layer: it answers what rocMLIR answers, quirks included, so that the exact
answers of ``vectorize.py`` can be compared with it one to one. It follows rocMLIR's
``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp`` (after PR #1674, with PR #2373 as a
switch); docs/vectorize.md compares the two:

* ``VectorizationInfo`` is rocMLIR's per-dimension state ``maxLength@needsCoefficient align(a)``;
  ``None`` in a ``VectorizationData`` tuple means "held constant".
* ``propagate_vectorization_info`` is ``propagateVectorizationInfo`` (one map, its ops in order).
* ``propagate_unmerge_vectorization`` is ``propagateUnmergeVectorization`` (Unmerge and the
  implicit final unmerge over the buffer shape).
* ``find_contiguous_groups`` is ``findContiguousGroups`` with ``findCountiguousGroupsUnmerge``.
* ``rocmlir_vector_length`` is the Value API ``getMaxVectorization(...).max``.
* ``rocmlir_invert`` is ``invertTransformMap`` / ``invertTransforms`` (same file; docs/invert.md).
* ``rocmlir_needs_64bit`` is ``untransform``'s 64-bit flag: ``needs64BitIndices`` of each map and
  ``is4GBMemoryType`` of the buffer (same file; docs/index-range.md).

Where rocMLIR would stop on an ``assert`` (an index out of range, ``gcd(0, 0)``, a division by
zero) this module raises ``ViewAlgebraError`` instead. The only other check is that the run
length is at least 1 (rocMLIR takes any ``inputDimLen``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, assert_never

from .._analyses.index_range import INT32_MAX, IndexRange, index_range
from .._analyses.vectorize import VectorLength, elements_per_access, max_vector_length
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap, blocking_problems
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from .._maps.view import View
from ..errors import CoordinateError, InvalidArgumentError, RocmlirRuleError

__all__ = [
    "Comparison",
    "ContiguousGroups",
    "IndexWidthComparison",
    "GroupKey",
    "RocmlirInversion",
    "VectorizationData",
    "VectorizationInfo",
    "compare_index_width",
    "compare_vector_lengths",
    "find_contiguous_groups",
    "propagate_unmerge_vectorization",
    "propagate_vectorization_info",
    "rocmlir_invert",
    "rocmlir_needs_64bit",
    "rocmlir_vector_length",
]

MAX_VECTOR_BITS = 128
"""rocMLIR's ``maxVectorLenBits``: the data-type cap is ``gcd(128 // bitwidth, r)``."""


@dataclass(frozen=True, slots=True)
class VectorizationInfo:
    """rocMLIR's ``VectorizationInfo`` of one dimension, printed ``m@c align(a)``.

    Example: the queried dim starts as ``VectorizationInfo(L, 1, L)``, i.e. ``L@1 align(L)``.
    """

    max_length: int
    """How many elements can be read along the dim without a jump (an optimistic guess)."""
    needs_coefficient: int
    """The step, in units of the queried index, at which this coordinate advances."""
    alignment: int
    """What is known about the alignment of the coordinate's values."""

    def __str__(self) -> str:
        return f"{self.max_length}@{self.needs_coefficient} align({self.alignment})"


VectorizationData = tuple[VectorizationInfo | None, ...]
"""One entry per dim of the current space; ``None`` means the dim is held constant."""

GroupKey = tuple[TransformMap, Merge]
"""A Merge identified as rocMLIR does: ``(map, transform)`` compared by value."""

ContiguousGroups = Mapping[GroupKey, tuple[frozenset[int], ...]]
"""For each Merge, the classes of its lower dims found contiguous (``findContiguousGroups``)."""


# {{{ arithmetic as compiled


def _gcd(a: int, b: int) -> int:
    """``math_util::gcd``: absolute values, ``gcd(x, 0) = x``; ``gcd(0, 0)`` asserts."""
    if a == 0 and b == 0:
        raise RocmlirRuleError("rocMLIR gcd(0, 0) is undefined (an assert in math_util::gcd)")
    return math.gcd(a, b)


def _div(a: int, b: int, what: str) -> int:
    """C++ ``int64_t`` division (truncates toward zero); division by zero is an error."""
    if b == 0:
        raise RocmlirRuleError(f"{what}: division by zero ({a} / 0)")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _at(data: Sequence[VectorizationInfo | None], dim: int, what: str) -> VectorizationInfo | None:
    """``IndexedMap::operator[]``: out-of-range indices assert in rocMLIR."""
    if not 0 <= dim < len(data):
        raise RocmlirRuleError(f"{what}: dim {dim} out of range for a space of rank {len(data)}")
    return data[dim]


def _store(result: list[VectorizationInfo | None], dim: int, info: VectorizationInfo | None,
           what: str) -> None:
    if not 0 <= dim < len(result):
        raise RocmlirRuleError(
            f"{what}: lower dim {dim} out of range for a lower space of rank {len(result)}")
    result[dim] = info


def _param(params: Sequence[int], k: int, what: str) -> int:
    """``ArrayRef::operator[]`` on a transform's params: out of range asserts in rocMLIR."""
    if not 0 <= k < len(params):
        raise RocmlirRuleError(f"{what}: parameter {k} missing (the op has {len(params)} params)")
    return params[k]


def _describe(op: AnyTransform) -> str:
    params = "{" + ", ".join(map(str, op.params)) + "}" if op.params else ""
    return f"{op.kind}{params} at {list(op.upper_dims)} -> {list(op.lower_dims)}"


# }}}
# {{{ propagateUnmergeVectorization


def propagate_unmerge_vectorization(dims_and_lengths: Iterable[tuple[int, int]],
                                    data: VectorizationData, *,
                                    pr2373: bool = True) -> VectorizationInfo | None:
    """rocMLIR's ``propagateUnmergeVectorization``.

    ``dims_and_lengths`` are ``(upper dim, length)`` pairs from the fastest dim to the slowest.
    Lengths are multiplied up (held-constant dims included) together with the vector lengths until
    the two products diverge. ``pr2373`` stops at a held-constant dim of length > 1 (ROCm/rocMLIR
    PR #2373); without it such a dim only enlarges the stride.

    Example: ``<Unmerge{8, 4} ["t", "v"] at [0, 1] -> ["flat"] at [0]>`` over
    ``(2@4 align(2), 4@1 align(4))`` gives ``8@1 align(4)``.
    """
    result: VectorizationInfo | None = None
    stride = 1
    align: int | None = None
    for dim, length in dims_and_lengths:
        info = _at(data, dim, "propagateUnmergeVectorization")
        if info is not None:
            if result is None:
                result = VectorizationInfo(1, info.needs_coefficient, 1)
            if (info.needs_coefficient != stride
                    or result.max_length * result.needs_coefficient != stride):
                break
            result = VectorizationInfo(result.max_length * info.max_length,
                                       result.needs_coefficient, result.alignment)
            term = info.alignment * stride
            align = term if align is None else _gcd(align, term)
        else:
            # Dimensions held constant affect alignment.
            align = stride if align is None else _gcd(align, stride)
            if pr2373 and length > 1:
                # PR #2373: the alignment computed so far is preserved, so the break comes
                # after the alignment update (this leaves every CHECK value of rocMLIR's tests).
                break
        stride *= length
    if result is None:
        return None
    return VectorizationInfo(result.max_length, result.needs_coefficient,
                             align if align is not None else 1)


# }}}
# {{{ findContiguousGroups


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
            length = _param(params, j, "findCountiguousGroupsUnmerge")
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
            f"findContiguousGroups: {_describe(op)}: upper dim {slowest} out of range for upper "
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


def _is_equivalent(classes: tuple[frozenset[int], ...], a: int, b: int) -> bool:
    """``EquivalenceClasses::isEquivalent``: a dim is always equivalent to itself."""
    return a == b or any(a in c and b in c for c in classes)


# }}}
# {{{ propagateVectorizationInfo


def propagate_vectorization_info(tm: TransformMap, data: VectorizationData,
                                 groups: ContiguousGroups | None = None, *,
                                 pr2373: bool = True) -> VectorizationData:
    """rocMLIR's ``propagateVectorizationInfo``: the state of ``tm``'s lower space.

    Each op writes only its own lower dims; the others stay ``None`` (held constant).
    Example (issue #1643): ``<Embed{2, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>`` over
    ``(1@4 align(1), 4@1 align(4))`` gives ``(4@1 align(2),)``.
    """
    result: list[VectorizationInfo | None] = [None] * len(tm.lower_bounds)
    for op in tm.ops:
        what = f"propagateVectorizationInfo: {_describe(op)}"
        match op:
            case PassThrough() | AddDim() | ConstDim():
                for upper, lower in zip(op.upper_dims, op.lower_dims, strict=False):
                    _store(result, lower, _at(data, upper, what), what)
            case Slice():
                _propagate_slice(op, data, result, what)
            case Pad():
                _propagate_pad(op, data, result, what)
            case Broadcast():
                _propagate_broadcast(op, data, result, what)
            case Embed():
                _store(result, op.lower_dims[0], _propagate_embed(op, data, what), what)
            case Unmerge():
                pairs = zip(reversed(op.upper_dims), reversed(op.params), strict=False)
                _store(result, op.lower_dims[0],
                       propagate_unmerge_vectorization(pairs, data, pr2373=pr2373), what)
            case Merge():
                classes = (groups or {}).get((tm, op), ())
                _propagate_merge(op, data, classes, result, what)
            case _:
                assert_never(op)
    return tuple(result)


def _propagate_slice(op: Slice, data: VectorizationData,
                     result: list[VectorizationInfo | None], what: str) -> None:
    """A slice keeps the length; a non-zero begin can lower the alignment."""
    for k, (upper, lower) in enumerate(zip(op.upper_dims, op.lower_dims, strict=False)):
        begin = _param(op.params, 2 * k, what)
        info = _at(data, upper, what)
        if info is not None:
            align = info.alignment if begin == 0 else _gcd(info.alignment, begin)
            _store(result, lower,
                   VectorizationInfo(info.max_length, info.needs_coefficient, align), what)


def _propagate_pad(op: Pad, data: VectorizationData,
                   result: list[VectorizationInfo | None], what: str) -> None:
    """A vector must lie entirely inside or entirely outside the padding on both sides."""
    for k, (upper, lower) in enumerate(zip(op.upper_dims, op.lower_dims, strict=False)):
        left = _param(op.params, 2 * k, what)
        right = _param(op.params, 2 * k + 1, what)
        info = _at(data, upper, what)
        if info is None:
            continue
        m = info.max_length
        length = min(_gcd(m, m - left), _gcd(m, m - right))
        if left != 0 or right != 0:
            length = _gcd(length, info.alignment)
        _store(result, lower,
               VectorizationInfo(length, info.needs_coefficient, info.alignment), what)


def _propagate_broadcast(op: Broadcast, data: VectorizationData,
                         result: list[VectorizationInfo | None], what: str) -> None:
    """A vector must lie entirely inside one period of the modulus."""
    for upper, lower, modulus in zip(op.upper_dims, op.lower_dims, op.params, strict=False):
        info = _at(data, upper, what)
        if info is not None:
            _store(result, lower, VectorizationInfo(
                _gcd(info.max_length, modulus), info.needs_coefficient,
                _gcd(info.alignment, modulus)), what)


def _embed_order(data: VectorizationData, what: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    """rocMLIR's Embed sort comparator (PR #1179), as a three-way comparison."""
    (coef_a, dim_a), (coef_b, dim_b) = a, b
    if coef_a != coef_b:
        return -1 if coef_a < coef_b else 1
    info_a, info_b = _at(data, dim_a, what), _at(data, dim_b, what)
    if info_a is not None and info_b is not None:
        needs_a = info_a.needs_coefficient == coef_a
        needs_b = info_b.needs_coefficient == coef_b
        if needs_a != needs_b:
            return -1 if needs_a else 1
        if needs_a and info_a.max_length != info_b.max_length:
            return -1 if info_a.max_length < info_b.max_length else 1
    elif info_a is not None or info_b is not None:
        return -1 if info_a is not None else 1
    return (dim_a > dim_b) - (dim_a < dim_b)


def _propagate_embed(op: Embed, data: VectorizationData, what: str) -> VectorizationInfo | None:
    """Walk coefficients upward, multiplying lengths while each coefficient equals the span so far."""
    ordered = sorted(zip(op.params, op.upper_dims, strict=True),
                     key=functools.cmp_to_key(functools.partial(_embed_order, data, what)))
    negative = False
    result: VectorizationInfo | None = None
    handled: set[int] = set()
    for coef, dim in ordered:
        negative = negative or coef < 0
        info = _at(data, dim, what)
        if info is None or coef == 0:
            continue
        if result is None:
            result = VectorizationInfo(1, coef, info.alignment * coef)
            handled.add(dim)
            if negative:
                result = VectorizationInfo(1, coef, 1)
                break
        if coef != info.needs_coefficient or coef != result.max_length * result.needs_coefficient:
            break
        handled.add(dim)
        result = VectorizationInfo(result.max_length * info.max_length, result.needs_coefficient,
                                   _gcd(result.alignment, info.alignment * coef))
    if result is None:
        return None
    # PR #1674: the alignment of every input not incorporated above still constrains the sum.
    align = result.alignment
    for coef, dim in ordered:
        if coef > 0 and dim not in handled:
            info = _at(data, dim, what)
            align = _gcd(align, (info.alignment if info is not None else 1) * coef)
    return VectorizationInfo(result.max_length, result.needs_coefficient, align)


def _merge_group_lengths(op: Merge, classes: tuple[frozenset[int], ...]) -> dict[int, int]:
    """The length of each group of the Merge's lower dims, keyed by its fastest member."""
    group = op.lower_dims[-1]
    lengths = {group: 1}
    for lower, size in zip(reversed(op.lower_dims), reversed(op.params), strict=True):
        if _is_equivalent(classes, lower, group):
            lengths[group] *= size
        else:
            group = lower
            lengths[group] = size
    return lengths


def _propagate_merge(op: Merge, data: VectorizationData, classes: tuple[frozenset[int], ...],
                     result: list[VectorizationInfo | None], what: str) -> None:
    """Split the vector over the groups from the fastest: ``Merge{3, 4}`` with 6 gives [1, 2]."""
    info = _at(data, op.upper_dims[0], what)
    if info is None:
        return
    m, stride = info.max_length, 1
    lengths = _merge_group_lengths(op, classes)
    for lower in reversed(op.lower_dims):
        if lower not in lengths:
            continue
        length = lengths[lower]
        _store(result, lower, VectorizationInfo(
            _gcd(m, length), info.needs_coefficient * stride,
            max(_div(info.alignment, stride, what), 1)), what)
        m = max(_div(m, length, what), 1)
        stride *= length


# }}}
# {{{ getMaxVectorization


def _walk(view: View, data: VectorizationData, pr2373: bool) -> VectorizationData:
    """Propagate through one view's maps, with the groups of that view and its buffer."""
    groups = find_contiguous_groups(view.maps, view.buffer.shape)
    for tm in view.maps:
        data = propagate_vectorization_info(tm, data, groups, pr2373=pr2373)
    return data


def rocmlir_vector_length(view: View, dim: int, length: int | None = None, *,
                          limit_for_data_type: bool = False, pr2373: bool = True,
                          continuations: Sequence[View] = ()) -> int:
    """rocMLIR's ``getMaxVectorization(view, dim, length, ...).max`` (docs/vectorize.md).

    ``length`` is rocMLIR's ``inputDimLen`` (default: the view's size along ``dim``).
    ``limit_for_data_type`` applies rocMLIR's cap ``gcd(128 // bitwidth, r)`` with the element
    type of the final buffer; ``pr2373=False`` gives the answer from before ROCm/rocMLIR PR #2373.
    ``continuations`` models the fusion traversal (``findPostFusionTransforms``): views that the
    walk continues into after ``view``'s buffer (a ``memref.alloc``), each one's top space being
    the previous buffer; the vectorization data is carried over and the contiguous groups are recomputed for
    each, and the final unmerge uses the last buffer. Without continuations the walk stops at
    ``view``'s buffer and uses its shape (rocMLIR's behaviour without traversal, or when the
    traversal fails). Memref strides are ignored, as in rocMLIR: buffers are taken as row-major.

    Example: ``<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 1]>`` over ``memref<4x8xf32>``,
    dim 0: 32; with ``length=6``: 2; with ``limit_for_data_type=True``: 4.
    """
    if not 0 <= dim < view.rank:
        raise CoordinateError(f"rocmlir_vector_length: dim {dim} out of range for rank {view.rank}")
    run = view.shape[dim] if length is None else length
    if run < 1:
        raise InvalidArgumentError(f"rocmlir_vector_length: length must be at least 1, got {run}")
    initial = VectorizationInfo(run, 1, run)
    data: VectorizationData = tuple(initial if d == dim else None for d in range(view.rank))
    last = view
    for current in (view, *continuations):
        data = _walk(current, data, pr2373)
        last = current
    shape = last.buffer.shape
    final = propagate_unmerge_vectorization(
        zip(reversed(range(len(shape))), reversed(shape), strict=True), data, pr2373=pr2373)
    r = final.max_length if final is not None and final.needs_coefficient == 1 else 1
    r = _gcd(run, r)  # rocMLIR: "TODO(kdrewnia): Add support for tails"
    if limit_for_data_type:
        r = _gcd(MAX_VECTOR_BITS // last.buffer.bits, r)
    return r


# }}}


Verdict = Literal["equal", "rocMLIR conservative", "rocMLIR unsound"]


@dataclass(frozen=True, slots=True)
class Comparison:
    """rocMLIR's vector length beside the exact one, for one dim of one view."""

    dim: int
    exact: VectorLength
    """The exact answer in rocMLIR-compatible mode (``gcd`` with the run length and the cap)."""
    rocmlir: int
    """What rocMLIR's rules answer."""
    verdict: Verdict
    """``equal``; ``rocMLIR conservative``: legal but below the exact length (missed
    performance); ``rocMLIR unsound``: not a legal length at all (wrong results)."""

    def __str__(self) -> str:
        return f"dim {self.dim}: exact {self.exact.length}, rocMLIR {self.rocmlir}: {self.verdict}"


def compare_vector_lengths(view: View, dim: int, length: int | None = None, *,
                           limit_for_data_type: bool = False,
                           timeout: float | None = 60.0) -> Comparison:
    """The exact vector length and rocMLIR's, compared one to one.

    Example: ``Pad{4, 6}`` over ``[24] -> [14]`` with ``length=12``: exact 2, rocMLIR 4, unsound.
    """
    cap = elements_per_access(view, MAX_VECTOR_BITS) if limit_for_data_type else None
    exact = max_vector_length(view, dim, length, max_elements=cap, rocmlir_compatible=True,
                              timeout=timeout)
    theirs = rocmlir_vector_length(view, dim, length, limit_for_data_type=limit_for_data_type)
    verdict: Verdict = ("equal" if theirs == exact.length else
                        "rocMLIR conservative" if theirs in exact.legal else "rocMLIR unsound")
    return Comparison(dim, exact, theirs, verdict)


# {{{ invertTransformMap


@dataclass(frozen=True, slots=True)
class RocmlirInversion:
    """What rocMLIR's ``invertTransformMap`` / ``invertTransforms`` answer (docs/invert.md).

    Example: ``<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 1]>`` over ``[32] -> [4, 8]`` has
    the inverse ``<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["1"] at [0]>`` over ``[4, 8] -> [32]``;
    ``<Pad{0, 4} ["b"] at [0] -> ["b"] at [0]>`` fails with the reason ``Pad is unsupported``.
    """

    maps: tuple[TransformMap, ...] | None
    """The inverse chain, top first (its top space is the old bottom space); ``None`` when
    rocMLIR fails."""
    reason: str | None
    """Why rocMLIR fails (it returns a null attribute); ``None`` on success."""

    def __post_init__(self) -> None:
        if (self.maps is None) == (self.reason is None):
            raise InvalidArgumentError("RocmlirInversion: exactly one of maps and reason must be None")

    def __str__(self) -> str:
        if self.maps is None:
            return f"rocMLIR: fails ({self.reason})"
        return "rocMLIR: " + ", ".join(print_transform_map(tm) for tm in self.maps)


class _InversionFailed(Exception):
    """rocMLIR gives up (a null attribute); the message is the reason."""


_Emitted = tuple[AnyTransform, tuple[int, ...]]
"""An op of the inverse with the sizes of its lower dims (what the builder records)."""


def _new_upper_names(tm: TransformMap) -> tuple[str, ...]:
    """Step 1: each lower dim's name, given by the last op that lists it ("" if none does)."""
    names = [""] * tm.lower_rank
    for op in tm.ops:
        for name, dim in zip(op.lower_names, op.lower_dims, strict=True):
            if not 0 <= dim < len(names):
                raise RocmlirRuleError(
                    f"invertTransformMap: {_describe(op)}: lower dim {dim} out of range for lower "
                    f"bounds {list(tm.lower_bounds)} (an assert in rocMLIR)")
            names[dim] = name
    return tuple(names)


def _name_resolver(names: tuple[str, ...]) -> Callable[[str], int]:
    """Step 2: the builder's ``startIndex``; with duplicate names the last index wins."""
    indices = {name: i for i, name in enumerate(names)}

    def start(name: str) -> int:
        if name not in indices:
            raise RocmlirRuleError(
                f"invertTransformMap: no dim is named {name!r} in the new upper space "
                f"{list(names)} (an assert in rocMLIR's builder)")
        return indices[name]

    return start


def _invert_op(op: AnyTransform, start: Callable[[str], int],
               bounds: tuple[int, ...]) -> list[_Emitted]:
    """Step 3: the ops rocMLIR emits for one op of ``M`` (``bounds`` is ``M``'s lower bounds)."""
    match op:
        case PassThrough():
            upper = tuple(start(n) for n in op.lower_names)
            return [(PassThrough((), op.lower_names, upper, op.upper_names, op.upper_dims),
                     tuple(bounds[d] for d in upper))]
        case Merge():
            upper = tuple(start(n) for n in op.lower_names)
            return [(Unmerge(op.params, op.lower_names, upper, op.upper_names, op.upper_dims),
                     (math.prod(op.params),))]
        case Unmerge():
            # rocMLIR checks bounds[start] == prod(params) only in debug builds.
            upper = (start(op.lower_names[0]),)
            return [(Merge(op.params, op.lower_names, upper, op.upper_names, op.upper_dims),
                     op.params)]
        case AddDim():
            if op.params[0] != 1:
                raise _InversionFailed(
                    f"AddDim of length > 1 has no coherent inverse (AddDim{{{op.params[0]}}})")
            return [(ConstDim((0, 1), (), (), op.upper_names, op.upper_dims), (1,))]
        case ConstDim():
            return [_uninject(op, k, start, bounds) for k in range(len(op.lower_dims))]
        case Pad() | Slice() | Embed() | Broadcast():
            raise _InversionFailed(f"{op.kind} is unsupported")
        case _:
            assert_never(op)


def _uninject(op: ConstDim, k: int, start: Callable[[str], int],
              bounds: tuple[int, ...]) -> _Emitted:
    """Pair ``k`` of a ConstDim becomes an ``AddDim`` of the bound found by name (``ignore``)."""
    value, length = op.values[k]
    if (value, length) != (0, 1):
        raise _InversionFailed(f"ConstDim{{{value}, {length}}} is not a unit 0")
    name = op.lower_names[k]
    dim = start(name)
    return (AddDim((bounds[dim],), (name,), (dim,), (), ()), ())


def _invert_map(tm: TransformMap) -> TransformMap:
    """``invertTransformMap`` of one map; raises ``_InversionFailed`` where rocMLIR fails."""
    start = _name_resolver(_new_upper_names(tm))
    ops: list[AnyTransform] = []
    sizes: dict[int, int] = {}
    for op in tm.ops:
        for new, lower in _invert_op(op, start, tm.lower_bounds):
            ops.append(new)
            sizes.update(zip(new.lower_dims, lower, strict=True))
    rank = max(sizes, default=-1) + 1
    lower_bounds = tuple(sizes.get(d, 0) for d in range(rank))
    inverse = TransformMap(tuple(ops), tm.lower_bounds, lower_bounds, strict=False)
    blocking = blocking_problems(inverse)
    if blocking:
        raise RocmlirRuleError(
            "invertTransformMap: the inverse has no defined meaning (rocMLIR's builder asserts): "
            + "; ".join(p.message for p in blocking))
    return inverse


def rocmlir_invert(maps: TransformMap | Sequence[TransformMap]) -> RocmlirInversion:
    """rocMLIR's ``invertTransformMap`` (one map) or ``invertTransforms`` (a top-first chain).

    Follows rocMLIR's ``transformMapUtils.cpp`` with its quirks: the inverse looks lower dims up
    by name (duplicate names resolve to the last index), only PassThrough, Merge, Unmerge, ``AddDim{1}``
    and unit ``ConstDim{0, 1}`` invert, and bounds are not checked (the result is built with
    ``strict=False``). A chain is inverted bottom map first; any failure fails the whole chain.
    Where rocMLIR's builder would assert this raises ``RocmlirRuleError``.

    Example: ``<PassThrough ["a", "b"] at [0, 1] -> ["a", "c"] at [0, 2]>, <ConstDim{0, 1} [] at
    [] -> ["b"] at [1]>`` over ``[8, 3] -> [8, 1, 3]`` inverts to ``<PassThrough ["a", "c"] at
    [0, 2] -> ["a", "b"] at [0, 1]>, <AddDim{1} ["b"] at [1] -> [] at []>`` over
    ``[8, 1, 3] -> [8, 3]``.
    """
    chain = (maps,) if isinstance(maps, TransformMap) else tuple(maps)
    inverses: list[TransformMap] = []
    for k in reversed(range(len(chain))):
        try:
            inverses.append(_invert_map(chain[k]))
        except _InversionFailed as e:
            where = f" (map {k} of {len(chain)}, counting from 0 at the top)" if len(chain) > 1 else ""
            return RocmlirInversion(None, f"{e}{where}")
    return RocmlirInversion(tuple(inverses), None)


# }}}


# {{{ needs64BitIndices

UINT32_MAX = 2**32 - 1


def rocmlir_needs_64bit(view: View) -> bool:
    """rocMLIR's decision that a view needs 64-bit indices (docs/index-range.md).

    ``untransform`` ORs ``needs64BitIndices`` over the view's maps (some upper or lower bound
    negative or above ``INT32_MAX``) with ``is4GBMemoryType`` of the buffer (its element count
    times ``bitwidth / 8`` bytes, integer division, above ``UINT32_MAX``), in
    ``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp`` and ``loweringUtils.cpp``. Only
    bounds and sizes count: not the values the maps compute, nor the strides or offset.

    Example: ``memref<2147483648xf32>`` with no maps: ``True`` (8 GiB), although every address
    fits 32 bits.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"rocmlir_needs_64bit: expected a View, got {view!r}")

    def is_big(n: int) -> bool:
        return n < 0 or n > INT32_MAX

    if any(is_big(n) for m in view.maps for n in (*m.upper_bounds, *m.lower_bounds)):
        return True
    return math.prod(view.buffer.shape) * (view.buffer.bits // 8) > UINT32_MAX


@dataclass(frozen=True, slots=True)
class IndexWidthComparison:
    """rocMLIR's 64-bit decision beside the exact one (``index_range``), for one view."""

    exact: IndexRange
    rocmlir: bool
    """What ``needs64BitIndices`` and ``is4GBMemoryType`` decide."""
    verdict: Verdict
    """``equal``; ``rocMLIR conservative``: 64-bit where every value fits 32 bits (cost);
    ``rocMLIR unsound``: 32-bit where a value leaves it (``exact.witness`` reaches it)."""
    address_only: bool
    """Unsound only through the address of a valid point below ``2**32`` bytes, which rocMLIR's
    buffer operations take as an unsigned byte offset (docs/index-range.md)."""

    def __str__(self) -> str:
        return f"exact: {self.exact}; rocMLIR 64-bit: {self.rocmlir}: {self.verdict}"


def compare_index_width(view: View, *, timeout: float | None = 60.0) -> IndexWidthComparison:
    """The exact 64-bit decision (``index_range``) and rocMLIR's, compared.

    Example: ``Embed{1048576, 1}`` from ``[4096, 4]`` to ``[4096]`` over ``memref<4096xf32>``:
    rocMLIR 32-bit, but the Embed reaches ``4095 * 2**20 + 3`` at padding point ``[4095, 3]``
    (before masking): unsound.
    """
    exact = index_range(view, timeout=timeout)
    theirs = rocmlir_needs_64bit(view)
    verdict: Verdict = ("equal" if theirs == exact.needs_64bit else
                        "rocMLIR conservative" if theirs else "rocMLIR unsound")
    # Without maps the view coordinates are the buffer's, which the address covers.
    coordinates_fit = (all(e is None or e.fits_int32() for dims in exact.box_coordinates for e in dims)
                       and (not view.maps or all(n - 1 <= INT32_MAX for n in view.shape)))
    address_only = (verdict == "rocMLIR unsound" and coordinates_fit and exact.address is not None
                    and exact.address.low >= 0
                    and (exact.address.high + 1) * view.buffer.bits <= 8 * (UINT32_MAX + 1))
    return IndexWidthComparison(exact, theirs, verdict, address_only)


# }}}
