"""The C store and the LDS reads of the accelerated gemm (docs/gridwise.md, C store and LDS
reads): the maps of rocMLIR's own kernel, the C store's coverage of C by brute force, and a whole
block simulated in numpy: A and B laid out in LDS as the LDS store writes them, each lane's
fragments read through ``lds_read``, multiplied by the matrix instruction's documented operand
and result layouts, and stored through ``c_store``, must give A @ B."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

KERNEL = DATA / "gridwise" / "align-tiling-non-contiguous-strides.mlir"
LIT_CONFIG = "v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1"
"""The kernel's ``#rock.mfma_gemm_params`` as a perf config."""


def lit_grid() -> gw.GridwiseGemm:
    """The kernel's gemm: A ``memref<4x24x16xf16>`` ([G, M, K]), B ``memref<4x16x24xf16>``."""
    problem = gw.GemmProblem(g=4, m=24, n=24, k=16, dtype="f16")
    return gw.gridwise_views(problem, m_per_block=16, n_per_block=32, kpack_per_block=8, kpack=8)


def test_the_c_store_is_rocmlirs_and_so_are_the_layout_flags() -> None:
    """align-tiling-non-contiguous-strides.mlir (gfx950, f16): the six maps of its
    rock.threadwise_write_all are the port's, map for map, and the same relation onto C; the
    blockwise_gemm_accel's matrix params are the port's LDS layouts; the LDS tiles and the
    per-thread value counts are the kernel's buffers."""
    text = KERNEL.read_text()
    maps = {m.name: m.map for m in va.text.parse_mlir_transform_maps(text)}
    written = re.search(r"rock\.threadwise_write_all \{[^}]*\} %33 -> \[([^\]]*)\]", text)
    assert written
    theirs = tuple(maps[n.strip().lstrip("#")] for n in written.group(1).split(","))
    config = gw.PerfConfig.parse(LIT_CONFIG)
    gfx950 = gw.arch("gfx950")
    grid = lit_grid()
    store = gw.c_store(grid, config, gfx950, "f16")
    assert store.view.maps[:6] == theirs
    assert (store.iter_dim, store.values, store.names) == ("item", 4, ("g_block", "m_block", "n_block", "tid", "item"))
    alloc = va.Buffer((4, 32, 32), "f32")  # the kernel writes its f32 accumulator buffer
    assert va.equivalent(va.View(alloc, theirs), va.View(alloc, store.view.maps[:6]))
    params = dict(re.findall(r"matrixParams([AB]) = #rock\.blockwise_matrix_params<([^>]*)>", text))
    for operand in "ab":
        fields = dict(re.findall(r"(\w+) = (\w+)", params[operand.upper()]))
        layout = gw.operand_lds(grid, operand, config, gfx950, "f16")
        assert (fields["rotateDWithK"], fields["swapThreadIterSubDims"], int(fields["inDPerThread"])) == (
            str(layout.rotate_d_with_k).lower(), str(layout.swap_thread_iter).lower(), layout.d_per_thread)
    assert "memref<128xvector<8xf16>" in text and "memref<256xvector<8xf16>" in text
    assert [gw.lds_tile(config, op, "f16").shape for op in "ab"] == [(128,), (256,)]
    reads = [gw.lds_read(grid, op, config, gfx950, "f16") for op in "ab"]
    assert "memref<2xvector<8xf16>, #gpu.address_space<private>>" in text  # the registers of one repeat
    assert [(r.values, r.vector_elements, r.view.shape) for r in reads] == [(2, 8, (128, 1, 2))] * 2


