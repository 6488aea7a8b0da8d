"""rocMLIR's perf configs: the tuning parameters of one kernel, as the strings rocMLIR reads and
prints, and the sizes it derives from them (docs/gridwise.md).

The grammar follows rocMLIR's parsers (``AccelGemmParamsAttr::get(str, isWmma)`` and
``GeneralGemmParamsAttr::get(str)``, mlir/lib/Dialect/Rock/IR/RockDialect.cpp, with the versions of
mlir/include/mlir/Dialect/Rock/Tuning/Serializable.h) and its printers (``getPerfConfigStr`` in
mlir/include/mlir/Dialect/Rock/IR/RockAttrDefs.td): ``vN:`` then comma-separated integers (no
prefix reads as v1).

Accelerated (MFMA or WMMA), ``m_per_block, n_per_block, kpack_per_block`` then:

* v1 (8): ``m_per_wave, mn_per_xdl, kpack, force_unroll, thread_copy_more``;
* v2 (9): ``m_per_wave, mn_per_xdl, kpack, split_k_factor, force_unroll, thread_copy_more``;
* v3 (11): as v2 with ``schedule_version, output_swizzle`` after ``split_k_factor``;
* v4 (12): ``m_per_wave, n_per_wave, mn_per_xdl, kpack, split_k_factor, schedule_version,
  output_swizzle, force_unroll, thread_copy_more``;
* v4 (14, what rocMLIR prints): as 12 with ``waves_per_eu, grid_group_size`` after
  ``output_swizzle``.

Before v4 the fourth and fifth values mean something else: read as WMMA they are ``m_per_wave,
n_per_wave`` (``mn_per_xdl`` is 16); read as MFMA they are the old ``mPerWave`` and ``mn_per_xdl``,
and the wave tile is derived: ``mWaves = min(m_per_block / old, 4)``, ``nWaves = 4 / mWaves``,
``m_per_wave = m_per_block / mWaves``, ``n_per_wave = max(n_per_block / nWaves, mn_per_xdl)``.

Non-accelerated: v1 (6) ``block_size, m_per_block, n_per_block, k_per_block, m_per_thread,
n_per_thread``, v2 (7) adds ``split_k_factor``, v3 (9) adds ``schedule_version, output_swizzle``.

The sizes derived from a config (``block_size``, ``k_per_block``, ``copy_per_thread``, padding and
grid size) follow mlir/lib/Dialect/Rock/Tuning/GridwiseGemmParams.cpp (``obtainBlockSize``,
``calculatePadding``) and mlir/lib/Dialect/Rock/utility/loweringUtils.cpp (``isValidBlockSize``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .._common.ints import integer
from ..errors import ConfigParseError, InvalidArgumentError
from .arch import Arch
from .problems import ConvProblem, GemmProblem

Operand = Literal["a", "b"]


@dataclass(frozen=True, slots=True)
class GemmSize:
    """rocMLIR's ``GemmSize``: the batch ``g`` and the ``m``, ``k``, ``n`` of one gemm."""

    g: int
    m: int
    k: int
    n: int


def gemm_size(problem: GemmProblem | ConvProblem) -> GemmSize:
    """The gemm a problem is (a conv through ``ConvProblem.gemm``).

    Example: ``gemm_size(GemmProblem(m=64, n=32, k=16)) == GemmSize(1, 64, 16, 32)``.
    """
    if isinstance(problem, ConvProblem):
        problem = problem.gemm
    if not isinstance(problem, GemmProblem):
        raise InvalidArgumentError(f"expected a GemmProblem or ConvProblem, got {problem!r}")
    return GemmSize(problem.g, problem.m, problem.k, problem.n)


def _mod_1_to_n(x: int, n: int) -> int:
    """rocMLIR's ``math_util::mod_1_to_n``: ``x mod n`` in ``1..n``."""
    return (x - 1) % n + 1


def padded_size(size: GemmSize, k_per_block: int, m_per_block: int, n_per_block: int) -> GemmSize:
    """``calculatePaddedGemmSize``: each of m, k, n rounded up to a multiple of its tile."""
    return GemmSize(size.g, size.m + m_per_block - _mod_1_to_n(size.m, m_per_block),
                    size.k + k_per_block - _mod_1_to_n(size.k, k_per_block),
                    size.n + n_per_block - _mod_1_to_n(size.n, n_per_block))


