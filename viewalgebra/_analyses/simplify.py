"""``simplify``: a shorter chain of rock transforms with the same meaning, certified by ISL
(docs/simplify.md).

Three kinds of rewrite, each exact on every point of the upper box (validity included):

* an op that is the identity on its dims (``Pad{0, 0}``, a full ``Slice``, ``Broadcast{p}`` over
  a dim of size ``p``, a one-member ``Merge`` or ``Unmerge``, ``Embed{1}`` between equal bounds)
  becomes a ``PassThrough``, and a map that is the identity is dropped;
* two adjacent maps fuse into one where every group of ops linked through the space between them
  has a single-map form: renamed dims across PassThroughs, Pads and Slices added up, a Merge whose
  members a later Unmerge recombines (the contiguous groups of rocMLIR's
  ``collapseContiguousMerges``), an Unmerge that a later Merge splits again;
* a view's buffer absorbs its bottom map where the map is a reshape of it (MLIR's
  ``collapse_shape``, ``expand_shape``): the buffer takes the map's upper shape; a bottom Merge
  whose members are contiguous in the buffer is collapsed over a reshaped buffer. A strided
  buffer also absorbs a transpose or a slice (a new layout); a row-major one does not, because
  rocMLIR's views are over row-major buffers.

The rewrites are applied until none applies; the answer carries ``equivalent``'s certificate
that the result has the same lower coordinates (a chain) or addresses (a view) at every point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, assert_never, overload

from .._engine.budget import check_timeout
from .._engine.cache import AnswerCache
from .._maps.buffer import Buffer, row_major_strides
from .._maps.chain import Chain
from .._maps.transform_map import TransformMap, problems, require_meaningful
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from .._maps.view import View
from ..errors import InvalidTransformError
from .equivalence import Equivalence, equivalent

T = TypeVar("T", Chain, View)


@dataclass(frozen=True, slots=True)
class Simplified(Generic[T]):
    """The answer of ``simplify``: the shorter chain (or view), the certificate that it means the
    same, and the rewrites that led there."""

    original: T
    result: T
    """A ``Chain`` for a chain, a ``View`` (same shape, possibly another buffer layout) for a view."""
    certificate: Equivalence
    """ISL's proof (``equivalent``) that ``result`` and ``original`` agree at every point: lower
    coordinates for chains, addresses for views; invalid points (padding) stay invalid."""
    log: tuple[str, ...]
    """One line per rewrite, in the order applied."""

    @property
    def maps(self) -> tuple[TransformMap, ...]:
        """The result's maps, top first (a view's may be none: its buffer does it all)."""
        return self.result.maps

    @property
    def chain(self) -> Chain | None:
        """The result's maps as a ``Chain``; ``None`` for a view its buffer reads without maps."""
        return Chain(self.result.maps) if self.result.maps else None

    @property
    def changed(self) -> bool:
        """Whether some rewrite applied."""
        return bool(self.log)

    def __str__(self) -> str:
        before, after = len(self.original.maps), len(self.result.maps)
        if not self.changed:
            return f"already simple ({before} map{'s' * (before != 1)})"
        buffer = (f", buffer {self.result.buffer}" if isinstance(self.result, View)
                  and isinstance(self.original, View) and self.result.buffer != self.original.buffer else "")
        return f"{before} map{'s' * (before != 1)} -> {after}{buffer}: {'; '.join(self.log)}"


CHAINS: AnswerCache[Chain, Simplified[Chain]] = AnswerCache(1024)
VIEWS: AnswerCache[View, Simplified[View]] = AnswerCache(1024)
"""Answers by chain and by view (values: equal inputs share answers; ``clear_caches``)."""


@overload
def simplify(x: View, *, timeout: float | None = 60.0) -> Simplified[View]: ...
@overload
def simplify(x: Chain | TransformMap | Sequence[TransformMap] | str, *,
             timeout: float | None = 60.0) -> Simplified[Chain]: ...