def test_without_the_swap_the_store_writes_c_in_the_instructions_order() -> None:
    """swap=False is the view before swapThreadIdAndIteration: the same elements, B's n no longer
    unswapped (lane n_tid and value n_iter trade places), so other points write the padding."""
    config = gw.PerfConfig.parse(LIT_CONFIG)
    grid = lit_grid()
    store = gw.c_store(grid, config, gw.arch("gfx950"), "f16")
    plain = gw.c_store(grid, config, gw.arch("gfx950"), "f16", swap=False)
    options = gw.c_store_alternatives(grid, config, gw.arch("gfx950"), "f16")
    assert options[False, True].view == store.view and options[False, False].view == plain.view
    mine, valid = store.view.addresses()
    theirs, valid_plain = plain.view.addresses()
    assert sorted(mine[valid].tolist()) == sorted(theirs[valid_plain].tolist()) == list(range(4 * 24 * 24))
    assert not np.array_equal(valid, valid_plain)  # the padding columns n >= 24 are other points


ARCHS = ("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201")


@st.composite
def problems(draw: st.DrawFn) -> tuple[gw.GemmProblem, gw.AccelPerfConfig, gw.Arch]:
    """A small gemm, an arch and one of its quick configs (rocMLIR's own list)."""
    arch = gw.arch(draw(st.sampled_from(ARCHS)))
    dtype = draw(st.sampled_from(("f16", "f32") if arch.accel("f32") else ("f16", "i8")))
    problem = gw.GemmProblem(g=draw(st.integers(1, 2)), m=draw(st.integers(1, 40)), n=draw(st.integers(1, 40)),
                             k=draw(st.integers(1, 24)), dtype=dtype, transpose_a=draw(st.booleans()),
                             transpose_b=draw(st.booleans()), transpose_c=draw(st.booleans()))
    configs = [c for c in gw.tuning_space(problem, arch, "quick")
               if isinstance(c, gw.AccelPerfConfig) and c.m_per_block * c.n_per_block <= 64 * 64]
    config = draw(st.sampled_from(configs))
    return problem, config, arch


def grid_of(problem: gw.GemmProblem, config: gw.AccelPerfConfig) -> gw.GridwiseGemm:
    return gw.gridwise_views(problem, m_per_block=config.m_per_block, n_per_block=config.n_per_block,
                             kpack_per_block=config.kpack_per_block, kpack=config.kpack,
                             split_k_factor=config.split_k_factor)


@given(case=problems())
@settings(derandomize=True, max_examples=40, deadline=None)
def test_the_c_store_writes_every_element_of_c_once_per_split(
        case: tuple[gw.GemmProblem, gw.AccelPerfConfig, gw.Arch]) -> None:
    """Over all blocks, threads and values, every element of C is written split_k_factor times
    and nothing else is (the padding's points are invalid), with or without the swaps."""
    problem, config, arch = case
    grid = grid_of(problem, config)
    for swap in (True, False):
        store = gw.c_store(grid, config, arch, problem.dtype, swap=swap)
        addresses, valid = store.view.addresses()
        counts = np.bincount(addresses[valid], minlength=problem.g * problem.m * problem.n)
        assert counts.tolist() == [config.split_k_factor] * (problem.g * problem.m * problem.n)
        assert store.values == gw.accel_params(config, arch, problem.dtype).num_values
        assert store.dtype == problem.c_dtype


def operand_layout(p: gw.AccelParams) -> tuple[int, int, int]:
    """(rows, lanes with distinct k, k values per lane per instruction) of the documented layout:
    MFMA 32x32x8: lane l holds A[l % 32][4 * (l // 32) + i]; 16x16x16: A[l % 16][4 * (l // 16) + i];
    WMMA gfx11: A[l % 16][i], i < 16 (the two half waves hold the same); gfx12: A[l % 16][8 * (l // 16) + i]."""
    if isinstance(p.instruction, gw.MfmaInstruction):
        span = p.instruction.input_span_len
        return span, 64 // span, p.k_base
    return 16, (1 if p.gfx11 else 2), p.k_base


