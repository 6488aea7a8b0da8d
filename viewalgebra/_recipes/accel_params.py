"""What rocMLIR's accelerator emitters derive from a perf config before they build a per-thread
view (docs/gridwise.md, C store and LDS reads), and the LDS layout flags the gridwise lowering
picks for A and B.

Ported from ROCm/rocMLIR (docs/gridwise.md, C store and LDS reads, names the versions read):

* mlir/lib/Dialect/Rock/utility/AccelEmitter.cpp at 022b680a9244: ``MfmaEmitter::
  initAccelEmitterParams`` and ``WmmaEmitter::initAccelEmitterParams`` (repeats, ``mPerAccel``,
  ``kBase``, ``kpackPerThread``);
* mlir/lib/Dialect/Rock/IR/MfmaInsnGroup.cpp: ``deriveAttr`` (``rowGroupSize`` 4,
  ``rowGroupsPerBlock``, ``inputSpanLen``, ...) and ``MfmaInsnGroup::getMRepeats``;
* mlir/lib/Dialect/Rock/Transforms/GridwiseGemmToBlockwise.cpp (the version with LDS transpose
  decisions; the index shows no commit for it): ``getLDSLayoutConfigDim`` (rotate
  d with k, swap thread and iteration sub-dims, the LDS tile k x d) and the ``getVectorDim`` it
  is given (``thread_copy.vector_dim`` with rocMLIR's own vector lengths of the global view).

Not modelled: direct-to-LDS (schedule versions 3 and 4: no rotation, no swap, a d x k tile when
k is contiguous), the 4x4 MFMAs, scaled gemms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import InvalidArgumentError, RocmlirRuleError
from .arch import Arch, MfmaInstruction, WmmaInstruction
from .gemm_to_gridwise import GridwiseGemm
from .lds_views import LdsLayout, lds_layout
from .perf_config import AccelPerfConfig, Operand
from .thread_copy import GemmDim
from .thread_views import thread_layout

ROW_GROUP_SIZE = 4
"""``rowGroupSize``: an MFMA lane's accumulator holds rows in groups of 4 consecutive rows."""


@dataclass(frozen=True, slots=True)
class AccelParams:
    """rocMLIR's ``AccelEmitterParams`` (and the instruction attributes the views read) for one
    perf config on one arch.

    Example: ``v4:64,64,8,32,32,32,4,1,1,0,0,0,1,1`` in f16 on gfx942: 32x32x8f16, one repeat
    along m and n, 16 accumulator values per lane.
    """

    accel: Literal["mfma", "wmma"]
    instruction: MfmaInstruction | WmmaInstruction
    wave_size: int
    m_repeats: int
    n_repeats: int
    m_per_accel: int
    """``mPerAccel = mPerWave / mRepeats``."""
    n_per_accel: int
    k_base: int
    """Values of k one lane passes per instruction (``kBase``)."""
    kpack_per_thread: int
    """``kpackPerThread``: the k iterations (of ``kpack`` each) one lane reads from LDS."""
    acc_len: int
    """Elements of the accumulator vector one instruction returns per lane (``accVectorType``)."""
    gfx11: bool = False
    """WMMA on gfx11 (the whole wave cooperates in k; gfx12 splits k between half waves)."""

    @property
    def num_values(self) -> int:
        """Accumulator values per thread: ``acc_len * m_repeats * n_repeats`` (rocMLIR's
        ``numElements``, one result vector per instruction for every instruction modelled)."""
        return self.acc_len * self.m_repeats * self.n_repeats


