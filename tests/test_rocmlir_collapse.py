"""The port of rocMLIR's ``collapseContiguousMerges``: every CHECK of rocMLIR's
test_collapse_contiguous_merges.mlir and the collapse cases of rocmlir-cases.json, then the one
thing the collapse claims to preserve, the flat buffer address of every valid point, checked by
enumeration on generated chains, with the chains where rocMLIR's collapse breaks it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given, note, settings
from rocmlir_data import DATA, cases
from strategies import regrouping_views, views

import viewalgebra as va
from viewalgebra._rocmlir.collapse import (  # noqa: TID251 -- the port is tested before it is public
    MergeCollapse,
    compare_collapse,
    rocmlir_collapse_merges,
    unchecked_addresses,
)

T = va.transforms
FILE = DATA / "rocmlir" / "test_collapse_contiguous_merges.mlir"
COLLAPSE = cases("collapseContiguousMerges")
SETTINGS = settings(derandomize=True, deadline=None)


# {{{ the CHECK lines of test_collapse_contiguous_merges.mlir


@dataclass
class Expected:
    """What the CHECK lines of one ``// -----`` section of the file say."""

    function: str
    text: str
    """The section (its source and its CHECK lines)."""
    affine_maps: dict[str, str] = field(default_factory=lambda: {})
    """``[[MAP:#.+]] = affine_map<...>``."""
    transform_maps: dict[str, str] = field(default_factory=lambda: {})
    """``[[TRMAP:#.+]] = #rock.transform_map<...>`` with the affine map put in for ``[[MAP]]``;
    a map checked only by its affine map (``#rock.transform_map<[[PERM_MAP]]``) stays a prefix."""
    prefixes: set[str] = field(default_factory=lambda: set())
    """The transform maps checked only up to their affine map."""
    argument: tuple[str, str] | None = None
    """``func @f([[ARG0:%.+]]: memref<...>)``: the variable and the type."""
    transforms: dict[str, tuple[str, str]] = field(default_factory=lambda: {})
    """``[[V:%.+]] = rock.transform [[SRC]] by [[TRMAP]]``: ``V -> (SRC, TRMAP)``."""
    users: dict[str, str] = field(default_factory=lambda: {})
    """``"collapse_merges"([[V]])``, ``"use"([[V]])``: the op name and the value."""
    loose_affine_maps: list[str] = field(default_factory=lambda: [])
    """``// CHECK: affine_map<...>`` without a variable."""

    def chain(self, user: str) -> list[str]:
        """The transform map variables of the chain an op reads, top first."""
        assert self.argument is not None
        names: list[str] = []
        value = self.users[user]
        while value != self.argument[0]:
            value, trmap = self.transforms[value]
            names.append(trmap)
        return names


_CHECK = re.compile(r"^// CHECK(?:-NEXT)?: (.*)$", re.M)
_AFFINE = re.compile(r"\[\[(\w+):#\.\+\]\] = (affine_map<.*>)$")
_TRMAP = re.compile(r"\[\[(\w+):#\.\+\]\] = (#rock\.transform_map<.*)$")
_FUNC = re.compile(r"func @(\w+)\(\[\[(\w+):%\.\+\]\]: (memref<[^>]*>)\)$")
_TRANSFORM = re.compile(r"\[\[(\w+):%\.\+\]\] = rock\.transform \[\[(\w+)\]\] by \[\[(\w+)\]\]$")
_USER = re.compile(r'"(collapse_merges|use)"\(\[\[(\w+)\]\]\)$')
_VARIABLE = re.compile(r"\[\[(\w+)\]\]")


def _expected(section: str) -> Expected:
    function = re.search(r"func\.func @(\w+)\(", section)
    assert function is not None
    found = Expected(function.group(1), section)
    for line in _CHECK.findall(section):
        if m := _AFFINE.fullmatch(line):
            found.affine_maps[m.group(1)] = m.group(2)
        elif m := _TRMAP.fullmatch(line):
            found.transform_maps[m.group(1)] = _VARIABLE.sub(
                lambda v: found.affine_maps[v.group(1)], m.group(2))
            if not m.group(2).endswith(">"):
                found.prefixes.add(m.group(1))
        elif m := _FUNC.fullmatch(line):
            assert m.group(1) == found.function
            found.argument = (m.group(2), m.group(3))
        elif m := _TRANSFORM.fullmatch(line):
            found.transforms[m.group(1)] = (m.group(2), m.group(3))
        elif m := _USER.fullmatch(line):
            found.users[m.group(1)] = m.group(2)
        elif line.startswith("affine_map<"):
            found.loose_affine_maps.append(line)
        else:
            raise AssertionError(f"a CHECK line this test does not read: {line}")
    return found


