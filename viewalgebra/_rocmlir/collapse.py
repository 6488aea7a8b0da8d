"""A faithful port of rocMLIR's ``collapseContiguousMerges``, for comparison.

rocMLIR (``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp``, since PR #965, in its form after
PRs #1410 and #1479) rewrites the ``rock.transform`` chain of a value in place: it finds the
contiguous groups of each Merge's lower dims (``findContiguousGroups``, ported in ``contiguous_groups.py``
with the implicit final unmerge over the buffer shape) and folds each group into its fastest
member, so that ``Merge{4, 3, 2}`` becomes ``Merge{1, 1, 24}`` when the buffer recombines all
three dims. Only the Merge sizes change; bounds, names, dims and the other ops stay, and the
affine map is recomputed from the ops.

The result breaks Merge's bound rule (the fastest member of a group receives values up to the
group's product while its bound is unchanged), so the rewritten maps are lenient
(``strict=False``). rocMLIR claims equivalence only "for the purposes of indexing some given output
shape": the flat buffer address of each valid upper point, computed without any bounds check of
the intermediate coordinates (``unchecked_addresses``). Intermediate coordinates and per-dim
validity are not preserved, so the collapsed chain must not be read as a ``View`` with its
validity rule.

The collapse does not always keep that address. Four causes are known, each with a chain in
tests/test_rocmlir_collapse.py: a group that forms through a ``Broadcast{p}`` of upper size
``p`` (the identity on the box, but its ``mod p`` folds the collapsed coordinate back); the same
map at two depths of a chain (groups are keyed by value, so a group found below one copy
collapses the other); a Merge and its Unmerge in maps that are not adjacent (the erasures that
keep a unit dim out of a second group use the Merge's lower indices in another space, so the
regression fixed by PR #1479 returns behind a permutation); an Unmerge that reads a dim twice
(the positions ``[0, 1, 1]`` pass rocMLIR's ``is_sorted``).

``isolateTransforms`` (rocMLIR clones a chain that has other users before rewriting it) needs no
counterpart: maps are immutable values here, and the input chain is left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl
import numpy as np

from .._analyses.simplify import Simplified, simplify
from .._engine.budget import run_bounded
from .._maps.buffer import Buffer
from .._maps.equations import affine_map_of
from .._maps.evaluate import INT64_MAX, IntArray, apply_array, magnitude, points_array
from .._maps.relations import address_function, point_coords, total_address_and_checks
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap, require_meaningful
from .._maps.transforms import AnyTransform, Merge
from .._maps.view import View, all_points
from ..errors import InvalidArgumentError, TooComplexError
from .common import Verdict
from .contiguous_groups import ContiguousGroups, find_contiguous_groups, is_equivalent

__all__ = ["CollapseComparison", "CollapsedMerge", "MergeCollapse", "compare_collapse",
           "rocmlir_collapse_merges", "unchecked_addresses"]


@dataclass(frozen=True, slots=True)
class CollapsedMerge:
    """One Merge that rocMLIR's collapse rewrites (its ``hadConcat``), before and after.

    Example: ``<Merge{4, 3, 2} ["1"] at [0] -> ["b", "c", "d"] at [0, 1, 2]>`` over
    ``memref<4x3x2x5xf32>`` becomes ``<Merge{1, 1, 24} ["1"] at [0] -> ["b", "c", "d"] at
    [0, 1, 2]>``: ``CollapsedMerge(0, 1, before, after)``.
    """

    map_index: int
    """The map's position in the chain, top first."""
    op_index: int
    """The Merge's position among the map's ops."""
    before: Merge
    after: Merge
    """The same Merge with each group's sizes multiplied into its fastest member, the others 1."""

    @property
    def changes_sizes(self) -> bool:
        """Whether the sizes change: a group that only adds unit dims to a dim rewrites the Merge
        to itself (``@negative_test_reuse_dim``)."""
        return self.before.params != self.after.params

    def __str__(self) -> str:
        before, after = (", ".join(map(str, op.params)) for op in (self.before, self.after))
        return f"map {self.map_index}, op {self.op_index}: Merge{{{before}}} -> Merge{{{after}}}"