def accel_params(config: AccelPerfConfig, arch: Arch, dtype: str) -> AccelParams:
    """The emitter parameters of ``config`` on ``arch`` for inputs of ``dtype``; an
    ``InvalidArgumentError`` where the arch has no matrix instruction for ``dtype`` and a
    ``RocmlirRuleError`` where rocMLIR's emitter would fail (no instruction for the wave tile).

    Example: ``accel_params(PerfConfig.parse("v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1"), arch("gfx950"),
    "f16").acc_len == 4`` (a 16x16 MFMA).
    """
    if not isinstance(config, AccelPerfConfig):
        raise InvalidArgumentError(f"expected an accelerated perf config, got {config!r}")
    accel = arch.accel(dtype)
    m_waves, n_waves = config.waves
    for per_block, per_wave, what in ((config.m_per_block, config.m_per_wave, "m"),
                                      (config.n_per_block, config.n_per_wave, "n")):
        if per_block % per_wave:
            raise RocmlirRuleError(f"{config}: {what}_per_wave {per_wave} does not divide {what}_per_block "
                                   f"{per_block}")
    if m_waves < 1 or n_waves < 1:
        raise RocmlirRuleError(f"{config}: no whole wave along m or n")
    if accel == "mfma":
        insn = arch.mfma(dtype, config.mn_per_xdl)
        if insn is None or insn.blocks != 1:
            raise RocmlirRuleError(f"{config}: no MFMA for {dtype} with mn_per_xdl {config.mn_per_xdl} on "
                                   f"{arch.name}")
        if not insn.coherent_with_k(config.kpack, config.kpack_per_block):
            raise RocmlirRuleError(f"{config}: {insn.name} needs more k (k_base {insn.k_base}) than kpack "
                                   f"{config.kpack}, kpack_per_block {config.kpack_per_block} give")
        mn = insn.mn_per_xdl
        m_rep, n_rep = max(1, config.m_per_wave // mn), max(1, config.n_per_wave // mn)
        kpt = config.kpack_per_block // insn.input_spans if insn.is_k_reduction else config.kpack_per_block
        if kpt < 1:
            raise RocmlirRuleError(f"{config}: kpack_per_block {config.kpack_per_block} is below the "
                                   f"{insn.input_spans} input spans of {insn.name}")
        return AccelParams("mfma", insn, arch.wave_size, m_rep, n_rep, config.m_per_wave // m_rep,
                           config.n_per_wave // n_rep, insn.k_base, kpt, insn.outputs)
    if accel == "wmma":
        winsn = arch.wmma(dtype, config.m_per_wave, config.n_per_wave)
        if winsn is None:
            raise RocmlirRuleError(f"{config}: no WMMA for {dtype} with the wave tile {config.m_per_wave}x"
                                   f"{config.n_per_wave} on {arch.name}")
        if not winsn.coherent_with_k(config.kpack, config.kpack_per_block):
            raise RocmlirRuleError(f"{config}: {winsn.name} needs k_per_block a multiple of "
                                   f"{winsn.input_len}")
        gfx11 = arch.family == "gfx11"
        kpt = config.kpack_per_block if gfx11 else config.kpack_per_block // (arch.wave_size // winsn.m)
        if kpt < 1:
            raise RocmlirRuleError(f"{config}: kpack_per_block {config.kpack_per_block} is below the two "
                                   "half waves gfx12's WMMA splits k between")
        return AccelParams("wmma", winsn, arch.wave_size, config.m_per_wave // winsn.m,
                           config.n_per_wave // winsn.n, winsn.m, winsn.n, winsn.input_len, kpt,
                           winsn.output_len, gfx11)
    raise InvalidArgumentError(f"{arch.name} has no matrix instruction for {dtype} inputs: rocMLIR "
                               "uses the non-accelerated gemm there (not modelled here)")


def row_groups_per_block(insn: MfmaInstruction) -> int:
    """``rowGroupsPerBlock``: groups of 4 rows of one block a lane's accumulator holds."""
    return -(-insn.non_k_dim // (ROW_GROUP_SIZE * insn.rows_per_output * insn.blocks_per_output))


@dataclass(frozen=True, slots=True)
class OperandLds:
    """How one operand's tile sits in LDS as rocMLIR lays it out: the thread layout of its
    global load (``thread_layout``) and the flags ``lds_layout`` gives it; the LDS store writes
    it, the LDS read reads it and the C store undoes its swap.

    Example: A of a ``[G, M, K]``-stored (k contiguous) f16 gemm with kpack 8: ``vector_dim`` k,
    ``flags.rotate_d_with_k`` True, ``flags.swap_thread_iter`` False.
    """

    vector_dim: GemmDim
    """The dim the global load runs along (``k`` or ``d``)."""
    d_per_thread: int
    """``inDPerThread``: elements of d one thread copies per k iteration."""
    k_per_thread: int
    flags: LdsLayout
    """``getLDSLayoutConfigDim``'s rotation and swap."""
    dxk: bool = False
    """``ldsLayoutDxK``: the tile is d x k (only direct-to-LDS, not modelled); else k x d."""

    @property
    def rotate_d_with_k(self) -> bool:
        return self.flags.rotate_d_with_k

    @property
    def swap_thread_iter(self) -> bool:
        return self.flags.swap_thread_iter


def operand_lds(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch,
                dtype: str) -> OperandLds:
    """rocMLIR's LDS layout of A (``"a"``) or B (``"b"``) of ``grid``: the global load runs
    along k or d as ``getVectorDim`` chooses (``thread_layout``, from rocMLIR's own vector
    lengths of the operand's view), and ``getLDSLayoutConfigDim`` (``lds_layout``) rotates or
    swaps d from that choice.

    Example: B ``[G, K, N]`` stored n-contiguous in f16, kpack 8, 2 elements of n per thread:
    ``vector_dim`` d, ``swap_thread_iter`` True (rocMLIR's
    mlir/test/Dialect/Rock/align-tiling-non-contiguous-strides.mlir).
    """
    if operand not in ("a", "b"):
        raise InvalidArgumentError(f"operand must be 'a' or 'b', got {operand!r}")
    layout, k_contiguous = thread_layout(grid, operand, config, arch, dtype)
    flags = lds_layout(config, dtype, layout, k_contiguous)
    return OperandLds("k" if k_contiguous else "d", layout.copy_d, layout.copy_k, flags)


def check_divides(part: int, whole: int, what: str) -> int:
    """``whole // part``, a ``RocmlirRuleError`` when ``part`` does not divide ``whole``."""
    if part < 1 or whole % part:
        raise RocmlirRuleError(f"{what}: {part} does not divide {whole}")
    return whole // part
