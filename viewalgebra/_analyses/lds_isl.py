"""LDS conflict-freedom decided by ISL (docs/lds.md, The ISL decision).

An access is conflict-free iff no two lane accesses of one instruction collide: same wave, same
instance, same phase, same bank, different dwords. The colliding pairs form a set of integer
points ``(t1, t2, x, q1, q2)``: thread ids, the other view coordinates, and which dword of each
lane's access. By symmetry only pairs with ``dword1 < dword2`` are needed, so each piece of the set
is one basic set: the box, the validity checks of both points (the view's total address formula and
its checks, as the vector-length analysis builds them), the wave ``t div wave``, the bank
``(dword1 - dword2) mod banks = 0`` and the phase. A phase rule of contiguous lanes is
``t div size``; one whose phases are the cosets of a subspace of lane bits under xor is a set of
parities of lane bits (gfx942's ``ds_read_b128``: ``(l div 32, (l div 8) mod 2, ((l div 4) +
(l div 16)) mod 2)``); any other rule is a union over its phases of pairs of lane intervals.
"""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl

from .._engine.budget import check_timeout, run_bounded
from .._maps.relations import CTX, point_coords, total_address_and_checks, val
from .lds import Collision, LdsAccess, Plan, collision_at, plan
from .lds_model import LdsModel, PhaseRule


def conflict_free(access: LdsAccess, model: LdsModel, *, timeout: float | None = 60.0) -> Collision | None:
    """Whether an LDS access is free of bank conflicts, decided by ISL: ``None``, or a collision.

    The collision is built around a point of the set of colliding lane pairs (the fullest bank of
    its phase). ISL work is bounded by ``timeout`` seconds (``QueryTimeoutError`` beyond).
    Example: gfx942 ``ds_read_b128`` at a 16-byte stride gives ``None``; at 32 bytes, lanes 0 and 2
    of phase 0 share bank 0.
    """
    check_timeout(timeout, "conflict_free")
    p = plan(access, model, timeout)
    rule = model.rule(access.kind, p.width)
    point = run_bounded(colliding_pair, (access, model, p), timeout, "conflict_free")
    if point is None:
        return None
    return _collision(access, model, rule, p, point)


def phase_kind(rule: PhaseRule, wave: int) -> tuple[str, tuple[int, ...]]:
    """How the phases are written for ISL: ``("contiguous", (size,))``, ``("parities", masks)``
    (lanes share a phase iff ``popcount(l & mask)`` has the same parity for every mask) or
    ``("intervals", ())``."""
    sizes = {len(g) for g in rule.groups}
    if len(sizes) == 1:
        s = sizes.pop()
        if wave % s == 0 and all(g == tuple(range(g[0], g[0] + s)) and g[0] % s == 0 for g in rule.groups):
            return "contiguous", (s,)
    if wave & (wave - 1) == 0:
        masks = _parities(rule, wave)
        if masks is not None:
            return "parities", masks
    return "intervals", ()


def _parities(rule: PhaseRule, wave: int) -> tuple[int, ...] | None:
    """Masks whose parities separate the phases exactly, when the phases are the cosets of one
    subspace of lane bits under xor; else ``None``."""
    base = next(g for g in rule.groups if 0 in g)
    span = set(base)
    if any(a ^ b not in span for a in base for b in base):
        return None
    for g in rule.groups:
        if {g[0] ^ s for s in span} != set(g):
            return None
    bits = wave.bit_length() - 1
    # The masks orthogonal to the subspace, reduced to a basis (Gaussian elimination over GF(2)).
    basis: list[int] = []
    for a in range(1, wave):
        if all(bin(a & s).count("1") % 2 == 0 for s in base):
            for b in basis:
                a = min(a, a ^ b)
            if a:
                basis.append(a)
    if 2 ** (bits - len(basis)) != len(base):
        return None
    return tuple(basis)


def _space(n: int) -> isl.Space:
    return isl.Space.set_alloc(CTX, 0, n)


