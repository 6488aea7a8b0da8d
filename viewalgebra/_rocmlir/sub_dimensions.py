"""A port of rocMLIR's ``getLowerSubDimensions`` and its comparison with the exact
``sub_dimensions`` (docs/sub-dimensions.md).

Both follow ``mlir/lib/Dialect/Rock/utility/transformMapUtils.cpp`` of ROCm/rocMLIR (the version
whose ``getLowerSubDimensions`` reads only the first dim of a Broadcast and floors a Merge's partial
overlap), rule for rule: where rocMLIR returns ``failure()`` the ports return ``None`` with the
reason, where it would assert they do the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import islpy as isl

from .._analyses.sub_dimensions import SubDimensions, chain_of, sub_dimensions, upper_dim
from .._engine.budget import check_timeout, run_bounded
from .._maps.equations import affine_map_of
from .._maps.relations import CTX, affine_function, box, point_coords, val
from .._maps.transform_map import TransformMap
from .._maps.transforms import (
    AddDim,
    Broadcast,
    ConstDim,
    Embed,
    Merge,
    Pad,
    PassThrough,
    Slice,
    Unmerge,
)
from .common import Verdict

SubDimInfo = tuple[int, int]
"""rocMLIR's ``SubDimInfo{size, stride}``."""



# {{{ getLowerSubDimensions


@dataclass(frozen=True, slots=True)
class RocmlirSubDimensions:
    """What the port of ``getLowerSubDimensions`` returns: per lower dim its ``SubDimInfo``
    list, or a failure with rocMLIR's reason.

    Example: ``Merge{4, 8}`` over ``[32] -> [4, 8]``, dim 0: ``info=((0, ((4, 1),)), (1, ((8, 1),)))``;
    a Pad: ``info=None, reason="Unsupported transform type : Pad"``.
    """

    info: tuple[tuple[int, tuple[SubDimInfo, ...]], ...] | None
    """``(lower dim of the bottom, (size, stride) pairs in rocMLIR's order)`` by lower dim
    (``None``: failure)."""
    reason: str | None = None
    """Why rocMLIR fails (``None`` when it answers)."""

    def as_dict(self) -> dict[int, tuple[SubDimInfo, ...]] | None:
        """rocMLIR's map from lower dim to pairs (``None``: failure)."""
        return None if self.info is None else dict(self.info)

    def pairs_at(self, dim: int) -> tuple[SubDimInfo, ...]:
        """The pairs at one lower dim (none where rocMLIR has none or fails)."""
        return dict(self.info or ()).get(dim, ())

    def moved(self) -> tuple[int, ...]:
        """The lower dims rocMLIR says the upper dims move (a pair of size > 1, as its callers
        read it)."""
        return tuple(d for d, pairs in self.info or () if any(s > 1 for s, _ in pairs))


def row_major_strides(sizes: Sequence[int]) -> list[int]:
    """rocMLIR's ``getStrides``: row-major strides of the sizes (the first size unused)."""
    return [math.prod(sizes[i + 1:]) for i in range(len(sizes))]


def rocmlir_lower_sub_dimensions(chain: object,
                                 dims: int | str | Sequence[int | str]) -> RocmlirSubDimensions:
    """rocMLIR's ``getLowerSubDimensions(b, transforms, dims)``: starting from ``{bound, 1}`` at each
    upper dim of bound other than 1, push the ``(size, stride)`` pairs through each map, top first.

    Slice and PassThrough move the pairs to their lower dim; Unmerge multiplies the stride by the
    upper dim's place value; Merge intersects each pair with each lower dim's place-value range
    (integer division where they partly overlap); Broadcast gives its first lower dim
    ``{length, stride}`` for each pair of its first upper dim (its other dims are not read);
    AddDim and ConstDim drop them; Pad and Embed make it fail.

    Example: ``Broadcast{1}`` over ``[16] -> [1]``: dim 0 gives ``((0, ((1, 1),)),)``, a pair of
    size 1 at lower dim 0 (no movement).
    """
    c = chain_of(chain, "rocmlir_lower_sub_dimensions")
    wanted = [dims] if isinstance(dims, int | str) else list(dims)
    indices = [upper_dim(c, d, "rocmlir_lower_sub_dimensions") for d in wanted]
    current: dict[int, list[SubDimInfo]] = {}
    top = c.maps[0].upper_bounds
    for d in indices:
        if top[d] == 1:
            continue
        current.setdefault(d, []).append((top[d], 1))
    for m in c.maps:
        step = _next_sub_dims(m, current)
        if isinstance(step, str):
            return RocmlirSubDimensions(None, step)
        current = step
    return RocmlirSubDimensions(tuple((d, tuple(v)) for d, v in sorted(current.items())))


