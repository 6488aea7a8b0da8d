"""rocMLIR text syntax of one attribute or type: ``#rock.transform_map<...>``, ``affine_map<...>``,
``memref<...>`` types (the ``.mlir`` front end in ``viewalgebra/_mlir/`` reads whole files with the
same lexer and these parsers).

Parse errors are ``TransformParseError`` with the line and column and what was expected there;
verifier errors found while parsing are ``InvalidTransformError`` with the same location prefix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from ..errors import InvalidArgumentError, InvalidTransformError, TransformParseError, ViewAlgebraError
from . import affine as A
from .buffer import Buffer
from .equations import affine_map_of
from .lexer import Cursor, Token, tokenize
from .transform_map import TransformMap
from .transforms import TRANSFORM_TYPES, AnyTransform
from .types import parse_shaped_type

_T = TypeVar("_T")

MAX_NESTING = 100
"""Deepest nesting of parentheses and unary minuses an affine expression may have."""
MAX_OPERATIONS = 200
"""Most binary operations one result expression may have (rocMLIR's have a few dozen at most):
expressions are trees, and the functions that walk them recurse."""

class _Parser(Cursor):
    """Recursive descent over the tokens of one piece of text (``lexer.py``), from token ``pos``."""

    error_type = TransformParseError

    def __init__(self, text: str, tokens: list[Token] | None = None, pos: int = 0,
                 aliases: Mapping[str, A.AffineMap] | None = None, end: int | None = None) -> None:
        if not isinstance(text, str):
            raise InvalidArgumentError(f"expected rocMLIR text (a str), got {text!r}")
        super().__init__(text, tokenize(text, TransformParseError) if tokens is None else tokens, pos, end)
        self.aliases = dict(aliases or {})
        self.depth = 0
        """Parentheses and unary minuses open around the current point (bounded)."""
        self.operations = 0
        """Binary operations in the current result expression (bounded)."""

    # {{{ tokens

    def tok(self) -> Token:
        """The next token, or an ``eof`` token at the end."""
        tok = self.peek()
        if tok is None:
            return Token("eof", "", len(self.text) if self.end == len(self.tokens)
                         else self.tokens[self.end].offset, False)
        return tok

    def error(self, expected: str, tok: Token | None = None) -> TransformParseError:
        tok = tok or self.tok()
        found = "end of input" if tok.kind == "eof" else repr(tok.text)
        return TransformParseError(f"expected {expected}, found {found}", self.text, tok.offset)

    def integer(self, expected: str = "an integer") -> int:
        negative = self.accept("-")
        tok = self.tok()
        if tok.kind != "number" or not tok.text.isdigit():
            raise self.error(expected)
        self.next()
        return -int(tok.text) if negative else int(tok.text)

    def bracket_list(self, open_: str, close: str, item: Callable[[], _T], what: str) -> list[_T]:
        self.expect(open_, f"'{open_}' opening {what}")
        items: list[_T] = []
        if self.accept(close):
            return items
        while True:
            items.append(item())
            if self.accept(close):
                return items
            self.expect(",", f"',' or '{close}' in {what}")

    # }}}
    # {{{ affine maps

    def affine_map_ref(self) -> A.AffineMap:
        tok = self.tok()
        if tok.kind == "hash":
            self.next()
            name = tok.text[1:]
            if name not in self.aliases:
                raise TransformParseError(
                    f"undefined affine map alias #{name}", self.text, tok.offset)
            return self.aliases[name]
        self.expect("affine_map", "'affine_map' or an affine map alias such as '#map'")
        self.expect("<", "'<' after 'affine_map'")
        amap = self.affine_map_body()
        self.expect(">", "'>' closing the affine map")
        return amap

    def affine_map_body(self) -> A.AffineMap:
        dims = self.bracket_list("(", ")", self.ident, "the dimension list")
        if self.at("["):
            raise self.error("'->' (affine maps with symbols are not supported)")
        names = {d: i for i, d in enumerate(dims)}
        if len(names) != len(dims):
            raise self.error("distinct dimension names")
        self.expect("->", "'->' after the dimension list")
        results = self.bracket_list("(", ")", lambda: self.affine_expr(names), "the results")
        return A.AffineMap(len(dims), tuple(results))

    def ident(self) -> str:
        tok = self.tok()
        if tok.kind != "ident":
            raise self.error("an identifier")
        return self.next().text

    def count_operation(self, tok: Token) -> None:
        self.operations += 1
        if self.operations > MAX_OPERATIONS:
            raise TransformParseError(
                f"expression with more than {MAX_OPERATIONS} operations", self.text, tok.offset)

    def affine_expr(self, names: dict[str, int]) -> A.AffineExpr:
        if self.depth == 0:  # a whole result expression
            self.operations = 0
        expr = self.affine_term(names)
        while True:
            tok = self.tok()
            if tok.kind == "punct" and tok.text in ("+", "-"):
                self.count_operation(tok)
                self.next()
                rhs = self.affine_term(names)
            else:
                return expr
            expr = A.add(expr, rhs if tok.text[0] == "+" else A.mul(rhs, -1))

    def affine_term(self, names: dict[str, int]) -> A.AffineExpr:
        expr = self.affine_unary(names)
        while self.tok().text in ("*", "floordiv", "ceildiv", "mod") and self.tok().kind != "string":
            self.count_operation(self.tok())
            op_tok = self.next()
            rhs = self.affine_unary(names)
            if op_tok.text == "*":
                if isinstance(rhs, A.ConstExpr):
                    expr = A.mul(expr, rhs.value)
                elif isinstance(expr, A.ConstExpr):
                    expr = A.mul(rhs, expr.value)
                else:
                    raise TransformParseError(
                        "non-affine product: one side of '*' must be a constant",
                        self.text, op_tok.offset)
                continue
            if not isinstance(rhs, A.ConstExpr) or rhs.value <= 0:
                raise TransformParseError(
                    f"the right side of '{op_tok.text}' must be a positive constant",
                    self.text, op_tok.offset)
            if op_tok.text == "floordiv":
                expr = A.floordiv(expr, rhs.value)
            elif op_tok.text == "mod":
                expr = A.mod(expr, rhs.value)
            else:
                expr = A.BinaryExpr("ceildiv", expr, rhs)
        return expr

    def affine_unary(self, names: dict[str, int]) -> A.AffineExpr:
        tok = self.tok()
        if tok.text in ("-", "(") and tok.kind == "punct":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise TransformParseError(
                    f"expression nested deeper than {MAX_NESTING} levels", self.text, tok.offset)
            try:
                if self.accept("-"):
                    return A.mul(self.affine_unary(names), -1)
                self.next()
                expr = self.affine_expr(names)
                self.expect(")", "')' closing the parenthesized expression")
                return expr
            finally:
                self.depth -= 1
        if tok.kind == "number" and tok.text.isdigit():
            return A.const(int(self.next().text))
        if tok.kind == "ident" and tok.text in names:
            self.next()
            return A.dim(names[tok.text])
        raise self.error("a dimension, an integer or '('")

    # }}}
    # {{{ transforms

    def name(self) -> str:
        tok = self.tok()
        if tok.kind == "string":
            self.next()
            return _unquote(tok, self.text)
        if tok.kind == "ident" or tok.kind == "number" and tok.text.isdigit():
            return self.next().text
        raise self.error("a dimension name (quoted string or keyword)")

    def dim_index(self) -> int:
        tok = self.tok()
        if tok.kind != "number" or not tok.text.isdigit():
            raise self.error("a dimension index (non-negative integer)")
        return int(self.next().text)

    def transform(self) -> AnyTransform:
        # rocMLIR prints each transform bare inside a map, but its parser also takes the
        # attribute's own prefixed form (mlir/test/Dialect/Rock/ tests write both).
        self.accept("#rock.transform")
        start = self.expect("<", "'<' opening a transform")
        tok = self.tok()
        kind = tok.text if tok.kind == "ident" else ""
        if tok.kind == "string":
            kind = _unquote(tok, self.text)
        if kind not in TRANSFORM_TYPES:
            raise self.error(
                "a name of a known transform (" + ", ".join(TRANSFORM_TYPES) + ")")
        self.next()
        params: list[int] = []
        if self.at("{"):
            params = self.bracket_list("{", "}", self.integer, "the parameters")
        upper_names = self.bracket_list("[", "]", self.name, "the upper names")
        self.expect("at", "'at' after the upper names")
        upper_dims = self.bracket_list("[", "]", self.dim_index, "the upper dims")
        self.expect("->", "'->' between upper and lower dims")
        lower_names = self.bracket_list("[", "]", self.name, "the lower names")
        self.expect("at", "'at' after the lower names")
        lower_dims = self.bracket_list("[", "]", self.dim_index, "the lower dims")
        self.expect(">", "'>' closing the transform")
        try:
            return TRANSFORM_TYPES[kind](tuple(params), tuple(upper_names), tuple(upper_dims),
                                        tuple(lower_names), tuple(lower_dims))
        except InvalidTransformError as e:
            raise _located(e, self.text, start.offset) from None

    def transform_map(self, strict: bool) -> tuple[TransformMap, A.AffineMap]:
        """``[#rock.transform_map]<amap by [ops] bounds = [..] -> [..]>``."""
        self.accept("#rock.transform_map")
        start = self.expect("<", "'<' opening a transform map")
        amap = self.affine_map_ref()
        self.expect("by", "'by' after the affine map")
        ops = self.bracket_list("[", "]", self.transform, "the transform list")
        self.expect("bounds", "'bounds' after the transform list")
        self.expect("=", "'=' after 'bounds'")
        upper = self.bracket_list("[", "]", self.integer, "the upper bounds")
        self.expect("->", "'->' between upper and lower bounds")
        lower = self.bracket_list("[", "]", self.integer, "the lower bounds")
        self.expect(">", "'>' closing the transform map")
        try:
            if amap.num_dims != len(upper):
                raise InvalidTransformError(
                    f"Affine map has {amap.num_dims} inputs but there are {len(upper)} "
                    "input dimensions")
            if len(amap.results) != len(lower):
                raise InvalidTransformError(
                    f"Affine map has {len(amap.results)} outputs but there are {len(lower)} "
                    "output dimensions")
            tm = TransformMap(tuple(ops), tuple(upper), tuple(lower), strict)
        except InvalidTransformError as e:
            raise _located(e, self.text, start.offset) from None
        return tm, amap

    def finish(self) -> None:
        if self.peek() is not None:
            raise self.error("end of input")

    # }}}


def _unquote(token: Token, text: str) -> str:
    """An MLIR string literal's value: escapes ``\\n``, ``\\t``, ``\\"``, ``\\\\`` and ``\\XX`` (hex byte)."""
    out = bytearray()
    body = token.text[1:-1]
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        nxt = body[i + 1:i + 2]
        if nxt in ('"', "\\"):
            out += nxt.encode()
            i += 2
        elif nxt in ("n", "t"):
            out += b"\n" if nxt == "n" else b"\t"
            i += 2
        elif re.fullmatch(r"[0-9A-Fa-f]{2}", body[i + 1:i + 3]):
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
        else:
            raise TransformParseError("expected an escape: \\n, \\t, \\\", \\\\ or two hex digits",
                                      text, token.offset + 1 + i)
    try:
        return out.decode()
    except UnicodeDecodeError:
        raise TransformParseError("string is not valid UTF-8", text, token.offset) from None


def _quote(s: str) -> str:
    """MLIR's printed form of a string: printable ASCII as is, ``\\\\``, else ``\\XX`` per byte."""
    out: list[str] = []
    for byte in s.encode():
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:02X}")
    return '"' + "".join(out) + '"'


def _located(e: InvalidTransformError, text: str, offset: int) -> InvalidTransformError:
    loc = TransformParseError("", text, offset)
    located = InvalidTransformError(f"{loc.line}:{loc.column}: {e}")
    located.offset, located.reason = offset, str(e)
    return located


def parse_affine_map(text: str) -> A.AffineMap:
    """Parse ``affine_map<(d0, d1) -> (d0 floordiv 8, d1)>`` (or just the part inside ``<>``)."""
    p = _Parser(text)
    amap = p.affine_map_ref() if p.at("affine_map") else p.affine_map_body()
    p.finish()
    return amap


def parse_transform(text: str) -> AnyTransform:
    """Parse one transform: ``#rock.transform<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>``
    or the same without the ``#rock.transform`` prefix."""
    p = _Parser(text)
    t = p.transform()
    p.finish()
    return t


@dataclass(frozen=True, slots=True)
class ParsedMap:
    """A transform map read from text, with what the text said beside the ops."""

    map: TransformMap | None
    """The map, or ``None`` when it was rejected (see ``error``)."""
    written: A.AffineMap | None
    """The ``affine_map`` as written in the text (rocMLIR does not check it against the ops)."""
    line: int
    column: int
    name: str | None = None
    """The alias (``#transform_map0``) for an alias definition, else ``None``."""
    form: Literal["alias", "inline", "attribute"] = "attribute"
    """``alias``: ``#name = #rock.transform_map<...>``; ``inline``: ``rock.transform %x by <...>``;
    ``attribute``: ``#rock.transform_map<...>`` anywhere else."""
    error: ViewAlgebraError | None = None
    offset: int = 0
    """Character offset of the map (its ``<`` or ``#rock.transform_map``) in the text."""


def read_transform_map(text: str, *, strict: bool = True,
                       aliases: Mapping[str, A.AffineMap] | None = None) -> ParsedMap:
    """Parse a transform map and keep the written affine map beside it (``lint`` compares them)."""
    tm, written = _read(text, strict, aliases)
    return ParsedMap(tm, written, 1, 1)


def read_transform_map_tokens(text: str, tokens: list[Token], index: int, *, strict: bool = True,
                              aliases: Mapping[str, A.AffineMap] | None = None) -> tuple[ParsedMap, int]:
    """The transform map that starts at token ``index`` of a tokenized text (its ``<`` or
    ``#rock.transform_map``) and the index of the token after it; errors are located in ``text``."""
    p = _Parser(text, tokens, index, aliases)
    tm, written = p.transform_map(strict)
    offset = tokens[index].offset
    loc = TransformParseError("", text, offset)
    return ParsedMap(tm, written, loc.line, loc.column, offset=offset), p.pos


def read_affine_map_tokens(text: str, tokens: list[Token], start: int,
                           stop: int | None = None) -> tuple[A.AffineMap, int]:
    """The ``affine_map<...>`` at token ``start`` of a tokenized text and the index of the token
    after it; with ``stop``, the map must end there."""
    p = _Parser(text, tokens, start, end=stop)
    p.expect("affine_map", "'affine_map'")
    p.expect("<", "'<' after 'affine_map'")
    amap = p.affine_map_body()
    p.expect(">", "'>' closing the affine map")
    if stop is not None:
        p.finish()
    return amap, p.pos


def _read(text: str, strict: bool,
          aliases: Mapping[str, A.AffineMap] | None) -> tuple[TransformMap, A.AffineMap]:
    p = _Parser(text, aliases=aliases)
    result = p.transform_map(strict)
    p.finish()
    return result


def parse_transform_map(text: str, *, strict: bool = True,
                        aliases: Mapping[str, A.AffineMap] | None = None) -> TransformMap:
    """Parse ``#rock.transform_map<...>`` or the inline ``<affine_map<...> by [...] bounds = ...>``.

    Example: ``parse_transform_map('<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"]
    at [0, 1] -> ["a", "b"] at [1, 0]>] bounds = [4, 8] -> [8, 4]>')``.
    ``strict=False`` accepts whatever rocMLIR's verifier accepts. The written affine map is parsed
    but not trusted (use ``read_transform_map`` and ``lint`` to compare it with the ops).
    """
    return _read(text, strict, aliases)[0]


def print_transform_map(tm: TransformMap, *, prefix: bool = True,
                        affine_map: A.AffineMap | None = None) -> str:
    """rocMLIR's printed form, with the affine map recomputed from the ops.

    Example: ``#rock.transform_map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by
    [<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [32] -> [4, 8]>``.
    ``prefix=False`` gives the inline form used by ``rock.transform %x by <...>``. A map without
    a defined meaning (accepted with ``strict=False``) has no affine map of its own: pass the
    written one as ``affine_map`` to print it.
    """
    amap = affine_map if affine_map is not None else affine_map_of(tm)
    ops = ", ".join(print_transform(op) for op in tm.ops)
    body = (f"<affine_map<{amap}> by [{ops}] bounds = {_ints(tm.upper_bounds)} -> "
            f"{_ints(tm.lower_bounds)}>")
    return "#rock.transform_map" + body if prefix else body


def print_transform(op: AnyTransform) -> str:
    """One transform as rocMLIR prints it inside a transform map: ``<PassThrough [...] ...>``."""
    params = "{" + ", ".join(map(str, op.params)) + "}" if op.params else ""
    return (f"<{op.kind}{params} [{', '.join(map(_quote, op.upper_names))}] at "
            f"{_ints(op.upper_dims)} -> [{', '.join(map(_quote, op.lower_names))}] at "
            f"{_ints(op.lower_dims)}>")


def _ints(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def parse_memref_type(text: str) -> Buffer:
    """A buffer from ``memref<4x8xf32>`` or ``memref<4x8xf16, strided<[16, 1], offset: 4>>``.

    A memory space is left out; a vector element is its scalar type (``memref<8xvector<4xf16>>``
    is 8 elements of ``f16``); a ``tensor<...>`` is a row-major buffer of its shape.
    """
    try:
        t = parse_shaped_type(text)
    except TransformParseError as e:
        raise TransformParseError(
            f"expected a static memref type such as 'memref<4x8xf32>' or "
            f"'memref<4x8xf32, strided<[8, 1], offset: 0>>' ({e.reason})", text, 0) from None
    return Buffer(t.shape, t.dtype, t.strides, t.offset)
