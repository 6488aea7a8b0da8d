"""The GPUs rocMLIR compiles for, and the matrix instructions it picks on each (docs/gridwise.md).

Ported from rocMLIR's sources (the commit of each file is in docs/gridwise.md):

* ``mlir/lib/Dialect/Rock/IR/AmdArchDb.cpp``: wave size, LDS size, CU count, features, and
  ``getDefaultFeatures``, which keeps an accelerator only for the element types it takes
  (``accel``): MFMA for f32, f16, bf16 and i8 on gfx9; WMMA for f16, bf16 and i8 on gfx11 and
  gfx12, so f32 there uses the non-accelerated (``GeneralGemmParams``) path.
* ``mlir/lib/Dialect/Rock/IR/MfmaInsnGroup.cpp``: ``MfmaInsnGroup::select`` (keyed by the element
  type and ``min(mnPerXdl, 64)``, with i8's gfx940+ table and bf16's ``_1k`` table on gfx90a+) and
  the derived attributes of each instruction (``deriveAttr``) that ``isCoherentWithK`` reads.
* ``mlir/lib/Dialect/Rock/IR/WmmaInsnGroup.cpp``: ``WmmaInsn::select`` for gfx11 and gfx12 (16x16x16,
  wave32; gfx12 feeds 8 values per lane, gfx11 16) and its ``isCoherentWithK``.

Not modelled: fp8 and the other small floats, the 4x4 broadcast MFMAs (``mnPerXdl`` below 16 is
never tuned), gfx950's double-rate MFMAs (rocMLIR's select at the pinned commit also takes kpack,
kpackPerBlock and the schedule version; that version of the file was not readable, so gfx950 uses
gfx942's choices), gfx1250.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .._maps.buffer import dtype_bits
from ..errors import InvalidArgumentError

Accel = Literal["mfma", "wmma"]

_WAVE64 = 64


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True, slots=True)
class MfmaInstruction:
    """One MFMA instruction and what rocMLIR derives from its shape (``deriveAttr`` in
    mlir/lib/Dialect/Rock/IR/MfmaInsnGroup.cpp).

    Example: ``rocdl.mfma.f32.32x32x8f16`` is ``MfmaInstruction("rocdl.mfma.f32.32x32x8f16", 32, 8,
    1)``: each lane passes ``k_base`` 4 values of k, and the two halves of the wave (two input
    spans of 32 lanes) read different k, so the instruction reduces over k.
    """

    name: str
    """The ROCDL op."""
    non_k_dim: int
    """``mfmaNonKDim``: the M (and N) extent of one block."""
    k: int
    blocks: int
    """``blocksMfma``."""

    @property
    def mn_per_xdl(self) -> int:
        """Rows (and columns) one instruction computes: ``mfmaNonKDim * blocksMfma``."""
        return self.non_k_dim * self.blocks

    @property
    def k_per_input(self) -> int:
        """``kPerMfmaInput = ceil(64 / (mfmaNonKDim * blocksMfma))``."""
        return _ceil_div(_WAVE64, self.non_k_dim * self.blocks)

    @property
    def k_base(self) -> int:
        """Values of k each lane passes per instruction: ``k / kPerMfmaInput``."""
        return self.k // self.k_per_input

    @property
    def inputs(self) -> int:
        """``nInputsToMfma``: values each lane passes."""
        return self.non_k_dim * self.blocks * self.k // _WAVE64

    @property
    def outputs(self) -> int:
        """``nOutputsOfMfma``: accumulator values per lane."""
        return self.non_k_dim * self.non_k_dim * self.blocks // _WAVE64

    @property
    def rows_per_output(self) -> int:
        return min(_WAVE64 // self.non_k_dim, self.non_k_dim // 4)

    @property
    def blocks_per_output(self) -> int:
        return _ceil_div(_WAVE64, self.rows_per_output * self.non_k_dim)

    @property
    def blocks_in_out_regs(self) -> int:
        return self.blocks // self.blocks_per_output

    @property
    def input_span_len(self) -> int:
        return self.non_k_dim * self.blocks_per_output

    @property
    def input_spans(self) -> int:
        """``inputSpansPerMfmaIn``: how many groups of lanes read different k."""
        return _WAVE64 // self.input_span_len

    @property
    def is_k_reduction(self) -> bool:
        return self.blocks_in_out_regs == 1 and self.input_spans > 1

    def coherent_with_k(self, kpack: int, kpack_per_block: int) -> bool:
        """rocMLIR's ``MfmaInsn::isCoherentWithK``: with ``kpack > 1`` at least ``k_base`` values are
        packed (and a reduction has ``kpack_per_block >= input_spans``); with ``kpack == 1``,
        ``kpack_per_block`` reaches ``k_base`` (times ``input_spans`` for a reduction)."""
        if kpack > 1:
            return kpack >= self.k_base and (not self.is_k_reduction or kpack_per_block >= self.input_spans)
        if self.is_k_reduction:
            return kpack_per_block >= self.k_base * self.input_spans
        return kpack_per_block >= self.k_base


@dataclass(frozen=True, slots=True)
class WmmaInstruction:
    """One WMMA instruction as ``WmmaInsn::select`` returns it (mlir/lib/Dialect/Rock/IR/
    WmmaInsnGroup.cpp): 16x16x16, each lane passing ``input_len`` values of A and of B.

    Example: on gfx1100, ``rocdl.wmma.f32.16x16x16.f16`` has ``input_len`` 16 and ``out_stride`` 2.
    """

    name: str
    input_len: int
    """``inputVectorLen``: the length of each lane's A (and B) argument."""
    output_len: int
    out_stride: int
    """2 on gfx11 (the whole wave cooperates in k), ``output_len`` on gfx12 (half waves)."""
    m: int = 16
    n: int = 16
    k: int = 16

    def coherent_with_k(self, kpack: int, kpack_per_block: int) -> bool:
        """rocMLIR's ``WmmaInsn::isCoherentWithK``: ``kpack_per_block * kpack`` is a multiple of
        ``input_len``."""
        return kpack_per_block * kpack % self.input_len == 0


