"""rocMLIR's LDS layouts judged exactly (docs/lds.md, rocMLIR's layouts): the layout variants the
rock maps express deliver the same data (numpy), the scores of ``compare_lds_layouts`` against an
independent brute-force count of gfx942's phases, the three cases worked out in the docs, the LDS
accesses read from rocMLIR's IR, and the port of rocMLIR's bank-conflict widget against a
lane-by-lane reading of its description."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

GFX942 = gw.arch("gfx942")
ROOT = Path(__file__).parent.parent
LIT = "v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1"
"""``@mlir_dot_sigmoid`` of rocMLIR's align-tiling-non-contiguous-strides.mlir: 16x16 MFMA, kpack 8."""
LIT_32 = "v4:32,32,8,32,32,32,8,1,1,2,0,0,1,1"
"""The same with the 32x32 MFMA."""
PR2196 = "v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1"
"""rocMLIR PR #2196's config (kpack 4, A copied 2 x 3)."""


def grid_of(problem: gw.GemmProblem, config: gw.AccelPerfConfig) -> gw.GridwiseGemm:
    return gw.gridwise_views(problem, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                             kpack_per_block=config.kpack_per_block, kpack=config.kpack)


def parsed(text: str) -> gw.AccelPerfConfig:
    config = gw.PerfConfig.parse(text)
    assert isinstance(config, gw.AccelPerfConfig)
    return config


LIT_PROBLEM = gw.GemmProblem(g=4, m=24, n=24, k=16, dtype="f16")
PR2196_PROBLEM = gw.GemmProblem(m=960, n=1024, k=1024, dtype="f16", transpose_a=True)


# {{{ the variants deliver the same data


@st.composite
def cases(draw: st.DrawFn) -> tuple[gw.GridwiseGemm, gw.AccelPerfConfig, str, str]:
    dtype = draw(st.sampled_from(["f16", "f32"]))
    m_per_block = draw(st.sampled_from([16, 32, 64]))
    n_per_block = draw(st.sampled_from([16, 32]))
    kpack = draw(st.sampled_from([1, 2, 4, 8]))
    kpack_per_block = draw(st.sampled_from([2, 4, 8]))
    xdl = draw(st.sampled_from([16, 32]))
    assume(xdl <= min(m_per_block, n_per_block) and kpack * kpack_per_block <= 32)
    config = gw.AccelPerfConfig(m_per_block=m_per_block, n_per_block=n_per_block, kpack_per_block=kpack_per_block,
                                m_per_wave=xdl, n_per_wave=xdl, mn_per_xdl=xdl, kpack=kpack)
    problem = gw.GemmProblem(m=m_per_block, n=n_per_block, k=config.k_per_block, dtype=dtype,
                             transpose_a=draw(st.booleans()), transpose_b=draw(st.booleans()))
    grid, operand = grid_of(problem, config), draw(st.sampled_from(["a", "b"]))
    try:
        gw.accel_params(config, GFX942, dtype)
        gw.operand_lds(grid, operand, config, GFX942, dtype)
    except va.errors.RocmlirRuleError:  # rocMLIR would not lower it either
        assume(False)
    return grid, config, dtype, operand


