"""LDS bank conflicts: the published MI300X counters, an independent per-lane count on random
views for every architecture, kind and width, the ISL decision, and precise errors."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import views

import viewalgebra as va

T = va.transforms

CDNA3 = "nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md"

# (table, instruction width in bytes, byte stride between lanes, bank conflicts per 64-read block)
PUBLISHED = [
    *[("ds_read_b32 Latencies", 4, s, c) for s, c in
      ((4, 0), (8, 128), (16, 384), (32, 896), (64, 1920), (128, 3968), (256, 3968), (512, 3968))],
    *[("ds_read_b64 Latencies", 8, s, c) for s, c in
      ((8, 0), (16, 256), (32, 768), (64, 1792), (128, 3840), (256, 3840), (512, 3840))],
    *[("ds_read_b128 Latencies", 16, s, c) for s, c in
      ((16, 0), (32, 512), (64, 1536), (128, 3584), (256, 3584), (512, 3584))],
]
"""The MI300X (gfx942) counter values of nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md:
one wave, lane ``l`` reading ``width`` bytes at byte ``l * stride``, 64 reads per block."""


def stride_access(lanes: int, stride: int, width: int, kind: va.lds.LdsKind = "read",
                  reads: int = 1) -> va.lds.LdsAccess:
    """Lane ``l`` accesses ``width`` bytes (f32 elements) at byte ``l * stride``, ``reads`` times
    (an instance dim that reads the same addresses again)."""
    v, n = width // 4, stride // 4
    size = (lanes - 1) * n + v
    tm = va.TransformMap((T.Embed((n, 1), ("tid", "e"), (0, 1), ("a",), (0,)),
                          T.AddDim((reads,), ("rep",), (2,), (), ())), (lanes, v, reads), (size,))
    view = va.View(va.Buffer((size,), "f32"), (tm,))
    return va.lds.LdsAccess(view, "tid", "e" if v > 1 else None, v, kind)


@pytest.mark.parametrize(("table", "width", "stride", "counter"), PUBLISHED)
def test_published_mi300x_counters(table: str, width: int, stride: int, counter: int) -> None:
    """Source: nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md, table ``table``."""
    r = va.lds.bank_conflicts(stride_access(64, stride, width, reads=64), va.lds.lds_model("gfx942"))
    assert r.instruction == f"ds_read_b{width * 8}"
    assert r.split is None
    assert r.counter == counter, f"{CDNA3}, {table}, stride {stride}"
    assert r.degrees.shape == (1, 64, 1, 64 * width // 128)


def test_saturated_counts_per_read_are_those_of_the_summary_table() -> None:
    """cdna3info.md, Summary: 62, 60 and 56 saturated conflicts per ds_read."""
    model = va.lds.lds_model("gfx942")
    got = [va.lds.bank_conflicts(stride_access(64, 512, w), model).per_instruction for w in (4, 8, 16)]
    assert got == [62, 60, 56]


def test_witness_names_the_dwords_sharing_a_bank() -> None:
    r = va.lds.bank_conflicts(stride_access(64, 256, 16), va.lds.lds_model("gfx942"))
    w = r.witness
    assert w is not None and r.max_degree == 8
    assert (w.wave, w.instance, w.phase, w.bank) == (0, (0,), 0, 0)
    assert w.lanes == ((0,), (1,), (2,), (3,), (20,), (21,), (22,), (23,))
    assert w.dwords == tuple(64 * lane for lane in (0, 1, 2, 3, 20, 21, 22, 23))


# {{{ an independent count, lane by lane


def instruction_elements(access: va.lds.LdsAccess, addresses: dict[tuple[int, ...], int | None]) -> int:
    """The elements of one instruction: the largest power of two ``k`` dividing the vector length,
    of at most 16 bytes, whose every piece (start a multiple of ``k`` along the vector dim) is all
    padding, or all valid with consecutive addresses starting at a multiple of ``k``."""
    view, v = access.view, access.vector_length
    eb = view.buffer.bits // 8
    if access.vector_dim is None or v == 1:
        return 1
    d = access.vector_axis
    assert d is not None
    best = 1
    k = 2
    while k <= v and k * eb <= 16:
        if v % k == 0 and all(_good_piece(addresses, p, d, k) for p in addresses if p[d] % k == 0):
            best = k
        k *= 2
    return best


def _good_piece(addresses: dict[tuple[int, ...], int | None], start: tuple[int, ...], d: int, k: int) -> bool:
    got = [addresses[(*start[:d], start[d] + e, *start[d + 1:])] for e in range(k)]
    if all(a is None for a in got):
        return True
    first = got[0]
    return first is not None and first % k == 0 and got == [first + e for e in range(k)]


def per_lane(access: va.lds.LdsAccess, model: va.lds.LdsModel) -> tuple[str, list[int], int, int]:
    """(instruction, the degree of every phase in the order of ``BankConflicts.degrees``,
    conflict cycles, lanes served by a broadcast), by looping over waves, instances, instructions,
    phases, lanes and dwords."""
    view = access.view
    eb = view.buffer.bits // 8
    t, d, v = access.thread_axis, access.vector_axis, access.vector_length
    addresses = {p: view.address(p) for p in itertools.product(*(range(n) for n in view.shape))}
    k = instruction_elements(access, addresses)
    width = k * eb
    rule = model.rule(access.kind, width)
    dwords_per_lane = max(width // 4, 1)
    chunks = 1 if d is None else view.shape[d] // v
    ranges = [range(chunks) if i == d else range(view.shape[i]) for i in range(view.rank)
              if i != t and (i != d or chunks > 1)]
    dims = [i for i in range(view.rank) if i != t and (i != d or chunks > 1)]
    threads = view.shape[t]
    degrees: list[int] = []
    cycles = broadcasts = 0
    for wave in range(-(-threads // model.wave)):
        for instance in itertools.product(*ranges):
            for j in range(v // k):
                for group in rule.groups:
                    touched: dict[int, set[int]] = {}  # dword -> lanes
                    for lane in group:
                        tid = wave * model.wave + lane
                        if tid >= threads:
                            continue
                        point = [0] * view.rank
                        point[t] = tid
                        for i, value in zip(dims, instance, strict=True):
                            point[i] = value * v if i == d else value
                        if d is not None:
                            point[d] += j * k
                        a = addresses[tuple(point)]
                        if a is None:
                            continue
                        for q in range(dwords_per_lane):
                            touched.setdefault(a * eb // 4 + q, set()).add(lane)
                    per_bank: dict[int, int] = {}
                    for dword in touched:
                        per_bank[dword % model.banks] = per_bank.get(dword % model.banks, 0) + 1
                    degree = max(per_bank.values(), default=0)
                    degrees.append(degree)
                    cycles += max(degree - 1, 0)
                    broadcasts += len({lane for lanes in touched.values() if len(lanes) > 1 for lane in lanes})
    return model.instruction(access.kind, width), degrees, cycles, broadcasts


ARCHS = ("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201")


@st.composite
def user_models(draw: st.DrawFn) -> va.lds.LdsModel:
    """A made-up architecture: any wave and bank count, phases a random partition of the lanes."""
    wave = draw(st.sampled_from([4, 8, 12, 16, 32, 48, 64]))
    banks = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
    rules = []
    for kind in ("read", "write"):
        for width in (1, 2, 4, 8, 16):
            lanes = draw(st.permutations(range(wave)))
            cuts = sorted(draw(st.sets(st.integers(1, wave - 1), max_size=6)))
            bounds = [0, *cuts, wave]
            groups = tuple(tuple(lanes[a:b]) for a, b in itertools.pairwise(bounds))
            rules.append(va.lds.PhaseRule(kind, width, groups, "assumed", "random"))
    return va.lds.LdsModel("made-up", banks, wave, tuple(rules), lds_bytes=1 << 20)


@st.composite
def accesses(draw: st.DrawFn) -> va.lds.LdsAccess:
    """A random view with one of its dims made the thread dim by a Merge of several of them, a
    vector dim (or none) and a vector length, over elements of 1 to 16 bytes."""
    base = draw(views(max_maps=2, max_points=600, max_buffer_points=200))
    buf = base.buffer
    dtype = draw(st.sampled_from(["i8", "f16", "f32", "f64", "f128"]))
    offset = buf.offset
    if draw(st.integers(0, 7)):  # mostly inside the LDS; else often below its start
        offset += draw(st.integers(0, 8)) - lowest_address(buf)
    base = va.View(va.Buffer(buf.shape, dtype, strides=buf.strides, offset=offset), base.maps)
    rank = base.rank
    order = draw(st.permutations(range(rank)))
    merged = sorted(order[:draw(st.integers(0, rank))])
    rest = [i for i in range(rank) if i not in merged]
    names = [f"x{i}" for i in range(rank)]
    sizes = tuple(base.shape[i] for i in merged)
    ops: list[va.transforms.Transform] = []
    upper = ["tid", *(names[i] for i in rest)]
    if merged:
        ops.append(T.Merge(sizes, ("tid",), (0,), tuple(names[i] for i in merged), tuple(merged)))
    else:
        ops.append(T.AddDim((draw(st.integers(1, 70)),), ("tid",), (0,), (), ()))
    if rest:
        ops.append(T.PassThrough((), tuple(names[i] for i in rest), tuple(range(1, len(rest) + 1)),
                                 tuple(names[i] for i in rest), tuple(rest)))
    top = va.TransformMap(tuple(ops), (math.prod(sizes) if merged else ops[0].params[0],
                                       *(base.shape[i] for i in rest)), base.shape)
    view = va.View(base.buffer, (top, *base.maps))
    vector_dim: str | None = None
    length = 1
    if rest and draw(st.booleans()):
        k = draw(st.integers(0, len(rest) - 1))
        vector_dim = upper[1 + k]
        size = view.shape[1 + k]
        length = draw(st.sampled_from([v for v in range(1, size + 1) if size % v == 0]))
    return va.lds.LdsAccess(view, "tid", vector_dim, length, draw(st.sampled_from(["read", "write"])))


@st.composite
def strided_accesses(draw: st.DrawFn) -> va.lds.LdsAccess:
    """Thread ``t`` of up to 130, instance ``i`` and vector element ``e`` at element address
    ``a*t + b*i + e`` (or ``2*e``), some threads padding: many conflicts, misaligned and split
    vectors."""
    dtype = draw(st.sampled_from(["i8", "f16", "f32", "f64", "f128"]))
    threads = draw(st.integers(1, 130))
    a, b = draw(st.integers(0, 70)), draw(st.integers(0, 40))
    instances = draw(st.integers(1, 3))
    v = draw(st.sampled_from([1, 1, 2, 3, 4, 8, 16]))
    chunks = draw(st.integers(1, 2))
    pad = draw(st.integers(0, 3))
    size = draw(st.integers(0, 9)) + a * (threads - 1) + b * (instances - 1) + v * chunks
    step = draw(st.sampled_from([1, 1, 1, 2]))
    size += (step - 1) * (v * chunks - 1)
    embed = T.Embed((a, b, step), ("t", "i", "e"), (0, 1, 2), ("a",), (0,))
    maps = [va.TransformMap((embed,), (threads, instances, v * chunks), (size,))]
    if pad:
        maps.insert(0, va.TransformMap((T.Pad((0, pad), ("tid",), (0,), ("t",), (0,)),
                                        T.PassThrough((), ("i", "e"), (1, 2), ("i", "e"), (1, 2))),
                                       (threads + pad, instances, v * chunks), (threads, instances, v * chunks)))
    view = va.View(va.Buffer((size,), dtype), tuple(maps))
    names = ("tid" if pad else "t", "i", "e")
    vector = names[2] if v > 1 or draw(st.booleans()) else None
    return va.lds.LdsAccess(view, names[0], vector, v if vector else 1, draw(st.sampled_from(["read", "write"])))


def lowest_address(buf: va.Buffer) -> int:
    return buf.offset + sum(min(0, (n - 1) * s) for n, s in zip(buf.shape, buf.strides or (), strict=True))


@given(access=accesses() | strided_accesses(), arch=st.sampled_from(ARCHS) | user_models())
@settings(derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_enumeration_equals_the_per_lane_count(access: va.lds.LdsAccess, arch: str | va.lds.LdsModel) -> None:
    model = arch if isinstance(arch, va.lds.LdsModel) else va.lds.lds_model(arch)
    if lowest_address(access.view.buffer) < 0:
        with pytest.raises(va.errors.LdsAccessError, match="below the start of the LDS"):
            va.lds.bank_conflicts(access, model)
        return
    got = va.lds.bank_conflicts(access, model)
    instruction, degrees, cycles, broadcasts = per_lane(access, model)
    event(f"{got.instruction} split={got.split is not None} conflicts={got.counter > 0}")
    assert got.instruction == instruction
    assert got.degrees.reshape(-1).tolist() == degrees
    assert (got.counter, got.broadcasts) == (cycles, broadcasts)
    assert got.max_degree == max(degrees, default=0)
    assert got.assumed == ((got.rule,) if got.rule.provenance == "assumed" else ())
    assert (got.witness is None) == (got.max_degree <= 1)
    if got.witness is not None:
        check_collision(access, model, got.witness, got.rule, degree=got.max_degree)


def check_collision(access: va.lds.LdsAccess, model: va.lds.LdsModel, c: va.lds.Collision,
                    rule: va.lds.PhaseRule, degree: int | None = None) -> None:
    """The collision is genuine: its lanes are in its phase and touch its dwords, all in its bank."""
    view, t, d, v = access.view, access.thread_axis, access.vector_axis, access.vector_length
    eb = view.buffer.bits // 8
    k = max(rule.width // eb, 1)
    assert len(c.dwords) >= 2 and len(set(c.dwords)) == len(c.dwords)
    assert degree is None or len(c.dwords) == degree
    assert {dw % model.banks for dw in c.dwords} == {c.bank}
    point = [0] * view.rank
    dims = [i for i in range(view.rank) if i != t and (i != d or view.shape[i] > v)]
    for i, value in zip(dims, c.instance, strict=True):
        point[i] = value
    if d is not None:
        point[d] += c.instruction * k
    for dword, lanes in zip(c.dwords, c.lanes, strict=True):
        for lane in lanes:
            assert lane in rule.groups[c.phase]
            point[t] = c.wave * model.wave + lane
            a = view.address(tuple(point))
            assert a is not None
            assert a * eb // 4 <= dword < a * eb // 4 + max(rule.width // 4, 1)


@given(access=accesses() | strided_accesses(), arch=st.sampled_from(ARCHS) | user_models())
@settings(derandomize=True, max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_isl_decision_equals_enumeration(access: va.lds.LdsAccess, arch: str | va.lds.LdsModel) -> None:
    model = arch if isinstance(arch, va.lds.LdsModel) else va.lds.lds_model(arch)
    if lowest_address(access.view.buffer) < 0:
        return
    counted = va.lds.bank_conflicts(access, model)
    decided = va.lds.conflict_free(access, model)
    event(f"{len(counted.rule.groups)} phases, free={decided is None}")
    assert (decided is None) == (counted.max_degree <= 1)
    if decided is not None:
        check_collision(access, model, decided, counted.rule)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("kind", ["read", "write"])
def test_stride_sweeps_isl_equals_enumeration(arch: str, kind: va.lds.LdsKind) -> None:
    model = va.lds.lds_model(arch)
    for width in (4, 8, 16):
        for stride in (width, 2 * width, 20, 48, 64, 132, 256):
            if stride % width and stride % 4:
                continue
            access = stride_access(model.wave, stride, width, kind)
            counted = va.lds.bank_conflicts(access, model)
            decided = va.lds.conflict_free(access, model)
            assert (decided is None) == (counted.max_degree <= 1), (width, stride)


def test_the_phases_are_those_of_the_sources() -> None:
    gfx942, gfx950 = va.lds.lds_model("gfx942"), va.lds.lds_model("gfx950")
    # cdna3info.md, ds_read_b128: T0-T3 and T20-T23, T32-T35 and T52-T55, ...
    assert set(gfx942.rule("read", 16).groups) == {
        (*range(a, a + 4), *range(b, b + 4)) for a, b in
        ((0, 20), (32, 52), (4, 16), (36, 48), (8, 28), (40, 60), (12, 24), (44, 56))}
    # cdna4info.md, ds_read_b128: T0-T3, T12-T15, T20-T23, T24-T27, ...
    assert set(gfx950.rule("read", 16).groups) == {
        tuple(sorted(x for s in starts for x in range(s, s + 4))) for starts in
        ((0, 12, 20, 24), (32, 44, 52, 56), (4, 8, 16, 28), (36, 40, 48, 60))}
    assert va.lds.lds_model("gfx1100").rule("read", 16).groups == (
        (0, 1, 2, 3, 20, 21, 22, 23), (4, 5, 6, 7, 16, 17, 18, 19), (8, 9, 10, 11, 28, 29, 30, 31),
        (12, 13, 14, 15, 24, 25, 26, 27))
    assert va.lds.lds_model("gfx1201").rule("read", 16).groups == va.lds.contiguous(32, 8)
    assert gfx942.rule("write", 16).groups == va.lds.contiguous(64, 8)  # CK-Tile: lane0~7, ...
    assert [len(gfx950.rule("read", w).groups) for w in (4, 8, 16)] == [1, 2, 4]
    for arch in ARCHS:
        model = va.lds.lds_model(arch)
        for rule in model.rules:
            if rule.provenance == "assumed":
                assert rule.source.startswith(("assumed", "no published statement")), rule
            else:
                assert "nod-ai/amd-shark-ai docs/empirical-lds/" in rule.source or "ROCm/" in rule.source, rule
    assert {r.provenance for r in va.lds.lds_model("gfx90a").rules} == {"assumed"}


def test_a_split_vector_says_why() -> None:
    model = va.lds.lds_model("gfx942")
    # 8 f32 per lane: 32 bytes, two ds_read_b128
    wide = va.lds.bank_conflicts(stride_access(64, 32, 32), model)
    assert (wide.instruction, wide.instructions) == ("ds_read_b128", 2)
    assert wide.split == "8 elements of 4 bytes are 32 bytes per lane: 2 × ds_read_b128"
    # 4 f32 at a 24-byte stride: aligned to 8 bytes only, so two ds_read_b64
    halves = va.lds.bank_conflicts(stride_access(64, 24, 16), model)
    assert (halves.instruction, halves.instructions) == ("ds_read_b64", 2)
    assert halves.split is not None and halves.split.startswith(
        "the vector of 4 elements is contiguous and aligned only in pieces of 2 (4 is illegal: misaligned")
    assert halves.split.endswith(": 2 × ds_read_b64")


def test_bad_inputs_get_precise_errors() -> None:
    model = va.lds.lds_model("gfx942")
    access = stride_access(64, 16, 16)
    view = access.view
    with pytest.raises(va.errors.LdsModelError, match=re.escape(
            "lds_model: no LDS table for 'gfx908' (known: gfx1100, gfx1201, gfx90a, gfx942, gfx950)")):
        va.lds.lds_model("gfx908")
    with pytest.raises(va.errors.LdsAccessError, match=re.escape(
            "LdsAccess: thread_dim 'lane' is not a dim of the view (its dims: ['tid', 'e', 'rep'])")):
        va.lds.LdsAccess(view, "lane", "e", 4)
    with pytest.raises(va.errors.LdsAccessError, match=re.escape(
            "LdsAccess: thread_dim 3 is not a dim of a view of rank 3")):
        va.lds.LdsAccess(view, 3, "e", 4)
    with pytest.raises(va.errors.LdsAccessError, match=re.escape(
            "LdsAccess: vector_length 3 does not match vector dim 'e' of size 4")):
        va.lds.LdsAccess(view, "tid", "e", 3)
    with pytest.raises(va.errors.LdsAccessError, match=re.escape("LdsAccess: vector_length 2 needs a vector_dim")):
        va.lds.LdsAccess(view, "tid", None, 2)
    with pytest.raises(va.errors.LdsAccessError, match=re.escape("the vector dim 'tid' is the thread dim")):
        va.lds.LdsAccess(view, "tid", "tid", 1)
    with pytest.raises(va.errors.LdsAccessError, match=re.escape("kind must be 'read' or 'write', got 'load'")):
        va.lds.LdsAccess(view, "tid", "e", 4, "load")  # type: ignore[arg-type]
    big = va.View(va.Buffer((32768,), "f32"), ())
    with pytest.raises(va.errors.LdsAccessError, match=re.escape(
            "spans 131072 bytes, more than the 65536 bytes of gfx942's LDS")):
        va.lds.bank_conflicts(va.lds.LdsAccess(big, 0), model)
    assert va.lds.bank_conflicts(va.lds.LdsAccess(big, 0), va.lds.lds_model("gfx950")).counter == 0
    below = va.View(va.Buffer((8,), "f32", strides=(-1,), offset=3), ())
    with pytest.raises(va.errors.LdsAccessError, match=re.escape(
            "reaches element address -4, below the start of the LDS")):
        va.lds.bank_conflicts(va.lds.LdsAccess(below, 0), model)
    with pytest.raises(va.errors.LdsAccessError, match="elements of 4 bits"):
        va.lds.LdsAccess(va.View(va.Buffer((8,), "f4E2M1FN"), ()), 0)
    no_b128 = va.lds.LdsModel("small", 32, 64, tuple(r for r in model.rules if r.width != 16))
    with pytest.raises(va.errors.LdsModelError, match=re.escape(
            "LdsModel small: no phase rule for read of 16 bytes per lane (it has:")):
        va.lds.bank_conflicts(access, no_b128)
    with pytest.raises(va.errors.LdsModelError, match=re.escape(
            "LdsModel odd: the phases of ds_read_b32 are not a partition of lanes 0..63")):
        va.lds.LdsModel("odd", 32, 64, (va.lds.PhaseRule("read", 4, va.lds.contiguous(32, 8), "assumed", "x"),))
    with pytest.raises(va.errors.LdsModelError, match=re.escape("PhaseRule: width must be one of")):
        va.lds.PhaseRule("read", 12, va.lds.contiguous(64, 8), "assumed", "x")
    many = va.TransformMap((T.PassThrough((), ("tid",), (0,), ("tid",), (0,)),
                            T.AddDim((1 << 15,), ("rep",), (1,), (), ())), (1024, 1 << 15), (1024,))
    with pytest.raises(va.errors.TooComplexError, match=re.escape(
            "bank_conflicts: 33554432 lane dwords to enumerate, more than 16777216")):
        va.lds.bank_conflicts(va.lds.LdsAccess(va.View(va.Buffer((1024,), "f32"), many), "tid"), model)
    assert va.lds.conflict_free(va.lds.LdsAccess(va.View(va.Buffer((1024,), "f32"), many), "tid"), model) is None
    with pytest.raises(va.errors.InvalidArgumentError):
        va.lds.conflict_free(access, model, timeout=-1)
    with pytest.raises(va.errors.LdsModelError, match=re.escape("bank_conflicts: model must be an LdsModel")):
        va.lds.bank_conflicts(access, "gfx942")  # type: ignore[arg-type]


# {{{ the LDS views rocMLIR builds (va.gridwise)


def lds_access(access: va.gridwise.ThreadAccess, kind: va.lds.LdsKind) -> va.lds.LdsAccess:
    """An LDS store or read of the gridwise recipes as an ``LdsAccess``: with the vector's lanes
    spelled out, along its iteration dim; with vector addresses (rocMLIR's ``vector<N x T>`` LDS
    buffer), each point one access of the whole vector (the buffer's elements N times wider)."""
    view = access.view
    if access.vector_addresses and access.vector_elements > 1:
        b = view.buffer
        wide = va.Buffer(b.shape, f"i{access.vector_elements * b.bits}", strides=b.strides, offset=b.offset)
        return va.lds.LdsAccess(va.View(wide, view.maps), "tid", None, 1, kind)
    return va.lds.LdsAccess(view, "tid", access.iter_dim, access.vector_elements, kind)


@pytest.mark.parametrize(("perf_config", "read_free_when_rotated"), [
    ("v4:16,32,8,16,16,16,8,1,1,2,0,0,1,1", False),  # 16x16 MFMA, kpack 8
    ("v4:64,64,8,32,32,16,8,1,1,2,0,0,1,1", False),
    ("v4:64,64,8,32,32,32,8,1,1,2,0,0,1,1", True),  # 32x32 MFMA
])
def test_rotating_a_k_contiguous_lds_tile(perf_config: str, read_free_when_rotated: bool) -> None:
    """A [M, K] in f16 with kpack 8 on gfx942: rocMLIR rotates d with k (getLDSLayoutConfigDim).
    The rotation makes the ds_write_b128 of each thread's 8 k values conflict-free (8-way
    without it); the ds_read_b128 of the MFMA operand, conflict-free without it, becomes 2-way
    with a 16x16 instruction (lanes 0-3 and 20-23 share a phase) and stays free with 32x32."""
    gw = va.gridwise
    arch, model = gw.arch("gfx942"), va.lds.lds_model("gfx942")
    config = gw.PerfConfig.parse(perf_config)
    assert isinstance(config, gw.AccelPerfConfig)
    grid = gw.gridwise_views(gw.GemmProblem(m=256, n=256, k=256, dtype="f16"), m_per_block=config.m_per_block,
                             n_per_block=config.n_per_block, kpack_per_block=config.kpack_per_block,
                             kpack=config.kpack)
    lds = gw.operand_lds(grid, "a", config, arch, "f16")
    assert lds.flags == gw.LdsLayout(rotate_d_with_k=True, swap_thread_iter=False)
    for rotate in (False, True):
        flags = gw.LdsLayout(rotate_d_with_k=rotate, swap_thread_iter=False)
        store = lds_access(gw.lds_store(grid, "a", config, arch, "f16", lds=flags), "write")
        read = lds_access(gw.lds_read(grid, "a", config, arch, "f16", layout=dataclasses.replace(lds, flags=flags)),
                          "read")
        wrote, got = va.lds.bank_conflicts(store, model), va.lds.bank_conflicts(read, model)
        assert (wrote.instruction, got.instruction) == ("ds_write_b128", "ds_read_b128")
        assert wrote.max_degree == (1 if rotate else 8)
        assert got.max_degree == (1 if not rotate or read_free_when_rotated else 2)
        if got.max_degree == 2:
            assert (got.degrees == 2).all()  # every phase of every instruction
        for access, answer in ((store, wrote), (read, got)):
            assert (va.lds.conflict_free(access, model) is None) == (answer.max_degree == 1)
            if math.prod(access.view.shape) <= 1024:  # the small tile: the per-lane count too
                assert answer.counter == per_lane(access, model)[2]


def test_the_lds_store_of_rocmlir_pr_2196() -> None:
    """rocMLIR PR #2196's config (kpack 4, A copies 2 x 3, docs/gridwise.md): rocMLIR neither
    rotates nor swaps, and its ds_write_b32 of vector<2xf16> is 8-way on gfx942 (writes of 4
    bytes: the assumed phases of 32 lanes); rotating d with k leaves it 2-way."""
    gw = va.gridwise
    arch, model = gw.arch("gfx942"), va.lds.lds_model("gfx942")
    config = gw.PerfConfig.parse("v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1")
    grid = gw.gridwise_views(gw.GemmProblem(m=960, n=1024, k=1024, dtype="f16", transpose_a=True),
                             m_per_block=96, n_per_block=256, kpack_per_block=8, kpack=4)
    store = lds_access(gw.lds_store(grid, "a", config, arch, "f16"), "write")
    r = va.lds.bank_conflicts(store, model)
    assert (r.instruction, r.max_degree, r.split) == ("ds_write_b32", 8, None)
    assert r.assumed == (model.rule("write", 4),)
    assert r.witness is not None and r.witness.lanes == tuple((lane,) for lane in range(0, 16, 2))
    rotated = gw.lds_store(grid, "a", config, arch, "f16", lds=gw.LdsLayout(True, False))
    assert va.lds.bank_conflicts(lds_access(rotated, "write"), model).max_degree == 2
