"""The audit of one access and of one (problem, config) (docs/audit.md): the exact width and the
verdict on rocMLIR's width against numpy enumeration of small views; every verdict on a view
built to give it."""

from __future__ import annotations

import numpy as np
import pytest
from audit_tiles import provider as tile_provider
from audit_tiles import tile
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import views

import viewalgebra as va
import viewalgebra.gridwise as gw

GFX942 = gw.arch("gfx942")


def legal(view: va.View, dim: int, run: int, v: int) -> bool:
    """Brute force (docs/semantics.md, Vector length): ``v`` divides the run and the dim, and each
    piece of ``v`` steps from a multiple of ``v`` is all invalid, or all valid with consecutive
    addresses."""
    size = view.shape[dim]
    if run % v or size % v:
        return False
    addr, valid = view.addresses()
    addr = np.moveaxis(addr, dim, -1).reshape(-1, size // v, v)
    valid = np.moveaxis(valid, dim, -1).reshape(-1, size // v, v)
    all_valid, none_valid = valid.all(axis=-1), ~valid.any(axis=-1)
    steps = np.diff(addr, axis=-1) == 1
    return bool(np.all(none_valid | (all_valid & steps.all(axis=-1))))


def brute_exact(view: va.View, dim: int, run: int, cap: int) -> int:
    """The widest power of two up to ``cap`` that is legal."""
    best, v = 1, 2
    while v <= cap:
        if legal(view, dim, run, v):
            best = v
        v *= 2
    return best


def access_of(view: va.View, dim: int, run: int, kind: str = "global_load") -> gw.ThreadAccess:
    names = va.text.dim_names(view.maps[0], "upper")
    return gw.ThreadAccess("a", kind, view, names[dim], run, view.buffer.dtype)  # type: ignore[arg-type]


@given(view=views(max_maps=2, max_rank=3), data=st.data())
@settings(derandomize=True, max_examples=120, deadline=None)
def test_exact_width_and_the_verdict_match_brute_force(view, data):
    if view.rank == 0 or not view.maps or min(view.shape) < 1:
        return
    dim = data.draw(st.integers(0, view.rank - 1))
    size = view.shape[dim]
    run = data.draw(st.sampled_from([d for d in range(1, size + 1) if size % d == 0]))
    access = access_of(view, dim, run)
    cap = max(128 // view.buffer.bits, 1)
    exact = gw.exact_width(access)
    assert exact.length == brute_exact(view, dim, run, cap)
    # rocMLIR's own answer, and any other width that divides the run.
    try:
        theirs = [gw.rocmlir_width(access)]
    except va.errors.RocmlirRuleError:
        theirs = []
    theirs += [1, data.draw(st.sampled_from([d for d in range(1, run + 1) if run % d == 0]))]
    for r in theirs:
        judged = gw.judge_width(access, r, exact)
        ok = legal(view, dim, run, r)
        expected = ("equal" if r == exact.length or ok and r > exact.length else
                    "rocmlir_conservative" if ok else "rocmlir_unsound")
        assert judged.verdict == expected, (r, exact.length)
        if judged.verdict == "rocmlir_unsound" and judged.witness is not None:
            w = judged.witness
            # The witness step lies inside one of rocMLIR's pieces and is bad by enumeration.
            assert w.next_point is not None
            assert w.point[dim] // r == w.next_point[dim] // r
            a, b = view.address(w.point), view.address(w.next_point)
            assert (a is None) != (b is None) or (a is not None and b is not None and b != a + 1)
            assert judged.text.startswith(f"{r} is illegal: {w.reason} from {list(w.point)}")


def parsed(text: str, shape: tuple[int, ...], dtype: str = "f16") -> va.View:
    return va.View(va.Buffer(shape, dtype), [va.parse_transform_map(text)])


PAD_4_6 = parsed('<affine_map<(d0) -> (d0 - 4)> by [<Pad{4, 6} ["iter"] at [0] -> ["x"] at [0]>] '
                 'bounds = [24] -> [14]>', (14,))


def test_rocmlirs_unsound_pad_has_the_step_that_mixes_padding_as_witness():
    access = gw.ThreadAccess("a", "global_load", PAD_4_6, "iter", 12, "f16")
    row = gw.audit_access(access, GFX942)
    assert (row.rocmlir_width, row.exact_width, row.best_width, row.verdict) == (4, 2, 2, "rocmlir_unsound")
    assert row.witness == "4 is illegal: mixed validity from [17] to [18] (addresses 13 -> None; None is invalid)"


def test_a_transposed_tile_is_equal_at_width_1_and_its_alternative_is_the_best():
    grid = gw.gridwise_views(gw.GemmProblem(m=64, n=64, k=64, dtype="f16"), m_per_block=32, n_per_block=32,
                             kpack_per_block=4, kpack=8)
    shape = {"k_per_block": 32, "d_per_block": 32, "block_size": 64, "copy_k": 2, "copy_d": 8}
    along_k = tile(grid.a, "a", k_contiguous=True, **shape)  # A is stored [M, K]: K is contiguous
    along_m = tile(grid.a, "a", k_contiguous=False, **shape)
    row = gw.audit_access(gw.AuditItem(along_m, (along_k,)), GFX942)
    assert (row.rocmlir_width, row.exact_width, row.best_width, row.verdict) == (1, 1, 2, "equal")


def test_rocmlir_is_conservative_where_an_embed_never_reaches_its_padding():
    # test_embed_1_1_pad (docs/vectorize.md): a + b <= 6 < 14, rocMLIR still gives up.
    embed = va.parse_transform_map('<affine_map<(d0, d1) -> (d0 + d1)> by [<Embed{1, 1} ["a", "iter"] at [0, 1] '
                                   '-> ["xp"] at [0]>] bounds = [4, 4] -> [16]>')
    pad = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<Pad{0, 2} ["xp"] at [0] -> ["x"] at [0]>] '
                                 'bounds = [16] -> [14]>')
    view = va.View(va.Buffer((14,), "f32"), [embed, pad])
    access = gw.ThreadAccess("a", "global_load", view, "iter", 4, "f32")
    row = gw.audit_access(access, GFX942)
    assert row.verdict == "rocmlir_conservative" and row.rocmlir_width == 1 < row.exact_width == 4


def test_a_direct_to_lds_width_rocmlir_cannot_lower_fails():
    transposed = parsed('<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["iter", "t"] at [1, 0] -> '
                        '["r", "c"] at [0, 1]>] bounds = [4, 8] -> [8, 4]>', (8, 4))
    access = gw.ThreadAccess("b", "global_load", transposed, "iter", 8, "f16")
    row = gw.audit_access(gw.AuditItem(access, direct_to_lds=True), GFX942)
    assert row.verdict == "rocmlir_fails" and row.rocmlir_width is None and row.exact_width == 1
    assert "only supported for 128-bit or 32-bit loads" in row.witness


def test_checks_and_provider_errors_are_rows():
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    config = gw.PerfConfig.parse("v4:32,32,4,32,32,32,8,1,1,2,0,0,1,1")
    item = tile_provider(problem, config, GFX942)[0]
    failing = gw.AuditCheck("always_fails", lambda: "the witness")
    rows = gw.audit_config(problem, config, GFX942,
                           lambda p, c, a: [gw.AuditItem(item.access, item.alternatives, (*item.checks, failing))])
    assert [(r.access, r.verdict, r.witness) for r in rows[1:]] == [
        ("a_tile_covers_block_once", "check_holds", ""), ("always_fails", "check_fails", "the witness")]

    def broken(p, c, a):
        raise va.errors.InvalidArgumentError("no recipe for this config")

    (row,) = gw.audit_config(problem, config, GFX942, broken)
    assert (row.access, row.verdict, row.witness) == ("provider", "error",
                                                      "InvalidArgumentError: no recipe for this config")


def test_the_tile_check_finds_a_tile_that_covers_twice():
    from audit_tiles import covers_once

    assert covers_once("a", k_per_block=8, d_per_block=8, block_size=8, copy_k=2, copy_d=4, k_contiguous=True) is None
    with pytest.raises(va.errors.InvalidTransformError):  # the builder refuses a tile that does not fit
        covers_once("a", k_per_block=8, d_per_block=8, block_size=8, copy_k=2, copy_d=2, k_contiguous=True)


def test_an_alternative_must_move_the_same_operand():
    access = gw.ThreadAccess("a", "global_load", PAD_4_6, "iter", 12, "f16")
    other = gw.ThreadAccess("b", "global_load", PAD_4_6, "iter", 12, "f16")
    with pytest.raises(va.errors.InvalidArgumentError, match="same operand and kind"):
        gw.AuditItem(access, (other,))


def test_configs_that_differ_outside_the_grid_key_share_the_gridwise_views():
    problem = gw.GemmProblem(m=64, n=64, k=64, dtype="f16")
    one = gw.PerfConfig.parse("v4:32,32,4,32,32,32,8,1,1,2,0,0,1,1")
    other = gw.PerfConfig.parse("v4:32,32,4,16,16,16,8,1,1,1,0,0,1,1")  # another wave tile and schedule
    assert gw.grid_key(problem, one) == gw.grid_key(problem, other) == (problem, 32, 32, 4, 8, 1)
    assert gw.config_views(problem, one) is gw.config_views(problem, other)


def vector_store() -> gw.ThreadAccess:
    """Thread ``t`` stores 8 values as two ``vector<4xf16>`` at indices ``2t`` and ``2t + 1``: the
    lane is dropped from the view, as rocMLIR's LDS store view drops ``kpack_vec``."""
    top = gw.TopDownMapBuilder(["t", "iter"], [4, 8])
    top.pass_through(["t"], [0], ["t"])
    top.merge(["v", "lane"], [1, 2], "iter", [2, 4])
    first = top.get()
    below = gw.TopDownMapBuilder.below(top, first)
    below.unmerge("x", 0, ["t", "v"], [4, 2])
    below.ignore("lane")
    return gw.ThreadAccess("b", "lds_store", va.View(va.Buffer((8,), "f16"), [first, below.get()]), "iter", 8,
                           "f16", vector_elements=4)


def test_a_store_of_vectors_is_judged_over_scalars():
    row = gw.audit_access(vector_store(), GFX942)
    assert (row.rocmlir_width, row.exact_width, row.verdict) == (4, 8, "rocmlir_conservative")


@given(view=views(max_maps=2, max_rank=3), n=st.sampled_from([2, 3, 4]), data=st.data())
@settings(derandomize=True, max_examples=60, deadline=None)
def test_the_scalar_view_of_vectors_is_lane_after_lane(view, n, data):
    dims = [d for d in range(view.rank) if view.shape[d] % n == 0 and view.shape[d]] if view.maps else []
    if not dims:
        return
    dim = data.draw(st.sampled_from(dims))
    names = va.text.dim_names(view.maps[0], "upper")
    access = gw.ThreadAccess("a", "lds_read", view, names[dim], view.shape[dim], view.buffer.dtype,
                             vector_elements=n)
    scalars = gw.scalar_access(access)
    assert scalars.view.shape == view.shape and scalars.vector_elements == 1
    addr, valid = scalars.view.addresses()
    vec_addr, vec_valid = view.addresses()
    base = [slice(None)] * view.rank
    for i in range(view.shape[dim]):  # iter = j * n + lane: the vector at j * n, lane i mod n
        here, at = list(base), list(base)
        here[dim], at[dim] = i, i - i % n
        expected_valid = vec_valid[tuple(at)]
        assert np.array_equal(valid[tuple(here)], expected_valid)
        want = vec_addr[tuple(at)] * n + i % n
        assert np.array_equal(addr[tuple(here)][expected_valid], want[expected_valid])