SECTIONS = [_expected(s) for s in FILE.read_text().split("// -----") if "func.func" in s]


def _input(expected: Expected) -> tuple[va.View, dict[va.TransformMap, va.text.AffineMap]]:
    """The chain ``"collapse_merges"`` reads (as the section's source builds it) and the affine
    map written in each of its maps' text, which rocMLIR keeps for a map it does not rewrite."""
    operand = re.search(r'"collapse_merges"\((%\w+)\)', expected.text)
    assert operand is not None
    (parsed,) = [v for v in va.text.parse_mlir_views(expected.text) if v.name == operand.group(1)]
    assert parsed.view is not None
    written = {m.map: m.written for m in va.text.parse_mlir_transform_maps(expected.text)
               if m.map is not None and m.written is not None}
    return parsed.view, written


def _printed(tm: va.TransformMap, original: va.TransformMap,
             written: dict[va.TransformMap, va.text.AffineMap]) -> str:
    """What rocMLIR prints for a map of the result: a rewritten map (a new attribute) with the
    affine map recomputed from its ops, any other map as its text wrote it."""
    return va.print_transform_map(tm, affine_map=written[original] if tm is original else None)


def test_every_section_and_case_is_read():
    assert [s.function for s in SECTIONS] == [
        "test_wrong_shape", "test_basic_unmerge", "test_partial_merge_conv2gemm",
        "test_batch_transpose_bug_1407", "test_need_for_clone", "negative_test_reuse_dim"]
    assert [c["function"] for c in COLLAPSE] == [s.function for s in SECTIONS]


@pytest.mark.parametrize("expected", SECTIONS, ids=[s.function for s in SECTIONS])
def test_check_lines(expected: Expected):
    """Each CHECK: the buffer, then every map of the chain ``"collapse_merges"`` reads, printed
    as rocMLIR prints it; ``"use"`` (``@test_need_for_clone``) reads the input chain, unchanged."""
    view, written = _input(expected)
    before = [va.print_transform_map(m) for m in view.maps]
    result = rocmlir_collapse_merges(view)
    assert len(result.maps) == len(view.maps)
    if expected.argument is not None:
        assert str(view.buffer) == expected.argument[1]
    printed = {"collapse_merges": [_printed(new, old, written)
                                   for new, old in zip(result.maps, view.maps, strict=True)],
               "use": [_printed(m, m, written) for m in view.maps]}
    for user in expected.users:
        names = expected.chain(user)
        assert len(names) == len(view.maps), user
        for name, text in zip(names, printed[user], strict=True):
            check = expected.transform_maps[name]
            if name in expected.prefixes:
                assert text.startswith(check), (user, name)
            else:
                assert text == check, (user, name)
    for line in expected.loose_affine_maps:
        assert any(f"<{line} by" in text for text in printed["collapse_merges"]), line
    # Values are immutable: the input chain (what "use" reads, rocMLIR's original after its
    # isolateTransforms clone) is what it was.
    assert [va.print_transform_map(m) for m in view.maps] == before


def _merges(maps: tuple[va.TransformMap, ...]) -> list[T.Merge]:
    return [op for m in maps for op in m.ops if isinstance(op, T.Merge)]


@pytest.mark.parametrize("case", COLLAPSE, ids=[c["id"] for c in COLLAPSE])
def test_collapse_case(case):
    """rocmlir-cases.json: the Merges after the collapse and the affine map rocMLIR prints."""
    (expected,) = [s for s in SECTIONS if s.function == case["function"]]
    view, written = _input(expected)
    result = rocmlir_collapse_merges(view)
    merges = [va.text.parse_transform(t if t.endswith(">") else t + ">")
              for t in re.split(r"(?<=>), (?=<)", case["expected"]["merge_ops_after"])]
    assert _merges(result.maps) == merges
    affine = va.text.parse_affine_map(case["expected"]["affine_map_after_as_checked"])
    printed = [written[old] if new is old else va.text.affine_map_of(new)
               for new, old in zip(result.maps, view.maps, strict=True)]
    assert str(affine) in map(str, printed)


def _result(function: str) -> tuple[va.View, MergeCollapse]:
    (expected,) = [s for s in SECTIONS if s.function == function]
    view, _ = _input(expected)
    return view, rocmlir_collapse_merges(view)


def test_wrong_shape_collapses_nothing():
    view, result = _result("test_wrong_shape")
    assert result.rewritten == () and result.maps == view.maps
    assert all(new is old for new, old in zip(result.maps, view.maps, strict=True))


