"""LDS bank conflicts of an access through a view, exact by enumeration (docs/lds.md).

An access is a view over the LDS buffer, the dim that is the thread id, and optionally the dim one
lane's vector runs along; every other dim is a loop instance (one instruction per instance and
wave). The vector is emitted as the widest instructions the exact vector length allows
(contiguous, aligned, at most 16 bytes); each lane of an instruction touches its dwords, and
within each phase of the instruction's rule the degree is the largest number of distinct dwords
in one bank. The conflict cycles are the sum over phases of ``degree - 1``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

import numpy as np
import numpy.typing as npt

from .._common.ints import integer
from .._maps.buffer import Buffer
from .._maps.equations import dim_names
from .._maps.evaluate import IntArray
from .._maps.view import View, addresses_on_grid
from ..errors import LdsAccessError, LdsModelError, TooComplexError
from .lds_model import LdsKind, LdsModel, PhaseRule
from .vectorize import max_vector_length

MAX_INSTRUCTION_BYTES = 16
"""The widest LDS access of one lane (``ds_read_b128``)."""

ENUMERATE_LIMIT = 1 << 24
"""The most lane dwords ``bank_conflicts`` enumerates (about 1 GB of numpy work arrays)."""


@dataclass(frozen=True, slots=True)
class LdsAccess:
    """One LDS access pattern: a view over the LDS buffer, its thread dim and its vector.

    Every upper dim other than ``thread_dim`` (and ``vector_dim``) is a loop instance: one
    instruction per instance and wave. Example: ``LdsAccess(view, "tid", "kpack", 8, "write")``
    where each of 256 threads writes 8 f16 along ``kpack`` (one ``ds_write_b128`` where aligned).
    """

    view: View
    """The view over the LDS buffer (its element type gives the bytes per element)."""
    thread_dim: str | int
    """The upper dim that is the thread id ``0..block_size-1``; wave ``tid // wave``, lane ``tid % wave``."""
    vector_dim: str | int | None = None
    """The dim one lane's vector runs along (its size a multiple of ``vector_length``)."""
    vector_length: int = 1
    """Elements per lane per vector; a dim longer than that holds several vectors (instances)."""
    kind: LdsKind = "read"

    def __post_init__(self) -> None:
        if not isinstance(self.view, View):
            raise LdsAccessError(f"LdsAccess: view must be a View, got {self.view!r}")
        if self.kind not in get_args(LdsKind):
            raise LdsAccessError(f"LdsAccess: kind must be 'read' or 'write', got {self.kind!r}")
        v = integer(self.vector_length, "LdsAccess: vector_length", LdsAccessError)
        object.__setattr__(self, "vector_length", v)
        t = self.thread_axis
        if v < 1:
            raise LdsAccessError(f"LdsAccess: vector_length must be at least 1, got {v}")
        if any(n == 0 for n in self.view.shape):
            raise LdsAccessError(f"LdsAccess: the view's shape {list(self.view.shape)} has no point")
        d = self.vector_axis
        if d is None:
            if v != 1:
                raise LdsAccessError(f"LdsAccess: vector_length {v} needs a vector_dim")
        else:
            if d == t:
                raise LdsAccessError(f"LdsAccess: the vector dim {self.vector_dim!r} is the thread dim")
            size = self.view.shape[d]
            if size % v:
                raise LdsAccessError(
                    f"LdsAccess: vector_length {v} does not match vector dim {self.vector_dim!r} of size "
                    f"{size} (the size must be a multiple of it)")
        bits = self.view.buffer.bits
        if bits % 8 or bits // 8 not in (1, 2, 4, 8, 16):
            raise LdsAccessError(
                f"LdsAccess: elements of {bits} bits ({self.view.buffer.dtype}); an LDS access needs "
                "elements of 1, 2, 4, 8 or 16 bytes")

    def _axis(self, dim: str | int, what: str) -> int:
        names = dim_names(self.view.maps[0], "upper") if self.view.maps else ()
        if isinstance(dim, str):
            if dim not in names:
                raise LdsAccessError(
                    f"LdsAccess: {what} {dim!r} is not a dim of the view (its dims: {list(names)})")
            return names.index(dim)
        k = integer(dim, f"LdsAccess: {what}", LdsAccessError)
        if not 0 <= k < self.view.rank:
            raise LdsAccessError(f"LdsAccess: {what} {k} is not a dim of a view of rank {self.view.rank}")
        return k

    @property
    def thread_axis(self) -> int:
        """The position of the thread dim among the view's dims."""
        return self._axis(self.thread_dim, "thread_dim")

    @property
    def vector_axis(self) -> int | None:
        """The position of the vector dim among the view's dims (``None``: no vector)."""
        return None if self.vector_dim is None else self._axis(self.vector_dim, "vector_dim")

    @property
    def element_bytes(self) -> int:
        return self.view.buffer.bits // 8


