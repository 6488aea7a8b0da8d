"""Sub-dimensions: the exact pieces equal a brute-force search over every digit decomposition, on
both paths; witnesses re-checked; the port of rocMLIR's getLowerSubDimensions reproduces its unit
tests (mlir/unittests/Dialect/Rock/transformMapUtilsTests.cpp) and is compared with a witness."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import sub_dimensions as sd  # noqa: TID251 -- each path to the answer is tested on its own
from viewalgebra._rocmlir import sub_dimensions as rs  # noqa: TID251 -- the port is wired publicly elsewhere

SETTINGS = settings(derandomize=True, deadline=None, max_examples=120)
P = va.parse_transform_map

Canonical = tuple[tuple[int, int, int], ...]


def lower_grid(chain: va.Chain) -> np.ndarray:
    """The bottom coordinates at every upper point, shape ``upper_bounds + (lower_rank,)``."""
    pts = np.array(list(itertools.product(*map(range, chain.upper_bounds))), dtype=np.int64)
    pts = pts.reshape(len(pts), len(chain.upper_bounds))
    for m in chain.maps:
        pts, _ = va.evaluate_array(m, pts)
    return pts.reshape((*chain.upper_bounds, len(chain.lower_bounds)))


def radix_sequences(size: int) -> list[list[int]]:
    """Every digit-size sequence ``n_1, n_2, ...`` (each >= 2) whose digits all start below ``size``,
    the last one reaching ``size``."""
    out: list[list[int]] = []

    def grow(prefix: list[int], place: int) -> None:
        out.append([*prefix, -(-size // place)])  # the top digit covers the rest
        for n in range(2, size):
            if place * n < size:
                grow([*prefix, n], place * n)

    if size > 1:
        grow([], 1)
    return out


def canonical(digits: list[tuple[int, int, int]], size: int) -> Canonical:
    """Merge digits that continue each other, drop zero strides, cap the last size."""
    merged: list[tuple[int, int, int]] = []
    for a, n, s in digits:
        if merged and s == merged[-1][1] * merged[-1][2]:
            pa, pn, ps = merged[-1]
            merged[-1] = (pa, pn * n, ps)
        else:
            merged.append((a, n, s))
    kept = [(a, n, s) for a, n, s in merged if s != 0]
    return tuple((a, min(n, -(-size // a)), s) for a, n, s in kept)


def brute_pieces(steps: np.ndarray, size: int) -> Canonical | None:
    """The pieces by trying every digit decomposition of the first row and checking every row
    (``steps[r, t]``: the lower coordinate at ``t`` minus at 0, row ``r``); ``None`` if none fits.
    Every fitting decomposition must have the same canonical form."""
    if size <= 1:
        return ()
    t = np.arange(size)
    found: set[Canonical] = set()
    for sizes in radix_sequences(size):
        places = [math.prod(sizes[:i]) for i in range(len(sizes))]
        strides = [int(steps[0, a]) for a in places]
        predicted = sum(((t // a) % n) * s for a, n, s in zip(places, sizes, strides, strict=True))
        if np.array_equal(steps, np.broadcast_to(predicted, steps.shape)):
            found.add(canonical(list(zip(places, sizes, strides, strict=True)), size))
    assert len(found) <= 1, found
    return next(iter(found), None)


def as_triples(dep: sd.LowerDependence) -> Canonical | None:
    if dep.pieces is None:
        return None
    return tuple((p.upper_stride, p.size, p.stride) for p in dep.pieces)


def check_witness(chain: va.Chain, d: int, dep: sd.LowerDependence, grid: np.ndarray) -> None:
    """A non-strided answer's points show it: a step unlike the origin row's, or (on the origin
    row) a row no decomposition fits (checked by ``brute_pieces``)."""
    assert dep.reason
    points = dep.witness
    assert len(points) in (2, 4)
    j = dep.dim
    for p in points:
        assert all(0 <= c < n for c, n in zip(p, chain.upper_bounds, strict=True))
    x0, x = points[0], points[1]
    assert x0[d] == 0 and all(a == b for k, (a, b) in enumerate(zip(x0, x, strict=True)) if k != d)
    if len(points) == 4:
        o0, o = points[2], points[3]
        assert o[d] == x[d] and all(c == 0 for k, c in enumerate(o) if k != d) and not any(o0)
        assert grid[x][j] - grid[x0][j] != grid[o][j] - grid[o0][j]
    else:
        assert all(c == 0 for k, c in enumerate(x) if k != d)


def _factor_pairs(n: int) -> list[tuple[int, int]]:
    return [(a, n // a) for a in range(1, n + 1) if n % a == 0]


@st.composite
def regrouped(draw: st.DrawFn) -> va.Chain:
    """Unmerge{n1, n2} then Merge{m1, m2} of the same total (often misaligned), then a Broadcast
    of the fast dim to ``p`` values: the shapes where a dim's step depends on the others."""
    total = draw(st.integers(2, 36))
    n1, n2 = draw(st.sampled_from(_factor_pairs(total)))
    m1, m2 = draw(st.sampled_from(_factor_pairs(total)))
    p = draw(st.integers(1, m2))
    unmerge = P(f'<affine_map<(d0, d1) -> (d0 * {n2} + d1)> by [<Unmerge{{{n1}, {n2}}} ["r", "c"] at [0, 1] '
                f'-> ["x"] at [0]>] bounds = [{n1}, {n2}] -> [{total}]>')
    merge = P(f'<affine_map<(d0) -> (d0 floordiv {m2}, d0 mod {m2})> by [<Merge{{{m1}, {m2}}} ["x"] at [0] '
              f'-> ["g", "h"] at [0, 1]>] bounds = [{total}] -> [{m1}, {m2}]>')
    broadcast = P(f'<affine_map<(d0, d1) -> (d0, d1 mod {p})> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, '
                  f'<Broadcast{{{p}}} ["h"] at [1] -> ["h"] at [1]>] bounds = [{m1}, {m2}] -> [{m1}, {p}]>')
    return va.Chain((unmerge, merge, broadcast)[:draw(st.integers(2, 3))])


