"""``va.layouts.vector_length``: the closed form for shape:stride layouts (docs/layouts.md,
"Vector length in closed form") against numpy enumeration of the offsets and against
``max_vector_length`` on the same view, for every option; the general engine for the others."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import viewalgebra as va

L = va.layouts


def leaves(t: object) -> list[int]:
    if isinstance(t, int):
        return [t]
    assert isinstance(t, tuple)
    return [x for e in t for x in leaves(e)]


def offsets(layout: va.layouts.Layout) -> np.ndarray:
    """Every flat index's offset, from the shape and stride alone (colexicographic coordinates)."""
    shape, stride = leaves(layout.shape), leaves(layout.stride)
    index = np.arange(math.prod(shape), dtype=np.int64)
    total = np.zeros_like(index)
    for s, d in zip(shape, stride, strict=True):
        index, c = np.divmod(index, s)
        total += c * d
    return total


def brute(off: np.ndarray, run: int, cap: int | None, power_of_two: bool, aligned: bool
          ) -> tuple[int, tuple[int, ...]]:
    """The answer and the legal lengths by the definition (docs/vectorize.md), every piece checked."""
    size = len(off)
    legal = []
    for v in range(1, run + 1):
        if run % v or size % v or (power_of_two and v & (v - 1)):
            continue
        pieces = off.reshape(-1, v)
        if (np.diff(pieces, axis=1) == 1).all() and not (aligned and (pieces[:, 0] % v).any()):
            legal.append(v)
    answer = legal[-1] if cap is None else max(v for v in legal if v <= cap)
    return answer, tuple(legal)


def genuine(w: va.answers.Witness, off: np.ndarray, run: int) -> None:
    """The witness shows what it says on the offsets."""
    assert run % w.length == 0
    if w.reason == "crosses the end of the dim":
        assert len(off) % w.length and w.point == (len(off) - len(off) % w.length,)
    elif w.reason == "address jump":
        (p,), (q,) = w.point, w.next_point or (None,)
        assert q == p + 1 and (p + 1) % w.length and off[q] - off[p] != 1
        assert w.addresses == (off[p], off[q])
    else:
        assert w.reason == "misaligned"
        (p,) = w.point
        assert p % w.length == 0 and off[p] % w.length and w.addresses == (off[p],)
    if w.reason != "address jump":
        assert w.addresses == (off[w.point[0]],)


@st.composite
def layouts(draw: st.DrawFn, max_modes: int = 8, max_points: int = 512) -> va.layouts.Layout:
    """Up to 8 modes (nested now and then), size-1 modes, compact strides and the ways out of
    them: broadcasts, overlaps, permutations, negative strides."""
    n = draw(st.integers(1, max_modes))  # layout_view cannot build the empty shape ()
    sizes: list[int] = []
    for _ in range(n):
        room = max_points // max(math.prod(sizes), 1)
        sizes.append(draw(st.sampled_from([s for s in (1, 1, 2, 2, 2, 3, 4, 4, 5, 8) if s <= room] or [1])))
    strides: list[int] = []
    compact = 1
    for s in sizes:
        strides.append(draw(st.sampled_from([compact, compact, compact, 0, 1, 2 * compact, compact + 1,
                                             -compact, draw(st.integers(-6, 40))])))
        compact *= s
    if draw(st.booleans()):  # a permutation: a contiguous layout read in another order
        order = draw(st.permutations(range(n)))
        sizes, strides = [sizes[k] for k in order], [strides[k] for k in order]
    shape: list[object] = []
    stride: list[object] = []
    k = 0
    while k < n:  # group some neighbours into a nested mode
        width = draw(st.integers(1, min(3, n - k)))
        group_s, group_d = tuple(sizes[k:k + width]), tuple(strides[k:k + width])
        nested = width > 1 or draw(st.integers(0, 9)) == 0
        shape.append(group_s if nested else group_s[0])
        stride.append(group_d if nested else group_d[0])
        k += width
    if len(shape) == 1 and draw(st.booleans()):
        return L.Layout(shape[0], stride[0])
    return L.Layout(tuple(shape), tuple(stride))


