"""rocMLIR text syntax: ``#rock.transform_map<...>``, ``affine_map<...>``, ``memref<...>`` types,
and the transform maps of a whole ``.mlir`` file.

Parse errors are ``TransformParseError`` with the line and column and what was expected there;
verifier errors found while parsing are ``InvalidTransformError`` with the same location prefix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from ..errors import InvalidTransformError, TransformParseError, ViewAlgebraError
from . import affine as A
from .buffer import Buffer
from .equations import affine_map_of
from .transform_map import TransformMap
from .transforms import TRANSFORM_TYPES, AnyTransform
from .view import View

_T = TypeVar("_T")

MAX_NESTING = 100
"""Deepest nesting of parentheses and unary minuses an affine expression may have."""
MAX_OPERATIONS = 200
"""Most binary operations one result expression may have (rocMLIR's have a few dozen at most):
expressions are trees, and the functions that walk them recurse."""

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<int>[0-9]+)
  | (?P<hashid>\#[A-Za-z_][\w$.]*)
  | (?P<ident>[A-Za-z_][\w$.]*)
  | (?P<arrow>->)
  | (?P<punct>[<>\[\]{}(),=*+\-:?])
""", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    offset: int


class _Parser:
    """Recursive descent over one piece of text, starting at ``offset``."""

    def __init__(self, text: str, offset: int = 0,
                 aliases: Mapping[str, A.AffineMap] | None = None) -> None:
        self.text = text
        self.pos = offset
        self.aliases = dict(aliases or {})
        self._peeked: _Tok | None = None
        self.depth = 0
        """Parentheses and unary minuses open around the current point (bounded)."""
        self.operations = 0
        """Binary operations in the current result expression (bounded)."""

    # {{{ tokens

    def error(self, expected: str, tok: _Tok | None = None) -> TransformParseError:
        tok = tok or self.peek()
        found = "end of input" if tok.kind == "eof" else repr(tok.text)
        return TransformParseError(f"expected {expected}, found {found}", self.text, tok.offset)

    def peek(self) -> _Tok:
        if self._peeked is None:
            self._peeked = self._scan()
        return self._peeked

    def _scan(self) -> _Tok:
        while True:
            if self.pos >= len(self.text):
                return _Tok("eof", "", len(self.text))
            m = _TOKEN.match(self.text, self.pos)
            if m is None:
                raise TransformParseError(
                    f"unexpected character {self.text[self.pos]!r}", self.text, self.pos)
            self.pos = m.end()
            kind = m.lastgroup or ""
            if kind != "ws":
                return _Tok(kind, m.group(), m.start())

    def next(self) -> _Tok:
        tok = self.peek()
        self._peeked = None
        return tok

    def accept(self, text: str) -> bool:
        if self.peek().text == text and self.peek().kind != "string":
            self.next()
            return True
        return False

    def expect(self, text: str, expected: str | None = None) -> _Tok:
        tok = self.peek()
        if tok.text != text or tok.kind == "string":
            raise self.error(expected or f"'{text}'")
        return self.next()

    def integer(self, what: str = "an integer") -> int:
        negative = self.accept("-")
        tok = self.peek()
        if tok.kind != "int":
            raise self.error(what)
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
        tok = self.peek()
        if tok.kind == "hashid":
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
        if self.peek().text == "[":
            raise self.error("'->' (affine maps with symbols are not supported)")
        names = {d: i for i, d in enumerate(dims)}
        if len(names) != len(dims):
            raise self.error("distinct dimension names")
        self.expect("->", "'->' after the dimension list")
        results = self.bracket_list("(", ")", lambda: self.affine_expr(names), "the results")
        return A.AffineMap(len(dims), tuple(results))

    def ident(self) -> str:
        tok = self.peek()
        if tok.kind != "ident":
            raise self.error("an identifier")
        return self.next().text

    def count_operation(self, tok: _Tok) -> None:
        self.operations += 1
        if self.operations > MAX_OPERATIONS:
            raise TransformParseError(
                f"expression with more than {MAX_OPERATIONS} operations", self.text, tok.offset)

    def affine_expr(self, names: dict[str, int]) -> A.AffineExpr:
        if self.depth == 0:  # a whole result expression
            self.operations = 0
        expr = self.affine_term(names)
        while self.peek().text in ("+", "-"):
            self.count_operation(self.peek())
            sign = self.next().text
            rhs = self.affine_term(names)
            expr = A.add(expr, rhs if sign == "+" else A.mul(rhs, -1))
        return expr

    def affine_term(self, names: dict[str, int]) -> A.AffineExpr:
        expr = self.affine_unary(names)
        while self.peek().text in ("*", "floordiv", "ceildiv", "mod"):
            self.count_operation(self.peek())
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
        tok = self.peek()
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
        if tok.kind == "int":
            return A.const(int(self.next().text))
        if tok.kind == "ident" and tok.text in names:
            self.next()
            return A.dim(names[tok.text])
        raise self.error("a dimension, an integer or '('")

    # }}}
    # {{{ transforms

    def name(self) -> str:
        tok = self.peek()
        if tok.kind == "string":
            self.next()
            return _unquote(tok, self.text)
        if tok.kind in ("ident", "int"):
            return self.next().text
        raise self.error("a dimension name (quoted string or keyword)")

    def dim_index(self) -> int:
        tok = self.peek()
        if tok.kind != "int":
            raise self.error("a dimension index (non-negative integer)")
        return int(self.next().text)

    def transform(self) -> AnyTransform:
        # rocMLIR prints each transform bare inside a map, but its parser also takes the
        # attribute's own prefixed form (mlir/test/Dialect/Rock/ tests write both).
        self.accept("#rock.transform")
        start = self.expect("<", "'<' opening a transform")
        tok = self.peek()
        kind = tok.text if tok.kind == "ident" else ""
        if tok.kind == "string":
            kind = _unquote(tok, self.text)
        if kind not in TRANSFORM_TYPES:
            raise self.error(
                "a name of a known transform (" + ", ".join(TRANSFORM_TYPES) + ")")
        self.next()
        params: list[int] = []
        if self.peek().text == "{":
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
        if self.peek().text == "#rock.transform_map":
            self.next()
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

    def end(self) -> None:
        if self.peek().kind != "eof":
            raise self.error("end of input")

    # }}}


def _unquote(token: _Tok, text: str) -> str:
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
    amap = p.affine_map_ref() if p.peek().text == "affine_map" else p.affine_map_body()
    p.end()
    return amap


def parse_transform(text: str) -> AnyTransform:
    """Parse one transform: ``#rock.transform<Merge{4, 8} ["x"] at [0] -> ["a", "b"] at [0, 1]>``
    or the same without the ``#rock.transform`` prefix."""
    p = _Parser(text)
    t = p.transform()
    p.end()
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


def read_transform_map_at(text: str, offset: int, *, strict: bool = True,
                          aliases: Mapping[str, A.AffineMap] | None = None) -> ParsedMap:
    """The transform map that starts at ``offset`` of a larger text (what follows it is not
    read); errors are located in ``text``."""
    tm, written = _Parser(text, offset, aliases).transform_map(strict)
    loc = TransformParseError("", text, offset)
    return ParsedMap(tm, written, loc.line, loc.column, offset=offset)


def _read(text: str, strict: bool,
          aliases: Mapping[str, A.AffineMap] | None) -> tuple[TransformMap, A.AffineMap]:
    p = _Parser(text, aliases=aliases)
    result = p.transform_map(strict)
    p.end()
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


# {{{ memref types

_MEMREF = re.compile(
    r"memref<\s*((?:[0-9]+\s*x\s*)*)([A-Za-z][A-Za-z0-9]*)\s*"
    r"(?:,\s*strided<\s*\[([^\]]*)\]\s*(?:,\s*offset\s*:\s*(-?[0-9]+))?\s*>)?\s*>")


def parse_memref_type(text: str) -> Buffer:
    """A buffer from ``memref<4x8xf32>`` or ``memref<4x8xf16, strided<[16, 1], offset: 4>>``."""
    m = _MEMREF.fullmatch(text.strip())
    if m is None:
        raise TransformParseError(
            "expected a static memref type such as 'memref<4x8xf32>' or "
            "'memref<4x8xf32, strided<[8, 1], offset: 0>>'", text, 0)
    shape = tuple(int(s) for s in re.findall(r"[0-9]+", m.group(1)))
    strides = None
    if m.group(3) is not None:
        try:
            strides = tuple(int(s) for s in m.group(3).split(",") if s.strip())
        except ValueError:
            raise TransformParseError(
                "expected static integer strides", text, m.start(3)) from None
    return Buffer(shape, m.group(2), strides, int(m.group(4) or 0))


# }}}
# {{{ .mlir files

_AFFINE_ALIAS = re.compile(r"^[ \t]*#([\w$.]+)[ \t]*=[ \t]*(?=affine_map\s*<)", re.M)
_MAP_ALIAS = re.compile(r"^[ \t]*#([\w$.]+)[ \t]*=[ \t]*(?=#rock\.transform_map\s*<)", re.M)
_INLINE = re.compile(r"\brock\.transform\s+%[\w$.#-]+\s+by\s+(?=<)")
_ATTRIBUTE = re.compile(r"#rock\.transform_map\s*<")
_SPLIT = re.compile(r"^[ \t]*// -----", re.M)


def blank_comments(text: str) -> str:
    """``text`` with its ``//`` comments replaced by spaces (offsets, lines and columns stay)."""
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group()), text)


