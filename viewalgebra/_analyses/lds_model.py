"""The LDS hardware table: banks, wave size and the phases (lane groups serviced together) of each
LDS instruction kind and width, per architecture, each rule tagged with where it comes from
(docs/lds.md, The model).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from .._common.ints import integer
from ..errors import LdsModelError

Provenance = Literal["measured", "documented", "assumed"]
LdsKind = Literal["read", "write"]

WIDTHS = (1, 2, 4, 8, 16)
"""Bytes per lane of the LDS instructions modelled (1 and 2 touch one dword, as 4 does)."""

_NAMES: dict[LdsKind, dict[int, str]] = {
    "read": {1: "ds_read_u8", 2: "ds_read_u16", 4: "ds_read_b32", 8: "ds_read_b64", 16: "ds_read_b128"},
    "write": {1: "ds_write_b8", 2: "ds_write_b16", 4: "ds_write_b32", 8: "ds_write_b64", 16: "ds_write_b128"},
}


@dataclass(frozen=True, slots=True)
class PhaseRule:
    """The phases of one LDS instruction: the lane sets of a wave serviced in the same cycle.

    Example: gfx942 ``ds_read_b64`` has 4 phases of 16 contiguous lanes, ``(0..15), (16..31), ...``.
    """

    kind: LdsKind
    width: int
    """Bytes per lane: 1, 2, 4, 8 or 16 (1 and 2 touch one dword, as 4 does)."""
    groups: tuple[tuple[int, ...], ...]
    """The phases, each a sorted tuple of lanes; together a partition of ``0..wave-1``."""
    provenance: Provenance
    source: str
    """Where the rule is stated or measured, or why it is assumed."""

    def __post_init__(self) -> None:
        if self.kind not in get_args(LdsKind):
            raise LdsModelError(f"PhaseRule: kind must be 'read' or 'write', got {self.kind!r}")
        width = integer(self.width, "PhaseRule: width", LdsModelError)
        if width not in WIDTHS:
            raise LdsModelError(f"PhaseRule: width must be one of {list(WIDTHS)} bytes, got {width}")
        if self.provenance not in get_args(Provenance):
            raise LdsModelError(
                f"PhaseRule: provenance must be measured, documented or assumed, got {self.provenance!r}")
        if isinstance(self.groups, str) or not isinstance(self.groups, Sequence):
            raise LdsModelError(f"PhaseRule: groups must be lane tuples, got {self.groups!r}")
        groups = tuple(tuple(sorted(integer(lane, "PhaseRule: lane", LdsModelError) for lane in g))
                       for g in self.groups)
        if not groups or any(not g for g in groups):
            raise LdsModelError("PhaseRule: every phase needs at least one lane")
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "groups", groups)

    @property
    def lanes(self) -> int:
        """The number of lanes the phases cover."""
        return sum(len(g) for g in self.groups)


@dataclass(frozen=True, slots=True)
class LdsModel:
    """An architecture's LDS: bank count, wave size, LDS size and the phase rule of each instruction.

    A lane's byte address ``a`` is in bank ``(a // bank_bytes) % banks``. Example:
    ``lds_model("gfx942").rule("read", 16).groups[0] == (0, 1, 2, 3, 20, 21, 22, 23)``.
    """

    arch: str
    banks: int
    wave: int
    rules: tuple[PhaseRule, ...]
    bank_bytes: int = 4
    """Bytes per bank word (a dword); the counting rule is stated for 4."""
    lds_bytes: int = 65536
    """The LDS one workgroup can address: an access whose buffer is larger is refused."""
    sources: tuple[str, ...] = field(default=(), compare=False)
    """Where the bank count, wave size and LDS size come from."""

    def __post_init__(self) -> None:
        for name in ("banks", "wave", "bank_bytes", "lds_bytes"):
            value = integer(getattr(self, name), f"LdsModel {self.arch}: {name}", LdsModelError)
            if value < 1:
                raise LdsModelError(f"LdsModel {self.arch}: {name} must be positive, got {value}")
        if self.bank_bytes != 4:
            raise LdsModelError(
                f"LdsModel {self.arch}: bank_bytes must be 4 (dword banks), got {self.bank_bytes}")
        rules = tuple(self.rules)
        seen: set[tuple[str, int]] = set()
        for r in rules:
            if not isinstance(r, PhaseRule):
                raise LdsModelError(f"LdsModel {self.arch}: rules must be PhaseRules, got {r!r}")
            key = (r.kind, r.width)
            if key in seen:
                raise LdsModelError(f"LdsModel {self.arch}: two rules for {r.kind} of {r.width} bytes")
            seen.add(key)
            lanes = sorted(lane for g in r.groups for lane in g)
            if lanes != list(range(self.wave)):
                raise LdsModelError(
                    f"LdsModel {self.arch}: the phases of {_NAMES[r.kind][r.width]} are not a partition "
                    f"of lanes 0..{self.wave - 1}")
        object.__setattr__(self, "rules", rules)

    def rule(self, kind: LdsKind, width: int) -> PhaseRule:
        """The phase rule of ``kind`` accesses of ``width`` bytes per lane, or ``LdsModelError``."""
        for r in self.rules:
            if r.kind == kind and r.width == width:
                return r
        have = ", ".join(_NAMES[r.kind][r.width] for r in self.rules) or "none"
        raise LdsModelError(
            f"LdsModel {self.arch}: no phase rule for {kind} of {width} bytes per lane (it has: {have})")

    def instruction(self, kind: LdsKind, width: int) -> str:
        """The instruction's mnemonic: ``ds_read_b128``, ``ds_write_b64``, ``ds_read_u16``, ..."""
        if kind not in _NAMES:
            raise LdsModelError(f"instruction: kind must be 'read' or 'write', got {kind!r}")
        if width not in _NAMES[kind]:
            raise LdsModelError(f"instruction: no LDS {kind} of {width} bytes per lane (1, 2, 4, 8 or 16)")
        return _NAMES[kind][width]


