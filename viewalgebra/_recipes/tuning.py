"""The perf configs rocMLIR tunes over for a problem on an arch (docs/gridwise.md).

A port of ``createTunableParamSpace`` (mlir/lib/Dialect/Rock/Tuning/RockTuningImpl.cpp) for one
gemm or forward conv, with the rules it filters by (``paramsProbablyValid`` and
``couldBePerformant``, mlir/lib/Dialect/Rock/Tuning/GridwiseGemmParams.cpp, and the block
structures of mlir/lib/Dialect/Rock/Tuning/GeneralGemmBlockStructure.cpp):

* ``quick``: the quick-tuning list of the arch, kernel kind and element type (``quick_configs``,
  ``QuickTuningDb::lookup``), ordered by how much padding each config needs (stable), keeping
  the configs both rules accept;
* ``full``: the brute-force range (``createGemmTuningRangeBF``) with ``couldBePerformant`` applied,
  then the quick configs not already in it;
* ``exhaustive``: the same without ``couldBePerformant``, with wave tiles above 128 and the
  double-buffered (and, where the arch has them, direct-to-LDS) schedules.

Not ported (docs/gridwise.md lists them): the greedy kind (random samples, then refinement around a
winner); ``hasFusedReduction`` (a ``rock.reduce`` in the kernel changes ``couldBePerformant``); the
per-problem slices of the quick lists (no list of the pinned commit has one); the direct-to-LDS
conditions checked after tuning (``computeCopyPerThreadDirectToLDS``) and the LDS capacity check
of the lowering; the extra arguments (kpack, kpackPerBlock, schedule version) that
``MfmaInsnGroup::select`` takes at the pinned commit (see ``arch.py``). A list of configs printed by
``rocmlir-gen --emit-tuning-space`` is the authority where these matter: ``parse_config_list``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Literal

from ..errors import InvalidArgumentError
from .arch import Arch
from .perf_config import (
    AccelPerfConfig,
    GemmSize,
    GeneralPerfConfig,
    gemm_size,
    padded_size,
    parse_perf_config,
)
from .problems import ConvProblem, GemmProblem
from .quick_tuning_db import QUICK_TUNING_DB

TuningKind = Literal["quick", "full", "exhaustive"]
KernelKind = Literal["gemm", "conv"]

_MAX_WORKGROUP = 1024
"""``maxHardwareWorkgroupSize`` (mlir/include/mlir/Dialect/Rock/IR/Rock.h)."""
_QUICK_LIMIT = 30
"""``getMaxListLength``'s default (``ROCMLIR_QUICK_TUNING_LIST_MAX`` unset)."""
_BLOCK_STRUCTURE = {64: (4, 4, 2, 2), 128: (4, 4, 4, 2), 256: (4, 4, 4, 4)}
"""``deriveGeneralGemmBlockStructure``: block size -> m and n threads per CU wave, m and n CU waves
per block."""


Config = AccelPerfConfig | GeneralPerfConfig


def quick_configs(arch: Arch, kind: KernelKind, dtype: str) -> tuple[Config, ...]:
    """The quick-tuning list rocMLIR looks up (``QuickTuningDb::lookup``, at most 30 configs), read
    as the arch's accelerator reads them; the non-accelerated path always uses the f32 list, and
    bf16 falls back to f16's.

    Example: ``len(quick_configs(arch("gfx942"), "gemm", "f16")) == 21``.
    """
    if kind not in ("gemm", "conv"):
        raise InvalidArgumentError(f"kind must be 'gemm' or 'conv', got {kind!r}")
    accel = arch.accel(dtype)
    key = f"{arch.name}_{kind}_{dtype if accel else 'f32'}"
    if key not in QUICK_TUNING_DB and dtype == "bf16":
        key = f"{arch.name}_{kind}_f16"
    texts = QUICK_TUNING_DB[key][:_QUICK_LIMIT]
    return tuple(parse_perf_config(text, accel == "wmma", text, 0) for text in texts)


