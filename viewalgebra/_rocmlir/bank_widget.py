"""A port of rocMLIR's bank-conflict widget, ``mlir/utils/widgets/bank_conflicts.py`` (ROCm/rocMLIR,
the version at 280764fa17fe), for comparison with the exact count (docs/lds.md, rocMLIR's
layouts).

The widget simulates one workgroup's LDS store and LDS read of one operand under its own rule,
which this module keeps as written:

* 32 banks of 4 bytes, always (``compute_bank``: ``offset_bytes // 4 % 32``);
* waves of 64 lanes, served 16 consecutive lanes at a time for every access width
  (``print_banks``: ``range(0, wave_size, 16)``);
* a lane's bank is the bank of its first element only, however wide its vector;
* the degree of a group is the largest number of *lanes* on one bank (lanes that read the same
  dword are counted, not broadcast).

Its layouts are its own formulas, not rocMLIR's maps: the store (``compute_write_bank_conflicts``)
puts k-major data at ``k_outer x D x k_pack`` with ``d`` rotated by ``k_outer`` (``rotate``), and
d-major data at column ``(m * d_threads + tid) % D`` (a rotation of the thread's d iterations by
its k thread, where rocMLIR swaps without rotating); the read (``compute_read_bank_conflicts``)
reads row ``lane % mfma_d`` of block ``lane // mfma_d`` (``blocks`` of them, in k), the repeat
``m`` at ``m * wave_size`` and the k iteration ``k`` at ``k * D``. Without shuffling
(``--no-shuffle``) a k-major store's column is ``grow`` unscaled by ``k_pack`` (the widget's
offset, kept).

Not ported, as they crash in the widget: its read path (``main`` unpacks the dict that
``compute_read_bank_conflicts`` returns into two names, a ``ValueError`` unless there are exactly
two waves and then a ``TypeError`` in ``print_banks``) and ``--show-config`` (``Config.__str__``
reads ``self.M``, ``self.blocksize`` and ``self.dataperthreadAlongM``, which ``Config`` does not
set). The read function itself runs and is ported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..errors import ConfigParseError, InvalidArgumentError

IntArray = npt.NDArray[np.int64]

WIDGET_BANKS = 32
"""The widget's bank count, for every arch."""
WIDGET_GROUP = 16
"""Lanes the widget serves together, for every access width."""
WIDGET_WAVE = 64
"""The widget's wave size."""
_ELEMENT_BYTES = {"f32": 4, "f16": 2, "int8": 1}
"""``Config.compute_element_size_bytes``: the only types the widget takes."""


