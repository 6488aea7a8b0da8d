"""A faithful port of rocMLIR's vectorization analysis ``getMaxVectorization``, for comparison.

This is a reference layer: it answers what rocMLIR answers, quirks included, so that the exact
answers of ``_analyses/vectorize.py`` can be compared with it one to one. It follows rocMLIR's
``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp`` (after PR #1674, with PR #2373 as a
switch); docs/vectorize.md compares the two:

* ``VectorizationInfo`` is rocMLIR's per-dimension state ``maxLength@needsCoefficient align(a)``;
  ``None`` in a ``VectorizationData`` tuple means "held constant".
* ``propagate_vectorization_info`` is ``propagateVectorizationInfo`` (one map, its ops in order).
* ``propagate_unmerge_vectorization`` is ``propagateUnmergeVectorization`` (Unmerge and the
  implicit final unmerge over the buffer shape).
* ``find_contiguous_groups`` (``contiguous_groups.py``) is ``findContiguousGroups``.
* ``rocmlir_vector_length`` is the Value API ``getMaxVectorization(...).max``.

Where rocMLIR would stop on an ``assert`` (an index out of range, ``gcd(0, 0)``, a division by
zero) this module raises ``ViewAlgebraError`` instead. The only other check is that the run
length is at least 1 (rocMLIR takes any ``inputDimLen``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import assert_never

from .._analyses.vectorize import VectorLength, elements_per_access, max_vector_length
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
from .._maps.view import View
from ..errors import CoordinateError, InvalidArgumentError
from .common import Verdict, at, describe, div, gcd, param, store
from .contiguous_groups import ContiguousGroups, find_contiguous_groups, is_equivalent

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
        info = at(data, dim, "propagateUnmergeVectorization")
        if info is not None:
            if result is None:
                result = VectorizationInfo(1, info.needs_coefficient, 1)
            if (info.needs_coefficient != stride
                    or result.max_length * result.needs_coefficient != stride):
                break
            result = VectorizationInfo(result.max_length * info.max_length,
                                       result.needs_coefficient, result.alignment)
            term = info.alignment * stride
            align = term if align is None else gcd(align, term)
        else:
            # Dimensions held constant affect alignment.
            align = stride if align is None else gcd(align, stride)
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
        what = f"propagateVectorizationInfo: {describe(op)}"
        match op:
            case PassThrough() | AddDim() | ConstDim():
                for upper, lower in zip(op.upper_dims, op.lower_dims, strict=False):
                    store(result, lower, at(data, upper, what), what)
            case Slice():
                _propagate_slice(op, data, result, what)
            case Pad():
                _propagate_pad(op, data, result, what)
            case Broadcast():
                _propagate_broadcast(op, data, result, what)
            case Embed():
                store(result, op.lower_dims[0], _propagate_embed(op, data, what), what)
            case Unmerge():
                pairs = zip(reversed(op.upper_dims), reversed(op.params), strict=False)
                store(result, op.lower_dims[0],
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
        begin = param(op.params, 2 * k, what)
        info = at(data, upper, what)
        if info is not None:
            align = info.alignment if begin == 0 else gcd(info.alignment, begin)
            store(result, lower,
                   VectorizationInfo(info.max_length, info.needs_coefficient, align), what)


def _propagate_pad(op: Pad, data: VectorizationData,
                   result: list[VectorizationInfo | None], what: str) -> None:
    """A vector must lie entirely inside or entirely outside the padding on both sides."""
    for k, (upper, lower) in enumerate(zip(op.upper_dims, op.lower_dims, strict=False)):
        left = param(op.params, 2 * k, what)
        right = param(op.params, 2 * k + 1, what)
        info = at(data, upper, what)
        if info is None:
            continue
        m = info.max_length
        length = min(gcd(m, m - left), gcd(m, m - right))
        if left != 0 or right != 0:
            length = gcd(length, info.alignment)
        store(result, lower,
               VectorizationInfo(length, info.needs_coefficient, info.alignment), what)


def _propagate_broadcast(op: Broadcast, data: VectorizationData,
                         result: list[VectorizationInfo | None], what: str) -> None:
    """A vector must lie entirely inside one period of the modulus."""
    for upper, lower, modulus in zip(op.upper_dims, op.lower_dims, op.params, strict=False):
        info = at(data, upper, what)
        if info is not None:
            store(result, lower, VectorizationInfo(
                gcd(info.max_length, modulus), info.needs_coefficient,
                gcd(info.alignment, modulus)), what)


def _embed_order(data: VectorizationData, what: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    """rocMLIR's Embed sort comparator (PR #1179), as a three-way comparison."""
    (coef_a, dim_a), (coef_b, dim_b) = a, b
    if coef_a != coef_b:
        return -1 if coef_a < coef_b else 1
    info_a, info_b = at(data, dim_a, what), at(data, dim_b, what)
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
        info = at(data, dim, what)
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
                                   gcd(result.alignment, info.alignment * coef))
    if result is None:
        return None
    # PR #1674: the alignment of every input not incorporated above still constrains the sum.
    align = result.alignment
    for coef, dim in ordered:
        if coef > 0 and dim not in handled:
            info = at(data, dim, what)
            align = gcd(align, (info.alignment if info is not None else 1) * coef)
    return VectorizationInfo(result.max_length, result.needs_coefficient, align)


def _merge_group_lengths(op: Merge, classes: tuple[frozenset[int], ...]) -> dict[int, int]:
    """The length of each group of the Merge's lower dims, keyed by its fastest member."""
    group = op.lower_dims[-1]
    lengths = {group: 1}
    for lower, size in zip(reversed(op.lower_dims), reversed(op.params), strict=True):
        if is_equivalent(classes, lower, group):
            lengths[group] *= size
        else:
            group = lower
            lengths[group] = size
    return lengths


def _propagate_merge(op: Merge, data: VectorizationData, classes: tuple[frozenset[int], ...],
                     result: list[VectorizationInfo | None], what: str) -> None:
    """Split the vector over the groups from the fastest: ``Merge{3, 4}`` with 6 gives [1, 2]."""
    info = at(data, op.upper_dims[0], what)
    if info is None:
        return
    m, stride = info.max_length, 1
    lengths = _merge_group_lengths(op, classes)
    for lower in reversed(op.lower_dims):
        if lower not in lengths:
            continue
        length = lengths[lower]
        store(result, lower, VectorizationInfo(
            gcd(m, length), info.needs_coefficient * stride,
            max(div(info.alignment, stride, what), 1)), what)
        m = max(div(m, length, what), 1)
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
    r = gcd(run, r)  # rocMLIR: "TODO(kdrewnia): Add support for tails"
    if limit_for_data_type:
        r = gcd(MAX_VECTOR_BITS // last.buffer.bits, r)
    return r


# }}}





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