def rejection(config: AccelPerfConfig | GeneralPerfConfig, arch: Arch, dtype: str) -> str | None:
    """The first of rocMLIR's ``paramsProbablyValid`` rules ``config`` breaks for inputs of
    ``dtype`` on ``arch`` (``None``: it passes them all).

    Example: ``rejection(PerfConfig.parse("v4:64,64,8,32,32,32,8,1,1,2,0,0,0,1"), arch("gfx942"),
    "f16") == "force_unroll is 0"``.
    """
    accel = arch.accel(dtype)
    if isinstance(config, GeneralPerfConfig):
        if accel is not None:
            return f"a non-accelerated config, but {arch.name} uses {accel.upper()} for {dtype}"
        return _general_rejection(config.block_size, config.m_per_block, config.n_per_block,
                                  config.m_per_thread, config.n_per_thread)
    if not isinstance(config, AccelPerfConfig):
        raise InvalidArgumentError(f"expected a perf config, got {config!r}")
    if accel is None:
        return f"an accelerated config, but {arch.name} has no matrix instructions for {dtype}"
    c = config
    rule = _xdl_rejection if accel == "mfma" else _wmma_rejection
    return rule(arch, dtype, c.m_per_block, c.n_per_block, c.kpack_per_block, c.m_per_wave, c.n_per_wave,
                c.mn_per_xdl, c.kpack, c.force_unroll)


def could_be_performant(config: AccelPerfConfig | GeneralPerfConfig, arch: Arch, dtype: str) -> bool:
    """rocMLIR's ``couldBePerformant`` (without a fused reduction): on MFMA, four waves with
    ``mn_per_xdl <= n_per_wave``, or one or two waves with ``mn_per_xdl == n_per_wave``; always true
    on WMMA and without matrix instructions.

    Example: ``v4:64,64,8,32,32,16,8,1,1,2,0,0,1,1`` (four waves) could be performant on gfx942.
    """
    if isinstance(config, AccelPerfConfig) and arch.accel(dtype) == "mfma":
        return _xdl_performant(config.m_per_block, config.n_per_block, config.m_per_wave, config.n_per_wave,
                               config.mn_per_xdl)
    return True