@dataclass(frozen=True, slots=True)
class WidgetConfig:
    """The widget's ``Config`` and ``Mfma``: ``--perf_config "block_size,D,k_outer,d_per_wave,k_pack"``,
    ``--data-type`` (f32, f16, int8) and ``--mfma "mfma_d,mfma_k,kbase,blocks"``.

    Example: ``WidgetConfig.parse("256,128,4,64,8", "f16", "32,32,8,2")``, the widget's own example.
    """

    block_size: int
    d: int
    """``D``: the tile's d (``mPerBlock`` or ``nPerBlock``)."""
    k_outer: int
    """``kpackPerBlock``."""
    d_per_wave: int
    k_pack: int
    data_type: str
    mfma_d: int
    mfma_k: int
    k_base: int
    blocks: int
    """The MFMA's blocks, summed over k (its input spans)."""

    def __post_init__(self) -> None:
        if self.data_type not in _ELEMENT_BYTES:
            raise InvalidArgumentError(f"the widget takes f32, f16 or int8, got {self.data_type!r}")
        for name in ("block_size", "d", "k_outer", "d_per_wave", "k_pack", "mfma_d", "mfma_k", "k_base",
                     "blocks"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgumentError(f"WidgetConfig: {name} must be a positive int, got {value!r}")
        if self.block_size % WIDGET_WAVE:
            raise InvalidArgumentError(f"WidgetConfig: block_size {self.block_size} is not a multiple of the "
                                       f"widget's wave of {WIDGET_WAVE}")
        if (self.d * self.k) % self.block_size or self.copy_per_thread % self.k_pack:
            raise InvalidArgumentError(f"WidgetConfig: D * k = {self.d * self.k} is not {self.block_size} "
                                       f"threads times a multiple of k_pack {self.k_pack}")

    @staticmethod
    def parse(perf_config: str, data_type: str, mfma: str) -> WidgetConfig:
        """The widget's command line values, as ``Config.parse_config`` and ``Mfma.parse_mfma``
        read them."""
        fields = [_integers(perf_config, 5, "perf_config"), _integers(mfma, 4, "mfma")]
        block_size, d, k_outer, d_per_wave, k_pack = fields[0]
        mfma_d, mfma_k, k_base, blocks = fields[1]
        return WidgetConfig(block_size, d, k_outer, d_per_wave, k_pack, data_type, mfma_d, mfma_k, k_base,
                            blocks)

    @property
    def k(self) -> int:
        return self.k_outer * self.k_pack

    @property
    def element_bytes(self) -> int:
        return _ELEMENT_BYTES[self.data_type]

    @property
    def copy_per_thread(self) -> int:
        return self.d * self.k // self.block_size

    @property
    def copy_d_per_thread(self) -> int:
        """``copyDPerThread = copy_per_thread // k_pack``."""
        return self.copy_per_thread // self.k_pack

    @property
    def waves(self) -> int:
        return self.block_size // WIDGET_WAVE


def _integers(text: str, count: int, what: str) -> tuple[int, ...]:
    parts = text.split(",")
    message = f"--{what} needs {count} comma-separated integers, got {text!r}"
    if len(parts) != count:
        raise ConfigParseError(message, text, 0, text)
    try:
        return tuple(int(p.strip()) for p in parts)
    except ValueError:
        raise ConfigParseError(message, text, 0, text) from None


def _rotate(config: WidgetConfig, row: IntArray, col: IntArray) -> IntArray:
    """The widget's ``rotate``: column ``(row + col) % D`` in elements (times ``k_pack``)."""
    return (row + col) % config.d * config.k_pack


def widget_offsets(config: WidgetConfig, kind: Literal["read", "write"], *, k_major: bool,
                   shuffle: bool = True) -> IntArray:
    """The LDS element offset each lane's access starts at, as the widget computes it: shape
    ``(waves, m, k, 64)`` (a write has one ``k``; a read ``d_per_wave // mfma_d`` repeats ``m``
    and ``k_outer // blocks`` iterations ``k``). ``k_major`` is ``--kmajor``, ``shuffle`` is the
    opposite of ``--no-shuffle``.

    Example: the widget's example ``256,128,4,64,8`` f16, k-major, writes lane 1 of wave 0 at
    ``m = 0`` to offset ``1 * 128 * 8 + (1 + 0) % 128 * 8 = 1032``.
    """
    if kind not in ("read", "write"):
        raise InvalidArgumentError(f"kind must be 'read' or 'write', got {kind!r}")
    tid = np.arange(config.block_size, dtype=np.int64)
    if kind == "write":
        m = np.arange(config.copy_d_per_thread, dtype=np.int64)[None, :]
        t = tid[:, None]
        if k_major:
            tk = t * config.k_pack
            grow = m + config.copy_d_per_thread * (tk // config.k)
            gcol = tk % config.k
            lrow = gcol // config.k_pack % config.k_outer
            lcol = _rotate(config, lrow, grow) if shuffle else grow
        else:
            td = t * config.copy_d_per_thread
            grow = td // config.d * config.k_pack
            gcol = (m + td) % config.d
            lrow = grow // config.k_pack % config.k_outer
            d_threads = config.d // config.copy_d_per_thread
            lcol = ((m * d_threads + t) % config.d * config.k_pack if shuffle else gcol * config.k_pack)
        offsets = lrow * config.d * config.k_pack + lcol  # (tid, m)
        per_wave = offsets.reshape(config.waves, WIDGET_WAVE, -1).transpose(0, 2, 1)
        return per_wave[:, :, None, :].copy()
    kpack_per_mfma = config.k_outer // config.blocks
    d_repeats = config.d_per_wave // config.mfma_d
    if kpack_per_mfma < 1 or d_repeats < 1:
        raise InvalidArgumentError(f"the widget's read needs k_outer >= blocks and d_per_wave >= mfma_d, got "
                                   f"{config.k_outer}, {config.blocks}, {config.d_per_wave}, {config.mfma_d}")
    wave, lane = tid // WIDGET_WAVE, tid % WIDGET_WAVE
    t_wave, t_lane = wave[:, None, None], lane[:, None, None]
    m = np.arange(d_repeats, dtype=np.int64)[None, :, None]
    k = np.arange(kpack_per_mfma, dtype=np.int64)[None, None, :]
    offset = (t_lane % config.mfma_d + t_lane // config.mfma_d * config.blocks * config.d
              + config.mfma_d * (t_wave // d_repeats) + m * WIDGET_WAVE + k * config.d)
    lcol, lrow = offset % config.d, offset // config.d
    if shuffle and k_major:
        lcol = _rotate(config, lrow, lcol)
    offsets = (lrow * config.d + lcol) * config.k_pack  # (tid, m, k)
    return offsets.reshape(config.waves, WIDGET_WAVE, d_repeats, kpack_per_mfma).transpose(0, 2, 3, 1).copy()


@dataclass(frozen=True, slots=True)
class WidgetAnswer:
    """What the widget prints, as numbers: for every wave, instance and group of 16 lanes, the
    largest number of lanes whose first element falls in one of 32 banks (its "N-way bank
    conflicts").

    Example: ``widget_bank_conflicts(WidgetConfig.parse("256,64,8,32,4", "f16", "32,32,8,2"),
    "write", k_major=True).max_degree``.
    """

    offsets: IntArray
    """``widget_offsets``: ``(waves, m, k, 64)`` start elements."""
    degrees: IntArray
    """``(waves, m, k, 4)``: the widget's degree of each group of 16 lanes."""
    element_bytes: int

    @property
    def max_degree(self) -> int:
        return int(self.degrees.max())

    @property
    def counter(self) -> int:
        """The sum over groups of ``degree - 1``: the cycles the widget's rule would predict."""
        return int((self.degrees - 1).sum())


def widget_rule(offsets: IntArray, element_bytes: int) -> IntArray:
    """The widget's degree of start offsets ``(..., lanes)`` (lanes a multiple of 16): per group of
    16 consecutive lanes, the most lanes on one of 32 banks, a lane's bank being that of its
    first element (``compute_bank``, ``print_banks``)."""
    lanes = offsets.shape[-1]
    if lanes % WIDGET_GROUP:
        raise InvalidArgumentError(f"widget_rule: {lanes} lanes are not groups of {WIDGET_GROUP}")
    banks = offsets * element_bytes // 4 % WIDGET_BANKS
    grouped = banks.reshape(*offsets.shape[:-1], lanes // WIDGET_GROUP, WIDGET_GROUP)
    counts = (grouped[..., :, None] == np.arange(WIDGET_BANKS)).sum(axis=-2)
    return counts.max(axis=-1).astype(np.int64)


def widget_bank_conflicts(config: WidgetConfig, kind: Literal["read", "write"], *, k_major: bool,
                          shuffle: bool = True) -> WidgetAnswer:
    """rocMLIR's bank-conflict widget (``mlir/utils/widgets/bank_conflicts.py``), its layouts and
    its rule as written: 32 banks, groups of 16 lanes, the bank of a lane's first element, lanes
    counted (docs/lds.md, rocMLIR's layouts).

    Example: ``widget_bank_conflicts(WidgetConfig.parse("256,128,4,64,8", "f16", "32,32,8,2"),
    "write", k_major=True)`` is what ``bank_conflicts.py --perf_config=256,128,4,64,8
    --data-type=f16 --mfma=32,32,8,2 --kmajor --show-conflicts`` prints.
    """
    offsets = widget_offsets(config, kind, k_major=k_major, shuffle=shuffle)
    return WidgetAnswer(offsets, widget_rule(offsets, config.element_bytes), config.element_bytes)
