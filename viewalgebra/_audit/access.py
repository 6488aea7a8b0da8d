"""The audit of one access and of one (problem, config) (docs/audit.md).

For each ``ThreadAccess`` a provider supplies: rocMLIR's width (``rocmlir_threadwise_width``),
the exact width of the same view along the same dim with the same caps, the widest exact width
over the alternatives the provider supplies (every thread layout rocMLIR could have chosen), and
a verdict with a witness; then the provider's exact checks. The answer is one frozen ``AuditRow``
per access and per check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .._analyses.vectorize import VectorLength, Witness, max_vector_length
from .._engine.cache import AnswerCache
from .._maps.buffer import Buffer
from .._maps.equations import dim_names
from .._maps.transform_map import TransformMap
from .._maps.transforms import Embed, Merge, PassThrough
from .._maps.view import View
from .._recipes.access import ThreadAccess
from .._recipes.arch import Arch
from .._recipes.perf_config import AccelPerfConfig, GeneralPerfConfig
from .._recipes.problems import ConvProblem, GemmProblem
from .._rocmlir.threadwise_width import rocmlir_threadwise_width
from ..errors import InvalidArgumentError, RocmlirRuleError, ViewAlgebraError

Verdict = Literal["equal", "rocmlir_conservative", "rocmlir_unsound", "rocmlir_fails", "check_holds",
                  "check_fails", "error"]
"""``equal``; ``rocmlir_conservative``: rocMLIR's width is legal but narrower than the exact one;
``rocmlir_unsound``: rocMLIR's width is not legal (wrong results), with a witness;
``rocmlir_fails``: rocMLIR's lowering fails on the access (a direct-to-LDS width it does not
accept, or one of its rules asserts); ``check_holds`` / ``check_fails``: a provider's exact
check; ``error``: the audit itself could not answer (the message is the witness)."""

VERDICTS: tuple[Verdict, ...] = ("equal", "rocmlir_conservative", "rocmlir_unsound", "rocmlir_fails",
                                 "check_holds", "check_fails", "error")

MAX_BITS = 128
"""The widest hardware vector access: an LDS or global vector is a power of two of elements of at
most 128 bits (``global_load_dwordx4``, ``ds_read_b128``)."""

Problem = GemmProblem | ConvProblem
Config = AccelPerfConfig | GeneralPerfConfig


@dataclass(frozen=True, slots=True)
class AuditCheck:
    """An exact check of a (problem, config) a provider supplies (a thread tile covers its block
    tile once, C is written once, ...): ``check()`` is ``None`` when it holds, else the text of a
    witness.

    Example: ``AuditCheck("c_written_once", lambda: None)`` always holds.
    """

    name: str
    check: Callable[[], str | None]


@dataclass(frozen=True, slots=True)
class AuditItem:
    """One access to audit, as a provider supplies it: the access rocMLIR makes, the same data
    moved through every other thread layout rocMLIR could have chosen (``alternatives``), the
    exact checks of it, and what rocMLIR's lowering is told beside the view: a global-to-LDS
    read (``direct_to_lds``, schedule versions 3 and 4), a read with dynamic validities.

    Example: ``AuditItem(access)`` audits ``access`` alone.
    """

    access: ThreadAccess
    alternatives: tuple[ThreadAccess, ...] = ()
    checks: tuple[AuditCheck, ...] = ()
    direct_to_lds: bool = False
    dynamic_validity: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.access, ThreadAccess):
            raise InvalidArgumentError(f"AuditItem: access must be a ThreadAccess, got {self.access!r}")
        object.__setattr__(self, "alternatives", tuple(self.alternatives))
        object.__setattr__(self, "checks", tuple(self.checks))
        for alt in self.alternatives:
            if not isinstance(alt, ThreadAccess) or (alt.kind, alt.operand) != (self.access.kind,
                                                                                 self.access.operand):
                raise InvalidArgumentError(
                    f"AuditItem: an alternative of {self.access.name} must be a ThreadAccess of the same "
                    f"operand and kind, got {alt!r}")


Provider = Callable[[Problem, Config, Arch], Sequence[AuditItem]]
"""What the audit asks for each (problem, config, arch): the accesses (and checks) to audit."""


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One row of the audit: an access (or a check) of one (problem, config) on one arch."""

    problem: str
    config: str
    arch: str
    access: str
    """The access's name (``a_global_load``, ...) or the check's."""
    operand: str
    kind: str
    """``global_load``, ``lds_store``, ``lds_read``, ``global_store``, or ``check``."""
    dtype: str
    rocmlir_width: int | None
    exact_width: int | None
    best_width: int | None
    verdict: Verdict
    witness: str
    """Why rocMLIR's width is not legal (a step whose addresses are not consecutive, or that
    mixes valid and invalid points), why a check fails, or what went wrong; else empty."""
    seconds: float