def simplify(x: Chain | View | TransformMap | Sequence[TransformMap] | str, *,
             timeout: float | None = 60.0) -> Simplified[Chain] | Simplified[View]:
    """A shorter chain of rock transforms with the same meaning, with ISL's certificate.

    A view keeps its shape; its buffer may take a bottom reshape, transpose or slice as its
    layout (the same addresses). Maps that break their ops' bound rules (``strict=False``) are
    left as they are; a map with no meaning at all raises ``InvalidTransformError``. ``timeout``
    bounds the certificate's ISL work (``QueryTimeoutError``).
    Answers are cached (``clear_caches``).

    Example: ``Merge{4, 3, 2}`` from ``[24, 5]`` to ``[4, 3, 2, 5]`` over ``memref<4x3x2x5xf32>``
    (rocMLIR's ``@test_basic_unmerge``) simplifies to no map at all over ``memref<24x5xf32>``;
    ``Merge{4, 8}`` followed by ``Unmerge{4, 8}`` is one ``PassThrough``.
    """
    check_timeout(timeout, "simplify")
    for tm in Chain.of(x).maps if not isinstance(x, View) else x.maps:
        require_meaningful(tm)
    if isinstance(x, View):
        known = VIEWS.get(x)
        if known is None:
            maps, buffer, log = _simplify_view(x)
            known = _certified(x, View(buffer, tuple(maps), strict=x.strict), log, timeout)
            VIEWS.put(x, known)
        return known
    chain = Chain.of(x)
    found = CHAINS.get(chain)
    if found is None:
        maps, log = _simplify_maps(list(chain.maps), keep_one=True)
        found = _certified(chain, Chain(tuple(maps)), log, timeout)
        CHAINS.put(chain, found)
    return found


def _certified(original: T, result: T, log: list[str],
               timeout: float | None) -> Simplified[T]:
    if not log:  # nothing rewritten: the result is the original itself
        return Simplified(original, original, Equivalence(True, _on(original)), ())
    certificate = equivalent(original, result, timeout=timeout)
    if not certificate:
        # Each rewrite is exact, so this is a defect; the original is the honest answer.
        return Simplified(original, original, Equivalence(True, _on(original)),
                          (f"rewrites not certified ({certificate}); kept the original",))
    return Simplified(original, result, certificate, tuple(log))


def _on(x: Chain | View) -> Literal["coordinates", "addresses"]:
    return "addresses" if isinstance(x, View) else "coordinates"


# {{{ one map

def _strict(tm: TransformMap) -> bool:
    return not problems(tm)


def _pass(op: AnyTransform) -> PassThrough:
    return PassThrough((), op.upper_names, op.upper_dims, op.lower_names, op.lower_dims)


def _is_identity_op(tm: TransformMap, op: AnyTransform) -> bool:
    """Whether ``op`` is the identity on its dims in the strict map ``tm``."""
    match op:
        case PassThrough():
            return False  # already one
        case Pad():
            return all(a == 0 for a in op.params)
        case Slice():
            return all(b == 0 and e == tm.lower_bounds[d]
                       for (b, e), d in zip(op.ranges, op.lower_dims, strict=True))
        case Broadcast():
            return all(p == tm.upper_bounds[u] for p, u in zip(op.params, op.upper_dims, strict=True))
        case Merge():
            return len(op.lower_dims) == 1
        case Unmerge():
            return len(op.upper_dims) == 1
        case Embed():
            return (op.params == (1,)
                    and tm.upper_bounds[op.upper_dims[0]] == tm.lower_bounds[op.lower_dims[0]])
        case AddDim() | ConstDim():
            return False
        case _:
            assert_never(op)


def _normalize(tm: TransformMap, log: list[str]) -> TransformMap:
    """``tm`` with its identity ops as PassThroughs."""
    if not _strict(tm) or not any(_is_identity_op(tm, op) for op in tm.ops):
        return tm
    ops = tuple(_pass(op) if _is_identity_op(tm, op) else op for op in tm.ops)
    changed = [f"{op.kind}{{{', '.join(map(str, op.params))}}}" for op in tm.ops if _is_identity_op(tm, op)]
    log.append(f"{', '.join(changed)} is the identity: PassThrough")
    return TransformMap(ops, tm.upper_bounds, tm.lower_bounds)


