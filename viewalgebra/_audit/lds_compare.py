"""rocMLIR's LDS layout of one operand judged by its bank conflicts: the store and the read of the
same LDS tile scored together, for rocMLIR's choice and for every layout its maps can express
(docs/lds.md, rocMLIR's layouts).

rocMLIR picks the layout by flags (``getLDSLayoutConfigDim`` in
mlir/lib/Dialect/Rock/Transforms/GridwiseGemmToBlockwise.cpp, ported as ``lds_layout``): rotate d
with k when k is contiguous, swap d's thread and iteration parts when it is not, neither when d
could be vectorized; the rotation's stride is ``rotateIf``'s ``kpack == 1 ? dPerThread : 1``. No
arch, bank count or access width enters. The variants here are what the same maps express: no
rotation, a rotation of stride 1..8 (``Embed{stride, 1}`` then ``Broadcast{D}``, applied to the
store and the read alike: the data stays where the read looks for it), the swap, and the swap with
a rotation (which rocMLIR's exclusive flags never make).

Each access is counted exactly (``bank_conflicts`` on ``lds_model(arch)``) from the recipes'
``ThreadAccess`` views with the lanes spelled out (``scalar_access``): thread dim ``tid``, vector
dim ``iter`` (store) or ``k_iter`` (read), the vector the width rule gives (rocMLIR's
``ThreadwiseWriteAllRewritePattern`` / ``ThreadwiseReadIntoRewritePattern``, or the exact
width).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .._analyses.lds import BankConflicts, LdsAccess, bank_conflicts
from .._analyses.lds_model import LdsModel, lds_model
from .._maps.buffer import Buffer
from .._maps.transform_map import TransformMap
from .._maps.transforms import PassThrough
from .._maps.view import View
from .._recipes.accel_params import OperandLds, operand_lds
from .._recipes.access import ThreadAccess
from .._recipes.arch import Arch
from .._recipes.arch import arch as arch_of
from .._recipes.gemm_to_gridwise import GridwiseGemm
from .._recipes.lds_read import lds_read
from .._recipes.lds_views import LdsLayout, lds_store
from .._recipes.perf_config import AccelPerfConfig, Operand
from ..errors import InvalidArgumentError
from .access import exact_width, rocmlir_width, scalar_access

Width = Literal["rocmlir", "exact"]
VerdictKind = Literal["optimal", "suboptimal", "trade-off", "model-uncertain"]


def thread_lds_access(access: ThreadAccess, arch: Arch | None = None, *,
                      width: Width = "rocmlir") -> LdsAccess:
    """The ``LdsAccess`` of a recipe's LDS store or LDS read: the view with the vector lanes spelled
    out (``scalar_access``), thread dim ``tid``, vector dim the access's ``iter_dim``, the vector
    rocMLIR's threadwise lowering gives it (``rocmlir_width``) or the exact width
    (``exact_width``).

    Example: A's store of ``v4:64,64,8,32,32,32,8,...`` in f16 (kpack 8) is one vector of 8 f16 per
    thread along ``iter``: ``vector_length == 8`` (a ``ds_write_b128``).
    """
    if not isinstance(access, ThreadAccess) or access.kind not in ("lds_store", "lds_read"):
        raise InvalidArgumentError(f"thread_lds_access: expected an LDS store or read ThreadAccess, got "
                                   f"{access!r}")
    if width not in ("rocmlir", "exact"):
        raise InvalidArgumentError(f"thread_lds_access: width must be 'rocmlir' or 'exact', got {width!r}")
    if access.kind == "lds_read":
        # rocMLIR reads one vector<kpack> of the tile per k_iter (a vector-typed source is read
        # whole, at any width rule); the kpack elements of a vector are contiguous by construction.
        lanes = spell_lanes(access.view, access.vector_elements, "kpack_vec")
        return LdsAccess(lanes, "tid", "kpack_vec", access.vector_elements, "read")
    scalars = scalar_access(access)
    length = rocmlir_width(access, arch) if width == "rocmlir" else exact_width(access, arch).length
    return LdsAccess(scalars.view, "tid", scalars.iter_dim, length, "write")


def spell_lanes(view: View, lanes: int, name: str) -> View:
    """A view of vectors of ``lanes`` elements as a view of the elements: a last upper dim
    ``name`` passed through every map, the buffer's element ``v`` becoming elements ``v * lanes
    .. v * lanes + lanes - 1``."""
    maps = [TransformMap((*m.ops, PassThrough((), (name,), (m.upper_rank,), (name,), (m.lower_rank,))),
                         (*m.upper_bounds, lanes), (*m.lower_bounds, lanes)) for m in view.maps]
    b = view.buffer
    strides = None if b.strides is None else (*(s * lanes for s in b.strides), 1)
    return View(Buffer((*b.shape, lanes), b.dtype, strides, b.offset * lanes), tuple(maps))


@dataclass(frozen=True, slots=True)
class LayoutVariant:
    """One LDS layout of a tile: a rotation of d with k of stride ``rotate`` (0: none) and the
    swap of d's thread and iteration parts.

    Example: ``LayoutVariant(2, True).label == "swap + rotate(stride 2)"``.
    """

    rotate: int
    swap: bool

    def __post_init__(self) -> None:
        if isinstance(self.rotate, bool) or not isinstance(self.rotate, int) or self.rotate < 0:
            raise InvalidArgumentError(f"LayoutVariant: rotate must be a stride >= 0, got {self.rotate!r}")
        if not isinstance(self.swap, bool):
            raise InvalidArgumentError(f"LayoutVariant: swap must be a bool, got {self.swap!r}")

    @property
    def flags(self) -> LdsLayout:
        """The recipes' flags for this layout (the stride given explicitly)."""
        return LdsLayout(self.rotate > 0, self.swap, rotate_stride=self.rotate or None)

    @property
    def label(self) -> str:
        parts = (["swap"] if self.swap else []) + ([f"rotate(stride {self.rotate})"] if self.rotate else [])
        return " + ".join(parts) or "plain"


