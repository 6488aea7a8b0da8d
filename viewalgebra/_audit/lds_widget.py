"""rocMLIR's bank-conflict widget (``widget_bank_conflicts``) beside the exact count of the access
rocMLIR really makes, with each difference explained (docs/lds.md, rocMLIR's layouts), as
``compare_vector_lengths`` puts rocMLIR's vector length beside the exact one.

Three answers for one operand's LDS store or read: the widget on its own layout formulas; the
widget's rule (32 banks, 16 lanes, first element, lanes counted) on the addresses of rocMLIR's
maps (the recipes' ``lds_store`` / ``lds_read``); and the exact count (``bank_conflicts`` on
``lds_model(arch)``). The first two differ where the widget's formulas are not rocMLIR's maps,
the last two where its rule is not the hardware's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from .._analyses.lds import BankConflicts, bank_conflicts
from .._analyses.lds_model import lds_model
from .._maps.evaluate import IntArray
from .._recipes.accel_params import accel_params, operand_lds
from .._recipes.arch import Arch, MfmaInstruction
from .._recipes.arch import arch as arch_of
from .._recipes.gemm_to_gridwise import GridwiseGemm
from .._recipes.lds_read import lds_read
from .._recipes.lds_views import lds_store
from .._recipes.perf_config import AccelPerfConfig, Operand
from .._rocmlir.bank_widget import (
    WIDGET_BANKS,
    WIDGET_GROUP,
    WIDGET_WAVE,
    WidgetAnswer,
    WidgetConfig,
    widget_bank_conflicts,
    widget_rule,
)
from ..errors import InvalidArgumentError
from .lds_compare import thread_lds_access

_WIDGET_TYPES = {"f32": "f32", "f16": "f16", "i8": "int8"}


@dataclass(frozen=True, slots=True)
class WidgetComparison:
    """The widget's answer for one LDS access of a perf config, the widget's rule on rocMLIR's real
    addresses, the exact count, and why they differ.

    Example: ``compare_widget(grid, "a", config, "gfx942", "f16", "write").differences``.
    """

    config: WidgetConfig
    """The widget's parameters for the perf config."""
    k_major: bool
    shuffle: bool
    widget: WidgetAnswer
    """The widget on its own layout formulas."""
    widget_rule_degree: int
    """The widget's rule on the addresses of rocMLIR's maps: the largest degree."""
    exact: BankConflicts
    differences: tuple[str, ...]
    """Each reason the answers differ, or nothing when they agree."""

    @property
    def agree(self) -> bool:
        """Whether the widget's worst degree is the exact one."""
        return self.widget.max_degree == self.exact.max_degree


def widget_config(config: AccelPerfConfig, operand: Operand, arch: Arch, dtype: str) -> WidgetConfig:
    """The widget's ``--perf_config``, ``--data-type`` and ``--mfma`` for a perf config."""
    if dtype not in _WIDGET_TYPES:
        raise InvalidArgumentError(f"the widget takes f32, f16 or i8, got {dtype!r}")
    p = accel_params(config, arch, dtype)
    insn = p.instruction
    if not isinstance(insn, MfmaInstruction) or p.wave_size != WIDGET_WAVE:
        raise InvalidArgumentError(f"the widget simulates MFMAs on waves of 64, not {insn.name} on "
                                   f"{arch.name}")
    d = config.m_per_block if operand == "a" else config.n_per_block
    d_per_wave = config.m_per_wave if operand == "a" else config.n_per_wave
    return WidgetConfig(config.block_size(arch), d, config.kpack_per_block, d_per_wave, config.kpack,
                        _WIDGET_TYPES[dtype], insn.mn_per_xdl, insn.k, insn.k_base, insn.input_spans)