def colliding_pair(access: LdsAccess, model: LdsModel, p: Plan) -> tuple[int, ...] | None:
    """A point ``(t1, t2, x..., q1, q2)`` of the colliding pairs, or ``None`` when there is none;
    ``x`` holds the view coordinates other than the thread dim, in view order."""
    view = access.view
    rule = model.rule(access.kind, p.width)
    r, t, d = view.rank, access.thread_axis, access.vector_axis
    n = r + 3
    ls = isl.LocalSpace.from_space(_space(n))
    zero = isl.Aff.zero_on_domain(ls)

    def var(k: int) -> isl.Aff:
        return isl.Aff.var_on_domain(ls, isl.dim_type.set, k)

    def const(c: int) -> isl.Aff:
        return zero.add_constant_val(val(c))

    others = [i for i in range(r) if i != t]
    slot = {i: 2 + k for k, i in enumerate(others)}
    q1, q2 = n - 2, n - 1

    def copy(tk: int) -> isl.MultiAff:
        affs = isl.AffList.alloc(CTX, r)
        for i in range(r):
            affs = affs.add(var(tk if i == t else slot[i]))
        return isl.MultiAff.from_aff_list(isl.Space.alloc(CTX, 0, n, r), affs)

    addr, checks = total_address_and_checks(view)
    eb, nd = access.element_bytes, max(p.width // 4, 1)
    s = isl.BasicSet.universe(_space(n))
    for k, size in ((0, view.shape[t]), (1, view.shape[t]), *((slot[i], view.shape[i]) for i in others),
                    (q1, nd), (q2, nd)):
        s = s.intersect(var(k).ge_basic_set(const(0))).intersect(var(k).lt_basic_set(const(size)))
    if d is not None and p.elements > 1:
        s = s.intersect(var(slot[d]).mod_val(val(p.elements)).eq_basic_set(zero))
    dwords: list[isl.Aff] = []
    for tk, qk in ((0, q1), (1, q2)):
        ma = copy(tk)
        for e, bound in checks:
            e = e.pullback_multi_aff(ma)
            s = s.intersect(e.ge_basic_set(const(0))).intersect(e.lt_basic_set(const(bound)))
        a = addr.pullback_multi_aff(ma).scale_val(val(eb))
        dwords.append(a.scale_down_val(val(4)).floor().add(var(qk)))
    w = val(model.wave)
    s = s.intersect(var(0).scale_down_val(w).floor().eq_basic_set(var(1).scale_down_val(w).floor()))
    s = s.intersect(dwords[0].lt_basic_set(dwords[1]))
    s = s.intersect(dwords[1].sub(dwords[0]).mod_val(val(model.banks)).eq_basic_set(zero))
    for piece in _phase_pieces(s, rule, model.wave, var, const):
        if not piece.is_empty():
            return point_coords(piece.sample_point(), n)
    return None


def _phase_pieces(s: isl.BasicSet, rule: PhaseRule, wave: int, v: Callable[[int], isl.Aff],
                  c: Callable[[int], isl.Aff]) -> list[isl.BasicSet]:
    """``s`` cut to pairs of lanes in one phase: one basic set, or one per pair of lane runs."""
    kind, params = phase_kind(rule, wave)
    t1, t2 = v(0), v(1)
    if kind == "contiguous":
        size = val(params[0])
        return [s.intersect(t1.scale_down_val(size).floor().eq_basic_set(t2.scale_down_val(size).floor()))]
    if kind == "parities":
        for mask in params:
            total = c(0)
            for b in range(mask.bit_length()):
                if mask >> b & 1:
                    total = total.add(t1.scale_down_val(val(2**b)).floor()).add(
                        t2.scale_down_val(val(2**b)).floor())
            s = s.intersect(total.mod_val(val(2)).eq_basic_set(c(0)))
        return [s]
    lane1, lane2 = t1.mod_val(val(wave)), t2.mod_val(val(wave))
    pieces: list[isl.BasicSet] = []
    for g in rule.groups:
        runs = _runs(g)
        for a0, a1 in runs:
            for b0, b1 in runs:
                pieces.append(s.intersect(lane1.ge_basic_set(c(a0))).intersect(lane1.le_basic_set(c(a1)))
                              .intersect(lane2.ge_basic_set(c(b0))).intersect(lane2.le_basic_set(c(b1))))
    return pieces


def _runs(lanes: tuple[int, ...]) -> list[tuple[int, int]]:
    """The maximal runs of consecutive lanes, as ``(first, last)``."""
    runs: list[tuple[int, int]] = []
    for lane in lanes:
        if runs and runs[-1][1] == lane - 1:
            runs[-1] = (runs[-1][0], lane)
        else:
            runs.append((lane, lane))
    return runs


def _collision(access: LdsAccess, model: LdsModel, rule: PhaseRule, p: Plan,
               point: tuple[int, ...]) -> Collision:
    view, t, d = access.view, access.thread_axis, access.vector_axis
    others = [i for i in range(view.rank) if i != t]
    x = dict(zip(others, point[2:2 + len(others)], strict=True))
    wave, lane = divmod(point[0], model.wave)
    lane_bytes: list[int] = []
    for k in range(model.wave):
        tid = wave * model.wave + k
        a = None
        if tid < view.shape[t]:
            a = view.address(tuple(tid if i == t else x[i] for i in range(view.rank)))
        lane_bytes.append(-1 if a is None else a * access.element_bytes)
    instance = tuple(x[i] - x[i] % access.vector_length if i == d else x[i] for i in p.instance_dims)
    j = 0 if d is None else (x[d] % access.vector_length) // p.elements
    phase = next(g for g, lanes in enumerate(rule.groups) if lane in lanes)
    return collision_at(model, rule, p, lane_bytes, wave, instance, j, phase)

