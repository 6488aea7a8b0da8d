"""The per-thread views of the global load and the LDS store (docs/gridwise.md, Per-thread views):
the maps of rocMLIR's kernel test_multi_buffer_full.mlir, the LDS buffers its
gridwise_gemm_accel_lowering.mlir states, and, for random small gemms and every thread layout,
the defining properties by numpy enumeration: each block's tile read exactly once, each LDS
element written exactly once where rocMLIR's [k_outer, d, kpack] layout (rotated or not) puts it,
by the thread that loaded it."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

GRIDWISE = DATA / "gridwise"
GFX942 = gw.arch("gfx942")


def chains(text: str) -> dict[str, va.View]:
    return {p.name: p.view for p in va.text.parse_mlir_views(text) if p.view is not None}


# {{{ rocMLIR's kernels

MULTI_BUFFER = gw.AccelPerfConfig(m_per_block=64, n_per_block=64, kpack_per_block=8, m_per_wave=32, n_per_wave=32,
                                  mn_per_xdl=32, kpack=8)
"""#rock.xdlops_gemm_derived_params<kpackPerBlock = 8, mPerBlock = 64, nPerBlock = 64, kpack = 8, mPerWave = 32,
nPerWave = 32, mnPerXdl = 32> of test_multi_buffer_full.mlir (block size 256 on wave 64)."""


def multi_buffer() -> tuple[gw.GridwiseGemm, dict[str, va.View], str]:
    text = (GRIDWISE / "test_multi_buffer_full.mlir").read_text()
    # @rock_gemm(memref<1x384x1024xf16> A stored [G, M, K], memref<1x1024x1024xf16> B [G, K, N])
    grid = gw.gridwise_views(gw.GemmProblem(m=384, n=1024, k=1024, dtype="f16"), m_per_block=64, n_per_block=64,
                             kpack_per_block=8, kpack=8)
    return grid, chains(text), text


def test_the_global_loads_are_those_of_rocmlirs_kernel() -> None:
    """A (K contiguous) and B (N contiguous): rocMLIR's gridSubTile maps, map for map, and the
    same addresses over the kernel's arguments."""
    grid, views, _ = multi_buffer()
    for operand, name in (("a", "%2"), ("b", "%4")):
        access = gw.global_load(grid, operand, MULTI_BUFFER, GFX942, "f16")
        assert access.view.maps[:2] == views[name].maps[:2]
        assert va.equivalent(access.view, views[name])
        assert (access.names, access.values, access.vector_elements) == (
            ("k_loop", "g_block", "m_block", "n_block", "tid", "iter"), 16, 1)
    assert gw.thread_layout(grid, "a", MULTI_BUFFER, GFX942, "f16")[1] is True
    assert gw.thread_layout(grid, "b", MULTI_BUFFER, GFX942, "f16")[1] is False


def test_the_lds_stores_are_those_of_rocmlirs_kernel() -> None:
    """A rotated (the kernel's blockwise_gemm_accel says rotateMWithK), B swapped (Unmerge{2, 32}
    ["n_iter", "n_thread"]): the maps rocMLIR built, the rotation as the same relation in its
    newer form, and each address the kernel's vector address times 8 plus the lane."""
    grid, views, text = multi_buffer()
    assert "rotateMWithK" in text and "rotateNWithK" not in text
    assert re.search(r"inMPerThread = 2 : i32, inNPerThread = 2 : i32", text)
    for operand, name, rotated in (("a", "%37", True), ("b", "%41", False)):
        layout, k_contiguous = gw.thread_layout(grid, operand, MULTI_BUFFER, GFX942, "f16")
        assert gw.lds_layout(MULTI_BUFFER, "f16", layout, k_contiguous) == gw.LdsLayout(rotated, not rotated)
        access = gw.lds_store(grid, operand, MULTI_BUFFER, GFX942, "f16")
        theirs = views[name]
        kept = 4 if rotated else 3
        assert access.view.maps[:kept] == theirs.maps[:kept]
        if rotated:  # Broadcast{64} against the old Merge{8, 64} + AddDim of the outer part
            assert va.equivalent([access.view.maps[4]], list(theirs.maps[4:6]))
        assert (access.view.buffer.shape, access.vector_elements, access.values) == ((4096,), 8, 16)
        assert theirs.buffer.shape == (512,)  # memref<512xvector<8xf16>>
        mine, valid = access.view.addresses()
        vectors, valid_theirs = theirs.addresses()
        assert valid.all() and valid_theirs.all()
        lane = np.arange(16) % 8
        assert (mine == vectors * 8 + lane[None, :]).all()


