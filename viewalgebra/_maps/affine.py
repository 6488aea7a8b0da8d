"""MLIR affine expressions and maps: small frozen trees, MLIR-style printing, scalar evaluation.

Only what transform maps need: dims, constants, ``+``, multiplication by a constant, ``floordiv``,
``ceildiv`` and ``mod`` by a positive constant. The builders (``add``, ``mul``, ``floordiv``, ``mod``)
apply the few simplifications MLIR applies to rocMLIR's maps, so printed maps read like rocMLIR's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class DimExpr:
    """The dim ``d<index>``."""

    index: int


@dataclass(frozen=True, slots=True)
class ConstExpr:
    """An integer constant."""

    value: int


@dataclass(frozen=True, slots=True)
class BinaryExpr:
    """``lhs op rhs``; for everything but ``+`` the right side is a constant."""

    op: Literal["+", "*", "floordiv", "ceildiv", "mod"]
    lhs: AffineExpr
    rhs: AffineExpr


AffineExpr = DimExpr | ConstExpr | BinaryExpr


@dataclass(frozen=True, slots=True)
class AffineMap:
    """``affine_map<(d0, ..., d{n-1}) -> (results)>`` (no symbols)."""

    num_dims: int
    results: tuple[AffineExpr, ...]

    def __str__(self) -> str:
        dims = ", ".join(f"d{i}" for i in range(self.num_dims))
        return f"({dims}) -> ({', '.join(print_expr(r) for r in self.results)})"


def dim(i: int) -> AffineExpr:
    return DimExpr(i)


def const(c: int) -> AffineExpr:
    return ConstExpr(c)


def add(a: AffineExpr, b: AffineExpr) -> AffineExpr:
    """``a + b``, folding constants."""
    if isinstance(b, ConstExpr) and b.value == 0:
        return a
    if isinstance(a, ConstExpr) and a.value == 0:
        return b
    if isinstance(a, ConstExpr) and isinstance(b, ConstExpr):
        return ConstExpr(a.value + b.value)
    if isinstance(a, ConstExpr):
        a, b = b, a
    return BinaryExpr("+", a, b)


def mul(a: AffineExpr, c: int) -> AffineExpr:
    """``a * c``."""
    if c == 0:
        return ConstExpr(0)
    if c == 1:
        return a
    if isinstance(a, ConstExpr):
        return ConstExpr(a.value * c)
    return BinaryExpr("*", a, ConstExpr(c))


def floordiv(a: AffineExpr, c: int) -> AffineExpr:
    """``a floordiv c`` for ``c > 0``."""
    if c == 1:
        return a
    if isinstance(a, ConstExpr):
        return ConstExpr(a.value // c)
    return BinaryExpr("floordiv", a, ConstExpr(c))


def mod(a: AffineExpr, c: int) -> AffineExpr:
    """``a mod c`` for ``c > 0``; ``(x mod m) mod c`` is ``x mod c`` when ``c`` divides ``m``."""
    if c == 1:
        return ConstExpr(0)
    if isinstance(a, ConstExpr):
        return ConstExpr(a.value % c)
    if (isinstance(a, BinaryExpr) and a.op == "mod" and isinstance(a.rhs, ConstExpr)
            and a.rhs.value % c == 0):
        a = a.lhs
    return BinaryExpr("mod", a, ConstExpr(c))


def evaluate_expr(e: AffineExpr, coords: tuple[int, ...]) -> int:
    """The value of ``e`` at integer ``coords`` (floor semantics, as MLIR)."""
    if isinstance(e, DimExpr):
        return coords[e.index]
    if isinstance(e, ConstExpr):
        return e.value
    lhs = evaluate_expr(e.lhs, coords)
    rhs = evaluate_expr(e.rhs, coords)
    if e.op == "+":
        return lhs + rhs
    if e.op == "*":
        return lhs * rhs
    if e.op == "floordiv":
        return lhs // rhs
    if e.op == "ceildiv":
        return -(-lhs // rhs)
    return lhs % rhs


def print_expr(e: AffineExpr, strong: bool = False, names: Sequence[str] | None = None) -> str:
    """MLIR's spelling; ``strong`` parenthesizes a binary expression (operand of ``*``-like ops).

    ``names`` replaces ``d<i>`` by ``names[i]``.
    """
    if isinstance(e, DimExpr):
        return names[e.index] if names is not None else f"d{e.index}"
    if isinstance(e, ConstExpr):
        return str(e.value)
    if e.op == "+":
        text = print_expr(e.lhs, names=names) + _print_addend(e.rhs, names)
    elif e.op == "*" and e.rhs == ConstExpr(-1):
        text = f"-{print_expr(e.lhs, True, names)}"
    else:
        text = f"{print_expr(e.lhs, True, names)} {e.op} {print_expr(e.rhs, True, names)}"
    return f"({text})" if strong else text


def _print_addend(e: AffineExpr, names: Sequence[str] | None) -> str:
    if isinstance(e, ConstExpr) and e.value < 0:
        return f" - {-e.value}"
    if (isinstance(e, BinaryExpr) and e.op == "*" and isinstance(e.rhs, ConstExpr)
            and e.rhs.value < 0):
        if e.rhs.value == -1:
            return f" - {print_expr(e.lhs, True, names)}"
        return f" - {print_expr(e.lhs, True, names)} * {-e.rhs.value}"
    return f" + {print_expr(e, names=names)}"
