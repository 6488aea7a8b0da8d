"""Layouts as chains of rock transform maps (docs/layouts.md, The mapping).

A CuTe layout ``S:D`` is a Merge of its leaves' sizes (reversed: rock's Merge is row-major, CuTe's
index colexicographic) and an Embed of its strides; an offset or negative strides add a constant
dim (ConstDim) that the Embed weighs. An XOR (a swizzle, a Triton layout) is four maps: split into
bits (Merge{2, ..., 2}), add each group of bits to be XOR-ed (Embed{1, ..., 1}), take it mod 2
(Broadcast{2}: rock's Broadcast is ``x mod p``) and join the bits (Unmerge{2, ..., 2}).
"""

from __future__ import annotations

import math
from typing import Literal

from .._maps.buffer import Buffer
from .._maps.chain import Chain
from .._maps.transform_map import TransformMap
from .._maps.transforms import AddDim, AnyTransform, Broadcast, ConstDim, Embed, Merge, PassThrough, Unmerge
from .._maps.view import View
from ..errors import InvalidArgumentError
from .padded import PaddedSharedLayout
from .values import AnyLayout, ComposedLayout, Layout, LinearLayout, Swizzle, flatten

Top = Literal["flat", "modes", "named"]


def swizzle_layout(sw: Swizzle) -> ComposedLayout:
    """A swizzle alone as a layout: on the ``2^top_bit`` offsets it reads and changes (at least 1)."""
    return ComposedLayout(sw, 0, Layout(1 << sw.top_bit, 1))


def layout_chain(layout: AnyLayout | Swizzle, top: Top = "flat") -> Chain:
    """A layout as a chain of rock transform maps from its index space to one dim, the offset.

    ``top``: ``flat`` is one upper dim, CuTe's colexicographic index (Triton's flat input, the
    first input dim the most minor); ``modes`` one dim per top-level mode (per Triton input dim);
    ``named`` Triton's input dims, named (a padded shared layout's tensor dims ``dim0``, ...).
    Example: ``layout_chain(parse_layout("(4,8):(8,1)"))`` is ``Merge{8, 4}`` over
    ``[32] -> [8, 4]`` and ``Embed{1, 8}`` over ``[8, 4] -> [32]``.
    """
    if top not in ("flat", "modes", "named"):
        raise InvalidArgumentError(f"layout_chain: top must be 'flat', 'modes' or 'named', got {top!r}")
    if isinstance(layout, Layout):
        if top == "named":
            raise InvalidArgumentError(
                "layout_chain: top='named' names Triton's input dims; give 'flat' or 'modes' for a "
                "CuTe layout")
        return Chain(_cute_maps(layout, 0, top, None))
    if isinstance(layout, ComposedLayout):
        if top == "named":
            raise InvalidArgumentError(
                "layout_chain: top='named' names Triton's input dims; give 'flat' or 'modes' for a "
                "CuTe layout")
        sw = layout.swizzle
        span = _cute_span(layout.layout, layout.offset)
        if span[0] < 0:
            raise InvalidArgumentError(
                f"layout_chain: {layout} reaches offset {span[0]} below 0, where the swizzle's bits "
                "are not defined; give offsets that stay at or above 0")
        if sw.bits == 0:
            return Chain(_cute_maps(layout.layout, layout.offset, top, None))
        bound = _round_up(span[1] + 1, 1 << sw.top_bit)
        return Chain(_cute_maps(layout.layout, layout.offset, top, bound) + _swizzle_maps(sw, bound))
    if isinstance(layout, LinearLayout):
        return Chain(_linear_maps(layout, top))
    if isinstance(layout, PaddedSharedLayout):
        return Chain(_padded_maps(layout, top))
    if isinstance(layout, Swizzle):
        if top == "named":
            raise InvalidArgumentError(
                "layout_chain: top='named' names Triton's input dims; give 'flat' or 'modes' for a swizzle")
        return layout_chain(swizzle_layout(layout), top)
    raise InvalidArgumentError(
        "layout_chain: expected a Layout, ComposedLayout, LinearLayout, PaddedSharedLayout or "
        f"Swizzle, got {layout!r}")


def layout_view(layout: AnyLayout | Swizzle, top: Top = "flat", dtype: str = "f32") -> View:
    """A layout's chain (``layout_chain``) over a one-dim buffer of its offsets.

    A layout whose offsets go below 0 gets a buffer offset, so that each address is the layout's
    offset.

    Example: ``layout_view(parse_layout("(4,8):(1,4)")).address((9,)) == 9``.
    """
    chain = layout_chain(layout, top)
    low = 0
    if isinstance(layout, Layout):
        low = min(_cute_span(layout, 0)[0], 0)
    (size,) = chain.lower_bounds
    return View(Buffer((size,), dtype, (1,), low), chain.maps)