class PerfConfig:
    """A perf config: ``AccelPerfConfig`` (MFMA or WMMA) or ``GeneralPerfConfig``."""

    __slots__ = ()

    @staticmethod
    def parse(text: str, *, wmma: bool = False) -> AccelPerfConfig | GeneralPerfConfig:
        """Read a perf config string; ``wmma`` says how to read v1-v3 accelerated strings, as
        rocMLIR's ``isWmma`` does.

        Example: ``str(PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1"))`` gives the text back.
        """
        if not isinstance(text, str):
            raise InvalidArgumentError(
                f"a perf config is a string such as 'v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1', got {text!r}")
        return parse_perf_config(text, wmma, text, 0)


_ACCEL_FIELDS = {
    (1, 8): ("m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "mn_per_xdl", "kpack",
             "force_unroll", "thread_copy_more"),
    (2, 9): ("m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "mn_per_xdl", "kpack",
             "split_k_factor", "force_unroll", "thread_copy_more"),
    (3, 11): ("m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "mn_per_xdl", "kpack",
              "split_k_factor", "schedule_version", "output_swizzle", "force_unroll", "thread_copy_more"),
    (4, 12): ("m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "n_per_wave", "mn_per_xdl",
              "kpack", "split_k_factor", "schedule_version", "output_swizzle", "force_unroll",
              "thread_copy_more"),
    (4, 14): ("m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "n_per_wave", "mn_per_xdl",
              "kpack", "split_k_factor", "schedule_version", "output_swizzle", "waves_per_eu",
              "grid_group_size", "force_unroll", "thread_copy_more"),
}
"""The values of each accelerated form (version, count), MFMA reading."""

_GENERAL_FIELDS = {
    (1, 6): ("block_size", "m_per_block", "n_per_block", "k_per_block", "m_per_thread", "n_per_thread"),
    (2, 7): ("block_size", "m_per_block", "n_per_block", "k_per_block", "m_per_thread", "n_per_thread",
             "split_k_factor"),
    (3, 9): ("block_size", "m_per_block", "n_per_block", "k_per_block", "m_per_thread", "n_per_thread",
             "split_k_factor", "schedule_version", "output_swizzle"),
}

_POSITIVE = frozenset({"m_per_block", "n_per_block", "kpack_per_block", "m_per_wave", "n_per_wave",
                       "mn_per_xdl", "kpack", "split_k_factor", "block_size", "k_per_block",
                       "m_per_thread", "n_per_thread"})
_FLAGS = frozenset({"force_unroll", "thread_copy_more"})


def _accel_fields(version: int, count: int, wmma: bool) -> tuple[str, ...] | None:
    names = _ACCEL_FIELDS.get((version, count))
    if names is not None and wmma and version < 4:
        names = tuple("n_per_wave" if n == "mn_per_xdl" else n for n in names)
    return names


_PREFIX = re.compile(r"v(\d+):")
_NUMBER = re.compile(r"[0-9]+")