def result_position(p: gw.AccelParams, lane: np.ndarray, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of accumulator ``value`` of ``lane`` in the documented result layout:
    MFMA rows ``(v // 4) * 4 * spans + 4 * (l // span) + v % 4``, column ``l % span``; WMMA gfx11
    rows ``2 * v + l // 16``, gfx12 ``8 * (l // 16) + v``, column ``l % 16``."""
    rows, spans, _ = operand_layout(p)
    if p.accel == "mfma":
        return (value // 4) * 4 * spans + 4 * (lane // rows) + value % 4, lane % rows
    if p.gfx11:
        return 2 * value + lane // 16, lane % 16
    return 8 * (lane // 16) + value, lane % 16


def lds_tile_contents(matrix: np.ndarray, layout: gw.OperandLds, kpack: int, d_per_block: int) -> np.ndarray:
    """The LDS tile (k_outer * d_per_block vectors of kpack) of one block's ``matrix[k, d]`` as
    the LDS store writes it: position p of row k_outer holds real row sigma(p) (the swap of
    d's thread and iteration parts), rotated to (p + stride * k_outer) mod d_per_block."""
    k_outer = matrix.shape[0] // kpack
    copy = layout.d_per_thread
    p = np.arange(d_per_block)
    sigma = (p % (d_per_block // copy)) * copy + p // (d_per_block // copy) if layout.swap_thread_iter else p
    stride = copy if kpack == 1 else 1
    tile = np.zeros((k_outer * d_per_block, kpack))
    for ko in range(k_outer):
        at = (p + stride * ko) % d_per_block if layout.rotate_d_with_k else p
        tile[ko * d_per_block + at] = matrix[ko * kpack:(ko + 1) * kpack, sigma].T
    return tile


def operand(p: gw.AccelParams, fragments: np.ndarray) -> np.ndarray:
    """The instruction's operand ``[row, k]`` from each lane's ``k_base`` fragment values in the
    documented layout; every (row, k) comes from exactly one lane, or from several that agree."""
    rows, spans, k_base = operand_layout(p)
    full = np.full((rows, spans * k_base), np.nan)
    for lane_id, values in enumerate(fragments):
        row, group = lane_id % rows, (lane_id // rows) % spans
        seen = full[row, group * k_base:(group + 1) * k_base]
        assert np.isnan(seen).all() or np.array_equal(seen, values)
        full[row, group * k_base:(group + 1) * k_base] = values
    assert not np.isnan(full).any()
    return full


def simulate(problem: gw.GemmProblem, config: gw.AccelPerfConfig, arch: gw.Arch, rng: np.random.Generator) -> None:
    """Run the gemm block by block through the views and compare C with A @ B."""
    grid = grid_of(problem, config)
    p = gw.accel_params(config, arch, problem.dtype)
    g_, k_len, m_len = grid.a.shape
    n_len = grid.b.shape[2]
    values = [rng.integers(-3, 4, size=int(np.prod(v.buffer.shape))).astype(float) for v in (grid.a, grid.b)]
    dense = []
    for v, buf in zip((grid.a, grid.b), values, strict=True):
        addresses, valid = v.addresses()
        dense.append(np.where(valid, buf[np.where(valid, addresses, 0)], 0.0))
    a, b = dense
    layouts = [gw.operand_lds(grid, op, config, arch, problem.dtype) for op in "ab"]
    reads = [gw.lds_read(grid, op, config, arch, problem.dtype) for op in "ab"]
    read_at = [r.view.addresses()[0] for r in reads]  # [tid, d_iter, k_iter] -> tile vector
    store = gw.c_store(grid, config, arch, problem.dtype)
    c_addr, c_valid = store.view.addresses()  # [g, mb, nb, tid, item]
    out = np.zeros(int(np.prod(grid.c.buffer.shape)))
    rows, _, k_base = operand_layout(p)
    block = config.block_size(arch)
    m_waves, n_waves = config.waves
    lane = np.arange(p.wave_size)
    kpb = config.kpack_per_block * config.kpack
    for g in range(g_):
        for mb in range(m_len // config.m_per_block):
            for nb in range(n_len // config.n_per_block):
                acc = np.zeros((block, p.num_values))
                for kb in range(k_len // kpb):
                    ks = slice(kb * kpb, (kb + 1) * kpb)
                    tiles = [lds_tile_contents(a[g, ks, mb * config.m_per_block:(mb + 1) * config.m_per_block],
                                               layouts[0], config.kpack, config.m_per_block),
                             lds_tile_contents(b[g, ks, nb * config.n_per_block:(nb + 1) * config.n_per_block],
                                               layouts[1], config.kpack, config.n_per_block)]
                    # registers[tid, d_iter, scalar]: the k_iter vectors of kpack, in order
                    regs = [t[at].reshape(block, at.shape[1], -1) for t, at in zip(tiles, read_at, strict=True)]
                    calls = regs[0].shape[2] // k_base
                    assert calls >= 1 and regs[0].shape[2] % k_base == 0
                    for tid0 in range(0, block, p.wave_size):
                        for ci in range(p.m_repeats):
                            for cj in range(p.n_repeats):
                                wave = [regs[0][tid0:tid0 + p.wave_size, ci], regs[1][tid0:tid0 + p.wave_size, cj]]
                                d = np.zeros((rows, rows))
                                for c in range(calls):
                                    part = slice(c * k_base, (c + 1) * k_base)
                                    d += operand(p, wave[0][:, part]) @ operand(p, wave[1][:, part]).T
                                for v in range(p.acc_len):
                                    r_, c_ = result_position(p, lane, np.full_like(lane, v))
                                    item = (ci * p.n_repeats + cj) * p.acc_len + v
                                    acc[tid0:tid0 + p.wave_size, item] += d[r_, c_]
                ok = c_valid[g, mb, nb]
                np.add.at(out, c_addr[g, mb, nb][ok], acc[ok])
    # the product of each split (gemmG of the gridwise gemm) added into C through C's own view
    product = np.einsum("gkm,gkn->gmn", a, b)
    c_view_addr, c_view_valid = grid.c.addresses()
    expected = np.zeros_like(out)
    np.add.at(expected, c_view_addr[c_view_valid], product[c_view_valid])
    assert np.array_equal(out, expected)


@given(case=problems(), seed=st.integers(0, 2**16))
@settings(derandomize=True, max_examples=30, deadline=None)
def test_a_simulated_kernel_computes_a_times_b(case: tuple[gw.GemmProblem, gw.AccelPerfConfig, gw.Arch],
                                               seed: int) -> None:
    """Each lane's fragments (lds_read over the LDS tile as the LDS store lays it out) fed to
    the instruction as its documented layout, the results stored by c_store: C = A @ B, split-K
    adding its parts, and every (row, k) of an operand supplied by exactly one lane (gfx11: by
    both half waves, equally)."""
    problem, config, arch = case
    simulate(problem, config, arch, np.random.default_rng(seed))


@pytest.mark.parametrize("arch, config", [
    ("gfx942", "v4:64,64,4,32,32,32,4,1,1,2,0,0,1,1"),  # 32x32x8f16, k from A [M, K]: rotated
    ("gfx90a", "v4:32,64,16,32,32,16,1,1,1,2,0,0,1,1"),  # kpack 1: k_base 4 times 4 input spans
    ("gfx1100", "v4:32,32,4,16,16,16,16,1,1,2,0,0,1,1"),
    ("gfx1201", "v4:32,32,4,16,32,16,8,1,1,2,0,0,1,1"),
    ("gfx950", LIT_CONFIG),
    ("gfx942", "v4:32,32,8,16,16,16,4,2,1,2,0,0,1,1"),  # split-K by 2
])
def test_hand_built_configs_compute_a_times_b(arch: str, config: str) -> None:
    """Configs the quick lists may not draw: 32x32 MFMAs, kpack 1, both WMMA generations,
    split-K (each element of C written once per split, the splits adding up to A @ B)."""
    parsed = gw.PerfConfig.parse(config)
    assert isinstance(parsed, gw.AccelPerfConfig)
    for transpose in (False, True):
        problem = gw.GemmProblem(m=40, n=48, k=40, dtype="f16", transpose_a=transpose, transpose_b=transpose)
        simulate(problem, parsed, gw.arch(arch), np.random.default_rng(7))
        addresses, valid = gw.c_store(grid_of(problem, parsed), parsed, gw.arch(arch), "f16").view.addresses()
        assert np.bincount(addresses[valid]).tolist() == [parsed.split_k_factor] * (40 * 48)


def test_a_config_rocmlir_cannot_lower_is_refused() -> None:
    """A wave tile WMMA has no instruction for, and an arch without one for the type."""
    grid = gw.gridwise_views(gw.GemmProblem(m=64, n=64, k=64, dtype="f16"), m_per_block=64, n_per_block=64,
                             kpack_per_block=4, kpack=8)
    bad = gw.PerfConfig.parse("v4:64,64,4,24,64,16,8,1,1,2,0,0,1,1")
    assert isinstance(bad, gw.AccelPerfConfig)
    with pytest.raises(va.errors.RocmlirRuleError, match="m_per_wave 24 does not divide m_per_block 64"):
        gw.c_store(grid, bad, gw.arch("gfx1100"), "f16")
    good = gw.PerfConfig.parse("v4:64,64,4,32,32,16,8,1,1,2,0,0,1,1")
    assert isinstance(good, gw.AccelPerfConfig)
    with pytest.raises(va.errors.InvalidArgumentError, match="gfx1100 has no matrix instruction for f32"):
        gw.lds_read(grid, "a", good, gw.arch("gfx1100"), "f32")


@pytest.mark.parametrize("transposes, config, width", [
    ((False, False, False), "v4:32,32,8,16,16,16,8,1,1,2,0,0,1,1", 1),  # C [M, N]: a lane's values run down m
    ((False, False, True), "v4:32,32,8,16,16,16,8,1,1,2,0,0,1,1", 4),  # C [N, M]: 4 rows of a row group
    ((True, True, True), "v4:32,32,8,16,16,16,8,1,1,2,0,0,1,1", 1),  # A's m swapped: the rows split
    ((True, True, True), "v4:32,32,8,16,16,16,4,1,2,2,0,0,1,1", 4),  # kpack 4 < 4 f32 per 128 bits: no swap
])
def test_the_c_store_width_is_rocmlirs_and_exact(transposes: tuple[bool, bool, bool], config: str, width: int) -> None:
    """The store's width along item (f32 on gfx942, capped at 128 bits): rocMLIR's rule, the exact
    answer and a brute force over every point agree; where A's LDS layout swaps m, undoing the
    swap in the store costs the 4-wide stores of an m-contiguous C."""
    parsed = gw.PerfConfig.parse(config)
    assert isinstance(parsed, gw.AccelPerfConfig)
    ta, tb, tc = transposes
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f32", transpose_a=ta, transpose_b=tb, transpose_c=tc)
    gfx942 = gw.arch("gfx942")
    store = gw.c_store(grid_of(problem, parsed), parsed, gfx942, "f32")
    addresses, valid = store.view.addresses()
    assert valid.all()
    runs = addresses.reshape(-1, store.values // width, width)
    assert (np.diff(runs, axis=-1) == 1).all()
    if width < store.values:
        wider = addresses.reshape(-1, store.values // (2 * width), 2 * width)
        assert not (np.diff(wider, axis=-1) == 1).all()
    assert va.max_vector_length(store.view, store.dim, store.values, max_elements=4).length == width
    assert va.rocmlir.rocmlir_vector_length(store.view, store.dim, store.values) == width


def test_an_lds_read_is_one_kpack_vector_at_a_time() -> None:
    """Along k_iter the next kpack vector is the next k_outer row of the tile, d_per_block (B: 32)
    elements on, or for A, whose d is rotated by one per k_outer, 16 + 1 (1 where the rotation
    wraps): each read is one vector<kpack> (8 f16, 128 bits, in the align-tiling kernel)."""
    config = gw.PerfConfig.parse(LIT_CONFIG)
    assert isinstance(config, gw.AccelPerfConfig)
    steps = {"a": [1, 17], "b": [32]}
    for operand in "ab":
        read = gw.lds_read(lit_grid(), operand, config, gw.arch("gfx950"), "f16")
        addresses, _ = read.view.addresses()
        assert np.unique(np.diff(addresses, axis=read.dim)).tolist() == steps[operand]
        assert va.max_vector_length(read.view, read.dim, read.values).length == 1


MULTIBUFFER = DATA / "gridwise" / "test_multi_buffer_full.mlir"
"""An older kernel (rocMLIR's multibuffer integration test, 32x32x8f16, 4 waves, B's n swapped):
the C store as a ``gemmM``/``gemmN`` unmerge and a swap on the full matrix."""

KERNELS = [  # file, arch, config, problem, the C store's maps, each operand's LDS store maps from (k, d) down
    (KERNEL, "gfx950", LIT_CONFIG, gw.GemmProblem(g=4, m=24, n=24, k=16, dtype="f16"), range(29, 35),
     {"a": (17, 16, 15, 14), "b": (25, 24)}),
    (MULTIBUFFER, "gfx942", "v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1", gw.GemmProblem(m=384, n=1024, k=1024, dtype="f16"),
     range(25, 30), {"a": (17, 16, 15, 14, 13), "b": (21, 20)}),
]


@pytest.mark.parametrize("file, arch_name, config, problem, c_maps, lds_maps", KERNELS,
                         ids=["align-tiling", "multibuffer"])
def test_reads_find_what_rocmlirs_lds_store_wrote(file: Path, arch_name: str, config: str, problem: gw.GemmProblem,
                                                  c_maps: range, lds_maps: dict[str, tuple[int, ...]]) -> None:
    """Both kernels: the C store is rocMLIR's as a relation onto C; and each LDS read reads, for
    lane l, d_iter and k_iter, the tile element where rocMLIR's own LDS store maps (the kernel's
    ``[k, d] -> vector`` chain: rotation, kpack packing) put row ``d_iter * dWaves * span + wave_d *
    span + l % span`` at k ``kpack * ((l // span) * kpackPerThread + k_iter)``."""
    text = file.read_text()
    maps = {m.name: m.map for m in va.text.parse_mlir_transform_maps(text)}
    parsed = gw.PerfConfig.parse(config)
    assert isinstance(parsed, gw.AccelPerfConfig)
    arch = gw.arch(arch_name)
    grid = gw.gridwise_views(problem, m_per_block=parsed.m_per_block, n_per_block=parsed.n_per_block,
                             kpack_per_block=parsed.kpack_per_block, kpack=parsed.kpack)
    theirs = tuple(maps[f"transform_map{i}"] for i in c_maps)
    c_buffer = va.Buffer(grid.c.shape, "f32")  # both kernels store into an f32 buffer of the padded C
    store = gw.c_store(grid, parsed, arch, "f16")
    mine = store.view.maps[:len(store.view.maps) - len(grid.c.maps)]
    assert va.equivalent(va.View(c_buffer, theirs), va.View(c_buffer, mine))
    p = gw.accel_params(parsed, arch, "f16")
    span = p.instruction.input_span_len if isinstance(p.instruction, gw.MfmaInstruction) else 16
    m_waves, n_waves = parsed.waves
    for operand, chain in lds_maps.items():
        tile = gw.lds_tile(parsed, operand, "f16")
        written = va.View(va.Buffer(tile.shape, "f16"), tuple(maps[f"transform_map{i}"] for i in chain), strict=False)
        element, _ = written.addresses()  # [k, d] -> the vector holding it
        read = gw.lds_read(grid, operand, parsed, arch, "f16")
        got, _ = read.view.addresses()
        tid, d_iter, k_iter = np.indices(read.view.shape)
        lane, wave = tid % p.wave_size, tid // p.wave_size
        wave_d = wave // n_waves if operand == "a" else wave % n_waves
        d_waves = m_waves if operand == "a" else n_waves
        row = (d_iter * d_waves + wave_d) * span + lane % span
        k = parsed.kpack * ((lane // span) * p.kpack_per_thread + k_iter)
        assert np.array_equal(got, element[k, row])
