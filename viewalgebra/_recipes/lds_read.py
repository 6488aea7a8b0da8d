"""The LDS reads of an accelerated ``rock.gridwise_gemm``: how each thread reads its A or B
fragments for the matrix instruction from the LDS tile (docs/gridwise.md, C store and LDS reads).

A port of ``MfmaEmitter::wrapLDSBufferForLoad`` and ``WmmaEmitter::wrapLDSBufferForLoad``
(mlir/lib/Dialect/Rock/utility/AccelEmitter.cpp at 022b680a9244, checked against the newer
version with LDS transpose loads) and of ``rotateIf`` (mlir/lib/Dialect/Rock/utility/
transformMapUtils.cpp, the version with ``convertDimStridestoSizes`` beside it), as the
blockwise gemm lowering uses them (mlir/lib/Dialect/Rock/Transforms/BlockwiseGemmToThreadwise.cpp,
newest read: ``rock.threadwise_read_into`` with extra indices ``tid, d_iter``, so ``k_iter`` is
the iteration dim). docs/gridwise.md, C store and LDS reads, has the versions.

The LDS tile is what rocMLIR allocates when nothing loads straight into LDS: ``kpack_per_block *
d_per_block`` elements of ``vector<kpack x T>`` (a ``memref.view`` of the byte buffer), element
``k_outer * d_per_block + d'`` holding ``k = k_outer * kpack + 0 .. kpack - 1`` of row ``d``,
where ``d' = (d + stride * k_outer) mod d_per_block`` when d is rotated with k (``stride`` is
``d_per_thread`` for kpack 1, else 1) and ``d' = d`` otherwise: the k x d layout with kpack
innermost that ``wrapLDSBufferForStore`` writes by default.

Not modelled: direct-to-LDS (scalar elements, ``k_vec``), the d x k tile, gfx950's LDS transpose
loads (``useLdsTransposeLoad``) and its double-rate MFMAs (the port's arch picks gfx942's
instructions on gfx950, so ``k_base`` there may differ from rocMLIR's), the 4x4 MFMAs (the only
ones that do not reduce over k), ``splitKAcrossThreadsFirst`` (set only by attention).
"""

from __future__ import annotations

from typing import cast

from .._maps.buffer import Buffer
from .._maps.transform_map import TransformMap
from .._maps.transforms import Broadcast, PassThrough
from .._maps.view import View
from ..errors import InvalidArgumentError
from .accel_params import AccelParams, OperandLds, accel_params, operand_lds
from .access import ThreadAccess
from .arch import Arch, MfmaInstruction
from .builder import TopDownMapBuilder
from .gemm_to_gridwise import GridwiseGemm
from .perf_config import AccelPerfConfig, Operand


def lds_tile(config: AccelPerfConfig, operand: Operand, dtype: str) -> Buffer:
    """The LDS tile of A (``"a"``) or B as a buffer of ``kpack_per_block * d_per_block``
    elements, each one ``vector<kpack x dtype>`` (``ThreadAccess.vector_elements``).

    Example: ``lds_tile(PerfConfig.parse("v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1"), "b", "f16")`` is
    rocMLIR's ``memref<256xvector<8xf16>>`` as ``Buffer((256,), "f16")``.
    """
    if operand not in ("a", "b"):
        raise InvalidArgumentError(f"operand must be 'a' or 'b', got {operand!r}")
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    return Buffer((config.kpack_per_block * d_per_block,), dtype)


