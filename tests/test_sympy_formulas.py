"""SymPy formulas of maps, chains and views, checked against numeric evaluation at every point."""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import ROCMLIR_FILES
from strategies import transform_maps, views
from sympy.printing.pycode import PythonCodePrinter

import viewalgebra as va
from viewalgebra._maps.affine import evaluate_expr  # noqa: TID251 -- the parser's own evaluation reads the text back
from viewalgebra.text import (
    chain_affine_map,
    compose_affine,
    format_formulas,
    sympy_formulas,
    to_sympy,
)

P = va.parse_transform_map

UNMERGE = P('#rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1)> by '
            '[<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>] bounds = [4, 8] -> [32]>')
MERGE = P('#rock.transform_map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by '
          '[<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>')
PAD = P('#rock.transform_map<affine_map<(d0) -> (d0 - 3)> by '
        '[<Pad{3, 2} ["kpad"] at [0] -> ["k"] at [0]>] bounds = [37] -> [32]>')


def upper(n: int) -> list[sympy.Symbol]:
    return [sympy.Symbol(f"u{i}", integer=True, nonnegative=True) for i in range(n)]


def lower(n: int) -> list[sympy.Symbol]:
    return [sympy.Symbol(f"l{i}", integer=True) for i in range(n)]


class _ExactPrinter(PythonCodePrinter):
    """Python code with exact rationals, so ``floor(u0/49)`` at 49 is 1, not ``floor(0.999...)``."""

    def _print_Rational(self, expr: sympy.Rational) -> str:
        return f"Fraction({expr.p}, {expr.q})"

    def _print_Mod(self, expr: sympy.Mod) -> str:
        # sympy prints -2*Mod(u0, 3) as ``-2*u0 % 3`` (sympy/sympy#30389, open): parenthesize.
        return f"({super()._print_Mod(expr)})"


def compile_formulas(eqs: Sequence[sympy.Eq], rank: int) -> Callable[..., tuple[int, ...]]:
    """The right sides as one exact integer function of ``u0, ..., u{rank-1}``."""
    symbols = sorted({s for eq in eqs for s in eq.rhs.free_symbols}, key=str)
    assert {str(s) for s in symbols} <= {f"u{i}" for i in range(rank)}
    fn = sympy.lambdify(upper(rank), [eq.rhs for eq in eqs],
                        modules=[{"Fraction": Fraction, "math": math}], printer=_ExactPrinter)

    def values(*point: int) -> tuple[int, ...]:
        result = tuple(fn(*point))
        assert all(v == int(v) for v in result)
        return tuple(int(v) for v in result)

    return values


def box(shape: Sequence[int]) -> itertools.product[tuple[int, ...]]:
    return itertools.product(*(range(n) for n in shape))


# The examples of the brief and of the docstrings.

def test_unmerge() -> None:
    u0, u1 = upper(2)
    (l0,) = lower(1)
    assert sympy_formulas(UNMERGE) == (sympy.Eq(l0, 8 * u0 + u1),)
    assert format_formulas(sympy_formulas(UNMERGE)) == ("l0 = u0 * 8 + u1",)
    assert format_formulas(sympy_formulas(UNMERGE), "sympy") == ("l0 = 8*u0 + u1",)


def test_merge() -> None:
    (u0,) = upper(1)
    l0, l1 = lower(2)
    assert sympy_formulas(MERGE) == (sympy.Eq(l0, sympy.floor(u0 / 8)), sympy.Eq(l1, sympy.Mod(u0, 8)))
    assert format_formulas(sympy_formulas(MERGE)) == ("l0 = u0 floordiv 8", "l1 = u0 mod 8")
    assert format_formulas(sympy_formulas(MERGE), "sympy") == ("l0 = floor(u0/8)", "l1 = Mod(u0, 8)")


def test_names() -> None:
    eqs = sympy_formulas(MERGE, upper=["k"], lower=["a", "b"])
    assert format_formulas(eqs) == ("a = k floordiv 8", "b = k mod 8")
    # A PassThrough keeping its name must stay an equation, not collapse to ``True``.
    same = P('#rock.transform_map<affine_map<(d0) -> (d0)> by '
             '[<PassThrough ["a"] at [0] -> ["a"] at [0]>] bounds = [4] -> [4]>')
    (eq,) = sympy_formulas(same, upper=["a"], lower=["a"])
    assert isinstance(eq, sympy.Eq)
    assert format_formulas([eq]) == ("a = a",)


