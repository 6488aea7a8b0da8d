"""Reading layout text: CuTe's and pycute's printed layouts, swizzles and composed layouts.

Grammar (CuTe prints these with ``print(layout)``; NVIDIA/cutlass ``include/cute/layout.hpp``,
``include/cute/swizzle_layout.hpp``, ``python/pycute/layout.py``)::

    layout   := swizzle ["o" int] "o" plain | plain | swizzle
    plain    := tuple ":" tuple | tuple          (a shape alone: compact colexicographic strides)
    tuple    := int | "(" tuple ("," tuple)* [","] ")"
    int      := ["-"] digits | "_" digits        (CuTe C++'s static integers print as _4)
    swizzle  := "Sw<" int "," int "," int ">" | "SW_" B "_" M "_" S   (pycute prints SW_3_3_3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvalidArgumentError, LayoutSyntaxError
from .values import ComposedLayout, IntTuple, Layout, Swizzle, compact_strides

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<int>-?[0-9]+|_[0-9]+)
  | (?P<sw>SW_[0-9]+_[0-9]+_-?[0-9]+)
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
        tok = self.peek()
        if tok is not None and tok.text in ("?", "*"):
            what = "a dynamic integer '?'" if tok.text == "?" else "an empty leaf '*'"
            raise LayoutSyntaxError(f"{what} has no value to read: give static integers", self.text,
                                    tok.offset)
        value = self.integer("an integer or '('")
        after = self.peek()
        if (after is not None and after.kind == "ident" and re.fullmatch(r"(E[0-9]+)+", after.text)
                and after.offset == self.toks[self.i - 1].offset + len(self.toks[self.i - 1].text)):
            raise LayoutSyntaxError(
                f"a scaled-basis stride ({self.toks[self.i - 1].text}{after.text}) maps to a coordinate, "
                "not an offset: give integer strides", self.text, self.toks[self.i - 1].offset)
        return value

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

    def swizzle(self, word: str = "Sw") -> Swizzle:
        start = self.peek()
        if start is not None and start.kind == "sw" and word == "Sw":
            self.i += 1
            b, m, s = (int(x) for x in re.findall(r"-?[0-9]+", start.text))
            return self._swizzle(b, m, s, start)
        self.take(word, repr(word))
        self.take("<", f"'<' after '{word}'")
        b = self.integer("B, an integer")
        self.take(",", "',' after B")
        m = self.integer("M, an integer")
        self.take(",", "',' after M")
        s = self.integer("S, an integer")
        self.take(">", "'>' after S")
        return self._swizzle(b, m, s, start)

    def _swizzle(self, b: int, m: int, s: int, start: Tok | None) -> Swizzle:
        try:
            return Swizzle(b, m, s)
        except InvalidArgumentError as e:
            raise LayoutSyntaxError(str(e), self.text, start.offset if start else 0) from None

    def cute(self) -> Layout | ComposedLayout | Swizzle:
        """A plain, composed or swizzle layout (the whole rest of the text)."""
        first = self.peek()
        if not (self.at("Sw") or (first is not None and first.kind == "sw")):
            layout = self.plain()
            tok = self.peek()
            if tok is not None and tok.text == "o":
                raise LayoutSyntaxError("a layout composed with a layout is not read: give a swizzle "
                                        "Sw<B,M,S> composed with a layout", self.text, tok.offset)
            self.end()
            return layout
        sw = self.swizzle()
        return self.composed(sw)

    def composed(self, sw: Swizzle, close: str | None = None) -> Layout | ComposedLayout | Swizzle:
        """The rest of ``Sw<...> [o OFF] o L``, up to ``close`` (or the end of the text)."""
        ending = "the end of the layout" if close is None else repr(close)
        if self.peek() is None or self.at(close or ""):
            self._close(close)
            return sw
        self.take("o", f"'o' (composition) or {ending}")
        offset = 0
        after = self.peek(1)
        if after is not None and after.text == "o":
            tok = self.peek()
            if tok is not None and tok.text == "(":
                raise LayoutSyntaxError("a tuple offset belongs to a coordinate swizzle: give an "
                                        "integer offset", self.text, tok.offset)
            offset = self.integer("the offset, an integer")
            self.take("o", "'o' after the offset")
        tok = self.peek()
        if tok is not None and tok.text == "[":
            raise LayoutSyntaxError("a nested composed layout is not read: give a swizzle composed "
                                    "with a plain layout", self.text, tok.offset)
        layout = self.plain()
        self._close(close)
        return ComposedLayout(sw, offset, layout)

    def _close(self, close: str | None) -> None:
        if close is None:
            self.end()
        else:
            self.take(close, f"{close!r}")
            self.end()


def parse_cute(text: str) -> Layout | ComposedLayout | Swizzle:
    """CuTe or pycute layout text: ``(4,8):(1,4)``, ``Sw<3,3,3> o 0 o (8,64):(64,1)``, ``Sw<2,4,3>``."""
    return Reader(text).cute()