def parse_mlir_transform_maps(text: str, *, strict: bool = False,
                              errors: Literal["raise", "collect"] = "raise") -> tuple[ParsedMap, ...]:
    """Every transform map of an ``.mlir`` file, in file order.

    Reads ``#name = #rock.transform_map<...>`` aliases, inline ``rock.transform %x by <...>``
    maps and any other ``#rock.transform_map<...>`` attribute; ``#map = affine_map<...>`` aliases
    are resolved within their ``// -----`` section; comments are skipped. ``strict=False`` (the
    default) accepts what rocMLIR accepts. With ``errors="collect"`` a map that fails to parse or
    verify is returned with its ``error`` instead of raising.
    """
    code = blank_comments(text)
    found: list[ParsedMap] = []
    bounds = [0] + [m.start() for m in _SPLIT.finditer(text)] + [len(text)]
    for begin, end in zip(bounds, bounds[1:], strict=False):
        found.extend(_section_maps(code, begin, end, strict, errors))
    return tuple(found)


def _section_maps(code: str, begin: int, end: int, strict: bool,
                  errors: Literal["raise", "collect"]) -> list[ParsedMap]:
    aliases: dict[str, A.AffineMap] = {}
    for m in _AFFINE_ALIAS.finditer(code, begin, end):
        p = _Parser(code, m.end())
        p.expect("affine_map")
        p.expect("<")
        aliases[m.group(1)] = p.affine_map_body()
        p.expect(">", "'>' closing the affine map")
    starts: dict[int, tuple[str | None, Literal["alias", "inline", "attribute"]]] = {}
    for m in _ATTRIBUTE.finditer(code, begin, end):
        starts[m.start()] = (None, "attribute")
    for m in _MAP_ALIAS.finditer(code, begin, end):
        starts[m.end()] = (m.group(1), "alias")
    for m in _INLINE.finditer(code, begin, end):
        starts[m.end()] = (None, "inline")
    found: list[ParsedMap] = []
    for offset in sorted(starts):
        name, form = starts[offset]
        loc = TransformParseError("", code, offset)
        try:
            parsed = read_transform_map_at(code, offset, strict=strict, aliases=aliases)
            found.append(replace(parsed, name=name, form=form))
        except ViewAlgebraError as e:
            if errors == "raise":
                raise
            found.append(ParsedMap(None, None, loc.line, loc.column, name, form, e, offset))
    return found