_MFMA_FEATURES = frozenset({"mfma", "dot", "atomic_add", "atomic_add_f16"})


@dataclass(frozen=True, slots=True)
class Arch:
    """A GPU as rocMLIR's ``AmdArchDb`` describes it (mlir/lib/Dialect/Rock/IR/AmdArchDb.cpp).

    Example: ``arch("gfx942")``: wave64, MFMA, 64 KiB of LDS per workgroup.
    """

    name: str
    family: str
    """rocMLIR's name for the arch's table: ``cdna2``, ``cdna3``, ``cdna35``, ``gfx11``, ``gfx12``."""
    wave_size: int
    features: frozenset[str]
    """``GemmFeatures`` names: ``mfma``, ``wmma``, ``dot``, ``atomic_add``, ``direct_to_lds_32b``, ..."""
    max_waves_per_eu: int
    lds_per_cu: int
    """``totalSharedMemPerCU`` in bytes."""
    lds_per_workgroup: int
    """``maxSharedMemPerWG`` in bytes: the LDS one kernel may use."""
    min_num_cu: int
    """``minNumCU``: the fewest CUs of a part with this arch (the split-k heuristic's default)."""

    @property
    def direct_to_lds(self) -> bool:
        """Whether the arch loads global memory straight into LDS (``isDirectToLDSSupported``)."""
        return bool(self.features & {"direct_to_lds_32b", "direct_to_lds_128b"})

    def accel(self, dtype: str) -> Accel | None:
        """The accelerator rocMLIR uses for inputs of ``dtype`` (``getDefaultFeatures``): ``"mfma"``,
        ``"wmma"`` or ``None`` for the non-accelerated path.

        Example: ``arch("gfx1100").accel("f32") is None``; ``arch("gfx942").accel("f32") == "mfma"``.
        """
        _accel_dtype(dtype)
        if "mfma" in self.features:
            return "mfma"
        if "wmma" in self.features and dtype in ("f16", "bf16", "i8"):
            return "wmma"
        return None

    def mfma(self, dtype: str, mn_per_xdl: int) -> MfmaInstruction | None:
        """The MFMA ``MfmaInsnGroup::select`` picks for ``mn_per_xdl`` (``None`` where it fails).

        Example: ``arch("gfx942").mfma("i8", 32).name == "rocdl.mfma.i32.32x32x16.i8"``.
        """
        _accel_dtype(dtype)
        if "mfma" not in self.features:
            return None
        d = min(mn_per_xdl, 64)
        table = _MFMA_I8_GFX940 if dtype == "i8" and self.name != "gfx90a" else _MFMA_TABLES[dtype]
        entry = table.get(d)
        if entry is None:
            return None
        return MfmaInstruction(entry[0], entry[1], entry[2], 1)

    def wmma(self, dtype: str, m_per_wave: int, n_per_wave: int) -> WmmaInstruction | None:
        """The WMMA ``WmmaInsn::select`` picks (``None`` where it fails: no WMMA for the type, or a
        wave tile that is not a multiple of both 16 and the input length).

        Example: ``arch("gfx1201").wmma("f16", 32, 16).input_len == 8``.
        """
        _accel_dtype(dtype)
        if "wmma" not in self.features or self.wave_size != 32 or dtype not in _WMMA_NAMES:
            return None
        gfx11 = self.family == "gfx11"
        insn = WmmaInstruction(_WMMA_NAMES[dtype], 16 if gfx11 else 8, 8, 2 if gfx11 else 8)
        for per_wave in (m_per_wave, n_per_wave):
            if per_wave % insn.input_len or per_wave % 16:
                return None
        return insn