def real_starts(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch, dtype: str,
                kind: Literal["read", "write"]) -> IntArray:
    """The element each lane's vector starts at in rocMLIR's maps, ``(waves, instances, 64)``:
    the first element of each vector the exact count counts."""
    if kind == "write":
        access = thread_lds_access(lds_store(grid, operand, config, arch, dtype), arch)
        addresses, _ = access.view.addresses()  # [tid, iter] over the scalars
        starts = addresses[:, ::access.vector_length]
    else:
        read = lds_read(grid, operand, config, arch, dtype)
        addresses, _ = read.view.addresses()  # [tid, d_iter, k_iter]: vector indices
        starts = addresses.reshape(addresses.shape[0], -1) * read.vector_elements
    threads = starts.shape[0]
    per_wave = starts.reshape(threads // WIDGET_WAVE, WIDGET_WAVE, -1).transpose(0, 2, 1)
    return np.ascontiguousarray(per_wave)


def compare_widget(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch | str,
                   dtype: str, kind: Literal["read", "write"]) -> WidgetComparison:
    """rocMLIR's bank-conflict widget (``mlir/utils/widgets/bank_conflicts.py``) for the LDS store
    (``"write"``) or read of ``operand``, beside the exact count of the access rocMLIR's maps make
    on ``arch``, with the reasons they differ (docs/lds.md, rocMLIR's layouts). The widget's
    ``--kmajor`` is the load's k-contiguity, its shuffle is on where rocMLIR rotates or swaps.

    Example: for rocMLIR PR #2196's ``v4:96,256,8,96,32,32,4,...`` (A, f16, gfx942) the widget
    rotates a layout rocMLIR does not rotate.
    """
    target = arch_of(arch) if isinstance(arch, str) else arch
    if not isinstance(target, Arch):
        raise InvalidArgumentError(f"compare_widget: arch must be an Arch or its name, got {arch!r}")
    if kind not in ("read", "write"):
        raise InvalidArgumentError(f"compare_widget: kind must be 'read' or 'write', got {kind!r}")
    wc = widget_config(config, operand, target, dtype)
    own = operand_lds(grid, operand, config, target, dtype)
    k_major = own.vector_dim == "k"
    shuffle = own.rotate_d_with_k or own.swap_thread_iter
    widget = widget_bank_conflicts(wc, kind, k_major=k_major, shuffle=shuffle)
    model = lds_model(target.name)
    access = (thread_lds_access(lds_store(grid, operand, config, target, dtype), target) if kind == "write"
              else thread_lds_access(lds_read(grid, operand, config, target, dtype), target))
    exact = bank_conflicts(access, model)
    starts = real_starts(grid, operand, config, target, dtype, kind)
    on_real = int(widget_rule(starts, wc.element_bytes).max())
    reasons: list[str] = []
    if widget.max_degree != on_real:
        reasons.append(f"layout: the widget's own formulas give {widget.max_degree}-way, its rule on "
                       f"rocMLIR's maps {on_real}-way (its {kind} layout is not rocMLIR's)")
    if on_real != exact.max_degree:
        reasons.extend(_rule_differences(exact, model.banks, model.wave, target.name))
        reasons.append(f"rule: the widget's rule on rocMLIR's maps gives {on_real}-way, the exact count "
                       f"{exact.max_degree}-way ({exact.instruction}, {exact.counter} cycles)")
    return WidgetComparison(wc, k_major, shuffle, widget, on_real, exact, tuple(reasons))


def _rule_differences(exact: BankConflicts, banks: int, wave: int, arch: str) -> list[str]:
    """The ways the widget's rule departs from the model's for the instruction counted."""
    rule = exact.rule
    sizes = sorted({len(g) for g in rule.groups})
    contiguous = all(list(g) == list(range(g[0], g[0] + len(g))) for g in rule.groups)
    out: list[str] = []
    if sizes != [WIDGET_GROUP] or not contiguous:
        shape = "contiguous" if contiguous else "non-contiguous"
        out.append(f"phases: {arch} serves {exact.instruction} as {len(rule.groups)} {shape} phases of "
                   f"{'/'.join(map(str, sizes))} lanes ({rule.provenance}); the widget groups 16 "
                   "consecutive lanes")
    if banks != WIDGET_BANKS:
        out.append(f"banks: {arch} has {banks} banks; the widget 32")
    if wave != WIDGET_WAVE:
        out.append(f"wave: {arch} runs waves of {wave}; the widget 64")
    if exact.width > 4:
        out.append(f"width: a lane's {exact.width} bytes touch {exact.width // 4} banks; the widget counts "
                   "the bank of the first element only")
    if exact.broadcasts:
        out.append(f"broadcast: {exact.broadcasts} lanes share a dword with another lane of their phase and "
                   "are served together; the widget counts every lane")
    return out
