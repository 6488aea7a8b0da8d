"""The closed-form inverse of each rock transform, as rock transforms (docs/invert.md): Merge and
Unmerge invert each other, a Pad inverts to a Slice on its valid part and back, an Embed that is a
permuted Unmerge to a Merge, AddDim{1} and ConstDim to each other, a Broadcast that is the identity
to a PassThrough. ``invert_map`` raises ``NotInvertibleError`` with the reason where no such
inverse exists; ISL then certifies or refutes what these forms build (``invert.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

from .._maps.transform_map import TransformMap
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
from ..errors import NotInvertibleError

Resize = dict[int, tuple[int, type[Pad] | type[Slice], tuple[int, int]]]
"""Lower dim of the map -> (its new size, Pad or Slice, their params): done by a map placed
before the inverse, for an Embed whose radix does not fill its bound or a non-unit ConstDim."""


def _inverse_op(tm: TransformMap, op: AnyTransform, resize: Resize, post: Post) -> list[AnyTransform]:
    """The op's inverse (its upper dims are ``op``'s lower ones); raises ``NotInvertibleError``."""
    up, low = op.upper_dims, op.lower_dims
    un, ln = op.upper_names, op.lower_names
    ub, lb = tm.upper_bounds, tm.lower_bounds
    match op:
        case PassThrough():
            return [PassThrough((), ln, low, un, up)]
        case Pad():
            params = [x for (left, _), d in zip(op.amounts, low, strict=True) for x in (left, left + lb[d])]
            return [Slice(tuple(params), ln, low, un, up)]
        case Slice():
            params = [x for (begin, end), d in zip(op.ranges, low, strict=True) for x in (begin, lb[d] - end)]
            return [Pad(tuple(params), ln, low, un, up)]
        case Merge():
            return [Unmerge(op.params, ln, low, un, up)]
        case Unmerge():
            return [Merge(op.params, ln, low, un, up)]
        case AddDim():
            if op.params[0] != 1:
                raise NotInvertibleError(
                    f"AddDim{{{op.params[0]}}} at {list(up)}: its dim of size {op.params[0]} "
                    "reaches no lower coordinate (not injective)")
            return [ConstDim((0, 1), (), (), un, up)]
        case ConstDim():
            # Only the constant has a preimage: a Pad keeps exactly it, then the dim is dropped.
            for (value, length), d in zip(op.values, low, strict=True):
                if length != 1:
                    resize[d] = (1, Pad, (value, length - value - 1))
            return [AddDim((1,), (name,), (d,), (), ()) for name, d in zip(ln, low, strict=True)]
        case Broadcast():
            for p, d in zip(op.params, up, strict=True):
                if ub[d] > p:
                    raise NotInvertibleError(
                        f"Broadcast{{{p}}} at [{d}]: upper size {ub[d]} > {p}, so u and u + {p} "
                        "share an image (not injective)")
            params = [x for p, d in zip(op.params, up, strict=True) for x in (0, p - ub[d])]
            return [Pad(tuple(params), ln, low, un, up)]
        case Embed():
            return _inverse_embed(tm, op, resize, post)
        case _:
            assert_never(op)


def _inverse_embed(tm: TransformMap, op: Embed, resize: Resize, post: Post) -> list[AnyTransform]:
    """An Embed whose coefficients over its non-unit dims are a permuted mixed radix, possibly
    with gaps, inverts to a Merge (slowest dim first), unit dims to 0.

    With gaps (coefficients ``c₀ | c₁ | …`` with ``c_{k+1} ≥ c_k·n_k``, e.g. CuTe's ``(6,4):(1,8)``),
    the Merge splits into digits of sizes ``c_{k+1}/c_k`` (and ``c₀`` innermost when ``c₀ > 1``), and
    a map placed after it (``post``) keeps the first ``n_k`` values of each digit (a Pad) and the
    value 0 of the ``c₀`` digit (an Embed{1, n₀} onto the innermost dim, whose bound checks both).
    """
    sizes = [tm.upper_bounds[d] for d in op.upper_dims]
    where = f"Embed{{{', '.join(map(str, op.params))}}} at {list(op.upper_dims)}"
    terms = sorted((c, k) for k, c in enumerate(op.params) if sizes[k] > 1)
    stride, previous = 1, None
    for c, k in terms:
        if previous is None:
            good = c >= 1
        else:
            c_in, k_in = previous
            good = c % c_in == 0 and c >= stride
            if good and c > stride:  # a gap: the inner digit counts to c / c_in, a Pad keeps n
                post.gaps[op.upper_dims[k_in]] = c // c_in
        if not good:
            raise NotInvertibleError(
                f"{where}: coefficients {list(op.params)} over sizes {sizes} are not a permuted "
                f"mixed radix, even with gaps (expected a positive multiple of the coefficient "
                f"below, at least {stride}, where there is {c})")
        stride, previous = c * sizes[k], (c, k)
    y, bound = op.lower_dims[0], tm.lower_bounds[op.lower_dims[0]]
    if stride < bound:  # the radix fills less than the bound: the rest has no preimage
        resize[y] = (stride, Pad, (0, bound - stride))
    elif stride > bound:  # the bound cuts the radix short: only its first values are reached
        resize[y] = (stride, Slice, (0, bound))
    units = [ConstDim((0, 1), (), (), (op.upper_names[k],), (op.upper_dims[k],))
             for k, n in enumerate(sizes) if n == 1]
    slow_first = list(reversed(terms))
    if not slow_first:
        return [AddDim((1,), op.lower_names, (y,), (), ()), *units]
    merge_sizes = [post.gaps.get(op.upper_dims[k], sizes[k]) for _, k in slow_first]
    merge_names = [op.upper_names[k] for _, k in slow_first]
    merge_dims = [op.upper_dims[k] for _, k in slow_first]
    c0, k0 = terms[0]
    if c0 > 1:  # y mod c₀ must be 0: one more digit, checked after the Merge
        extra = tm.upper_rank + len(post.residues)
        post.residues[op.upper_dims[k0]] = (extra, c0)
        merge_sizes.append(c0)
        merge_names.append(f"{op.upper_names[k0]}_low")
        merge_dims.append(extra)
    merge = Merge(tuple(merge_sizes), op.lower_names, (y,), tuple(merge_names), tuple(merge_dims))
    return [merge, *units]


@dataclass(slots=True)
class Post:
    """What a map placed after the inverse keeps of a gapped radix's digits."""

    gaps: dict[int, int] = field(default_factory=dict[int, int])
    """Upper dim of the map -> the size of its digit (more than the dim's size: a Pad keeps the rest)."""
    residues: dict[int, tuple[int, int]] = field(default_factory=dict[int, tuple[int, int]])
    """Upper dim of the innermost term -> (the extra dim of the digit below it, its size ``c₀``)."""

    def maps(self, tm: TransformMap, names: dict[int, str]) -> TransformMap | None:
        """The map from the Merge's digits to the map's upper dims; ``None`` without gaps."""
        if not self.gaps and not self.residues:
            return None
        ub = tm.upper_bounds
        middle = [self.gaps.get(d, n) for d, n in enumerate(ub)]
        ops: list[AnyTransform] = []
        for d in range(tm.upper_rank):
            name = (names[d],)
            if d in self.residues:
                extra, c0 = self.residues[d]
                middle.append(c0)
                ops.append(Embed((1, ub[d]), (names[d], f"{names[d]}_low"), (d, extra), name, (d,)))
            elif d in self.gaps:
                ops.append(Pad((0, self.gaps[d] - ub[d]), name, (d,), name, (d,)))
            else:
                ops.append(PassThrough((), name, (d,), name, (d,)))
        return TransformMap(tuple(ops), tuple(middle), ub)


def invert_map(tm: TransformMap) -> tuple[TransformMap, ...]:
    """The closed-form inverse of one map, top-first (one map; a Pad or Slice map before it when
    an Embed's bound must first be narrowed or widened; a map after it that keeps the digits of
    a gapped radix); raises ``NotInvertibleError`` with the reason.

    Example: ``<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>`` over ``[7] -> [4]`` inverts to
    ``<Slice{2, 6} ["y"] at [0] -> ["x"] at [0]>`` over ``[4] -> [7]``.
    """
    uses = Counter(d for op in tm.ops for d in op.upper_dims)
    shared = sorted(d for d, n in uses.items() if n > 1)
    if shared:
        raise NotInvertibleError(
            f"upper dim {shared[0]} is used by {uses[shared[0]]} transforms; an inverse made of "
            "transforms would define it more than once")
    resize: Resize = {}
    post = Post()
    ops = [inv for op in tm.ops for inv in _inverse_op(tm, op, resize, post)]
    middle = tuple(resize[d][0] if d in resize else n for d, n in enumerate(tm.lower_bounds))
    upper_names = {d: n for op in tm.ops for d, n in zip(op.upper_dims, op.upper_names, strict=True)}
    after = post.maps(tm, {d: upper_names.get(d, f"d{d}") for d in range(tm.upper_rank)})
    main = TransformMap(tuple(ops), middle, tm.upper_bounds if after is None else after.upper_bounds)
    tail = (main,) if after is None else (main, after)
    if not resize:
        return tail
    names = {d: n for op in tm.ops for d, n in zip(op.lower_dims, op.lower_names, strict=True)}
    pre: list[AnyTransform] = []
    for d in range(tm.lower_rank):
        name = (names[d],)
        if d in resize:
            _, kind, params = resize[d]
            pre.append(kind(params, name, (d,), name, (d,)))
        else:
            pre.append(PassThrough((), name, (d,), name, (d,)))
    return (TransformMap(tuple(pre), tm.lower_bounds, middle), *tail)


def invert_chain(maps: Sequence[TransformMap]) -> tuple[TransformMap, ...]:
    """The closed-form inverse of a top-first chain: each map inverted, in reverse order."""
    return tuple(inv for m in reversed(tuple(maps)) for inv in invert_map(m))