def delivered(grid: gw.GridwiseGemm, operand: str, config: gw.AccelPerfConfig, dtype: str,
              flags: gw.LdsLayout) -> tuple[np.ndarray, np.ndarray]:
    """The tile (k, d) each read element holds when the store wrote through ``flags`` and the read
    reads through the same flags: ``(k, d)`` arrays of shape ``[tid, d_iter, k_iter, kpack]``. The
    register ``(tid, iter)`` holds the (k, d) the plain store puts where it puts it."""
    d_size, kpack = (config.m_per_block if operand == "a" else config.n_per_block), config.kpack
    plain = gw.lds_store(grid, operand, config, GFX942, dtype, lds=gw.LdsLayout(False, False)).view.addresses()[0]
    held_k = plain // (d_size * kpack) * kpack + plain % kpack
    held_d = plain // kpack % d_size
    store = gw.lds_store(grid, operand, config, GFX942, dtype, lds=flags).view.addresses()[0]
    assert np.bincount(store.ravel()).tolist() == [1] * (config.k_per_block * d_size)  # each element once
    memory = np.full(config.k_per_block * d_size, -1)
    memory[store.ravel()] = np.arange(store.size)
    own = gw.operand_lds(grid, operand, config, GFX942, dtype)
    read = gw.lds_read(grid, operand, config, GFX942, dtype,
                       layout=gw.OperandLds(own.vector_dim, own.d_per_thread, own.k_per_thread, flags))
    vectors = read.view.addresses()[0]
    cells = memory[vectors[..., None] * kpack + np.arange(kpack)]
    return held_k.ravel()[cells], held_d.ravel()[cells]