@dataclass(frozen=True, slots=True)
class Collision:
    """The witness of the worst phase: the dwords that share one bank in one phase of one instruction."""

    wave: int
    instance: tuple[int, ...]
    """The values of the instance dims (``BankConflicts.instance_dims``, in view order)."""
    phase: int
    """Index into the rule's groups."""
    bank: int
    dwords: tuple[int, ...]
    """The distinct dword addresses (byte address // 4) in that bank in that phase, ascending."""
    lanes: tuple[tuple[int, ...], ...]
    """For each of those dwords, the lanes touching it."""
    instruction: int = 0
    """Which of the lane's instructions for the vector (0 unless the vector is split)."""


@dataclass(frozen=True, slots=True, eq=False)
class BankConflicts:
    """The answer of ``bank_conflicts``: degrees of every phase and the predicted counter.

    Compared by identity (it holds a numpy array); compare ``counter``, ``degrees`` and so on.
    """

    instruction: str
    """What the backend emits for one lane's vector piece: ``ds_read_b128``, ``ds_write_b64``, ..."""
    width: int
    """Bytes per lane per instruction."""
    instructions: int
    """Instructions per lane per instance (2 when a 16-byte vector is emitted as two b64)."""
    split: str | None
    """Why the vector takes more than one instruction, or ``None``."""
    degrees: npt.NDArray[np.int64]
    """Shape ``(waves, instances, instructions, phases)``: the degree of each phase (0: no active lane)."""
    max_degree: int
    counter: int
    """Predicted ``SQ_LDS_BANK_CONFLICT`` cycles of the whole access: the sum of ``degree - 1``."""
    per_instruction: int
    """The largest sum over phases of ``degree - 1`` of one instruction."""
    witness: Collision | None
    """The first phase of the largest degree, ``None`` when conflict-free."""
    broadcasts: int
    """Lane accesses served by a broadcast (a dword another lane of the phase touches too)."""
    assumed: tuple[PhaseRule, ...]
    """The rules used whose provenance is ``assumed``."""
    rule: PhaseRule
    """The phase rule used."""
    instance_dims: tuple[int, ...]
    """The view dims that index instances, in view order: every dim but the thread dim, and the
    vector dim only when it holds more than one vector (its value is the vector's first coordinate)."""
    instance_shape: tuple[int, ...]
    """The number of values of each instance dim; ``np.unravel_index`` turns an instance index
    of ``degrees`` into them."""

    @property
    def conflict_free(self) -> bool:
        return self.max_degree <= 1


@dataclass(frozen=True, slots=True)
class Plan:
    """How an access is emitted: the instructions and the grid of points to evaluate."""

    elements: int
    """Elements per instruction."""
    width: int
    instructions: int
    split: str | None
    instance_dims: tuple[int, ...]
    instance_shape: tuple[int, ...]
    chunks: int
    """Vectors along the vector dim (1 without one)."""


