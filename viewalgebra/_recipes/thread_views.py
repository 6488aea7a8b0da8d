"""The per-thread view of the global load of A or B: which element of the gridwise operand each
``(k_loop, g_block, m_block, n_block, tid, iter)`` reads (docs/gridwise.md, Per-thread views).

A port of ``getLoadRegsAsTileViews`` (its ``gridSubTile``) and of the choice ``getVectorDim``
makes before it, both in mlir/lib/Dialect/Rock/utility/loweringUtils.cpp (the version with
``computeCopyPerThreadDirectToLDS`` whose ``getVectorDim`` refuses direct-to-LDS on gfx1250; the
index does not name its commit), called as rocMLIR's ``BlockwiseLoadTileToThreadwise.cpp`` and
``GridwiseGemmToBlockwise.cpp`` call them at 035e8806645f. rocMLIR's kernel
mlir/test/Dialect/Rock/integration/multibuffer/test_multi_buffer_full.mlir at 12901f06ed59
(tests/data/gridwise/) states the maps.

The view, top first:

1. ``[k_loop, g_block, m_block, n_block, tid, iter]`` (sizes ``K / k_per_block``, ``G``,
   ``M / m_per_block``, ``N / n_per_block``, the block size and ``copy_per_thread``): the block
   dims pass through; ``tid`` is ``Merge(d_thread, k_thread)`` and ``iter`` ``Merge(d_iter,
   k_iter)`` when k is the contiguous (vectorized) dim, ``Merge(k_thread, d_thread)`` and
   ``Merge(k_iter, d_iter)`` otherwise;
2. onto the gridwise operand ``[G, K, D]``: ``g`` is ``g_block``, ``k = Unmerge(k_loop, k_thread,
   k_iter)``, ``d = Unmerge(d_block, d_thread, d_iter)``; the other operand's block dim is
   ignored (``AddDim``);
3. then the gridwise operand's own maps, down to the problem's buffer.

``k_loop`` is a dim of the view: the main loop's iteration. The block ids are three dims as
well: rocMLIR splits the workgroup id into them outside the view
(``layout::makeGroupedGridLayout``, mlir/lib/Dialect/Rock/Transforms/GridLayoutEmitter.cpp, which
groups m blocks for cache locality), so every block of the grid is one point of the view's
``(g_block, m_block, n_block)`` box, whatever order the workgroups take them in.

Not modelled: direct-to-LDS (schedule versions 3 and 4), the register-only load
(``BypassLDS``), and the types a fused input changes the load to (``elementTypeALoad``).
"""

from __future__ import annotations

from .._maps.transform_map import TransformMap
from .._maps.view import View
from .._rocmlir.vectorization import rocmlir_vector_length
from ..errors import InvalidArgumentError, RocmlirRuleError
from .access import ThreadAccess
from .arch import Arch
from .builder import TopDownMapBuilder
from .gemm_to_gridwise import GridwiseGemm
from .perf_config import AccelPerfConfig, GeneralPerfConfig, Operand
from .thread_copy import CopyLayout, copy_layout, vector_dim

Config = AccelPerfConfig | GeneralPerfConfig


def block_size(config: Config, arch: Arch) -> int:
    """Threads per workgroup: the accelerated config's ``block_size(arch)``, a general config's
    own."""
    return config.block_size(arch) if isinstance(config, AccelPerfConfig) else config.block_size


def operand_view(grid: GridwiseGemm, operand: Operand) -> View:
    """The gridwise operand ``[G, K, D]``: ``grid.a`` or ``grid.b``."""
    if operand not in ("a", "b"):
        raise InvalidArgumentError(f"operand must be 'a' or 'b', got {operand!r}")
    return grid.a if operand == "a" else grid.b