def _next_sub_dims(m: TransformMap,
                   current: dict[int, list[SubDimInfo]]) -> dict[int, list[SubDimInfo]] | str:
    out: dict[int, list[SubDimInfo]] = {}
    for op in m.ops:
        match op:
            case Slice() | PassThrough():
                to_lower = dict(zip(op.upper_dims, op.lower_dims, strict=True))
                for dim, infos in current.items():
                    if dim in to_lower:
                        out[to_lower[dim]] = list(infos)
            case Merge():
                strides = row_major_strides(op.params)
                upper = op.upper_dims[0]
                for low, st, size in zip(op.lower_dims, strides, op.params, strict=True):
                    for info_size, info_stride in current.get(upper, []):
                        if info_stride > st * size or info_stride * info_size < st:
                            continue
                        top = st * size
                        if info_stride * info_size >= top:
                            rhs = max(info_stride, st)
                            new_size, new_stride = top // rhs, rhs // st
                        elif info_stride >= st:
                            new_size, new_stride = info_size, info_stride // st
                        else:
                            new_size, new_stride = info_stride * info_size // st, 1
                        if new_size > 1:
                            out.setdefault(low, []).append((new_size, new_stride))
            case Unmerge():
                strides = row_major_strides(op.params)
                low = op.lower_dims[0]
                for upper, st in zip(op.upper_dims, strides, strict=True):
                    for info_size, info_stride in current.get(upper, []):
                        if info_size > 1:
                            out.setdefault(low, []).append((info_size, info_stride * st))
            case Broadcast():
                length, low, upper = op.params[0], op.lower_dims[0], op.upper_dims[0]
                for _, info_stride in current.get(upper, []):
                    out.setdefault(low, []).append((length, info_stride))
            case AddDim() | ConstDim():
                pass
            case Pad() | Embed():
                return f"Unsupported transform type : {op.kind}"
    return out


# }}}


# {{{ comparison of sub-dimensions


@dataclass(frozen=True, slots=True)
class SubDimensionsComparison:
    """The exact sub-dimensions of one upper dim beside rocMLIR's, with a verdict.

    Example: ``str(compare_sub_dimensions(chain, "column"))`` on rocMLIR's MisalignedMerge unit
    test reads ``rocMLIR unsound: lower dim 0 moves by ... rocMLIR's pairs [] at lower dim 0
    cannot make that step``.
    """

    verdict: Verdict
    exact: SubDimensions
    rocmlir: RocmlirSubDimensions
    lower_dim: int | None = None
    """The lower dim where rocMLIR's answer is wrong or loose (``None``: equal, or rocMLIR fails)."""
    witness: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """Where unsound: two upper points differing only in the dim asked about whose lower
    coordinates at ``lower_dim`` differ by an amount rocMLIR's pairs cannot make."""
    reason: str | None = None

    def __str__(self) -> str:
        return self.verdict + (f": {self.reason}" if self.reason else "")


def compare_sub_dimensions(chain: object, dim: int | str, *,
                           timeout: float | None = 60.0) -> SubDimensionsComparison:
    """The exact sub-dimensions of ``dim`` beside the port of rocMLIR's ``getLowerSubDimensions``.

    rocMLIR's pairs ``{(n_i, s_i)}`` at a lower dim claim that moving the upper dim changes that
    lower coordinate by some ``sum_i e_i s_i`` with ``|e_i| < n_i`` (a lower dim it omits: by 0).
    **unsound**: two points of the box, differing only in ``dim``, whose lower coordinates differ
    by an amount outside that set (``witness``); **conservative**: no such points but rocMLIR's
    pairs are not the exact pieces (or it fails); **equal**: its pairs are the exact pieces, both
    read as claims (pairs of size 1 dropped, a pair continuing another merged: ``(3, 1), (8, 3)``
    is ``(24, 1)``).

    Example: ``Merge{32, 10}`` below ``Unmerge{20, 16}`` (rocMLIR's MisalignedMerge unit test):
    rocMLIR drops the group dim (``16 / 10`` floors to 1), yet column 0 -> 10 moves it: unsound.
    """
    c = chain_of(chain, "compare_sub_dimensions")
    d = upper_dim(c, dim, "compare_sub_dimensions")
    check_timeout(timeout, "compare_sub_dimensions")
    exact = sub_dimensions(c, d, timeout=timeout)
    port = rocmlir_lower_sub_dimensions(c, d)
    if port.info is None:
        return SubDimensionsComparison("rocMLIR conservative", exact, port,
                                       reason=f"rocMLIR fails: {port.reason}")
    claims = {j: _merged(pairs) for j, pairs in port.info}
    found = run_bounded(_outside_claims, (c.maps, d, claims), timeout, "compare_sub_dimensions")
    if found is not None:
        j, x, y, step = found
        return SubDimensionsComparison("rocMLIR unsound", exact, port, j, (x, y), (
            f"lower dim {j} moves by {step} from {list(x)} to {list(y)}; rocMLIR's pairs "
            f"{list(claims.get(j, ()))} at lower dim {j} cannot make that step"))
    for dep in exact.lower:
        mine = _merged(tuple((p.size, p.stride) for p in dep.pieces or ()))
        if dep.pieces is None or mine != claims.get(dep.dim, ()):
            exact_text = "not affine-strided" if dep.pieces is None else str(list(mine))
            return SubDimensionsComparison("rocMLIR conservative", exact, port, dep.dim, reason=(
                f"lower dim {dep.dim}: rocMLIR {list(claims.get(dep.dim, ()))}, exact {exact_text}"))
    return SubDimensionsComparison("equal", exact, port)


