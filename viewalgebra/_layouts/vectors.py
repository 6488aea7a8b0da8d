"""The vector length two layouts have in common, exactly, and CuTe's rules for it beside it
(docs/layouts.md, The algebra, exactly).

CuTe's ``max_common_vector(a, b)`` (Triton's ``largestVectorisation`` of a register -> shared
pair) asks how many consecutive offsets of ``b`` one vector can move to consecutive offsets of
``a``. Exactly, that is the vector length (docs/vectorize.md) of ``a ∘ b⁻¹`` on ``b``'s offsets
``0..cosize(b)-1``: the offsets no index of ``b`` reaches are padding, so the inverse of a
layout with holes (``(6,4):(1,8)``: a Slice, a Merge, then a Pad on the inner digit) is what
makes it a view, and ``max_vector_length`` answers on that view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from .._analyses.invert import invert
from .._analyses.vectorize import max_vector_length
from .._maps.evaluate import evaluate_chain
from .._maps.view import View
from ..errors import CuteRuleError, InternalError, InvalidArgumentError, LayoutAlgebraError
from .algebra import domain_shape, function
from .chains import layout_chain, layout_view
from .cute_rules import cute_max_common_vector as _cute_mcv
from .cute_rules import cute_swizzle_vector as _cute_swizzle
from .values import ComposedLayout, IntTuple, Layout, LinearLayout, idx2crd

MAX_BITS = 128
"""The widest copy (bits) the cap allows: CuTe's 128-bit ``AutoVectorizingCopy``."""


@dataclass(frozen=True, slots=True)
class VectorWitness:
    """Why the next candidate length is illegal, at an offset of the inner layout ``b``."""

    length: int
    reason: str
    """``address jump``, ``mixed validity``, ``crosses the end of the dim`` or ``misaligned``."""
    offset: int
    """The offset of ``b`` where it happens."""
    coord: IntTuple | None
    """``b``'s coordinate with that offset (``None``: no index of ``b`` reaches it)."""
    values: tuple[int | None, ...]
    """``a``'s offsets there and one offset further (``None`` where no index reaches it)."""

    def __str__(self) -> str:
        where = "a hole" if self.coord is None else f"coordinate {self.coord}"
        return (f"{self.length} is illegal: {self.reason} at offset {self.offset} of b ({where}), "
                f"a's offsets {list(self.values)}")


@dataclass(frozen=True, slots=True)
class CommonVector:
    """The exact vector length of ``a ∘ b⁻¹``, with its evidence, in elements and bits."""

    length: int
    """Elements per vector: the largest legal length (within the 128-bit cap when ``bits`` is given)."""
    legal: tuple[int, ...]
    witness: VectorWitness | None
    bits: int | None
    """Bits per element, when given."""
    aligned: bool

    @property
    def width_bits(self) -> int | None:
        """The copy width in bits (elements × element bits), when ``bits`` was given."""
        return None if self.bits is None else self.length * self.bits

    def __str__(self) -> str:
        width = "" if self.bits is None else f" ({self.width_bits} bits)"
        return f"{self.length}{width}" + ("" if self.witness is None else f"; {self.witness}")


