"""The C store of an accelerated ``rock.gridwise_gemm``: each thread's accumulator values seen as
C ``[G, M, N]`` (docs/gridwise.md, C store and LDS reads).

A port of ROCm/rocMLIR (docs/gridwise.md, C store and LDS reads, has the versions read):

* ``MfmaEmitter::computeOutputTransforms`` and ``WmmaEmitter::computeOutputTransforms``
  (mlir/lib/Dialect/Rock/utility/AccelEmitter.cpp at 022b680a9244, checked against the newer
  version with LDS transpose loads): ``[g_block, m_block, n_block, tid, item]``
  split into the instruction's lanes and accumulator values, then unmerged into the block's
  ``gemmBlockM`` and ``gemmBlockN``;
* ``swapThreadIdAndIteration`` (mlir/lib/Dialect/Rock/utility/loweringUtils.cpp, the version
  where it returns ``FailureOr``): where the LDS
  store of A (B) swapped the thread and iteration parts of m (n), the C store swaps them back
  (``gemmBlockM = m_tid * copyMPerThread + m_iter`` becomes ``m_iter * (mPerBlock /
  copyMPerThread) + m_tid``), then unmerges ``m_block`` and ``gemmBlockM`` into ``gemmM``;
* the call in ``GridwiseGemmAccelRewritePattern`` (mlir/lib/Dialect/Rock/Transforms/
  GridwiseGemmToBlockwise.cpp): ``rock.threadwise_write_all`` of the per-thread values through
  these maps onto C, extra indices ``g_block, m_block, n_block, tid``, so ``item`` is the
  iteration dim; ``ThreadwiseWriteAllRewritePattern`` (ThreadwiseGemmLowering.cpp) vectorizes
  along it.

rocMLIR's own kernel pins the maps: mlir/test/Dialect/Rock/align-tiling-non-contiguous-strides.mlir
(tests/data/gridwise/). Not modelled: the OutputSwizzle pass (with ``outputSwizzle`` 1 or the
default 2 it may rewrite this store into a cross-lane permute or a store through LDS; this is
the store with 0), the 4x4 MFMAs, attention's output.
"""

from __future__ import annotations

from typing import cast

from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import InvalidArgumentError, RocmlirRuleError
from .accel_params import (
    ROW_GROUP_SIZE,
    AccelParams,
    accel_params,
    check_divides,
    operand_lds,
    row_groups_per_block,
)
from .access import ThreadAccess
from .arch import Arch, MfmaInstruction
from .builder import TopDownMapBuilder
from .dims_wrappers import TopDownBottomDimsWrapper, expand_names_in_place
from .gemm_to_gridwise import GridwiseGemm
from .perf_config import AccelPerfConfig

_BLOCKS = ["g_block", "m_block", "n_block"]


def c_store(grid: GridwiseGemm, config: AccelPerfConfig, arch: Arch, dtype: str, *,
            swap: bool = True) -> ThreadAccess:
    """The C store of ``rock.gridwise_gemm`` ``grid`` under ``config`` on ``arch`` (inputs of
    ``dtype``): a ``ThreadAccess`` whose view maps ``[g_block, m_block, n_block, tid, item]``
    onto C's buffer, ``item`` the iteration dim with ``values`` accumulator values.

    With ``swap=True`` the thread and iteration parts of m and n are swapped back where the LDS
    layouts of A and B swapped them (``operand_lds``), as rocMLIR does; ``swap=False`` gives the
    view before ``swapThreadIdAndIteration`` (both swaps off), which writes the right elements
    only when neither layout swaps.

    Example: ``c_store(gridwise_views(GemmProblem(g=4, m=24, n=24, k=16, dtype="f16"), **blocks),
    PerfConfig.parse("v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1"), arch("gfx950"), "f16")`` has the maps
    of rocMLIR's kernel in align-tiling-non-contiguous-strides.mlir (B's n swapped by 2).
    """
    swaps = (False, False)
    if swap:
        swaps = (operand_lds(grid, "a", config, arch, dtype).swap_thread_iter,
                 operand_lds(grid, "b", config, arch, dtype).swap_thread_iter)
    return c_store_with(grid, config, arch, dtype, swap_m=swaps[0], swap_n=swaps[1])


def c_store_alternatives(grid: GridwiseGemm, config: AccelPerfConfig, arch: Arch,
                         dtype: str) -> dict[tuple[bool, bool], ThreadAccess]:
    """The four C stores rocMLIR builds for this tile, one per ``(swap_m, swap_n)``: the thread
    and value layout of the accumulators is fixed by the instruction, and the only choice rocMLIR
    makes is whether A's (B's) LDS layout swapped m (n) into ``(m_iter, m_tid)``, which the C
    store then undoes. Each store is the right one for the LDS layouts with those swaps;
    ``c_store`` picks the one the layouts rocMLIR chooses for ``grid`` need.

    Example: ``c_store_alternatives(grid, config, gfx942, "f16")[(False, False)]`` is
    ``c_store(grid, config, gfx942, "f16", swap=False)``.
    """
    return {(m, n): c_store_with(grid, config, arch, dtype, swap_m=m, swap_n=n)
            for m in (False, True) for n in (False, True)}


