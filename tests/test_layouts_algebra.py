"""CuTe's layout algebra, exactly: composition, coalesce, complement, the inverses and the common
vector length against brute force written here (plain enumeration of every index, every
factorization, every piece), the peers' failures with their right answers, and CuTe's rules
beside the exact answers with verdicts."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from oracle import chain_points

import viewalgebra as va

L = va.layouts
P = L.parse_layout
SETTINGS = settings(derandomize=True, max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

Tree = int | tuple["Tree", ...]

# {{{ brute force, independent of the library


def leaves(t: Tree) -> list[int]:
    return [t] if isinstance(t, int) else [x for e in t for x in leaves(e)]


def table(layout: L.Layout) -> list[int]:
    """The layout's offset at every flat index (first mode fastest), by plain loops."""
    out = []
    for index in range(layout.size):
        total, rest = 0, index
        for s, d in zip(leaves(layout.shape), leaves(layout.stride), strict=True):
            total += (rest % s) * d
            rest //= s
        out.append(total)
    return out


def swizzled(b: int, m: int, s: int, x: int) -> int:
    """CuTe's Sw<B,M,S> bit by bit (S >= 0 here)."""
    for k in range(b):
        if x >> (m + s + k) & 1:
            x ^= 1 << (m + k)
    return x


def factorizations(n: int) -> list[tuple[int, ...]]:
    """Every ordered factorization of n into factors above 1 (``()`` for 1)."""
    if n == 1:
        return [()]
    return [(k, *rest) for k in range(2, n + 1) if n % k == 0 for rest in factorizations(n // k)]


def layouts_with_function(f: list[int], sizes: list[int]) -> list[tuple[tuple[int, int], ...]]:
    """Every flat layout whose shape refines ``sizes`` and whose offsets are ``f`` (each mode's
    stride is forced: the value at its unit step)."""
    found = []
    for combo in itertools.product(*(factorizations(s) for s in sizes)):
        shape = [k for part in combo for k in part]
        modes, step = [], 1
        for k in shape:
            modes.append((k, f[step] if step < len(f) else 0))
            step *= k
        flat = L.Layout(tuple(k for k, _ in modes) or 1, tuple(d for _, d in modes) or 0)
        if table(flat) == f:
            found.append(tuple(modes))
    return found


def legal_lengths(values: list[int | None], aligned: bool = False) -> list[int]:
    """Every v dividing the domain with each piece all holes or all valid and consecutive."""
    n = len(values)
    out = []
    for v in range(1, n + 1):
        if n % v:
            continue
        good = True
        for p in range(0, n, v):
            piece = values[p:p + v]
            if all(x is None for x in piece):
                continue
            known = [x for x in piece if x is not None]
            steps_ok = len(known) == v and all(known[k + 1] == known[k] + 1 for k in range(v - 1))
            if not steps_ok or (aligned and known[0] % v):
                good = False
        if good:
            out.append(v)
    return out


def common_values(a: list[int], b: list[int], cosize: int) -> list[int | None]:
    """``a ∘ b⁻¹`` on b's offsets ``0..cosize-1`` (``None``: a hole)."""
    inverse: dict[int, int] = {}
    for i, y in enumerate(b):
        inverse[y] = i
    return [a[inverse[y]] if y in inverse else None for y in range(cosize)]


# }}}


@st.composite
def shapes(draw: st.DrawFn, max_size: int = 48) -> Tree:
    rank = draw(st.integers(1, 3))
    flat = [draw(st.integers(1, 6)) for _ in range(rank)]
    while math.prod(flat) > max_size:
        flat[flat.index(max(flat))] = 1
    if rank >= 2 and draw(st.booleans()):
        return (flat[0], tuple(flat[1:]))
    return tuple(flat) if rank > 1 else flat[0]


def strides_for(shape: Tree, high: int) -> st.SearchStrategy[Tree]:
    if isinstance(shape, int):
        return st.integers(0, high)
    return st.tuples(*(strides_for(s, high) for s in shape))


@st.composite
def layouts(draw: st.DrawFn, max_size: int = 48, high: int = 12) -> L.Layout:
    shape = draw(shapes(max_size))
    return L.Layout(shape, draw(strides_for(shape, high)))


@st.composite
def composable(draw: st.DrawFn) -> tuple[L.Layout, L.Layout]:
    """An inner layout and an outer one whose domain holds the inner one's offsets (at least
    size cosize(b): an extra outer mode makes up the difference)."""
    b = draw(layouts(max_size=24, high=8))
    a = draw(layouts(max_size=48, high=10))
    need = max(table(b)) + 1
    if a.size < need:
        extra = -(-need // a.size)
        a = L.Layout((a.shape, extra), (a.stride, draw(st.integers(0, 40))))
    return a, b


@SETTINGS
@given(pair=composable())
def test_composition_equals_brute_force(pair: tuple[L.Layout, L.Layout]) -> None:
    a, b = pair
    f = [table(a)[y] for y in table(b)]
    result = L.composition(a, b)
    lower, valid = chain_points(result.chain.maps, np.arange(b.size)[:, None])
    assert valid.all() and lower[:, 0].tolist() == f  # the chain: always right
    exists = layouts_with_function(f, leaves(b.shape))
    event("single layout" if result.layout is not None else "no single layout")
    if result.layout is not None:
        assert table(result.layout) == f
        assert [math.prod(leaves(s)) for s in _by_leaf(result.layout.shape, b.shape)] == leaves(b.shape)
    else:
        assert exists == []  # no shape:stride refining b's shape has this function
        w = result.witness
        assert w is not None and w.candidate is not None
        got = table(w.candidate)
        assert got[:w.index] == f[:w.index] and (got[w.index], f[w.index]) == (w.got, w.expected) != (w.got, w.got)
        assert w.coord == L.idx2crd(w.index, b.shape)


def _by_leaf(shape: Tree, like: Tree) -> list[Tree]:
    """The parts of ``shape`` that stand where ``like`` has leaves."""
    if isinstance(like, int):
        return [shape]
    assert isinstance(shape, tuple)
    return [x for s, e in zip(shape, like, strict=True) for x in _by_leaf(s, e)]


@SETTINGS
@given(a=layouts())
def test_coalesce_is_the_fewest_modes(a: L.Layout) -> None:
    c = L.coalesce(a)
    f = table(a)
    assert table(c) == f
    fewest = min(len(m) for m in layouts_with_function(f, [a.size]))
    assert len(leaves(c.shape)) == max(fewest, 1)


def collide(f: list[int]) -> bool:
    return len(set(f)) < len(f)


def refused_rightly(e: va.errors.LayoutAlgebraError, f: list[int]) -> None:
    """A refusal of a layout with offsets ``f``: two indices with one offset as its witness, or
    strides that are not a mixed radix with gaps."""
    event("refused: " + ("not one-to-one" if collide(f) else "gaps"))
    if collide(f):
        i, j, y = e.witness
        assert i != j and f[i] == f[j] == y
    else:
        assert "not a mixed radix with gaps" in str(e)


@SETTINGS
@given(a=layouts(max_size=24, high=16), cosize=st.integers(1, 80))
def test_complement_equals_brute_force(a: L.Layout, cosize: int) -> None:
    f = table(a)
    try:
        r = L.complement(a, cosize)
    except va.errors.LayoutAlgebraError as e:
        refused_rightly(e, f)
        return
    event("complement")
    assert not collide(f)
    g = table(r)
    both = [x + y for y in g for x in f]
    assert sorted(both) == list(range(len(both)))  # (a, R) is one-to-one onto a box
    assert len(both) >= cosize
    steps = [d for s, d in zip(leaves(r.shape), leaves(r.stride), strict=True) if s > 1]
    assert steps == sorted(set(steps))  # ordered


@SETTINGS
@given(a=layouts(max_size=24, high=16))
def test_left_inverse_equals_brute_force(a: L.Layout) -> None:
    f = table(a)
    try:
        inv = L.left_inverse(a)
    except va.errors.LayoutAlgebraError as e:
        refused_rightly(e, f)
        return
    event("left inverse")
    g = table(inv)
    assert [g[y] for y in f] == list(range(a.size))


@SETTINGS
@given(a=layouts(max_size=24, high=6))
def test_right_inverse_equals_brute_force(a: L.Layout) -> None:
    f = table(a)
    r = L.right_inverse(a)
    g = table(r)
    assert [f[i] for i in g] == list(range(r.size)) or r.size == 1
    smallest = {}
    for i, y in enumerate(f):
        smallest.setdefault(y, i)
    m = next(y for y in itertools.count() if y not in smallest)
    for n in range(r.size + 1, m + 1):  # no larger one
        assert layouts_with_function([smallest[y] for y in range(n)], [n]) == []


@st.composite
def vector_pairs(draw: st.DrawFn) -> tuple[L.Layout, L.Layout]:
    """Two layouts of one domain: ``b`` random or a permuted radix with gaps (holes in its
    offsets), ``a`` random, ``b`` itself, or ``b``'s index laid out compactly."""
    if draw(st.booleans()):
        b = draw(layouts(max_size=32, high=12))
    else:
        sizes = [draw(st.integers(1, 4)) for _ in range(draw(st.integers(1, 3)))]
        strides = [draw(st.integers(1, 2))]
        for n in sizes[:-1]:
            gap = draw(st.sampled_from([0, 1, n, n]))  # n: whole copies of the span below
            strides.append(strides[-1] * (n + gap))
        order = draw(st.permutations(range(len(sizes))))
        b = L.Layout(tuple(sizes[k] for k in order), tuple(strides[k] for k in order))
    kind = draw(st.sampled_from(["random", "same", "compact"]))
    if kind == "same":
        return b, b
    if kind == "compact":
        flat, strides, step = leaves(b.shape), [], 1
        for n in flat:
            strides.append(step)
            step *= n
        return L.Layout(tuple(flat), tuple(strides)), b
    a_sizes = draw(st.sampled_from(layouts_with_sizes(b.size)))
    a = L.Layout(a_sizes, tuple(draw(st.integers(0, 12)) for _ in a_sizes))
    return a, b


def layouts_with_sizes(n: int) -> list[tuple[int, ...]]:
    return [f or (1,) for f in factorizations(n) if len(f) <= 3]


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=vector_pairs(), aligned=st.booleans())
def test_max_common_vector_equals_brute_force(pair: tuple[L.Layout, L.Layout], aligned: bool) -> None:
    a, b = pair
    fb = table(b)
    if collide(fb):
        with pytest.raises(va.errors.LayoutAlgebraError, match="not one-to-one"):
            L.max_common_vector(a, b)
        return
    values = common_values(table(a), fb, max(fb) + 1)
    legal = legal_lengths(values, aligned)
    event(f"exact length {'1' if max(legal) == 1 else 'above 1'}, {'holes' if None in values else 'no holes'}")
    result = L.max_common_vector(a, b, aligned=aligned)
    assert result.legal == tuple(legal) and result.length == max(legal)
    if result.witness is not None:
        w = result.witness
        assert w.length not in legal and w.length > result.length
        assert list(w.values) == values[w.offset:w.offset + len(w.values)]
        assert w.coord == (None if values[w.offset] is None else L.idx2crd(fb.index(w.offset), b.shape))
    capped = L.max_common_vector(a, b, bits=32, aligned=aligned)
    assert capped.length == max(v for v in legal if v <= 4) and capped.width_bits == 32 * capped.length
    if not aligned:  # CuTe's rule beside it: the verdict follows the brute-force legal set
        c = L.cute_max_common_vector(a, b)
        expected = ("CuTe rejects" if c.cute is None else "equal" if c.cute == max(legal)
                    else "CuTe conservative" if c.cute in legal else "CuTe unsound")
        assert c.verdict == expected
        event(f"CuTe: {c.verdict}")


# {{{ the peers' cases, with their right answers (derived by the brute force above)


def test_cutlass_3177_composition_has_no_single_layout() -> None:
    """NVIDIA/cutlass#3177: ``(4,6,8):(2,3,5) o 6:3``; CuTe C++ gives ``(2,3):(6,3)``."""
    a, b = P("(4,6,8):(2,3,5)"), P("6:3")
    f = [table(a)[y] for y in table(b)]
    assert f == [0, 6, 7, 8, 9, 15]
    assert layouts_with_function(f, [6]) == []
    result = L.composition(a, b)
    assert result.layout is None and result.witness is not None
    check = L.check_composition(a, b, "(2,3):(6,3)")
    assert not check.ok and check.mismatch is not None
    assert (check.mismatch.index, check.mismatch.expected, check.mismatch.got) == (2, 7, 3)


def test_cutlass_2113_composition_exists() -> None:
    """NVIDIA/cutlass#2113: ``(10,2):(16,4) o (3,4):(1,5)`` is ``(3,(2,2)):(16,(80,4))``."""
    a, b = P("(10,2):(16,4)"), P("(3,4):(1,5)")
    result = L.composition(a, b)
    assert str(result.layout) == "(3,(2,2)):(16,(80,4))"
    assert table(result.layout) == [table(a)[y] for y in table(b)] == [0, 16, 32, 80, 96, 112, 4, 20, 36, 84, 100, 116]
    assert L.check_composition(a, b, "(3,(2,2)):(16,(80,4))").ok


def test_pycute_floor_has_no_single_layout() -> None:
    """pycute gives ``4:1`` (size 4) for ``(4,3):(1,10) o 6:1``; the function is 0 1 2 3 10 11."""
    a, b = P("(4,3):(1,10)"), P("6:1")
    result = L.composition(a, b)
    assert [table(a)[y] for y in table(b)] == [0, 1, 2, 3, 10, 11]
    assert result.layout is None and layouts_with_function([0, 1, 2, 3, 10, 11], [6]) == []
    with pytest.raises(va.errors.InvalidArgumentError, match="has 4 indices"):
        L.check_composition(a, b, "4:1")


def test_logical_divide_24_by_5_leaves_the_domain() -> None:
    """``logical_divide(24:1, 5:1)`` composes with ``(5, complement(5:1, 24))`` = ``(5,5):(1,5)``,
    whose index 24 is offset 24, outside ``24:1``."""
    assert str(L.complement(P("5:1"), 24)) == "5:5"
    with pytest.raises(va.errors.LayoutAlgebraError, match=r"sends index 24 \(coordinate \(4, 4\)\) to 24") as e:
        L.composition(P("24:1"), P("(5,5):(1,5)"))
    assert e.value.witness == (24, (4, 4), 24)
    with pytest.raises(va.errors.LayoutAlgebraError, match=r"sends index 24 \(coordinate \(4, 4\)\) to 24"):
        L.logical_divide(P("24:1"), P("5:1"))
    divided = L.logical_divide(P("24:1"), P("4:1"))  # 4 divides 24: the tiles of 4
    assert str(divided.layout) == "(4,6):(1,4)" and table(divided.layout) == list(range(24))


def test_inverses_of_what_is_not_one_to_one_are_refused() -> None:
    """CuTe's ``left_inverse((2,2):(1,1))`` is ``2:2``, whose value at ``a(1) = 1`` is 2, not 1."""
    with pytest.raises(va.errors.LayoutAlgebraError, match="indices 1 and 2") as e:
        L.left_inverse(P("(2,2):(1,1)"))
    assert e.value.witness == (1, 2, 1)
    with pytest.raises(va.errors.LayoutAlgebraError, match="not one-to-one"):
        L.complement(P("(4,2):(1,2)"), 16)
    assert str(L.left_inverse(P("(6,4):(1,8)"))) == "(8,4):(1,6)"
    assert str(L.right_inverse(P("(6,4):(1,8)"))) == "6:1"


@pytest.mark.parametrize(("element_bytes", "right", "wrong"), [(2, "Sw<3,3,3>", "Sw<3,0,3>"), (4, "Sw<3,2,3>", None)])
def test_flydsl_634_swizzle_rescaled_by_bytes(element_bytes: int, right: str, wrong: str | None) -> None:
    """ROCm/FlyDSL#634: a byte swizzle ``Sw<3,4,3>`` seen in elements of 2 (4) bytes is
    ``Sw<3,3,3>`` (``Sw<3,2,3>``), CuTe's ``upcast<EBITS/8>``; FlyDSL's ``upcast<EBITS>`` gives
    ``Sw<3,0,3>`` for f16 (and a negative base for f32)."""
    tile = "(8,64):(64,1)"
    offsets = table(P(tile))

    def by_bytes(i: int) -> int:
        return swizzled(3, 4, 3, element_bytes * offsets[i]) // element_bytes

    assert L.check_layout(f"{right} o 0 o {tile}", by_bytes).ok
    if wrong is not None:
        check = L.check_layout(f"{wrong} o 0 o {tile}", by_bytes)
        first = next(i for i in range(512) if by_bytes(i) != swizzled(3, 0, 3, offsets[i]))
        assert not check.ok and check.mismatch is not None and check.mismatch.index == first == 1
        assert (check.mismatch.expected, check.mismatch.got) == (72, 64) == (by_bytes(1), swizzled(3, 0, 3, 64))
        as_flydsl_prints_it = L.check_layout(f"!fly.composed_layout<S<3,0,3> o 0 o {tile}>", by_bytes)
        assert as_flydsl_prints_it.mismatch == check.mismatch
        assert L.check_layout(f"!fly.composed_layout<S<3,3,3> o 0 o {tile}>", by_bytes).ok


def test_check_layout_against_transform_maps() -> None:
    chain = L.layout_chain(P("(4,8):(8,1)"))
    assert L.check_layout("(4,8):(8,1)", chain).ok
    check = L.check_layout("(4,8):(1,4)", chain)
    assert not check.ok and check.mismatch is not None
    assert (check.mismatch.index, check.mismatch.expected, check.mismatch.got) == (1, 8, 1)


# }}}

# {{{ CuTe's rules beside the exact answer


def test_cute_swizzle_rule_verdicts() -> None:
    """``min(max_common_vector(L, b), 2^M)``: 4 on ``Sw<1,2,3> o (6,4):(1,8)`` though its runs are
    6 long (4 does not divide 6); 8 on ``Sw<3,3,3> o 64:1`` though all 64 are consecutive."""
    a = P("Sw<1,2,3> o 0 o (6,4):(1,8)")
    fa = [swizzled(1, 2, 3, y) for y in table(a.layout)]
    assert max(legal_lengths(common_values(fa, list(range(24)), 24))) == 6
    unsound = L.cute_swizzle_vector(a, P("24:1"))
    assert (unsound.cute, unsound.exact.length, unsound.verdict) == (4, 6, "CuTe unsound")
    b = P("Sw<3,3,3> o 0 o 64:1")
    assert [swizzled(3, 3, 3, y) for y in range(64)] == list(range(64))
    conservative = L.cute_swizzle_vector(b, P("64:1"))
    assert (conservative.cute, conservative.exact.length, conservative.verdict) == (8, 64, "CuTe conservative")
    wide = L.max_common_vector(b, P("64:1"), bits=16)
    assert (wide.length, wide.width_bits) == (8, 128)


def test_cute_max_common_vector_verdicts() -> None:
    gapped = P("(6,4):(1,8)")
    values = common_values(table(gapped), table(gapped), 30)
    assert legal_lengths(values) == [1, 2]
    c = L.cute_max_common_vector(gapped, gapped)
    assert (c.cute, c.exact.length, c.verdict) == (6, 2, "CuTe unsound")
    w = c.exact.witness
    assert w is not None and w.length == 3 and w.offset == 7 and w.coord is None
    equal = L.cute_max_common_vector(P("(4,8):(1,4)"), P("32:1"))
    assert (equal.cute, equal.exact.length, equal.verdict) == (32, 32, "equal")
    backwards = L.max_common_vector(P("8:-1"), P("8:1")).witness
    assert backwards is not None and (backwards.offset, backwards.values) == (0, (0, -1))
    rejected = L.cute_max_common_vector(P("(4,3):(1,10)"), P("(6,2):(1,100)"))
    assert rejected.verdict == "CuTe rejects" and rejected.cute is None


# }}}


def test_max_common_vector_on_radices_with_gaps() -> None:
    """Every two-mode radix with gaps of whole copies (holes where runs end), in either order,
    with itself and with its index laid out compactly: the exact length against brute force."""
    seen_long_with_holes = False
    for s0, s1, k, first in itertools.product((2, 3, 4), (2, 3), (1, 2, 3), (0, 1)):
        strides = (1, s0 * k)
        shape, stride = ((s0, s1), strides) if first == 0 else ((s1, s0), strides[::-1])
        b = L.Layout(shape, stride)
        fb = table(b)
        compact = L.Layout(shape, (1, shape[0]))
        for a in (b, compact):
            values = common_values(table(a), fb, max(fb) + 1)
            legal = legal_lengths(values)
            result = L.max_common_vector(a, b)
            assert (result.length, result.legal) == (max(legal), tuple(legal)), (a, b)
            seen_long_with_holes |= result.length > 1 and None in values
    assert seen_long_with_holes


@SETTINGS
@given(pair=composable(), bits=st.integers(1, 3), base=st.integers(0, 2), offset=st.integers(0, 5))
def test_composition_with_a_swizzled_outer_layout(pair: tuple[L.Layout, L.Layout], bits: int, base: int,
                                                  offset: int) -> None:
    """``(Sw<B,M,S> o OFF o a) o b`` against the swizzle computed bit by bit."""
    a, b = pair
    outer = L.ComposedLayout(L.Swizzle(bits, base, bits), offset, a)
    f = [swizzled(bits, base, bits, offset + table(a)[y]) for y in table(b)]
    result = L.composition(outer, b)
    lower, valid = chain_points(result.chain.maps, np.arange(b.size)[:, None])
    assert valid.all() and lower[:, 0].tolist() == f
    if result.layout is not None:
        assert table(result.layout) == f
    else:
        assert f[0] != 0 or layouts_with_function(f, leaves(b.shape)) == []
    claimed = result.layout or b  # the right layout, or a wrong claim to be caught
    check = L.check_composition(outer, b, claimed)
    first = next((i for i, (x, y) in enumerate(zip(f, table(claimed), strict=True)) if x != y), None)
    assert check.ok == (first is None)
    if first is not None:
        assert check.mismatch is not None and (check.mismatch.index, check.mismatch.expected) == (first, f[first])


def test_check_layout_reads_any_layout() -> None:
    """A Triton linear layout and a swizzle alone, each against its function written out here."""
    triton = L.linear_layout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    offsets = [((i >> 1) & 3) + 4 * (i & 1) for i in range(8)]
    assert L.check_layout(triton, lambda i: offsets[i]).ok
    wrong = L.check_layout(triton, lambda i: i)
    assert wrong.mismatch is not None and (wrong.mismatch.index, wrong.mismatch.expected, wrong.mismatch.got) == (
        1, 1, 4)
    assert L.check_layout("Sw<1,0,1>", lambda i: swizzled(1, 0, 1, i)).ok


@st.composite
def triton_pairs(draw: st.DrawFn) -> tuple[L.LinearLayout, L.LinearLayout]:
    """A register -> offset layout and a shared layout (a permutation of bits, maybe XOR-ed with
    higher bits: a swizzle) of one power-of-two size."""
    bits = draw(st.integers(1, 5))
    order = draw(st.permutations(range(bits)))
    regs = [[1 << order[k]] for k in range(bits)]
    shared = []
    for k in range(bits):
        extra = draw(st.sampled_from([0] + [1 << j for j in range(k)]))  # XOR a lower bit in: still one-to-one
        shared.append([(1 << k) ^ extra])
    split = draw(st.integers(0, bits))
    a = L.linear_layout({"register": regs[:split], "lane": regs[split:]}, {"offset": 1 << bits})
    b = L.linear_layout({"register": shared[:split], "lane": shared[split:]}, {"offset": 1 << bits})
    return a, b


@settings(derandomize=True, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=triton_pairs())
def test_max_common_vector_of_triton_layouts(pair: tuple[L.LinearLayout, L.LinearLayout]) -> None:
    """Triton's register -> shared question (``largestVectorisation``) on linear layouts."""
    a, b = pair
    fa = [L.evaluate(a, i) for i in range(a.size)]
    fb = [L.evaluate(b, i) for i in range(b.size)]
    legal = legal_lengths(common_values(fa, fb, max(fb) + 1))
    result = L.max_common_vector(a, b)
    assert (result.length, result.legal) == (max(legal), tuple(legal))
    event(f"length {result.length}")
