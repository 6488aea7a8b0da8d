"""Reading layout text: CuTe's and pycute's printed layouts, swizzles and composed layouts.

Grammar (CuTe prints these with ``print(layout)``; NVIDIA/cutlass ``include/cute/layout.hpp``,
``include/cute/swizzle_layout.hpp``, ``python/pycute/layout.py``)::

    layout   := swizzle ["o" int] "o" plain | plain | swizzle
    plain    := tuple ":" tuple | tuple          (a shape alone: compact colexicographic strides)
    tuple    := int | "(" tuple ("," tuple)* [","] ")"
    int      := ["-"] digits | "_" digits        (CuTe C++'s static integers print as _4)
    swizzle  := "Sw<" int "," int "," int ">"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidArgumentError, LayoutSyntaxError
from .values import ComposedLayout, IntTuple, Layout, Swizzle, compact_strides

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<int>-?[0-9]+|_[0-9]+)
  | (?P<ident>[A-Za-z_][\w.]*|\#[\w.]+|![\w.]+)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<arrow>->)
  | (?P<punct>[()\[\]{}<>,:=?*+])
""", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str
    offset: int


class Reader:
    """A cursor over layout tokens; every failure is a ``LayoutSyntaxError`` at the token."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidArgumentError(f"parse_layout: expected layout text, got {text!r}")
        self.text = text
        self.toks: list[Tok] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise LayoutSyntaxError(f"unexpected character {text[pos]!r}", text, pos)
            if m.lastgroup != "ws":
                self.toks.append(Tok(m.lastgroup or "", m.group(), pos))
            pos = m.end()
        self.i = 0

    def peek(self, ahead: int = 0) -> Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, expected: str, tok: Tok | None = None) -> LayoutSyntaxError:
        tok = tok or self.peek()
        if tok is None:
            return LayoutSyntaxError(f"expected {expected}, got the end of the text", self.text,
                                     len(self.text))
        return LayoutSyntaxError(f"expected {expected}, got {tok.text!r}", self.text, tok.offset)

    def at(self, text: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text == text

    def take(self, text: str, expected: str | None = None) -> Tok:
        tok = self.peek()
        if tok is None or tok.text != text:
            raise self.fail(expected or repr(text))
        self.i += 1
        return tok

    def integer(self, expected: str = "an integer") -> int:
        tok = self.peek()
        if tok is None or tok.kind != "int":
            raise self.fail(expected)
        self.i += 1
        return int(tok.text.lstrip("_"))

    def end(self) -> None:
        if self.peek() is not None:
            raise self.fail("the end of the layout")

    def int_tuple(self) -> IntTuple:
        if self.at("("):
            self.i += 1
            items = [self.int_tuple()]
            while self.at(","):
                self.i += 1
                if self.at(")"):
                    break
                items.append(self.int_tuple())
            self.take(")", "',' or ')'")
            return tuple(items)
        return self.integer("an integer or '('")

    def plain(self) -> Layout:
        start = self.peek()
        shape = self.int_tuple()
        if not self.at(":"):
            return self._layout(shape, compact_strides(shape), start)
        self.i += 1
        return self._layout(shape, self.int_tuple(), start)

    def _layout(self, shape: IntTuple, stride: IntTuple, start: Tok | None) -> Layout:
        try:
            return Layout(shape, stride)
        except InvalidArgumentError as e:
            offset = start.offset if start else 0
            raise LayoutSyntaxError(str(e), self.text, offset) from None

    def swizzle(self) -> Swizzle:
        start = self.peek()
        self.take("Sw", "'Sw'")
        self.take("<", "'<' after 'Sw'")
        b = self.integer("B, an integer")
        self.take(",", "',' after B")
        m = self.integer("M, an integer")
        self.take(",", "',' after M")
        s = self.integer("S, an integer")
        self.take(">", "'>' after S")
        try:
            return Swizzle(b, m, s)
        except InvalidArgumentError as e:
            raise LayoutSyntaxError(str(e), self.text, start.offset if start else 0) from None

    def cute(self) -> Layout | ComposedLayout | Swizzle:
        """A plain, composed or swizzle layout (the whole rest of the text)."""
        if not self.at("Sw"):
            layout = self.plain()
            self.end()
            return layout
        sw = self.swizzle()
        if self.peek() is None:
            return sw
        self.take("o", "'o' (composition) or the end of the layout")
        offset = 0
        if self.peek(1) is not None and self.peek(1).text == "o":  # pyright: ignore[reportOptionalMemberAccess]
            offset = self.integer("the offset, an integer")
            self.take("o", "'o' after the offset")
        layout = self.plain()
        self.end()
        return ComposedLayout(sw, offset, layout)


def parse_cute(text: str) -> Layout | ComposedLayout | Swizzle:
    """CuTe or pycute layout text: ``(4,8):(1,4)``, ``Sw<3,3,3> o 0 o (8,64):(64,1)``, ``Sw<2,4,3>``."""
    return Reader(text).cute()