def c_store_with(grid: GridwiseGemm, config: AccelPerfConfig, arch: Arch, dtype: str, *,
                 swap_m: bool, swap_n: bool) -> ThreadAccess:
    """``c_store`` with the two swaps given (``doSwapThreadIterSubDimsForM`` and ``...ForN``)."""
    if not isinstance(grid, GridwiseGemm):
        raise InvalidArgumentError(f"c_store: expected a GridwiseGemm, got {grid!r}")
    params = accel_params(config, arch, dtype)
    g, m_len, n_len = grid.c.shape
    m_blocks = check_divides(config.m_per_block, m_len, "c_store: m_per_block and C's M")
    n_blocks = check_divides(config.n_per_block, n_len, "c_store: n_per_block and C's N")
    block_size = config.block_size(arch)
    lengths = (g, m_blocks, n_blocks)
    if params.accel == "mfma":
        maps = _mfma_output(params, config, lengths, block_size)
    else:
        maps = _wmma_output(params, config, lengths, block_size)
    to_c, first = maps
    copy_m = copy_n = 1
    if swap_m:
        copy_m = operand_lds(grid, "a", config, arch, dtype).d_per_thread
    if swap_n:
        copy_n = operand_lds(grid, "b", config, arch, dtype).d_per_thread
    chain = (*first, *swap_thread_id_and_iteration(to_c, lengths, (copy_m, copy_n), config, (swap_m, swap_n)))
    view = View(grid.c.buffer, (*chain, *grid.c.maps), strict=grid.c.strict)
    return ThreadAccess("c", "global_store", view, "item", params.num_values, grid.c.buffer.dtype)


