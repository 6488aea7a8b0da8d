"""LDS bank conflicts: the published MI300X counters, an independent per-lane count on random
views for every architecture, kind and width, the ISL decision, and precise errors."""

from __future__ import annotations

import pytest

import viewalgebra as va

T = va.transforms

CDNA3 = "nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md"

# (table, instruction width in bytes, byte stride between lanes, bank conflicts per 64-read block)
PUBLISHED = [
    *[("ds_read_b32 Latencies", 4, s, c) for s, c in
      ((4, 0), (8, 128), (16, 384), (32, 896), (64, 1920), (128, 3968), (256, 3968), (512, 3968))],
    *[("ds_read_b64 Latencies", 8, s, c) for s, c in
      ((8, 0), (16, 256), (32, 768), (64, 1792), (128, 3840), (256, 3840), (512, 3840))],
    *[("ds_read_b128 Latencies", 16, s, c) for s, c in
      ((16, 0), (32, 512), (64, 1536), (128, 3584), (256, 3584), (512, 3584))],
]
"""The MI300X (gfx942) counter values of nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md:
one wave, lane ``l`` reading ``width`` bytes at byte ``l * stride``, 64 reads per block."""


def stride_access(lanes: int, stride: int, width: int, kind: va.lds.LdsKind = "read",
                  reads: int = 1) -> va.lds.LdsAccess:
    """Lane ``l`` accesses ``width`` bytes (f32 elements) at byte ``l * stride``, ``reads`` times
    (an instance dim that reads the same addresses again)."""
    v, n = width // 4, stride // 4
    size = (lanes - 1) * n + v
    tm = va.TransformMap((T.Embed((n, 1), ("tid", "e"), (0, 1), ("a",), (0,)),
                          T.AddDim((reads,), ("rep",), (2,), (), ())), (lanes, v, reads), (size,))
    view = va.View(va.Buffer((size,), "f32"), (tm,))
    return va.lds.LdsAccess(view, "tid", "e" if v > 1 else None, v, kind)


@pytest.mark.parametrize(("table", "width", "stride", "counter"), PUBLISHED)
def test_published_mi300x_counters(table: str, width: int, stride: int, counter: int) -> None:
    """Source: nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md, table ``table``."""
    r = va.lds.bank_conflicts(stride_access(64, stride, width, reads=64), va.lds.lds_model("gfx942"))
    assert r.instruction == f"ds_read_b{width * 8}"
    assert r.split is None
    assert r.counter == counter, f"{CDNA3}, {table}, stride {stride}"
    assert r.degrees.shape == (1, 64, 1, 64 * width // 128)


def test_saturated_counts_per_read_are_those_of_the_summary_table() -> None:
    """cdna3info.md, Summary: 62, 60 and 56 saturated conflicts per ds_read."""
    model = va.lds.lds_model("gfx942")
    got = [va.lds.bank_conflicts(stride_access(64, 512, w), model).per_instruction for w in (4, 8, 16)]
    assert got == [62, 60, 56]


def test_witness_names_the_dwords_sharing_a_bank() -> None:
    r = va.lds.bank_conflicts(stride_access(64, 256, 16), va.lds.lds_model("gfx942"))
    w = r.witness
    assert w is not None and r.max_degree == 8
    assert (w.wave, w.instance, w.phase, w.bank) == (0, (0,), 0, 0)
    assert w.lanes == ((0,), (1,), (2,), (3,), (20,), (21,), (22,), (23,))
    assert w.dwords == tuple(64 * lane for lane in (0, 1, 2, 3, 20, 21, 22, 23))