def test_the_lds_buffers_of_rocmlirs_fp8_lowering() -> None:
    """gridwise_gemm_accel_lowering.mlir: A and B's LDS are 8192 bytes each, stored through
    memref<1024xvector<8xf8...>> after four rock.transform (no rotation: kpack 8 is below fp8's 16
    per 128 bits and each thread copies 2 along d)."""
    text = (GRIDWISE / "gridwise_gemm_accel_lowering.mlir").read_text()
    params = dict((k, int(v)) for k, v in re.findall(r"(\w+) = (\d+)", text.split("#xdlops_gemm_params = ")[1]
                                                                  .split("\n")[0]))
    config = gw.AccelPerfConfig(m_per_block=params["mPerBlock"], n_per_block=params["nPerBlock"],
                                kpack_per_block=params["kpackPerBlock"], m_per_wave=params["mPerWave"],
                                n_per_wave=params["nPerWave"], mn_per_xdl=params["mnPerXdl"], kpack=params["kpack"])
    assert config.block_size(GFX942) == int(re.search(r"blockSize = (\d+)", text).group(1))
    shapes = re.search(r"func\.func @fp8_bf8_xdlops\(%arg0: memref<(\w+)x(\w+)>, %arg1: memref<(\w+)x(\w+)>, "
                       r"%arg2: memref<(\w+)x(\w+)>", text)
    assert shapes
    dims = [tuple(int(x) for x in shapes.group(i).split("x")) for i in (1, 3, 5)]
    types = [shapes.group(i) for i in (2, 4, 6)]
    grid = gw.gemm_to_gridwise(*(va.View(va.Buffer(s, t)) for s, t in zip(dims, types, strict=True)),
                               a_transposed=True, b_transposed=False, c_transposed=False,
                               m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                               kpack_per_block=config.kpack_per_block, kpack=config.kpack)
    byte_sizes = [int(n) for n in re.findall(r"rock\.alloc\(\) : memref<(\d+)xi8", text)]
    vectors = re.findall(r"view[AB]Store:\.\+\]\] = memref\.view .* to memref<(\d+)xvector<(\d+)x(\w+)>", text)
    for operand, dtype, size, (count, lanes, vector_type) in zip(("a", "b"), types[:2], byte_sizes, vectors, strict=True):
        assert vector_type == dtype
        access = gw.lds_store(grid, operand, config, GFX942, dtype)
        assert access.view.buffer.shape == (size,)  # one byte per fp8 element
        assert (access.vector_elements, access.view.buffer.shape[0] // access.vector_elements) == (int(lanes),
                                                                                                  int(count))
        transforms = len(re.findall(rf"view{operand.upper()}StoreTr\d:", text))
        assert len(access.view.maps) == transforms == 4


# }}}
# {{{ PR #2196's example

PR2196 = gw.PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1")


def test_pr2196_thread_tile_and_widths() -> None:
    """f16 on gfx942, A stored [K, M]: A copies 2 x 3 per thread (the PR's 3x2); rocMLIR's
    capped query cuts m's run of 6 to gcd(8, 6) = 2, then to gcd(2, 3) = 1, a tie k wins: the
    load goes k-fastest along the non-contiguous k, 1 wide, exactly as wide as that layout allows;
    the same tile m-fastest allows 3, the 1 x 6 tile 6 (2 as powers of two). LDS: neither rotated
    nor swapped, 2-wide vectors."""
    assert isinstance(PR2196, gw.AccelPerfConfig)
    problem = gw.GemmProblem(m=960, n=1024, k=1024, dtype="f16", transpose_a=True)
    grid = gw.gridwise_views(problem, m_per_block=96, n_per_block=256, kpack_per_block=8, kpack=4)
    layout, k_contiguous = gw.thread_layout(grid, "a", PR2196, GFX942, "f16")
    assert (layout.copy_k, layout.copy_d, k_contiguous) == (2, 3, True)
    load = gw.global_load(grid, "a", PR2196, GFX942, "f16")
    cap = va.rocmlir.elements_per_access("f16")
    assert va.rocmlir.rocmlir_vector_length(load.view, load.dim, load.values, limit_for_data_type=True) == 1
    assert va.max_vector_length(load.view, load.dim, load.values, max_elements=cap).length == 1
    widths = {}
    for tile, k in gw.thread_layouts(PR2196, GFX942, "f16", "a"):
        other = gw.global_load(grid, "a", PR2196, GFX942, "f16", layout=tile, k_contiguous=k)
        widths[tile.copy_k, tile.copy_d, k] = tuple(
            va.max_vector_length(other.view, other.dim, other.values, max_elements=cap, power_of_two=p).length
            for p in (False, True))
    assert widths == {(1, 6, False): (6, 2), (1, 6, True): (6, 2), (2, 3, False): (3, 1), (2, 3, True): (1, 1)}
    assert gw.lds_layout(PR2196, "f16", layout, k_contiguous) == gw.LdsLayout(False, False)
    assert gw.lds_store(grid, "a", PR2196, GFX942, "f16").vector_elements == 2