@dataclass(frozen=True, slots=True)
class LayoutScore:
    """The bank conflicts of the store and the read of one layout of the tile."""

    variant: LayoutVariant
    rocmlir: bool
    """Whether this is the layout rocMLIR picks."""
    write: BankConflicts
    read: BankConflicts

    @property
    def cycles(self) -> int:
        """The predicted ``SQ_LDS_BANK_CONFLICT`` cycles of one store and one read of the tile."""
        return self.write.counter + self.read.counter

    @property
    def degrees(self) -> tuple[int, int]:
        """The worst degree of the store and of the read."""
        return self.write.max_degree, self.read.max_degree

    @property
    def instructions(self) -> tuple[str, str]:
        return self.write.instruction, self.read.instruction

    @property
    def assumed(self) -> bool:
        """Whether either count used a rule nobody measured or documented."""
        return bool(self.write.assumed or self.read.assumed)

    def row(self) -> str:
        """``layout: ds_write_b128 8-way (N cycles), ds_read_b128 1-way (M cycles)``."""
        mark = " [rocMLIR]" if self.rocmlir else ""
        return (f"{self.variant.label}{mark}: {self.write.instruction} {self.write.max_degree}-way "
                f"({self.write.counter} cycles), {self.read.instruction} {self.read.max_degree}-way "
                f"({self.read.counter} cycles)")


@dataclass(frozen=True, slots=True)
class LayoutComparison:
    """rocMLIR's LDS layout of one operand against every variant, with a verdict.

    ``kind`` is ``optimal`` (no variant has fewer cycles, and rocMLIR's choice does not trade one
    side for the other against the plain layout), ``trade-off`` (fewest cycles, but bought by
    breaking the read to fix the write or the reverse), ``suboptimal`` (a variant has fewer cycles,
    by rules that are measured or documented) or ``model-uncertain`` (fewer cycles only where an
    ``assumed`` rule counts).
    """

    operand: Operand
    arch: str
    dtype: str
    config: str
    rows: tuple[LayoutScore, ...]
    """rocMLIR's layout first, then the variants."""
    kind: VerdictKind
    verdict: str

    @property
    def rocmlir(self) -> LayoutScore:
        return next(r for r in self.rows if r.rocmlir)

    @property
    def best(self) -> LayoutScore:
        """The layout with the fewest cycles (rocMLIR's on a tie, then the simplest)."""
        return min(self.rows, key=_rank)

    def table(self) -> str:
        """The rows and the verdict, one per line."""
        return "\n".join([*(r.row() for r in self.rows), f"verdict: {self.verdict}"])


def _rank(score: LayoutScore) -> tuple[int, int, int, int]:
    v = score.variant
    return score.cycles, 0 if score.rocmlir else 1, int(v.swap) + 2 * int(v.rotate > 0), v.rotate


def rocmlir_variant(lds: OperandLds, kpack: int) -> LayoutVariant:
    """The variant rocMLIR's flags make (its rotation's stride from ``rotateIf``'s rule)."""
    flags = lds.flags
    return LayoutVariant(flags.stride(lds.d_per_thread, kpack) if flags.rotate_d_with_k else 0,
                         flags.swap_thread_iter)


def layout_variants(d_per_block: int, strides: Iterable[int] = range(1, 9), *,
                    swap: bool = True) -> tuple[LayoutVariant, ...]:
    """Every layout rocMLIR's maps express for a tile of ``d_per_block`` rows: plain, swap, and each
    rotation of stride below ``d_per_block`` with and without the swap (``swap=False``: without;
    a thread that copies one d has nothing to swap).

    Example: ``layout_variants(16, [1, 2])`` is plain, swap, rotate(stride 1), swap + rotate(stride
    1), rotate(stride 2), swap + rotate(stride 2).
    """
    out: list[LayoutVariant] = []
    for s in (0, *strides):
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise InvalidArgumentError(f"layout_variants: strides must be positive ints, got {s!r}")
        if s >= d_per_block and s:
            continue  # a stride of D or more is a smaller one again (mod D) or leaves the Embed's bound
        out.extend(LayoutVariant(s, w) for w in ((False, True) if swap else (False,)))
    return tuple(dict.fromkeys(out))


