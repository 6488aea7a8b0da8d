"""rocMLIR's width of a per-thread access (``va.rocmlir.rocmlir_threadwise_width``): each rule of
ThreadwiseReadIntoRewritePattern / getThreadwiseReadIntoLoopInfo and
ThreadwiseWriteAllRewritePattern (docs/audit.md, rocMLIR's width)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import views

import viewalgebra as va
import viewalgebra.gridwise as gw

width = va.rocmlir.rocmlir_threadwise_width


def flat(dtype: str, threads: int = 4, per_thread: int = 8) -> va.View:
    """``[t, iter] -> [x]``: thread ``t`` owns ``per_thread`` consecutive elements."""
    tm = va.parse_transform_map(
        f'<affine_map<(d0, d1) -> (d0 * {per_thread} + d1)> by [<Unmerge{{{threads}, {per_thread}}} ["t", "iter"] '
        f'at [0, 1] -> ["x"] at [0]>] bounds = [{threads}, {per_thread}] -> [{threads * per_thread}]>')
    return va.View(va.Buffer((threads * per_thread,), dtype), [tm])


def transposed(dtype: str) -> va.View:
    """``[t, iter] -> [iter, t]`` over ``[8, 4]``: ``iter`` steps by 4 elements."""
    tm = va.parse_transform_map(
        '<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["iter", "t"] at [1, 0] -> ["r", "c"] at [0, 1]>] '
        'bounds = [4, 8] -> [8, 4]>')
    return va.View(va.Buffer((8, 4), dtype), [tm])


def test_a_read_is_get_max_vectorization_capped_at_128_bits():
    assert width(flat("f16"), 1, op="read_into") == 8
    assert width(flat("f32"), 1, op="read_into") == 4  # gcd(128 / 32, 8)
    assert width(flat("i8", per_thread=32), 1, op="read_into") == 16
    assert width(flat("f16"), 1, 4, op="read_into") == 4  # numValues 4: gcd(4, 8)
    assert width(transposed("f16"), 1, op="read_into") == 1


def test_a_read_from_a_vector_buffer_reads_its_vectors():
    # isSrcVectorBuffer: the load type is the element, whatever the view allows.
    assert width(transposed("f16"), 1, op="read_into", vector_elements=4) == 4


def test_direct_to_lds_is_capped_at_the_archs_width_and_then_must_be_4_or_16_bytes():
    assert width(flat("f16"), 1, op="read_into", direct_to_lds_bits=128) == 8
    assert width(flat("f16"), 1, op="read_into", direct_to_lds_bits=32) == 2  # PR #2097's cap
    assert width(flat("f32"), 1, op="read_into", direct_to_lds_bits=32) == 1  # 4 bytes: accepted
    with pytest.raises(va.errors.RocmlirRuleError, match=re.escape(
            "global to LDS is only supported for 128-bit or 32-bit loads currently: 1 x f16 is 16 bits")):
        width(transposed("f16"), 1, op="read_into", direct_to_lds_bits=128)
    with pytest.raises(va.errors.RocmlirRuleError, match="64 bits"):  # 4 x f16: neither 4 nor 16 bytes
        width(flat("f16"), 1, 4, op="read_into", direct_to_lds_bits=128)
    with pytest.raises(va.errors.RocmlirRuleError, match="not supported by the hardware"):
        width(flat("f16"), 1, op="read_into", direct_to_lds_bits=0)
    with pytest.raises(va.errors.RocmlirRuleError, match="vector buffers"):
        width(flat("f16"), 1, op="read_into", direct_to_lds_bits=128, vector_elements=4)


def test_dynamic_validities_force_a_read_to_1():
    assert width(flat("f16"), 1, op="read_into", dynamic_validity=True) == 1
    assert width(flat("f16"), 1, op="read_into", vector_elements=4, dynamic_validity=True) == 1
    # ... after the direct-to-LDS cap, so the lowering then sees a 2-byte load and fails.
    with pytest.raises(va.errors.RocmlirRuleError, match="16 bits"):
        width(flat("f16"), 1, op="read_into", direct_to_lds_bits=128, dynamic_validity=True)


def test_static_validity_checks_do_not_force_1():
    # A padded view needs rocMLIR's validity checks (rocmlir_validity_checks) but keeps its width:
    # getMaxVectorization's Pad rule sees the padding.
    tm = va.parse_transform_map('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["t", "iter"] at [0, 1] '
                                '-> ["xp"] at [0]>] bounds = [4, 8] -> [32]>')
    pad = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<Pad{0, 8} ["xp"] at [0] -> ["x"] at [0]>] '
                                 'bounds = [32] -> [24]>')
    view = va.View(va.Buffer((24,), "f16"), [tm, pad])
    assert va.rocmlir.rocmlir_validity_checks(pad) == (0,)
    assert width(view, 1, op="read_into") == 8


def test_a_write_to_a_vector_element_writes_the_vector():
    assert width(transposed("f16"), 1, op="write_all", vector_elements=8) == 8
    assert width(transposed("f16"), 1, op="write_all") == 1


def test_a_write_vectorizes_over_the_whole_dim():
    # ThreadwiseWriteAllRewritePattern passes no inputDimLen: numValues is not used.
    assert width(flat("f16"), 1, 2, op="write_all") == 8
    with pytest.raises(va.errors.InvalidArgumentError, match="properties of a read"):
        width(flat("f16"), 1, op="write_all", direct_to_lds_bits=128)


@given(view=views(max_maps=2, max_rank=3), data=st.data())
@settings(derandomize=True, max_examples=60, deadline=None)
def test_without_the_special_cases_both_are_get_max_vectorization_with_the_data_type_cap(view, data):
    if view.rank == 0:
        return
    dim = data.draw(st.integers(0, view.rank - 1))
    if view.shape[dim] < 1:
        return
    try:
        expected = va.rocmlir.rocmlir_vector_length(view, dim, limit_for_data_type=True)
    except va.errors.RocmlirRuleError:
        return
    assert width(view, dim, op="read_into") == expected
    assert width(view, dim, op="write_all") == expected


def test_the_access_level_rule_reads_the_arch():
    view = flat("f16")
    load = gw.ThreadAccess("a", "global_load", view, "iter", 8, "f16")
    assert gw.rocmlir_width(load) == 8
    assert gw.rocmlir_width(load, gw.arch("gfx942"), direct_to_lds=True) == 2  # direct_to_lds_32b
    assert gw.rocmlir_width(load, gw.arch("gfx950"), direct_to_lds=True) == 8  # direct_to_lds_128b
    with pytest.raises(va.errors.RocmlirRuleError, match="not supported by the hardware"):
        gw.rocmlir_width(load, gw.arch("gfx90a"), direct_to_lds=True)
    store = gw.ThreadAccess("b", "lds_store", transposed("f16"), "iter", 8, "f16", vector_elements=4)
    assert gw.rocmlir_width(store) == 4