def lds_read(grid: GridwiseGemm, operand: Operand, config: AccelPerfConfig, arch: Arch, dtype: str, *,
             layout: OperandLds | None = None) -> ThreadAccess:
    """The LDS read of operand ``"a"`` (d is m) or ``"b"`` (d is n): a ``ThreadAccess`` whose view
    maps rocMLIR's ``[tid, d_iter, k_iter]`` onto ``lds_tile``; each thread reads, for each of its
    ``d_iter`` repeats, ``k_iter`` vectors of ``kpack`` elements (``values``, ``vector_elements``).

    ``layout`` gives the LDS layout flags (default: ``operand_lds(grid, operand, ...)``, what
    rocMLIR picks); only ``rotate_d_with_k``, its ``rotate_stride`` and ``d_per_thread`` change
    the read (give the store, ``lds_store(..., lds=layout.flags)``, the same flags).

    Example: with ``v4:64,64,8,32,32,32,4,...`` in f16 on gfx942 (32x32x8f16, kpack 4), lane
    ``l`` of a wave reads the two kpack vectors ``k_outer = 4 * (l // 32) + k_iter`` of row
    ``l % 32`` (rotated when the layout says so).
    """
    if not isinstance(grid, GridwiseGemm):
        raise InvalidArgumentError(f"lds_read: expected a GridwiseGemm, got {grid!r}")
    params = accel_params(config, arch, dtype)
    if layout is None:
        layout = operand_lds(grid, operand, config, arch, dtype)
    if layout.dxk:
        raise InvalidArgumentError("lds_read: the d x k LDS tile (direct-to-LDS) is not modelled")
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    block_size = config.block_size(arch)
    maps = (_mfma_read(params, config, operand, block_size) if params.accel == "mfma"
            else _wmma_read(params, config, operand, block_size))
    rows_builder, first = maps
    rows = rows_builder.get()
    chain = [*first, rows]
    stride = layout.flags.stride(layout.d_per_thread, config.kpack)
    if layout.rotate_d_with_k:
        chain.extend(_rotate(d_per_block, config.kpack_per_block, stride))
    offset = TopDownMapBuilder(["d", "k"], [d_per_block, config.kpack_per_block])
    offset.unmerge("source_offset", 0, ["k", "d"], [config.kpack_per_block, d_per_block])
    chain.append(offset.get())
    view = View(lds_tile(config, operand, dtype), tuple(chain))
    return ThreadAccess(operand, "lds_read", view, "k_iter", params.kpack_per_thread, dtype,
                        vector_elements=config.kpack)


def _repeats(p: AccelParams, config: AccelPerfConfig, operand: Operand) -> tuple[int, int, str, str]:
    m_waves, n_waves = config.waves
    if operand == "a":
        return p.m_repeats, m_waves, "wave_m", "wave_n"
    return p.n_repeats, n_waves, "wave_n", "wave_m"