def parse_perf_config(text: str, wmma: bool, source: str,
                      start: int) -> AccelPerfConfig | GeneralPerfConfig:
    """``PerfConfig.parse`` of ``text``, which starts at offset ``start`` of ``source`` (the error
    names the line and column there)."""
    def fail(offset: int, token: str, message: str) -> ConfigParseError:
        return ConfigParseError(f"perf config {text!r}: {message}", source, start + offset, token)

    if text.startswith("attn:") or text.startswith("gemm_gemm:"):
        raise fail(0, text.split(":")[0], "gemm+gemm and attention perf configs are not modelled")
    prefix = _PREFIX.match(text)
    version = int(prefix.group(1)) if prefix else 1
    body_at = prefix.end() if prefix else 0
    if not 1 <= version <= 4:
        raise fail(0, text[:body_at - 1], f"unknown version v{version}, expected v1, v2, v3 or v4")
    tokens: list[tuple[str, int]] = []
    at = body_at
    for token in text[body_at:].split(","):
        tokens.append((token, at))
        at += len(token) + 1
    for token, offset in tokens:
        if not _NUMBER.fullmatch(token):
            raise fail(offset, token, f"{token!r} is not a non-negative integer")
    counts = sorted({c for (v, c) in _ACCEL_FIELDS if v == version} | {c for (v, c) in _GENERAL_FIELDS
                                                                       if v == version})
    accel = _accel_fields(version, len(tokens), wmma)
    general = _GENERAL_FIELDS.get((version, len(tokens)))
    names = accel or general
    if names is None:
        last, offset = tokens[-1]
        raise fail(offset, last, f"v{version} has {len(tokens)} values, expected "
                                 f"{' or '.join(str(c) for c in counts)}")
    values: dict[str, int] = {}
    for name, (token, offset) in zip(names, tokens, strict=True):
        value = int(token)
        if name in _POSITIVE and value == 0:
            raise fail(offset, token, f"{name} is 0, expected a positive integer")
        if name in _FLAGS and value > 1:
            raise fail(offset, token, f"{name} is {value}, expected 0 or 1")
        values[name] = value
    if general is not None:
        return GeneralPerfConfig(**values, version=version)
    if version < 4 and wmma:
        values["mn_per_xdl"] = 16
    elif version < 4:
        old = values.pop("m_per_wave")
        if old > values["m_per_block"]:
            token, offset = tokens[3]
            raise fail(offset, token, f"m_per_wave {old} exceeds m_per_block {values['m_per_block']}")
        values["legacy_m_per_wave"] = old
        values["m_per_wave"], values["n_per_wave"] = _legacy_waves(
            values["m_per_block"], values["n_per_block"], old, values["mn_per_xdl"])
    flags = {n: bool(values.pop(n)) for n in _FLAGS}
    return AccelPerfConfig(**values, force_unroll=flags["force_unroll"],
                           thread_copy_more=flags["thread_copy_more"], version=version,
                           long=len(tokens) == 14, wmma=wmma)