# }}}
# {{{ brute force on random small gemms


@st.composite
def small_cases(draw: st.DrawFn) -> tuple[gw.GridwiseGemm, gw.AccelPerfConfig, str, str]:
    m_per_block = draw(st.sampled_from([16, 32, 64]))
    n_per_block = draw(st.sampled_from([16, 32]))
    kpack = draw(st.sampled_from([1, 2, 4, 8]))
    kpack_per_block = draw(st.sampled_from([1, 2, 4, 8]))
    assume(kpack * kpack_per_block * min(m_per_block, n_per_block) >= 64 and kpack * kpack_per_block <= 32)
    config = gw.AccelPerfConfig(m_per_block=m_per_block, n_per_block=n_per_block, kpack_per_block=kpack_per_block,
                                m_per_wave=m_per_block, n_per_wave=n_per_block, mn_per_xdl=16, kpack=kpack)
    k_per_block = config.k_per_block
    problem = gw.GemmProblem(m=draw(st.integers(1, 2 * m_per_block)), n=draw(st.integers(1, n_per_block)),
                             k=draw(st.integers(1, 2 * k_per_block)), dtype=draw(st.sampled_from(["f16", "f32"])),
                             transpose_a=draw(st.booleans()), transpose_b=draw(st.booleans()))
    grid = gw.gridwise_views(problem, m_per_block=m_per_block, n_per_block=n_per_block,
                             kpack_per_block=kpack_per_block, kpack=kpack)
    return grid, config, problem.dtype, draw(st.sampled_from(["a", "b"]))


def layouts(grid: gw.GridwiseGemm, config: gw.AccelPerfConfig, dtype: str, operand: str
            ) -> list[tuple[gw.CopyLayout | None, bool | None]]:
    return [(None, None), *gw.thread_layouts(config, GFX942, dtype, operand)]


def tile_coordinates(view: va.View) -> tuple[np.ndarray, np.ndarray]:
    """The (k, d) each point of a view's top two maps reaches in the gridwise operand or tile."""
    points = va.View(va.Buffer(view.maps[1].lower_bounds), view.maps[:2])
    addr, valid = points.addresses()
    assert valid.all()
    k_size, d_size = view.maps[1].lower_bounds[-2:]
    return addr // d_size % k_size, addr % d_size


@given(case=small_cases())
@settings(derandomize=True, max_examples=40, deadline=None)
def test_each_block_tile_is_read_once_and_stored_once_where_rocmlir_puts_it(
        case: tuple[gw.GridwiseGemm, gw.AccelPerfConfig, str, str]) -> None:
    grid, config, dtype, operand = case
    d_per_block = config.m_per_block if operand == "a" else config.n_per_block
    k_per_block, kpack = config.k_per_block, config.kpack
    for layout, k_contiguous in layouts(grid, config, dtype, operand):
        try:
            load = gw.global_load(grid, operand, config, GFX942, dtype, layout=layout, k_contiguous=k_contiguous)
        except va.errors.RocmlirRuleError:  # rocMLIR's own tile that does not divide the block tile
            assert layout is None
            continue
        # the load: every (k_loop, block) reads its k_per_block x d_per_block tile once
        k, d = tile_coordinates(load.view)
        k_loop, g, m_block, n_block, threads, values = load.view.shape
        d_block = np.arange(m_block if operand == "a" else n_block)
        d_block = d_block[None, None, :, None, None, None] if operand == "a" else d_block[None, None, None, :, None, None]
        local = (k - np.arange(k_loop)[:, None, None, None, None, None] * k_per_block) * d_per_block + (
            d - d_block * d_per_block)
        flat = np.sort(local.reshape(-1, threads * values), axis=1)
        assert (flat == np.arange(k_per_block * d_per_block)).all()
        # the whole view is the gridwise operand at those coordinates
        g_index = np.arange(g)[None, :, None, None, None, None]
        want, want_valid = (grid.a if operand == "a" else grid.b).addresses()
        got, got_valid = load.view.addresses()
        expected = np.broadcast_to(want[g_index, k, d], got.shape)
        assert (got_valid == np.broadcast_to(want_valid[g_index, k, d], got.shape)).all()
        assert (got == expected).all()
        used, chosen_k = gw.thread_layout(grid, operand, config, GFX942, dtype, layout)
        k_contiguous_now = chosen_k if k_contiguous is None else k_contiguous
        own = gw.lds_layout(config, dtype, used, k_contiguous_now)
        for flags in {own, *(gw.LdsLayout(r, s) for r in (False, True) for s in (False, True))}:
            store = gw.lds_store(grid, operand, config, GFX942, dtype, layout=layout, k_contiguous=k_contiguous,
                                 lds=None if flags == own else flags)
            check_store(store, used, flags, k_per_block, d_per_block, kpack, k, d)