def contiguous(wave: int, size: int) -> tuple[tuple[int, ...], ...]:
    """Phases of ``size`` consecutive lanes: ``(0..size-1), (size..2*size-1), ...``."""
    return tuple(tuple(range(s, s + size)) for s in range(0, wave, size))


def cosets(wave: int, generators: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Phases that are the cosets of the lanes ``span(generators)`` under xor, ordered by their
    smallest lane: ``cosets(64, (1, 2, 20))[0] == (0, 1, 2, 3, 20, 21, 22, 23)``."""
    span = {0}
    for g in generators:
        span |= {s ^ g for s in span}
    groups: list[tuple[int, ...]] = []
    done: set[int] = set()
    for lane in range(wave):
        if lane not in done:
            group = tuple(sorted(lane ^ s for s in span))
            done.update(group)
            groups.append(group)
    return tuple(groups)


_SHARK = "nod-ai/amd-shark-ai docs/empirical-lds/"
_SUB_DWORD = "assumed: a sub-dword access touches one dword and is serviced as the b32 access is"


def _sub_dword(rules: list[PhaseRule]) -> list[PhaseRule]:
    """Rules for 1- and 2-byte accesses: copies of the 4-byte rule of the same kind, assumed."""
    extra = [PhaseRule(r.kind, w, r.groups, "assumed", f"{_SUB_DWORD} ({r.provenance}: {r.source})")
             for r in rules if r.width == 4 for w in (1, 2)]
    return extra + rules


def _gfx942(arch: str, gfx90a: bool) -> LdsModel:
    w = 64
    cdna3 = f"{_SHARK}cdna3info.md"
    rules = [
        PhaseRule("read", 4, contiguous(w, 32), "measured", f"{cdna3}, ds_read_b32 table (counters)"),
        PhaseRule("read", 8, contiguous(w, 16), "measured", f"{cdna3}, ds_read_b64 table (counters)"),
        PhaseRule("read", 16, cosets(w, (1, 2, 20)), "measured",
                  f"{cdna3}, ds_read_b128 table (counters); the same lane groups in ROCm/composable_kernel "
                  "docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst"),
        PhaseRule("write", 4, contiguous(w, 32), "assumed",
                  "assumed from ROCm/hipBLASLt pull request 1180, a maintainer: ds_store_b32 is issued by "
                  "32 threads in the same cycle (which 32 is not stated: contiguous, as ds_read_b32)"),
        PhaseRule("write", 8, contiguous(w, 16), "assumed",
                  "no published statement: 16 lanes of 8 bytes fill the 32 banks once, contiguous as "
                  "ds_read_b64"),
        PhaseRule("write", 16, contiguous(w, 8), "documented",
                  "ROCm/composable_kernel docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst "
                  "(ds_write_b128: 8 phases lane0~7, ..., lane56~63); ROCm/hipBLASLt pull request 1180 "
                  "(8 threads per cycle)"),
    ]
    if gfx90a:
        rules = [PhaseRule(r.kind, r.width, r.groups, "assumed",
                           f"assumed as on gfx942: nothing published for gfx90a; rocMLIR's "
                           f"mlir/lib/Dialect/Rock/utility/AmdArchDb.cpp gives both wave 64 and 64 KiB "
                           f"of LDS and its LDS layouts do not depend on the arch; gfx942: "
                           f"{r.provenance}, {r.source}") for r in rules]
    return LdsModel(arch, 32, w, tuple(_sub_dword(rules)), lds_bytes=65536, sources=(
        f"{cdna3} (32 banks of 4 bytes, wave64, measured on gfx942)",
        "llvm/lib/Target/AMDGPU/AMDGPU.td (FeatureAddressableLocalMemorySize65536); rocMLIR "
        "mlir/lib/Dialect/Rock/utility/AmdArchDb.cpp (maxSharedMemPerWG 65536)"))


def _gfx950() -> LdsModel:
    w = 64
    cdna4 = f"{_SHARK}cdna4info.md"
    rules = [
        PhaseRule("read", 4, contiguous(w, 64), "measured", f"{cdna4}, ds_read_b32 phase group (latency)"),
        PhaseRule("read", 8, contiguous(w, 32), "measured",
                  f"{cdna4}, ds_read_b64 table (latency); triton-lang/triton pull request 9662 (2 phases of "
                  "64-bit accesses on gfx950)"),
        PhaseRule("read", 16, cosets(w, (1, 2, 12, 20)), "measured",
                  f"{cdna4}, ds_read_b128 phase groups (latency); triton-lang/triton pull request 11365"),
        PhaseRule("write", 4, contiguous(w, 64), "assumed",
                  "no published statement: as ds_read_b32 (64 lanes of 4 bytes fill the 64 banks once)"),
        PhaseRule("write", 8, contiguous(w, 32), "assumed",
                  "no published statement: as ds_read_b64 (32 lanes of 8 bytes fill the 64 banks once)"),
        PhaseRule("write", 16, contiguous(w, 16), "assumed",
                  "no published statement: 16 lanes of 16 bytes fill the 64 banks once, contiguous as "
                  "gfx942's ds_write_b128"),
    ]
    return LdsModel("gfx950", 64, w, tuple(_sub_dword(rules)), lds_bytes=163840, sources=(
        f"{cdna4} (64 banks of 4 bytes, wave64, measured on gfx950)",
        "llvm/lib/Target/AMDGPU/AMDGPU.td (FeatureAddressableLocalMemorySize163840)"))


def _rdna(arch: str) -> LdsModel:
    w = 32
    rdna4 = arch == "gfx1201"
    note = f"{_SHARK}{'rdna4info.md' if rdna4 else 'rdna3info.md'}"
    b128 = contiguous(w, 8) if rdna4 else cosets(w, (1, 2, 20))
    rules = [
        PhaseRule("read", 4, contiguous(w, 32), "measured", f"{note}, ds_read_b32 (latency)"),
        PhaseRule("read", 8, contiguous(w, 16), "measured", f"{note}, ds_read_b64 (latency)"),
        PhaseRule("read", 16, b128, "measured", f"{note}, ds_read_b128 (latency)"),
        PhaseRule("write", 4, contiguous(w, 32), "assumed", "no published statement: as ds_read_b32"),
        PhaseRule("write", 8, contiguous(w, 16), "assumed", "no published statement: as ds_read_b64"),
        PhaseRule("write", 16, contiguous(w, 8), "assumed",
                  "no published statement: 8 lanes of 16 bytes fill the 32 banks once, contiguous as "
                  "gfx942's ds_write_b128"),
    ]
    return LdsModel(arch, 32, w, tuple(_sub_dword(rules)), lds_bytes=65536, sources=(
        f"{note} (32 banks of 4 bytes, wave32, measured on {arch})",
        "llvm/lib/Target/AMDGPU/AMDGPU.td (FeatureAddressableLocalMemorySize65536)"))


ARCHS = ("gfx1100", "gfx1201", "gfx90a", "gfx942", "gfx950")
"""The architectures with a table."""


def lds_model(arch: str) -> LdsModel:
    """The LDS model of an architecture: gfx90a, gfx942, gfx950, gfx1100 or gfx1201.

    Example: ``lds_model("gfx950").banks == 64``; ``lds_model("gfx942").rule("read", 16)`` has the
    8 measured phases of ``ds_read_b128``. Other architectures: build an ``LdsModel``.
    """
    if not isinstance(arch, str):
        raise LdsModelError(f"lds_model: arch must be a name such as 'gfx942', got {arch!r}")
    match arch:
        case "gfx942" | "gfx90a":
            return _gfx942(arch, arch == "gfx90a")
        case "gfx950":
            return _gfx950()
        case "gfx1100" | "gfx1201":
            return _rdna(arch)
        case _:
            raise LdsModelError(
                f"lds_model: no LDS table for {arch!r} (known: {', '.join(ARCHS)}); build an LdsModel")