def score_layout(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch, dtype: str,
                 variant: LayoutVariant, model: LdsModel, *, rocmlir: bool = False,
                 width: Width = "rocmlir", own: OperandLds | None = None) -> LayoutScore:
    """The store and the read of ``operand``'s tile laid out as ``variant``, both counted
    (``own``: rocMLIR's ``operand_lds``, computed when not given)."""
    if own is None:
        own = operand_lds(grid, operand, config, arch, dtype)
    flags = variant.flags
    store = lds_store(grid, operand, config, arch, dtype, lds=flags)
    read = lds_read(grid, operand, config, arch, dtype,
                    layout=OperandLds(own.vector_dim, own.d_per_thread, own.k_per_thread, flags, own.dxk))
    return LayoutScore(variant, rocmlir, bank_conflicts(thread_lds_access(store, arch, width=width), model),
                       bank_conflicts(thread_lds_access(read, arch, width=width), model))


def compare_lds_layouts(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch | str,
                        dtype: str, *, strides: Iterable[int] = range(1, 9),
                        width: Width = "rocmlir") -> LayoutComparison:
    """rocMLIR's LDS layout of A (``"a"``) or B of ``grid`` judged by bank conflicts: the store and
    the read of the tile counted together (``bank_conflicts`` on ``lds_model(arch)``) for
    rocMLIR's choice and for every variant (``variants``), with a verdict.

    Example: in rocMLIR's ``-rock-linalg-align`` test ``@mlir_dot_sigmoid`` (16x16 MFMA, kpack 8,
    f16) A is rotated: on gfx942 its ``ds_write_b128`` goes from 8-way to conflict-free and its
    ``ds_read_b128`` from conflict-free to 2-way (``trade-off`` or better, whichever is fewer
    cycles).
    """
    if not isinstance(config, AccelPerfConfig):
        raise InvalidArgumentError(f"compare_lds_layouts: expected an accelerated perf config, got "
                                   f"{config!r}")
    target = arch_of(arch) if isinstance(arch, str) else arch
    if not isinstance(target, Arch):
        raise InvalidArgumentError(f"compare_lds_layouts: arch must be an Arch or its name, got {arch!r}")
    model = lds_model(target.name)
    own = operand_lds(grid, operand, config, target, dtype)
    mine = rocmlir_variant(own, config.kpack)
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    rows = [score_layout(grid, operand, config, target, dtype, mine, model, rocmlir=True, width=width,
                         own=own)]
    rows.extend(score_layout(grid, operand, config, target, dtype, v, model, width=width, own=own)
                for v in layout_variants(d_per_block, strides, swap=own.d_per_thread > 1) if v != mine)
    kind, verdict = judge(rows)
    return LayoutComparison(operand, target.name, dtype, str(config), tuple(rows), kind, verdict)


def judge(rows: list[LayoutScore]) -> tuple[VerdictKind, str]:
    """The verdict on rocMLIR's row among ``rows`` (see ``LayoutComparison``)."""
    theirs = next(r for r in rows if r.rocmlir)
    best = min(rows, key=_rank)
    if best.cycles < theirs.cycles:
        extra = theirs.cycles - best.cycles
        sides = [s for s, a, b in (("write", theirs.write, best.write), ("read", theirs.read, best.read))
                 if a.counter != b.counter]
        unsure = sorted({f"{rule.kind} b{8 * rule.width}" for s in sides
                         for c in ((theirs.write, best.write) if s == "write" else (theirs.read, best.read))
                         for rule in c.assumed})
        trade = _trade(rows, theirs)
        also = f"; against the plain layout a {trade}" if trade else ""
        if unsure:
            return "model-uncertain", (f"model-uncertain (rocMLIR {extra} extra cycles if the assumed "
                                       f"{', '.join(unsure)} rule holds; best: {best.variant.label}){also}")
        return "suboptimal", f"rocMLIR suboptimal ({extra} extra cycles; best: {best.variant.label}){also}"
    trade = _trade(rows, theirs)
    if trade:
        return "trade-off", trade
    return "optimal", "optimal"


def _trade(rows: list[LayoutScore], theirs: LayoutScore) -> str:
    """``trade-off (fixes writes, breaks reads)`` (or the reverse) when rocMLIR's layout, against
    the plain one, removes conflicts on one side and adds some on the other; else empty."""
    plain = next((r for r in rows if r.variant == LayoutVariant(0, False)), None)
    if plain is None or plain is theirs:
        return ""
    dw, dr = theirs.write.counter - plain.write.counter, theirs.read.counter - plain.read.counter
    if dw < 0 < dr:
        return "trade-off (fixes writes, breaks reads)"
    if dr < 0 < dw:
        return "trade-off (fixes reads, breaks writes)"
    return ""