def test_pad_stays_over_its_divisor() -> None:
    assert format_formulas(sympy_formulas([PAD, MERGE])) == (
        "l0 = (u0 - 3) floordiv 8", "l1 = (u0 + 5) mod 8")


def test_compose_affine() -> None:
    composite = compose_affine(va.text.affine_map_of(UNMERGE), va.text.affine_map_of(MERGE))
    assert str(composite) == "(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)"
    assert chain_affine_map([MERGE, UNMERGE]) == composite
    assert str(compose_affine(va.text.parse_affine_map("(d0) -> (d0 ceildiv 4, d0 mod 1)"),
                              va.text.parse_affine_map("(d0, d1) -> (d0 * 4 + 8)"))) \
        == "(d0, d1) -> ((d0 * 4 + 8) ceildiv 4, 0)"
    assert str(compose_affine(va.text.parse_affine_map("(d0) -> (d0 ceildiv 4)"),
                              va.text.parse_affine_map("(d0) -> (9)"))) == "(d0) -> (3)"


# Chains: Merge then Unmerge is the identity.

@pytest.mark.parametrize("sizes", [(4, 8), (2, 3, 5), (1, 6, 1, 2)])
def test_merge_then_unmerge_is_identity(sizes: tuple[int, ...]) -> None:
    n, r = math.prod(sizes), len(sizes)
    dims = list(range(r))
    names = [f"x{i}" for i in dims]
    merge = va.TransformMap((va.transforms.Merge(sizes, ["k"], [0], names, dims),), (n,), sizes)
    unmerge = va.TransformMap((va.transforms.Unmerge(sizes, names, dims, ["k"], [0]),), sizes, (n,))
    (eq,) = sympy_formulas([merge, unmerge])
    (u0,) = upper(1)
    for x in range(n):
        assert eq.rhs.subs(u0, x) == x
    fn = compile_formulas([eq], 1)
    assert all(fn(x) == (x,) for x in range(n))
    # The Mod/floor pairs cancel symbolically, too.
    assert eq.rhs == u0


def test_unmerge_then_merge_is_identity() -> None:
    eqs = sympy_formulas([UNMERGE, MERGE])
    fn = compile_formulas(eqs, 2)
    assert all(fn(*p) == p for p in box((4, 8)))
    assert format_formulas(eqs) == ("l0 = u0 + u1 floordiv 8", "l1 = u1 mod 8")


# Views: the address formula, valid points only.

def test_padded_merged_view_address() -> None:
    buffer = va.Buffer((4, 8, 3), strides=(40, 1, 9), offset=5)
    keep = P('#rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by '
             '[<PassThrough ["k", "c"] at [0, 1] -> ["k", "c"] at [0, 1]>] bounds = [32, 3] -> [32, 3]>')
    merge = P('#rock.transform_map<affine_map<(d0, d1) -> (d0 floordiv 8, d0 mod 8, d1)> by '
              '[<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>, '
              '<PassThrough ["c"] at [1] -> ["c"] at [2]>] bounds = [32, 3] -> [4, 8, 3]>')
    pad = P('#rock.transform_map<affine_map<(d0, d1) -> (d0 - 3, d1 - 1)> by '
            '[<Pad{3, 2, 1, 0} ["kpad", "cpad"] at [0, 1] -> ["k", "c"] at [0, 1]>] '
            'bounds = [37, 4] -> [32, 3]>')
    view = va.View(buffer, (pad, keep, merge))
    (eq,) = sympy_formulas(view)
    assert str(eq.lhs) == "address"
    address = compile_formulas([eq], 2)
    checked = skipped = 0
    for point in box(view.shape):
        expected = view.address(point)
        if expected is None:
            skipped += 1
            continue
        assert address(*point) == (expected,), point
        checked += 1
    assert checked == 32 * 3 and skipped == 37 * 4 - 32 * 3
    (u0, u1) = upper(2)
    assert eq.rhs.subs({u0: 12, u1: 2}) == view.address((12, 2)) == 5 + 40 * 1 + 1 * 1 + 9 * 1