def thread_layouts(config: Config, arch: Arch, dtype: str,
                   operand: Operand) -> tuple[tuple[CopyLayout, bool], ...]:
    """Every ``(copy tile, k_contiguous)`` the per-thread views can be built with for this tile:
    each ``copy_k x copy_d`` with ``copy_k * copy_d = copy_per_thread``, ``copy_k`` dividing
    ``k_per_block``, ``copy_d`` dividing ``d_per_block`` and ``(k_per_block / copy_k) *
    (d_per_block / copy_d)`` threads making the whole block (the condition under which
    ``getLoadRegsAsTileViews`` builds its views), each with ``k_contiguous`` False and True;
    ordered by ``copy_k``, then False before True. rocMLIR's own copy tile (``copy_layout``) is
    among them whenever its views can be built at all; its ``k_contiguous`` depends on the global
    view (``thread_layout``).

    Example: ``v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1`` in f16 on gfx942, A (6 elements per thread
    of a 32 x 96 tile): the tiles 1x6 and 2x3 (rocMLIR's) divide the tile, 3x2 and 6x1 do not
    divide k = 32, so four entries: 1x6 and 2x3, each with k_contiguous False and True.
    """
    own = copy_layout(config, arch, dtype, operand)  # also checks the operand and the copy size
    threads = block_size(config, arch)
    found: list[tuple[CopyLayout, bool]] = []
    per_thread = own.copy_per_thread
    for copy_k in (c for c in range(1, per_thread + 1) if per_thread % c == 0):
        copy_d = per_thread // copy_k
        if own.k_per_block % copy_k or own.d_per_block % copy_d:
            continue
        if (own.k_per_block // copy_k) * (own.d_per_block // copy_d) != threads:
            continue
        layout = CopyLayout(copy_k, copy_d, own.k_per_block, own.d_per_block, own.kpack)
        found.extend((layout, k_contiguous) for k_contiguous in (False, True))
    return tuple(found)


def thread_layout(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch, dtype: str,
                  layout: CopyLayout | None = None) -> tuple[CopyLayout, bool]:
    """rocMLIR's own ``(copy tile, k_contiguous)`` (``getVectorDim``): the tile of
    ``copy_layout`` (or ``layout``), and whether k is the dim ``bestGlobalVectorization`` picks,
    from the runs rocMLIR's own ``getMaxVectorization`` (``rocmlir_vector_length``) finds on the
    gridwise operand along K for ``gcd(copy_per_thread, k_per_block)`` elements and along D for
    ``gcd(copy_per_thread, d_per_block)``, each capped as that function caps every answer
    (``gcd(128 / bits, run)``: ``ignoreDataType`` is false there), then cut to the tile.

    Example: A stored ``[M, K]`` (K contiguous) with the 2x3 tile of
    ``v4:96,256,8,96,32,32,4,...``: runs of 2 along k, 1 along m, so ``k_contiguous`` is True;
    A stored ``[K, M]``: 6 along m, capped to ``gcd(8, 6) = 2``, cut to ``gcd(2, 3) = 1``, a tie
    with k's 1 that k wins (``kpack > 1``): True as well.
    """
    tile = copy_layout(config, arch, dtype, operand) if layout is None else layout
    view = operand_view(grid, operand)
    k_run = rocmlir_vector_length(view, 1, tile.k_run_bound, limit_for_data_type=True)
    d_run = rocmlir_vector_length(view, 2, tile.d_run_bound, limit_for_data_type=True)
    dim, _ = vector_dim(tile, k_run, d_run)
    return tile, dim == "k"


def chosen(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch, dtype: str,
           layout: CopyLayout | None, k_contiguous: bool | None) -> tuple[CopyLayout, bool]:
    """The thread layout to build: what is given, rocMLIR's choice for the rest."""
    if k_contiguous is not None and not isinstance(k_contiguous, bool):
        raise InvalidArgumentError(f"k_contiguous must be True, False or None, got {k_contiguous!r}")
    if layout is not None and not isinstance(layout, CopyLayout):
        raise InvalidArgumentError(f"layout must be a CopyLayout or None, got {layout!r}")
    if layout is None or k_contiguous is None:
        layout, own = thread_layout(grid, operand, config, arch, dtype, layout)
        k_contiguous = own if k_contiguous is None else k_contiguous
    return layout, k_contiguous


def check_tile(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch,
               layout: CopyLayout) -> tuple[int, int, int]:
    """``(block size, k threads, d threads)`` of ``layout`` on ``config``'s tile; a
    ``RocmlirRuleError`` where rocMLIR's views fail (``getLoadRegsAsTileViews`` returns failure)
    and an ``InvalidArgumentError`` where the layout or the operand does not fit the config."""
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    if (layout.k_per_block, layout.d_per_block) != (config.k_per_block, d_per_block):
        raise InvalidArgumentError(
            f"the layout's tile is {layout.k_per_block} x {layout.d_per_block}, the config's "
            f"{config.k_per_block} x {d_per_block} (k x d)")
    shape = operand_view(grid, operand).shape
    if shape[1] % config.k_per_block or shape[2] % d_per_block:
        raise InvalidArgumentError(
            f"the gridwise operand {operand.upper()} is [G, K, D] = {list(shape)}, "
            f"not whole {config.k_per_block} x {d_per_block} tiles: build it with this config's block sizes")
    threads = block_size(config, arch)
    if layout.copy_per_thread * threads != config.k_per_block * d_per_block:
        raise RocmlirRuleError(f"{config}: {threads} threads copying {layout.copy_per_thread} elements "
                               f"each do not make the {config.k_per_block} x {d_per_block} tile")
    if d_per_block % layout.copy_d or config.k_per_block % layout.copy_k:
        raise RocmlirRuleError(f"{config}: the {layout.copy_k}x{layout.copy_d} copy tile does not divide "
                               f"the {config.k_per_block} x {d_per_block} block tile "
                               "(getLoadRegsAsTileViews fails)")
    return threads, config.k_per_block // layout.copy_k, d_per_block // layout.copy_d


def split_tid(b: TopDownMapBuilder, d_name: str, d_threads: int, k_threads: int, at: tuple[int, int],
              k_contiguous: bool) -> None:
    """``makeLoadRegsTidMerge``: ``tid`` as ``(d_thread, k_thread)`` when k is contiguous, else
    ``(k_thread, d_thread)``."""
    if k_contiguous:
        b.merge([f"{d_name}_thread", "k_thread"], list(at), "tid", [d_threads, k_threads])
    else:
        b.merge(["k_thread", f"{d_name}_thread"], list(at), "tid", [k_threads, d_threads])


def grid_sub_tile(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch,
                  layout: CopyLayout, k_contiguous: bool) -> tuple[TransformMap, TransformMap]:
    """``getLoadRegsAsTileViews(...).gridSubTile``: the two maps from ``[k_loop, g_block, m_block,
    n_block, tid, iter]`` onto the gridwise operand ``[G, K, D]``."""
    threads, k_threads, d_threads = check_tile(grid, operand, config, arch, layout)
    d_name = "m" if operand == "a" else "n"
    this_block, other_block = (("m_block", "n_block") if operand == "a" else ("n_block", "m_block"))
    g, k, d = operand_view(grid, operand).shape
    d_per_block = layout.d_per_block
    lengths = (g, grid.a.shape[2] // config.m_per_block, grid.b.shape[2] // config.n_per_block)
    split = TopDownMapBuilder(["k_loop", "g_block", "m_block", "n_block", "tid", "iter"],
                              [k // config.k_per_block, *lengths, threads, layout.copy_per_thread])
    split.pass_through(["k_loop", "g_block", "m_block", "n_block"])
    split_tid(split, d_name, d_threads, k_threads, (4, 5), k_contiguous)
    if k_contiguous:
        split.merge([f"{d_name}_iter", "k_iter"], [6, 7], "iter", [layout.copy_d, layout.copy_k])
    else:
        split.merge(["k_iter", f"{d_name}_iter"], [6, 7], "iter", [layout.copy_k, layout.copy_d])
    split_map = split.get()
    to_global = TopDownMapBuilder.below(split, split_map)
    to_global.pass_through(["g"], [0], ["g_block"])
    to_global.unmerge("k", 1, ["k_loop", "k_thread", "k_iter"],
                      [k // config.k_per_block, k_threads, layout.copy_k])
    to_global.unmerge(d_name, 2, [this_block, f"{d_name}_thread", f"{d_name}_iter"],
                      [d // d_per_block, d_threads, layout.copy_d])
    to_global.ignore(other_block)
    return split_map, to_global.get()


def global_load(grid: GridwiseGemm, operand: Operand, config: Config, arch: Arch, dtype: str, *,
                layout: CopyLayout | None = None, k_contiguous: bool | None = None) -> ThreadAccess:
    """The global load of A (``operand="a"``) or B by one thread per k iteration: the
    ``gridSubTile`` view ``[k_loop, g_block, m_block, n_block, tid, iter]`` composed with the
    gridwise operand's maps, over the problem's buffer; ``values`` is ``copy_per_thread``
    (rocMLIR's ``numValues``, the register buffer's size). With ``layout`` and ``k_contiguous``
    left out, rocMLIR's own choices (``thread_layout``); given, that thread layout (any of
    ``thread_layouts``).

    Example: ``global_load(gridwise_views(GemmProblem(m=384, n=1024, k=1024), m_per_block=64,
    n_per_block=64, kpack_per_block=8, kpack=8), "a", config, arch("gfx942"), "f16")`` is A's
    view of rocMLIR's test_multi_buffer_full.mlir: ``<Merge{32, 8} ["tid"] at [4] ->
    ["m_thread", "k_thread"] at [4, 5]>, <Merge{2, 8} ["iter"] at [5] -> ["m_iter", "k_iter"]
    at [6, 7]>`` then ``<Unmerge{16, 8, 8} ["k_loop", "k_thread", "k_iter"] at [0, 5, 7] ->
    ["k"] at [1]>``, ...
    """
    layout, k_contiguous = chosen(grid, operand, config, arch, dtype, layout, k_contiguous)
    maps = grid_sub_tile(grid, operand, config, arch, layout, k_contiguous)
    base = operand_view(grid, operand)
    view = View(base.buffer, (*maps, *base.maps), strict=base.strict)
    return ThreadAccess(operand, "global_load", view, "iter", layout.copy_per_thread, dtype)