def plan(access: LdsAccess, model: LdsModel, timeout: float | None = 60.0) -> Plan:
    """The instructions of an access on a model, with every input check that needs the model;
    the exact vector length is bounded by ``timeout`` seconds."""
    if not isinstance(model, LdsModel):
        raise LdsModelError(f"bank_conflicts: model must be an LdsModel (lds_model(arch)), got {model!r}")
    if not isinstance(access, LdsAccess):
        raise LdsAccessError(f"bank_conflicts: access must be an LdsAccess, got {access!r}")
    view, eb = access.view, access.element_bytes
    _check_buffer(view, eb, model)
    t, d, v = access.thread_axis, access.vector_axis, access.vector_length
    cap = max(MAX_INSTRUCTION_BYTES // eb, 1)
    split = None
    if d is None or v == 1:
        k = 1
    else:
        answer = max_vector_length(view, d, v, max_elements=cap, power_of_two=True, aligned=True,
                                   timeout=timeout)
        k = answer.length
        if k < v:
            name = model.instruction(access.kind, k * eb)
            if k == cap:
                split = f"{v} elements of {eb} bytes are {v * eb} bytes per lane: {v // k} × {name}"
            else:
                why = f" ({answer.witness})" if answer.witness is not None else ""
                split = (f"the vector of {v} elements is contiguous and aligned only in pieces of {k}"
                         f"{why}: {v // k} × {name}")
    model.rule(access.kind, k * eb)  # LdsModelError if the table lacks it
    chunks = 1 if d is None else view.shape[d] // v
    dims = tuple(i for i in range(view.rank) if i != t and (i != d or chunks > 1))
    shape = tuple(chunks if i == d else view.shape[i] for i in dims)
    return Plan(k, k * eb, v // k, split, dims, shape, chunks)


def _extent(buf: Buffer) -> tuple[int, int]:
    """The least and greatest element address of the buffer's box."""
    pairs = list(zip(buf.shape, buf.strides or (), strict=True))
    return (buf.offset + sum(min(0, (n - 1) * s) for n, s in pairs),
            buf.offset + sum(max(0, (n - 1) * s) for n, s in pairs))


def _check_buffer(view: View, eb: int, model: LdsModel) -> None:
    buf = view.buffer
    low, high = _extent(buf)
    if low < 0:
        raise LdsAccessError(
            f"bank_conflicts: the buffer {buf} reaches element address {low}, below the start of the LDS")
    if (high + 1) * eb > model.lds_bytes:
        raise LdsAccessError(
            f"bank_conflicts: the buffer {buf} spans {(high + 1) * eb} bytes, more than the "
            f"{model.lds_bytes} bytes of {model.arch}'s LDS")


def lane_addresses(access: LdsAccess, model: LdsModel, p: Plan) -> tuple[IntArray, int]:
    """The byte address of every lane's instruction, shape ``(waves, instances, instructions,
    wave)``, -1 where the lane is inactive (no such thread, or padding); and the number of waves."""
    view = access.view
    t, d = access.thread_axis, access.vector_axis
    threads = view.shape[t]
    waves = -(-threads // model.wave)
    ndim = 2 + len(p.instance_dims)
    columns: list[IntArray] = []

    def axis(values: IntArray, k: int) -> IntArray:
        shape = [1] * ndim
        shape[k] = values.size
        return values.reshape(shape)

    for i in range(view.rank):
        if i == t:
            columns.append(axis(np.arange(threads, dtype=np.int64), 0))
        elif i == d:
            j = axis(np.arange(p.instructions, dtype=np.int64) * p.elements, ndim - 1)
            if p.chunks > 1:
                j = j + axis(np.arange(p.chunks, dtype=np.int64) * access.vector_length,
                             1 + p.instance_dims.index(i))
            columns.append(j)
        else:
            columns.append(axis(np.arange(view.shape[i], dtype=np.int64), 1 + p.instance_dims.index(i)))
    addr, _ = addresses_on_grid(view, columns)
    instances = math.prod(p.instance_shape)
    addr = np.broadcast_to(addr, (threads, *p.instance_shape, p.instructions)).reshape(
        threads, instances, p.instructions)
    padded = np.full((waves * model.wave, instances, p.instructions), -1, dtype=np.int64)
    padded[:threads] = addr
    byte = np.where(padded >= 0, padded * access.element_bytes, -1)
    return byte.reshape(waves, model.wave, instances, p.instructions).transpose(0, 2, 3, 1), waves


def bank_conflicts(access: LdsAccess, model: LdsModel, *, timeout: float | None = 60.0) -> BankConflicts:
    """The exact bank conflicts of an LDS access on a model, by enumerating every lane (numpy).

    The instruction width comes from the exact vector length (``max_vector_length``, bounded by
    ``timeout`` seconds). Example: on gfx942, 64 lanes reading f32 at a stride of 32 bytes
    (``ds_read_b32``) put 8 distinct dwords in a bank in each of the 2 phases: ``counter == 14``.
    """
    p = plan(access, model, timeout)
    rule = model.rule(access.kind, p.width)
    lanes = -(-access.view.shape[access.thread_axis] // model.wave) * model.wave
    entries = lanes * math.prod(p.instance_shape) * p.instructions * max(p.width // 4, 1)
    if entries > ENUMERATE_LIMIT:
        raise TooComplexError(
            f"bank_conflicts: {entries} lane dwords to enumerate, more than {ENUMERATE_LIMIT}; fix some "
            "instance dims (va.restrict) or ask conflict_free")
    byte, waves = lane_addresses(access, model, p)
    instances = byte.shape[1]
    phases = len(rule.groups)
    phase_of = np.empty(model.wave, dtype=np.int64)
    for g, lanes in enumerate(rule.groups):
        phase_of[list(lanes)] = g
    nd = max(p.width // 4, 1)
    # One entry per (wave, instance, instruction, lane, dword) of an active lane.
    key = (np.arange(waves * instances * p.instructions, dtype=np.int64).reshape(
        waves, instances, p.instructions, 1) * phases + phase_of)
    active = byte >= 0
    dword0 = byte // 4
    lane_index = np.arange(byte.size, dtype=np.int64).reshape(byte.shape)
    keys = np.repeat(key[active], nd)
    lane_ids = np.repeat(lane_index[active], nd)
    dwords = (dword0[active][:, None] + np.arange(nd, dtype=np.int64)).reshape(-1)
    total = waves * instances * p.instructions * phases
    degrees = np.zeros(total, dtype=np.int64)
    broadcasts = 0
    if keys.size:
        span = int(dwords.max()) + 1
        pair = keys * span + dwords
        unique, inverse, counts = np.unique(pair, return_inverse=True, return_counts=True)
        ukey, udword = np.divmod(unique, span)
        # distinct dwords per (phase key, bank); sorted by key, so each key's banks are adjacent
        bank_key, per_bank = np.unique(ukey * model.banks + udword % model.banks, return_counts=True)
        np.maximum.at(degrees, bank_key // model.banks, per_bank)
        shared = counts[inverse.reshape(-1)] >= 2
        broadcasts = int(np.unique(lane_ids[shared]).size)
    degrees = degrees.reshape(waves, instances, p.instructions, phases)
    lost = np.maximum(degrees - 1, 0)
    max_degree = int(degrees.max()) if degrees.size else 0
    witness = None
    if max_degree > 1:
        witness = _collision(access, rule, model, p, byte, degrees, max_degree)
    return BankConflicts(
        instruction=model.instruction(access.kind, p.width), width=p.width, instructions=p.instructions,
        split=p.split, degrees=degrees, max_degree=max_degree, counter=int(lost.sum()),
        per_instruction=int(lost.sum(axis=3).max()) if lost.size else 0, witness=witness,
        broadcasts=broadcasts, assumed=(rule,) if rule.provenance == "assumed" else (), rule=rule,
        instance_dims=p.instance_dims, instance_shape=p.instance_shape)


def _collision(access: LdsAccess, rule: PhaseRule, model: LdsModel, p: Plan, byte: IntArray,
               degrees: IntArray, degree: int) -> Collision:
    """The first phase whose degree is ``degree``, with the dwords of its fullest bank."""
    w, n, j, g = (int(x) for x in np.unravel_index(int(np.argmax(degrees == degree)), degrees.shape))
    instance = tuple(int(x) for x in np.unravel_index(n, p.instance_shape)) if p.instance_shape else ()
    d = access.vector_axis
    if d is not None and d in p.instance_dims:
        k = p.instance_dims.index(d)
        instance = (*instance[:k], instance[k] * access.vector_length, *instance[k + 1:])
    return collision_at(model, rule, p, [int(b) for b in byte[w, n, j]], w, instance, j, g)


def collision_at(model: LdsModel, rule: PhaseRule, p: Plan, lane_bytes: Sequence[int], wave: int,
                 instance: tuple[int, ...], instruction: int, phase: int) -> Collision:
    """The collision in the fullest bank (the lowest of them) of one phase, from the lanes' byte
    addresses of that instruction (``-1``: inactive)."""
    g = phase
    nd = max(p.width // 4, 1)
    touching: dict[int, list[int]] = {}
    for lane in rule.groups[g]:
        if lane_bytes[lane] >= 0:
            for q in range(nd):
                touching.setdefault(lane_bytes[lane] // 4 + q, []).append(lane)
    by_bank: dict[int, list[int]] = {}
    for dw in sorted(touching):
        by_bank.setdefault(dw % model.banks, []).append(dw)
    bank = min(by_bank, key=lambda b: (-len(by_bank[b]), b))
    dwords = tuple(by_bank[bank])
    lanes = tuple(tuple(sorted(touching[dw])) for dw in dwords)
    return Collision(wave, instance, g, bank, dwords, lanes, instruction)
