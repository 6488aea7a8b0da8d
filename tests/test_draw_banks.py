"""``va.draw.banks``: one panel per phase of one LDS instruction, each cell a dword with the lanes
touching it, red exactly on the banks holding more than one dword of the phase; checked against
an independent computation (``View.address`` point by point) and against ``bank_conflicts``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import viewalgebra as va
from viewalgebra.errors import CoordinateError, DrawError

SVG = "{http://www.w3.org/2000/svg}"
T = va.transforms


def strided_access(threads: int, split: int, coefficients: tuple[int, int, int], instances: int,
                   vector: int, dtype: str, kind: str, pad: int = 0) -> va.lds.LdsAccess:
    """Thread ``tid`` (split by a Merge into ``tid // split`` and ``tid % split``), instance ``i``
    and vector element ``v`` at element address ``ca * (tid // split) + cb * (tid % split) + ci * i
    + v`` of a flat LDS buffer, the last ``pad`` threads padding (inactive)."""
    ca, cb, ci = coefficients
    a, b = threads // split, split
    size = ca * (a - 1) + cb * (b - 1) + ci * (instances - 1) + vector
    maps = [va.TransformMap((T.Merge((a, b), ("tid",), (0,), ("ta", "tb"), (0, 1)),
                             T.PassThrough((), ("i", "v"), (1, 2), ("i", "v"), (2, 3))),
                            (threads, instances, vector), (a, b, instances, vector)),
            va.TransformMap((T.Embed((ca, cb, ci, 1), ("ta", "tb", "i", "v"), (0, 1, 2, 3), ("x",), (0,)),),
                            (a, b, instances, vector), (size,))]
    if pad:
        maps.insert(0, va.TransformMap((T.Pad((0, pad), ("tid",), (0,), ("tid",), (0,)),
                                        T.PassThrough((), ("i", "v"), (1, 2), ("i", "v"), (1, 2))),
                                       (threads + pad, instances, vector), (threads, instances, vector)))
    return va.lds.LdsAccess(va.View(va.Buffer((size,), dtype), maps), "tid", "v" if vector > 1 else None,
                            vector, kind)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.split("?>", 1)[1])
    assert root.tag == f"{SVG}svg"
    return root


def panels(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "phase" in g.get("class", "").split()]


def drawn_cells(panel: ET.Element) -> dict[tuple[int, int], tuple[int, ...]]:
    """(bank, dword) -> lanes of every cell of a panel."""
    return {(int(c.get("data-bank", "")), int(c.get("data-dword", ""))): tuple(map(int, c.get("data-lanes", "").split()))
            for c in panel.iter(f"{SVG}g") if "cell" in c.get("class", "").split()}


def red_banks(panel: ET.Element) -> set[int]:
    cells = {int(c.get("data-bank", "")) for c in panel.iter(f"{SVG}g")
             if c.get("class", "").split() == ["cell", "conflict"]}
    labels = {int(t.get("data-bank", "")) for t in panel.iter(f"{SVG}text")
              if t.get("class", "").split() == ["bank-label", "conflict"]}
    assert cells == labels
    return cells


def expected_cells(access: va.lds.LdsAccess, model: va.lds.LdsModel, result: va.lds.BankConflicts, wave: int,
                   values: tuple[int, ...], instruction: int) -> list[dict[tuple[int, int], tuple[int, ...]]]:
    """The lanes on each (bank, dword) of each phase, point by point with ``View.address``: the
    lane's thread, the instance dims' values, its piece of the vector (``result.width`` bytes from
    element ``instruction * elements`` of its vector); a lane whose first point is padding, or a
    thread past the view's, touches nothing."""
    view = access.view
    names = va.text.dim_names(view.maps[0], "upper")
    t = names.index(access.thread_dim) if isinstance(access.thread_dim, str) else access.thread_dim
    d = None if access.vector_dim is None else names.index(access.vector_dim) if isinstance(
        access.vector_dim, str) else access.vector_dim
    eb = va.text.dtype_bits(view.buffer.dtype) // 8
    elements = max(result.width // eb, 1)
    found: list[dict[tuple[int, int], list[int]]] = [{} for _ in result.rule.groups]
    phase_of = {lane: g for g, group in enumerate(result.rule.groups) for lane in group}
    for lane in range(model.wave):
        tid = wave * model.wave + lane
        if tid >= view.shape[t]:
            continue
        point = [0] * view.rank
        point[t] = tid
        for dim, x in zip(result.instance_dims, values, strict=True):
            point[dim] = x
        if d is not None:
            point[d] = (values[result.instance_dims.index(d)] if d in result.instance_dims else 0) + \
                instruction * elements
        start = view.address(point)
        if start is None:
            continue
        dwords = {(start * eb + k) // 4 for k in range(max(result.width, eb))}
        if d is not None:  # every element of the piece, not only the first
            for e in range(elements):
                step = list(point)
                step[d] += e
                addr = view.address(step)
                assert addr is not None
                dwords |= {(addr * eb + k) // 4 for k in range(eb)}
        for dw in dwords:
            found[phase_of[lane]].setdefault((dw % model.banks, dw), []).append(lane)
    return [{key: tuple(sorted(lanes)) for key, lanes in phase.items()} for phase in found]


def check_picture(access: va.lds.LdsAccess, model: va.lds.LdsModel, **where: object) -> None:
    result = va.lds.bank_conflicts(access, model)
    svg = va.draw.banks(result, model, access=access, **where)
    assert svg == va.draw.banks(access, model, **where)
    root = parse(svg)
    drawn = panels(root)
    assert len(drawn) == len(result.rule.groups)  # one panel per phase
    w = where.get("wave", result.witness.wave if result.witness else 0)
    values = where.get("instance", result.witness.instance if result.witness else (0,) * len(result.instance_dims))
    assert isinstance(w, int) and isinstance(values, tuple)
    index = [x // (access.vector_length if dim == access.vector_axis else 1)
             for dim, x in zip(result.instance_dims, values, strict=True)]
    n = 0
    for k, size in zip(index, result.instance_shape, strict=True):
        n = n * size + k
    j = where.get("instruction")
    if j is None:
        j = (result.witness.instruction if result.witness and (result.witness.wave, result.witness.instance)
             == (w, values) else int(result.degrees[w, n].max(axis=1).argmax()))
    assert isinstance(j, int)
    expected = expected_cells(access, model, result, w, values, j)
    for g, (panel, cells) in enumerate(zip(drawn, expected, strict=True)):
        assert int(panel.get("data-phase", "")) == g
        assert drawn_cells(panel) == cells  # every cell's lanes, independently
        per_bank: dict[int, int] = {}
        for bank, _ in cells:
            per_bank[bank] = per_bank.get(bank, 0) + 1
        assert red_banks(panel) == {b for b, k in per_bank.items() if k > 1}
        assert max(per_bank.values(), default=0) == result.degrees[w, n, j, g] == int(panel.get("data-degree", ""))
    if result.witness is not None and not where:
        wit = result.witness
        panel = drawn[wit.phase]
        assert wit.bank in red_banks(panel)
        assert {dw: lanes for (b, dw), lanes in drawn_cells(panel).items() if b == wit.bank} == dict(
            zip(wit.dwords, wit.lanes, strict=True))


@st.composite
def accesses(draw: st.DrawFn) -> va.lds.LdsAccess:
    """Strided accesses of every width: coefficients often multiples of the vector (aligned,
    16-byte pieces), sometimes not (split, or sub-dword); some threads padding."""
    threads = draw(st.sampled_from([32, 64, 96, 128]))
    vector = draw(st.sampled_from([1, 2, 4, 8]))
    scale = draw(st.sampled_from([1, vector, vector]))
    coefficients = (draw(st.integers(0, 24)) * scale, draw(st.integers(0, 24)) * scale,
                    draw(st.integers(0, 40)) * scale)
    return strided_access(threads, draw(st.sampled_from([1, 2, 4, 8, 16])), coefficients,
                          draw(st.integers(1, 3)), vector, draw(st.sampled_from(["f16", "f32", "i8"])),
                          draw(st.sampled_from(["read", "write"])), draw(st.sampled_from([0, 0, 5])))


@given(access=accesses(), arch=st.sampled_from(["gfx942", "gfx950", "gfx1100", "gfx1201", "gfx90a"]))
@settings(derandomize=True, max_examples=120, deadline=None)
def test_each_cell_holds_the_lanes_on_its_dword_and_red_is_degree_above_1(access, arch):
    check_picture(access, va.lds.lds_model(arch))


def test_a_chosen_wave_instance_and_instruction():
    # f32 vectors of 8 (32 bytes) are two ds_read_b128 each; the second wave, the second instance.
    access = strided_access(128, 8, (8, 64, 512), 2, 8, "f32", "read")
    model = va.lds.lds_model("gfx942")
    result = va.lds.bank_conflicts(access, model)
    assert (result.instruction, result.instructions) == ("ds_read_b128", 2)
    for j in (0, 1):
        check_picture(access, model, wave=1, instance=(1,), instruction=j)
    text = va.draw.banks(access, model, wave=1, instance=(1,), instruction=1)
    assert "wave 1, instance (1,) (i = 1), instruction 2 of 2" in text


def test_the_witness_is_drawn_by_default():
    # lanes l and l + 16 read the same bank at a stride of 8 bytes (the docstring's example)
    access = strided_access(64, 1, (2, 0, 1), 1, 1, "f32", "read")
    model = va.lds.lds_model("gfx942")
    root = parse(va.draw.banks(access, model))
    for panel in panels(root):
        assert red_banks(panel) == set(range(0, 32, 2))
        assert drawn_cells(panel)[(0, 0 if panel.get("data-phase") == "0" else 64)] == (
            (0,) if panel.get("data-phase") == "0" else (32,))
    check_picture(access, model)


def test_a_conflict_free_access_has_no_red():
    access = strided_access(64, 1, (1, 64, 0), 1, 1, "f32", "write")
    root = parse(va.draw.banks(access, va.lds.lds_model("gfx942")))
    assert all(not red_banks(p) for p in panels(root))
    assert not re.search(r'class="[^"]*conflict', ET.tostring(root, encoding="unicode"))


def test_bad_arguments_say_what_to_give():
    access = strided_access(64, 1, (1, 64, 0), 2, 1, "f32", "read")
    model = va.lds.lds_model("gfx942")
    result = va.lds.bank_conflicts(access, model)
    with pytest.raises(DrawError, match=re.escape("banks: a BankConflicts needs the LdsAccess it answers")):
        va.draw.banks(result, model)
    with pytest.raises(DrawError, match="expected an LdsAccess or a BankConflicts, got str"):
        va.draw.banks("x", model)
    with pytest.raises(CoordinateError, match=re.escape("banks: wave 1 is not a wave of the access (it has 1)")):
        va.draw.banks(access, model, wave=1)
    with pytest.raises(CoordinateError, match=re.escape("banks: instance value 2 of dim 1 (i) must be in 0..1")):
        va.draw.banks(access, model, instance=(2, 0))
    with pytest.raises(CoordinateError, match=re.escape(
            "banks: instance (0,) has 1 value(s); the access has 2 instance dim(s) (dim 1 (i), dim 2 (v))")):
        va.draw.banks(access, model, instance=(0,))
    with pytest.raises(CoordinateError, match=re.escape("banks: instruction 1: the vector takes 1 instruction(s)")):
        va.draw.banks(access, model, instruction=1)
    with pytest.raises(DrawError, match=re.escape("banks: cell must be a number of pixels, at least 8, got 2")):
        va.draw.banks(access, model, cell=2)
    other = strided_access(64, 1, (1, 64, 0), 3, 1, "f32", "read")
    with pytest.raises(DrawError, match="does not answer this access"):
        va.draw.banks(result, model, access=other)