@dataclass(frozen=True, slots=True)
class MergeCollapse:
    """What rocMLIR's ``collapseContiguousMerges`` makes of a chain over a buffer.

    Example: over ``memref<4x3x2x5xf32>``, ``<PassThrough ["a"] at [1] -> ["a"] at [3]>,
    <Merge{4, 3, 2} ["1"] at [0] -> ["b", "c", "d"] at [0, 1, 2]>`` with bounds
    ``[24, 5] -> [4, 3, 2, 5]`` becomes the same map with ``Merge{1, 1, 24}`` and the affine map
    ``(d0, d1) -> (0, 0, d0, d1)``.
    """

    maps: tuple[TransformMap, ...]
    """The rewritten chain, top first, with the input's bounds. A map with a rewritten Merge is
    rebuilt with ``strict=False``; every other map is the input's own."""
    buffer: Buffer
    """The buffer below the chain; rocMLIR uses only its shape (the final unmerge is row-major)."""
    rewritten: tuple[CollapsedMerge, ...]
    """Every Merge rocMLIR rewrites, top first (sizes changed or not)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "maps", tuple(self.maps))
        object.__setattr__(self, "rewritten", tuple(self.rewritten))

    @property
    def collapsed(self) -> tuple[CollapsedMerge, ...]:
        """The Merges whose sizes change."""
        return tuple(c for c in self.rewritten if c.changes_sizes)

    def addresses(self, points: IntArray | None = None) -> IntArray:
        """``unchecked_addresses`` of the rewritten chain over ``buffer``."""
        return unchecked_addresses(self.maps, self.buffer, points)

    def __str__(self) -> str:
        return "\n".join(print_transform_map(tm) for tm in self.maps)


def _collapse_merge(op: Merge, classes: tuple[frozenset[int], ...]) -> Merge | None:
    """The loop over one Merge's lower dims, fastest first; ``None`` if nothing is concatenated."""
    sizes = list(op.params)
    representative = op.lower_dims[-1]
    position = len(op.lower_dims) - 1
    had_concat = False
    for idx in reversed(range(len(op.lower_dims) - 1)):
        dim = op.lower_dims[idx]
        if is_equivalent(classes, dim, representative):
            had_concat = True
            sizes[position] *= sizes[idx]
            sizes[idx] = 1
        else:
            representative, position = dim, idx
    if not had_concat:
        return None
    return Merge(tuple(sizes), op.upper_names, op.upper_dims, op.lower_names, op.lower_dims)


def _collapse_map(tm: TransformMap, groups: ContiguousGroups, map_index: int,
                  ) -> tuple[TransformMap, list[CollapsedMerge]]:
    ops: list[AnyTransform] = []
    rewritten: list[CollapsedMerge] = []
    for k, op in enumerate(tm.ops):
        classes = groups.get((tm, op)) if isinstance(op, Merge) else None
        if not isinstance(op, Merge) or classes is None:
            ops.append(op)
            continue
        new = _collapse_merge(op, classes)
        if new is None:
            ops.append(op)
            continue
        ops.append(new)
        rewritten.append(CollapsedMerge(map_index, k, op, new))
    if not rewritten:
        return tm, rewritten
    return TransformMap(tuple(ops), tm.upper_bounds, tm.lower_bounds, strict=False), rewritten


def _as_view(chain: View | TransformMap | Sequence[TransformMap],
             buffer: Buffer | Sequence[int] | None, what: str) -> View:
    """The chain and its buffer as a lenient view (only the ranks must link, as in rocMLIR)."""
    if isinstance(chain, View):
        if buffer is not None:
            raise InvalidArgumentError(f"{what}: a View brings its own buffer; got another: {buffer!r}")
        return chain
    if isinstance(chain, str) or not isinstance(chain, TransformMap | Sequence):
        raise InvalidArgumentError(
            f"{what}: expected a View, or transform maps listed top first with a buffer, got {chain!r}")
    if buffer is None:
        raise InvalidArgumentError(f"{what}: maps need the buffer below them (a Buffer or a shape)")
    if isinstance(buffer, str) or not isinstance(buffer, Buffer | Sequence):
        raise InvalidArgumentError(f"{what}: expected a Buffer or a shape, got {buffer!r}")
    below = buffer if isinstance(buffer, Buffer) else Buffer(tuple(buffer))
    maps = (chain,) if isinstance(chain, TransformMap) else tuple(chain)
    return View(below, maps, strict=False)  # checks that each map is a TransformMap


