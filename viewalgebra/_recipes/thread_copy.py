"""How each thread copies its share of an A or B tile from global memory (docs/gridwise.md).

A port of ``computeCopyPerThread`` and of the choice ``getVectorDim`` makes with it
(``bestGlobalVectorization``), both in mlir/lib/Dialect/Rock/utility/loweringUtils.cpp. Each thread
copies ``copy_per_thread = k_per_block * d_per_block / block_size`` elements per k iteration, as a
``copy_k x copy_d`` patch; the patch is chosen to make the LDS store as wide as 128 bits allow:
along d when ``kpack == 1`` (LDS is then k-major, d contiguous), along k otherwise. The global load
is then vectorized along whichever of k and d the global view allows longer runs on, within the
patch (``vector_dim``); the run lengths themselves come from the views (``max_vector_length``),
which the gridwise recipes build.

Not modelled: the direct-to-LDS variant (``computeCopyPerThreadDirectToLDS``, schedule versions 3
and 4), which sizes the patch to the 32- or 128-bit direct load.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .._common.ints import integer
from .._maps.buffer import dtype_bits
from ..errors import InvalidArgumentError, RocmlirRuleError
from .arch import Arch
from .perf_config import AccelPerfConfig, GeneralPerfConfig, Operand

GemmDim = Literal["k", "d"]
"""rocMLIR's ``GemmDimension::K`` and ``GemmDimension::MorN`` (``d`` is m for A, n for B)."""


@dataclass(frozen=True, slots=True)
class CopyLayout:
    """The per-thread copy of one operand: ``copy_k x copy_d`` elements per k iteration.

    Example: ``copy_layout(PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1"), arch("gfx942"),
    "f16", "a")`` copies 6 elements as ``copy_k`` 2 by ``copy_d`` 3.
    """

    copy_k: int
    copy_d: int
    k_per_block: int
    d_per_block: int
    kpack: int

    @property
    def copy_per_thread(self) -> int:
        return self.copy_k * self.copy_d

    @property
    def tiebreaker(self) -> GemmDim:
        """The dim a tie goes to: k when ``kpack > 1`` (rocMLIR's ``vectorTiebreaker``)."""
        return "k" if self.kpack > 1 else "d"

    @property
    def k_run_bound(self) -> int:
        """The run length rocMLIR asks the global view for along k: ``gcd(copy_per_thread,
        k_per_block)`` (the ``inputDimLen`` of ``getMaxVectorization``)."""
        return math.gcd(self.copy_per_thread, self.k_per_block)

    @property
    def d_run_bound(self) -> int:
        """The run length asked along d: ``gcd(copy_per_thread, d_per_block)``."""
        return math.gcd(self.copy_per_thread, self.d_per_block)


def copy_layout(config: AccelPerfConfig | GeneralPerfConfig, arch: Arch, dtype: str,
                operand: Operand) -> CopyLayout:
    """rocMLIR's ``computeCopyPerThread`` for operand ``"a"`` (d is m) or ``"b"`` (d is n) with
    elements of ``dtype``; a ``RocmlirRuleError`` where rocMLIR reports incoherent parameters.

    Example: for ``v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1`` on gfx942 in f16, A's 6 elements per
    thread are ``gcd(128 / 16, 6) = 2`` along k and 3 along m.
    """
    copy_per_thread = config.copy_per_thread(arch, operand)
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    kpack = config.kpack if isinstance(config, AccelPerfConfig) else 1
    max_vector = 128 // dtype_bits(dtype)
    if copy_per_thread == 0:
        raise RocmlirRuleError(f"{config}: copy size too small, {operand.upper()}'s k_per_block * "
                               f"d_per_block = {config.k_per_block * d_per_block} is below the block size")
    if kpack == 1:
        copy_d = math.gcd(max_vector, copy_per_thread)
        copy_k = copy_per_thread // copy_d
    else:
        copy_k = math.gcd(max_vector, copy_per_thread)
        copy_d = copy_per_thread // copy_k
    if config.k_per_block < copy_k or d_per_block < copy_d:
        raise RocmlirRuleError(f"{config}: per-thread copy {copy_k}x{copy_d} (k x d) exceeds the block's "
                               f"{config.k_per_block}x{d_per_block}: incoherent tuning parameters")
    return CopyLayout(copy_k, copy_d, config.k_per_block, d_per_block, kpack)


def vector_dim(layout: CopyLayout, k_run: int, d_run: int) -> tuple[GemmDim, int]:
    """The dim and length of the global load (``bestGlobalVectorization``), given the longest runs
    the global view allows along k and along d (``max_vector_length`` of the view for
    ``layout.k_run_bound`` and ``layout.d_run_bound`` elements): each run is cut to the patch
    (``gcd(k_run, copy_k)``, ``gcd(d_run, copy_d)``), the longer wins, a tie goes to
    ``layout.tiebreaker``.

    Example: with the 2x3 layout above and runs of 2 along k and 1 along m, the load is 2 wide
    along k.
    """
    for name, run in (("k_run", k_run), ("d_run", d_run)):
        if integer(run, name, InvalidArgumentError) < 1:
            raise InvalidArgumentError(f"{name} must be positive, got {run}")
    k_len = math.gcd(k_run, layout.copy_k)
    d_len = math.gcd(d_run, layout.copy_d)
    if k_len > d_len:
        return "k", k_len
    if d_len > k_len:
        return "d", d_len
    return layout.tiebreaker, k_len
