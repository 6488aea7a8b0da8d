"""What every op handler of the reader shares: the function being read (``FunctionState``),
the reader's helpers for types, operands, transform maps and an op's text with its operand slots
(``OpReader``), and the signal ``Opaque``. The driver (``reader.py``) reads modules, functions
and statements on top of it and dispatches each op to its handler (``handlers.py``,
``generic_handlers.py``), which take an ``OpReader``: handlers never import the driver.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .._common.lines import line_column
from .._kernel.graph import Kernel
from .._maps import affine as A
from .._maps.equations import affine_map_of
from .._maps.lexer import Cursor, Token
from .._maps.syntax import read_affine_map_tokens, read_transform_map_tokens
from .._maps.transform_map import TransformMap
from .._maps.types import parse_shaped_type, unheld
from ..errors import InvalidTransformError, MlirParseError, TransformParseError
from .model import GenericText, OpText, Slot


class Opaque(Exception):  # noqa: N818 -- a signal to the driver, not an error
    """An operand the graph does not hold: the op is kept verbatim (``opaque.py``)."""

@dataclass
class FunctionState:
    """What a function's statements have defined so far."""

    kernel: Kernel
    names: dict[str, str] = field(default_factory=lambda: {})
    """SSA name -> graph value (buffers and views)."""
    types: dict[str, str] = field(default_factory=lambda: {})
    allocators: dict[str, str] = field(default_factory=lambda: {})
    allocation_attributes: dict[str, str] = field(default_factory=lambda: {})
    constants: list[str] = field(default_factory=lambda: [])
    values: dict[str, float] = field(default_factory=lambda: {})
    syntax: dict[str, OpText | GenericText] = field(default_factory=lambda: {})
    inline: list[str] = field(default_factory=lambda: [])
    opaque: set[str] = field(default_factory=lambda: set())
    """Names the graph does not hold: results of opaque ops and of ops on tensors, scalars
    (constants, ``index`` and ``i1`` arguments, vectors)."""
    unshaped: set[str] = field(default_factory=lambda: set())
    """Arguments that are not memrefs (graph values that only opaque ops use)."""
    terminator: str = ""

    def snapshot(self) -> tuple[Any, ...]:
        return (dict(self.kernel.values), len(self.kernel.ops), dict(self.names), dict(self.types),
                dict(self.allocators), len(self.constants), dict(self.values), dict(self.syntax),
                len(self.inline), set(self.opaque), dict(self.allocation_attributes))

    def restore(self, saved: tuple[Any, ...]) -> None:
        (values, ops, self.names, self.types, self.allocators, constants, self.values, self.syntax,
         inline, self.opaque, self.allocation_attributes) = saved
        self.kernel.values = values
        del self.kernel.ops[ops:]
        del self.constants[constants:]
        del self.inline[inline:]


Handler = Callable[["OpReader", FunctionState, Cursor, list[str], Token], None]
"""A custom-form op's handler: the reader, the function, the statement just after the op's name,
the results' names, the op name's token."""


def registrar(table: dict[str, Handler]) -> Callable[..., Callable[[Handler], Handler]]:
    """A decorator that registers a function in ``table`` as the handler of the op names given."""
    def handler(*names: str) -> Callable[[Handler], Handler]:
        def register(fn: Handler) -> Handler:
            for name in names:
                table[name] = fn
            return fn
        return register
    return handler

