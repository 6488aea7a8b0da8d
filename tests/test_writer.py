"""``write_mlir``'s ``rock.transform`` chains against the same chains written one map at a time.

The writer prints each distinct map, memref type and ``by ... : ... to ...`` tail once per
function and names a chain's intermediate views in one run (``_Names.fresh_run``). Here the
kernels have long chains of views on arguments of several element types and memory spaces,
with maps shared between views, equal but distinct (copies, as a worker process returns them),
and value names that collide with the intermediate names; the text must be exactly what the
writer printed before those caches, map by map: the reference below.
"""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import transform_maps

import viewalgebra as va
from viewalgebra._kernel.graph import ViewValue  # noqa: TID251 -- the writer's input, built directly
from viewalgebra._maps.types import memref_type  # noqa: TID251 -- the one type printer
from viewalgebra._mlir import writer  # noqa: TID251 -- the fast path beside its reference
from viewalgebra._mlir.model import GenericText, OpText, Slot  # noqa: TID251 -- kernels built directly

NAMES = ["x", "x_0", "x_1", "x_0_0", "0", "2", "2_0", "v2_0", "v2_0_0", "a.b", "a.b_0", "$q", "-z", "v"]
"""View names, among them what the writer makes of a chain's intermediate views (``x_0``, and
``v2_0`` for a view named ``2``), so that its fresh names must step around them."""

DTYPES = ["f32", "f16"]
SPACES = ["", "#gpu.address_space<private>", "5"]


def _reference_fresh(names: writer._Names, base: str) -> str:
    """``_Names.fresh`` as it was: every name through the substitution, one name at a time."""
    base = re.sub(r"[^A-Za-z0-9_$.\-]", "_", base) or "v"
    if base[0].isdigit() and not base.isdigit() or base.isdigit() and base in names.taken:
        base = f"v{base}"
    name = base
    if name in names.taken:
        k = 0
        while f"{base}_{k}" in names.taken:
            k += 1
        name = f"{base}_{k}"
    names.taken.add(name)
    return name


def _reference_transforms(v: ViewValue, names: writer._Names, generic: bool) -> list[str]:
    """The ``rock.transform`` ops of a view, one map at a time, each printed anew."""
    lines: list[str] = []
    below = names.printed[v.source]
    element, space = names.element(v.name)
    for i, m in enumerate(reversed(v.maps)):
        last = i == len(v.maps) - 1
        target = names.printed[v.name] if last else _reference_fresh(names, f"{names.printed[v.name]}_{i}")
        source = names.type(v.source) if i == 0 else memref_type(m.lower_bounds, element, space=space)
        result = memref_type(m.upper_bounds, element, space=space)
        text = va.print_transform_map(m, prefix=False, affine_map=names.written.get(m))
        if generic:
            lines += writer.G.op("rock.transform", (below,), (source,), (result,),
                                 properties=[("transform", f"#rock.transform_map{text}")], defines=(target,))
        else:
            lines.append(f"%{target} = rock.transform %{below} by {text} : {source} to {result}")
        below = target
    return lines


@st.composite
def chains(draw: st.DrawFn) -> va.mlir.MlirModule:
    """A function whose one op reads views: chains of up to 6 maps on arguments of two element
    types in three memory spaces, the same maps again (shared objects or copies, on the same
    argument or another of the same shape), and views of views."""
    k = va.kernel.Kernel("f")
    types: dict[str, str] = {}
    reads: list[str] = []
    drawn: dict[tuple[int, ...], tuple[va.TransformMap, ...]] = {}
    names = iter(draw(st.permutations(NAMES)))
    for a in range(draw(st.integers(1, 4))):
        dtype, space = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(SPACES))
        shape = draw(st.sampled_from([(4, 6), (24,)]))
        arg = k.argument(f"arg{a}", shape, dtype)
        if space:
            types[arg] = memref_type(shape, dtype, space=space)
        if shape in drawn and draw(st.booleans()):  # the same maps on another element type
            chain = drawn[shape]
        else:
            maps: list[va.TransformMap] = []
            for _ in range(draw(st.integers(1, 6))):
                below = maps[-1].upper_bounds if maps else shape
                maps.append(draw(transform_maps(lower_shape=below, max_points=200)))
            chain = drawn[shape] = tuple(reversed(maps))  # top first
        for _ in range(draw(st.integers(1, 3))):
            again = draw(st.sampled_from(["shared", "copies"]))
            top = chain if again == "shared" else tuple(copy.deepcopy(m) for m in chain)
            reads.append(k.view(arg, top, name=next(names, None)))
        if draw(st.booleans()):  # a view of the last view
            top = draw(transform_maps(lower_shape=k.shape(reads[-1]), max_points=200))
            reads.append(k.view(reads[-1], (top,), name=next(names, None)))
    op = k.op("test.use", reads=reads)
    pieces: list[str | Slot] = ['"test.use"(']
    for i in range(len(reads)):
        pieces += [", "] if i else []
        pieces.append(Slot("read", i))
    pieces.append(") : () -> ()")
    syntax: tuple[tuple[str, OpText | GenericText], ...] = (
        (op.name, OpText(tuple(pieces), tuple(k.shape(r) for r in reads))),)
    return va.mlir.MlirModule((va.mlir.MlirFunction(k, True, 1, types=tuple(types.items()), syntax=syntax),))


@pytest.mark.parametrize("generic", [False, True])
@given(module=chains())
@settings(derandomize=True, max_examples=40, deadline=None)
def test_transform_chains_are_written_as_one_map_at_a_time(module: va.mlir.MlirModule, generic: bool) -> None:
    text = va.write_mlir(module, generic=generic)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "_transforms", _reference_transforms)
        expected = va.write_mlir(module, generic=generic)
    assert text == expected
    assert len(re.findall(r'rock\.transform[" ]', text)) == sum(
        len(v.maps) for v in module.functions[0].kernel.values.values() if isinstance(v, ViewValue))


@given(prefix=st.sampled_from(["x", "x_0", "0", "2", "2_0", "v2", "a.b", "$q", "-z", "a b", "é1"]),
       count=st.integers(0, 5),
       taken=st.sets(st.sampled_from(["x_0", "x_1", "x_0_0", "x_0_1", "v0_0", "v0_1", "v2_0", "v2_0_0",
                                      "2_0", "v2_1", "a.b_0", "$q_1", "-z_0", "v2_0_0_0", "x_2", "a_b_0", "_1_0"])))
@settings(derandomize=True, max_examples=200)
def test_fresh_run_names_as_fresh_does_one_at_a_time(prefix: str, count: int, taken: set[str]) -> None:
    k = va.kernel.Kernel("f")
    k.argument(prefix, (1,))
    fast, slow = (writer._Names(va.mlir.MlirFunction(k, True, 1), k) for _ in range(2))
    fast.taken |= taken
    slow.taken |= taken
    assert fast.fresh_run(prefix, count) == [_reference_fresh(slow, f"{prefix}_{i}") for i in range(count)]
    assert fast.taken == slow.taken
    # Later names step around the run's, as they would around names made one at a time.
    assert fast.fresh(f"{prefix}_0") == _reference_fresh(slow, f"{prefix}_0")
