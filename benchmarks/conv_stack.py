"""The conv2d-forward NCHW input view stack of examples/conv2d_fwd_nchw.mlir, at any size."""

from __future__ import annotations

import viewalgebra as va


def conv2d_input_view(n: int, c: int, h: int, w: int, y: int = 3, x: int = 3, pad: int = 1) -> va.View:
    """``[gemmG, gemmK, gemmN] = [1, c*y*x, n*ho*wo]`` over ``memref<n x c x h x w x f32>`` (stride 1)."""
    ho, wo = h + 2 * pad - y + 1, w + 2 * pad - x + 1
    hp, wp = h + 2 * pad, w + 2 * pad
    group = (f"<affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * {c} + d2, d3, d4)> by ["
             f'<PassThrough ["ni", "hi", "wi"] at [0, 3, 4] -> ["ni", "hi", "wi"] at [0, 2, 3]>, '
             f'<Unmerge{{1, {c}}} ["gi", "ci"] at [1, 2] -> ["ci"] at [1]>] '
             f"bounds = [{n}, 1, {c}, {h}, {w}] -> [{n}, {c}, {h}, {w}]>")
    padding = (f"<affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3 - {pad}, d4 - {pad})> by ["
               f'<PassThrough ["ni", "gi", "ci"] at [0, 1, 2] -> ["ni", "gi", "ci"] at [0, 1, 2]>, '
               f'<Pad{{{pad}, {pad}, {pad}, {pad}}} ["hipad", "wipad"] at [3, 4] -> ["hi", "wi"] at [3, 4]>] '
               f"bounds = [{n}, 1, {c}, {hp}, {wp}] -> [{n}, 1, {c}, {h}, {w}]>")
    embed = ("<affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d4, d5 + d6)> by ["
             '<PassThrough ["ni", "gi", "ci"] at [0, 1, 2] -> ["ni", "gi", "ci"] at [0, 1, 2]>, '
             '<Embed{1, 1} ["y", "ho"] at [3, 4] -> ["hipad"] at [3]>, '
             '<Embed{1, 1} ["x", "wo"] at [5, 6] -> ["wipad"] at [4]>] '
             f"bounds = [{n}, 1, {c}, {y}, {ho}, {x}, {wo}] -> [{n}, 1, {c}, {hp}, {wp}]>")
    gemm = ("<affine_map<(d0, d1, d2) -> (0, 0, 0, 0, 0, 0, 0)> by ["
            '<PassThrough ["gemmG"] at [0] -> ["gi"] at [1]>, '
            f'<Merge{{{c}, {y}, {x}}} ["gemmK"] at [1] -> ["ci", "y", "x"] at [2, 3, 5]>, '
            f'<Merge{{{n}, {ho}, {wo}}} ["gemmN"] at [2] -> ["ni", "ho", "wo"] at [0, 4, 6]>] '
            f"bounds = [1, {c * y * x}, {n * ho * wo}] -> [{n}, 1, {c}, {y}, {ho}, {x}, {wo}]>")
    # The written affine maps are not read (the ops are); the gemm map's is a placeholder.
    maps = [va.parse_transform_map(t) for t in (gemm, embed, padding, group)]
    return va.View(va.Buffer((n, c, h, w), "f32"), maps)


def gemm_tiling_view(g: int, k_loops: int, m_blocks: int, k_threads: int = 4, m_threads: int = 64,
                     k_iters: int = 4, m_iters: int = 4) -> va.View:
    """A gemm operand ``[G, K, M]`` read by a tiled kernel through ``[kloop, bid, tid, iter]``:
    ``bid = (g, m_block)``, ``tid = (k_thread, m_thread)``, ``iter = (k_iter, m_iter)``, with
    ``K = (kloop, k_thread, k_iter)`` and ``M = (m_block, m_thread, m_iter)`` slowest first."""
    k, m = k_loops * k_threads * k_iters, m_blocks * m_threads * m_iters
    split = ("<affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0, 0, 0, 0)> by ["
             '<PassThrough ["kloop"] at [0] -> ["kloop"] at [0]>, '
             f'<Merge{{{g}, {m_blocks}}} ["bid"] at [1] -> ["g", "mb"] at [1, 2]>, '
             f'<Merge{{{k_threads}, {m_threads}}} ["tid"] at [2] -> ["kt", "mt"] at [3, 4]>, '
             f'<Merge{{{k_iters}, {m_iters}}} ["iter"] at [3] -> ["ki", "mi"] at [5, 6]>] '
             f"bounds = [{k_loops}, {g * m_blocks}, {k_threads * m_threads}, {k_iters * m_iters}] -> "
             f"[{k_loops}, {g}, {m_blocks}, {k_threads}, {m_threads}, {k_iters}, {m_iters}]>")
    join = ("<affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (0, 0, 0)> by ["
            '<PassThrough ["g"] at [1] -> ["G"] at [0]>, '
            f'<Unmerge{{{k_loops}, {k_threads}, {k_iters}}} ["kloop", "kt", "ki"] at [0, 3, 5] '
            '-> ["K"] at [1]>, '
            f'<Unmerge{{{m_blocks}, {m_threads}, {m_iters}}} ["mb", "mt", "mi"] at [2, 4, 6] '
            '-> ["M"] at [2]>] '
            f"bounds = [{k_loops}, {g}, {m_blocks}, {k_threads}, {m_threads}, {k_iters}, {m_iters}] -> "
            f"[{g}, {k}, {m}]>")
    return va.View(va.Buffer((g, k, m), "f16"), [va.parse_transform_map(t) for t in (split, join)])
