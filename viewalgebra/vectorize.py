"""Exact maximal vector lengths of loads and stores through a view (design S5).

A length ``v`` is legal along ``dim`` for a run length ``L`` when ``v`` divides ``L`` and the size of
``dim`` and every piece ``u, u + e_dim, ..., u + (v - 1) e_dim`` with ``u[dim] % v == 0`` is either
entirely invalid or entirely valid with addresses ``a, a + 1, ..., a + v - 1``. A piece is good iff
each of its internal steps ``p -> p + e_dim`` is good, so the legal lengths are exactly the divisors
of ``g = gcd(L, size, {p[dim] + 1 : p a bad step})``. ISL computes the set of bad steps once and
``g`` by counterexamples (islpy-notes.md §3); the cost depends on the view's structure, not its size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import islpy as isl

from .budget import run_bounded
from .errors import CoordinateError, ViewAlgebraError
from .maps.buffer import dtype_bits
from .maps.relations import CTX, address_function, box, point_coords, total_address_and_checks, val
from .maps.view import View

Reason = Literal["address jump", "mixed validity", "crosses the end of the dim", "misaligned"]

LINE_WINDOW = 4096
"""How many positions of one line along the dim seed the gcd before ISL proves it."""


@dataclass(frozen=True, slots=True)
class Witness:
    """Why ``length`` is not legal: a view point and what goes wrong there."""

    length: int
    reason: Reason
    point: tuple[int, ...]
    """``address jump`` / ``mixed validity``: the first point of a step inside one piece;
    ``crosses the end of the dim``: the start of the last, partial piece;
    ``misaligned``: the start of a valid piece whose address is not a multiple of ``length``."""
    next_point: tuple[int, ...] | None
    """The point one step further along the dim (for a step), else ``None``."""
    addresses: tuple[int | None, ...]
    """The addresses of ``point`` (and ``next_point``); ``None`` where invalid."""

    def __str__(self) -> str:
        if self.next_point is None:
            where = f"at {list(self.point)} (address {self.addresses[0]})"
        else:
            invalid = "; None is invalid" if None in self.addresses else ""
            where = (f"from {list(self.point)} to {list(self.next_point)} (addresses "
                     f"{self.addresses[0]} -> {self.addresses[1]}{invalid})")
        return f"{self.length} is illegal: {self.reason} {where}"


@dataclass(frozen=True, slots=True)
class VectorLength:
    """The answer of ``max_vector_length`` with its evidence."""

    length: int
    """The largest legal vector length (within the cap, if one was given)."""
    legal: tuple[int, ...]
    """Every legal length dividing the run length, ascending (only powers of two if asked)."""
    witness: Witness | None
    """Evidence against the smallest illegal candidate above ``length`` (``None``: there is none
    up to the run length and the cap)."""
    dim: int
    run: int
    """The run length ``L``."""
    cap: int | None = None


def elements_per_access(x: View | str, bits: int = 128) -> int:
    """How many elements of the view's (or the named) element type fit in ``bits`` bits.

    rocMLIR's data-type cap: ``128 // bitwidth``. Example: 4 for ``f32``, 8 for ``f16``.
    """
    width = x.buffer.bits if isinstance(x, View) else dtype_bits(x)
    return max(bits // width, 1)


def max_vector_length(view: View, dim: int, length: int | None = None, *,
                      max_elements: int | None = None, power_of_two: bool = False,
                      aligned: bool = False, rocmlir_compatible: bool = False,
                      timeout: float | None = 60.0) -> VectorLength:
    """The largest legal vector length along ``dim`` for runs of ``length`` (default: the dim's size).

    ``max_elements`` caps the answer at the largest legal length not above it (with
    ``rocmlir_compatible=True``: ``gcd(cap, answer)``, rocMLIR's convention, so results compare one
    to one); ``power_of_two`` admits powers of two only; ``aligned`` also requires each vector's
    start address to be a multiple of its length. ISL work is bounded by ``timeout`` seconds
    (``QueryTimeoutError`` beyond), never by guessing.

    Example: through ``Merge{4, 8}`` over ``memref<4x8xf32>``, dim 0 gives 32 (8 with
    ``length=8``; 4 with ``max_elements=elements_per_access(view)``).
    """
    if not 0 <= dim < view.rank:
        raise CoordinateError(f"max_vector_length: dim {dim} out of range for rank {view.rank}")
    run = view.shape[dim] if length is None else length
    if run < 1:
        raise ViewAlgebraError(f"max_vector_length: run length must be at least 1, got {run}")
    if max_elements is not None and max_elements < 1:
        raise ViewAlgebraError(f"max_vector_length: max_elements must be at least 1, got {max_elements}")
    return run_bounded(_solve, (view, dim, run, max_elements, power_of_two, aligned, rocmlir_compatible),
                       timeout, f"max_vector_length(dim={dim})")


def _solve(view: View, dim: int, run: int, cap: int | None, power_of_two: bool, aligned: bool,
           compatible: bool) -> VectorLength:
    size = view.shape[dim]
    g, found = _bad_step_gcd(view, dim, math.gcd(run, size))
    top = next(v for v in reversed(_divisors(g)) if _aligned_ok(view, dim, v)) if aligned else g
    legal = tuple(v for v in _divisors(top) if not power_of_two or _is_power_of_two(v))
    if cap is None:
        answer = legal[-1]
    elif compatible:
        answer = math.gcd(legal[-1], cap)
    else:
        answer = max(v for v in legal if v <= cap)
    legal_set = set(legal)
    witness = None
    for c in _divisors(run):
        if c <= answer or c in legal_set or (power_of_two and not _is_power_of_two(c)):
            continue
        if cap is not None and c > cap:
            break
        witness = _witness(view, dim, c, size, g, found)
        break
    return VectorLength(answer, legal, witness, dim, run, cap)


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _is_power_of_two(v: int) -> bool:
    return v & (v - 1) == 0


# {{{ ISL


def _space(n: int) -> isl.Space:
    return isl.Space.set_alloc(CTX, 0, n)


def _shift(n: int, dim: int) -> isl.MultiAff:
    """``x -> x + e_dim``."""
    ls = isl.LocalSpace.from_space(_space(n))
    affs = isl.AffList.alloc(CTX, n)
    for k in range(n):
        a = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        affs = affs.add(a.add_constant_val(val(1)) if k == dim else a)
    return isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, n, n), affs)


def _split(n: int, dim: int, v: int) -> isl.MultiAff:
    """``(x with x[dim] = q, r) -> x with x[dim] = v*q + r``: residues without a new div."""
    ls = isl.LocalSpace.from_space(_space(n + 1))
    affs = isl.AffList.alloc(CTX, n)
    for k in range(n):
        a = isl.Aff.var_on_domain(ls, isl.dim_type.set, k)
        if k == dim:
            a = a.scale_val(val(v)).add(isl.Aff.var_on_domain(ls, isl.dim_type.set, n))
        affs = affs.add(a)
    return isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, n + 1, n), affs)


def _residues(n: int, low: int, high: int) -> isl.Set:
    """``{ (x, r) : low <= r <= high }`` in the space of ``_split``."""
    ls = isl.LocalSpace.from_space(_space(n + 1))
    r = isl.Aff.var_on_domain(ls, isl.dim_type.set, n)
    zero = isl.Aff.zero_on_domain(ls)
    return r.ge_set(zero.add_constant_val(val(low))) & r.le_set(zero.add_constant_val(val(high)))


@lru_cache(maxsize=1024)
def bad_steps(view: View, dim: int) -> isl.Set:
    """Points ``p`` with ``p`` and ``p + e_dim`` in the box where the step is not good: not (both
    valid with consecutive addresses) and not (both invalid)."""
    n = view.rank
    addr, checks = total_address_and_checks(view)
    shift = _shift(n, dim)
    upper = box(view.shape)
    steps = upper & upper.preimage_multi_aff(shift)
    zero = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(_space(n)))

    def inside(e: isl.Aff, bound: int) -> isl.Set:
        return e.ge_set(zero) & e.lt_set(zero.add_constant_val(val(bound)))

    def outside(e: isl.Aff, bound: int) -> isl.Set:
        return e.lt_set(zero) | e.ge_set(zero.add_constant_val(val(bound)))

    valid, valid_next = steps, steps
    for e, bound in checks:
        valid = valid & inside(e, bound)
        valid_next = valid_next & inside(e.pullback_multi_aff(shift), bound)
    jump = addr.pullback_multi_aff(shift).sub(addr).add_constant_val(val(-1))
    bad = valid & valid_next & (jump.lt_set(zero) | jump.gt_set(zero))
    for e, bound in checks:  # mixed validity: one end valid, a check fails at the other
        bad = bad | (valid & outside(e.pullback_multi_aff(shift), bound)) | (valid_next & outside(e, bound))
    return bad


def _bad_step_gcd(view: View, dim: int, g: int) -> tuple[int, list[tuple[int, ...]]]:
    """``gcd(g, {p[dim] + 1 : p a bad step})``, and the bad steps that decided it."""
    if g == 1:
        return 1, []
    bad = bad_steps(view, dim)
    if bad.is_empty():
        return g, []
    first = point_coords(bad.sample_point(), view.rank)
    found = [first, *_line(bad, dim, first)]
    g = math.gcd(g, *(p[dim] + 1 for p in found))
    while g > 1:
        p = _bad_not_dividing(bad, view.rank, dim, g)
        if p is None:
            break
        found.append(p)
        g = math.gcd(g, p[dim] + 1)
    return g, found


def _line(bad: isl.Set, dim: int, through: tuple[int, ...]) -> list[tuple[int, ...]]:
    # A cheap first estimate: the bad steps on one window of the line through a bad point. The
    # proof that no bad step anywhere breaks the final gcd is _bad_not_dividing's.
    line = bad
    for k, c in enumerate(through):
        if k != dim:
            line = line.fix_val(isl.dim_type.set, k, val(c))
    ls = isl.LocalSpace.from_space(line.get_space())
    x = isl.Aff.var_on_domain(ls, isl.dim_type.set, dim)
    zero = isl.Aff.zero_on_domain(ls)
    start = max(through[dim] - LINE_WINDOW // 2, 0)
    line = line & x.ge_set(zero.add_constant_val(val(start))) & x.lt_set(
        zero.add_constant_val(val(start + LINE_WINDOW)))
    found: list[int] = []
    line.foreach_point(lambda p: found.append(p.get_coordinate_val(isl.dim_type.set, dim).to_python()))
    return [tuple(c if k == dim else x for k, x in enumerate(through)) for c in found]


def _bad_not_dividing(bad: isl.Set, n: int, dim: int, v: int) -> tuple[int, ...] | None:
    """A bad step ``p`` with ``v`` not dividing ``p[dim] + 1`` (a step inside a ``v``-piece)."""
    inside = bad.preimage_multi_aff(_split(n, dim, v)) & _residues(n, 0, v - 2)
    if inside.is_empty():
        return None
    qr = point_coords(inside.sample_point(), n + 1)
    return tuple(v * qr[dim] + qr[n] if k == dim else c for k, c in enumerate(qr[:n]))


def _misaligned(view: View, dim: int, v: int) -> tuple[int, ...] | None:
    """A valid piece start ``x`` (``x[dim] % v == 0``) whose address is not a multiple of ``v``."""
    n = view.rank
    f = address_function(view).pullback_multi_aff(_split(n, dim, v))
    starts = f.mod_val(val(v)).non_zero_set() & _residues(n, 0, 0)
    if starts.is_empty():
        return None
    qr = point_coords(starts.sample_point(), n + 1)
    return tuple(v * qr[dim] if k == dim else c for k, c in enumerate(qr[:n]))


def _aligned_ok(view: View, dim: int, v: int) -> bool:
    return v == 1 or _misaligned(view, dim, v) is None


def _witness(view: View, dim: int, c: int, size: int, g: int,
             found: list[tuple[int, ...]]) -> Witness:
    if size % c:
        start = tuple(size - size % c if k == dim else 0 for k in range(view.rank))
        return Witness(c, "crosses the end of the dim", start, None, (view.address(start),))
    if g % c:
        # g is the gcd of the found steps' p[dim] + 1 (with the run and size, which c divides),
        # so one of them lies inside a c-piece.
        p = next((p for p in found if (p[dim] + 1) % c), None)
        if p is None:
            raise ViewAlgebraError(f"internal: no bad step refutes {c} although {c} does not divide {g}")
        q = tuple(x + 1 if k == dim else x for k, x in enumerate(p))
        a, b = view.address(p), view.address(q)
        if a is None and b is None:
            raise ViewAlgebraError(f"internal: the bad step {p} -> {q} is invalid at both ends")
        reason: Reason = "address jump" if a is not None and b is not None else "mixed validity"
        return Witness(c, reason, p, q, (a, b))
    x = _misaligned(view, dim, c)
    if x is None:
        raise ViewAlgebraError(f"internal: {c} divides {g} and is aligned, yet was not legal")
    return Witness(c, "misaligned", x, None, (view.address(x),))


# }}}
