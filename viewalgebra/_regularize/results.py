"""What the regularizer answers with: the log of rewrites, the result, and a view left between an
allocation and a fusing op (docs/regularize.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .._kernel.graph import Kernel

Rule = Literal["R1", "R2", "fill", "stop", "input path", "output path", "copy"]


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One entry of the log."""

    rule: Rule
    buffer: str
    op: str
    moved: tuple[str, ...] = ()
    """The maps that moved, in rocMLIR syntax."""
    note: str = ""

    def __str__(self) -> str:
        moved = f"; moved {len(self.moved)} map(s)" if self.moved else ""
        return f"{self.rule} on %{self.buffer} at {self.op}{moved}" + (f": {self.note}" if self.note else "")


@dataclass(frozen=True, slots=True, eq=False)
class Regularized:
    """The result of ``regularize``: a new kernel, its fusing ops, and the log of rewrites."""

    kernel: Kernel
    fusing: frozenset[str]
    log: tuple[Rewrite, ...]


@dataclass(frozen=True, slots=True)
class Violation:
    """A view between an intermediate allocation and a fusing op that uses it."""

    buffer: str
    op: str
    value: str
    maps: int

    def __str__(self) -> str:
        return f"%{self.value} ({self.maps} map(s)) between %{self.buffer} and fusing op {self.op}"