@given(chain=views(max_maps=3, max_points=240).map(va.Chain.of) | regrouped())
@SETTINGS
def test_pieces_equal_brute_force(chain: va.Chain) -> None:
    grid = lower_grid(chain)
    for d, size in enumerate(chain.upper_bounds):
        rows = np.moveaxis(grid, d, -2).reshape(math.prod(chain.upper_bounds) // size, size,
                                                len(chain.lower_bounds))
        steps = rows - rows[:, :1, :]
        answers = [sd._answer(chain, d, None, method) for method in ("enumerate", "isl")]  # noqa: SLF001
        for j in range(len(chain.lower_bounds)):
            expected = brute_pieces(steps[:, :, j], size)
            for answer in answers:
                dep = answer.lower[j]
                assert dep.dim == j
                assert as_triples(dep) == expected, (d, j)
                assert dep.moves == bool(np.any(steps[:, :, j]))
                if dep.pieces is None:
                    check_witness(chain, d, dep, grid)
        assert answers[0].sub_dim_info() == answers[1].sub_dim_info()


def test_a_split_dim() -> None:
    """Unmerge{4, 8} then Merge{2, 16}: "a" (place value 8 in x) is split across both lower dims."""
    chain = [P('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["a", "b"] at [0, 1] '
               '-> ["x"] at [0]>] bounds = [4, 8] -> [32]>'),
             P('<affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)> by [<Merge{2, 16} ["x"] at [0] '
               '-> ["p", "q"] at [0, 1]>] bounds = [32] -> [2, 16]>')]
    answer = va_sub_dimensions(chain, "a")
    assert answer.lower[0].pieces == (sd.Piece(2, 1, 2),)
    assert answer.lower[1].pieces == (sd.Piece(2, 8, 1),)
    assert answer.sub_dim_info() == {0: ((2, 1),), 1: ((2, 8),)}
    assert answer.moved == (0, 1)
    assert "lower dim 1: 2@8 (from 1)" in str(answer)
    port = rs.rocmlir_lower_sub_dimensions(chain, "a")
    assert port.as_dict() == {0: ((2, 1),), 1: ((2, 8),)}
    assert rs.compare_sub_dimensions(chain, "a").verdict == "equal"


def test_misaligned_merge_is_not_strided() -> None:
    chain = [P('<affine_map<(d0, d1) -> (d0 * 10 + d1)> by [<Unmerge{3, 10} ["a", "b"] at [0, 1] '
               '-> ["x"] at [0]>] bounds = [3, 10] -> [30]>'),
             P('<affine_map<(d0) -> (d0 floordiv 6, d0 mod 6)> by [<Merge{5, 6} ["x"] at [0] '
               '-> ["p", "q"] at [0, 1]>] bounds = [30] -> [5, 6]>')]
    for method in ("enumerate", "isl"):
        answer = sd._answer(va.Chain.of(chain), 1, None, method)  # noqa: SLF001
        assert not answer.strided and answer.sub_dim_info() is None
        assert answer.moved == (0, 1)
        assert "depends on the other coordinates" in (answer.lower[0].reason or "")


