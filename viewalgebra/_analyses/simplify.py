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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, assert_never, overload

from .._engine.budget import check_timeout
from .._engine.cache import AnswerCache
from .._maps.buffer import Buffer
from .._maps.chain import Chain
from .._maps.transform_map import TransformMap, require_meaningful
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
from .equivalence import Equivalence, equivalent
from .simplify_buffer import absorb, collapse_into
from .simplify_fusion import (
    fuse,
    is_strict,
)

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
    if not is_strict(tm) or not any(_is_identity_op(tm, op) for op in tm.ops):
        return tm
    ops = tuple(_pass(op) if _is_identity_op(tm, op) else op for op in tm.ops)
    changed = [f"{op.kind}{{{', '.join(map(str, op.params))}}}" for op in tm.ops if _is_identity_op(tm, op)]
    log.append(f"{', '.join(changed)} is the identity: PassThrough")
    return TransformMap(ops, tm.upper_bounds, tm.lower_bounds)


def _is_identity_map(tm: TransformMap) -> bool:
    return (tm.upper_bounds == tm.lower_bounds and is_strict(tm)
            and all(isinstance(op, PassThrough) and op.upper_dims == op.lower_dims for op in tm.ops))


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
                fused = fuse(maps[k], maps[k + 1])
                if fused is not None:
                    maps[k: k + 2] = [fused[0]]
                    log.append(f"maps {k} and {k + 1} fused" + "".join(f"; {n}" for n in fused[1]))
                    break
            else:
                return maps, log


def _simplify_view(view: View) -> tuple[list[TransformMap], Buffer, list[str]]:
    if any(upper != lower for upper, lower in view.links()):
        return list(view.maps), view.buffer, []  # a lenient view: its links decide validity
    maps, log = _simplify_maps(list(view.maps), keep_one=False)
    buffer = view.buffer
    while maps and maps[-1].lower_bounds == buffer.shape and is_strict(maps[-1]):
        absorbed = absorb(maps[-1], buffer)
        if absorbed is None:
            collapsed = collapse_into(maps[-1], buffer)
            if collapsed is not None:
                maps[-1], buffer = collapsed
                log.append(f"bottom Merge's contiguous members collapsed: buffer {buffer}")
            break
        buffer = absorbed
        log.append(f"map {len(maps) - 1} absorbed by the buffer: {buffer}")
        maps.pop()
    return maps, buffer, log