def test_collapsed_maps_are_lenient_and_keep_their_bounds():
    view, result = _result("test_basic_unmerge")
    (collapsed,) = result.collapsed
    assert (collapsed.map_index, collapsed.op_index) == (0, 1)
    assert collapsed.before.params == (4, 3, 2) and collapsed.after.params == (1, 1, 24)
    assert str(collapsed) == "map 0, op 1: Merge{4, 3, 2} -> Merge{1, 1, 24}"
    (tm,) = result.maps
    assert not tm.strict and tm.upper_bounds == (24, 5) and tm.lower_bounds == (4, 3, 2, 5)
    assert va.transforms.problems(tm)  # the Merge breaks its bound rule: "d" (bound 2) receives 0..23
    with pytest.raises(va.errors.InvalidTransformError):
        va.TransformMap(tm.ops, tm.upper_bounds, tm.lower_bounds)
    # As a View, d >= 2 would be invalid; the unchecked address is the original one everywhere.
    original, valid = view.addresses()
    assert valid.all()
    assert np.array_equal(result.addresses(), original)
    assert unchecked_addresses(result.maps, view.buffer, np.array([[7, 1]])).tolist() == [36]


def test_batch_transpose_keeps_the_trailing_unit_dim_out_of_the_group():
    """PR #1410: the unit dim "n" after the group is not absorbed (before the fix it was, and the
    collapsed Merge sent "gemmN" into "n", a dim of size 256 in the buffer: page faults)."""
    view, result = _result("test_batch_transpose_bug_1407")
    (collapsed,) = result.collapsed
    assert collapsed.before.params == (256, 256, 1) and collapsed.after.params == (1, 65536, 1)
    assert result.maps[1] is view.maps[1]
    # The box has 2**25 points: compare on a grid of them.
    points = np.array([(m, n) for m in range(0, 512, 73) for n in range(0, 65536, 257)], dtype=np.int64)
    original = unchecked_addresses(view.maps, view.buffer, points)  # every point is valid
    assert np.array_equal(result.addresses(points), original)
    assert [view.address(p) for p in points[::97]] == original[::97].tolist()


def test_need_for_clone_leaves_the_shared_chain_alone():
    view, result = _result("test_need_for_clone")
    assert result.maps[0] is view.maps[0]  # the permutation, not rewritten
    assert [c.after.params for c in result.collapsed] == [(1, 1, 24)]
    assert _merges(view.maps)[0].params == (4, 3, 2)


def test_negative_test_reuse_dim_collapses_nothing():
    """PR #1479: the unit dim "wave_n" joins the group {"wave_m", "m_tid"} and may not start
    {"wave_n", "n_tid"} too. rocMLIR still rewrites Merge{1, 1, 2, 16} (its unit dims were
    concatenated), to itself."""
    view, result = _result("negative_test_reuse_dim")
    assert result.collapsed == ()
    assert [(c.map_index, c.op_index, c.changes_sizes) for c in result.rewritten] == [(0, 1, False)]
    assert result.maps == view.maps and not result.maps[0].strict


# }}}
# {{{ the API


def test_a_chain_needs_its_buffer():
    view, _ = _result("test_basic_unmerge")
    by_shape = rocmlir_collapse_merges(view.maps, view.buffer.shape)
    assert by_shape == rocmlir_collapse_merges(view.maps[0], view.buffer)
    assert by_shape.maps == rocmlir_collapse_merges(view).maps
    with pytest.raises(va.errors.InvalidArgumentError, match="maps need the buffer below them"):
        rocmlir_collapse_merges(view.maps)
    with pytest.raises(va.errors.InvalidArgumentError, match="a View brings its own buffer"):
        rocmlir_collapse_merges(view, view.buffer)
    with pytest.raises(va.errors.InvalidArgumentError, match="expected a View"):
        rocmlir_collapse_merges("maps", (4, 3, 2, 5))
    with pytest.raises(va.errors.InvalidTransformError, match="lower rank of map 0"):
        rocmlir_collapse_merges(view.maps, (120,))


def test_unchecked_addresses_refuses_what_int64_cannot_hold():
    tm = va.parse_transform_map('<affine_map<(d0) -> (d0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>] '
                                'bounds = [4] -> [4]>')
    with pytest.raises(va.errors.TooComplexError, match="beyond 64-bit integers"):
        unchecked_addresses(tm, va.Buffer((4,), strides=(2**62,)))
    with pytest.raises(va.errors.CoordinateError, match=re.escape("points must have shape (N, 1)")):
        unchecked_addresses(tm, va.Buffer((4,)), np.zeros((2, 2), dtype=np.int64))
    assert unchecked_addresses(tm, va.Buffer((4,)), np.array([[9]])).tolist() == [9]  # no bounds check


