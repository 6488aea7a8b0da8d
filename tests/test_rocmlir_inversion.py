"""The port of rocMLIR's ``invertTransformMap`` / ``invertTransforms`` (docs/invert.md):
every ``invertTransformMap`` case of rocmlir-cases.json, the quirks of rocMLIR's algorithm, and the defining
property (the inverse undoes the map on the boxes) for maps made of the invertible op types."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import cases

import viewalgebra as va
from viewalgebra.rocmlir import RocmlirInversion, rocmlir_invert

INVERSION = cases("invertTransformMap")

_BOUNDS = re.compile(r"bounds = \[([^\]]*)\] -> \[([^\]]*)\]")


def _by_id(case_list):
    return {"argvalues": case_list, "ids": [c["id"] for c in case_list]}


def _dummy_affine_map(text: str) -> str:
    """A constant affine map of the arity of the bounds in ``text`` (the ops define the map)."""
    m = _BOUNDS.search(text)
    assert m is not None, text
    upper, lower = (len([b for b in g.split(",") if b.strip()]) for g in m.groups())
    dims = ", ".join(f"d{i}" for i in range(upper))
    return f"affine_map<({dims}) -> ({', '.join(['0'] * lower)})>"


def _expected_map(expected) -> va.TransformMap:
    """The expected inverse from a CHECK line (``#map{{.*}}``) or from ``by [...] bounds = ...``."""
    if "inverse" in expected:
        text = expected["inverse"]
        text = text.replace("#map{{.*}}", _dummy_affine_map(text))
    else:
        text = expected["inverse_ops_and_bounds"]
        text = f"<{_dummy_affine_map(text)} {text}>"
    return va.parse_transform_map(text, strict=False)


def _invertible(op: va.transforms.Transform) -> bool:
    """Whether rocMLIR inverts the op."""
    match op:
        case va.transforms.PassThrough() | va.transforms.Merge() | va.transforms.Unmerge():
            return True
        case va.transforms.AddDim():
            return op.params == (1,)
        case va.transforms.ConstDim():
            return all(pair == (0, 1) for pair in op.values)
        case _:
            return False


def _fails(expected) -> bool:
    return bool(expected.get("fails", False))


def test_every_case_is_collected():
    assert len(INVERSION) == 21
    assert sum(_fails(c["expected"]) for c in INVERSION) == 8


@pytest.mark.parametrize("case", **_by_id(INVERSION))
def test_inversion_case(case):
    tm = va.parse_transform_map(case["input"]["map"], strict=False)
    result = rocmlir_invert(tm)
    if _fails(case["expected"]):
        assert result.maps is None
        failing = [op.kind for op in tm.ops if not _invertible(op)]
        assert result.reason is not None and result.reason.startswith(failing[0])
        assert str(result) == f"rocMLIR: fails ({result.reason})"
    else:
        assert result.reason is None
        assert result.maps == (_expected_map(case["expected"]),)


# {{{ the quirks of rocMLIR's invertTransformMap


def _map(text: str) -> va.TransformMap:
    """A map from its ops and bounds (``by [...] bounds = [...] -> [...]``), not checked."""
    return va.parse_transform_map(f"<{_dummy_affine_map(text)} {text}>", strict=False)


def _inverse(text: str) -> va.TransformMap:
    result = rocmlir_invert(_map(text))
    assert result.maps is not None, result.reason
    (inverse,) = result.maps
    return inverse


def test_duplicate_lower_names_resolve_to_the_last_index():
    # Both lower dims are named "x": the inverse reads dim 1 twice and never dim 0.
    inverse = _inverse('by [<PassThrough ["a", "b"] at [0, 1] -> ["x", "x"] at [0, 1]>] '
                       'bounds = [2, 3] -> [2, 3]')
    assert inverse == _map('by [<PassThrough ["x", "x"] at [1, 1] -> ["a", "b"] at [0, 1]>] '
                           'bounds = [2, 3] -> [3, 3]')
    assert va.evaluate(inverse, (1, 2))[0] == (2, 2)


def test_names_come_from_the_last_op_listing_a_lower_dim():
    # Lower dim 0 is named "p", then "q": the inverse of the first op looks "p" up in vain,
    # which is an assert in rocMLIR's builder.
    tm = _map('by [<PassThrough ["a"] at [0] -> ["p"] at [0]>, '
              '<PassThrough ["b"] at [1] -> ["q"] at [0]>] bounds = [4, 4] -> [4]')
    with pytest.raises(va.ViewAlgebraError, match=re.escape("no dim is named 'p'")):
        rocmlir_invert(tm)


def test_unlisted_lower_dims_get_an_empty_name():
    inverse = _inverse('by [<PassThrough ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [4, 5]')
    assert inverse.upper_bounds == (4, 5)
    assert inverse.lower_bounds == (4,)
    assert [p.message for p in va.transforms.problems(inverse)] == [
        "upper dim 1 is used by no transform"]


def test_unit_add_dim_becomes_a_unit_const_dim():
    inverse = _inverse('by [<AddDim{1} ["a"] at [0] -> [] at []>, '
                       '<PassThrough ["b"] at [1] -> ["b"] at [0]>] bounds = [1, 6] -> [6]')
    assert inverse == _map('by [<ConstDim{0, 1} [] at [] -> ["a"] at [0]>, '
                           '<PassThrough ["b"] at [0] -> ["b"] at [1]>] bounds = [6] -> [1, 6]')


def test_unit_const_dim_becomes_an_add_dim_of_the_bound_found_by_name():
    inverse = _inverse('by [<ConstDim{0, 1, 0, 1} [] at [] -> ["x", "y"] at [1, 0]>, '
                       '<PassThrough ["a"] at [0] -> ["a"] at [2]>] bounds = [5] -> [1, 1, 5]')
    assert inverse == _map('by [<AddDim{1} ["x"] at [1] -> [] at []>, '
                           '<AddDim{1} ["y"] at [0] -> [] at []>, '
                           '<PassThrough ["a"] at [2] -> ["a"] at [0]>] bounds = [1, 1, 5] -> [5]')
    # rocMLIR takes the AddDim's size from the lower bounds, not from the ConstDim's length.
    inconsistent = _inverse('by [<ConstDim{0, 1} [] at [] -> ["x"] at [0]>, '
                            '<PassThrough ["a"] at [0] -> ["a"] at [1]>] bounds = [5] -> [3, 5]')
    assert inconsistent.ops[0] == va.transforms.AddDim((3,), ("x",), (0,), (), ())


def test_unmerge_bound_is_not_checked():
    # rocMLIR asserts lower bound == product of sizes only in debug builds.
    inverse = _inverse('by [<Unmerge{2, 3} ["a", "b"] at [0, 1] -> ["y"] at [0]>] '
                       'bounds = [2, 3] -> [7]')
    assert inverse == _map('by [<Merge{2, 3} ["y"] at [0] -> ["a", "b"] at [0, 1]>] '
                           'bounds = [7] -> [2, 3]')
    assert [p.message for p in va.transforms.problems(inverse)] == [
        "Merge{2, 3} at [0] -> [0, 1]: upper bound 7 != product of sizes 6"]


@pytest.mark.parametrize(("text", "reason"), [
    ('by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, <ConstDim{0, 2} [] at [] -> ["b"] at [1]>] '
     'bounds = [4] -> [4, 2]', "ConstDim{0, 2} is not a unit 0"),
    ('by [<ConstDim{0, 1, 1, 2} [] at [] -> ["a", "b"] at [0, 1]>] bounds = [] -> [1, 2]',
     "ConstDim{1, 2} is not a unit 0"),
    ('by [<AddDim{5} ["a"] at [0] -> [] at []>] bounds = [5] -> []',
     "AddDim of length > 1 has no coherent inverse (AddDim{5})"),
    ('by [<AddDim{0} ["a"] at [0] -> [] at []>] bounds = [0] -> []',
     "AddDim of length > 1 has no coherent inverse (AddDim{0})"),
    ('by [<Slice{2, 6} ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [8]', "Slice is unsupported"),
    ('by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, <Pad{1, 1} ["b"] at [1] -> ["b"] at [1]>, '
     '<AddDim{5} ["c"] at [2] -> [] at []>] bounds = [4, 6, 5] -> [4, 4]', "Pad is unsupported"),
])
def test_failure(text, reason):
    result = rocmlir_invert(_map(text))
    assert result == RocmlirInversion(None, reason)
    assert str(result) == f"rocMLIR: fails ({reason})"


def test_chain_is_inverted_bottom_first():
    top = _map('by [<Merge{2, 3} ["x"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [6] -> [2, 3]')
    bottom = _map('by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] '
                  'bounds = [2, 3] -> [3, 2]')
    result = rocmlir_invert([top, bottom])
    assert result.maps == (rocmlir_invert(bottom).maps[0], rocmlir_invert(top).maps[0])
    assert rocmlir_invert([]) == RocmlirInversion((), None)


def test_any_failure_fails_the_chain():
    good = _map('by [<PassThrough ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [4]')
    bad = _map('by [<Embed{1} ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [4]')
    assert rocmlir_invert([good, bad, good]) == RocmlirInversion(
        None, "Embed is unsupported (map 1 of 3, counting from 0 at the top)")


def test_str_prints_the_inverse():
    tm = _map('by [<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]')
    assert str(rocmlir_invert(tm)) == (
        'rocMLIR: #rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1)> by '
        '[<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["1"] at [0]>] bounds = [4, 8] -> [32]>')


def test_result_has_exactly_one_of_maps_and_reason():
    with pytest.raises(va.ViewAlgebraError, match="exactly one of maps and reason"):
        RocmlirInversion(None, None)


# }}}
# {{{ the inverse undoes the map


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def _factors(draw: st.DrawFn, n: int) -> tuple[int, ...]:
    """A factorization of ``n`` into 1 to 3 factors, unit factors included."""
    sizes: list[int] = []
    for _ in range(draw(st.integers(0, 2))):
        sizes.append(draw(st.sampled_from(_divisors(n))))
        n //= sizes[-1]
    return (*sizes, n)


@st.composite
def _op_specs(draw: st.DrawFn, upper: tuple[int, ...]):
    """Groups of upper dims and what each becomes: ``(kind, params, upper dims, lower sizes)``."""
    order = draw(st.permutations(range(len(upper))))
    specs = []
    i = 0
    while i < len(order):
        group = tuple(order[i:i + draw(st.integers(1, 3))])
        i += len(group)
        sizes = tuple(upper[d] for d in group)
        kinds = ["PassThrough", "Unmerge"] + (["Merge"] if len(group) == 1 else [])
        kinds += ["AddDim"] if sizes == (1,) else []
        kind = draw(st.sampled_from(kinds))
        if kind == "PassThrough":
            specs.append((kind, (), group, sizes))
        elif kind == "Unmerge":
            specs.append((kind, sizes, group, (math.prod(sizes),)))
        elif kind == "Merge":
            factors = draw(_factors(sizes[0]))
            specs.append((kind, factors, group, factors))
        else:
            specs.append((kind, (1,), group, ()))
    for _ in range(draw(st.integers(0, 2))):
        pairs = draw(st.integers(1, 2))
        specs.append(("ConstDim", (0, 1) * pairs, (), (1,) * pairs))
    return draw(st.permutations(specs))


@st.composite
def _invertible_maps(draw: st.DrawFn, upper: tuple[int, ...]) -> va.TransformMap:
    """A consistent map over ``upper`` of PassThrough, Merge, Unmerge, AddDim{1}, ConstDim{0, 1},
    with distinct names."""
    specs = draw(_op_specs(upper))
    lower_rank = sum(len(s[3]) for s in specs)
    positions = iter(draw(st.permutations(range(lower_rank))))
    lower = [0] * lower_rank
    ops = []
    for kind, params, upper_dims, lower_sizes in specs:
        lower_dims = tuple(next(positions) for _ in lower_sizes)
        for d, size in zip(lower_dims, lower_sizes, strict=True):
            lower[d] = size
        ops.append(getattr(va.transforms, kind)(params, tuple(f"u{d}" for d in upper_dims), upper_dims,
                                     tuple(f"l{d}" for d in lower_dims), lower_dims))
    return va.TransformMap(tuple(ops), upper, tuple(lower))


@st.composite
def _invertible_chains(draw: st.DrawFn) -> tuple[va.TransformMap, ...]:
    shape = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
    chain = []
    for _ in range(draw(st.integers(1, 2))):
        chain.append(draw(_invertible_maps(shape)))
        shape = chain[-1].lower_bounds
    return tuple(chain)


def _apply(maps, point):
    for tm in maps:
        point, valid = va.evaluate(tm, point)
        assert valid
    return point


def _box(shape):
    return itertools.product(*(range(n) for n in shape))


@given(chain=_invertible_chains())
@settings(derandomize=True, deadline=None, max_examples=200)
def test_inverse_undoes_the_map(chain):
    result = rocmlir_invert(chain)
    assert result.maps is not None, result.reason
    assert len(result.maps) == len(chain)
    for inverse, tm in zip(result.maps, reversed(chain), strict=True):
        # For a consistent map the inverse is consistent and reproduces the upper bounds.
        assert va.transforms.problems(inverse) == ()
        assert (inverse.upper_bounds, inverse.lower_bounds) == (tm.lower_bounds, tm.upper_bounds)
    for point in _box(chain[0].upper_bounds):
        assert _apply(result.maps, _apply(chain, point)) == point
    for point in _box(chain[-1].lower_bounds):
        assert _apply(chain, _apply(result.maps, point)) == point


# }}}
