"""The audit's default gw.rocmlir_accesses (docs/audit.md, The default gw.rocmlir_accesses): rocMLIR's per-thread accesses
built by the recipes, audited on small gemms and convs; every exact width, best width and check
against numpy enumeration of the same views."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_audit import brute_exact, legal
from test_cli import run
from test_mlir_valid import parse

import viewalgebra as va
import viewalgebra.gridwise as gw
from viewalgebra._audit.recipes import covers_block_once, element_steps  # noqa: TID251

ARCHS = {name: gw.arch(name) for name in ("gfx942", "gfx1100")}


def brute(access: gw.ThreadAccess, run: int) -> int:
    scalars = gw.scalar_access(access)
    return brute_exact(scalars.view, scalars.dim, run, max(128 // scalars.view.buffer.bits, 1))


def run_of(access: gw.ThreadAccess) -> int:
    return access.values if access.kind in ("global_load", "lds_read") else access.view.shape[access.dim]


@st.composite
def small_gemms(draw: st.DrawFn) -> tuple[gw.GemmProblem, gw.PerfConfig, gw.Arch]:
    arch = ARCHS[draw(st.sampled_from(sorted(ARCHS)))]
    dtype = draw(st.sampled_from(["f16", "f32"] if arch.name == "gfx942" else ["f16"]))
    problem = gw.GemmProblem(m=draw(st.sampled_from([16, 48, 64, 96])), n=draw(st.sampled_from([16, 32, 80])),
                             k=draw(st.sampled_from([8, 32, 40, 64])), dtype=dtype,
                             transpose_a=draw(st.booleans()), transpose_b=draw(st.booleans()),
                             transpose_c=draw(st.booleans()))
    configs = [c for c in gw.tuning_space(problem, arch, "quick")
               if c.m_per_block * c.n_per_block <= 64 * 64 and c.k_per_block <= 64]
    if not configs:
        configs = list(gw.tuning_space(problem, arch, "quick"))[:1]
    return problem, draw(st.sampled_from(configs)), arch


@given(case=small_gemms())
@settings(derandomize=True, max_examples=25, deadline=None)
def test_every_width_of_the_recipes_accesses_is_brute_forces(case):
    problem, config, arch = case
    items = gw.rocmlir_accesses(problem, config, arch)
    rows = gw.audit_config(problem, config, arch, gw.rocmlir_accesses)
    by_name = {r.access: r for r in rows}
    assert [r.verdict for r in rows if r.kind == "check"] == ["check_holds"] * sum(len(i.checks) for i in items)
    kinds = {i.access.name for i in items}
    assert kinds == {"a_global_load", "b_global_load", "a_lds_store", "b_lds_store", "a_lds_read", "b_lds_read",
                     "c_global_store"}
    for item in items:
        row = by_name[item.access.name]
        assert row.verdict in ("equal", "rocmlir_conservative", "rocmlir_unsound"), row
        exact = brute(item.access, run_of(item.access))
        assert row.exact_width == exact, row
        best = max([exact] + [brute(alt, run_of(alt)) for alt in item.alternatives])
        assert row.best_width == best, row
        scalars = gw.scalar_access(item.access)
        theirs = row.rocmlir_width
        assert theirs is not None
        cap = max(128 // scalars.view.buffer.bits, 1)
        if theirs <= cap and theirs & (theirs - 1) == 0:  # a hardware width: its verdict is enumeration's
            ok = legal(scalars.view, scalars.dim, run_of(item.access), theirs)
            assert (row.verdict == "rocmlir_unsound") == (not ok), row


def test_a_conv_is_audited_through_its_gemm_views():
    conv = gw.ConvProblem(n=1, c=8, hi=6, wi=6, k=16, y=3, x=3, padding=(1, 1, 1, 1), dtype="f16")
    arch = ARCHS["gfx942"]
    config = gw.tuning_space(conv, arch, "quick")[0]
    rows = gw.audit_config(conv, config, arch, gw.rocmlir_accesses)
    assert {r.verdict for r in rows if r.kind == "check"} == {"check_holds"}
    load = next(r for r in rows if r.access == "b_global_load")
    assert load.verdict != "error" and load.exact_width is not None


def test_pr_2196s_tile_loses_width_to_its_layout():
    """rocMLIR PR #2196: A's 2x3 tile (f16, gfx942) is loaded 1 wide; another layout of the same
    tile loads 2 (docs/gridwise.md, Per-thread views)."""
    config = gw.PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1")
    problem = gw.GemmProblem(m=960, n=1024, k=1024, dtype="f16", transpose_a=True)
    arch = ARCHS["gfx942"]
    rows = {r.access: r for r in gw.audit_config(problem, config, arch, gw.rocmlir_accesses)}
    a = rows["a_global_load"]
    assert (a.rocmlir_width, a.exact_width, a.verdict) == (1, 1, "equal")
    assert a.best_width == 2


def test_the_block_check_finds_a_tile_it_does_not_cover():
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    arch = ARCHS["gfx942"]
    config = gw.tuning_space(problem, arch, "quick")[0]
    grid = gw.config_views(problem, config)
    load = gw.global_load(grid, "a", config, arch, "f16")
    assert covers_block_once(load, grid.a, ("k_loop", "m_block"), (config.k_per_block, config.m_per_block)) is None
    wrong = covers_block_once(load, grid.a, ("k_loop", "m_block"), (config.k_per_block, 2 * config.m_per_block))
    assert wrong is not None and "never reached" in wrong


def test_element_steps_read_lane_after_lane():
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    arch = ARCHS["gfx942"]
    config = gw.tuning_space(problem, arch, "quick")[0]
    read = gw.lds_read(gw.config_views(problem, config), "a", config, arch, "f16")
    steps = element_steps(read)
    n = read.vector_elements
    addr, valid = read.view.addresses()
    stepped, stepped_valid = steps.view.addresses()
    assert steps.values == read.values * n and valid.all() and stepped_valid.all()
    assert np.array_equal(np.repeat(addr, n, axis=read.dim), stepped)


def test_direct_to_lds_schedules_are_refused_by_name():
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    config = gw.PerfConfig.parse("v4:64,64,8,32,32,32,8,1,3,0,1,1")
    with pytest.raises(va.errors.InvalidArgumentError, match="computeCopyPerThreadDirectToLDS"):
        gw.rocmlir_accesses(problem, config, ARCHS["gfx942"])


@pytest.mark.parametrize("generic", [False, True])
def test_an_access_is_written_as_mlir_that_reads_back_to_the_same_view(generic, tmp_path):
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16", transpose_b=True)
    arch = ARCHS["gfx942"]
    config = gw.tuning_space(problem, arch, "quick")[0]
    grid = gw.config_views(problem, config)
    for access in (gw.global_load(grid, "b", config, arch, "f16"), gw.c_store(grid, config, arch, "f16")):
        text = gw.access_mlir(access, generic=generic)
        if generic:
            parse(text)  # MLIR's own parser
            continue
        (function,) = va.read_mlir(text).functions
        kernel = function.kernel
        assert va.equivalent(kernel.view_of("view"), access.view)
        path = tmp_path / f"{access.name}.mlir"
        path.write_text(text)
        result = run("vectorize", str(path), "--dim", str(access.dim), "--json")
        assert result.returncode in (0, 1), result.stderr
        (answer,) = [v for v in json.loads(result.stdout)["views"] if v["name"] == "%view"]
        (vector,) = answer["vectors"]
        assert vector["exact"] == va.max_vector_length(access.view, access.dim).length
        assert vector["rocmlir"] == va.rocmlir.rocmlir_vector_length(access.view, access.dim)
    with pytest.raises(va.errors.InvalidArgumentError, match="not an MLIR function name"):
        gw.access_mlir(access, name="1x")