def rocmlir_collapse_merges(chain: View | TransformMap | Sequence[TransformMap],
                            buffer: Buffer | Sequence[int] | None = None) -> MergeCollapse:
    """rocMLIR's ``collapseContiguousMerges`` on a chain (top first) over a buffer.

    ``chain`` is a ``View`` (its maps and buffer) or maps with ``buffer``, a ``Buffer`` or a
    shape (row-major). The groups are ``find_contiguous_groups(maps, shape)``, keyed by value as in
    rocMLIR, so identical maps at different depths share them. Each Merge with a group of more
    than one lower dim gets, from its fastest dim to its slowest, each group's sizes multiplied
    into the group's fastest member and 1 elsewhere. Its map is rebuilt with ``strict=False`` and
    the same bounds; the others are returned as they are.

    Example: over ``memref<4x5x3x2xf32>``, ``<PassThrough ["gemmM"] at [0] -> ["k"] at [1]>,
    <Merge{4, 3, 2} ["gemmN"] at [1] -> ["n", "0", "1"] at [0, 2, 3]>`` (``[5, 24] ->
    [4, 5, 3, 2]``) becomes ``Merge{4, 1, 6}`` with the affine map
    ``(d0, d1) -> (d1 floordiv 6, d0, 0, d1 mod 6)``.
    """
    view = _as_view(chain, buffer, "rocmlir_collapse_merges")
    groups = find_contiguous_groups(view.maps, view.buffer.shape)
    maps: list[TransformMap] = []
    rewritten: list[CollapsedMerge] = []
    for k, tm in enumerate(view.maps):
        new, found = _collapse_map(tm, groups, k)
        maps.append(new)
        rewritten.extend(found)
    return MergeCollapse(tuple(maps), view.buffer, tuple(rewritten))


def unchecked_addresses(maps: TransformMap | Sequence[TransformMap], buffer: Buffer,
                        points: IntArray | None = None) -> IntArray:
    """The buffer address of upper points through ``maps`` (top first) by the compiled
    equations, with no bounds check anywhere: not of the points, not of any intermediate or
    buffer coordinate. This is what rocMLIR computes for a point its masking lets through, and
    all that its collapse of contiguous merges preserves.

    With ``points=None`` every point of the top box, as an array of the top shape; otherwise
    ``points`` of shape ``(N, rank)`` and a result of shape ``(N,)``. The buffer's strides and
    offset are used (rocMLIR itself assumes row-major). ``TooComplexError`` where a value could
    leave 64-bit integers.

    Example: ``<Merge{1, 1, 24} ["1"] at [0] -> ["b", "c", "d"] at [0, 1, 2]>`` (with a
    PassThrough of ``"a"``) over ``memref<4x3x2x5xf32>``: point ``(7, 1)`` goes to ``(0, 0, 7, 1)``
    (``d`` beyond its bound 2) and address ``7 * 5 + 1 = 36``, as through ``Merge{4, 3, 2}``.
    """
    chain = (maps,) if isinstance(maps, TransformMap) else tuple(maps)
    view = View(buffer, chain, strict=False)  # checks the types and that the ranks link
    for tm in chain:
        require_meaningful(tm)
    whole_box = points is None
    coords = all_points(view.shape) if points is None else points_array(
        points, view.rank, "unchecked_addresses")
    largest = ([max(n - 1, 0) for n in view.shape] if whole_box or not len(coords)
               else np.abs(coords).max(axis=0).tolist())
    for tm in chain:
        largest = [magnitude(e, largest) for e in affine_map_of(tm).results]
    strides = buffer.strides or ()
    reach = abs(buffer.offset) + sum(abs(s) * x for s, x in zip(strides, largest, strict=True))
    if max([reach, *largest]) > INT64_MAX:
        raise TooComplexError(
            f"unchecked_addresses: values can reach {max([reach, *largest])}, beyond 64-bit integers")
    for tm in chain:
        coords, _ = apply_array(tm, coords)
    addr = buffer.offset + coords @ np.asarray(strides, dtype=np.int64)
    return addr.reshape(view.shape) if whole_box else addr