def _mfma_read(p: AccelParams, config: AccelPerfConfig, operand: Operand,
               block_size: int) -> tuple[TopDownMapBuilder, list[TransformMap]]:
    """``MfmaEmitter::wrapLDSBufferForLoad`` for an instruction that reduces over k: lane
    ``blk_id * inputSpanLen + blk_td`` reads row ``blk_td`` of its repeat and k from
    ``blk_id * kpackPerThread`` on."""
    insn = cast(MfmaInstruction, p.instruction)
    if not insn.is_k_reduction:
        raise InvalidArgumentError(f"lds_read: {insn.name} does not reduce over k (the 4x4 MFMAs are not "
                                   "modelled)")
    d_repeats, d_waves, this_wave, other_wave = _repeats(p, config, operand)
    span, m_waves, n_waves = insn.input_span_len, *config.waves
    k_iter = p.kpack_per_thread
    split = TopDownMapBuilder(["tid", "d_iter", "k_iter"], [block_size, d_repeats, k_iter])
    split.merge(["wave_id", "blk_id", "blk_td"], [0, 1, 2], "tid",
                [block_size // p.wave_size, p.wave_size // span, span])
    split.merge(["k_iter", "k_vec"], [4, 5], "k_iter", [k_iter, 1])
    split.pass_through(["d_iter"], [3], ["d_iter"])
    split_map = split.get()
    waves = TopDownMapBuilder.below(split, split_map)
    waves.merge(["wave_m", "wave_n"], [0, 1], "wave_id", [m_waves, n_waves])
    names = ["blk_id", "blk_td", "d_iter", "k_iter", "k_vec"]
    waves.pass_through(names, [2, 3, 4, 5, 6], names)
    waves_map = waves.get()
    rows = TopDownMapBuilder.below(waves, waves_map)
    rows.unmerge("d", 0, ["d_iter", this_wave, "blk_td"], [d_repeats, d_waves, span])
    rows.unmerge("k", 1, ["blk_id", "k_iter", "k_vec"], [p.wave_size // span, k_iter, 1])
    rows.ignore(other_wave)
    return rows, [split_map, waves_map]


def _wmma_read(p: AccelParams, config: AccelPerfConfig, operand: Operand,
               block_size: int) -> tuple[TopDownMapBuilder, list[TransformMap]]:
    """``WmmaEmitter::wrapLDSBufferForLoad``: lane ``block_id * 16 + block_td`` reads row
    ``block_td``; on gfx11 every lane reads all of k (the two half waves the same values), on
    gfx12 half wave ``block_id`` reads its half of k."""
    d_repeats, d_waves, this_wave, other_wave = _repeats(p, config, operand)
    m_waves, n_waves = config.waves
    side = p.m_per_accel
    split = TopDownMapBuilder(["tid", "d_iter", "k_iter"], [block_size, d_repeats, p.kpack_per_thread])
    split.merge(["wave_id", "lane_id"], [0, 1], "tid", [block_size // p.wave_size, p.wave_size])
    split.pass_through(["d_iter", "k_iter"], [2, 3], ["d_iter", "k_iter"])
    split_map = split.get()
    waves = TopDownMapBuilder.below(split, split_map)
    waves.merge(["wave_m", "wave_n"], [0, 1], "wave_id", [m_waves, n_waves])
    waves.pass_through(["lane_id", "d_iter", "k_iter"], [2, 3, 4], ["lane_id", "d_iter", "k_iter"])
    waves_map = waves.get()
    lanes = TopDownMapBuilder.below(waves, waves_map)
    kept = ["wave_m", "wave_n", "d_iter", "k_iter"]
    lanes.pass_through(kept, [0, 1, 4, 5], kept)
    lanes.merge(["block_id", "block_td"], [2, 3], "lane_id", [p.wave_size // side, side])
    lanes_map = lanes.get()
    rows = TopDownMapBuilder.below(lanes, lanes_map)
    if p.gfx11:
        rows.pass_through(["k"], [1], ["k_iter"])
        rows.ignore("block_id")
    else:
        # rocMLIR writes the lengths {outputStride, kpackPerThread}; block_id has
        # waveSize / 16 = 2 values, which is what the unmerge's strides use either way.
        rows.unmerge("k", 1, ["block_id", "k_iter"], [p.wave_size // side, p.kpack_per_thread])
    rows.unmerge("d", 0, ["d_iter", this_wave, "block_td"], [d_repeats, d_waves, side])
    rows.ignore(other_wave)
    return rows, [split_map, waves_map, lanes_map]


def _rotate(d: int, k_outer: int, stride: int) -> list[TransformMap]:
    """``rotateIf``'s two maps over ``[d, k]``: ``d + stride * k`` (an ``Embed``), then its
    remainder modulo ``d`` (``takeRemainder``: a ``Broadcast``)."""
    embed = TopDownMapBuilder(["d", "k"], [d, k_outer])
    embed.embed("d", 0, d * k_outer, ["k", "d"], [stride, 1])
    embed.pass_through(["k"])
    ops = (Broadcast((d,), ("d",), (0,), ("d",), (0,)), PassThrough((), ("k",), (1,), ("k",), (1,)))
    remainder = TransformMap(ops, (d * k_outer, k_outer), (d, k_outer))
    return [embed.get(), remainder]