def test_large_dims_go_through_isl() -> None:
    tm = P('<affine_map<(d0, d1) -> (d0 floordiv 1024, d0 mod 1024, d1)> by [<Merge{4096, 1024} '
           '["k"] at [0] -> ["a", "b"] at [0, 1]>, <PassThrough ["c"] at [1] -> ["c"] at [2]>] '
           'bounds = [4194304, 3] -> [4096, 1024, 3]>')
    answer = va_sub_dimensions(tm, 0)
    assert answer.lower[0].pieces == (sd.Piece(4096, 1, 1024),)
    assert answer.lower[1].pieces == (sd.Piece(1024, 1, 1),)
    assert answer.lower[2].pieces == ()


def va_sub_dimensions(chain: object, dim: int | str) -> sd.SubDimensions:
    return sd.sub_dimensions(chain, dim)


# {{{ rocMLIR's unit tests: mlir/unittests/Dialect/Rock/transformMapUtilsTests.cpp, GetLowerSubDimensionsTest

# BottomUpTMBuilder addDim(b, {"m"}, {4}); passThrough("m"); addDim("n", 1, 1)
ADD_DIM = P('<affine_map<(d0, d1) -> (d0)> by [<PassThrough ["m"] at [0] -> ["m"] at [0]>, '
            '<AddDim{1} ["n"] at [1] -> [] at []>] bounds = [4, 1] -> [4]>')
# passThrough("m"); broadcast({1}, {16})
BROADCAST = P('<affine_map<(d0, d1) -> (d0, d1 mod 1)> by [<PassThrough ["m"] at [0] -> ["m"] at [0]>, '
              '<Broadcast{1} ["n"] at [1] -> ["n"] at [1]>] bounds = [4, 16] -> [4, 1]>')
# passThrough("m"); unmerge({"n_block", "n_iter"}, {1, 2}, "n", {2, 8})
TILE = P('<affine_map<(d0, d1, d2) -> (d0, d1 * 8 + d2)> by [<PassThrough ["m"] at [0] -> ["m"] at [0]>, '
         '<Unmerge{2, 8} ["n_block", "n_iter"] at [1, 2] -> ["n"] at [1]>] bounds = [4, 2, 8] -> [4, 16]>')
# passThrough("m"); slice({"n_slice"}, {"n"}, {0}, {8})
SLICE = P('<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["m"] at [0] -> ["m"] at [0]>, '
          '<Slice{0, 8} ["n_slice"] at [1] -> ["n"] at [1]>] bounds = [4, 8] -> [4, 16]>')
# BottomUpTMBuilder bcast(b, {"m", "n"}, {1, 4}); broadcast({0, 1}, {8, 256})
TWO_DIM_BROADCAST = P('<affine_map<(d0, d1) -> (d0 mod 1, d1 mod 4)> by [<Broadcast{1, 4} ["m", "n"] '
                      'at [0, 1] -> ["m", "n"] at [0, 1]>] bounds = [8, 256] -> [1, 4]>')
# bcast(b, {"group", "channel"}, {32, 1}); passThrough("group"); broadcast({1}, {10});
# merge("flat", 0, {"group", "channel"}); unmerge({"row", "column"}, {0, 1}, "flat", {20, 16})
GROUPS = P('<affine_map<(d0, d1) -> (d0, d1 mod 1)> by [<PassThrough ["group"] at [0] -> ["group"] at [0]>, '
           '<Broadcast{1} ["channel"] at [1] -> ["channel"] at [1]>] bounds = [32, 10] -> [32, 1]>')
FLAT = P('<affine_map<(d0) -> (d0 floordiv 10, d0 mod 10)> by [<Merge{32, 10} ["flat"] at [0] '
         '-> ["group", "channel"] at [0, 1]>] bounds = [320] -> [32, 10]>')
ROWS = P('<affine_map<(d0, d1) -> (d0 * 16 + d1)> by [<Unmerge{20, 16} ["row", "column"] at [0, 1] '
         '-> ["flat"] at [0]>] bounds = [20, 16] -> [320]>')
# pad(b, {"m", "n"}, {64, 200}); passThrough("m"); pad("nPad", "n", 0, 56)
PAD = P('<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["m"] at [0] -> ["m"] at [0]>, '
        '<Pad{0, 56} ["nPad"] at [1] -> ["n"] at [1]>] bounds = [64, 256] -> [64, 200]>')