def _accel_dtype(dtype: str) -> None:
    if dtype not in ("f32", "f16", "bf16", "i8"):
        dtype_bits(dtype)  # an unknown name gets the usual message
        raise InvalidArgumentError(
            f"element type {dtype!r}: the recipes model f32, f16, bf16 and i8 inputs (docs/gridwise.md)")


_MFMA_TABLES: dict[str, dict[int, tuple[str, int, int]]] = {
    "f32": {32: ("rocdl.mfma.f32.32x32x2f32", 32, 2), 64: ("rocdl.mfma.f32.32x32x2f32", 32, 2),
            16: ("rocdl.mfma.f32.16x16x4f32", 16, 4)},
    "f16": {32: ("rocdl.mfma.f32.32x32x8f16", 32, 8), 64: ("rocdl.mfma.f32.32x32x8f16", 32, 8),
            16: ("rocdl.mfma.f32.16x16x16f16", 16, 16)},
    "bf16": {32: ("rocdl.mfma.f32.32x32x8bf16.1k", 32, 8), 64: ("rocdl.mfma.f32.32x32x8bf16.1k", 32, 8),
             16: ("rocdl.mfma.f32.16x16x16bf16.1k", 16, 16)},
    "i8": {32: ("rocdl.mfma.i32.32x32x8i8", 32, 8), 64: ("rocdl.mfma.i32.32x32x8i8", 32, 8),
           16: ("rocdl.mfma.i32.16x16x16i8", 16, 16)},
}
"""``MfmaInsnGroup``'s tables for the square keys ``(d, d)``, ``d = min(mnPerXdl, 64)`` (the other
keys are the 4x4 broadcasts): the all-arch f32/f16 table, bf16's gfx90a+ table and i8's pre-gfx940
table (gfx90a)."""

_MFMA_I8_GFX940 = {32: ("rocdl.mfma.i32.32x32x16.i8", 32, 16), 64: ("rocdl.mfma.i32.32x32x16.i8", 32, 16),
                   16: ("rocdl.mfma.i32.16x16x32.i8", 16, 32)}
"""i8's gfx940+ table (gfx942, gfx950)."""

_WMMA_NAMES = {"f16": "rocdl.wmma.f32.16x16x16.f16", "bf16": "rocdl.wmma.f32.16x16x16.bf16",
               "i8": "rocdl.wmma.i32.16x16x16.iu8"}

_ARCHS = {
    a.name: a for a in (
        Arch("gfx90a", "cdna2", 64, _MFMA_FEATURES, 8, 65536, 65536, 104),
        Arch("gfx942", "cdna3", 64, _MFMA_FEATURES | {"direct_to_lds_32b"}, 10, 65536, 65536, 80),
        Arch("gfx950", "cdna35", 64,
             _MFMA_FEATURES | {"atomic_add_bf16", "direct_to_lds_32b", "direct_to_lds_128b"},
             8, 163840, 163840, 256),
        Arch("gfx1100", "gfx11", 32, frozenset({"dot", "atomic_add", "atomic_fmax_f32", "wmma"}),
             20, 131072, 65536, 12),
        Arch("gfx1201", "gfx12", 32,
             frozenset({"dot", "atomic_add", "atomic_fmax_f32", "wmma", "atomic_add_f16", "atomic_add_bf16"}),
             16, 65536, 65536, 12),
    )
}

_CHIP = re.compile(r"gfx[0-9a-z]+")


def arch(name: str) -> Arch:
    """The arch named ``name`` (a target such as ``gfx942:sramecc+:xnack-`` names ``gfx942``).

    Example: ``arch("gfx942").wave_size == 64``.
    """
    if not isinstance(name, str):
        raise InvalidArgumentError(f"arch must be a name such as 'gfx942', got {name!r}")
    chip = _CHIP.search(name)
    found = _ARCHS.get(chip.group(0)) if chip else None
    if found is None:
        raise InvalidArgumentError(f"unknown arch {name!r}: the recipes know {', '.join(_ARCHS)}")
    return found


def archs() -> tuple[Arch, ...]:
    """Every arch the recipes know, in the order of ``arch``'s message."""
    return tuple(_ARCHS.values())