def test_view_without_maps() -> None:
    view = va.View(va.Buffer((4, 8), strides=(1, 4), offset=7))
    assert format_formulas(sympy_formulas(view, upper=["i", "j"])) == ("address = i + j * 4 + 7",)


# Errors.

def test_errors() -> None:
    with pytest.raises(va.ViewAlgebraError, match=re.escape("chain_affine_map: the chain has no maps")):
        chain_affine_map([])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "chain_affine_map: lower rank of map 0 (1) != upper rank of map 1 (2)")):
        chain_affine_map([UNMERGE, UNMERGE])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "compose_affine: dims of outer map (2) != results of inner map (1)")):
        compose_affine(va.text.affine_map_of(UNMERGE), va.text.affine_map_of(UNMERGE))
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "sympy_formulas: 1 lower names for 2 lower dims")):
        sympy_formulas(MERGE, lower=["a"])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(
            "sympy_formulas: duplicate upper names ['a', 'a']")):
        sympy_formulas(UNMERGE, upper=["a", "a"])
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape("to_sympy: dim d1 but only 1 symbols")):
        to_sympy(va.text.parse_affine_map("(d0, d1) -> (d1)").results[0], upper(1))


def test_to_sympy_ceildiv_and_negative_values() -> None:
    (u0,) = upper(1)
    amap = va.text.parse_affine_map("(d0) -> ((d0 - 5) ceildiv 4, (d0 * 3 - 7) floordiv 6, (d0 - 9) mod 4)")
    exprs = [to_sympy(e, [u0]) for e in amap.results]
    assert [sympy.sstr(e) for e in exprs] == [
        "ceiling((u0 - 5)/4)", "floor((3*u0 - 7)/6)", "Mod(u0 + 3, 4)"]
    for x in range(20):
        assert [e.subs(u0, x) for e in exprs] == [-(-(x - 5) // 4), (3 * x - 7) // 6, (x - 9) % 4]


# rocMLIR's own views, at a deterministic sample of points.

def test_rocmlir_views() -> None:
    rng = random.Random(0)
    checked = 0
    for path in ROCMLIR_FILES:
        for parsed in va.text.parse_mlir_views(path.read_text()):
            view = parsed.view
            if view is None or any(p.blocking for tm in view.maps for p in va.transforms.problems(tm)):
                continue  # a map without meaning (a bug reproducer): no formula, no address
            address = compile_formulas(sympy_formulas(view), view.rank)
            for _ in range(20):
                point = tuple(rng.randrange(n) for n in view.shape) if all(view.shape) else None
                if point is None:
                    break
                expected = view.address(point)
                if expected is not None:
                    assert address(*point) == (expected,), (path.name, parsed.name, point)
                    checked += 1
    assert checked > 100


# Properties over random maps and views (tests/strategies.py: all nine op types).

@given(tm=transform_maps())
@settings(derandomize=True, deadline=None, max_examples=100)
def test_map_formulas_match_evaluate(tm: va.TransformMap) -> None:
    fn = compile_formulas(sympy_formulas(tm), tm.upper_rank)
    for point in box(tm.upper_bounds):
        assert fn(*point) == va.evaluate(tm, point)[0], point


def mlir_values(eqs: Sequence[sympy.Eq], rank: int) -> Callable[..., tuple[int, ...]]:
    """The formulas printed in MLIR's notation, read back by the affine-map parser."""
    texts = [text.split(" = ", 1)[1] for text in format_formulas(eqs)]
    dims = ", ".join(f"d{i}" for i in range(rank))
    results = [re.sub(r"\bu(\d+)\b", r"d\1", t) for t in texts]
    amap = va.text.parse_affine_map(f"affine_map<({dims}) -> ({', '.join(results)})>")
    return lambda *point: tuple(evaluate_expr(e, point) for e in amap.results)


@given(view=views(max_maps=3))
@settings(derandomize=True, deadline=None, max_examples=100)
def test_formulas_printed_in_mlir_notation_read_back_to_the_same_values(view: va.View) -> None:
    for eqs, rank in ((sympy_formulas(view.maps), view.rank), (sympy_formulas(view), view.rank)):
        printed = mlir_values(eqs, rank)
        exact = compile_formulas(eqs, rank)
        for point in box(view.shape):
            assert printed(*point) == exact(*point), (point, format_formulas(eqs))


@given(view=views(max_maps=3))
@settings(derandomize=True, deadline=None, max_examples=100)
def test_view_formulas_match_address(view: va.View) -> None:
    address = compile_formulas(sympy_formulas(view), view.rank)
    chain = compile_formulas(sympy_formulas(view.maps), view.rank)
    for point in box(view.shape):
        # The chain's equations apply at invalid points too (evaluate has no bounds check).
        lowest = point
        for tm in view.maps:
            lowest = va.evaluate(tm, lowest)[0]
        assert chain(*point) == lowest, point
        expected = view.address(point)
        if expected is not None:
            assert address(*point) == (expected,), point


@given(sizes=st.lists(st.integers(1, 5), min_size=1, max_size=4), left=st.integers(0, 3),
       right=st.integers(0, 3), stride=st.integers(-3, 3), offset=st.integers(0, 9))
@settings(derandomize=True, deadline=None, max_examples=100)
def test_padded_merge_unmerge_views(sizes: list[int], left: int, right: int, stride: int,
                                    offset: int) -> None:
    # The Mod -> floor rewrite of to_sympy only wins on such chains, which the random views rarely build.
    n, dims = math.prod(sizes), list(range(len(sizes)))
    names = [f"x{i}" for i in dims]
    pad = va.TransformMap((va.transforms.Pad((left, right), ["k"], [0], ["k"], [0]),), (n + left + right,), (n,))
    merge = va.TransformMap((va.transforms.Merge(sizes, ["k"], [0], names, dims),), (n,), sizes)
    unmerge = va.TransformMap((va.transforms.Unmerge(sizes, names, dims, ["k"], [0]),), sizes, (n,))
    view = va.View(va.Buffer((n,), strides=(stride,), offset=offset), (pad, merge, unmerge))
    (eq,) = sympy_formulas(view)
    (u0,) = upper(1)
    if left == 0 and n > 1:  # with n == 1 the Merge's equations are the constant 0
        assert eq.rhs == offset + stride * u0
    address = compile_formulas([eq], 1)
    for (x,) in box(view.shape):
        expected = view.address((x,))
        if expected is not None:
            assert address(x) == (expected,), x


def test_long_merge_unmerge_chains_are_refused_not_hung():
    """Merge and Unmerge alternating: each composition doubles the formula (``(x floordiv 2) * 2 +
    x mod 2`` repeats ``x``), so 12 pairs pass 20000 terms; the query stops at once."""
    merge = va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)> by [<Merge{2, 2} ["x"] at [0] -> '
                                   '["a", "b"] at [0, 1]>] bounds = [4] -> [2, 2]>')
    unmerge = va.parse_transform_map('<affine_map<(d0, d1) -> (d0 * 2 + d1)> by [<Unmerge{2, 2} ["a", "b"] at '
                                     '[0, 1] -> ["x"] at [0]>] bounds = [2, 2] -> [4]>')
    assert len(va.text.sympy_formulas([merge, unmerge] * 8)) == 1
    with pytest.raises(va.errors.TooComplexError, match="more than 20000 terms"):
        va.text.sympy_formulas([merge, unmerge] * 600)
    view = va.View(va.Buffer((4,)), [merge, unmerge] * 600)
    with pytest.raises(va.errors.TooComplexError):
        va.text.sympy_formulas(view)
    from oracle import legal_lengths

    # The ISL relation has no such growth: the exact answer still comes, equal to brute force.
    assert va.max_vector_length(view, 0).length == max(legal_lengths(view, 0, 4)) == 4


def test_a_chain_value_gives_the_formulas_of_its_maps():
    merge = P('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by [<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>] '
              'bounds = [32] -> [4, 8]>')
    unmerge = P('<affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>] '
                'bounds = [4, 8] -> [32]>')
    chain = va.compose(merge, unmerge)
    assert sympy_formulas(chain) == sympy_formulas([merge, unmerge])
    assert chain_affine_map(chain) == chain_affine_map([merge, unmerge])