def _xdl_performant(m_per_block: int, n_per_block: int, m_per_wave: int, n_per_wave: int,
                    mn_per_xdl: int) -> bool:
    waves = (m_per_block // m_per_wave) * (n_per_block // n_per_wave)
    return waves == 4 and mn_per_xdl <= n_per_wave or waves in (1, 2) and mn_per_xdl == n_per_wave


def _xdl_rejection(arch: Arch, dtype: str, m_per_block: int, n_per_block: int, kpack_per_block: int,
                   m_per_wave: int, n_per_wave: int, mn_per_xdl: int, kpack: int,
                   force_unroll: bool) -> str | None:
    """``PopulateParamsXDL::isValidBlockwiseGemm``, rule by rule."""
    block = arch.wave_size * (m_per_block // m_per_wave) * (n_per_block // n_per_wave)
    if block > _MAX_WORKGROUP:
        return f"block size {block} exceeds {_MAX_WORKGROUP}"
    if mn_per_xdl > m_per_wave or mn_per_xdl > n_per_wave:
        return f"mn_per_xdl {mn_per_xdl} exceeds the wave tile {m_per_wave}x{n_per_wave}"
    shared = _shared_rejection(arch, block, m_per_block, n_per_block, kpack_per_block * kpack,
                               "kpack_per_block * kpack", m_per_wave, n_per_wave, mn_per_xdl)
    if shared:
        return shared
    k_per_block = kpack_per_block * kpack
    if k_per_block * m_per_block // block == 0 or k_per_block * n_per_block // block == 0:
        return f"block size {block} exceeds a tile's k_per_block * d_per_block (isValidBlockSize)"
    if not force_unroll:
        return "force_unroll is 0"
    insn = arch.mfma(dtype, mn_per_xdl)
    if insn is None:
        return f"no MFMA for {dtype} with mn_per_xdl {mn_per_xdl}"
    if not insn.coherent_with_k(kpack, kpack_per_block):
        return f"{insn.name} needs more k (k_base {insn.k_base}) than kpack {kpack}, kpack_per_block " \
               f"{kpack_per_block} give"
    return None


def _wmma_rejection(arch: Arch, dtype: str, m_per_block: int, n_per_block: int, kpack_per_block: int,
                    m_per_wave: int, n_per_wave: int, mn_per_xdl: int, kpack: int,
                    force_unroll: bool) -> str | None:
    """``PopulateParamsWmma::isValidBlockwiseGemm``, rule by rule (no ``isValidBlockSize`` there)."""
    block = arch.wave_size * (m_per_block // m_per_wave) * (n_per_block // n_per_wave)
    if block > _MAX_WORKGROUP:
        return f"block size {block} exceeds {_MAX_WORKGROUP}"
    if mn_per_xdl != 16:
        return f"mn_per_xdl {mn_per_xdl}, WMMA needs 16"
    if mn_per_xdl > m_per_wave or mn_per_xdl > n_per_wave:
        return f"mn_per_xdl {mn_per_xdl} exceeds the wave tile {m_per_wave}x{n_per_wave}"
    shared = _shared_rejection(arch, block, m_per_block, n_per_block, kpack_per_block, "kpack_per_block",
                               m_per_wave, n_per_wave, mn_per_xdl)
    if shared:
        return shared
    if not force_unroll:
        return "force_unroll is 0"
    insn = arch.wmma(dtype, m_per_wave, n_per_wave)
    if insn is None:
        return f"no WMMA for {dtype} with the wave tile {m_per_wave}x{n_per_wave}"
    if not insn.coherent_with_k(kpack, kpack_per_block):
        return f"kpack_per_block * kpack = {kpack_per_block * kpack} is not a multiple of {insn.name}'s " \
               f"{insn.input_len} inputs per lane"
    return None


def _shared_rejection(arch: Arch, block: int, m_per_block: int, n_per_block: int, k_amount: int, k_name: str,
                      m_per_wave: int, n_per_wave: int, mn_per_xdl: int) -> str | None:
    """The rules MFMA and WMMA share: repeats and k distribution, at least one wave, whole waves,
    whole instructions per wave."""
    min_d = min(m_per_wave, n_per_wave)
    factor = 4 if min_d <= 16 else 2
    if m_per_block % min_d or n_per_block % min_d:
        return f"the tile {m_per_block}x{n_per_block} is not a multiple of the smaller wave side {min_d}"
    if k_amount % factor:
        return f"{k_name} = {k_amount} is not a multiple of {factor}"
    if block < arch.wave_size:
        return f"block size {block} is less than a wave"
    if m_per_block % m_per_wave or n_per_block % n_per_wave:
        return f"the tile {m_per_block}x{n_per_block} is not whole waves of {m_per_wave}x{n_per_wave}"
    if m_per_wave % mn_per_xdl or n_per_wave % mn_per_xdl:
        return f"the wave tile {m_per_wave}x{n_per_wave} is not whole instructions of {mn_per_xdl}"
    return None


def _general_rejection(block_size: int, m_per_block: int, n_per_block: int, m_per_thread: int,
                       n_per_thread: int) -> str | None:
    """``calculateBlockGemmPerformanceParameters``."""
    structure = _BLOCK_STRUCTURE.get(block_size)
    if structure is None:
        return f"block size {block_size}, expected 64, 128 or 256"
    if not 2 <= m_per_thread <= 4 or not 2 <= n_per_thread <= 4:
        return f"m_per_thread {m_per_thread} and n_per_thread {n_per_thread} must be 2 to 4"
    if m_per_block % m_per_thread or n_per_block % n_per_thread:
        return f"the tile {m_per_block}x{n_per_block} is not whole threads of {m_per_thread}x{n_per_thread}"
    m_threads, n_threads, m_waves, n_waves = structure
    m_cluster, n_cluster = m_per_thread * m_threads * m_waves, n_per_thread * n_threads * n_waves
    if m_per_block % m_cluster or n_per_block % n_cluster:
        return f"the tile {m_per_block}x{n_per_block} is not a multiple of the {m_cluster}x{n_cluster} " \
               f"the block's threads cover"
    return None


def _d_per_wave(kind: TuningKind, d_per_block: int, wave_size: int) -> list[int]:
    """``computeDPerWave``: ``d_per_block / 2^i`` of at least 16, up to 128 and 16 waves for full."""
    full = kind == "full"
    max_factor = 16 if full else _MAX_WORKGROUP // wave_size
    found: list[int] = []
    factor = 1
    while factor <= max_factor:
        per_wave = d_per_block // factor
        if d_per_block % factor == 0 and per_wave >= 16 and (not full or per_wave <= 128):
            found.append(per_wave)
        factor *= 2
    return found


def _imbalance(size: GemmSize, m_per_block: int, n_per_block: int, k_per_block: int, num_cu: int,
               split_k: int = 1) -> float:
    """``computeWorkImbalance``: the busiest CU's workgroups over the average."""
    padded = padded_size(size, k_per_block, m_per_block, n_per_block)
    groups = float(padded.g * -(-padded.m // m_per_block) * -(-padded.n // n_per_block) * split_k)
    return math.ceil(groups / num_cu) * num_cu / groups


def _split_k_factors(size: GemmSize, m_per_block: int, n_per_block: int, k_per_block: int,
                     num_cu: int | None) -> list[int]:
    """``computeOptimalSplitKFactors``: 1, then 3 and 4 where they cut an imbalance of 1.2 or more
    by more than 1.3 times, least balanced first."""
    if num_cu is None:
        return [1]
    base = _imbalance(size, m_per_block, n_per_block, k_per_block, num_cu)
    if base < 1.20:
        return [1]
    gains = [(f, _imbalance(size, m_per_block, n_per_block, k_per_block, num_cu, f)) for f in (3, 4)]
    kept = sorted(((f, i) for f, i in gains if base / i > 1.30), key=lambda fi: fi[1], reverse=True)
    return [1, *(f for f, _ in kept)]


def _schedules(arch: Arch, kind: TuningKind) -> tuple[int, ...]:
    """``getSchedules``: Default; also DoubleBuffer (and the direct-to-LDS pair) beyond full."""
    if kind == "full":
        return (1,)
    return (1, 2, 3, 4) if arch.direct_to_lds else (1, 2)


def _accel_range(arch: Arch, dtype: str, kind: TuningKind) -> tuple[tuple[int, ...], tuple[int, ...],
                                                                      tuple[int, ...]]:
    """``getAccelRangeGemm``: kpack_per_block, mn_per_xdl and kpack values."""
    if arch.accel(dtype) == "wmma":
        return (1, 2, 4, 8), (16,), (4, 8, 16)
    if dtype == "i8":
        return (4, 8, 16, 32), (16, 32), (1, 4, 8, 16)
    return (1, 2, 4, 8), (16, 32), (1, 4, 8, 16, 32)


def _brute_force(size: GemmSize, arch: Arch, dtype: str, kind: TuningKind,
                 num_cu: int | None) -> Iterator[AccelPerfConfig | GeneralPerfConfig]:
    """``createGemmTuningRangeBF``, in its loop order."""
    accel = arch.accel(dtype)
    blocks = (16, 32, 64, 128, 256)  # computeDPerBlock (not greedy)
    if accel is None:
        for block_size in (64, 128, 256):
            for m in (32, 64, 128):
                for n in (32, 64, 128):
                    for k in (4, 8, 16):
                        for m_thread in (2, 4):
                            for split_k in _split_k_factors(size, m, n, k, num_cu):
                                for n_thread in (2, 4):
                                    if _general_rejection(block_size, m, n, m_thread, n_thread) is None:
                                        yield GeneralPerfConfig(block_size, m, n, k, m_thread, n_thread,
                                                                split_k)
        return
    kpack_per_blocks, mn_per_xdls, kpacks = _accel_range(arch, dtype, kind)
    rule = _xdl_rejection if accel == "mfma" else _wmma_rejection
    schedules = _schedules(arch, kind)
    for m in blocks:
        m_waves = _d_per_wave(kind, m, arch.wave_size)
        for n in blocks:
            n_waves = _d_per_wave(kind, n, arch.wave_size)
            for kpb in kpack_per_blocks:
                for m_wave in m_waves:
                    for n_wave in n_waves:
                        if m < m_wave or n < n_wave:
                            continue
                        for mn_per_xdl in mn_per_xdls:
                            if kind == "full" and accel == "mfma" and not _xdl_performant(
                                    m, n, m_wave, n_wave, mn_per_xdl):
                                continue
                            for kpack in kpacks:
                                # force_unroll 0 never passes the rules: only 1 is tried.
                                if rule(arch, dtype, m, n, kpb, m_wave, n_wave, mn_per_xdl, kpack, True):
                                    continue
                                for split_k in _split_k_factors(size, m, n, kpb * kpack, num_cu):
                                    for schedule in schedules:
                                        yield AccelPerfConfig(m, n, kpb, m_wave, n_wave, mn_per_xdl, kpack,
                                                              split_k, schedule, wmma=accel == "wmma")


def _padding_amount(config: AccelPerfConfig | GeneralPerfConfig, size: GemmSize) -> int:
    """``calculatePaddingAmount``: how many more multiply-adds the padded gemm does."""
    padded = padded_size(size, config.k_per_block, config.m_per_block, config.n_per_block)
    return padded.m * padded.k * padded.n - size.m * size.k * size.n


def tuning_space(problem: GemmProblem | ConvProblem, arch: Arch, kind: TuningKind = "full", *,
                 split_k: bool = False, num_cu: int | None = None) -> tuple[Config, ...]:
    """The configs rocMLIR tunes ``problem`` over on ``arch``, in its order (``createTunableParamSpace``).

    ``split_k`` is the kernel's ``rock.enable_splitk_for_tuning`` attribute: then the split-k factors
    3 and 4 join where they balance the CUs (``num_cu`` of them, default the arch's fewest).

    Example: ``len(tuning_space(GemmProblem(m=256, n=256, k=256, dtype="f16"), arch("gfx942")))``
    counts the full space of an f16 gemm on gfx942.
    """
    if kind not in ("quick", "full", "exhaustive"):
        raise InvalidArgumentError(f"kind must be 'quick', 'full' or 'exhaustive', got {kind!r}")
    if not isinstance(arch, Arch):
        raise InvalidArgumentError(f"arch must be an Arch (va.gridwise.arch('gfx942')), got {arch!r}")
    if not isinstance(split_k, bool):
        raise InvalidArgumentError(f"split_k must be a bool, got {split_k!r}")
    if num_cu is not None and (isinstance(num_cu, bool) or not isinstance(num_cu, int) or num_cu < 1):
        raise InvalidArgumentError(f"num_cu must be a positive integer, got {num_cu!r}")
    size = gemm_size(problem)
    dtype = problem.dtype
    cus = (num_cu or arch.min_num_cu) if split_k else None
    space: dict[AccelPerfConfig | GeneralPerfConfig, None] = {}
    if kind != "quick":
        space.update(dict.fromkeys(_brute_force(size, arch, dtype, kind, cus)))
    quick = quick_configs(arch, "conv" if isinstance(problem, ConvProblem) else "gemm", dtype)
    ordered = sorted(quick, key=lambda c: _padding_amount(c, size))
    for config in ordered:
        if rejection(config, arch, dtype) is None and could_be_performant(config, arch, dtype):
            space.setdefault(_canonical(config), None)
    return tuple(space)


def _canonical(config: AccelPerfConfig | GeneralPerfConfig) -> AccelPerfConfig | GeneralPerfConfig:
    """The config as rocMLIR prints it (v4 with 14 values, or v3), so equal attributes are equal."""
    if isinstance(config, GeneralPerfConfig):
        c = config
        return GeneralPerfConfig(c.block_size, c.m_per_block, c.n_per_block, c.k_per_block, c.m_per_thread,
                                 c.n_per_thread, c.split_k_factor, c.schedule_version, c.output_swizzle)
    c = config
    return AccelPerfConfig(c.m_per_block, c.n_per_block, c.kpack_per_block, c.m_per_wave, c.n_per_wave,
                           c.mn_per_xdl, c.kpack, c.split_k_factor, c.schedule_version, c.output_swizzle,
                           c.waves_per_eu, c.grid_group_size, c.force_unroll, True, wmma=c.wmma)


def parse_config_list(text: str, *, wmma: bool = False) -> tuple[AccelPerfConfig | GeneralPerfConfig, ...]:
    """Perf configs one a line, as ``rocmlir-gen --emit-tuning-space`` prints them (blank lines and
    ``#`` comments skipped); a malformed line raises ``ConfigParseError`` naming its line.

    Example: ``parse_config_list("v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1\\n")`` is one MFMA config.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"a config list is text, got {type(text).__name__}")
    found: list[Config] = []
    start = 0
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        stripped = body.strip()
        if stripped and not stripped.startswith("#"):
            found.append(parse_perf_config(stripped, wmma, text, start + body.index(stripped)))
        start += len(raw)
    return tuple(found)