# {{{ beside simplify

@dataclass(frozen=True, slots=True)
class CollapseComparison:
    """rocMLIR's collapse of contiguous merges beside ``simplify``, for one view (over the
    row-major buffer of its shape, which rocMLIR assumes)."""

    rocmlir: MergeCollapse
    exact: Simplified[View]
    verdict: Verdict
    """``rocMLIR unsound``: the collapse changes the address of a valid point (``witness``);
    ``rocMLIR conservative``: ``simplify``'s chain has fewer Merge members (unit members aside)
    than the collapse leaves: a group it does not collapse, or a Merge that need not be there at
    all; ``equal`` otherwise (``exact`` may still be shorter for other reasons)."""
    witness: tuple[int, ...] | None = None
    """A valid view point whose address the collapsed chain changes."""
    addresses: tuple[int, int] | None = None
    """The witness's address before and after the collapse."""

    def __str__(self) -> str:
        if self.witness is not None and self.addresses is not None:
            before, after = self.addresses
            return (f"rocMLIR unsound: its collapse ({', '.join(map(str, self.rocmlir.collapsed))}) "
                    f"sends valid point {list(self.witness)} to address {after} instead of {before}")
        if self.verdict == "rocMLIR conservative":
            return (f"rocMLIR conservative: {_members(self.rocmlir.maps)} Merge members after its "
                    f"collapse, {_members(self.exact.maps)} after simplify ({self.exact})")
        return "equal: " + ("nothing to collapse" if not self.rocmlir.collapsed else
                            ", ".join(map(str, self.rocmlir.collapsed)))


def compare_collapse(view: View, *, timeout: float | None = 60.0) -> CollapseComparison:
    """rocMLIR's ``collapseContiguousMerges`` (the port) beside ``simplify``, on one view.

    The view is read over the row-major buffer of its shape, as rocMLIR does. Whether the
    collapse keeps every valid point's address is decided by ISL (``timeout`` seconds at most,
    ``QueryTimeoutError`` beyond).

    Example: rocMLIR's ``@test_basic_unmerge`` (``Merge{4, 3, 2}`` over ``memref<4x3x2x5xf32>``):
    rocMLIR makes it ``Merge{1, 1, 24}``, ``simplify`` needs no map at all over
    ``memref<24x5xf32>``: rocMLIR conservative.
    """
    if not isinstance(view, View):
        raise InvalidArgumentError(f"compare_collapse: expected a View, got {view!r}")
    row_major = View(Buffer(view.buffer.shape, view.buffer.dtype), view.maps, strict=view.strict)
    theirs = rocmlir_collapse_merges(row_major)
    ours = simplify(row_major, timeout=timeout)
    if theirs.collapsed:
        witness = run_bounded(_changed_address, (row_major, theirs.maps), timeout, "compare_collapse")
        if witness is not None:
            before = row_major.address(witness)
            after = int(unchecked_addresses(theirs.maps, row_major.buffer, np.array([witness]))[0])
            return CollapseComparison(theirs, ours, "rocMLIR unsound", witness,
                                      (before if before is not None else after, after))
    fewer = _members(ours.maps) < _members(theirs.maps)
    return CollapseComparison(theirs, ours, "rocMLIR conservative" if fewer else "equal")


def _members(maps: Sequence[TransformMap]) -> int:
    """Merge members of size other than 1, over the chain."""
    return sum(1 for tm in maps for op in tm.ops if isinstance(op, Merge) for s in op.params if s != 1)


def _changed_address(view: View, collapsed: tuple[TransformMap, ...]) -> tuple[int, ...] | None:
    """A valid point of ``view`` where ``collapsed`` (no bounds checks) gives another address."""
    before = address_function(view)
    after, _ = total_address_and_checks(View(view.buffer, collapsed, strict=False))
    where = before.ne_set(isl.PwAff.from_aff(after))
    if where.is_empty():
        return None
    return point_coords(where.sample_point(), view.rank)


# }}}
