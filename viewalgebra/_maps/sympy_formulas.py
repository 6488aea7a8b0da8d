"""Symbolic formulas of maps, chains and views: the affine equations composed and turned into SymPy.

``compose_affine`` and ``chain_affine_map`` compose the compiled equations (``affine_map_of``) on the
small expression trees of ``affine.py``; ``to_sympy`` turns one expression into SymPy with integer
symbols; ``sympy_formulas`` gives one ``Eq(lower, expression)`` per lower dim (for a view: the buffer
address). The formulas do not encode validity: at a padding point they still give the coordinates
(or address) the equations compute, as ``evaluate`` does.

Evaluate them exactly (``subs``/``xreplace`` with integers): ``sympy.lambdify`` prints ``u0/49`` as
the float ``(1/49)*u0``, so ``floor(u0/49)`` at 49 gives 0, and its ``math`` printer writes
``-2*Mod(u0, 3)`` as ``-2*u0 % 3`` (sympy/sympy#30389).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, cast

import sympy

from ..errors import InvalidTransformError, TooComplexError
from . import affine as A
from .chain import Chain
from .equations import affine_map_of
from .transform_map import TransformMap
from .view import View


def compose_affine(outer: A.AffineMap, inner: A.AffineMap) -> A.AffineMap:
    """``outer(inner(x))``: ``outer``'s dims replaced by ``inner``'s results, constants folded.

    Example: ``Unmerge{4, 8}`` gives ``(d0, d1) -> (d0 * 8 + d1)`` and ``Merge{4, 8}`` gives
    ``(d0) -> (d0 floordiv 8, d0 mod 8)``; ``compose_affine(unmerge, merge)`` is
    ``(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)``.
    """
    if outer.num_dims != len(inner.results):
        raise InvalidTransformError(
            f"compose_affine: dims of outer map ({outer.num_dims}) != "
            f"results of inner map ({len(inner.results)})")
    composed = A.AffineMap(inner.num_dims, tuple(_substitute(e, inner.results) for e in outer.results))
    sizes: dict[int, int] = {}
    for e in composed.results:
        if _tree_size(e, sizes) > MAX_TERMS:
            raise TooComplexError(
                f"compose_affine: a composed expression has more than {MAX_TERMS} terms (chains that "
                "merge and unmerge many times grow exponentially as formulas; their ISL relations "
                "do not)")
    return composed


MAX_TERMS = 20_000
"""Largest expression (counted as a tree) a composition may produce."""


def _tree_size(e: A.AffineExpr, sizes: dict[int, int]) -> int:
    """Nodes of ``e`` as a tree; ``e`` is a DAG (composition shares subexpressions), so sizes are
    memoized by node identity and the walk is linear in the DAG."""
    stack: list[tuple[A.AffineExpr, bool]] = [(e, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in sizes:
            continue
        if not isinstance(node, A.BinaryExpr):
            sizes[id(node)] = 1
        elif expanded:
            sizes[id(node)] = 1 + sizes[id(node.lhs)] + sizes[id(node.rhs)]
        else:
            stack += [(node, True), (node.lhs, False), (node.rhs, False)]
    return sizes[id(e)]


def _substitute(e: A.AffineExpr, values: tuple[A.AffineExpr, ...]) -> A.AffineExpr:
    if isinstance(e, A.DimExpr):
        return values[e.index]
    if isinstance(e, A.ConstExpr):
        return e
    lhs = _substitute(e.lhs, values)
    if e.op == "+":
        return A.add(lhs, _substitute(e.rhs, values))
    c = _constant_rhs(e)
    if e.op == "*":
        return A.mul(lhs, c)
    if e.op == "floordiv":
        return A.floordiv(lhs, c)
    if e.op == "mod":
        return A.mod(lhs, c)
    # ceildiv has no builder in affine.py; fold the same cases floordiv folds.
    if c == 1:
        return lhs
    if isinstance(lhs, A.ConstExpr):
        return A.const(-(-lhs.value // c))
    return A.BinaryExpr("ceildiv", lhs, A.const(c))


def _constant_rhs(e: A.BinaryExpr) -> int:
    """The constant right side of a non-``+`` expression; positive for the divisions."""
    if not isinstance(e.rhs, A.ConstExpr):
        raise InvalidTransformError(f"not affine: {A.print_expr(e)}")
    c = e.rhs.value
    if e.op != "*" and c <= 0:
        raise InvalidTransformError(f"division by the non-positive constant {c}: {A.print_expr(e)}")
    return c


def chain_affine_map(maps: Chain | Sequence[TransformMap]) -> A.AffineMap:
    """The composite of a top-first chain: from the top map's upper space to the bottom's lower space.

    Example: ``[<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]> bounds = [32] -> [4, 8],
    <Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]> bounds = [4, 8] -> [32]]`` gives
    ``(d0) -> ((d0 floordiv 8) * 8 + d0 mod 8)``, the identity on ``[0, 32)``.
    """
    maps = maps.maps if isinstance(maps, Chain) else tuple(maps)  # ranks only: lenient chains too
    if not maps:
        raise InvalidTransformError("chain_affine_map: the chain has no maps")
    result = _checked_map(maps[0], 0)
    for k, tm in enumerate(maps[1:], start=1):
        if tm.upper_rank != len(result.results):
            raise InvalidTransformError(
                f"chain_affine_map: lower rank of map {k - 1} ({len(result.results)}) != "
                f"upper rank of map {k} ({tm.upper_rank})")
        result = compose_affine(_checked_map(tm, k), result)
    return result


def _checked_map(tm: object, k: int) -> A.AffineMap:
    if not isinstance(tm, TransformMap):
        raise InvalidTransformError(f"chain_affine_map: map {k} is not a TransformMap: {tm!r}")
    return affine_map_of(tm)


def to_sympy(expr: A.AffineExpr, symbols: Sequence[sympy.Symbol]) -> sympy.Expr:
    """``expr`` as a SymPy expression, ``d<i>`` being ``symbols[i]`` (which stands for an integer).

    ``floordiv`` becomes ``floor(a/c)``, ``ceildiv`` ``ceiling(a/c)``, ``mod`` ``Mod(a, c)``. Terms of
    ``a`` whose coefficient ``c`` divides are taken out of the floor, and the rest of a sum stays
    over its divisor: ``floor((u0 - 3)/8)``, not ``floor(u0/8 - 3/8)``. Each ``Mod`` is rewritten as
    ``a - c*floor(a/c)`` when that makes the whole expression shorter (a Merge under an Unmerge
    folds back to its input).
    Example: for ``<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>``, the result
    ``d0 floordiv 8`` gives ``floor(u0/8)`` with ``symbols = [Symbol("u0")]``.
    """
    symbols = tuple(symbols)
    plain = _to_sympy(expr, symbols, mod_as_floor=False)
    if not plain.atoms(sympy.Mod):
        return plain
    rewritten = _to_sympy(expr, symbols, mod_as_floor=True)
    return rewritten if _size(rewritten) < _size(plain) else plain


def _size(e: sympy.Basic) -> int:
    """Number of nodes of the expression tree."""
    return 1 + sum(_size(a) for a in e.args)


def _to_sympy(e: A.AffineExpr, symbols: tuple[sympy.Symbol, ...], mod_as_floor: bool) -> sympy.Expr:
    if isinstance(e, A.DimExpr):
        if not 0 <= e.index < len(symbols):
            raise InvalidTransformError(
                f"to_sympy: dim d{e.index} but only {len(symbols)} symbols")
        return symbols[e.index]
    if isinstance(e, A.ConstExpr):
        return sympy.Integer(e.value)
    lhs = _to_sympy(e.lhs, symbols, mod_as_floor)
    if e.op == "+":
        return lhs + _to_sympy(e.rhs, symbols, mod_as_floor)
    c = _constant_rhs(e)
    if e.op == "*":
        return lhs * c
    if e.op == "floordiv":
        return _divide(lhs, c, ceiling=False)
    if e.op == "ceildiv":
        return _divide(lhs, c, ceiling=True)
    if mod_as_floor:
        return lhs - c * _divide(lhs, c, ceiling=False)
    return sympy.Mod(lhs, c)


def _divide(a: sympy.Expr, c: int, *, ceiling: bool) -> sympy.Expr:
    """``floor(a/c)`` (or ``ceiling``) for an integer-valued ``a`` and ``c > 0``."""
    if c == 1:
        return a
    # Every term of ``a`` is an integer coefficient times an integer-valued factor, so a term whose
    # coefficient c divides leaves the floor exactly.
    whole: list[sympy.Expr] = []
    rest: list[sympy.Expr] = []
    for term in sympy.Add.make_args(a):
        coeff, factor = term.as_coeff_Mul()
        if coeff.is_Integer and int(coeff) % c == 0:
            whole.append(sympy.Integer(int(coeff) // c) * factor)
        else:
            rest.append(term)
    remainder = sympy.Add(*rest)
    # Keep ``(u0 - 3)/8`` unevaluated: sympy would distribute the 1/8 over the sum.
    quotient = (sympy.Mul(sympy.Rational(1, c), remainder, evaluate=False) if len(rest) > 1
                else remainder / c)
    rounded = sympy.ceiling(quotient) if ceiling else sympy.floor(quotient)
    return sympy.Add(*whole, rounded)


def sympy_formulas(x: TransformMap | Chain | Sequence[TransformMap] | View, *,
                   upper: Sequence[str] | None = None,
                   lower: Sequence[str] | None = None) -> tuple[sympy.Eq, ...]:
    """One ``Eq(lower_symbol, expression of the upper symbols)`` per lower dim.

    ``x`` is a map, a chain (or maps listed top first; composed with ``chain_affine_map``), or a view, whose
    single equation is ``address = offset + sum(stride_k * coord_k)`` through its maps. Symbols are
    ``u0, u1, ...`` (upper; integer, nonnegative) and ``l0, l1, ...`` (lower; integer, since padding
    gives negative coordinates) or ``address`` for a view, unless ``upper`` / ``lower`` name them.
    Example: ``<Unmerge{4, 8} ["a", "b"] at [0, 1] -> ["k"] at [0]>`` over ``[4, 8] -> [32]`` gives
    ``(Eq(l0, 8*u0 + u1),)``; ``<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>`` over
    ``[32] -> [4, 8]`` gives ``(Eq(l0, floor(u0/8)), Eq(l1, Mod(u0, 8)))``.
    """
    try:
        return _formulas(x, upper, lower)
    except RecursionError:  # the composed expressions of a very long chain
        raise TooComplexError(
            "sympy_formulas: the composed expressions are nested too deeply for symbolic formulas "
            f"(a chain of {1 if isinstance(x, TransformMap) else len(_chain(x))} maps)") from None


def _formulas(x: TransformMap | Chain | Sequence[TransformMap] | View, upper: Sequence[str] | None,
              lower: Sequence[str] | None) -> tuple[sympy.Eq, ...]:
    if isinstance(x, View):
        amap = _address_map(x)
        default_lower: tuple[str, ...] = ("address",)
    else:
        amap = affine_map_of(x) if isinstance(x, TransformMap) else chain_affine_map(x)
        default_lower = tuple(f"l{d}" for d in range(len(amap.results)))
    upper_names = _names(upper, tuple(f"u{d}" for d in range(amap.num_dims)), "upper")
    lower_names = _names(lower, default_lower, "lower")
    upper_symbols = tuple(sympy.Symbol(n, integer=True, nonnegative=True) for n in upper_names)
    # Eq must not evaluate: ``Eq(a, a)`` (a PassThrough keeping its name) would become ``True``.
    return tuple(
        cast(sympy.Eq, sympy.Eq(sympy.Symbol(n, integer=True), to_sympy(e, upper_symbols),
                                evaluate=False))
        for n, e in zip(lower_names, amap.results, strict=True))


def _chain(x: Chain | Sequence[TransformMap] | View) -> tuple[TransformMap, ...]:
    return tuple(x.maps) if isinstance(x, View | Chain) else tuple(x)


def _address_map(view: View) -> A.AffineMap:
    buffer = view.buffer
    address = A.const(buffer.offset)
    for k, stride in enumerate(buffer.strides or ()):
        address = A.add(address, A.mul(A.dim(k), stride))
    to_address = A.AffineMap(buffer.rank, (address,))
    if not view.maps:
        return to_address
    return compose_affine(to_address, chain_affine_map(view.maps))


def _names(given: Sequence[str] | None, default: tuple[str, ...], what: str) -> tuple[str, ...]:
    if given is None:
        return default
    if isinstance(given, str) or not all(isinstance(n, str) and n for n in given):
        raise InvalidTransformError(
            f"sympy_formulas: {what} names must be a sequence of non-empty strings, got {given!r}")
    names = tuple(given)
    if len(names) != len(default):
        raise InvalidTransformError(
            f"sympy_formulas: {len(names)} {what} names for {len(default)} {what} dims")
    if len(set(names)) != len(names):
        raise InvalidTransformError(f"sympy_formulas: duplicate {what} names {list(names)}")
    return names


def format_formulas(eqs: Sequence[sympy.Eq], notation: Literal["mlir", "sympy"] = "mlir"
                    ) -> tuple[str, ...]:
    """Each equation as ``"lhs = rhs"``, in MLIR's affine notation (``floordiv``, ``mod``, as
    rocMLIR prints its maps) or in SymPy's plain printing (``sympy.sstr``).

    Example: for ``<Merge{4, 8} ["k"] at [0] -> ["a", "b"] at [0, 1]>`` over ``[32] -> [4, 8]``,
    ``format_formulas(sympy_formulas(tm)) == ("l0 = u0 floordiv 8", "l1 = u0 mod 8")``; with
    ``notation="sympy"``, ``("l0 = floor(u0/8)", "l1 = Mod(u0, 8)")``.
    """
    if notation == "sympy":
        return tuple(f"{sympy.sstr(eq.lhs)} = {sympy.sstr(eq.rhs)}" for eq in eqs)
    return tuple(f"{mlir_text(cast(sympy.Expr, eq.lhs))} = {mlir_text(cast(sympy.Expr, eq.rhs))}"
                 for eq in eqs)


_ATOM, _PRODUCT, _SUM = 3, 2, 1
"""How tightly an expression binds, for parentheses."""


def mlir_text(e: sympy.Basic) -> str:
    """A SymPy formula (integer sums of symbols, ``floor`` of a quotient, ``Mod``) in MLIR's
    affine notation: ``d * 8``, ``x floordiv 8``, ``x mod 8``.

    Example: ``floor((u0 + 2*u1)/3)`` prints as ``(u0 + u1 * 2) floordiv 3``.
    """
    return _mlir(e)[0]


def _mlir(e: sympy.Basic) -> tuple[str, int]:
    if isinstance(e, sympy.Integer):
        return str(e), _ATOM if e >= 0 else _SUM
    if isinstance(e, sympy.Symbol):
        return e.name, _ATOM
    if isinstance(e, sympy.Add):
        terms = cast("list[sympy.Expr]", e.as_ordered_terms())  # pyright: ignore[reportUnknownMemberType]
        out = ""
        for t in terms:
            negative = bool(t.as_coeff_Mul()[0] < 0)
            magnitude = -t if negative else t
            if not out:
                out = f"-{_operand(magnitude, _PRODUCT)}" if negative else _operand(t, _SUM)
            else:
                out = f"{out} {'-' if negative else '+'} {_operand(magnitude, _PRODUCT)}"
        return out, _SUM
    if isinstance(e, sympy.Mul):
        coefficient, rest = cast("tuple[sympy.Expr, sympy.Expr]", e.as_coeff_Mul())
        if coefficient == -1:
            return f"-{_operand(rest, _PRODUCT)}", _SUM
        if coefficient != 1 and not rest.is_number:
            return f"{_operand(rest, _ATOM)} * {_mlir(coefficient)[0]}", _PRODUCT
    if isinstance(e, sympy.floor):
        quotient = _expanded(e.args[0])
        coefficients = cast("dict[sympy.Basic, sympy.Rational]",
                            quotient.as_coefficients_dict())  # pyright: ignore[reportUnknownMemberType]
        denominator = math.lcm(*(int(c.q) for c in coefficients.values()))
        numerator = _expanded(quotient * denominator)
        if denominator != 1:
            return f"{_operand(numerator, _ATOM)} floordiv {denominator}", _PRODUCT
        return _mlir(numerator)
    if isinstance(e, sympy.Mod):
        return f"{_operand(e.args[0], _ATOM)} mod {_mlir(e.args[1])[0]}", _PRODUCT
    return cast(str, sympy.sstr(e)), _ATOM  # nothing the equations produce; shown as SymPy has it


def _expanded(e: sympy.Expr) -> sympy.Expr:
    return cast("sympy.Expr", e.expand())  # pyright: ignore[reportUnknownMemberType]


def _operand(e: sympy.Basic, tightness: int) -> str:
    """``e`` as an operand that binds at least as tightly as ``tightness``."""
    text, binds = _mlir(e)
    return text if binds >= tightness else f"({text})"