@dataclass(frozen=True, slots=True)
class ParsedView:
    """A chain of ``rock.transform`` ops read from an ``.mlir`` file, as a ``View``."""

    name: str
    """The SSA value at the top of the chain, e.g. ``%3``."""
    view: View | None
    """The view (``strict=False``: rocMLIR's memref types need not match the bounds); ``None``
    when a map of the chain was rejected (see ``error``)."""
    line: int
    column: int
    error: ViewAlgebraError | None = None


_TRANSFORM_OP = re.compile(
    r"%([\w$.-]+)\s*=\s*rock\.transform\s+%([\w$.-]+)\s+by\s+(?:(<)|#([\w$.]+))")
_FUNC = re.compile(r"\bfunc\.func\b")


def parse_mlir_views(text: str) -> tuple[ParsedView, ...]:
    """Every view that ``rock.transform`` chains build in an ``.mlir`` file, in file order.

    A chain starts at a value that no ``rock.transform`` in the same function defines (a
    function argument or an allocation, typed by the first transform's source memref type) and
    ends at a ``rock.transform`` result that no other ``rock.transform`` reads.
    """
    code = blank_comments(text)
    maps = parse_mlir_transform_maps(text, errors="collect")
    found: list[ParsedView] = []
    cuts = sorted({0, len(code)} | {m.start() for m in _SPLIT.finditer(text)}
                  | {m.start() for m in _FUNC.finditer(code)})
    for begin, end in zip(cuts, cuts[1:], strict=False):
        found.extend(_scope_views(code, begin, end, maps))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class _Step:
    """``%result = rock.transform %source by <map> : <source type> ...``."""

    source: str
    map: TransformMap | None
    source_type: str
    offset: int
    error: ViewAlgebraError | None