@pytest.mark.parametrize(("name", "chain", "dim", "moves"), [
    ("BroadcastedTileAxisReachesOneAddress", [TILE, BROADCAST, ADD_DIM], 2, False),
    ("BroadcastedTileAxisReachesOneAddress", [TILE, BROADCAST, ADD_DIM], 0, True),
    ("SliceKeepsTrackingTheDimension", [SLICE, BROADCAST, ADD_DIM], 1, False),
    ("SliceKeepsTrackingTheDimension", [SLICE, BROADCAST, ADD_DIM], 0, True),
    ("MultiDimBroadcastTracksEveryDimension", [TWO_DIM_BROADCAST], 0, False),
])
def test_rocmlir_unit_tests(name: str, chain: list[va.TransformMap], dim: int, moves: bool) -> None:
    """movesTheAddress(getLowerSubDimensions(...)) as the unit test expects, port and exact alike."""
    port = rs.rocmlir_lower_sub_dimensions(chain, dim)
    assert port.info is not None, name
    assert bool(port.moved()) is moves
    assert bool(va_sub_dimensions(chain, dim).moved) is moves
    assert rs.compare_sub_dimensions(chain, dim).verdict == "equal"


def test_rocmlir_pad_is_unsupported() -> None:
    """PadIsUnsupported: rocMLIR fails; the exact answer is a shift (one piece)."""
    port = rs.rocmlir_lower_sub_dimensions([PAD], 1)
    assert port.info is None and port.reason == "Unsupported transform type : Pad"
    assert va_sub_dimensions([PAD], 1).lower[1].pieces == (sd.Piece(256, 1, 1),)
    comparison = rs.compare_sub_dimensions([PAD], 1)
    assert comparison.verdict == "rocMLIR conservative" and "fails" in str(comparison)


def test_rocmlir_reads_one_broadcast_dim() -> None:
    """MultiDimBroadcastTracksEveryDimension, "n": the unit test expects movement; the ported
    rule reads only a Broadcast's first dim and reports none: unsound, with the step it misses."""
    assert rs.rocmlir_lower_sub_dimensions([TWO_DIM_BROADCAST], 1).moved() == ()
    assert va_sub_dimensions([TWO_DIM_BROADCAST], 1).lower[1].pieces == (sd.Piece(4, 1, 1),)
    comparison = rs.compare_sub_dimensions([TWO_DIM_BROADCAST], 1)
    assert comparison.verdict == "rocMLIR unsound" and comparison.lower_dim == 1
    assert comparison.witness is not None
    x, y = comparison.witness
    grid = lower_grid(va.Chain.of([TWO_DIM_BROADCAST]))
    assert x[0] == y[0] and grid[y][1] != grid[x][1]


def test_rocmlir_floors_a_misaligned_merge() -> None:
    """MisalignedMergeKeepsAddressDependency: "column" crosses a group boundary (16 columns,
    groups of 10); the ported Merge rule floors 16 / 10 to 1 and drops the group: unsound."""
    chain = [ROWS, FLAT, GROUPS]
    assert rs.rocmlir_lower_sub_dimensions(chain, "column").moved() == ()
    exact = va_sub_dimensions(chain, "column")
    assert exact.moved == (0,) and exact.lower[0].pieces is None
    comparison = rs.compare_sub_dimensions(chain, "column")
    assert comparison.verdict == "rocMLIR unsound" and comparison.lower_dim == 0
    assert comparison.witness is not None
    x, y = comparison.witness
    grid = lower_grid(va.Chain.of(chain))
    assert x[0] == y[0] and grid[y][0] != grid[x][0]


def test_rocmlir_broadcast_can_understate() -> None:
    """Unmerge{4, 4} then Broadcast{10}: rocMLIR's {10, 4} claims steps that are multiples of 4;
    a: 2 -> 3 at b = 1 goes from 9 to 13 mod 10 = 3."""
    chain = [P('<affine_map<(d0, d1) -> (d0 * 4 + d1)> by [<Unmerge{4, 4} ["a", "b"] at [0, 1] -> ["x"] '
               'at [0]>] bounds = [4, 4] -> [16]>'),
             P('<affine_map<(d0) -> (d0 mod 10)> by [<Broadcast{10} ["x"] at [0] -> ["x"] at [0]>] '
               'bounds = [16] -> [10]>')]
    assert rs.rocmlir_lower_sub_dimensions(chain, "a").as_dict() == {0: ((10, 4),)}
    comparison = rs.compare_sub_dimensions(chain, "a")
    assert comparison.verdict == "rocMLIR unsound" and comparison.witness is not None
    x, y = comparison.witness
    grid = lower_grid(va.Chain.of(chain))
    assert x[1] == y[1] and (grid[y][0] - grid[x][0]) % 4 != 0
    assert comparison.exact.lower[0].pieces is None