# }}}
# {{{ unsound collapses


def _map(text: str) -> va.TransformMap:
    return va.parse_transform_map(text, strict=False)


_MERGE_2_3 = _map('<affine_map<(d0) -> (d0 floordiv 3, d0 mod 3)> by '
                  '[<Merge{2, 3} ["x"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [6] -> [2, 3]>')


def _reuse_through_a_permutation() -> va.View:
    """@negative_test_reuse_dim with a permutation between the two maps that swaps dims 0 and 4:
    the erasures that keep "wave_n" from joining a second group use the Merge's lower indices
    against the space below the permutation, so they miss it."""
    (expected,) = [s for s in SECTIONS if s.function == "negative_test_reuse_dim"]
    view, _ = _input(expected)
    merge, unmerge = view.maps
    sigma = [4, 1, 2, 3, 0, 5, 6, 7, 8, 9]
    names = tuple(f"p{i}" for i in range(10))
    perm = va.TransformMap((T.PassThrough((), names, range(10), names, sigma),),
                           merge.lower_bounds, [merge.lower_bounds[sigma.index(j)] for j in range(10)])
    moved = va.TransformMap([type(op)(op.params, op.upper_names, [sigma[d] for d in op.upper_dims],
                                      op.lower_names, op.lower_dims) for op in unmerge.ops],
                            perm.lower_bounds, unmerge.lower_bounds)
    return va.View(view.buffer, (merge, perm, moved))


UNSOUND = {
    # Merge{3, 1} -> Broadcast{1} of the unit dim "b" (upper size 1: the identity on the box)
    # -> buffer 3x1. The group {a, b} forms through the Broadcast; collapsed to Merge{1, 3}, the
    # unit dim "b" receives 0..2 and the Broadcast's "mod 1" folds it to 0.
    "broadcast": (va.View(va.Buffer((3, 1)), (_map(
        '<affine_map<(d0) -> (d0, 0)> by [<Merge{3, 1} ["x"] at [0] -> ["a", "b"] at [0, 1]>] '
        'bounds = [3] -> [3, 1]>'), _map(
        '<affine_map<(d0, d1) -> (d0, 0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, '
        '<Broadcast{1} ["b"] at [1] -> ["b"] at [1]>] bounds = [3, 1] -> [3, 1]>'))), (1,), 1, 0),
    # The same map at two depths: groups are keyed by value, so the group that the Unmerge
    # below the first copy finds also collapses the second copy, which a transpose follows.
    "shared map": (va.View(va.Buffer((3, 2)), (_MERGE_2_3, _map(
        '<affine_map<(d0, d1) -> (d0 * 3 + d1)> by [<Unmerge{2, 3} ["a", "b"] at [0, 1] -> ["x"] at [0]>] '
        'bounds = [2, 3] -> [6]>'), _MERGE_2_3, _map(
        '<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
        'bounds = [2, 3] -> [3, 2]>'))), (3,), 1, 6),
    # Merge{1, 1, 2, 16} becomes Merge{1, 1, 1, 32}: the group {wave_m, m_tid} with its unit dim
    # wave_n and the group {wave_n, n_tid} are joined, the regression PR #1479 fixed.
    "reuse through a permutation": (_reuse_through_a_permutation(), (0, 0, 0, 16, 0), 1024, 16),
    # Unmerge{2, 2, 2} reads "b" twice (a strict map may): the positions [0, 1, 1] of the
    # candidate pass rocMLIR's is_sorted, so {a, b} is a group and Merge{2, 2, 2} becomes
    # Merge{1, 4, 2}, although the Unmerge computes 4a + 3b, not 2(2a + b) + (2a + b).
    "repeated dim": (va.View(va.Buffer((8,)), (va.TransformMap(
        [T.Merge((2, 2, 2), ["x"], [0], ["a", "b", "c"], [0, 1, 2])], [8], [2, 2, 2]), va.TransformMap(
        [T.Unmerge((2, 2, 2), ["a", "b", "b"], [0, 1, 1], ["y"], [0]), T.AddDim((2,), ["c"], [2], [], [])],
        [2, 2, 2], [8]))), (4,), 4, 6),
}
"""Chains where rocMLIR's collapse changes the address of a valid point: the view, the point,
its address, its address after the collapse."""