def _is_identity_map(tm: TransformMap) -> bool:
    return (tm.upper_bounds == tm.lower_bounds and _strict(tm)
            and all(isinstance(op, PassThrough) and op.upper_dims == op.lower_dims for op in tm.ops))


# }}}
# {{{ two maps

Ops = list[AnyTransform]


def _pieces(op: PassThrough | Pad | Slice) -> list[tuple[int, str, int, str, tuple[int, ...]]]:
    """Per dim: upper dim and name, lower dim and name, that dim's params."""
    per = 0 if isinstance(op, PassThrough) else 2
    return [(u, un, lo, ln, op.params[per * i: per * i + per])
            for i, (u, un, lo, ln) in enumerate(zip(op.upper_dims, op.upper_names,
                                                    op.lower_dims, op.lower_names, strict=True))]


@dataclass(frozen=True, slots=True)
class _Pair:
    """Two adjacent strict maps and how the ops of each reach the space between them."""

    a: TransformMap
    b: TransformMap
    producer: dict[int, int]
    """Middle dim -> index of the op of ``a`` that defines it."""
    consumers: dict[int, list[int]]
    """Middle dim -> indices of the ops of ``b`` that read it."""

    @staticmethod
    def of(a: TransformMap, b: TransformMap) -> _Pair:
        producer = {d: i for i, op in enumerate(a.ops) for d in op.lower_dims}
        consumers: dict[int, list[int]] = {}
        for j, op in enumerate(b.ops):
            for d in op.upper_dims:
                consumers.setdefault(d, []).append(j)
        return _Pair(a, b, producer, consumers)

    def components(self) -> list[tuple[list[int], list[int]]]:
        """The groups of ops (indices in ``a``, in ``b``) linked through middle dims."""
        parent = list(range(len(self.a.ops) + len(self.b.ops)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        offset = len(self.a.ops)
        for d, i in self.producer.items():
            for j in self.consumers.get(d, []):
                parent[find(i)] = find(offset + j)
        groups: dict[int, tuple[list[int], list[int]]] = {}
        for n in range(len(parent)):
            a_ops, b_ops = groups.setdefault(find(n), ([], []))
            (a_ops if n < offset else b_ops).append(n if n < offset else n - offset)
        return list(groups.values())


Rule = Callable[[_Pair, Ops, Ops], Ops | None]


def _fuse(a: TransformMap, b: TransformMap) -> tuple[TransformMap, list[str]] | None:
    """One map equal to ``a`` followed by ``b`` (both strict), with what each group became."""
    if not (_strict(a) and _strict(b)) or a.lower_bounds != b.upper_bounds:
        return None
    pair = _Pair.of(a, b)
    if any(len(pair.consumers.get(d, [])) == 0 for d in pair.producer):
        return None
    ops: list[AnyTransform] = []
    notes: list[str] = []
    for ai, bi in pair.components():
        a_ops = [a.ops[i] for i in ai]
        b_ops = [b.ops[j] for j in bi]
        if not a_ops or not b_ops:  # an AddDim above or a ConstDim below: as it is
            ops.extend(a_ops or b_ops)
            continue
        for name, rule in _RULES:
            fused = rule(pair, a_ops, b_ops)
            if fused is not None:
                ops.extend(fused)
                if name:
                    notes.append(f"{_kinds(a_ops)} then {_kinds(b_ops)}: {name}"
                                 f"{' ' + _kinds(fused) if fused else ''}")
                break
        else:
            return None
    try:
        fused_map = TransformMap(tuple(ops), a.upper_bounds, b.lower_bounds)
    except InvalidTransformError:
        return None
    return fused_map, notes


def _kinds(ops: Sequence[AnyTransform]) -> str:
    return " + ".join(f"{op.kind}{{{', '.join(map(str, op.params))}}}" if op.params else op.kind
                      for op in ops)


def _rename_upper(pair: _Pair, op: AnyTransform) -> AnyTransform:
    """``op`` of the lower map reading, through the upper map's PassThroughs, the upper map's dims."""
    dims: list[int] = []
    names: list[str] = []
    for d in op.upper_dims:
        source = pair.a.ops[pair.producer[d]]
        k = source.lower_dims.index(d)
        dims.append(source.upper_dims[k])
        names.append(source.upper_names[k])
    return type(op)(op.params, tuple(names), tuple(dims), op.lower_names, op.lower_dims)


def _all_pass(ops: Sequence[AnyTransform]) -> bool:
    return all(isinstance(op, PassThrough) for op in ops)


def _through_lower(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """The lower map only renames: the upper map's ops, writing where the PassThroughs send them."""
    if not _all_pass(b_ops):
        return None
    target: dict[int, tuple[int, str]] = {}
    for op in b_ops:
        for u, lo, ln in zip(op.upper_dims, op.lower_dims, op.lower_names, strict=True):
            if u in target:
                return None  # one middle dim copied twice
            target[u] = (lo, ln)
    return [type(op)(op.params, op.upper_names, op.upper_dims,
                     tuple(target[d][1] for d in op.lower_dims), tuple(target[d][0] for d in op.lower_dims))
            for op in a_ops]


def _through_upper(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """The upper map only renames: the lower map's ops, reading the upper map's dims."""
    if not _all_pass(a_ops):
        return None
    return [_rename_upper(pair, op) for op in b_ops]


def _offsets(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """PassThroughs, Pads and Slices on both sides: per dim, the two shifts added up."""
    uppers = [op for op in a_ops if isinstance(op, PassThrough | Pad | Slice)]
    lowers = [op for op in b_ops if isinstance(op, PassThrough | Pad | Slice)]
    if len(uppers) != len(a_ops) or len(lowers) != len(b_ops):
        return None
    above: dict[int, tuple[int, str, str, tuple[int, ...]]] = {}
    for op in uppers:
        for u, un, lo, _, params in _pieces(op):
            above[lo] = (u, un, op.kind, params)
    out: dict[str, list[tuple[int, str, int, str, tuple[int, ...]]]] = {}
    for op in lowers:
        for mid, _, lo, ln, params in _pieces(op):
            u, un, kind, upper_params = above[mid]
            fused = _shift(kind, upper_params, op.kind, params, pair.b.lower_bounds[lo])
            if fused is None:
                return None
            out.setdefault(fused[0], []).append((u, un, lo, ln, fused[1]))
    ops: list[AnyTransform] = []
    for kind, dims in out.items():
        t = {"PassThrough": PassThrough, "Pad": Pad, "Slice": Slice}[kind]
        ops.append(t(tuple(p for *_, ps in dims for p in ps), tuple(un for _, un, *_ in dims),
                     tuple(u for u, *_ in dims), tuple(ln for *_, ln, _ in dims),
                     tuple(lo for _, _, lo, _, _ in dims)))
    return ops


def _shift(upper: str, up: tuple[int, ...], lower: str, lp: tuple[int, ...],
           bound: int) -> tuple[str, tuple[int, ...]] | None:
    """One dim through ``upper`` then ``lower`` (each PassThrough, Pad or Slice) as one op over a
    lower dim of size ``bound``, if one op can say it."""
    if upper == "PassThrough":
        return lower, lp
    if lower == "PassThrough":
        return upper, up
    if upper == lower == "Pad":
        return "Pad", (up[0] + lp[0], up[1] + lp[1])
    if upper == lower == "Slice":
        return "Slice", (up[0] + lp[0], up[1] + lp[0])
    if upper == "Slice" and lower == "Pad":
        (begin, end), (left, _) = up, lp
        if begin >= left and end - left <= bound:  # never reaches the padding
            return "Slice", (begin - left, end - left)
        if begin <= left and end - left >= bound:  # keeps all of the data
            return "Pad", (left - begin, end - left - bound)
    return None  # a Pad then a Slice keeps a window of the padding: not one op


def _merge_unmerge(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """A Merge whose members Unmerges recombine in order (unit members aside) and PassThroughs
    copy: the same Merge with each recombined run as one member."""
    if len(a_ops) != 1 or not isinstance(merge := a_ops[0], Merge):
        return None
    size = dict(zip(merge.lower_dims, merge.params, strict=True))
    order = [d for d in merge.lower_dims if size[d] != 1]
    members: dict[int, tuple[int, str, int]] = {}
    """Middle dim standing for its run -> (lower dim, name, size)."""
    read = [d for op in b_ops for d in op.upper_dims]
    if len(read) != len(set(read)):
        return None  # a member read twice
    for op in b_ops:
        if isinstance(op, PassThrough):
            for mid, lo, ln in zip(op.upper_dims, op.lower_dims, op.lower_names, strict=True):
                members[mid] = (lo, ln, size[mid])
        elif isinstance(op, Unmerge):
            if op.params != tuple(size[d] for d in op.upper_dims):
                return None
            run = [d for d in op.upper_dims if size[d] != 1]
            if run and order[order.index(run[0]): order.index(run[0]) + len(run)] != run:
                return None
            key = run[-1] if run else op.upper_dims[-1]
            members[key] = (op.lower_dims[0], op.lower_names[0], math.prod(op.params))
        else:
            return None
    new = [members[d] for d in merge.lower_dims if d in members]
    if len(new) == 1:
        return [PassThrough((), merge.upper_names, merge.upper_dims, (new[0][1],), (new[0][0],))]
    return [Merge(tuple(s for *_, s in new), merge.upper_names, merge.upper_dims,
                  tuple(n for _, n, _ in new), tuple(d for d, *_ in new))]


def _unmerge_merge(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """An Unmerge that a Merge splits again: per common refinement of their sizes, a
    PassThrough, a Merge or an Unmerge (unit dims: PassThroughs, AddDims, ConstDims)."""
    if len(a_ops) != 1 or len(b_ops) != 1:
        return None
    unmerge, merge = a_ops[0], b_ops[0]
    if not isinstance(unmerge, Unmerge) or not isinstance(merge, Merge):
        return None
    ops: list[AnyTransform] = []
    ins = [(d, n, s) for d, n, s in zip(unmerge.upper_dims, unmerge.upper_names, unmerge.params, strict=True)]
    outs = [(d, n, s) for d, n, s in zip(merge.lower_dims, merge.lower_names, merge.params, strict=True)]
    # Unit dims are 0 on the box: paired in order as PassThroughs, the rest dropped or constant.
    unit_in = [(d, n) for d, n, s in ins if s == 1]
    unit_out = [(d, n) for d, n, s in outs if s == 1]
    ops.extend(PassThrough((), (un,), (ud,), (ln,), (ld,))
               for (ud, un), (ld, ln) in zip(unit_in, unit_out, strict=False))
    ops.extend(AddDim((1,), (n,), (d,), (), ()) for d, n in unit_in[len(unit_out):])
    ops.extend(ConstDim((0, 1), (), (), (n,), (d,)) for d, n in unit_out[len(unit_in):])
    ins = [x for x in ins if x[2] != 1]
    outs = [x for x in outs if x[2] != 1]
    while ins or outs:
        if not ins or not outs:
            return None
        group_in, group_out = [ins.pop()], [outs.pop()]
        p_in, p_out = group_in[0][2], group_out[0][2]
        while p_in != p_out:
            source, group, grow = (ins, group_in, True) if p_in < p_out else (outs, group_out, False)
            if not source:
                return None
            group.insert(0, source.pop())
            if grow:
                p_in *= group[0][2]
            else:
                p_out *= group[0][2]
        if len(group_in) > 1 and len(group_out) > 1:
            return None
        if len(group_in) == 1 and len(group_out) == 1:
            (ud, un, _), (ld, ln, _) = group_in[0], group_out[0]
            ops.append(PassThrough((), (un,), (ud,), (ln,), (ld,)))
        elif len(group_in) == 1:
            ud, un, _ = group_in[0]
            ops.append(Merge(tuple(s for *_, s in group_out), (un,), (ud,),
                             tuple(n for _, n, _ in group_out), tuple(d for d, *_ in group_out)))
        else:
            ld, ln, _ = group_out[0]
            ops.append(Unmerge(tuple(s for *_, s in group_in), tuple(n for _, n, _ in group_in),
                               tuple(d for d, *_ in group_in), (ln,), (ld,)))
    return ops


def _discarded(pair: _Pair, a_ops: Ops, b_ops: Ops) -> Ops | None:
    """Values the lower map's AddDims drop: the upper dims they came from are dropped instead
    (when computing them decides no validity: no Pad, no Embed)."""
    if not all(isinstance(op, AddDim) for op in b_ops) or any(isinstance(op, Pad | Embed) for op in a_ops):
        return None
    read = {d: n for op in a_ops for d, n in zip(op.upper_dims, op.upper_names, strict=True)}
    return [AddDim((pair.a.upper_bounds[d],), (n,), (d,), (), ()) for d, n in read.items()]


_RULES: tuple[tuple[str, Rule], ...] = (
    ("", _through_lower),
    ("", _through_upper),
    ("shifts added", _offsets),
    ("recombined runs collapsed:", _merge_unmerge),
    ("split again:", _unmerge_merge),
    ("dropped", _discarded),
)
"""Each group's single-map forms, tried in order (an empty name: a renaming, not logged)."""


def _simplify_maps(maps: list[TransformMap], *, keep_one: bool) -> tuple[list[TransformMap], list[str]]:
    """Normalize, drop identities and fuse adjacent maps until nothing changes."""
    log: list[str] = []
    maps = [_normalize(m, log) for m in maps]
    while True:
        for k, m in enumerate(maps):
            if _is_identity_map(m) and (len(maps) > 1 or not keep_one):
                log.append(f"map {k} is the identity: dropped")
                del maps[k]
                break
        else:
            for k in range(len(maps) - 1):
                fused = _fuse(maps[k], maps[k + 1])
                if fused is not None:
                    maps[k: k + 2] = [fused[0]]
                    log.append(f"maps {k} and {k + 1} fused" + "".join(f"; {n}" for n in fused[1]))
                    break
            else:
                return maps, log


# }}}
# {{{ the buffer

def _simplify_view(view: View) -> tuple[list[TransformMap], Buffer, list[str]]:
    if any(upper != lower for upper, lower in view.links()):
        return list(view.maps), view.buffer, []  # a lenient view: its links decide validity
    maps, log = _simplify_maps(list(view.maps), keep_one=False)
    buffer = view.buffer
    while maps and maps[-1].lower_bounds == buffer.shape and _strict(maps[-1]):
        absorbed = _absorb(maps[-1], buffer)
        if absorbed is None:
            collapsed = _collapse_into(maps[-1], buffer)
            if collapsed is not None:
                maps[-1], buffer = collapsed
                log.append(f"bottom Merge's contiguous members collapsed: buffer {buffer}")
            break
        buffer = absorbed
        log.append(f"map {len(maps) - 1} absorbed by the buffer: {buffer}")
        maps.pop()
    return maps, buffer, log


def _absorb(tm: TransformMap, buffer: Buffer) -> Buffer | None:
    """The buffer that ``tm`` followed by ``buffer`` reads, over ``tm``'s upper shape, when every op
    of ``tm`` is a reshape, transpose, slice or constant of the buffer's dims."""
    strides = buffer.strides or ()
    upper = [0] * tm.upper_rank
    offset = buffer.offset
    for op in tm.ops:
        match op:
            case PassThrough():
                for u, lo in zip(op.upper_dims, op.lower_dims, strict=True):
                    upper[u] = strides[lo]
            case Slice():
                for u, lo, (begin, _) in zip(op.upper_dims, op.lower_dims, op.ranges, strict=True):
                    upper[u] = strides[lo]
                    offset += begin * strides[lo]
            case Unmerge():
                stride = strides[op.lower_dims[0]]
                for u, s in reversed(list(zip(op.upper_dims, op.params, strict=True))):
                    upper[u] = stride
                    stride *= s
            case Merge():
                stride = _contiguous(op, strides)
                if stride is None:
                    return None
                upper[op.upper_dims[0]] = stride
            case ConstDim():
                for lo, (value, _) in zip(op.lower_dims, op.values, strict=True):
                    offset += value * strides[lo]
            case Pad() | Embed() | Broadcast() | AddDim():
                return None
            case _:
                assert_never(op)
    if sorted(d for op in tm.ops for d in op.upper_dims) != list(range(tm.upper_rank)):
        return None  # an upper dim read twice: the buffer can give it one stride only
    return _layout(tm.upper_bounds, buffer, tuple(upper), offset)


def _layout(shape: tuple[int, ...], buffer: Buffer, strides: tuple[int, ...], offset: int) -> Buffer | None:
    """The buffer of this shape, strides and offset, row-major where the strides of its non-unit
    dims are (a unit dim's stride never counts); ``None`` where a row-major ``buffer`` would
    become strided: rocMLIR's views are over row-major buffers, so a transpose or slice stays a map."""
    row_major = row_major_strides(shape)
    if offset == 0 and all(n == 1 or s == r for n, s, r in zip(shape, strides, row_major, strict=True)):
        return Buffer(shape, buffer.dtype)
    return None if buffer.is_row_major else Buffer(shape, buffer.dtype, strides, offset)


def _contiguous(op: Merge, strides: Sequence[int]) -> int | None:
    """The stride of the Merged dim if its members are contiguous in the buffer, in order."""
    members = [(d, s) for d, s in zip(op.lower_dims, op.params, strict=True) if s != 1]
    if not members:
        return 0
    for (d, _), (e, s) in zip(members, members[1:], strict=False):
        if strides[d] != strides[e] * s:
            return None
    return strides[members[-1][0]]


def _collapse_into(tm: TransformMap, buffer: Buffer) -> tuple[TransformMap, Buffer] | None:
    """``tm`` with each Merge's runs of members that are adjacent and contiguous in the buffer
    as one member, over the buffer with those dims collapsed."""
    strides = buffer.strides or ()
    runs: list[list[int]] = []
    for op in tm.ops:
        if not isinstance(op, Merge):
            continue
        members = list(op.lower_dims)
        run = [members[0]]
        for d, e in zip(members, members[1:], strict=False):
            if e == d + 1 and strides[d] == strides[e] * buffer.shape[e]:
                run.append(e)
            else:
                runs.append(run)
                run = [e]
        runs.append(run)
    runs = [r for r in runs if len(r) > 1]
    if not runs:
        return None
    first = {r[0]: r for r in runs}
    inside = {d for r in runs for d in r[1:]}
    new_dim: dict[int, int] = {}
    shape: list[int] = []
    new_strides: list[int] = []
    names = dict(zip((d for op in tm.ops for d in op.lower_dims),
                     (n for op in tm.ops for n in op.lower_names), strict=True))
    for d in range(buffer.rank):
        if d in inside:
            continue
        run = first.get(d, [d])
        new_dim[d] = len(shape)
        shape.append(math.prod(buffer.shape[e] for e in run))
        new_strides.append(strides[run[-1]])
    ops: list[AnyTransform] = []
    for op in tm.ops:
        if isinstance(op, Merge):
            kept = [(d, s) for d, s in zip(op.lower_dims, op.params, strict=True) if d not in inside]
            sizes = tuple(math.prod(buffer.shape[e] for e in first.get(d, [d])) if d in first else s
                          for d, s in kept)
            dims = tuple(new_dim[d] for d, _ in kept)
            lower_names = tuple(names[d] for d, _ in kept)
            ops.append(PassThrough((), op.upper_names, op.upper_dims, lower_names, dims) if len(kept) == 1
                       else Merge(sizes, op.upper_names, op.upper_dims, lower_names, dims))
        else:
            ops.append(type(op)(op.params, op.upper_names, op.upper_dims, op.lower_names,
                                tuple(new_dim[d] for d in op.lower_dims)))
    layout = _layout(tuple(shape), buffer, tuple(new_strides), buffer.offset)
    try:
        collapsed = TransformMap(tuple(ops), tm.upper_bounds, tuple(shape))
    except InvalidTransformError:
        return None
    return None if layout is None else (collapsed, layout)


# }}}