@given(case=cases(), stride=st.integers(1, 8), swap=st.booleans())
@settings(derandomize=True, max_examples=30, deadline=None)
def test_every_layout_variant_delivers_each_thread_the_same_elements(
        case: tuple[gw.GridwiseGemm, gw.AccelPerfConfig, str, str], stride: int, swap: bool) -> None:
    """A rotation of any stride, applied to the store and the read of the same tile, gives every
    thread the elements the unrotated layout gives it; the swap gives row ``sigma(d)`` for row
    ``d`` (``d_iter * d_threads + d_thread`` holds ``d_thread * copy_d + d_iter``), the permutation
    rocMLIR's C store undoes (``swapThreadIdAndIteration``), rotated or not."""
    grid, config, dtype, operand = case
    d_size = config.m_per_block if operand == "a" else config.n_per_block
    assume(stride < d_size)
    plain_k, plain_d = delivered(grid, operand, config, dtype, gw.LdsLayout(False, False))
    flags = gw.LdsLayout(True, swap, rotate_stride=stride)
    got_k, got_d = delivered(grid, operand, config, dtype, flags)
    assert (got_k == plain_k).all()
    if not swap:
        assert (got_d == plain_d).all()
        return
    copy_d = gw.operand_lds(grid, operand, config, GFX942, dtype).d_per_thread
    d_threads = d_size // copy_d
    assert (got_d == plain_d % d_threads * copy_d + plain_d // d_threads).all()
    swapped_k, swapped_d = delivered(grid, operand, config, dtype, gw.LdsLayout(False, True))
    assert (swapped_k == got_k).all() and (swapped_d == got_d).all()


def test_the_default_stride_is_rocmlirs_and_bad_strides_are_refused() -> None:
    assert gw.LdsLayout(True, False).stride(3, 1) == 3 and gw.LdsLayout(True, False).stride(3, 4) == 1
    assert gw.LdsLayout(True, False, rotate_stride=5).stride(3, 1) == 5
    for bad in (0, -1, True, 2.0):
        with pytest.raises(va.errors.InvalidArgumentError, match="rotate_stride must be a positive int"):
            gw.LdsLayout(True, False, rotate_stride=bad)  # type: ignore[arg-type]


# }}}
# {{{ an independent count on gfx942


def gfx942_phase(lanes: np.ndarray, kind: str, width: int) -> np.ndarray:
    """gfx942's phase of each lane (docs/lds.md, The model): b128 reads in cosets of span{1, 2, 20}
    within each half wave, b128 writes 8 consecutive lanes, b64 16, b32 and narrower 32."""
    if width == 16 and kind == "read":
        return lanes // 32 * 4 + lanes // 8 % 2 * 2 + (lanes // 4 + lanes // 16) % 2
    return lanes // {16: 8, 8: 16}.get(width, 32)


def brute_force(starts: np.ndarray, element_bytes: int, elements: int, kind: str) -> tuple[int, int]:
    """(counter, worst degree) of instructions whose lanes start at ``starts[tid, instance]``
    (elements), each ``elements`` wide: per wave, instance and phase, the most distinct dwords on
    one of 32 banks, lane by lane."""
    width = element_bytes * elements
    threads, instances = starts.shape
    counter, worst = 0, 1
    for wave in range(0, threads, 64):
        for i in range(instances):
            phases: dict[int, dict[int, set[int]]] = {}
            for lane in range(min(64, threads - wave)):
                first = starts[wave + lane, i] * element_bytes // 4
                phase = int(gfx942_phase(np.array(lane), kind, width))
                for dword in range(first, first + max(width // 4, 1)):
                    phases.setdefault(phase, {}).setdefault(dword % 32, set()).add(dword)
            for banks in phases.values():
                degree = max(len(d) for d in banks.values())
                counter += degree - 1
                worst = max(worst, degree)
    return counter, worst


def contiguous_aligned(addresses: np.ndarray, width: int) -> bool:
    """Whether every run of ``width`` iterations (``addresses[tid, iter]``) is ``width`` consecutive
    elements starting at a multiple of ``width``."""
    runs = addresses.reshape(addresses.shape[0], -1, width)
    return bool((runs == runs[..., :1] + np.arange(width)).all() and (runs[..., 0] % width == 0).all())


def brute_scores(grid: gw.GridwiseGemm, operand: str, config: gw.AccelPerfConfig, dtype: str,
                 flags: gw.LdsLayout) -> tuple[tuple[int, int], tuple[int, int]]:
    own = gw.operand_lds(grid, operand, config, GFX942, dtype)
    store = gw.lds_store(grid, operand, config, GFX942, dtype, lds=flags)
    scalars = gw.scalar_access(store).view.addresses()[0]
    width = gw.rocmlir_width(store)
    while width > 1 and not contiguous_aligned(scalars, width):  # the backend splits such a vector
        width //= 2
    bytes_ = va.Buffer((1,), dtype).bits // 8
    write = brute_force(scalars[:, ::width], bytes_, width, "write")
    read = gw.lds_read(grid, operand, config, GFX942, dtype,
                       layout=gw.OperandLds(own.vector_dim, own.d_per_thread, own.k_per_thread, flags))
    vectors = read.view.addresses()[0]
    reads = brute_force(vectors.reshape(vectors.shape[0], -1) * config.kpack, bytes_, config.kpack, "read")
    return write, reads


def check_rows(comparison: va.lds.LayoutComparison, grid: gw.GridwiseGemm, config: gw.AccelPerfConfig,
               dtype: str) -> None:
    for row in comparison.rows:
        write, read = brute_scores(grid, comparison.operand, config, dtype, row.variant.flags)
        assert (row.write.counter, row.write.max_degree) == write, row.row()
        assert (row.read.counter, row.read.max_degree) == read, row.row()


@given(case=cases())
@settings(derandomize=True, max_examples=12, deadline=None)
def test_every_row_is_the_brute_force_count(case: tuple[gw.GridwiseGemm, gw.AccelPerfConfig, str, str]) -> None:
    grid, config, dtype, operand = case
    assume(config.kpack * (2 if dtype == "f16" else 4) <= 16)
    comparison = va.lds.compare_lds_layouts(grid, operand, config, "gfx942", dtype, strides=[1, 2, 3])
    assert comparison.rows[0].rocmlir and sum(r.rocmlir for r in comparison.rows) == 1
    check_rows(comparison, grid, config, dtype)
    best = comparison.best
    assert all(best.cycles <= r.cycles for r in comparison.rows)
    assert (comparison.kind in ("suboptimal", "model-uncertain")) == (best.cycles < comparison.rocmlir.cycles)


# }}}
# {{{ the cases of docs/lds.md


def test_the_16x16_rotation_fixes_the_writes_and_breaks_the_reads() -> None:
    """rocMLIR's ``@mlir_dot_sigmoid`` on gfx942: A rotated (``rotateDWithK = true`` in the
    test): ``ds_write_b128`` 8-way without, conflict-free with; ``ds_read_b128`` conflict-free
    without, 2-way with on every phase, lanes 0-3 and 20-23 of one phase on one bank."""
    config = parsed(LIT)
    grid = grid_of(LIT_PROBLEM, config)
    text = (DATA / "gridwise" / "align-tiling-non-contiguous-strides.mlir").read_text()
    assert re.search(r"matrixParamsA = #rock.blockwise_matrix_params<[^>]*rotateDWithK = true", text)
    comparison = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16")
    check_rows(comparison, grid, config, "f16")
    rows = {r.variant.label: r for r in comparison.rows}
    theirs, plain = comparison.rocmlir, rows["plain"]
    assert theirs.variant == va.lds.LayoutVariant(1, False)
    assert (plain.instructions, plain.degrees) == (("ds_write_b128", "ds_read_b128"), (8, 1))
    assert theirs.degrees == (1, 2)
    assert (theirs.read.degrees == 2).all()  # every phase of every read
    witness = theirs.read.witness
    assert witness is not None
    assert theirs.read.rule.groups[witness.phase] == (0, 1, 2, 3, 20, 21, 22, 23)
    first, second = (set(lanes) for lanes in witness.lanes)
    assert first <= {0, 1, 2, 3} and second <= {20, 21, 22, 23}  # lane l and lane l + 20 or so: one bank
    assert comparison.kind == "trade-off" and comparison.verdict == "trade-off (fixes writes, breaks reads)"


def test_the_32x32_rotation_is_conflict_free_both_ways() -> None:
    config = parsed(LIT_32)
    grid = grid_of(LIT_PROBLEM, config)
    comparison = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16")
    check_rows(comparison, grid, config, "f16")
    assert comparison.rocmlir.variant == va.lds.LayoutVariant(1, False)
    assert comparison.rocmlir.degrees == (1, 1) and comparison.rocmlir.cycles == 0
    assert next(r for r in comparison.rows if r.variant.label == "plain").degrees == (8, 1)
    assert comparison.verdict == "optimal"


def test_pr2196_rotates_nothing_and_a_stride_2_rotation_would_be_conflict_free() -> None:
    """kpack 4 < 8 and copy_d 3 > 1: rocMLIR neither rotates nor swaps; its ``ds_write_b32`` is
    8-way; a rotation of stride 2 makes the store conflict-free and leaves the ``ds_read_b64``
    conflict-free. The write rule of b32 is assumed, so the verdict is model-uncertain."""
    config = parsed(PR2196)
    grid = grid_of(PR2196_PROBLEM, config)
    comparison = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16", strides=[1, 2])
    check_rows(comparison, grid, config, "f16")
    theirs = comparison.rocmlir
    assert theirs.variant == va.lds.LayoutVariant(0, False)
    assert theirs.instructions == ("ds_write_b32", "ds_read_b64") and theirs.degrees == (8, 1)
    best = comparison.best
    assert best.variant == va.lds.LayoutVariant(2, False) and best.degrees == (1, 1)
    assert [r.provenance for r in theirs.write.assumed] == ["assumed"] and not theirs.read.assumed
    assert comparison.kind == "model-uncertain"
    assert comparison.verdict == ("model-uncertain (rocMLIR 336 extra cycles if the assumed write b32 rule "
                                  "holds; best: rotate(stride 2))")


def test_swap_and_rotation_together_fix_what_neither_fixes_alone() -> None:
    """kpack 4, A copied 8 x 4 along k: rocMLIR neither rotates nor swaps (d could be vectorized);
    its ``ds_write_b64`` is 4-way, a rotation of stride 2 alone leaves it 4-way, the swap with that
    rotation (which rocMLIR's exclusive flags never make) is conflict-free, reads too."""
    config = parsed("v4:64,64,8,64,64,32,4,1,1,2,0,0,1,1")
    grid = grid_of(gw.GemmProblem(m=256, n=256, k=256, dtype="f16"), config)
    comparison = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16", strides=[2])
    check_rows(comparison, grid, config, "f16")
    rows = {r.variant.label: r for r in comparison.rows}
    assert comparison.rocmlir.variant.label == "plain" and comparison.rocmlir.degrees == (4, 1)
    assert comparison.rocmlir.instructions == ("ds_write_b64", "ds_read_b64")
    assert rows["rotate(stride 2)"].degrees == (4, 1) and rows["swap"].degrees == (4, 1)
    assert comparison.best.variant.label == "swap + rotate(stride 2)" and comparison.best.cycles == 0
    assert comparison.kind == "model-uncertain"


def test_a_rotation_that_leaves_conflicts_is_suboptimal_by_documented_rules() -> None:
    """kpack 8, 64 threads, A copied 8 x 2 along k: rocMLIR rotates by 1 and its ``ds_write_b128``
    stays 2-way (lanes 2 and 4 on one bank); the swap with a rotation of stride 2 is conflict-free.
    Both instructions' phases are documented or measured: ``suboptimal``."""
    config = parsed("v4:32,32,4,32,32,32,8,1,1,2,0,0,1,1")
    grid = grid_of(gw.GemmProblem(m=256, n=256, k=256, dtype="f16"), config)
    comparison = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16", strides=[1, 2])
    check_rows(comparison, grid, config, "f16")
    theirs = comparison.rocmlir
    assert theirs.variant.label == "rotate(stride 1)" and theirs.degrees == (2, 1) and theirs.cycles == 16
    assert not theirs.assumed and not comparison.best.assumed
    assert comparison.best.variant.label == "swap + rotate(stride 2)" and comparison.best.cycles == 0
    assert comparison.verdict == "rocMLIR suboptimal (16 extra cycles; best: swap + rotate(stride 2))"
    exact = va.lds.compare_lds_layouts(grid, "a", config, "gfx942", "f16", strides=[1, 2], width="exact")
    assert [(r.cycles, r.instructions) for r in exact.rows] == [(r.cycles, r.instructions) for r in comparison.rows]


def test_bad_input_is_refused() -> None:
    grid = grid_of(LIT_PROBLEM, parsed(LIT))
    general = gw.PerfConfig.parse("256,64,64,16,4,4")
    with pytest.raises(va.errors.InvalidArgumentError, match="expected an accelerated perf config"):
        va.lds.compare_lds_layouts(grid, "a", general, "gfx942", "f16")  # type: ignore[arg-type]
    with pytest.raises(va.errors.InvalidArgumentError, match="strides must be positive ints"):
        va.lds.layout_variants(16, [0.5])  # type: ignore[list-item]
    with pytest.raises(va.errors.InvalidArgumentError, match="expected an LDS store or read"):
        va.lds.thread_lds_access(gw.global_load(grid, "a", parsed(LIT), GFX942, "f16"))
    with pytest.raises(va.errors.InvalidArgumentError, match="expected the MLIR text"):
        va.lds.lds_accesses(Path("x.mlir"))  # type: ignore[arg-type]


# }}}
# {{{ rocMLIR's IR


KERNELS = {
    "align-tiling-non-contiguous-strides.mlir": (LIT, LIT_PROBLEM),
    "test_multi_buffer_full.mlir": ("v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1",
                                    gw.GemmProblem(m=384, n=1024, k=1024, dtype="f16")),
}
"""rocMLIR's kernels in tests/data/gridwise with LDS stores, and the config and gemm they lower."""
DOC_ARCHS = ("gfx942", "gfx950")


def ir_table() -> list[str]:
    """The rows of docs/lds.md's table of rocMLIR's LDS stores: file, line, instruction, and the
    worst degree and counter on each arch."""
    rows = []
    for name in KERNELS:
        for found in va.lds.lds_accesses((DATA / "gridwise" / name).read_text()):
            assert found.access is not None, found.reason
            counts = [va.lds.bank_conflicts(found.access, va.lds.lds_model(a)) for a in DOC_ARCHS]
            cells = " | ".join(f"{c.max_degree}-way, {c.counter}" + (" (assumed)" if c.assumed else "")
                               for c in counts)
            rows.append(f"| {name} | {found.line} | `{found.value}` | {counts[0].instruction} | {cells} |")
    return rows


def test_the_lds_stores_of_rocmlirs_kernels_are_the_recipes_stores() -> None:
    """Each LDS store read from the IR counts as the recipe's store of the same operand (A first,
    then B) on every arch, conflicts and witness alike."""
    for name, (config_text, problem) in KERNELS.items():
        config = parsed(config_text)
        grid = grid_of(problem, config)
        found = va.lds.lds_accesses((DATA / "gridwise" / name).read_text())
        assert [f.op for f in found] == ["rock.threadwise_write_all"] * 2
        for operand, item in zip("ab", found, strict=True):
            assert item.access is not None and item.access.kind == "write"
            mine = va.lds.thread_lds_access(gw.lds_store(grid, operand, config, GFX942, "f16"), GFX942)
            for arch in DOC_ARCHS:
                model = va.lds.lds_model(arch)
                theirs, ours = va.lds.bank_conflicts(item.access, model), va.lds.bank_conflicts(mine, model)
                assert (theirs.instruction, theirs.counter, theirs.max_degree) == (
                    ours.instruction, ours.counter, ours.max_degree)
                assert np.array_equal(np.sort(theirs.degrees, axis=None), np.sort(ours.degrees, axis=None))


def test_the_docs_table_of_rocmlirs_lds_stores_is_recomputed() -> None:
    text = (ROOT / "docs" / "lds.md").read_text()
    section = text[text.index("## rocMLIR's layouts"):]
    for row in ir_table():
        assert row in section, row


def read_into_text(read: gw.ThreadAccess, kpack: int) -> str:
    """A function that reads ``read``'s view as rocMLIR's blockwise gemm lowering does: a
    ``rock.transform`` chain over the tile of ``vector<kpack>``, ``rock.threadwise_read_into`` with
    extra indices ``[tid, d_iter]`` into registers of ``vector<kpack>``."""
    space = "#gpu.address_space<workgroup>"
    element = f"vector<{kpack}xf16>"

    def memref(shape: tuple[int, ...], where: str = space) -> str:
        return f"memref<{'x'.join(map(str, shape))}x{element}, {where}>"

    lines = [f"func.func @read(%lds: {memref(read.view.buffer.shape)}) {{",
             "  %tid = rock.workitem_id : index", "  %c0 = arith.constant 0 : index",
             f"  %regs = rock.alloc() : {memref((read.values,), '#gpu.address_space<private>')}"]
    value, shape = "%lds", read.view.buffer.shape
    for i, m in enumerate(reversed(read.view.maps)):
        lines.append(f"  %v{i} = rock.transform {value} by {va.print_transform_map(m)} : {memref(shape)} to "
                     f"{memref(m.upper_bounds)}")
        value, shape = f"%v{i}", m.upper_bounds
    lines.append(f"  rock.threadwise_read_into {{forceUnroll, useIndexDiffs}} [](%{value[1:]}) [%tid, %c0] -> %regs : "
                 f"{memref(shape)} -> {memref((read.values,), '#gpu.address_space<private>')}")
    return "\n".join([*lines, "  return", "}"])


@pytest.mark.parametrize("operand", ["a", "b"])
def test_an_lds_read_in_ir_counts_as_the_recipes_read(operand: str) -> None:
    """``rock.threadwise_read_into`` from the tile of ``vector<8xf16>`` into registers of vectors:
    one iteration is one vector, counted as the recipe's ``lds_read``."""
    config = parsed(LIT)
    grid = grid_of(LIT_PROBLEM, config)
    read = gw.lds_read(grid, operand, config, GFX942, "f16")
    (found,) = va.lds.lds_accesses(read_into_text(read, config.kpack))
    assert found.op == "rock.threadwise_read_into" and found.access is not None, found.reason
    assert found.access.kind == "read" and found.access.vector_length == 8
    mine = va.lds.thread_lds_access(read, GFX942)
    model = va.lds.lds_model("gfx942")
    theirs, ours = va.lds.bank_conflicts(found.access, model), va.lds.bank_conflicts(mine, model)
    assert (theirs.instruction, theirs.counter, theirs.max_degree) == (ours.instruction, ours.counter, ours.max_degree)
    assert (theirs.counter, theirs.max_degree) == ((32, 2) if operand == "a" else (0, 1))


def test_an_op_without_a_thread_id_is_reported_not_counted() -> None:
    text = """func.func @f(%a: memref<64xf16, #gpu.address_space<workgroup>>, %i: index) {
  %r = rock.alloc() : memref<4xf16, #gpu.address_space<private>>
  rock.threadwise_write_all {forceUnroll} %r -> [](%a) [%i] by set : memref<4xf16, #gpu.address_space<private>> -> memref<64xf16, #gpu.address_space<workgroup>>
  return
}"""
    (found,) = va.lds.lds_accesses(text)
    assert found.access is None and "rock.workitem_id" in found.reason and found.line == 3


# }}}
# {{{ the widget


def widget_by_hand(config: va.rocmlir.WidgetConfig, kind: str, k_major: bool, shuffle: bool) -> list[int]:
    """The widget's N-way of each group of 16 lanes, lane by lane from its description (docs/lds.md):
    its layouts, then per group the most lanes whose first element is on one of 32 banks."""
    out = []
    d, kp, ko, waves = config.d, config.k_pack, config.k_outer, config.block_size // 64
    eb = config.element_bytes
    if kind == "write":
        cdpt = config.d * ko * kp // config.block_size // kp
        per: dict[tuple[int, int], list[int]] = {}
        for tid in range(config.block_size):
            for m in range(cdpt):
                if k_major:
                    row = tid * kp % (ko * kp) // kp % ko
                    col = m + cdpt * (tid * kp // (ko * kp))
                    col = (row + col) % d * kp if shuffle else col
                else:
                    row = tid * cdpt // d * kp // kp % ko
                    col = ((m * (d // cdpt) + tid) % d if shuffle else (m + tid * cdpt) % d) * kp
                per.setdefault((tid // 64, m), []).append(row * d * kp + col)
        instances = [per[w, m] for w in range(waves) for m in range(cdpt)]
    else:
        instances = []
        for w in range(waves):
            for m in range(config.d_per_wave // config.mfma_d):
                for k in range(ko // config.blocks):
                    lanes = []
                    for lane in range(64):
                        off = (lane % config.mfma_d + lane // config.mfma_d * config.blocks * d
                               + config.mfma_d * (w // (config.d_per_wave // config.mfma_d)) + m * 64 + k * d)
                        row, col = off // d, off % d
                        if shuffle and k_major:
                            col = (row + col) % d * kp
                            lanes.append((row * d + col) * kp)
                        else:
                            lanes.append((row * d + col) * kp)
                    instances.append(lanes)
    for lanes in instances:
        for g in range(0, 64, 16):
            banks = [lanes[g + i] * eb // 4 % 32 for i in range(16)]
            out.append(max(banks.count(b) for b in range(32)))
    return out


@st.composite
def widget_configs(draw: st.DrawFn) -> va.rocmlir.WidgetConfig:
    block = draw(st.sampled_from([64, 128, 256]))
    d = draw(st.sampled_from([16, 32, 64, 128]))
    k_pack = draw(st.sampled_from([1, 2, 4, 8]))
    k_outer = draw(st.sampled_from([2, 4, 8]))
    mfma_d, blocks = draw(st.sampled_from([(16, 4), (32, 2)]))
    assume(d * k_outer * k_pack % (block * k_pack) == 0 and d >= mfma_d and k_outer >= blocks)
    return va.rocmlir.WidgetConfig(block, d, k_outer, mfma_d, k_pack, draw(st.sampled_from(["f16", "f32", "int8"])),
                                   mfma_d, 8, 4, blocks)


@given(config=widget_configs(), kind=st.sampled_from(["read", "write"]), k_major=st.booleans(),
       shuffle=st.booleans())
@settings(derandomize=True, max_examples=60, deadline=None)
def test_the_widget_port_is_its_description_lane_by_lane(config: va.rocmlir.WidgetConfig, kind: str,
                                                         k_major: bool, shuffle: bool) -> None:
    answer = va.rocmlir.widget_bank_conflicts(config, kind, k_major=k_major, shuffle=shuffle)  # type: ignore[arg-type]
    assert answer.degrees.ravel().tolist() == widget_by_hand(config, kind, k_major, shuffle)
    assert answer.counter == int((answer.degrees - 1).sum())


def test_the_widget_parses_its_command_line_and_refuses_what_it_cannot_simulate() -> None:
    config = va.rocmlir.WidgetConfig.parse("256,128,4,64,8", "f16", "32,32,8,2")
    assert (config.block_size, config.d, config.k_outer, config.d_per_wave, config.k_pack) == (256, 128, 4, 64, 8)
    assert (config.mfma_d, config.mfma_k, config.k_base, config.blocks, config.copy_d_per_thread) == (32, 32, 8, 2, 2)
    assert va.rocmlir.widget_offsets(config, "write", k_major=True)[0, 0, 0, 1] == 1 * 128 * 8 + 1 * 8
    with pytest.raises(va.errors.ConfigParseError, match="needs 5 comma-separated integers"):
        va.rocmlir.WidgetConfig.parse("256,128,4,64", "f16", "32,32,8,2")
    with pytest.raises(va.errors.InvalidArgumentError, match="the widget takes f32, f16 or int8"):
        va.rocmlir.WidgetConfig.parse("256,128,4,64,8", "bf16", "32,32,8,2")
    with pytest.raises(va.errors.InvalidArgumentError, match="not 512 threads times a multiple of k_pack 4"):
        va.rocmlir.WidgetConfig(512, 96, 8, 96, 4, "f16", 32, 8, 4, 2)  # PR #2196's A: 6 per thread


def test_the_widget_beside_the_exact_count_says_why_they_differ() -> None:
    """The 16x16 kernel on gfx942: the widget's own read layout is not rocMLIR's (16-way against
    2-way under its rule), and its rule on rocMLIR's store says 2-way where gfx942's 8-lane write
    phases make the store conflict-free."""
    config = parsed(LIT)
    grid = grid_of(LIT_PROBLEM, config)
    write = va.rocmlir.compare_widget(grid, "a", config, "gfx942", "f16", "write")
    assert (write.widget.max_degree, write.widget_rule_degree, write.exact.max_degree) == (2, 2, 1)
    assert not write.agree and write.k_major and write.shuffle
    assert write.differences[0].startswith("phases: gfx942 serves ds_write_b128 as 8 contiguous phases of 8 lanes")
    assert any(d.startswith("width: a lane's 16 bytes touch 4 banks") for d in write.differences)
    read = va.rocmlir.compare_widget(grid, "a", config, "gfx942", "f16", "read")
    assert (read.widget.max_degree, read.widget_rule_degree, read.exact.max_degree) == (16, 2, 2)
    assert read.differences == ("layout: the widget's own formulas give 16-way, its rule on rocMLIR's maps 2-way "
                                "(its read layout is not rocMLIR's)",)


# }}}