def _scope_views(code: str, begin: int, end: int, maps: tuple[ParsedMap, ...]) -> list[ParsedView]:
    by_offset = {m.offset: m for m in maps}
    steps: dict[str, _Step] = {}
    for m in _TRANSFORM_OP.finditer(code, begin, end):
        if m.group(3):
            parsed = by_offset.get(m.start(3))
        else:  # the latest definition of the alias before this use
            named = [a for a in maps if a.form == "alias" and a.name == m.group(4)
                     and a.offset < m.start()]
            parsed = named[-1] if named else None
        error = parsed.error if parsed else TransformParseError(
            f"undefined transform map #{m.group(4)}", code, m.start(4) - 1)
        source_type = _memref_after(code, m.end(), end)
        if error is None and not source_type:
            error = TransformParseError("expected ': memref<...>' after the transform map", code,
                                        m.end())
        steps[m.group(1)] = _Step(m.group(2), parsed.map if parsed else None, source_type,
                                  m.start(), error)
    sources = {step.source for step in steps.values()}
    reached: set[str] = set()
    views: list[ParsedView] = []
    # Leaves first; then whatever no leaf reaches, which can only be a cycle.
    tops = [r for r in steps if r not in sources] + list(steps)
    for result in tops:
        if result in reached:
            continue
        top = steps[result]
        chain: list[TransformMap] = []
        name, step, error, buffer_type = result, top, None, top.source_type
        seen: set[str] = set()
        while step is not None and error is None:
            if name in seen:
                error = TransformParseError(f"%{name} is defined through itself", code, step.offset)
                break
            seen.add(name)
            reached.add(name)
            error = step.error
            if step.map is not None:
                chain.append(step.map)
            name, buffer_type = step.source, step.source_type
            step = steps.get(name)
        view = None
        if error is None:
            try:
                view = View(parse_memref_type(buffer_type), tuple(chain), strict=False)
            except ViewAlgebraError as e:
                error = e
        loc = TransformParseError("", code, top.offset)
        views.append(ParsedView(f"%{result}", view, loc.line, loc.column, error))
    return views


def _memref_after(code: str, pos: int, end: int) -> str:
    """The source type of a ``rock.transform``: the ``memref<...>`` after ``:``."""
    colon = code.find(":", pos, end)
    start = code.find("memref<", colon, end)
    if colon < 0 or start < 0:
        return ""
    depth = 0
    for i in range(start + len("memref"), end):
        depth += {"<": 1, ">": -1}.get(code[i], 0)
        if depth == 0:
            return code[start:i + 1]
    return ""


# }}}