@pytest.mark.parametrize("name", UNSOUND)
def test_unsound_collapse(name: str):
    view, point, address, collapsed = UNSOUND[name]
    result = rocmlir_collapse_merges(view)
    assert result.collapsed
    assert view.address(point) == address
    assert result.addresses(np.array([point], dtype=np.int64)).tolist() == [collapsed]
    assert name in _hazards(view, result)


# }}}
# {{{ the address of every valid point, by enumeration


def _hazards(view: va.View, result: MergeCollapse) -> set[str]:
    """Which of the causes of ``UNSOUND`` a chain has around its collapsed Merges (coarsely)."""
    found: set[str] = set()
    for c in result.collapsed:
        below = view.maps[c.map_index + 1:]
        if any(isinstance(op, T.Broadcast) for m in below for op in m.ops):
            found.add("broadcast")
        if view.maps.count(view.maps[c.map_index]) > 1:
            found.add("shared map")
        if 1 in c.before.params and len(below) >= 2:
            found.add("reuse through a permutation")
        if any(len(set(op.upper_dims)) < len(op.upper_dims) for m in below for op in m.ops):
            found.add("repeated dim")
    return found


def _check_addresses(view: va.View) -> None:
    """Where the collapse changes a valid point's address, the chain has a known cause."""
    view = va.View(va.Buffer(view.buffer.shape), view.maps)  # rocMLIR assumes row-major buffers
    result = rocmlir_collapse_merges(view)
    if not result.rewritten:
        assert all(new is old for new, old in zip(result.maps, view.maps, strict=True))
        return
    original, valid = view.addresses()
    collapsed = result.addresses()
    wrong = np.argwhere(valid & (collapsed != original))
    note(f"collapsed: {[str(c) for c in result.collapsed]}; wrong at {len(wrong)} points")
    if len(wrong):
        assert _hazards(view, result), [tuple(map(int, p)) for p in wrong[:3]]


@given(view=regrouping_views())
@settings(SETTINGS, max_examples=600)
def test_collapse_keeps_valid_addresses_on_regrouping_chains(view: va.View):
    _check_addresses(view)


@given(view=views(max_maps=3))
@settings(SETTINGS, max_examples=500)
def test_collapse_keeps_valid_addresses_on_any_chain(view: va.View):
    _check_addresses(view)


# }}}
# {{{ beside simplify


def _brute_verdict(view: va.View) -> tuple[bool, va.View]:
    """Whether the collapse changes some valid point's address (numpy over every point)."""
    view = va.View(va.Buffer(view.buffer.shape, view.buffer.dtype), view.maps)
    result = rocmlir_collapse_merges(view)
    if not result.collapsed:
        return False, view
    original, valid = view.addresses()
    return bool((valid & (result.addresses() != original)).any()), view


def _check_comparison(view: va.View) -> None:
    unsound, row_major = _brute_verdict(view)
    c = compare_collapse(view)
    assert (c.verdict == "rocMLIR unsound") == unsound
    assert c.exact.certificate
    if unsound:
        assert c.witness is not None and c.addresses is not None
        before, after = c.addresses
        assert row_major.address(c.witness) == before
        assert unchecked_addresses(c.rocmlir.maps, row_major.buffer, np.array([c.witness])).tolist() == [after]
        assert before != after
    else:
        fewer = (sum(s != 1 for m in c.exact.maps for op in m.ops if isinstance(op, T.Merge) for s in op.params)
                 < sum(s != 1 for m in c.rocmlir.maps for op in m.ops if isinstance(op, T.Merge) for s in op.params))
        assert (c.verdict == "rocMLIR conservative") == fewer


@pytest.mark.parametrize("name", UNSOUND)
def test_the_comparison_names_each_unsound_collapse_with_its_witness(name: str):
    view = UNSOUND[name][0]
    c = compare_collapse(view)
    assert c.verdict == "rocMLIR unsound"
    assert "rocMLIR unsound: its collapse" in str(c)
    _check_comparison(view)


@given(view=regrouping_views())
@settings(SETTINGS, max_examples=300)
def test_the_comparison_agrees_with_enumeration_on_regrouping_chains(view: va.View):
    _check_comparison(view)


def test_rocmlirs_collapse_tests_beside_simplify():
    verdicts = {expected.function: compare_collapse(_input(expected)[0]).verdict for expected in SECTIONS}
    assert verdicts == {
        "test_wrong_shape": "equal",
        "test_basic_unmerge": "rocMLIR conservative",
        "test_partial_merge_conv2gemm": "equal",  # the same group: Merge{4, 6} over a reshaped buffer
        "test_batch_transpose_bug_1407": "rocMLIR conservative",
        "test_need_for_clone": "rocMLIR conservative",
        "negative_test_reuse_dim": "equal",
    }


# }}}
