"""A file read a part at a time: ``text_parts`` cuts its lines into parts of whole top-level
items; ``LazyTokens`` lexes a text a block of lines at a time as the reader asks for tokens."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .._maps.lexer import Token, begins_statement, tokenize
from ..errors import MlirParseError

PART = 1 << 20
"""Characters a part holds at least (then up to the next top-level item)."""

_ITEM_START = re.compile(r'\s*(?:func\.func\b|"func\.func"|module\b|\}|// -----)')
"""A line that may start a part: a function, a module, a module's closing brace, a split."""

_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//.*|[()\[\]{}]')


def text_parts(lines: Iterable[str], size: int = PART) -> Iterator[tuple[str, int]]:
    """Lines (with their line breaks) joined into parts of at least ``size`` characters, each
    cut before a line that starts a top-level item while only modules' braces are open."""
    return ((text, first) for text, first, _ in marked_parts(lines, size))


def marked_parts(lines: Iterable[str], size: int = PART) -> Iterator[tuple[str, int, bool]]:
    """``text_parts``, each part with whether it is the last: known when it is given, with only
    the line after it read (the lines of a part are not kept once it is joined)."""
    part: list[str] = []
    length, first = 0, 1
    open_brackets: list[bool] = []
    """The brackets open at the end of the last line: ``True`` for a module's brace."""
    for number, line in enumerate(lines, start=1):
        if length >= size and all(open_brackets) and _ITEM_START.match(line):
            text = "".join(part)
            part, length = [], 0
            yield text, first, False
            first = number
        part.append(line)
        length += len(line)
        module = re.match(r"\s*module\b", line) is not None
        for m in _BRACKETS.finditer(line):
            b = m.group()
            if b in "([{":
                open_brackets.append(module and b == "{" and all(open_brackets))
                module = module and b != "{"
            elif b in ")]}" and open_brackets:
                open_brackets.pop()
    if part:
        text = "".join(part)
        part.clear()
        yield text, first, True


_OPEN = frozenset("([{<")
_CLOSE = frozenset(")]}>")
"""Brackets as ``viewalgebra/_maps/lexer.py`` counts them (``->`` is a token of its own)."""


class LazyTokens:
    """The tokens of a text, lexed a block of lines at a time as they are needed (a token never
    spans a line break, so a block cut after one lexes as it would in the whole text)."""

    BLOCK = 1 << 16
    """Characters lexed at a time (then up to the end of the line)."""

    def __init__(self, text: str, start: int = 0, *, lenient: bool = False) -> None:
        self.text = text
        self.lenient = lenient
        """Characters no token starts with are tokens of kind ``other`` (``tokenize``)."""
        self.done = start
        """Where the text not yet lexed starts (a line start)."""
        self.ahead: list[Token] = []
        self.at = 0
        """The next token is ``ahead[at]``."""

    def peek(self, k: int = 0) -> Token | None:
        while self.at + k >= len(self.ahead) and self.done < len(self.text):
            self._more()
        return self.ahead[self.at + k] if self.at + k < len(self.ahead) else None

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise MlirParseError("unexpected end of file", self.text, len(self.text))
        self.at += 1
        return tok

    def skip(self, n: int) -> None:
        """Drop ``n`` tokens (those read from a list ``take`` returned)."""
        self.at += n

    def _more(self) -> None:
        end = self.text.find("\n", self.done + self.BLOCK)
        end = len(self.text) if end < 0 else end + 1
        block = tokenize(self.text, lenient=self.lenient, start=self.done, end=end)
        self.ahead = [*self.ahead[self.at:], *block]
        self.at, self.done = 0, end

    def statement(self) -> list[Token]:
        """The tokens of the statement starting here, as ``Cursor.statement_end`` cuts it."""
        out: list[Token] = []
        depth = 0
        while (tok := self.peek()) is not None:
            if out and depth == 0 and tok.line_start and begins_statement(out[-1], tok, self.peek):
                break
            if tok.kind not in ("string", "arrow"):
                if tok.text in _OPEN:
                    depth += 1
                elif tok.text in _CLOSE:
                    if depth == 0:
                        break
                    depth -= 1
            out.append(tok)
            self.at += 1
        return out

    def module_header(self) -> list[Token]:
        """``module``, its name, ``attributes`` and their brackets, and the token after them,
        ahead of reading (the caller ``skip``s what it reads)."""
        k = 1
        tok = self.peek(k)
        if tok is not None and tok.kind == "symbol":
            k += 1
        tok = self.peek(k)
        if tok is not None and tok.text == "attributes" and tok.kind != "string":
            k += 1
            depth = 0
            while (tok := self.peek(k)) is not None:
                k += 1
                if tok.kind in ("string", "arrow"):
                    continue
                if tok.text in _OPEN:
                    depth += 1
                elif tok.text in _CLOSE:
                    depth -= 1
                if depth <= 0:
                    break
        self.peek(k)
        return self.ahead[self.at:self.at + k + 1]
