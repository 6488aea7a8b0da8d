"""The seed style's driver: patterns applied to a fixpoint (docs/regularize.md).

The driver owns the loop and the marking: it marks the fusing ops, asks each pattern in turn for a
match, applies the first one found, and marks again after a rewrite that can bring new ops in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._kernel.graph import Kernel
from ..errors import InternalError, RegularizeError
from .fusion import FusionIndex, mark, measure
from .invariant import unmodeled
from .patterns import R1, R2, Fill, Pattern, Stop
from .results import Regularized, Rewrite

SEED: tuple[Pattern[Any], ...] = (Fill(), R2(), R1())
"""The seed's patterns, in the order they are tried: a fresh allocation is filled before anything
else happens to it, and every op iterates over its anchor (R2) before an allocation is rewritten
(R1)."""


def regularize_seed(kernel: Kernel, max_iterations: int) -> Regularized:
    """R1 and R2 (``patterns.py``) to a fixpoint on a copy of ``kernel``."""
    index = FusionIndex(kernel.copy())
    _check_writers(index)
    log = apply_to_fixpoint(index, SEED, max_iterations)
    return Regularized(index.kernel, frozenset(index.anchors), log)


def apply_to_fixpoint(index: FusionIndex, patterns: Sequence[Pattern[Any]],
                      max_iterations: int) -> tuple[Rewrite, ...]:
    """Apply the first match of the first pattern that has one until none has; the log.

    Every rewrite must lower the measure (``fusion.measure``; docs/regularize.md, "Termination"),
    which is checked, so the loop ends. A ``Stop`` changes nothing but the operands left alone,
    which no pattern matches again, so it does not count as a rewrite.
    """
    log: list[Rewrite] = []
    rewrites = 0
    mark(index)
    while True:
        found = _first_match(index, patterns)
        if found is None:
            return tuple(log)
        pattern, match = found
        if isinstance(match, Stop):
            log.append(pattern.rewrite(index, match))
            continue
        before = measure(index)
        log.append(pattern.rewrite(index, match))
        after = measure(index)
        if not after < before:
            raise InternalError(
                f"internal: {log[-1]} did not lower the termination measure ({before} -> {after}; "
                "please report)")
        rewrites += 1
        if rewrites >= max_iterations:
            raise RegularizeError(
                f"regularize: no fixpoint after {max_iterations} rewrites ({len(index.kernel.ops)} ops); "
                f"the last: {log[-1]}")
        if pattern.remarks:
            mark(index)


def _first_match(index: FusionIndex, patterns: Sequence[Pattern[Any]]) -> tuple[Pattern[Any], object] | None:
    for pattern in patterns:
        match = pattern.match(index)
        if match is not None:
            return pattern, match
    return None


def _check_writers(g: FusionIndex) -> None:
    # An op the reader does not model may write what it names but is not counted as a second
    # writer: no rewrite changes its operands (a rewrite that would, refuses; docs/regularize.md).
    for a in g.kernel.allocs():
        readers, every = g.readers(a), g.writers(a)
        writers = [(op, v) for op, v in every if unmodeled(op) is None]
        if readers and not every:
            raise RegularizeError(
                f"%{a} is read by {readers[0][0].name} but no op writes it")
        if len(writers) > 1:
            raise RegularizeError(
                f"%{a} has several writers ({', '.join(op.name for op, _ in writers)}); "
                "regularize needs exactly one")