def _merged(pairs: tuple[SubDimInfo, ...]) -> tuple[SubDimInfo, ...]:
    """Pairs of size > 1 by stride, each run that continues the one before (``s' = n s``) merged:
    ``(3, 1), (8, 3)`` and ``(24, 1)`` claim the same steps."""
    out: list[SubDimInfo] = []
    for n, s in sorted(p for p in pairs if p[0] > 1):
        if out and s == out[-1][0] * out[-1][1]:
            out[-1] = (out[-1][0] * n, out[-1][1])
        else:
            out.append((n, s))
    return tuple(out)


def _claimed_steps(pairs: tuple[SubDimInfo, ...]) -> isl.Set:
    """``{ [v] : v = sum_i e_i s_i, |e_i| < n_i }``."""
    if not pairs:
        return isl.Set("{ [v] : v = 0 }", CTX)
    names = [f"e{i}" for i in range(len(pairs))]
    terms = " + ".join(f"{s} * {e}" for (_, s), e in zip(pairs, names, strict=True))
    bounds = " and ".join(f"{-(n - 1)} <= {e} <= {n - 1}" for (n, _), e in zip(pairs, names, strict=True))
    return isl.Set(f"{{ [v] : exists ({', '.join(names)} : v = {terms} and {bounds}) }}", CTX)


def _outside_claims(maps: tuple[TransformMap, ...], d: int, claims: dict[int, tuple[SubDimInfo, ...]]
                    ) -> tuple[int, tuple[int, ...], tuple[int, ...], int] | None:
    """A lower dim and two points (differing at ``d``) whose step is outside rocMLIR's claim."""
    shape = maps[0].upper_bounds
    rank = len(shape)
    # points (x, t'): x in the box, t' in [0, bound_d); y = x with x_d = t'
    pair_space = isl.Space.set_alloc(CTX, 0, rank + 1)
    ls = isl.LocalSpace.from_space(pair_space)
    ext = box((*shape, shape[d]))
    comp = isl.MultiAff.identity(isl.Space.alloc(CTX, 0, rank, rank))
    for m in maps:
        comp = affine_function(affine_map_of(m)).pullback_multi_aff(comp)
    affs_x = isl.AffList.alloc(CTX, rank)
    affs_y = isl.AffList.alloc(CTX, rank)
    for k in range(rank):
        affs_x = affs_x.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, k))
        affs_y = affs_y.add(isl.Aff.var_on_domain(ls, isl.dim_type.set, rank if k == d else k))
    to_space = isl.Space.alloc(CTX, 0, rank + 1, rank)
    as_x = isl.MultiAff.from_aff_list(to_space, affs_x)
    as_y = isl.MultiAff.from_aff_list(to_space, affs_y)
    zero = isl.Aff.zero_on_domain(ls)
    for j in range(maps[-1].lower_rank):
        lj = comp.get_at(j)
        step = lj.pullback_multi_aff(as_y).sub(lj.pullback_multi_aff(as_x))
        values = isl.Map.from_pw_aff(isl.PwAff.from_aff(step).intersect_domain(ext)).range()
        outside = values - _claimed_steps(claims.get(j, ()))
        if outside.is_empty():
            continue
        v = point_coords(outside.sample_point(), 1)[0]
        where = ext & step.eq_set(zero.add_constant_val(val(v)))
        p = point_coords(where.sample_point(), rank + 1)
        x = p[:rank]
        y = tuple(p[rank] if k == d else c for k, c in enumerate(x))
        return j, x, y, v
    return None


# }}}