class OpReader:
    """One file being read: what the op handlers use of the reader."""

    def __init__(self, text: str, errors: Literal["raise", "collect"] = "raise") -> None:
        self.errors = errors
        self.text = text
        self.tokens: list[Token] = []
        """The tokens of the top-level item being read."""
        self.affine: dict[str, A.AffineMap] = {}
        self.maps: dict[str, tuple[list[Token], int]] = {}
        """Transform-map aliases: the tokens of each alias and the token where its value starts."""
        self.alias_lines: dict[str, tuple[int, str, int, int]] = {}
        """Each transform-map alias as its first line's number, the text of its lines, and where
        the alias starts and ends in that text: what a later part of the file needs of it."""
        self.written: dict[TransformMap, A.AffineMap] = {}

    def affine_map(self, c: Cursor, start: int, stop: int) -> A.AffineMap:
        """The ``affine_map<...>`` that tokens ``[start, stop)`` are."""
        try:
            return read_affine_map_tokens(self.text, self.tokens, start, stop)[0]
        except TransformParseError as e:
            raise MlirParseError(e.reason, self.text, e.offset) from None

    def transform_map(self, index: int, tokens: list[Token] | None = None) -> TransformMap:
        """The map at token ``index`` (its ``<`` or ``#rock.transform_map``) of ``tokens``
        (default: the item's)."""
        tokens = self.tokens if tokens is None else tokens
        offset = tokens[index].offset
        try:
            parsed, _ = read_transform_map_tokens(self.text, tokens, index, strict=False,
                                                  aliases=self.affine)
        except TransformParseError as e:
            raise MlirParseError(e.reason, self.text, e.offset) from None
        except InvalidTransformError as e:
            raise MlirParseError(e.reason or str(e), self.text,
                                 offset if e.offset is None else e.offset) from None
        tm, written = parsed.map, parsed.written
        if tm is None or written is None:  # read_transform_map_tokens raises instead
            raise MlirParseError("expected a transform map", self.text, offset)
        try:
            affine_map_of(tm)
        except InvalidTransformError:
            self.written[tm] = written
        return tm

    def shaped_type(self, c: Cursor, *, strided: bool = False) -> tuple[tuple[int, ...], str, str]:
        """A memref or tensor type: shape, element type, and the full text as written.

        The element type is the scalar one (``f16`` for ``memref<8xvector<4xf16>>``); the memory
        space (``#gpu.address_space<private>``, an integer, an alias of one) stays in the text. A
        ``strided<...>`` layout, any other layout (``affine_map<...>``, a ``#map`` alias) and
        dynamic sizes (``?``), which the graph cannot hold, raise ``Opaque`` (the op is kept
        verbatim) unless ``strided`` (a function's argument or result: the caller keeps the value
        out of the graph's ops; an unheld type has shape ``()``).
        """
        tok = c.peek()
        if tok is None or tok.text not in ("memref", "tensor"):
            raise c.error("a memref type such as 'memref<4x8xf32>'")
        start = c.pos
        c.next()
        if not c.at("<"):
            raise c.error(f"'<' after '{tok.text}'")
        c.balanced()
        text = c.source(start, c.pos)
        if (odd := unheld(text, layouts=self.affine)) is not None:  # dynamic sizes, other layouts
            if not strided:
                raise Opaque(text)
            return (), odd[1], text
        t = parse_shaped_type(text, error=MlirParseError, source=self.text, at=tok.offset,
                              layouts=self.affine)
        if t.strides is not None and not strided:
            raise Opaque(text)
        return t.shape, t.dtype, text

    def any_type(self, c: Cursor, *, strided: bool = False) -> tuple[tuple[int, ...], str, str]:
        """A memref or tensor type, or any other type (``index``, ``i1``, ``vector<4xf32>``,
        ``!async.token``) as shape ``()`` and its text."""
        tok = c.peek()
        if tok is not None and tok.text in ("memref", "tensor"):
            return self.shaped_type(c, strided=strided)
        start = c.pos
        c.accept("!")
        c.kind("ident", "a type")
        if c.at("<"):
            c.balanced()
        text = c.source(start, c.pos)
        return (), text, text

    def lookup(self, f: FunctionState, s: Cursor) -> str:
        """The graph value of the SSA value here; ``Opaque`` for one the graph does not hold."""
        tok = s.peek()
        value = s.value()
        if value in f.opaque or f.names.get(value) in f.unshaped:
            raise Opaque(value)
        if value not in f.names:
            raise MlirParseError(f"%{value} is not defined (or not a memref)", self.text,
                                 tok.offset if tok else 0)
        return f.names[value]

    def operand(self, f: FunctionState, s: Cursor) -> tuple[int, str]:
        i = s.pos
        return i, self.lookup(f, s)

    def result(self, results: list[str], tok: Token, count: int = 1) -> str:
        if len(results) != count:
            raise MlirParseError(f"{tok.text} defines {count} value(s), not {len(results)}",
                                 self.text, tok.offset)
        return results[0] if results else ""

    def check_type(self, f: FunctionState, s: Cursor, value: str, what: str) -> None:
        tok = s.peek()
        shape = self.shaped_type(s)[0]
        if shape != f.kernel.shape(value):
            raise MlirParseError(
                f"{what}: the type says {list(shape)} but %{value} has shape "
                f"{list(f.kernel.shape(value))}", self.text, tok.offset if tok else 0)

    def map_operand(self, s: Cursor) -> TransformMap:
        """``<affine_map<...> by [...] bounds = ...>`` or ``#alias`` or ``#rock.transform_map<...>``."""
        tok = s.peek()
        if tok is not None and tok.text == "#rock.transform_map":
            s.next()
            tok = s.peek()
        if tok is not None and tok.text == "<":
            start = s.pos
            s.balanced()
            return self.transform_map(start)
        if tok is not None and tok.kind == "hash":
            s.next()
            if tok.text[1:] not in self.maps:
                raise MlirParseError(f"undefined transform map {tok.text}", self.text, tok.offset)
            return self.transform_map(self.maps[tok.text[1:]][1], self.maps[tok.text[1:]][0])
        raise s.error("a transform map '<affine_map<...> by [...] ...>' or '#alias'")

    def inline_view(self, f: FunctionState, s: Cursor) -> tuple[int, str]:
        """``[maps](%x)``: a view of ``%x`` (top-first maps); the token index of ``%x``."""
        maps: list[TransformMap] = []
        s.expect("[", "'[' opening the transform maps")
        while not s.accept("]"):
            maps.append(self.map_operand(s))
            if not s.at("]"):
                s.expect(",", "',' or ']'")
        s.expect("(", "'(' and the viewed value")
        index, value = self.operand(f, s)
        s.expect(")")
        if not maps:
            return index, value
        name = f.kernel.view(value, maps, name=f"{value}_view")
        f.inline.append(name)
        return index, name

    @staticmethod
    def inlined(f: FunctionState, *operands: tuple[int, str]) -> list[int]:
        """The token indices of those ``operands`` (from ``inline_view``) that are views written
        inside the op: ``[](%x)``, with no maps, is ``%x`` itself, written as any operand."""
        return [i for i, value in operands if value in f.inline]

    # }}}
    # {{{ an op as text with operand slots

    def template(self, f: FunctionState, s: Cursor, kind: str, reads: Sequence[tuple[int, str]],
                 writes: Sequence[tuple[int, str]], inline: Sequence[int] = (), root: bool = False,
                 fn: Callable[..., Any] | None = None, **attrs: Any) -> None:
        """Add the op; ``reads``/``writes`` are (token index, value) pairs; ``inline`` lists token
        indices of operands written as ``[maps](%x)``."""
        slots = {i: Slot("read", n, i in inline) for n, (i, _) in enumerate(reads)}
        slots.update({i: Slot("write", n, i in inline) for n, (i, _) in enumerate(writes)})
        self.emit(f, s, kind, slots, [v for _, v in reads], [v for _, v in writes], root=root,
                  fn=fn, **attrs)

    def emit(self, f: FunctionState, s: Cursor, kind: str, slots: dict[int, Slot],
             reads: Sequence[str], writes: Sequence[str], root: bool = False,
             fn: Callable[..., Any] | None = None, **attrs: Any) -> None:
        """Add the op, its text being the statement with the tokens ``slots`` names cut out.

        Any other graph value the text names (an ``index`` argument among extra indices, an
        outer buffer used in a region) is read too and gets a slot, so that the text never
        names a graph value by itself."""
        reads = list(reads)
        for i in range(s.begin, s.end):
            t = s.tokens[i]
            if i not in slots and t.kind == "value" and t.text[1:] in f.names:
                value = f.names[t.text[1:]]
                if value not in reads:
                    reads.append(value)
                slots[i] = Slot("read", reads.index(value))
        pieces: list[str | Slot] = []
        pos = s.tokens[s.begin].offset
        indent = "\n" + " " * (pos - (self.text.rfind("\n", 0, pos) + 1))  # the op's column
        for i in sorted(slots):
            tok = s.tokens[i]
            pieces.extend([self.text[pos:tok.offset].replace(indent, "\n"), slots[i]])
            pos = tok.offset + len(tok.text)
        pieces.append(self.text[pos:_end(s.tokens[s.end - 1])].replace(indent, "\n"))
        s.pos = s.end  # the rest of the op is kept as written
        op = f.kernel.op(kind, reads=reads, writes=writes, root=root, fn=fn, **attrs)
        shapes = tuple(f.kernel.shape(v) for v in (*op.reads, *op.writes))
        f.syntax[op.name] = OpText(tuple(p for p in pieces if p != ""), shapes)

    def where(self, offset: int) -> str:
        line, column = line_column(self.text, offset)
        return f"{line}:{column}"

def _end(tok: Token) -> int:
    return tok.offset + len(tok.text)