def _legacy_waves(m_per_block: int, n_per_block: int, old: int, mn_per_xdl: int) -> tuple[int, int]:
    m_waves = min(m_per_block // old, 4)
    n_waves = 4 // m_waves
    return m_per_block // m_waves, max(n_per_block // n_waves, mn_per_xdl)


def _check_fields(obj: object, names: tuple[str, ...], what: str) -> None:
    """Each field an ``int`` (a numpy integer is converted) of at least 1 or 0."""
    for name in names:
        value = getattr(obj, name)
        if type(value) is not int:  # the tuning spaces build thousands: plain ints skip the full check
            value = integer(value, f"{what}: {name}", InvalidArgumentError)
            object.__setattr__(obj, name, value)
        if value < (1 if name in _POSITIVE else 0):
            least = "positive" if name in _POSITIVE else "at least 0"
            raise InvalidArgumentError(f"{what}: {name} must be {least}, got {value}")


@dataclass(frozen=True, slots=True)
class AccelPerfConfig(PerfConfig):
    """The tuning parameters of an MFMA or WMMA gemm (rocMLIR's ``AccelGemmParamsAttr``), in their
    v4 meaning, with the form they were written in.

    Example: ``PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1")`` has ``m_per_block`` 96,
    ``kpack`` 4, ``schedule_version`` 2 and ``grid_group_size`` 4.
    """

    m_per_block: int
    n_per_block: int
    kpack_per_block: int
    """``kpackPerBlock``: ``k_per_block / kpack``."""
    m_per_wave: int
    n_per_wave: int
    mn_per_xdl: int
    """Rows and columns one MFMA computes (16 for WMMA)."""
    kpack: int
    split_k_factor: int = 1
    schedule_version: int = 1
    """``GemmLoadTileType``: 1 Default, 2 DoubleBuffer, 3 DirectToLDSDefault, 4
    DirectToLDSDoubleBuffer."""
    output_swizzle: int = 2
    """0 off, 1 on, 2 heuristic."""
    waves_per_eu: int = 0
    grid_group_size: int = 0
    force_unroll: bool = True
    thread_copy_more: bool = True
    """rocMLIR's last value, ``bThreadCopyMoreGemmKPack`` (printed as the constant 1)."""
    version: int = 4
    long: bool = True
    """A v4 string with ``waves_per_eu`` and ``grid_group_size`` (14 values, not 12)."""
    wmma: bool = False
    """Read as WMMA: only changes what v1-v3 strings mean."""
    legacy_m_per_wave: int | None = None
    """An MFMA v1-v3 string's fourth value, the old ``mPerWave`` (``m_per_wave`` is derived)."""

    def __post_init__(self) -> None:
        _check_fields(self, _ACCEL_FIELDS[4, 14][:-2], "AccelPerfConfig")
        for name in ("force_unroll", "thread_copy_more", "long", "wmma"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgumentError(
                    f"AccelPerfConfig: {name} must be a bool, got {getattr(self, name)!r}")
        if self.version not in (1, 2, 3, 4):
            raise InvalidArgumentError(f"AccelPerfConfig: version must be 1, 2, 3 or 4, got {self.version!r}")
        short = self.version < 4 or not self.long
        if short and (self.waves_per_eu, self.grid_group_size) != (0, 0):
            raise InvalidArgumentError("AccelPerfConfig: only the 14-value v4 form writes waves_per_eu and "
                                       "grid_group_size")
        if self.version < 3 and (self.schedule_version, self.output_swizzle) != (1, 2):
            raise InvalidArgumentError(f"AccelPerfConfig: v{self.version} writes no schedule_version "
                                       f"or output_swizzle")
        if self.version < 2 and self.split_k_factor != 1:
            raise InvalidArgumentError("AccelPerfConfig: v1 writes no split_k_factor")
        if self.version < 4 and self.wmma and self.mn_per_xdl != 16:
            raise InvalidArgumentError("AccelPerfConfig: a WMMA v1-v3 config has mn_per_xdl 16")
        legacy = self.version < 4 and not self.wmma
        if legacy != (self.legacy_m_per_wave is not None):
            raise InvalidArgumentError("AccelPerfConfig: legacy_m_per_wave is given exactly for MFMA v1-v3 "
                                       "configs")
        if self.legacy_m_per_wave is not None:
            old = integer(self.legacy_m_per_wave, "AccelPerfConfig: legacy_m_per_wave", InvalidArgumentError)
            waves = (self.m_per_wave, self.n_per_wave)
            if not 1 <= old <= self.m_per_block or _legacy_waves(
                    self.m_per_block, self.n_per_block, old, self.mn_per_xdl) != waves:
                raise InvalidArgumentError(
                    f"AccelPerfConfig: legacy_m_per_wave {old} does not give m_per_wave {self.m_per_wave} "
                    f"and n_per_wave {self.n_per_wave}")

    def __str__(self) -> str:
        values = {name: int(getattr(self, name)) for name in _ACCEL_FIELDS[4, 14]}
        if self.legacy_m_per_wave is not None:
            values["m_per_wave"] = self.legacy_m_per_wave
        count = {1: 8, 2: 9, 3: 11}.get(self.version, 14 if self.long else 12)
        names = _accel_fields(self.version, count, self.wmma) or ()
        return f"v{self.version}:" + ",".join(str(values[n]) for n in names)

    @property
    def k_per_block(self) -> int:
        """``kpack_per_block * kpack``."""
        return self.kpack_per_block * self.kpack

    @property
    def waves(self) -> tuple[int, int]:
        """Waves along m and n: ``(m_per_block / m_per_wave, n_per_block / n_per_wave)``."""
        return self.m_per_block // self.m_per_wave, self.n_per_block // self.n_per_wave

    def block_size(self, arch: Arch) -> int:
        """Threads per workgroup (``obtainBlockSize``): ``wave_size * m_waves * n_waves``.

        Example: ``v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1`` on gfx942 has 512.
        """
        m_waves, n_waves = self.waves
        return arch.wave_size * m_waves * n_waves

    def copy_per_thread(self, arch: Arch, operand: Operand) -> int:
        """Elements of A (``d = m``) or B (``d = n``) each thread copies per k iteration:
        ``k_per_block * d_per_block // block_size`` (0 breaks ``isValidBlockSize``)."""
        return self.k_per_block * _d_per_block(self, operand) // self.block_size(arch)

    def padding(self, problem: GemmProblem | ConvProblem) -> GemmSize:
        """The zeros rocMLIR adds to each gemm dim (``calculatePadding``): k to a multiple of
        ``k_per_block``, m of ``m_per_block``, n of ``n_per_block``; ``g`` is 0."""
        size = gemm_size(problem)
        padded = self.padded(problem)
        return GemmSize(0, padded.m - size.m, padded.k - size.k, padded.n - size.n)

    def padded(self, problem: GemmProblem | ConvProblem) -> GemmSize:
        """The gemm size after padding (``calculatePaddedGemmSize``)."""
        return padded_size(gemm_size(problem), self.k_per_block, self.m_per_block, self.n_per_block)

    def grid_size(self, problem: GemmProblem | ConvProblem) -> int:
        """Workgroups: ``g * (m / m_per_block) * (n / n_per_block) * split_k_factor`` on the padded gemm."""
        return _grid_size(self.padded(problem), self.m_per_block, self.n_per_block, self.split_k_factor)


def _d_per_block(config: AccelPerfConfig | GeneralPerfConfig, operand: Operand) -> int:
    if operand not in ("a", "b"):
        raise InvalidArgumentError(f"operand must be 'a' or 'b', got {operand!r}")
    return config.m_per_block if operand == "a" else config.n_per_block


def _grid_size(padded: GemmSize, m_per_block: int, n_per_block: int, split_k: int) -> int:
    return padded.g * (padded.m // m_per_block) * (padded.n // n_per_block) * split_k


@dataclass(frozen=True, slots=True)
class GeneralPerfConfig(PerfConfig):
    """The tuning parameters of a gemm without matrix instructions (rocMLIR's
    ``GeneralGemmParamsAttr``: ``kPerThread`` and ``kpack`` are 1).

    Example: ``PerfConfig.parse("v3:64,64,32,16,2,2,1,1,2")`` has ``block_size`` 64.
    """

    block_size: int
    m_per_block: int
    n_per_block: int
    k_per_block: int
    m_per_thread: int
    n_per_thread: int
    split_k_factor: int = 1
    schedule_version: int = 1
    output_swizzle: int = 2
    version: int = 3

    def __post_init__(self) -> None:
        _check_fields(self, _GENERAL_FIELDS[3, 9], "GeneralPerfConfig")
        if self.version not in (1, 2, 3):
            raise InvalidArgumentError(f"GeneralPerfConfig: version must be 1, 2 or 3, got {self.version!r}")
        if self.version < 3 and (self.schedule_version, self.output_swizzle) != (1, 2):
            raise InvalidArgumentError(f"GeneralPerfConfig: v{self.version} writes no schedule_version "
                                       f"or output_swizzle")
        if self.version < 2 and self.split_k_factor != 1:
            raise InvalidArgumentError("GeneralPerfConfig: v1 writes no split_k_factor")

    def __str__(self) -> str:
        names = _GENERAL_FIELDS[{1: (1, 6), 2: (2, 7), 3: (3, 9)}[self.version]]
        return f"v{self.version}:" + ",".join(str(getattr(self, n)) for n in names)

    def copy_per_thread(self, arch: Arch, operand: Operand) -> int:
        """Elements of A or B each thread copies per k iteration: ``k_per_block * d_per_block //
        block_size`` (``arch`` is unused: the block size is given)."""
        del arch
        return self.k_per_block * _d_per_block(self, operand) // self.block_size

    def padding(self, problem: GemmProblem | ConvProblem) -> GemmSize:
        """The zeros rocMLIR adds to each gemm dim (``calculatePadding`` with ``kpack`` 1)."""
        size = gemm_size(problem)
        padded = self.padded(problem)
        return GemmSize(0, padded.m - size.m, padded.k - size.k, padded.n - size.n)

    def padded(self, problem: GemmProblem | ConvProblem) -> GemmSize:
        """The gemm size after padding."""
        return padded_size(gemm_size(problem), self.k_per_block, self.m_per_block, self.n_per_block)

    def grid_size(self, problem: GemmProblem | ConvProblem) -> int:
        """Workgroups: ``g * (m / m_per_block) * (n / n_per_block) * split_k_factor`` on the padded gemm."""
        return _grid_size(self.padded(problem), self.m_per_block, self.n_per_block, self.split_k_factor)
