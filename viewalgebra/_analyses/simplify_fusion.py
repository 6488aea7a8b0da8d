"""``simplify``'s fusion of two adjacent maps into one (docs/simplify.md), where every group of ops
linked through the space between them has a single-map form: renamed dims across PassThroughs,
Pads and Slices added up, a Merge whose members a later Unmerge recombines, an Unmerge that a
later Merge splits again, values an AddDim drops dropped where they come from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .._maps.transform_map import TransformMap, problems
from .._maps.transforms import (
    AddDim,
    AnyTransform,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from ..errors import InvalidTransformError


def is_strict(tm: TransformMap) -> bool:
    return not problems(tm)


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


def fuse(a: TransformMap, b: TransformMap) -> tuple[TransformMap, list[str]] | None:
    """One map equal to ``a`` followed by ``b`` (both strict), with what each group became."""
    if not (is_strict(a) and is_strict(b)) or a.lower_bounds != b.upper_bounds:
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
