"""rocMLIR's problems, perf configs, archs and tuning spaces (va.gridwise, docs/gridwise.md).

The problem lists are checked against an independent reading of each line (the sizes each layout
letter stands for); the perf configs round-trip over every version; the tuning spaces are checked
against counts derived by hand from rocMLIR's sources and against a literal transcription of its
loops and rules that shares only the instruction tables with the port.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import viewalgebra as va

gw = va.gridwise
DATA = Path(__file__).parent / "data" / "rocmlir"
CONV_LIST = (DATA / "tier1-conv-configs").read_text()
GEMM_LIST = (DATA / "tier1-gemm-configs").read_text()
SETTINGS = settings(derandomize=True, deadline=None, max_examples=300)
CONV = "conv -F 1 -f NCHW -I NCHW -O NCHW -n 1 -c 8 -H 4 -W 4 -k 8 -y 1 -x 1 -p 0 -q 0 -u 1 -v 1 -l 1 -j 1 -g 1"
GEMM = "-t f16 -out_datatype f16 -transA false -transB false -g 1 -m 8 -n 8 -k 8"


def _problem_lines(text: str) -> list[tuple[int, list[str]]]:
    return [(i, line.split()) for i, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")]


# {{{ the problem lists

def test_every_conv_line_reads_with_the_sizes_its_letters_name():
    lines = _problem_lines(CONV_LIST)
    read = gw.parse_problem_list(CONV_LIST)
    assert len(read) == len(lines) == 938
    for (number, tokens), got in zip(lines, read, strict=True):
        flags = dict(zip(tokens[1::2], tokens[2::2], strict=True))
        p = got.problem
        assert isinstance(p, gw.ConvProblem) and got.line == number
        assert p.dtype == {"conv": "f32", "convfp16": "f16", "convint8": "i8"}[tokens[0]]
        size = {f: int(v) for f, v in flags.items() if f not in ("-F", "-f", "-I", "-O")}
        g = size["-g"]
        # perfRunner's output size, from the whole padding 2 * p
        ho = (size["-H"] + 2 * size["-p"] - (size["-y"] - 1) * size["-l"] - 1) // size["-u"] + 1
        wo = (size["-W"] + 2 * size["-q"] - (size["-x"] - 1) * size["-j"] - 1) // size["-v"] + 1
        filt = {"N": size["-k"] // g, "C": size["-c"] // g, "H": size["-y"], "W": size["-x"], "G": g,
                "0": size["-y"], "1": size["-x"]}
        inp = {"N": size["-n"], "C": size["-c"] // g, "H": size["-H"], "W": size["-W"], "G": g,
               "0": size["-H"], "1": size["-W"]}
        out = {"N": size["-n"], "C": size["-k"] // g, "H": ho, "W": wo, "G": g, "0": ho, "1": wo}
        assert p.filter_shape == tuple(filt[c] for c in flags["-f"])
        assert p.input_shape == tuple(inp[c] for c in flags["-I"])
        assert p.output_shape == tuple(out[c] for c in flags["-O"])
        assert p.gemm.k == size["-c"] // g * size["-y"] * size["-x"] and p.gemm.g == g
        assert got.perf_priority == size["-perf_priority"]


def test_every_gemm_line_reads():
    lines = _problem_lines(GEMM_LIST)
    read = gw.parse_problem_list(GEMM_LIST)
    assert len(read) == len(lines) == 294
    for (number, tokens), got in zip(lines, read, strict=True):
        flags = dict(zip(tokens[0::2], tokens[1::2], strict=True))
        p = got.problem
        assert isinstance(p, gw.GemmProblem) and got.line == number
        assert (p.dtype, p.c_dtype, p.g, p.m, p.n, p.k) == (
            flags["-t"], flags["-out_datatype"], int(flags["-g"]), int(flags["-m"]), int(flags["-n"]),
            int(flags["-k"]))
        assert (p.transpose_a, p.transpose_b) == (flags["-transA"] == "true", flags["-transB"] == "true")


def test_a_line_reads_into_rocmlir_dim_names():
    (first,) = gw.parse_problem_list(CONV_LIST.splitlines()[0])
    assert first.problem.filter_layout == ("k", "0", "1", "g", "c")  # N01GC
    assert first.problem.input_layout == ("0i", "1i", "ni", "gi", "ci")  # 01NGC
    assert first.problem.output_layout == ("no", "go", "ko", "0o", "1o")  # NGC01
    assert first.problem.padding == (3, 3, 3, 3) and (first.problem.ho, first.problem.wo) == (112, 112)
    depthwise = gw.parse_problem_list("convfp16 -F 1 -f GNC01 -I NGC01 -O NGC01 -n 2 -c 32 -H 8 -W 8 "
                                      "-k 32 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 32")[0].problem
    assert (depthwise.c, depthwise.k, depthwise.g) == (1, 1, 32)
    # rocmlir-gen puts a missing G first in the filter, after N in the input and the output
    nchw = gw.parse_problem_list(CONV)[0].problem
    assert nchw.filter_layout == ("g", "k", "c", "0", "1") and nchw.input_layout == ("ni", "gi", "ci", "0i", "1i")
    assert nchw.output_layout == ("no", "go", "ko", "0o", "1o")
    nhwc = gw.parse_problem_list(CONV.replace("NCHW", "NHWC"))[0].problem
    assert nhwc.filter_layout == ("g", "k", "0", "1", "c") and nhwc.input_layout == ("ni", "gi", "0i", "1i", "ci")
    mixed = gw.parse_problem_list("# a comment\n\n  # another\n-perf_priority 7 -t i8 -out_datatype i32 "
                                  "-transA 1 -transB false -g 2 -m 3 -n 4 -k 5 -perf_config v4:16,16,8,"
                                  "16,16,16,4,1,1,2,0,0,1,1\n")
    assert mixed[0].line == 4 and mixed[0].perf_priority == 7
    assert mixed[0].problem == gw.GemmProblem(m=3, n=4, k=5, dtype="i8", g=2, transpose_a=True,
                                              out_dtype="i32")
    assert str(mixed[0].perf_config) == "v4:16,16,8,16,16,16,4,1,1,2,0,0,1,1"


@pytest.mark.parametrize(("line", "token", "message"), [
    (CONV.replace("-F 1", "-F 2"), "2", "-F 2: only forward convolution (-F 1) is modelled"),
    (CONV.replace("-F 1", "-F 4"), "4", "-F 4: only forward convolution (-F 1) is modelled"),
    (CONV.replace("conv ", "convfp8 "), "convfp8", "data type 'convfp8', expected one of conv, convfp16"),
    (CONV.replace("-k 8 ", ""), "", "missing -k"),
    (CONV.replace("-c 8", "-c 8 -g 3").replace(" -g 1", ""), "8", "-c 8 is not a multiple of -g 3"),
    (CONV.replace("-f NCHW", "-f NXHW"), "NXHW", "-f 'NXHW', expected five distinct letters"),
    (CONV.replace("-H 4", "-H x"), "x", "-H 'x', expected a positive integer"),
    (CONV.replace("-y 1", "-y 9"), "conv", "the filter does not fit the padded input's height"),
    (CONV + " -z 1", "-z", "unknown flag '-z'"),
    (CONV + " -g", "", "expected a value after -g"),
    (CONV.replace("-n 1", "-n 1 -n 2"), "-n", "-n is given twice"),
    (GEMM.replace("-m 8", "-m x"), "x", "-m 'x', expected a positive integer"),
    (GEMM.replace("-t f16", "-t fp8"), "fp8", "-t 'fp8', expected one of f32, f16, bf16, i8"),
    (GEMM.replace("-transA false", "-transA maybe"), "maybe", "-transA 'maybe', expected true or false"),
    (GEMM + " -foo 1", "-foo", "unknown flag '-foo'"),
    (GEMM.replace("-g 1 ", ""), "", "missing -g"),
    (GEMM + " -perf_config v4:1,2", "2", "v4 has 2 values, expected 12 or 14"),
])
def test_a_malformed_line_names_its_line_its_token_and_what_was_expected(line, token, message):
    text = f"# header\n{GEMM}\n{line}\n"
    with pytest.raises(va.errors.ConfigParseError) as caught:
        gw.parse_problem_list(text)
    error = caught.value
    assert error.line == 3 and error.token == token and message in str(error)
    assert str(error).startswith(f"3:{error.column}: ")
    assert text.splitlines()[2][error.column - 1:].startswith(token)


def test_a_problem_list_must_be_text():
    with pytest.raises(va.errors.InvalidArgumentError, match="a problem list is text, got bytes"):
        gw.parse_problem_list(b"conv")  # pyright: ignore[reportArgumentType]

# }}}


# {{{ perf configs

_ACCEL = {
    (1, 8, False): "m n kpb old xdl kpack fu tcm",
    (1, 8, True): "m n kpb mpw npw kpack fu tcm",
    (2, 9, False): "m n kpb old xdl kpack sk fu tcm",
    (2, 9, True): "m n kpb mpw npw kpack sk fu tcm",
    (3, 11, False): "m n kpb old xdl kpack sk sv os fu tcm",
    (3, 11, True): "m n kpb mpw npw kpack sk sv os fu tcm",
    (4, 12, False): "m n kpb mpw npw xdl kpack sk sv os fu tcm",
    (4, 14, False): "m n kpb mpw npw xdl kpack sk sv os we gg fu tcm",
}
"""The accelerated forms, written out independently of the port (Serializable.h's versions)."""


@st.composite
def perf_strings(draw: st.DrawFn) -> tuple[str, bool, dict[str, int]]:
    """A well-formed perf config string, whether to read it as WMMA, and its values by role."""
    general = draw(st.booleans())
    size = st.integers(1, 512)
    if general:
        version = draw(st.sampled_from([1, 2, 3]))
        count = {1: 6, 2: 7, 3: 9}[version]
        values = [draw(size) for _ in range(count)]
        if version == 3:
            values[7], values[8] = draw(st.integers(0, 4)), draw(st.integers(0, 2))
        roles = dict(zip(["bs", "m", "n", "k", "mpt", "npt", "sk", "sv", "os"], values, strict=False))
        return f"v{version}:" + ",".join(map(str, values)), False, roles
    version, count, wmma = draw(st.sampled_from(sorted(_ACCEL)))
    written = _ACCEL[version, count, wmma].split()
    if version == 4:
        wmma = draw(st.booleans())  # changes nothing in v4
    roles: dict[str, int] = {}
    for role in written:
        if role in ("fu", "tcm"):
            roles[role] = draw(st.integers(0, 1))
        elif role in ("sv", "os", "we", "gg"):
            roles[role] = draw(st.integers(0, 64))
        else:
            roles[role] = draw(size)
    if "old" in roles:
        roles["old"] = draw(st.integers(1, roles["m"]))
    text = f"v{version}:" + ",".join(str(roles[r]) for r in written)
    return text, wmma, roles


@given(perf_strings())
@SETTINGS
def test_perf_configs_print_back_as_written_with_rocmlirs_meaning(case):
    text, wmma, roles = case
    config = gw.PerfConfig.parse(text, wmma=wmma)
    assert str(config) == text
    if isinstance(config, gw.GeneralPerfConfig):
        assert (config.block_size, config.m_per_block, config.n_per_block, config.k_per_block) == (
            roles["bs"], roles["m"], roles["n"], roles["k"])
        return
    assert (config.m_per_block, config.n_per_block, config.kpack_per_block, config.kpack) == (
        roles["m"], roles["n"], roles["kpb"], roles["kpack"])
    assert config.k_per_block == roles["kpb"] * roles["kpack"]
    assert (config.split_k_factor, config.schedule_version, config.output_swizzle) == (
        roles.get("sk", 1), roles.get("sv", 1), roles.get("os", 2))
    assert (config.waves_per_eu, config.grid_group_size) == (roles.get("we", 0), roles.get("gg", 0))
    assert (config.force_unroll, config.thread_copy_more) == (bool(roles["fu"]), bool(roles["tcm"]))
    if "old" in roles:  # before v4, MFMA: the wave tile is derived (RockDialect.cpp's legacy reading)
        m_waves = min(roles["m"] // roles["old"], 4)
        assert config.m_per_wave == roles["m"] // m_waves
        assert config.n_per_wave == max(roles["n"] // (4 // m_waves), roles["xdl"])
        assert config.mn_per_xdl == roles["xdl"]
    else:
        assert (config.m_per_wave, config.n_per_wave) == (roles["mpw"], roles["npw"])
        assert config.mn_per_xdl == roles.get("xdl", 16)
    assert gw.PerfConfig.parse(str(config), wmma=wmma) == config


def test_a_legacy_config_reads_as_rocmlir_reads_it():
    c = gw.PerfConfig.parse("v3:16,32,4,16,16,4,4,1,2,1,1")
    assert (c.m_per_wave, c.n_per_wave, c.mn_per_xdl, c.split_k_factor, c.schedule_version,
            c.output_swizzle) == (16, 16, 16, 4, 1, 2)
    assert str(gw.PerfConfig.parse("64,64,8,32,32,4,1,1")) == "v1:64,64,8,32,32,4,1,1"  # no prefix is v1
    w = gw.PerfConfig.parse("v2:32,64,8,32,16,8,1,1,1", wmma=True)
    assert (w.m_per_wave, w.n_per_wave, w.mn_per_xdl, w.wmma) == (32, 16, 16, True)


@pytest.mark.parametrize(("text", "token", "message"), [
    ("v5:1,2", "v5", "unknown version v5, expected v1, v2, v3 or v4"),
    ("v4:64,64,8,32,32,32,8,1,1,2,0,0,1", "1", "v4 has 13 values, expected 12 or 14"),
    ("v3:64,64,8,32,32,8,1,1,1,1", "1", "v3 has 10 values, expected 9 or 11"),
    ("v4:64,64,8,32,x,32,8,1,1,2,0,0,1,1", "x", "'x' is not a non-negative integer"),
    ("v4:64,64,8,32,-32,32,8,1,1,2,0,0,1,1", "-32", "'-32' is not a non-negative integer"),
    ("v4:64,64,8,32,32,32,8,1,1,2,0,0,1,", "", "'' is not a non-negative integer"),
    ("v4:64,0,8,32,32,32,8,1,1,2,0,0,1,1", "0", "n_per_block is 0, expected a positive integer"),
    ("v4:64,64,8,32,32,32,8,1,1,2,0,0,2,1", "2", "force_unroll is 2, expected 0 or 1"),
    ("v3:64,64,32,16,2,2,0,1,2", "0", "split_k_factor is 0, expected a positive integer"),
    ("v2:16,64,8,32,32,4,1,1,1", "32", "m_per_wave 32 exceeds m_per_block 16"),
    ("attn:v3:64,64,8,32,32,32,8,1,1,2,1,1", "attn", "attention perf configs are not modelled"),
    ("", "", "'' is not a non-negative integer"),
])
def test_a_malformed_perf_config_names_its_token(text, token, message):
    with pytest.raises(va.errors.ConfigParseError) as caught:
        gw.PerfConfig.parse(text)
    assert caught.value.token == token and message in str(caught.value)
    assert text[caught.value.column - 1:].startswith(token)


def test_a_config_list_names_the_line_of_a_malformed_config():
    text = "v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1\n# comment\n\n  v3:64,64,32,16,2,2,1,1,2\nv4:1\n"
    with pytest.raises(va.errors.ConfigParseError, match=re.escape("5:4: perf config 'v4:1': v4 has 1 values")):
        gw.parse_config_list(text)
    configs = gw.parse_config_list(text.rsplit("v4:1", 1)[0])
    assert [str(c) for c in configs] == ["v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1", "v3:64,64,32,16,2,2,1,1,2"]


def test_constructed_configs_are_checked():
    with pytest.raises(va.errors.InvalidArgumentError, match="m_per_block must be positive, got 0"):
        gw.AccelPerfConfig(0, 64, 8, 32, 32, 32, 8)
    with pytest.raises(va.errors.InvalidArgumentError, match="force_unroll must be a bool"):
        gw.AccelPerfConfig(64, 64, 8, 32, 32, 32, 8, force_unroll=1)  # pyright: ignore[reportArgumentType]
    with pytest.raises(va.errors.InvalidArgumentError, match="legacy_m_per_wave is given exactly"):
        gw.AccelPerfConfig(64, 64, 8, 32, 32, 32, 8, version=3)
    with pytest.raises(va.errors.InvalidArgumentError, match="does not give m_per_wave 32"):
        gw.AccelPerfConfig(64, 64, 8, 32, 32, 32, 8, version=3, legacy_m_per_wave=64)
    with pytest.raises(va.errors.InvalidArgumentError, match="only the 14-value v4 form"):
        gw.AccelPerfConfig(64, 64, 8, 32, 32, 32, 8, waves_per_eu=2, long=False)
    with pytest.raises(va.errors.InvalidArgumentError, match="v2 writes no schedule_version"):
        gw.GeneralPerfConfig(64, 64, 32, 16, 2, 2, schedule_version=2, version=2)


def test_pr_2196s_example():
    """rocMLIR PR #2196: v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1 in f16 on gfx942."""
    c = gw.PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1")
    gfx942 = gw.arch("gfx942")
    assert isinstance(c, gw.AccelPerfConfig)
    assert c.block_size(gfx942) == 512 and c.k_per_block == 32
    assert c.copy_per_thread(gfx942, "a") == 6 and c.copy_per_thread(gfx942, "b") == 16
    a = gw.copy_layout(c, gfx942, "f16", "a")
    assert (a.copy_k, a.copy_d, a.tiebreaker) == (2, 3, "k")  # the 2x3 ("3x2") split of A
    b = gw.copy_layout(c, gfx942, "f16", "b")
    assert (b.copy_k, b.copy_d) == (8, 2)
    assert (a.k_run_bound, a.d_run_bound) == (2, 6)
    assert gw.vector_dim(a, 2, 1) == ("k", 2) and gw.vector_dim(a, 1, 3) == ("d", 3)
    assert gw.vector_dim(a, 1, 2) == ("k", 1)  # gcd(2, 3) = 1 along m: a tie, kpack > 1 takes k


@st.composite
def accel_configs(draw: st.DrawFn) -> gw.AccelPerfConfig:
    pow2 = st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 256])
    m, n = draw(st.sampled_from([16, 32, 64, 96, 128, 256])), draw(st.sampled_from([16, 32, 64, 128, 256]))
    m_wave = draw(st.sampled_from([d for d in (16, 32, 48, 64, 96, 128, 256) if m % d == 0]))
    n_wave = draw(st.sampled_from([d for d in (16, 32, 64, 128, 256) if n % d == 0]))
    return gw.AccelPerfConfig(m, n, draw(pow2), m_wave, n_wave, 16, draw(st.sampled_from([1, 2, 4, 8, 16])))


@given(accel_configs(), st.sampled_from(["f32", "f16", "i8"]), st.sampled_from(["a", "b"]))
@SETTINGS
def test_the_copy_layout_is_the_widest_lds_vector_that_divides_the_copy(config, dtype, operand):
    arch = gw.arch("gfx942")
    per_thread = config.k_per_block * (config.m_per_block if operand == "a" else config.n_per_block) \
        // config.block_size(arch)
    try:
        layout = gw.copy_layout(config, arch, dtype, operand)
    except va.errors.RocmlirRuleError as e:
        assert per_thread == 0 or "incoherent" in str(e)
        return
    widest = 128 // {"f32": 32, "f16": 16, "i8": 8}[dtype]
    vector = max(v for v in range(1, per_thread + 1) if per_thread % v == 0 and widest % v == 0)
    assert layout.copy_per_thread == per_thread
    assert (layout.copy_d if config.kpack == 1 else layout.copy_k) == vector
    for k_run in (1, 2, 3, 4, 8):
        for d_run in (1, 2, 4, 6):
            dim, length = gw.vector_dim(layout, k_run, d_run)
            k_len, d_len = math.gcd(k_run, layout.copy_k), math.gcd(d_run, layout.copy_d)
            assert length == max(k_len, d_len)
            assert dim == ("k" if k_len > d_len else "d" if d_len > k_len else layout.tiebreaker)


@given(accel_configs(), st.integers(1, 300), st.integers(1, 300), st.integers(1, 300), st.integers(1, 3))
@SETTINGS
def test_padding_and_grid_size_round_up_to_whole_tiles(config, m, n, k, g):
    problem = gw.GemmProblem(m=m, n=n, k=k, g=g)
    padded = config.padded(problem)
    # the least multiple of each tile at or above the size, found by counting up
    assert padded.m == next(x for x in range(m, m + config.m_per_block) if x % config.m_per_block == 0)
    assert padded.n == next(x for x in range(n, n + config.n_per_block) if x % config.n_per_block == 0)
    assert padded.k == next(x for x in range(k, k + config.k_per_block) if x % config.k_per_block == 0)
    assert config.padding(problem) == gw.GemmSize(0, padded.m - m, padded.k - k, padded.n - n)
    assert config.grid_size(problem) == g * (padded.m // config.m_per_block) * (padded.n // config.n_per_block)

# }}}


# {{{ archs and instructions

def test_archs_and_their_accelerators():
    assert [a.name for a in gw.archs()] == ["gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"]
    assert gw.arch("gfx942:sramecc+:xnack-") is gw.arch("gfx942")
    with pytest.raises(va.errors.InvalidArgumentError, match="unknown arch 'gfx908': the recipes know gfx90a"):
        gw.arch("gfx908")
    with pytest.raises(va.errors.InvalidArgumentError, match="arch must be a name"):
        gw.arch(942)  # pyright: ignore[reportArgumentType]
    assert [gw.arch("gfx942").accel(t) for t in ("f32", "f16", "bf16", "i8")] == ["mfma"] * 4
    assert [gw.arch("gfx1100").accel(t) for t in ("f32", "f16", "bf16", "i8")] == [None, "wmma", "wmma", "wmma"]
    with pytest.raises(va.errors.InvalidArgumentError, match="the recipes model f32, f16, bf16 and i8"):
        gw.arch("gfx942").accel("f8E4M3FNUZ")
    gfx950 = gw.arch("gfx950")
    assert (gfx950.wave_size, gfx950.lds_per_workgroup, gfx950.direct_to_lds) == (64, 163840, True)
    assert (gw.arch("gfx90a").direct_to_lds, gw.arch("gfx1100").wave_size) == (False, 32)


@pytest.mark.parametrize(("arch", "dtype", "mn", "name", "k_base", "spans"), [
    ("gfx942", "f32", 32, "rocdl.mfma.f32.32x32x2f32", 1, 2),
    ("gfx942", "f32", 16, "rocdl.mfma.f32.16x16x4f32", 1, 4),
    ("gfx942", "f16", 32, "rocdl.mfma.f32.32x32x8f16", 4, 2),
    ("gfx942", "f16", 16, "rocdl.mfma.f32.16x16x16f16", 4, 4),
    ("gfx942", "f16", 128, "rocdl.mfma.f32.32x32x8f16", 4, 2),
    ("gfx90a", "bf16", 16, "rocdl.mfma.f32.16x16x16bf16.1k", 4, 4),
    ("gfx90a", "i8", 32, "rocdl.mfma.i32.32x32x8i8", 4, 2),
    ("gfx942", "i8", 32, "rocdl.mfma.i32.32x32x16.i8", 8, 2),
    ("gfx950", "i8", 16, "rocdl.mfma.i32.16x16x32.i8", 8, 4),
])
def test_mfma_selection_and_its_derived_shape(arch, dtype, mn, name, k_base, spans):
    insn = gw.arch(arch).mfma(dtype, mn)
    assert insn is not None and insn.name == name
    assert (insn.k_base, insn.input_spans, insn.is_k_reduction) == (k_base, spans, True)
    assert insn.inputs == k_base  # one instruction's k per lane (nInputsToMfma) is k_base for 1-block MFMAs
    # isCoherentWithK: packed (kpack > 1) needs k_base values; unpacked needs k_base * spans in the block
    assert insn.coherent_with_k(k_base, spans) and not insn.coherent_with_k(k_base, spans - 1)
    assert insn.coherent_with_k(1, k_base * spans) and not insn.coherent_with_k(1, k_base * spans - 1)
    if k_base > 1:
        assert not insn.coherent_with_k(k_base // 2, 64)


def test_no_instruction_where_rocmlir_selects_none():
    assert gw.arch("gfx942").mfma("f16", 8) is None and gw.arch("gfx1100").mfma("f16", 16) is None
    assert gw.arch("gfx942").wmma("f16", 16, 16) is None and gw.arch("gfx1100").wmma("f32", 16, 16) is None
    assert gw.arch("gfx1100").wmma("f16", 16, 24) is None
    gfx11, gfx12 = gw.arch("gfx1100").wmma("i8", 32, 16), gw.arch("gfx1201").wmma("i8", 32, 16)
    assert gfx11 is not None and gfx12 is not None
    assert (gfx11.name, gfx11.input_len, gfx11.out_stride) == ("rocdl.wmma.i32.16x16x16.iu8", 16, 2)
    assert (gfx12.input_len, gfx12.out_stride) == (8, 8)
    assert gfx11.coherent_with_k(4, 4) and not gfx11.coherent_with_k(4, 2) and gfx12.coherent_with_k(4, 2)

# }}}


# {{{ tuning spaces

def test_the_full_space_of_16x16_tiles_as_derived_by_hand():
    """gfx942, f16, full, m_per_block = n_per_block = 16: computeDPerWave leaves m_per_wave =
    n_per_wave = 16 (at least 16), so one wave (block 64) and, by couldBePerformant, mn_per_xdl = 16
    (16x16x16f16: k_base 4, four input spans, a k reduction). isCoherentWithK: with kpack > 1,
    kpack >= 4 and kpack_per_block >= 4; with kpack = 1, kpack_per_block >= 16, beyond the range's 8.
    So kpack in {4, 8, 16, 32}, kpack_per_block in {4, 8} (both make k_per_block * 16 / 64 >= 1),
    force_unroll 1, schedule 1: 8 configs. WMMA on gfx1100 (no couldBePerformant, block 32):
    kpack_per_block a multiple of 4 (the smaller wave side is 16), kpack_per_block * kpack a
    multiple of 16: {4, 8} x {4, 8, 16}, 6 configs; gfx1201 feeds 8 per lane, the same 6."""
    problem = gw.GemmProblem(m=512, n=512, k=512, dtype="f16")
    # (the quick configs the full space ends with may add other schedules)
    tiles = [c for c in gw.tuning_space(problem, gw.arch("gfx942"))
             if (c.m_per_block, c.n_per_block) == (16, 16) and c.schedule_version == 1]
    assert sorted(str(c) for c in tiles) == sorted(
        f"v4:16,16,{kpb},16,16,16,{kpack},1,1,2,0,0,1,1" for kpb in (4, 8) for kpack in (4, 8, 16, 32))
    for name in ("gfx1100", "gfx1201"):
        wmma = [c for c in gw.tuning_space(problem, gw.arch(name), "full")
                if (c.m_per_block, c.n_per_block) == (16, 16) and c.schedule_version == 1]
        assert sorted((c.kpack_per_block, c.kpack) for c in wmma) == [(4, 4), (4, 8), (4, 16), (8, 4), (8, 8),
                                                                     (8, 16)]


def test_the_non_accelerated_space_as_derived_by_hand():
    """f32 on gfx1100 has no WMMA: createGemmTuningRangeBF's general range. Block 64 arranges 4x4
    threads in 2x2 CU waves, so m_per_block must be a multiple of m_per_thread * 8 (16 or 32):
    every m and n in {32, 64, 128} with every per-thread 2 or 4 fits, 3 * 3 * 3 (k) * 2 * 2 = 108.
    Block 128 (4x2 CU waves): m needs m_per_thread * 16 (32 or 64: 3 + 2 pairs), n needs
    n_per_thread * 8 (6 pairs): 5 * 6 * 3 = 90. Block 256 (4x4): 5 * 5 * 3 = 75. 273 in all, and
    every quick config of gfx1100's f32 list is one of them."""
    space = gw.tuning_space(gw.GemmProblem(m=100, n=100, k=100), gw.arch("gfx1100"))
    assert len(space) == 273 and all(isinstance(c, gw.GeneralPerfConfig) for c in space)
    assert [sum(c.block_size == b for c in space) for b in (64, 128, 256)] == [108, 90, 75]
    assert set(gw.quick_configs(gw.arch("gfx1100"), "gemm", "f32")) <= set(space)
    assert gw.tuning_space(gw.GemmProblem(m=100, n=100, k=100), gw.arch("gfx1100"), "exhaustive") == space


# A literal transcription of createGemmTuningRangeBF's loops and of paramsProbablyValid /
# couldBePerformant, written from rocMLIR's sources; it shares only the instruction tables (arch.mfma,
# arch.wmma, tested on their own above) with the port.

def _rocmlir_d_per_wave(kind, d_per_block, wave_size):
    max_d = 128 if kind == "full" else 2**32
    max_factor = 16 if kind == "full" else 1024 // wave_size
    return [d_per_block // f for f in (1, 2, 4, 8, 16, 32) if f <= max_factor and d_per_block % f == 0
            and 16 <= d_per_block // f <= max_d]


def _rocmlir_valid(arch, dtype, m, n, kpb, mpw, npw, xdl, kpack, unroll):
    wave = arch.wave_size
    block = wave * (m // mpw) * (n // npw)
    wmma = arch.accel(dtype) == "wmma"
    if block > 1024 or wmma and xdl != 16 or xdl > mpw or xdl > npw:
        return False
    min_d = min(mpw, npw)
    factor = 4 if min_d <= 16 else 2
    k_amount = kpb if wmma else kpb * kpack
    if m % min_d or n % min_d or k_amount % factor or block < wave or m % mpw or n % npw:
        return False
    if mpw % xdl or npw % xdl:
        return False
    if not wmma and ((kpb * kpack * m) // block == 0 or (kpb * kpack * n) // block == 0):
        return False
    if not unroll:
        return False
    if wmma:
        insn = arch.wmma(dtype, mpw, npw)
        return insn is not None and (kpb * kpack) % insn.input_len == 0
    insn = arch.mfma(dtype, xdl)
    return insn is not None and insn.coherent_with_k(kpack, kpb)


def _rocmlir_brute_force(arch, dtype, kind):
    wmma = arch.accel(dtype) == "wmma"
    kpbs, xdls, kpacks = ([1, 2, 4, 8], [16], [4, 8, 16]) if wmma else (
        ([4, 8, 16, 32], [16, 32], [1, 4, 8, 16]) if dtype == "i8" else ([1, 2, 4, 8], [16, 32], [1, 4, 8, 16, 32]))
    schedules = [1] if kind == "full" else [1, 2, 3, 4] if arch.name in ("gfx942", "gfx950") else [1, 2]
    found = []
    for m in (16, 32, 64, 128, 256):
        for n in (16, 32, 64, 128, 256):
            for kpb in kpbs:
                for mpw in _rocmlir_d_per_wave(kind, m, arch.wave_size):
                    for npw in _rocmlir_d_per_wave(kind, n, arch.wave_size):
                        for xdl in xdls:
                            for kpack in kpacks:
                                for schedule in schedules:
                                    for unroll in (0, 1):
                                        if m < mpw or n < npw:
                                            continue
                                        if not _rocmlir_valid(arch, dtype, m, n, kpb, mpw, npw, xdl, kpack, unroll):
                                            continue
                                        waves = (m // mpw) * (n // npw)
                                        performant = wmma or waves == 4 and xdl <= npw or waves in (1, 2) and xdl == npw
                                        if kind == "full" and not performant:
                                            continue
                                        found.append(f"v4:{m},{n},{kpb},{mpw},{npw},{xdl},{kpack},1,{schedule},"
                                                     f"2,0,0,{unroll},1")
    return found


@pytest.mark.parametrize(("arch", "dtype", "kind"), [
    ("gfx942", "f16", "full"), ("gfx90a", "i8", "full"), ("gfx950", "f32", "full"),
    ("gfx1100", "f16", "exhaustive"), ("gfx1201", "i8", "full"), ("gfx942", "bf16", "exhaustive"),
])
def test_the_brute_force_range_is_rocmlirs(arch, dtype, kind):
    a = gw.arch(arch)
    problem = gw.GemmProblem(m=4096, n=4096, k=4096, dtype=dtype)  # no padding: quick configs come last
    expected = _rocmlir_brute_force(a, dtype, kind)
    space = [str(c) for c in gw.tuning_space(problem, a, kind)]
    assert space[:len(expected)] == expected  # the same configs in rocMLIR's loop order
    quick = [str(c) for c in gw.quick_configs(a, "gemm", dtype)
             if gw.rejection(c, a, dtype) is None and gw.could_be_performant(c, a, dtype)]
    assert space[len(expected):] == [q for q in quick if q not in expected]


def test_sizes_of_whole_spaces():
    """Pinned so that a change to any rule shows: each is the brute-force count (checked above
    against the transcription) plus the quick configs outside it."""
    problem = gw.GemmProblem(m=1024, n=1024, k=1024, dtype="f16")
    sizes = {(a, kind): len(gw.tuning_space(problem, gw.arch(a), kind))
             for a in ("gfx942", "gfx1100") for kind in ("quick", "full", "exhaustive")}
    assert sizes == {("gfx942", "quick"): 21, ("gfx942", "full"): 815, ("gfx942", "exhaustive"): 10924,
                     ("gfx1100", "quick"): 21, ("gfx1100", "full"): 1251, ("gfx1100", "exhaustive"): 2916}


def test_quick_configs_are_rocmlirs_lists():
    """Each list equals its .inc file (tests/data/rocmlir/quick-tuning, rocMLIR at 882f9cf), cut to
    the 30 QuickTuningDb::lookup returns; bf16 uses f16's list; gfx11/12 f32 is non-accelerated."""
    files = sorted((DATA / "quick-tuning").glob("*.inc"))
    assert len(files) == 30
    for path in files:
        text = path.read_text()
        key = re.search(r'^\{"(gfx\w+)_(gemm|conv)_(\w+)", kSetCover\w+, (\d+),', text, re.M)
        assert key is not None
        strings = re.findall(r'^  "(v[0-9]:[0-9,]+)",$', text, re.M)
        assert len(strings) == int(key.group(4))
        got = gw.quick_configs(gw.arch(key.group(1)), key.group(2), key.group(3))
        assert [str(c) for c in got] == strings[:30]
        assert all(isinstance(c, gw.GeneralPerfConfig) == (s[:2] == "v3") for c, s in zip(got, strings, strict=False))
    gfx942 = gw.arch("gfx942")
    assert gw.quick_configs(gfx942, "conv", "bf16") == gw.quick_configs(gfx942, "conv", "f16")
    assert all(c.wmma for c in gw.quick_configs(gw.arch("gfx1201"), "gemm", "f16"))


def test_the_quick_space_keeps_what_rocmlir_keeps_in_padding_order():
    problem = gw.GemmProblem(m=100, n=70, k=33, dtype="f16")
    gfx942 = gw.arch("gfx942")
    quick = gw.tuning_space(problem, gfx942, "quick")
    listed = gw.quick_configs(gfx942, "gemm", "f16")
    assert set(quick) <= set(listed)

    def waste(c):  # calculatePaddingAmount, by counting up to whole tiles
        pm = next(x for x in range(100, 400) if x % c.m_per_block == 0)
        pn = next(x for x in range(70, 400) if x % c.n_per_block == 0)
        pk = next(x for x in range(33, 400) if x % c.k_per_block == 0)
        return pm * pn * pk - 100 * 70 * 33

    assert [waste(c) for c in quick] == sorted(waste(c) for c in quick)
    dropped = [c for c in listed if c not in quick]
    assert all(gw.rejection(c, gfx942, "f16") or not gw.could_be_performant(c, gfx942, "f16") for c in dropped)
    conv = gw.parse_problem_list(CONV_LIST.splitlines()[1])[0].problem
    assert set(gw.tuning_space(conv, gfx942, "quick")) <= set(gw.quick_configs(gfx942, "conv", "f32"))


def test_rejections_name_the_rule():
    gfx942 = gw.arch("gfx942")
    parse = gw.PerfConfig.parse
    assert gw.rejection(parse("v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1"), gfx942, "f16") is None
    cases = {
        "v4:64,64,8,32,32,32,8,1,1,2,0,0,0,1": "force_unroll is 0",
        "v4:256,256,8,16,16,16,8,1,1,2,0,0,1,1": "block size 16384 exceeds 1024",
        "v4:64,64,8,16,32,32,8,1,1,2,0,0,1,1": "mn_per_xdl 32 exceeds the wave tile 16x32",
        "v4:64,64,1,32,32,32,1,1,1,2,0,0,1,1": "kpack_per_block * kpack = 1 is not a multiple of 2",
        "v4:32,32,2,32,32,32,1,1,1,2,0,0,1,1": "needs more k (k_base 4)",
        "v4:64,64,2,32,32,32,1,1,1,2,0,0,1,1": "block size 256 exceeds a tile's k_per_block * d_per_block",
        "v4:64,40,8,32,16,16,8,1,1,2,0,0,1,1": "the tile 64x40 is not a multiple of the smaller wave side 16",
    }
    for text, reason in cases.items():
        assert reason in (gw.rejection(parse(text), gfx942, "f16") or ""), text
    assert "no matrix instructions for f32" in gw.rejection(parse("v4:64,64,8,32,32,16,8,1,1,2,0,0,1,1"),
                                                           gw.arch("gfx1100"), "f32")
    assert "uses MFMA for f16" in gw.rejection(parse("v3:64,64,32,16,2,2,1,1,2"), gfx942, "f16")
    assert "not a multiple of 16 inputs per lane" not in (gw.rejection(
        parse("v4:32,32,4,16,16,16,4,1,1,2,0,0,1,1", wmma=True), gw.arch("gfx1100"), "f16") or "x")
    assert "is not a multiple of rocdl.wmma.f32.16x16x16.f16's 16" in gw.rejection(
        parse("v4:32,32,4,16,16,16,2,1,1,2,0,0,1,1", wmma=True), gw.arch("gfx1100"), "f16")
    assert "block size 32, expected 64, 128 or 256" in gw.rejection(
        parse("v3:32,64,32,16,2,2,1,1,2"), gw.arch("gfx1100"), "f32")


def test_split_k_joins_where_it_balances_the_cus():
    """computeOptimalSplitKFactors: 1 always; 3 and 4 where the data-parallel grid leaves the CUs
    at least 1.2 times out of balance and the factor cuts that by more than 1.3 times. A 256x256
    gemm in 128x128 tiles is 4 workgroups on 80 CUs (imbalance 20); 3 makes 12 (6.67, a gain of 3)
    and 4 makes 16 (5, a gain of 4): the less balanced first, so 1, 3, 4."""
    problem = gw.GemmProblem(m=256, n=256, k=4096, dtype="f16")
    gfx942 = gw.arch("gfx942")
    plain = gw.tuning_space(problem, gfx942)
    split = gw.tuning_space(problem, gfx942, split_k=True)
    assert {c.split_k_factor for c in plain} == {1}
    tile = [c.split_k_factor for c in split if str(c).startswith("v4:128,128,8,64,64,32,8,")]
    assert tile == [1, 3, 4]
    assert {c.split_k_factor for c in gw.tuning_space(gw.GemmProblem(m=8192, n=8192, k=64, dtype="f16"),
                                                      gfx942, split_k=True)} == {1}
    balanced = gw.tuning_space(problem, gfx942, split_k=True, num_cu=4)
    assert [c.split_k_factor for c in balanced if str(c).startswith("v4:128,128,8,64,64,32,8,")] == [1]


def test_tuning_space_arguments_are_checked():
    problem = gw.GemmProblem(m=8, n=8, k=8)
    for kwargs, message in (({"kind": "greedy"}, "kind must be 'quick', 'full' or 'exhaustive'"),
                            ({"num_cu": 0}, "num_cu must be a positive integer"),
                            ({"split_k": 1}, "split_k must be a bool")):
        with pytest.raises(va.errors.InvalidArgumentError, match=re.escape(message)):
            gw.tuning_space(problem, gw.arch("gfx942"), **kwargs)
    with pytest.raises(va.errors.InvalidArgumentError, match="arch must be an Arch"):
        gw.tuning_space(problem, "gfx942")  # pyright: ignore[reportArgumentType]
    with pytest.raises(va.errors.InvalidArgumentError, match="kind must be 'gemm' or 'conv'"):
        gw.quick_configs(gw.arch("gfx942"), "attention", "f16")  # pyright: ignore[reportArgumentType]

# }}}