def test_rocmlir_misses_a_carry() -> None:
    """Unmerge{3, 10} then Merge{5, 6}: rocMLIR keeps only {1: (6, 1)} for b; b moves lower dim 0."""
    chain = [P('<affine_map<(d0, d1) -> (d0 * 10 + d1)> by [<Unmerge{3, 10} ["a", "b"] at [0, 1] '
               '-> ["x"] at [0]>] bounds = [3, 10] -> [30]>'),
             P('<affine_map<(d0) -> (d0 floordiv 6, d0 mod 6)> by [<Merge{5, 6} ["x"] at [0] '
               '-> ["p", "q"] at [0, 1]>] bounds = [30] -> [5, 6]>')]
    assert rs.rocmlir_lower_sub_dimensions(chain, "b").as_dict() == {1: ((6, 1),)}
    comparison = rs.compare_sub_dimensions(chain, "b")
    assert comparison.verdict == "rocMLIR unsound" and comparison.lower_dim == 0


def test_continuing_pairs_claim_the_same_steps() -> None:
    """rocMLIR keeps (3, 1) and (8, 3) apart where the exact piece is (24, 1): the same claim."""
    assert rs._merged(((3, 1), (8, 3), (1, 5))) == ((24, 1),)  # noqa: SLF001
    assert rs._merged(((8, 3), (2, 1))) == ((2, 1), (8, 3))  # noqa: SLF001


def test_rocmlir_broadcast_overstates() -> None:
    """A Broadcast{4} of a dim of 2 values: rocMLIR claims 4 values (conservative)."""
    tm = P('<affine_map<(d0) -> (d0 mod 4)> by [<Broadcast{4} ["x"] at [0] -> ["x"] at [0]>] '
           'bounds = [2] -> [4]>')
    assert rs.rocmlir_lower_sub_dimensions(tm, 0).as_dict() == {0: ((4, 1),)}
    comparison = rs.compare_sub_dimensions(tm, 0)
    assert comparison.verdict == "rocMLIR conservative"
    assert comparison.exact.lower[0].pieces == (sd.Piece(2, 1, 1),)


# }}}


@given(chain=views(max_maps=2, max_points=120).map(va.Chain.of) | regrouped())
@settings(derandomize=True, deadline=None, max_examples=60)
def test_comparison_witnesses_hold(chain: va.Chain) -> None:
    """Every "unsound" witness is a real step outside rocMLIR's pairs; "equal" means equal pairs."""
    grid = lower_grid(chain)
    for d in range(len(chain.upper_bounds)):
        c = rs.compare_sub_dimensions(chain, d)
        if c.verdict == "rocMLIR unsound":
            assert c.witness is not None and c.lower_dim is not None and c.rocmlir.info is not None
            x, y = c.witness
            step = int(grid[y][c.lower_dim] - grid[x][c.lower_dim])
            pairs = [p for p in c.rocmlir.pairs_at(c.lower_dim) if p[0] > 1]
            reachable = {sum(e * s for e, (_, s) in zip(es, pairs, strict=True))
                         for es in itertools.product(*(range(-(n - 1), n) for n, _ in pairs))}
            assert step not in reachable
        elif c.verdict == "equal":
            assert c.rocmlir.info is not None and c.exact.strided
            for dep in c.exact.lower:
                exact_pairs = tuple((p.size, p.stride) for p in dep.pieces or ())
                assert rs._merged(exact_pairs) == rs._merged(c.rocmlir.pairs_at(dep.dim))  # noqa: SLF001


def test_arguments() -> None:
    with pytest.raises(va.errors.InvalidArgumentError, match="expected a Chain"):
        sd.sub_dimensions(3, 0)
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape("upper dim 2 out of range for rank 2")):
        sd.sub_dimensions([PAD], 2)
    with pytest.raises(va.errors.InvalidArgumentError, match="must be an upper dim index or name"):
        sd.sub_dimensions([PAD], True)  # type: ignore[arg-type]
    with pytest.raises(va.errors.InvalidArgumentError, match="no upper dims named 'zz'"):
        sd.sub_dimensions([PAD], "zz")
    with pytest.raises(va.errors.InvalidArgumentError, match="timeout"):
        sd.sub_dimensions([PAD], 0, timeout=-1)
    with pytest.raises(va.errors.InvalidArgumentError, match="out of range"):
        rs.rocmlir_lower_sub_dimensions([PAD], -1)