def threadwise_op(access: ThreadAccess) -> Literal["read_into", "write_all"]:
    """The threadwise op rocMLIR lowers the access from: loads are reads, stores writes."""
    return "read_into" if access.kind in ("global_load", "lds_read") else "write_all"


def run_length(access: ThreadAccess) -> int:
    """The run rocMLIR vectorizes: ``values`` for a read, the dim's size for a write."""
    return access.values if threadwise_op(access) == "read_into" else access.view.shape[access.dim]


def direct_to_lds_bits(arch: Arch) -> int:
    """The arch's direct-to-LDS width in bits (``getMaxLDSVectorLength``): 128, 32, or 0 (none)."""
    return 128 if "direct_to_lds_128b" in arch.features else 32 if "direct_to_lds_32b" in arch.features else 0


def rocmlir_width(access: ThreadAccess, arch: Arch | None = None, *, direct_to_lds: bool = False,
                  dynamic_validity: bool = False) -> int:
    """The width rocMLIR's threadwise lowering gives ``access`` (``rocmlir_threadwise_width``);
    ``arch`` is needed for a direct-to-LDS read. ``RocmlirRuleError`` where rocMLIR fails.

    Example: a thread reading 8 consecutive f16 gets 8.
    """
    if not isinstance(access, ThreadAccess):
        raise InvalidArgumentError(f"rocmlir_width: expected a ThreadAccess, got {access!r}")
    bits = None
    if direct_to_lds:
        if arch is None:
            raise InvalidArgumentError("rocmlir_width: a direct-to-LDS read needs the arch")
        bits = direct_to_lds_bits(arch)
    return rocmlir_threadwise_width(access.view, access.dim, access.values, op=threadwise_op(access),
                                    vector_elements=access.vector_elements, direct_to_lds_bits=bits,
                                    dynamic_validity=dynamic_validity)


def scalar_access(access: ThreadAccess) -> ThreadAccess:
    """The access with its buffer seen as scalars: for a buffer of ``vector<N x T>`` elements
    (``vector_elements`` N), scalar ``iter = j * N + lane`` is lane ``lane`` of the vector the view
    gives at ``iter = j * N``, as rocMLIR's loop reads it (a vector per N steps of ``iter``); the
    address is ``N * vector index + lane``. An access of scalars is itself; one whose view spells
    the lanes out already (``vector_addresses`` False) is itself with ``vector_elements`` 1.

    Example: ``[t, iter] -> t * 2 + iter floordiv 4`` over vectors of 4 is ``t * 8 + iter`` over
    scalars.
    """
    n, view, d = access.vector_elements, access.view, access.dim
    if n == 1:
        return access
    if not access.vector_addresses:
        return ThreadAccess(access.operand, access.kind, view, access.iter_dim, access.values, access.dtype)
    return ThreadAccess(access.operand, access.kind, scalar_view(view, d, n, access.name), access.iter_dim,
                        access.values, access.dtype)