def max_common_vector(a: Layout | ComposedLayout | LinearLayout, b: Layout | ComposedLayout | LinearLayout, *,
                      bits: int | None = None,
                      aligned: bool = False, timeout: float | None = 60.0) -> CommonVector:
    """The exact vector length of ``a ∘ b⁻¹`` on ``b``'s offsets (docs/vectorize.md).

    A length is legal when every piece of that many consecutive offsets of ``b`` is all holes or
    goes to consecutive offsets of ``a``.

    ``bits`` (bits per element) caps the length at 128 bits and gives ``width_bits``;
    ``aligned`` also requires each vector's first offset in ``a`` to be a multiple of its length
    (CuTe's ``max_alignment``). Triton's linear layouts are answered alike (its
    ``largestVectorisation`` of a register -> shared pair). Example: ``a = b = (6,4):(1,8)``
    gives 2 (offsets 6 and 7 are holes); ``a = Sw<3,3,3> o 0 o 64:1``, ``b = 64:1`` gives 64.
    """
    if a.size != b.size:
        raise InvalidArgumentError(
            f"max_common_vector: {a} has {a.size} indices and {b} has {b.size}; "
            "give two layouts of one domain")
    if bits is not None and not 1 <= bits <= MAX_BITS:
        raise InvalidArgumentError(f"max_common_vector: bits must be 1..{MAX_BITS}, got {bits}")
    inverse = invert(layout_chain(b), timeout=timeout)
    if inverse.kind == "not-injective":
        (i,), (j,) = inverse.witness or ((0,), (0,))
        raise LayoutAlgebraError(
            f"max_common_vector: {b} is not one-to-one: indices {i} and {j} (coordinates "
            f"{idx2crd(i, domain_shape(b))} and {idx2crd(j, domain_shape(b))}) share an offset, so b⁻¹ "
            "is not a function",
            (i, j))
    cap = None if bits is None else max(MAX_BITS // bits, 1)
    if inverse.maps is None:  # one-to-one, but not a radix with gaps: enumerate b's offsets
        return _enumerated(a, b, cap, bits, aligned)
    outer = layout_view(a)
    view = View(outer.buffer, inverse.maps + outer.maps)
    answer = max_vector_length(view, 0, max_elements=cap, aligned=aligned, timeout=timeout)
    witness = None
    if answer.witness is not None:
        w = answer.witness
        y = w.point[0]
        index = evaluate_chain(inverse.maps, (y,))
        coord = None if index is None else idx2crd(index[0], domain_shape(b))
        shift = min(0, int(function(b, "max_common_vector").min()))  # b's chain counts from its lowest offset
        witness = VectorWitness(w.length, w.reason, y + shift, coord, w.addresses)  # addresses: a's offsets
    return CommonVector(answer.length, answer.legal, witness, bits, aligned)


def _enumerated(a: Layout | ComposedLayout | LinearLayout, b: Layout | ComposedLayout | LinearLayout,
                cap: int | None, bits: int | None,
                aligned: bool) -> CommonVector:
    """The same criterion checked piece by piece on ``b``'s offsets (for a one-to-one ``b``
    whose inverse is no chain of transforms, e.g. ``(2,2):(2,3)``)."""
    f_a, f_b = function(a, "max_common_vector"), function(b, "max_common_vector")
    low = int(f_b.min())
    n = int(f_b.max()) - low + 1
    g = np.full(n, -1, dtype=np.int64)
    g[f_b - low] = f_a
    valid = np.zeros(n, dtype=bool)
    valid[f_b - low] = True
    legal = [v for v in range(1, n + 1) if n % v == 0 and _piece_fails(g, valid, v, aligned) is None]
    usable = [v for v in legal if cap is None or v <= cap]
    best = max(usable)
    witness = None
    for v in range(best + 1, n + 1):
        if n % v or (cap is not None and v > cap):
            continue
        start = _piece_fails(g, valid, v, aligned)
        if start is not None:
            witness = _piece_witness(g, valid, v, start, aligned, low, b)
            break
    return CommonVector(best, tuple(legal), witness, bits, aligned)


def _piece_fails(g: npt.NDArray[np.int64], valid: npt.NDArray[np.bool_], v: int, aligned: bool) -> int | None:
    """The first offset of a piece of ``v`` that breaks the rule, or ``None``."""
    pieces, ok = g.reshape(-1, v), valid.reshape(-1, v)
    full = ok.all(axis=1)
    good = (full & (np.diff(pieces, axis=1) == 1).all(axis=1)) | ~ok.any(axis=1)
    if aligned:
        good &= ~full | (pieces[:, 0] % v == 0)
    bad = np.flatnonzero(~good)
    return None if bad.size == 0 else int(bad[0]) * v


def _piece_witness(g: npt.NDArray[np.int64], valid: npt.NDArray[np.bool_], v: int, start: int, aligned: bool,
                   low: int, b: Layout | ComposedLayout | LinearLayout) -> VectorWitness:
    def value(y: int) -> int | None:
        return int(g[y]) if valid[y] else None

    def coord(y: int) -> IntTuple | None:
        if not valid[y]:
            return None
        index = int(np.flatnonzero(function(b, "max_common_vector") == y + low)[0])
        return idx2crd(index, domain_shape(b))

    for y in range(start, start + v - 1):
        if valid[y] != valid[y + 1]:
            return VectorWitness(v, "mixed validity", y + low, coord(y), (value(y), value(y + 1)))
        if valid[y] and g[y + 1] != g[y] + 1:
            return VectorWitness(v, "address jump", y + low, coord(y), (value(y), value(y + 1)))
    if aligned:
        return VectorWitness(v, "misaligned", start + low, coord(start), (value(start),))
    raise InternalError("max_common_vector: a piece fails without a failing step (please report)")


CuteVerdict = Literal["equal", "CuTe conservative", "CuTe unsound", "CuTe rejects"]
"""``equal``; ``CuTe conservative``: legal but below the exact length (missed performance);
``CuTe unsound``: not a legal length (wrong results); ``CuTe rejects``: its static assertion fails."""


@dataclass(frozen=True, slots=True)
class CuteComparison:
    """CuTe's rule beside the exact vector length."""

    exact: CommonVector
    cute: int | None
    """What CuTe's rule answers (``None``: it rejects the input, see ``reason``)."""
    verdict: CuteVerdict
    reason: str | None = None

    def __str__(self) -> str:
        theirs = "rejects" if self.cute is None else str(self.cute)
        return f"exact {self.exact.length}, CuTe {theirs}: {self.verdict}"


def _compare(rule: int | None, reason: str | None, exact: CommonVector) -> CuteComparison:
    if rule is None:
        return CuteComparison(exact, None, "CuTe rejects", reason)
    verdict: CuteVerdict = ("equal" if rule == exact.length else
                            "CuTe conservative" if rule in exact.legal else "CuTe unsound")
    return CuteComparison(exact, rule, verdict)


def cute_max_common_vector(a: Layout, b: Layout, *, timeout: float | None = 60.0) -> CuteComparison:
    """CuTe's ``max_common_vector(a, b)`` beside the exact length, with a verdict.

    CuTe's rule: the first mode of ``coalesce(a ∘ right_inverse(b))`` if its stride is 1, else 1.

    Example: ``a = b = (6,4):(1,8)``: CuTe 6, exact 2 (offsets 6, 7 are holes): ``CuTe unsound``.
    """
    exact = max_common_vector(a, b, timeout=timeout)
    try:
        return _compare(_cute_mcv(a, b), None, exact)
    except CuteRuleError as e:
        return _compare(None, str(e), exact)


def cute_swizzle_vector(a: ComposedLayout, b: Layout, *, timeout: float | None = 60.0) -> CuteComparison:
    """CuTe's ``max_common_vector`` of a swizzled layout beside the exact length, with a verdict.

    CuTe's rule: ``min(max_common_vector(L, b), 2^M)`` for ``Sw<B,M,S> o OFF o L``.

    Example: ``Sw<1,2,3> o 0 o (6,4):(1,8)`` with ``24:1``: CuTe 4, exact 6: ``CuTe unsound``;
    ``Sw<3,3,3> o 0 o 64:1`` with ``64:1``: CuTe 8, exact 64: ``CuTe conservative``.
    """
    if not isinstance(a, ComposedLayout):
        raise InvalidArgumentError(
            f"cute_swizzle_vector: expected a swizzled layout (Sw<B,M,S> o OFF o L), got {a!r}")
    exact = max_common_vector(a, b, timeout=timeout)
    try:
        return _compare(_cute_swizzle(a, b), None, exact)
    except CuteRuleError as e:
        return _compare(None, str(e), exact)