def _mfma_output(p: AccelParams, config: AccelPerfConfig, lengths: tuple[int, int, int],
                 block_size: int) -> tuple[TopDownMapBuilder, list[TransformMap]]:
    """``MfmaEmitter::computeOutputTransforms``: the first two maps and the builder of the third
    (``toMatrixC``), to ``[g_block, m_block, n_block, gemmBlockM, gemmBlockN]``."""
    insn = cast(MfmaInstruction, p.instruction)
    m_waves, n_waves = config.waves
    m_per_repeat = config.m_per_wave // p.m_repeats
    n_per_repeat = config.n_per_wave // p.n_repeats
    row, col = insn.non_k_dim, insn.input_span_len
    spans = insn.input_spans
    blocks_per_repeat = m_per_repeat * n_per_repeat // (row * col)
    groups = row_groups_per_block(insn)
    num = p.num_values
    waves = block_size // p.wave_size
    split = TopDownMapBuilder([*_BLOCKS, "tid", "item"], [*lengths, block_size, num])
    split.pass_through(_BLOCKS)
    split.merge(["wave", "m_tid", "n_tid"], [3, 4, 5], "tid", [waves, p.wave_size // col, col])
    per_i = check_divides(blocks_per_repeat * groups * ROW_GROUP_SIZE, num, "c_store: accumulator values")
    split.merge(["i", "j", "vec_group", "vec_item"], [6, 7, 8, 9], "item",
                [per_i, blocks_per_repeat, groups, ROW_GROUP_SIZE])
    split_map = split.get()
    rows = TopDownMapBuilder.below(split, split_map)
    places = expand_names_in_place(split, {"wave": ["wave_m", "wave_n"], "i": ["m_i", "n_i"],
                                           "j": ["blkMajor", "blkMinor"]})
    wrap = TopDownBottomDimsWrapper(rows, places)
    wrap.pass_through(_BLOCKS)
    wrap.merge(["wave_m", "wave_n"], "wave", [waves // n_waves, n_waves])
    wrap.pass_through(["m_tid", "n_tid"])
    wrap.merge(["m_i", "n_i"], "i", [check_divides(p.n_repeats, per_i, "c_store: repeats"), p.n_repeats])
    broadcast_a = n_per_repeat >= m_per_repeat
    blocks_in_regs = insn.blocks_in_out_regs
    rows.merge(["blk_row", "blk_col"] if broadcast_a else ["blk_col", "blk_row"],
               [places["blkMajor"], places["blkMinor"]], "j",
               [blocks_per_repeat // blocks_in_regs, blocks_in_regs])
    rows.pass_through(["vec_group", "vec_item"], [places["vec_group"], places["vec_item"]],
                      ["vec_group", "vec_item"])
    rows_map = rows.get()
    to_c = TopDownMapBuilder.below(rows, rows_map)
    to_c.pass_through(_BLOCKS)
    to_c.unmerge("gemmBlockM", 3, ["m_i", "wave_m", "blk_row", "vec_group", "m_tid", "vec_item"],
                 [config.m_per_wave // p.m_per_accel, m_waves, p.m_per_accel // row,
                  row // (spans * ROW_GROUP_SIZE), spans, ROW_GROUP_SIZE])
    to_c.unmerge("gemmBlockN", 4, ["n_i", "wave_n", "blk_col", "n_tid"],
                 [config.n_per_wave // p.n_per_accel, n_waves, p.n_per_accel // col, col])
    return to_c, [split_map, rows_map]


def _wmma_output(p: AccelParams, config: AccelPerfConfig, lengths: tuple[int, int, int],
                 block_size: int) -> tuple[TopDownMapBuilder, list[TransformMap]]:
    """``WmmaEmitter::computeOutputTransforms``: the first map and the builder of the second.
    gfx11 holds rows ``2 * value + lane / 16`` (m strides: value 2, lane part 1); gfx12 rows
    ``8 * (lane / 16) + value``."""
    m_waves, n_waves = config.waves
    side = p.m_per_accel
    split = TopDownMapBuilder([*_BLOCKS, "tid", "item"], [*lengths, block_size, p.num_values])
    split.pass_through(_BLOCKS)
    split.merge(["wave_m", "wave_n", "m_tid", "n_tid"], [3, 4, 5, 6], "tid",
                [m_waves, n_waves, p.wave_size // side, side])
    split.merge(["rep_i", "rep_j", "item_i"], [7, 8, 9], "item", [p.m_repeats, p.n_repeats, p.acc_len])
    split_map = split.get()
    to_c = TopDownMapBuilder.below(split, split_map)
    to_c.pass_through(_BLOCKS)
    inner = p.wave_size // side if p.gfx11 else p.acc_len
    names_m = ["rep_i", "wave_m", "item_i", "m_tid"] if p.gfx11 else ["rep_i", "wave_m", "m_tid", "item_i"]
    to_c.unmerge("gemmBlockM", 3, names_m,
                 [config.m_per_block // (m_waves * side), m_waves, side // inner, inner])
    to_c.unmerge("gemmBlockN", 4, ["rep_j", "wave_n", "n_tid"],
                 [config.n_per_block // (n_waves * side), n_waves, side])
    return to_c, [split_map]


def swap_thread_id_and_iteration(to_c: TopDownMapBuilder, lengths: tuple[int, int, int],
                                 copies: tuple[int, int], config: AccelPerfConfig,
                                 swaps: tuple[bool, bool]) -> list[TransformMap]:
    """rocMLIR's ``swapThreadIdAndIteration`` (grid-wise form): ``to_c``'s map, then a map that
    splits ``gemmBlockM`` into ``(m_iter, m_tid)`` of sizes ``(copyMPerThread, mPerBlock /
    copyMPerThread)`` where m is swapped, one that unmerges them back in the order ``(m_tid,
    m_iter)`` (n likewise), and the unmerge of ``(m_block, gemmBlockM)`` into ``gemmM``."""
    to_c_map = to_c.get()
    per_block = (config.m_per_block, config.n_per_block)
    again = TopDownMapBuilder.below(to_c, to_c_map)
    again.pass_through(_BLOCKS)
    at = 3
    for name, d, per, copy, swapped in zip(("gemmBlockM", "gemmBlockN"), "mn", per_block, copies, swaps,
                                           strict=True):
        if not swapped:
            again.pass_through([name], [at], [name])
            at += 1
            continue
        if per % copy:
            raise RocmlirRuleError(f"swapThreadIdAndIteration: {d}_per_block {per} is not a multiple of "
                                   f"copy{d.upper()}PerThread {copy}")
        again.merge([f"{d}_iter", f"{d}_tid"], [at, at + 1], name, [copy, per // copy])
        at += 2
    again_map = again.get()
    back = TopDownMapBuilder.below(again, again_map)
    back.pass_through(_BLOCKS)
    for at, (name, d, per, copy, swapped) in enumerate(zip(("gemmBlockM", "gemmBlockN"), "mn", per_block,
                                                           copies, swaps, strict=True), start=3):
        if swapped:
            back.unmerge(name, at, [f"{d}_tid", f"{d}_iter"], [per // copy, copy])
        else:
            back.pass_through([name], [at], [name])
    back_map = back.get()
    final = TopDownMapBuilder.below(back, back_map)
    final.pass_through(["gemmG"], [0], ["g_block"])
    final.unmerge("gemmM", 1, ["m_block", "gemmBlockM"], [lengths[1], config.m_per_block])
    final.unmerge("gemmN", 2, ["n_block", "gemmBlockN"], [lengths[2], config.n_per_block])
    return [to_c_map, again_map, back_map, final.get()]