def scalar_view(view: View, d: int, n: int, what: str = "scalar_view") -> View:
    """``view`` over a buffer of ``vector<n x T>`` seen over the scalars (``scalar_access``): scalar
    ``u[d] = j * n + lane`` is lane ``lane`` of the vector the view gives at ``u[d] = j * n``."""
    if n == 1:
        return view
    size = view.shape[d]
    names = dim_names(view.maps[0], "upper") if view.maps else tuple(str(i) for i in range(view.rank))
    if size % n:
        raise InvalidArgumentError(f"{what}: {names[d]} has size {size}, not a multiple of "
                                   f"the vector of {n} elements")
    lane = "lane"
    while lane in names:
        lane += "_"
    rank = view.rank
    others = [i for i in range(rank) if i != d]
    split = TransformMap(
        (*(PassThrough((), (names[i],), (i,), (names[i],), (i,)) for i in others),
         Merge((size // n, n), (names[d],), (d,), (names[d], lane), (d, rank))),
        view.shape, (*view.shape[:d], size // n, *view.shape[d + 1:], n))
    spread = TransformMap(
        (*(PassThrough((), (name,), (i,), (name,), (i,)) for i, name in [(i, names[i]) for i in others]
           + [(rank, lane)]),
         Embed((n,), (names[d],), (d,), (names[d],), (d,))),
        split.lower_bounds, (*view.shape, n))
    maps = [TransformMap((*m.ops, PassThrough((), (lane,), (m.upper_rank,), (lane,), (m.lower_rank,))),
                         (*m.upper_bounds, n), (*m.lower_bounds, n)) for m in view.maps]
    b = view.buffer
    strides = None if b.strides is None else (*(s * n for s in b.strides), 1)
    buffer = Buffer((*b.shape, n), b.dtype, strides, b.offset * n)
    return View(buffer, (split, spread, *maps))


def cap_elements(access: ThreadAccess, arch: Arch | None = None, *, direct_to_lds: bool = False) -> int:
    """The most elements one hardware vector access of ``access`` may hold: 128 bits, or the arch's
    direct-to-LDS width for a direct-to-LDS read."""
    bits = MAX_BITS
    if direct_to_lds:
        if arch is None:
            raise InvalidArgumentError("cap_elements: a direct-to-LDS read needs the arch")
        bits = direct_to_lds_bits(arch) or MAX_BITS
    return max(bits // access.view.buffer.bits, 1)


def exact_width(access: ThreadAccess, arch: Arch | None = None, *, direct_to_lds: bool = False,
                aligned: bool = False, timeout: float | None = 60.0) -> VectorLength:
    """The exact width of ``access``: the largest power of two of elements, within the hardware
    cap (``cap_elements``), such that every piece of that many consecutive ``iter`` steps starting
    at a multiple of it is entirely valid with consecutive addresses or entirely invalid
    (docs/semantics.md, Vector length; ``aligned`` also asks start addresses that are multiples of
    it), the buffer seen as scalars (``scalar_access``).

    Example: a thread reading 8 consecutive f32 gets 4 (128 bits).
    """
    if not isinstance(access, ThreadAccess):
        raise InvalidArgumentError(f"exact_width: expected a ThreadAccess, got {access!r}")
    scalars = scalar_access(access)
    return max_vector_length(scalars.view, scalars.dim, run_length(access),
                             max_elements=cap_elements(access, arch, direct_to_lds=direct_to_lds),
                             power_of_two=True, aligned=aligned, timeout=timeout)


@dataclass(frozen=True, slots=True)
class WidthVerdict:
    """The verdict on rocMLIR's width of an access beside the exact answer."""

    verdict: Verdict
    witness: Witness | None
    """Where rocMLIR's width is not legal: a step inside one of its pieces whose addresses are not
    consecutive, or that mixes a valid point with an invalid one (``None`` otherwise)."""
    text: str
    """The witness as text, for the audit's rows (empty when there is none)."""


def judge_width(access: ThreadAccess, rocmlir: int, exact: VectorLength, *, aligned: bool = False,
                timeout: float | None = 60.0) -> WidthVerdict:
    """The verdict on rocMLIR's width ``rocmlir`` of ``access`` beside the exact answer ``exact``
    (``exact_width``): ``equal``, ``rocmlir_conservative`` (legal, narrower), or ``rocmlir_unsound``
    (not legal) with its witness. A legal width above the cap (a vector-typed element wider than
    128 bits) counts as equal: the cap is a preference of the hardware, not a rule of correctness.

    Example: ``Pad{4, 6}`` from ``[24]`` over ``[14]`` f16, 12 values: rocMLIR's 4 is unsound, a
    4-piece mixes the valid 13 with the padding 14.
    """
    if rocmlir < 1:
        raise InvalidArgumentError(f"judge_width: rocMLIR's width must be positive, got {rocmlir}")
    if rocmlir == exact.length:
        return WidthVerdict("equal", None, "")
    power = rocmlir & (rocmlir - 1) == 0
    # Legal lengths are closed under divisors: rocMLIR's width is legal iff the largest legal
    # length up to it is itself; when it is not, the first illegal power of two above that answer
    # divides it, so that witness lies inside one of rocMLIR's pieces.
    scalars = scalar_access(access)
    at = max_vector_length(scalars.view, scalars.dim, run_length(access), max_elements=rocmlir,
                           power_of_two=power, aligned=aligned, timeout=timeout)
    if at.length == rocmlir:
        return WidthVerdict("rocmlir_conservative" if rocmlir < exact.length else "equal", None, "")
    w = at.witness
    if w is None or rocmlir % w.length:
        return WidthVerdict("rocmlir_unsound", None,
                            f"{rocmlir} is illegal: the largest legal length up to it is {at.length}")
    where = str(w).split(f"{w.reason} ", 1)[1]
    return WidthVerdict("rocmlir_unsound", w, f"{rocmlir} is illegal: {w.reason} {where}")


ANSWERS: AnswerCache[tuple[object, ...], tuple[int | None, int, Verdict, str]] = AnswerCache(8192)
"""Per-access answers (rocMLIR's width, exact width, verdict, witness), keyed by the access value
and what the lowering is told: equal views from different configs share them."""


def _answer(access: ThreadAccess, arch: Arch, direct_to_lds: bool, dynamic_validity: bool, aligned: bool,
            timeout: float | None) -> tuple[int | None, int, Verdict, str]:
    key = (access, arch.name if direct_to_lds else None, direct_to_lds, dynamic_validity, aligned)
    cached = ANSWERS.get(key)
    if cached is not None:
        return cached
    exact = exact_width(access, arch, direct_to_lds=direct_to_lds, aligned=aligned, timeout=timeout)
    try:
        theirs: int | None = rocmlir_width(access, arch, direct_to_lds=direct_to_lds,
                                           dynamic_validity=dynamic_validity)
    except RocmlirRuleError as e:  # rocMLIR stops: a width it cannot lower, or an assert
        answer: tuple[int | None, int, Verdict, str] = (None, exact.length, "rocmlir_fails", str(e))
    else:
        judged = judge_width(access, theirs, exact, aligned=aligned, timeout=timeout)
        answer = (theirs, exact.length, judged.verdict, judged.text)
    ANSWERS.put(key, answer)
    return answer


def audit_access(item: AuditItem | ThreadAccess, arch: Arch, *, problem: str = "", config: str = "",
                 aligned: bool = False, timeout: float | None = 60.0) -> AuditRow:
    """The audit of one access: rocMLIR's width, the exact width, the best exact width over the
    item's alternatives (and the access itself), the verdict and its witness.

    Example: ``audit_access(AuditItem(access), gw.arch("gfx942")).verdict`` is ``"equal"`` for a
    thread reading 8 consecutive f16.
    """
    if isinstance(item, ThreadAccess):
        item = AuditItem(item)
    if not isinstance(item, AuditItem):
        raise InvalidArgumentError(f"audit_access: expected an AuditItem or a ThreadAccess, got {item!r}")
    if not isinstance(arch, Arch):
        raise InvalidArgumentError(f"audit_access: expected an Arch (gw.arch(name)), got {arch!r}")
    a = item.access
    start = time.perf_counter()
    try:
        theirs, exact, verdict, witness = _answer(a, arch, item.direct_to_lds, item.dynamic_validity,
                                                  aligned, timeout)
        best = max([exact] + [_answer(alt, arch, item.direct_to_lds, item.dynamic_validity, aligned,
                                      timeout)[1] for alt in item.alternatives])
    except ViewAlgebraError as e:
        return AuditRow(problem, config, arch.name, a.name, a.operand, a.kind, a.dtype, None, None, None,
                        "error", f"{type(e).__name__}: {e}", time.perf_counter() - start)
    return AuditRow(problem, config, arch.name, a.name, a.operand, a.kind, a.dtype, theirs, exact, best,
                    verdict, witness, time.perf_counter() - start)


def run_check(check: AuditCheck, arch: Arch, *, problem: str = "", config: str = "", operand: str = "",
              dtype: str = "") -> AuditRow:
    """The row of one exact check: ``check_holds``, or ``check_fails`` with its witness."""
    start = time.perf_counter()
    try:
        witness = check.check()
    except ViewAlgebraError as e:
        return AuditRow(problem, config, arch.name, check.name, operand, "check", dtype, None, None, None,
                        "error", f"{type(e).__name__}: {e}", time.perf_counter() - start)
    verdict: Verdict = "check_holds" if witness is None else "check_fails"
    return AuditRow(problem, config, arch.name, check.name, operand, "check", dtype, None, None, None,
                    verdict, witness or "", time.perf_counter() - start)


def audit_config(problem: Problem, config: Config, arch: Arch, provider: Provider, *,
                 problem_text: str | None = None, aligned: bool = False,
                 timeout: float | None = 60.0) -> tuple[AuditRow, ...]:
    """The audit of one (problem, config) on ``arch``: a row per access the provider supplies,
    then a row per check. A provider that fails gives one ``error`` row.

    Example: ``audit_config(problem, config, gw.arch("gfx942"), provider)`` with a provider of the
    recipes' accesses.
    """
    if not isinstance(arch, Arch):
        raise InvalidArgumentError(f"audit_config: expected an Arch (gw.arch(name)), got {arch!r}")
    ptext = problem_text if problem_text is not None else str(problem)
    ctext = str(config)
    start = time.perf_counter()
    try:
        items = tuple(provider(problem, config, arch))
        for item in items:
            if not isinstance(item, AuditItem):
                raise InvalidArgumentError(f"the provider gave {item!r}, not an AuditItem")
    except ViewAlgebraError as e:
        return (AuditRow(ptext, ctext, arch.name, "provider", "", "provider", "", None, None, None, "error",
                         f"{type(e).__name__}: {e}", time.perf_counter() - start),)
    rows = [audit_access(item, arch, problem=ptext, config=ctext, aligned=aligned, timeout=timeout)
            for item in items]
    rows += [run_check(check, arch, problem=ptext, config=ctext, operand=item.access.operand,
                       dtype=item.access.dtype) for item in items for check in item.checks]
    return tuple(rows)