@st.composite
def options(draw: st.DrawFn, size: int) -> dict[str, object]:
    divisors = [d for d in range(1, 2 * size + 1) if (2 * size) % d == 0]
    found: dict[str, object] = {"aligned": draw(st.booleans()), "power_of_two": draw(st.booleans())}
    length = draw(st.sampled_from([None, None, size, *divisors, draw(st.integers(1, 2 * size + 3))]))
    if length is not None:
        found["length"] = length
    if draw(st.booleans()):
        found["dtype"], found["bits"] = draw(st.sampled_from(
            [("f32", 128), ("f16", 128), ("i8", 64), ("f32", 96), ("f64", 32), ("i8", 40)]))
    return found


WIDTH = {"f32": 32, "f16": 16, "i8": 8, "f64": 64}


def engine_options(opts: dict[str, object]) -> dict[str, object]:
    """``max_vector_length``'s options for ``vector_length``'s: the cap is ``bits // width``."""
    bits = opts.get("bits")
    cap = None if bits is None else max(int(str(bits)) // WIDTH[str(opts["dtype"])], 1)
    return {"max_elements": cap, "power_of_two": opts["power_of_two"], "aligned": opts["aligned"]}


@settings(derandomize=True, deadline=None, max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_closed_form_is_the_definition_and_the_engines_answer(data):
    layout = data.draw(layouts())
    opts = data.draw(options(layout.size))
    got = L.vector_length(layout, **opts)
    off = offsets(layout)
    run = opts.get("length", len(off))
    assert isinstance(run, int)
    more = engine_options(opts)
    cap = more["max_elements"]
    assert (got.length, got.legal) == brute(off, run, cap, bool(opts["power_of_two"]),
                                             bool(opts["aligned"]))
    view = L.layout_view(layout, "flat", str(opts.get("dtype", "f32")))
    engine = va.max_vector_length(view, 0, opts.get("length"), **more)
    assert (got.length, got.legal, got.run, got.cap, got.dim) == (
        engine.length, engine.legal, engine.run, engine.cap, engine.dim)
    assert (got.witness is None) == (engine.witness is None)
    if got.witness is not None and engine.witness is not None:
        assert (got.witness.length, got.witness.reason) == (engine.witness.length, engine.witness.reason)
        genuine(got.witness, off, run)
        genuine(engine.witness, off, run)


SM80 = [
    "((_4,_8),_1):((_8,_1),_0)",  # SM80_8x4
    "((_4,_8),_2):((_16,_1),_8)",  # SM80_8x8_Row
    "((_4,_8),_4):((_32,_1),_8)",  # SM80_8x16_Row
    "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",  # SM80_16x8_Row
    "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",  # SM80_16x8x16 f16 A
    "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",  # SM80_16x8x16 f16 B
    "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))",  # SM80_16x8x16 s8 A
    "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",  # SM80_16x8x32 s8 A
    "((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048))",  # SM80_16x8x256 b1 A
    "((_4,_8),_32):((_256,_1),_8)",  # SM80_8x8x128 b1 A and B
]
"""CuTe's (thread, value) -> (m, n) layouts of the SM80 MMA atoms, NVIDIA/cutlass
``include/cute/atom/mma_traits_sm80.hpp`` (``ALayout``, ``BLayout``, ``CLayout``)."""


@pytest.mark.parametrize("text", SM80)
@pytest.mark.parametrize("options", [{}, {"aligned": True}, {"bits": 128, "dtype": "f16"},
                                     {"bits": 32, "dtype": "i8", "power_of_two": True}])
def test_cutlass_mma_layouts_and_their_modes_agree_with_their_function_and_the_engine(text, options):
    layout = L.parse_layout(text)
    assert isinstance(layout, L.Layout)
    for part in (layout, *layout.modes):  # the whole (T, V) layout, the thread mode, the value mode
        got = L.vector_length(part, **options)
        off = np.array([L.evaluate(part, i) for i in range(part.size)], dtype=np.int64)
        assert (off == offsets(part)).all()
        cap = engine_options({"power_of_two": False, "aligned": False, **options})["max_elements"]
        assert (got.length, got.legal) == brute(off, part.size, cap, bool(options.get("power_of_two")),
                                                 bool(options.get("aligned")))
        view = L.layout_view(part, "flat", str(options.get("dtype", "f32")))
        exact = va.max_vector_length(view, 0, **engine_options({"power_of_two": False, "aligned": False,
                                                                **options}))
        assert (got.length, got.legal, got.cap) == (exact.length, exact.legal, exact.cap)
        if got.witness is not None:
            genuine(got.witness, off, part.size)


def test_each_mode_of_an_mma_atom_is_a_layout_of_its_own():
    # SM80_16x8x16 f16 A: a thread's 8 values (2,2,2):(16,8,128) lie 16, 8 and 128 apart, and
    # neighbouring threads (4,8):(32,1) 32 apart: no two neighbours are adjacent
    a = L.parse_layout("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))")
    assert isinstance(a, L.Layout)
    assert [L.vector_length(m).length for m in a.modes] == [1, 1]
    b = L.parse_layout("((4,8),(2,2)):((1,4),(32,64))")  # a thread mode that is contiguous
    assert isinstance(b, L.Layout)
    assert [L.vector_length(m).length for m in (b, *b.modes)] == [128, 32, 1]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), bits=0), "bits must be at least 1"),
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), length=0), "run length must be at least 1"),
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), length=2.0), "length must be an integer"),
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), aligned=1), "must be True or False"),
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), dtype="q7"), "unknown element type"),
    (lambda: L.vector_length("(4,8):(1,4)"), "vector_length: expected a layout (Layout, ComposedLayout, Swizzle, "
                                              "LinearLayout or PaddedSharedLayout; parse_layout reads text)"),
    (lambda: L.vector_length(L.Layout((4, 8), (1, 4)), timeout=-1), "timeout must be positive seconds"),
])
def test_bad_arguments_are_refused_with_what_to_give(call, message):
    with pytest.raises(va.ViewAlgebraError, match=re.escape(message)):
        call()


@settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(layouts(max_modes=6, max_points=128))
def test_cutes_rule_on_the_flat_index_is_the_closed_form(layout):
    # CuTe's max_common_vector(a, size:1) is coalesce(a)'s first mode when its stride is 1: the
    # same P (docs/layouts.md, "CuTe's rule is exact here")
    compared = L.cute_max_common_vector(layout, L.Layout(layout.size, 1))
    assert compared.cute == L.vector_length(layout).length == compared.exact.length
    assert compared.verdict == "equal"


OTHERS = [
    L.parse_layout("Sw<3,3,3> o (24,8):(1,32)"),
    L.parse_layout("Sw<3,3,3> o 0 o 64:1"),
    L.parse_layout("Sw<1,2,3> o 0 o (6,4):(1,8)"),
    L.parse_layout("Sw<2,0,2>"),
    L.linear_layout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2}),
    L.linear_layout({"register": [[1, 0], [2, 0]], "lane": [[0, 1], [4, 0]]}, {"dim0": 8, "dim1": 2}),
]
"""Swizzled, swizzle-only and Triton layouts: the general engine's."""


@pytest.mark.parametrize("layout", OTHERS, ids=str)
@pytest.mark.parametrize("options", [{}, {"aligned": True}, {"bits": 64, "dtype": "f16"},
                                     {"power_of_two": True, "length": 8}])
def test_other_layouts_are_the_engines_answer_and_the_definition(layout, options):
    got = L.vector_length(layout, **options)
    more = engine_options({"power_of_two": False, "aligned": False, **options})
    view = L.layout_view(layout, "flat", str(options.get("dtype", "f32")))
    assert got == va.max_vector_length(view, 0, options.get("length"), **more)
    size = view.shape[0]
    off = np.array([L.evaluate(layout, i) for i in range(size)], dtype=np.int64)
    assert [view.address((i,)) for i in range(size)] == off.tolist()
    run = options.get("length", size)
    assert isinstance(run, int)
    assert (got.length, got.legal) == brute(off, run, more["max_elements"], bool(options.get("power_of_two")),
                                             bool(options.get("aligned")))
