"""The per-thread view of the LDS store of A or B: where in the workgroup's LDS tile each
``(tid, iter)`` of a thread's packed registers goes (docs/gridwise.md, Per-thread views).

A port of ``getLDSLayoutConfigDim`` (mlir/lib/Dialect/Rock/Transforms/GridwiseGemmToBlockwise.cpp
at 035e8806645f), of ``getPackedRegsAsTileViews`` (its ``blockSubTile``) and
``wrapLDSBufferForStore`` (mlir/lib/Dialect/Rock/utility/loweringUtils.cpp, the version
thread_views.py names) and of ``rotateIf`` and ``TopDownTMBuilder::takeRemainder``
(mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp, mlir/lib/Dialect/Rock/IR/
TransformMapBuilder.cpp), combined as ``BlockwiseLoadTileToThreadwise.cpp`` at 035e8806645f
combines them. rocMLIR's kernel test_multi_buffer_full.mlir at 12901f06ed59 states the maps
(tests/data/gridwise/), with an older form of the rotation (an ``Embed`` then a ``Merge`` whose
outer part is dropped, the same relation as today's ``Embed`` then ``Broadcast``).

The view, top first:

1. ``[tid, iter]`` (the block size, ``copy_per_thread``): ``tid`` split as for the global load,
   ``iter = Merge(kouterPerThread, d_iter, kpackPerThread)`` with ``kpackPerThread = min(copy_k,
   kpack)``;
2. onto the block tile ``[k, d]``: ``k = Unmerge(k_thread, kouterPerThread, kpackPerThread)``,
   ``d = Unmerge(d_thread, d_iter)``, or ``Unmerge(d_iter, d_thread)`` when the LDS layout swaps
   them (``swap_thread_iter``);
3. ``k = Merge(k_outer, kpack_idx, kpack_vec)`` (``kpack_per_block``, ``kpack /
   kpackPerThread``, ``kpackPerThread``);
4. with ``rotate_d_with_k``: ``d = (d + stride * k_outer) mod D`` (an ``Embed`` then a
   ``Broadcast``), ``stride`` being ``d_per_thread`` when ``kpack == 1``, else 1;
5. the LDS tile: ``Unmerge(k_outer, d, kpack_idx)`` into rocMLIR's buffer of
   ``vector<kpackPerThread x T>``.

Each of A and B has its own LDS allocation in rocMLIR (two ``rock.alloc``), so each store is
over its own ``Buffer`` of ``k_per_block * d_per_block`` elements of the operand's type. Where
rocMLIR's buffer holds vectors (``kpackPerThread > 1``) the last map makes the vector's lanes
explicit: ``Unmerge(k_outer, d, kpack_idx, kpack_vec)`` over the scalars, so that lane ``j`` of
vector ``v`` is element ``v * kpackPerThread + j``, where rocMLIR drops ``kpack_vec``
(``AddDim``) over the vectors. The addresses are the same bytes; only this way does the exact
width along ``iter`` mean elements. ``ThreadAccess.vector_elements`` then records rocMLIR's
vector type, which fixes rocMLIR's store width (``ThreadwiseWriteAllRewritePattern``).

Not modelled: ``ldsLayoutDxK`` and the rest of direct-to-LDS (schedules 3 and 4), the LDS
transposed read (``ldsTransposeEnabled``), multi-buffering (each copy of a multi-buffered tile
is stored through the same view), and the attention kernels' own overrides of the flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._maps.buffer import Buffer, dtype_bits
from .._maps.transform_map import TransformMap
from .._maps.transforms import Broadcast
from .._maps.view import View
from ..errors import InvalidArgumentError
from .access import ThreadAccess
from .arch import Arch
from .builder import TopDownMapBuilder
from .gemm_to_gridwise import GridwiseGemm
from .perf_config import AccelPerfConfig, Operand
from .thread_copy import CopyLayout
from .thread_views import Config, check_tile, chosen, split_tid


@dataclass(frozen=True, slots=True)
class LdsLayout:
    """rocMLIR's ``LDSLayoutConfigDim`` for one operand's LDS tile (direct-to-LDS aside).

    Example: ``lds_layout(config, "f16", layout, k_contiguous=True)`` with ``kpack`` 8 (not below
    f16's 8 per 128 bits) rotates d with k.
    """

    rotate_d_with_k: bool
    """``doRotateWithK``: d is rotated by ``stride * k_outer`` (against bank conflicts when k is
    contiguous in global memory and d in LDS)."""
    swap_thread_iter: bool
    """``doSwapThreadIterSubDims``: d is split ``(d_iter, d_thread)``, so a thread's d elements
    are ``d_threads`` apart."""
    rotate_stride: int | None = field(default=None, kw_only=True)
    """The rotation's stride (``d = (d + stride * k_outer) mod D``) when ``rotate_d_with_k``:
    ``None`` is rocMLIR's (``d_per_thread`` when ``kpack == 1``, else 1); any other positive
    value builds a layout rocMLIR's maps can express but its flags never pick. The LDS store and
    the LDS read of one tile must be given the same layout."""

    def __post_init__(self) -> None:
        for name in ("rotate_d_with_k", "swap_thread_iter"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgumentError(f"LdsLayout: {name} must be a bool, got {getattr(self, name)!r}")
        stride = self.rotate_stride
        if stride is not None and (isinstance(stride, bool) or not isinstance(stride, int) or stride < 1):
            raise InvalidArgumentError(f"LdsLayout: rotate_stride must be a positive int or None, got "
                                       f"{stride!r}")

    def __repr__(self) -> str:
        # rocMLIR's own flags print as before rotate_stride existed (the audit's output cites them).
        stride = "" if self.rotate_stride is None else f", rotate_stride={self.rotate_stride}"
        return (f"LdsLayout(rotate_d_with_k={self.rotate_d_with_k}, swap_thread_iter={self.swap_thread_iter}"
                f"{stride})")

    def stride(self, d_per_thread: int, kpack: int) -> int:
        """The rotation's stride: ``rotate_stride``, or rocMLIR's rule (``rotateIf``'s
        ``kpack == 1 ? dPerThread : 1``)."""
        if self.rotate_stride is not None:
            return self.rotate_stride
        return d_per_thread if kpack == 1 else 1


def lds_layout(config: Config, dtype: str, layout: CopyLayout, k_contiguous: bool) -> LdsLayout:
    """``getLDSLayoutConfigDim``: with ``maxVlen = 128 / bits`` and ``isPossibleToVectorizeD =
    kpack < maxVlen and copy_d > 1``, rotate when k is contiguous and not ``isPossibleToVectorizeD``,
    swap when k is not contiguous and not ``isPossibleToVectorizeD`` (never both).

    Example: PR #2196's ``v4:96,256,8,96,32,32,4,...`` (kpack 4, A 2x3) in f16: 4 < 8 and 3 > 1,
    so neither.
    """
    if not isinstance(k_contiguous, bool):
        raise InvalidArgumentError(f"k_contiguous must be a bool, got {k_contiguous!r}")
    could_vectorize_d = _kpack(config) < 128 // dtype_bits(dtype) and layout.copy_d > 1
    return LdsLayout(k_contiguous and not could_vectorize_d, not k_contiguous and not could_vectorize_d)


class _Builder(TopDownMapBuilder):
    """``TopDownMapBuilder`` with rocMLIR's ``takeRemainder``."""

    def take_remainder(self, name: str, length: int) -> None:
        """``name mod length`` (a ``Broadcast``, as ``TopDownTMBuilder::takeRemainder`` builds it)."""
        dim = self.start_index(name, "take_remainder")
        self._add("take_remainder", Broadcast, (length,), ((name,), (dim,)), ((name,), (dim,)),
                  [(name, dim, length)])


def _below(previous: TopDownMapBuilder, result: TransformMap) -> _Builder:
    below = _Builder.below(previous, result)
    if not isinstance(below, _Builder):  # below() builds an instance of the class it is called on
        raise InvalidArgumentError("take_remainder needs a _Builder")
    return below


def _kpack(config: Config) -> int:
    return config.kpack if isinstance(config, AccelPerfConfig) else 1


def block_sub_tile(config: Config, arch: Arch, grid: GridwiseGemm, operand: Operand, layout: CopyLayout,
                   k_contiguous: bool, swap: bool) -> tuple[TransformMap, TransformMap]:
    """``getPackedRegsAsTileViews(...).blockSubTile``: ``[tid, iter]`` onto the block tile
    ``[k, d]`` in the packed order."""
    threads, k_threads, d_threads = check_tile(grid, operand, config, arch, layout)
    d_name = "m" if operand == "a" else "n"
    kpack_per_thread = min(layout.copy_k, _kpack(config))
    k_outer_per_thread = layout.copy_k // kpack_per_thread
    split = TopDownMapBuilder(["tid", "iter"], [threads, layout.copy_per_thread])
    split_tid(split, d_name, d_threads, k_threads, (0, 1), k_contiguous)
    split.merge(["kouterPerThread", f"{d_name}_iter", "kpackPerThread"], [2, 3, 4], "iter",
                [k_outer_per_thread, layout.copy_d, kpack_per_thread])
    split_map = split.get()
    to_tile = TopDownMapBuilder.below(split, split_map)
    to_tile.unmerge("k", 0, ["k_thread", "kouterPerThread", "kpackPerThread"],
                    [k_threads, k_outer_per_thread, kpack_per_thread])
    if swap:
        to_tile.unmerge(d_name, 1, [f"{d_name}_iter", f"{d_name}_thread"], [layout.copy_d, d_threads])
    else:
        to_tile.unmerge(d_name, 1, [f"{d_name}_thread", f"{d_name}_iter"], [d_threads, layout.copy_d])
    return split_map, to_tile.get()


def wrap_lds_for_store(config: Config, operand: Operand, layout: CopyLayout,
                       rotate: bool, *, stride: int | None = None) -> tuple[TransformMap, ...]:
    """``wrapLDSBufferForStore``: the block tile ``[k, d]`` onto the LDS tile, the vector lanes
    explicit (see the module's docstring); ``stride`` is the rotation's (``LdsLayout.stride``;
    ``None``: rocMLIR's)."""
    d_name = "m" if operand == "a" else "n"
    kpack = _kpack(config)
    k_outer = config.k_per_block // kpack
    d = layout.d_per_block
    kpack_per_thread = min(layout.copy_k, kpack)
    if kpack % kpack_per_thread:
        raise InvalidArgumentError(f"kpack {kpack} is not a multiple of kpackPerThread {kpack_per_thread}")
    threads_per_kpack = kpack // kpack_per_thread
    merge = _Builder(["k", "d"], [k_outer * threads_per_kpack * kpack_per_thread, d])
    merge.merge(["k_outer", "kpack_idx", "kpack_vec"], [0, 2, 3], "k",
                [k_outer, threads_per_kpack, kpack_per_thread])
    merge.merge([d_name], [1], "d", [d])
    maps = [merge.get()]
    last: _Builder = merge
    if rotate:
        if stride is None:
            stride = layout.copy_d if kpack == 1 else 1
        shift = _below(last, maps[-1])
        shift.pass_through(["k_outer"])
        shift.embed(d_name, 1, d * k_outer, ["k_outer", d_name], [stride, 1])
        shift.pass_through(["kpack_idx", "kpack_vec"])
        maps.append(shift.get())
        wrap = _below(shift, maps[-1])
        wrap.pass_through(["k_outer"])
        wrap.take_remainder(d_name, d)
        wrap.pass_through(["kpack_idx", "kpack_vec"])
        maps.append(wrap.get())
        last = wrap
    raw = _below(last, maps[-1])
    if kpack_per_thread == 1:
        raw.unmerge("raw", 0, ["k_outer", d_name, "kpack_idx"], [k_outer, d, threads_per_kpack])
        raw.ignore("kpack_vec")
    else:
        raw.unmerge("raw", 0, ["k_outer", d_name, "kpack_idx", "kpack_vec"],
                    [k_outer, d, threads_per_kpack, kpack_per_thread])
    maps.append(raw.get())
    return tuple(maps)


def lds_store(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch, dtype: str, *,
              layout: CopyLayout | None = None, k_contiguous: bool | None = None,
              lds: LdsLayout | None = None) -> ThreadAccess:
    """The store of A's (``operand="a"``) or B's packed registers into the workgroup's LDS tile:
    ``[tid, iter]`` over the operand's own LDS buffer of ``k_per_block * d_per_block`` elements of
    ``dtype``; ``values`` is ``copy_per_thread``, ``vector_elements`` is ``kpackPerThread`` where
    rocMLIR's LDS buffer holds vectors (the view spells the lanes out: ``vector_addresses`` is
    False). The thread layout is rocMLIR's own unless given (as for
    ``global_load``); the LDS flags are ``lds_layout``'s for that thread layout unless ``lds`` is
    given (a combination rocMLIR may not make, for an audit).

    Example: in rocMLIR's test_multi_buffer_full.mlir (kpack 8, A K-contiguous, f16) A's store is
    rotated: ``<Embed{1, 1} ["k_outer", "m"] at [0, 1] -> ["m"] at [1]>`` then ``<Broadcast{64}
    ["m"] at [1] -> ["m"] at [1]>``, over 4096 f16 with ``vector_elements`` 8 (rocMLIR's
    ``memref<512xvector<8xf16>>``).
    """
    layout, k_contiguous = chosen(grid, operand, config, arch, dtype, layout, k_contiguous)
    if lds is None:
        lds = lds_layout(config, dtype, layout, k_contiguous)
    elif not isinstance(lds, LdsLayout):
        raise InvalidArgumentError(f"lds must be an LdsLayout or None, got {lds!r}")
    tile = block_sub_tile(config, arch, grid, operand, layout, k_contiguous, lds.swap_thread_iter)
    wrap = wrap_lds_for_store(config, operand, layout, lds.rotate_d_with_k,
                              stride=lds.stride(layout.copy_d, _kpack(config)))
    buffer = Buffer((config.k_per_block * layout.d_per_block,), dtype)
    kpack_per_thread = min(layout.copy_k, _kpack(config))
    return ThreadAccess(operand, "lds_store", View(buffer, (*tile, *wrap)), "iter",
                        layout.copy_per_thread, dtype, kpack_per_thread, vector_addresses=False)
