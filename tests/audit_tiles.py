"""A provider of simple per-thread tiles for the audit's tests and benchmark (docs/audit.md): each
thread of a block reads a ``copy_k x copy_d`` patch of A and of B (the copy layout rocMLIR
derives, ``gw.copy_layout``) through ``[k_loop, g_block, d_block, tid, iter] -> [G, K, D]`` over
the gridwise operands, with ``iter`` running along d (chosen when ``kpack == 1``) or along k
(the alternative), and writes ``copy_c`` consecutive elements of C along N. Not rocMLIR's
recipes: a stand-in with the same shape of dims until those are wired."""

from __future__ import annotations

import numpy as np

import viewalgebra as va
import viewalgebra.gridwise as gw

_DIM_NAMES = ("g", "k", "d")


def tile(operand_view: va.View, operand: str, *, k_per_block: int, d_per_block: int, block_size: int,
         copy_k: int, copy_d: int, k_contiguous: bool, kind: str = "global_load") -> gw.ThreadAccess:
    """The tile access of A or B (``[G, K, D]``): thread ``tid`` owns k rows ``k_thread * copy_k
    + ...`` and d columns ``d_thread * copy_d + ...`` of each block."""
    g, k, d = operand_view.shape
    k_threads, d_threads = k_per_block // copy_k, d_per_block // copy_d
    top = gw.TopDownMapBuilder(["k_loop", "g_block", "d_block", "tid", "iter"],
                               [k // k_per_block, g, d // d_per_block, block_size, copy_k * copy_d])
    top.pass_through(["k_loop", "g_block", "d_block"], [0, 1, 2], ["k_loop", "g_block", "d_block"])
    top.merge(["k_thread", "d_thread"], [3, 4], "tid", [k_threads, d_threads])
    if k_contiguous:
        top.merge(["d_iter", "k_iter"], [5, 6], "iter", [copy_d, copy_k])
    else:
        top.merge(["k_iter", "d_iter"], [5, 6], "iter", [copy_k, copy_d])
    first = top.get()
    below = gw.TopDownMapBuilder.below(top, first)
    below.pass_through(["g"], [0], ["g_block"])
    below.unmerge("k", 1, ["k_loop", "k_thread", "k_iter"], [k // k_per_block, k_threads, copy_k])
    below.unmerge("d", 2, ["d_block", "d_thread", "d_iter"], [d // d_per_block, d_threads, copy_d])
    view = va.View(operand_view.buffer, (first, below.get(), *operand_view.maps))
    return gw.ThreadAccess(operand, kind, view, "iter", copy_k * copy_d, operand_view.buffer.dtype)  # type: ignore[arg-type]


def c_tile(c_view: va.View, *, m_per_block: int, n_per_block: int, block_size: int) -> gw.ThreadAccess:
    """Each thread writes ``copy`` consecutive elements of a row of C's block tile."""
    g, m, n = c_view.shape
    copy = m_per_block * n_per_block // block_size
    n_threads = n_per_block // copy
    top = gw.TopDownMapBuilder(["g_block", "m_block", "n_block", "tid", "iter"],
                               [g, m // m_per_block, n // n_per_block, block_size, copy])
    top.pass_through(["g_block", "m_block", "n_block"], [0, 1, 2], ["g_block", "m_block", "n_block"])
    top.merge(["m_thread", "n_thread"], [3, 4], "tid", [m_per_block, n_threads])
    top.pass_through(["n_iter"], [5], ["iter"])
    first = top.get()
    below = gw.TopDownMapBuilder.below(top, first)
    below.pass_through(["g"], [0], ["g_block"])
    below.unmerge("m", 1, ["m_block", "m_thread"], [m // m_per_block, m_per_block])
    below.unmerge("n", 2, ["n_block", "n_thread", "n_iter"], [n // n_per_block, n_threads, copy])
    view = va.View(c_view.buffer, (first, below.get(), *c_view.maps))
    return gw.ThreadAccess("c", "global_store", view, "iter", copy, c_view.buffer.dtype)


def covers_once(operand: str, **shape: int | bool) -> str | None:
    """The check that one block's threads cover its ``k_per_block x d_per_block`` tile once: the
    tile's maps over a buffer of one block tile (``None`` when they do, else a witness)."""
    k, d = int(shape["k_per_block"]), int(shape["d_per_block"])
    block = tile(va.View(va.Buffer((1, k, d), "f32")), operand, **shape)  # type: ignore[arg-type]
    addr, valid = block.view.addresses()
    seen = np.bincount(addr[valid].ravel(), minlength=k * d)
    if seen.max() > 1:
        return f"address {int(np.argmax(seen))} of a block tile is read {int(seen.max())} times"
    if seen.min() == 0:
        return f"address {int(np.argmin(seen))} of a block tile is never read"
    return None


def provider(problem: object, config: object, arch: gw.Arch) -> list[gw.AuditItem]:
    """A, B loads (their chosen and alternative layouts) and the C store of a (problem, config)."""
    assert isinstance(config, gw.AccelPerfConfig)
    grid = gw.config_views(problem, config)  # type: ignore[arg-type]
    dtype = grid.a.buffer.dtype
    block = config.block_size(arch)
    items = []
    for operand, view, d_per_block in (("a", grid.a, config.m_per_block), ("b", grid.b, config.n_per_block)):
        layout = gw.copy_layout(config, arch, dtype, operand)  # type: ignore[arg-type]
        shared = {"k_per_block": config.k_per_block, "d_per_block": d_per_block, "block_size": block,
                  "copy_k": layout.copy_k, "copy_d": layout.copy_d}
        chosen = tile(view, operand, k_contiguous=config.kpack > 1, **shared)
        other = tile(view, operand, k_contiguous=config.kpack == 1, **shared)
        check = gw.AuditCheck(f"{operand}_tile_covers_block_once",
                              lambda o=operand, s=shared, c=config.kpack > 1: covers_once(o, k_contiguous=c, **s))
        items.append(gw.AuditItem(chosen, (other,), (check,)))
    items.append(gw.AuditItem(c_tile(grid.c, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                                     block_size=block)))
    return items
