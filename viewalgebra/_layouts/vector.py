"""Exact vector lengths of a layout's flat index -> offset (docs/layouts.md).

A plain CuTe layout ``S:D`` is a Merge of its shape followed by an Embed of its strides, and the
vector length ``max_vector_length`` defines on that view has a closed form: drop the modes of
size 1, and let ``P`` be the product of the sizes of the leading modes whose stride is the
product of the sizes before them (``d_0 = 1, d_1 = s_0, d_2 = s_0 s_1, ...``: the contiguous
first mode of CuTe's coalesce); the legal lengths are the divisors of ``gcd(L, P)`` for runs of
``L``, and with ``aligned`` those that also divide every stride after those modes.
docs/layouts.md, "Vector length in closed form", has the proof; composed, swizzled and Triton
layouts are answered by the general engine on ``layout_view``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, cast

from .._analyses.divisors import divisors
from .._analyses.vectorize import Reason, VectorLength, Witness, max_vector_length
from .._common.ints import integer
from .._engine.budget import check_timeout
from .._maps.buffer import dtype_bits
from ..errors import InternalError, InvalidArgumentError
from .chains import layout_view
from .padded import PaddedSharedLayout
from .values import AnyLayout, ComposedLayout, IntTuple, Layout, LinearLayout, Swizzle

Method = Literal["closed form", "general engine"]


def vector_length(layout: AnyLayout | Swizzle, *, length: int | None = None, aligned: bool = False,
                  power_of_two: bool = False, bits: int | None = None, dtype: str = "f32",
                  timeout: float | None = 60.0) -> VectorLength:
    """The exact vector length of a layout's flat index -> offset, as ``max_vector_length`` defines it.

    The answer is ``max_vector_length(layout_view(layout, "flat", dtype), 0, length, ...)``:
    ``length`` is the run length (default: the layout's size), ``aligned`` also asks each
    vector's first offset to be a multiple of its length, ``power_of_two`` admits powers of two
    only, and ``bits`` caps it at ``bits // dtype``-bit elements (rocMLIR's 128-bit accesses:
    ``bits=128``). A plain ``Layout`` is answered in closed form (docs/layouts.md: the size of
    its coalesced contiguous first mode, with the run, the alignment and the options applied)
    in microseconds; swizzled, Triton and padded shared layouts by the general engine, within
    ``timeout`` seconds. The witness says why the next candidate fails.

    Example: ``vector_length(parse_layout("(4,8):(1,4)")).length == 32``;
    ``vector_length(parse_layout("((2,4),8):((1,16),2)")).length == 2``.
    """
    if aligned is not True and aligned is not False or power_of_two is not True and power_of_two is not False:
        raise InvalidArgumentError(f"vector_length: aligned and power_of_two must be True or False, got "
                                   f"{aligned!r} and {power_of_two!r}")
    cap = None
    if bits is not None:
        bits = integer(bits, "vector_length: bits", InvalidArgumentError)
        if bits < 1:
            raise InvalidArgumentError(f"vector_length: bits must be at least 1, got {bits}")
        cap = max(bits // dtype_bits(dtype), 1)
    elif dtype != "f32":
        dtype_bits(dtype)  # a bad element type is an error whether or not it caps
    if timeout != 60.0:  # unused by the closed form, a bad one refused alike
        check_timeout(timeout, "vector_length")
    if type(layout) is not Layout:
        if not isinstance(layout, Layout | ComposedLayout | LinearLayout | PaddedSharedLayout | Swizzle):
            raise InvalidArgumentError(
                "vector_length: expected a layout (Layout, ComposedLayout, Swizzle, LinearLayout or "
                f"PaddedSharedLayout; parse_layout reads text), got {layout!r}")
        view = layout_view(layout, "flat", dtype)
        return max_vector_length(view, 0, length, max_elements=cap, power_of_two=power_of_two,
                                 aligned=aligned, timeout=timeout)
    shape: IntTuple = layout.shape
    stride: IntTuple = layout.stride
    if type(shape) is int:
        shape, stride = (shape,), (stride,)
    elif tuple in map(type, shape):  # pyright: ignore[reportArgumentType] -- a tuple here
        shape, stride = _leaves(shape, []), _leaves(stride, [])
    if length is not None:
        length = integer(length, "vector_length: length", InvalidArgumentError)
        if length < 1:
            raise InvalidArgumentError(f"vector_length: run length must be at least 1, got {length}")
    return closed_form(shape, stride, length, cap, power_of_two, aligned)  # pyright: ignore[reportArgumentType] -- flat


def _leaves(t: IntTuple, out: list[int]) -> tuple[int, ...]:
    """The leaves of a nested tuple, left to right (``flatten`` without its generators)."""
    _collect(t, out)
    return tuple(out)


def _collect(t: IntTuple, out: list[int]) -> None:
    for x in cast(tuple[IntTuple, ...], t):
        if type(x) is int:
            out.append(x)
        else:
            _collect(x, out)


def vector_method(layout: object) -> Method:
    """How ``vector_length`` answers ``layout``: a plain ``Layout`` in closed form, the others by
    the general engine."""
    return "closed form" if type(layout) is Layout else "general engine"


def closed_form(shape: Sequence[int], stride: Sequence[int], run: int | None, cap: int | None = None,
                power_of_two: bool = False, aligned: bool = False) -> VectorLength:
    """``max_vector_length`` of the flat index -> offset of the flat modes ``shape:stride``
    (sizes at least 1, any integer strides) on ``layout_view`` along its one dim, for runs of
    ``run`` (``None``: the size), computed in closed form (the proof, docs/layouts.md, holds for
    every such layout).

    ``cap`` is ``max_elements`` (the largest legal length not above it). The witness is of the
    kind ``max_vector_length`` gives for the same smallest illegal candidate, at the first point
    that shows it.
    """
    size = 1
    prefix = 0  # P: the product of the sizes of the leading contiguous modes, once a mode is not
    misfit = strides = 0  # that mode's stride; the gcd of its and every later mode's stride
    for s, d in zip(shape, stride, strict=True):
        if s == 1:
            continue
        if prefix:
            strides = math.gcd(strides, d)
        elif d != size:
            prefix, misfit, strides = size, d, d
        size *= s
    if run is None:
        run = size
    g = math.gcd(run, prefix or size)
    top = math.gcd(g, strides) if aligned else g
    legal = (1,) if top == 1 else _divisors(top)
    if power_of_two and top & (top - 1):
        legal = tuple(v for v in legal if v & (v - 1) == 0)
    answer = legal[-1] if cap is None or legal[-1] <= cap else max(v for v in legal if v <= cap)
    if power_of_two or run & (run - 1) == 0:  # the answer and the candidates are powers of two
        c = answer * 2
        if run % c or (cap is not None and c > cap):
            return _answer(answer, legal, None, run, cap)
    else:
        c = _next_candidate(run, answer, cap)
        if c is None:
            return _answer(answer, legal, None, run, cap)
    if size % c:
        start = size - size % c
        witness = _witness(c, "crosses the end of the dim", (start,), None, (_offset(shape, stride, start),))
    elif g % c:
        if not prefix:
            raise InternalError(f"internal: {c} divides the run and the size of a contiguous layout "
                                "yet was not legal (please report)")
        # P - 1 has every leading mode at its last coordinate (offset P - 1); P has the first
        # mode after them at 1 (offset its stride)
        witness = _witness(c, "address jump", (prefix - 1,), (prefix,), (prefix - 1, misfit))
    else:
        witness = _misaligned(shape, stride, prefix, c)
    return _answer(answer, legal, witness, run, cap)


def _answer(length: int, legal: tuple[int, ...], witness: Witness | None, run: int,
            cap: int | None) -> VectorLength:
    return VectorLength(length, legal, witness, 0, run, cap)


def _witness(length: int, reason: Reason, point: tuple[int, ...], next_point: tuple[int, ...] | None,
             addresses: tuple[int, ...]) -> Witness:
    return Witness(length, reason, point, next_point, addresses)


def _misaligned(shape: Sequence[int], stride: Sequence[int], prefix: int, c: int) -> Witness:
    """A piece start whose offset ``c`` does not divide: the first mode after the leading
    contiguous ones whose stride ``c`` does not divide, at coordinate 1 (``c`` divides ``P``)."""
    at = 1
    for s, d in zip(shape, stride, strict=True):
        if s > 1 and at >= prefix and d % c:
            return _witness(c, "misaligned", (at,), None, (d,))
        at *= s
    raise InternalError(f"internal: {c} divides every stride after the contiguous modes yet is misaligned "
                        "(please report)")


def _divisors(n: int) -> tuple[int, ...]:
    """Every divisor of ``n >= 1``, ascending: by trial division while ``n`` is below
    ``_TRIAL_BELOW``, else by ``divisors`` (a proven factorisation)."""
    if n & (n - 1) == 0:
        return tuple([1 << k for k in range(n.bit_length())])
    if n >= _TRIAL_BELOW:
        return tuple(divisors(n))
    twos = (n & -n).bit_length() - 1
    n >>= twos
    found = [1 << k for k in range(twos + 1)]
    for p in _ODD_PRIMES:
        if p * p > n:
            break
        if n % p == 0:
            more = found
            while n % p == 0:
                n //= p
                more = [d * p for d in more]
                found = found + more
    if n > 1:  # what is left after the primes up to its root is a prime
        found = found + [d * n for d in found]
    found.sort()
    return tuple(found)


_TRIAL_BELOW = 1 << 20
_ODD_PRIMES = tuple(p for p in range(3, 1 << 10, 2) if all(p % q for q in range(3, math.isqrt(p) + 1, 2)))
"""The odd primes below 2^10: trial division by them factors any number below ``_TRIAL_BELOW``."""


def _next_candidate(run: int, answer: int, cap: int | None) -> int | None:
    """The smallest divisor of ``run`` above ``answer`` and not above ``cap``: the candidate
    ``max_vector_length`` gives a witness against."""
    top = run if cap is None else min(run, cap)
    if top <= answer:
        return None
    for c in range(answer + 1, min(top, answer + _SCAN) + 1):
        if run % c == 0:
            return c
    return next((c for c in _divisors(run) if answer + _SCAN < c <= top), None)


_SCAN = 32
"""Candidates above the answer tried one by one before the divisors of the run are listed."""


def _offset(shape: Sequence[int], stride: Sequence[int], index: int) -> int:
    """The offset of flat ``index``: colexicographic coordinates times strides."""
    total = 0
    for s, d in zip(shape, stride, strict=True):
        index, c = divmod(index, s)
        total += c * d
    return total