def check_store(store: gw.ThreadAccess, used: gw.CopyLayout, flags: gw.LdsLayout, k_per_block: int,
                d_per_block: int, kpack: int, k: np.ndarray, d: np.ndarray) -> None:
    """Each LDS element once, at rocMLIR's [k_outer, d, kpack] place of its (k, d) (d rotated by
    stride * k_outer), stored by the thread that loaded it (k the same, d swapped or not)."""
    tile_k, tile_d = tile_coordinates(store.view)
    lds, valid = store.view.addresses()
    assert valid.all() and (np.sort(lds.ravel()) == np.arange(k_per_block * d_per_block)).all()
    shift = (used.copy_d if kpack == 1 else 1) * (tile_k // kpack) if flags.rotate_d_with_k else 0
    place = ((tile_k // kpack) * d_per_block + (tile_d + shift) % d_per_block) * kpack + tile_k % kpack
    assert (lds == place).all()
    load_k, load_d = k[0, 0, 0, 0], d[0, 0, 0, 0] % d_per_block
    k_iter, d_iter = (load_k % used.copy_k, load_d % used.copy_d)
    d_thread = load_d // used.copy_d
    d_threads = d_per_block // used.copy_d
    stored_d = d_iter * d_threads + d_thread if flags.swap_thread_iter else load_d
    kpt = min(used.copy_k, kpack)
    slot = ((k_iter // kpt) * used.copy_d + d_iter) * kpt + k_iter % kpt
    for t in range(load_k.shape[0]):
        assert (tile_k[t, slot[t]] == load_k[t]).all() and (tile_d[t, slot[t]] == stored_d[t]).all()


# }}}


def test_a_general_config_without_matrix_instructions() -> None:
    """rocMLIR's non-accelerated gemm (GridwiseGemmRewritePattern) builds the same views with
    kpack 1: copy tiles of f32 4 x 4 (A) and 2 x 4 (B), d-fastest, every LDS element once, stored
    4 wide."""
    config = gw.PerfConfig.parse("v3:64,64,32,16,2,2,1,1,2")
    assert isinstance(config, gw.GeneralPerfConfig)
    problem = gw.GemmProblem(m=64, n=64, k=32, transpose_a=True)
    grid = gw.gridwise_views(problem, m_per_block=64, n_per_block=32, kpack_per_block=16)
    for operand in ("a", "b"):
        used, k_contiguous = gw.thread_layout(grid, operand, config, GFX942, "f32")
        assert (used.copy_k, used.copy_d, k_contiguous) == ((4, 4, False) if operand == "a" else (2, 4, False))
        load = gw.global_load(grid, operand, config, GFX942, "f32")
        k, d = tile_coordinates(load.view)
        store = gw.lds_store(grid, operand, config, GFX942, "f32")
        flags = gw.lds_layout(config, "f32", used, k_contiguous)
        assert flags == gw.LdsLayout(False, False)  # kpack 1 < 4 and copy_d 4 > 1: d can be vectorized
        check_store(store, used, flags, 16, 64 if operand == "a" else 32, 1, k, d)
        assert va.max_vector_length(store.view, store.dim, store.values, max_elements=4).length == 4


def test_errors_name_the_rule() -> None:
    config = MULTI_BUFFER
    grid = gw.gridwise_views(gw.GemmProblem(m=96, n=64, k=64), m_per_block=32, n_per_block=64,
                             kpack_per_block=8, kpack=8)
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape("not whole 64 x 64 tiles")):
        gw.global_load(grid, "a", config, GFX942, "f16")
    grid = gw.gridwise_views(gw.GemmProblem(m=64, n=64, k=64), m_per_block=64, n_per_block=64,
                             kpack_per_block=8, kpack=8)
    bad = gw.CopyLayout(4, 4, 64, 64, 8)
    with pytest.raises(va.errors.RocmlirRuleError, match="threads copying 16 elements"):
        gw.global_load(grid, "a", gw.AccelPerfConfig(m_per_block=64, n_per_block=64, kpack_per_block=8,
                                                     m_per_wave=32, n_per_wave=64, mn_per_xdl=32, kpack=8),
                       GFX942, "f16", layout=bad)
    with pytest.raises(va.errors.InvalidArgumentError, match="k_contiguous must be True, False or None"):
        gw.lds_store(grid, "a", config, GFX942, "f16", k_contiguous=1)
    with pytest.raises(va.errors.InvalidArgumentError, match="operand must be 'a' or 'b'"):
        gw.global_load(grid, "c", config, GFX942, "f16")