def _round_up(n: int, m: int) -> int:
    return -(-n // m) * m


def _cute_span(layout: Layout, offset: int) -> tuple[int, int]:
    """The smallest and largest offset of ``offset + layout(x)``."""
    pairs = list(zip(flatten(layout.shape), flatten(layout.stride), strict=True))
    low = offset + sum((s - 1) * d for s, d in pairs if d < 0)
    high = offset + sum((s - 1) * d for s, d in pairs if d > 0)
    return low, high


def _cute_maps(layout: Layout, offset: int, top: Top, bound: int | None) -> tuple[TransformMap, ...]:
    """Merge then Embed: ``offset + layout(x)`` shifted up by the smallest offset when that is
    negative, into a dim of ``bound`` (default: one more than the largest)."""
    modes = layout.modes if top == "modes" else (layout,)
    low, high = _cute_span(layout, offset)
    shift = -min(low, 0)
    ops: list[AnyTransform] = []
    leaves: list[tuple[int, int]] = []
    upper: list[int] = []
    for k, mode in enumerate(modes):
        pairs = list(zip(flatten(mode.shape), flatten(mode.stride), strict=True))
        first = len(leaves)
        leaves += reversed(pairs)
        sizes = [s for s, _ in reversed(pairs)]
        upper.append(math.prod(sizes))
        ops.append(Merge(tuple(sizes), (f"m{k}" if top == "modes" else "x",), (k,),
                         tuple(f"l{first + j}" for j in range(len(sizes))),
                         tuple(range(first, first + len(sizes)))))
    lower = [s for s, _ in leaves]
    names = [f"l{j}" for j in range(len(leaves))]
    coefficients = [d for _, d in leaves]
    constant = offset + shift
    if constant:
        # A constant term: a dim fixed at 1 that the Embed weighs by the constant.
        ops.append(ConstDim((1, 2), (), (), ("one",), (len(lower),)))
        lower.append(2)
        names.append("one")
        coefficients.append(constant)
    first = TransformMap(tuple(ops), tuple(upper), tuple(lower))
    size = high + shift + 1 if bound is None else bound
    embed = Embed(tuple(coefficients), tuple(names), tuple(range(len(names))), ("offset",), (0,))
    return first, TransformMap((embed,), tuple(lower), (size,))


def _xor_maps(split: TransformMap, groups: list[list[int]], out_bits: int,
              join: AnyTransform | None, lower: int) -> tuple[TransformMap, ...]:
    """Below ``split`` (whose lower dims are bits or size-1 dims): output bit ``j`` (``j = 0`` the
    least significant) is the XOR of the split's dims ``groups[j]`` (none: constant 0); ``join``
    combines the output bits (listed most significant first) into one dim of ``lower``."""
    bits = split.lower_bounds
    used = {i for g in groups for i in g}
    ops: list[AnyTransform] = []
    sums: list[int] = []
    for position, j in enumerate(reversed(range(out_bits))):
        group = groups[j]
        if group:
            ops.append(Embed((1,) * len(group), tuple(f"b{i}" for i in group), tuple(group),
                             (f"s{j}",), (position,)))
            sums.append(len(group) + 1)
        else:
            ops.append(ConstDim((0, 2), (), (), (f"s{j}",), (position,)))
            sums.append(2)
    for i in range(len(bits)):
        if i not in used:
            ops.append(AddDim((bits[i],), (f"b{i}",), (i,), (), ()))
    if not sums:
        return split, TransformMap(tuple(ops) + (ConstDim((0, 1), (), (), ("offset",), (0,)),), bits, (1,))
    add = TransformMap(tuple(ops), bits, tuple(sums))
    names = tuple(f"s{j}" for j in reversed(range(out_bits)))
    dims = tuple(range(out_bits))
    mod = TransformMap(tuple(Broadcast((2,), (n,), (d,), (n,), (d,)) if s > 2
                             else PassThrough((), (n,), (d,), (n,), (d,))
                             for n, d, s in zip(names, dims, sums, strict=True)),
                       tuple(sums), (2,) * out_bits)
    if join is None:
        join = Unmerge((2,) * out_bits, names, dims, ("offset",), (0,))
    return split, add, mod, TransformMap((join,), (2,) * out_bits, (lower,))


def _swizzle_maps(sw: Swizzle, bound: int) -> tuple[TransformMap, ...]:
    """The swizzle on a dim of ``bound`` (a multiple of ``2^top_bit``): split into the part above
    ``top_bit`` and ``top_bit`` bits, add each target bit to its source bit, mod 2, join."""
    t = sw.top_bit
    high = bound >> t
    names = ("hi",) + tuple(f"b{t - 1 - i}" for i in range(t))
    split = TransformMap((Merge((high,) + (2,) * t, ("offset",), (0,), names, tuple(range(t + 1))),),
                         (bound,), (high,) + (2,) * t)

    def dim(bit: int) -> int:  # the split dim holding this bit
        return t - bit

    targets = {sw.target_bit + k: sw.source_bit + k for k in range(sw.bits)}
    add_ops: list[AnyTransform] = [PassThrough((), ("hi",), (0,), ("hi",), (0,))]
    mod_ops: list[AnyTransform] = [PassThrough((), ("hi",), (0,), ("hi",), (0,))]
    sums = [high]
    for i in range(1, t + 1):
        bit = t - i
        if bit in targets:
            add_ops.append(Embed((1, 1), (names[i], names[dim(targets[bit])]), (i, dim(targets[bit])),
                                 (names[i],), (i,)))
            mod_ops.append(Broadcast((2,), (names[i],), (i,), (names[i],), (i,)))
            sums.append(3)
        else:
            add_ops.append(PassThrough((), (names[i],), (i,), (names[i],), (i,)))
            mod_ops.append(PassThrough((), (names[i],), (i,), (names[i],), (i,)))
            sums.append(2)
    add = TransformMap(tuple(add_ops), split.lower_bounds, tuple(sums))
    mod = TransformMap(tuple(mod_ops), tuple(sums), split.lower_bounds)
    join = Unmerge(split.lower_bounds, names, tuple(range(t + 1)), ("offset",), (0,))
    return split, add, mod, TransformMap((join,), split.lower_bounds, (bound,))


def _padded_maps(layout: PaddedSharedLayout, top: Top) -> tuple[TransformMap, ...]:
    """A padded shared layout: the inverse of its linear component (tensor bits to offset bits) as
    a Triton layout on the tensor's dims, its bits joined by an Embed weighing each offset bit by
    the padded location it adds."""
    n = len(layout.offset_bases)
    bases: list[tuple[str, tuple[tuple[int, ...], ...]]] = []
    bit = 0
    for k, s in enumerate(layout.shape):
        width = s.bit_length() - 1
        bases.append((f"dim{k}", tuple((sum(b << j for j, b in enumerate(layout.inverse[bit + i])),)
                                       for i in range(width))))
        bit += width
    inverse = LinearLayout(tuple(bases), (("offset", 1 << n),))
    return _linear_maps(inverse, top, layout.bit_weights())


def _linear_maps(layout: LinearLayout, top: Top, weights: tuple[int, ...] | None = None
                 ) -> tuple[TransformMap, ...]:
    """A Triton layout: split the input into bits, XOR per output bit, join (Unmerge{2, ..., 2}
    when every output size is a power of two, else an Embed weighing each bit by its place)."""
    sizes = [s for _, s in layout.in_dims]
    ops: list[AnyTransform] = []
    bit_of: list[tuple[int, int]] = []  # (input dim, bit) of each split dim
    lower: list[int] = []
    if top == "flat":
        total = sum(len(vs) for _, vs in layout.bases)
        flat = [(d, b) for d, (_, vs) in enumerate(layout.bases) for b in range(len(vs))]
        bit_of = list(reversed(flat))
        lower = [2] * total if total else [1]
        ops.append(Merge(tuple(lower), ("x",), (0,), tuple(f"b{i}" for i in range(len(lower))),
                         tuple(range(len(lower)))))
        upper = [layout.size]
    else:
        upper = sizes
        for d, (name, vs) in enumerate(layout.bases):
            k = len(vs)
            first = len(lower)
            parts = [2] * k if k else [1]
            bit_of += [(d, b) for b in reversed(range(k))]
            if not k:
                bit_of.append((d, -1))
            lower += parts
            ops.append(Merge(tuple(parts), (name,), (d,), tuple(f"b{i}" for i in range(first, len(lower))),
                             tuple(range(first, len(lower)))))
        if not layout.bases:
            raise InvalidArgumentError("layout_chain: a layout without input dims has no 'named' top")
    split = TransformMap(tuple(ops), tuple(upper), tuple(lower))
    # Output bit places: out dim k has w_k bits at stride out_strides[k].
    places: list[tuple[int, int, int]] = []  # (out dim, bit, weight)
    for k, ((_, s), stride) in enumerate(zip(layout.out_dims, layout.out_strides, strict=True)):
        places += [(k, b, stride << b) for b in range((s - 1).bit_length())]
    groups: list[list[int]] = []
    for k, b, _ in places:
        groups.append([i for i, (d, bit) in enumerate(bit_of)
                       if bit >= 0 and layout.bases[d][1][bit][k] >> b & 1])
    power = all(s & (s - 1) == 0 for _, s in layout.out_dims)
    n = len(places)
    join: AnyTransform | None = None
    bound = 1 << n
    if (not power or weights is not None) and n:
        w = [p for _, _, p in places] if weights is None else list(weights)
        names = tuple(f"s{j}" for j in reversed(range(n)))
        join = Embed(tuple(reversed(w)), names, tuple(range(n)), ("offset",), (0,))
        bound = sum(w) + 1
    return _xor_maps(split, groups, n, join, bound)
