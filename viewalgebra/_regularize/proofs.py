"""The ISL proofs of the regularizer's rewrites (docs/regularize.md): after a rewrite, an operand
reaches exactly the buffer elements it reached before (a write may lose only elements nobody
reads). Each runs in the worker process with a time bound."""

from __future__ import annotations

import islpy as isl

from .._engine.budget import run_bounded
from .._kernel.graph import Kernel
from .._maps.relations import box, chain_function, identity_on, point_coords, val
from .._maps.transform_map import TransformMap
from ..errors import InternalError

ISL_TIMEOUT = 60.0
"""Seconds of ISL work one proof or region check may take (``QueryTimeoutError`` beyond)."""

Operand = tuple[tuple[int, ...], tuple[TransformMap, ...]]
"""An operand on a buffer: its shape and its chain down to the buffer (empty: the buffer itself)."""


def access(shape: tuple[int, ...], chain: tuple[TransformMap, ...]) -> isl.Map:
    """What an operand of this shape reaches through the chain: point -> buffer coordinates."""
    if chain:
        return isl.Map.from_pw_multi_aff(chain_function(chain))
    return identity_on(box(shape))


def prove(shape: tuple[int, ...], before: tuple[TransformMap, ...], after: tuple[TransformMap, ...],
          *, exact: bool, what: str) -> None:
    """ISL's check that an operand reaches the same elements after a rewrite as before (``exact``),
    or only some of them; ``InternalError`` if not."""
    if not run_bounded(_same_access, (shape, before, after, exact), ISL_TIMEOUT, what):
        raise InternalError(f"internal: {what} failed its ISL proof (please report)")


def _same_access(shape: tuple[int, ...], before: tuple[TransformMap, ...],
                 after: tuple[TransformMap, ...], exact: bool) -> bool:
    old, new = access(shape, before), access(shape, after)
    return new.is_equal(old) if exact else new.is_subset(old)


def is_identity(shape: tuple[int, ...], chain: tuple[TransformMap, ...]) -> bool:
    """Whether ``chain``, from ``shape`` to a buffer of the same shape, sends every point to itself
    (so an operand can use the buffer directly instead)."""
    if not chain or chain[-1].lower_bounds != shape or chain[0].upper_bounds != shape:
        return not chain
    return run_bounded(_is_identity, (shape, chain), ISL_TIMEOUT, "whether a chain is the identity")


def _is_identity(shape: tuple[int, ...], chain: tuple[TransformMap, ...]) -> bool:
    return access(shape, chain).is_equal(identity_on(box(shape)))


def inside(k: Kernel, value: str, region: isl.Set) -> bool:
    """Whether every element that ``value`` reaches in its buffer lies in ``region``."""
    _, chain = k.chain(value)
    return run_bounded(_reaches_inside, (k.shape(value), chain, str(region)), ISL_TIMEOUT,
                       f"the region %{value} reaches")


def _reaches_inside(shape: tuple[int, ...], chain: tuple[TransformMap, ...], region: str) -> bool:
    reached = box(shape) if not chain else isl.Map.from_pw_multi_aff(chain_function(chain)).range()
    return reached.is_subset(isl.Set(region))


def unwritten_read(shape: tuple[int, ...], reads: tuple[Operand, ...], writes: tuple[Operand, ...]
                   ) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """The first of ``reads`` that reaches an element of a buffer of ``shape`` that none of
    ``writes`` reaches: its index, a point of it (valid: padding reaches no element) and the
    element; ``None`` if every element read is written."""
    if not reads or any(not chain for _, chain in writes):
        return None  # nothing read, or a write of the whole buffer
    return run_bounded(_unwritten, (shape, reads, writes), ISL_TIMEOUT,
                       "the elements read that no op writes")


def _unwritten(shape: tuple[int, ...], reads: tuple[Operand, ...], writes: tuple[Operand, ...]
               ) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    written = isl.Set.empty(box(shape).get_space())
    for s, chain in writes:
        written = written | access(s, chain).range()
    for i, (s, chain) in enumerate(reads):
        reached = access(s, chain)
        missing = reached.range() - written
        if missing.is_empty():
            continue
        element = point_coords(missing.lexmin().sample_point(), len(shape))
        at = box(shape)
        for d, c in enumerate(element):
            at = at.fix_val(isl.dim_type.set, d, val(c))
        point = point_coords(reached.intersect_range(at).domain().lexmin().sample_point(), len(s))
        return i, point, element
    return None
