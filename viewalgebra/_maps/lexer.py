"""MLIR's tokens, and a cursor over them: the one lexer of every parser in viewalgebra (a transform
map, an affine map or a type given as text, and the ``.mlir`` front end in ``viewalgebra/_mlir/``),
with just enough statement structure to find where each op begins and ends.

An op ends at a line break where every bracket it opened is closed and the next line starts a new
statement (results ``%x =``, an op name with a dot, a generic ``"op"``, ``return``, ``}``, ``^bb``,
an alias ``#x`` or ``!x =``, the ``func`` of MLIR before ``func.func``) that does not continue the
line before (after ``=`` or ``,``). Attribute and type syntax is left as text for the parsers that
understand it. ``->`` and an integer set's ``>=`` are tokens of kind ``arrow``: their ``>`` closes no bracket.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .._common.lines import line_column
from ..errors import MlirParseError, TransformParseError

_TOKEN = re.compile(r"""
    (?P<newline>\n)
  | (?P<ws>[ \t\r\f]+)
  | (?P<comment>//[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<value>%[\w$.\-]+)
  | (?P<symbol>@[\w$.\-]+|@"(?:[^"\\\n]|\\.)*")
  | (?P<hash>\#[\w$.\-]+)
  | (?P<block>\^[\w$.\-]+)
  | (?P<arrow>->|>=)
  | (?P<number>0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)
  | (?P<ident>[A-Za-z_][\w$.]*)
  | (?P<punct>[()\[\]{}<>,=:*|+\-?!/])
""", re.VERBOSE)

_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = {v: k for k, v in _OPEN.items()}


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    offset: int
    line_start: bool
    """The first token on its line."""


def tokenize(text: str, error: type[TransformParseError] = MlirParseError, *,
             lenient: bool = False, start: int = 0, end: int | None = None) -> list[Token]:
    """Every token of ``text`` (of ``text[start:end]``, a line start to a line end, with the
    offsets of ``text``) except blanks and comments; ``// -----`` separators are kept as
    tokens of kind ``split``. A character no token starts with raises ``error``, or with
    ``lenient`` is a token of kind ``other``."""
    tokens: list[Token] = []
    pos, fresh_line = start, True
    stop = len(text) if end is None else end
    while pos < stop:
        m = _TOKEN.match(text, pos, stop)
        if m is None:
            if not lenient:
                raise error(f"unexpected character {text[pos]!r}", text, pos)
            tokens.append(Token("other", text[pos], pos, fresh_line))
            pos, fresh_line = pos + 1, False
            continue
        kind = m.lastgroup or ""
        if kind == "newline":
            fresh_line = True
        elif kind == "comment":
            if re.fullmatch(r"//\s*-----\s*", m.group()):
                tokens.append(Token("split", m.group(), m.start(), True))
        elif kind != "ws":
            tokens.append(Token(kind, m.group(), m.start(), fresh_line))
            fresh_line = False
        pos = m.end()
    return tokens


def starts_statement(tok: Token) -> bool:
    """Whether ``tok``, first on its line, begins a new statement."""
    if tok.kind in ("value", "string", "block", "hash", "split"):
        return True
    if tok.text == "}":
        return True
    return tok.kind == "ident" and ("." in tok.text or tok.text in ("return", "module", "func"))


def type_alias(tok: Token, ahead: Callable[[int], Token | None]) -> bool:
    """Whether ``tok`` begins a type alias ``!name = type`` (rocMLIR's
    ``emulate-narrow-type-invalid.mlir``: ``!tGlobal = memref<32xi4, ...>``)."""
    name, eq = ahead(1), ahead(2)
    return (tok.kind == "punct" and tok.text == "!" and name is not None and name.kind == "ident"
            and eq is not None and eq.kind == "punct" and eq.text == "=")


def begins_statement(before: Token | None, tok: Token, ahead: Callable[[int], Token | None]) -> bool:
    """Whether ``tok``, first on its line after ``before`` (outside every bracket), begins a new
    statement; ``ahead(k)`` is the ``k``-th token after ``tok``.

    Beyond ``starts_statement``: a line after ``=`` or ``,`` continues the results of the
    statement before it (``%i0, %i1 =`` and the op on the next line, as rocMLIR's
    ``index_diff_update.mlir`` writes it), and a value begins a statement only as its results
    (``%a =``, ``%a, %b =``, ``%a:2 =``), so that an operand that starts a line (``features =
    dot {...}`` and then ``%source -> [...](%view)`` of ``rock.threadwise_write_all``) continues
    the op.
    """
    if before is not None and before.kind == "punct" and before.text in ("=", ","):
        return False
    if not starts_statement(tok):
        return type_alias(tok, ahead)
    if tok.kind != "value":
        return True
    k = 1
    while True:  # %a (:N)? (, %b (:N)?)* =
        nxt = ahead(k)
        if nxt is not None and nxt.text == ":" and nxt.kind == "punct":
            k += 2
            nxt = ahead(k)
        if nxt is None or nxt.kind != "punct":
            return False
        if nxt.text == "=":
            return True
        following = ahead(k + 1)
        if nxt.text != "," or following is None or following.kind != "value":
            return False
        k += 2


class Cursor:
    """A position in a token list, with the checks a recursive-descent reader needs."""

    error_type: type[TransformParseError] = MlirParseError
    """What the cursor raises (a parser of one attribute raises ``TransformParseError``)."""

    def __init__(self, text: str, tokens: list[Token], pos: int = 0, end: int | None = None) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = pos
        self.begin = pos
        """Where this cursor started (the first token of its statement)."""
        self.end = len(tokens) if end is None else end

    def error(self, expected: str, tok: Token | None = None) -> TransformParseError:
        tok = tok or self.peek()
        if tok is None:
            offset = self.tokens[self.end - 1].offset if self.end else 0
            return self.error_type(f"expected {expected}, found the end of the statement", self.text, offset)
        return self.error_type(f"expected {expected}, found {tok.text!r}", self.text, tok.offset)

    def peek(self, ahead: int = 0) -> Token | None:
        i = self.pos + ahead
        return self.tokens[i] if i < self.end else None

    def at_kind(self, kind: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind

    def at(self, text: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text == text and tok.kind != "string"

    def next(self, expected: str = "more input") -> Token:
        tok = self.peek()
        if tok is None:
            raise self.error(expected)
        self.pos += 1
        return tok

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def expect(self, text: str, expected: str | None = None) -> Token:
        if not self.at(text):
            raise self.error(expected or f"'{text}'")
        return self.next()

    def kind(self, kind: str, expected: str) -> Token:
        tok = self.peek()
        if tok is None or tok.kind != kind:
            raise self.error(expected)
        return self.next()

    def value(self, expected: str = "an SSA value such as '%0'") -> str:
        return self.kind("value", expected).text[1:]

    def integer(self, expected: str = "an integer") -> int:
        tok = self.kind("number", expected)
        try:
            return int(tok.text, 0)
        except ValueError:
            raise self.error(expected, tok) from None

    def signed(self, expected: str = "a number") -> str:
        """A number and the ``-`` before it, if any (MLIR's lexer reads the sign as its own
        token), as text: ``-1.5``."""
        nxt = self.peek(1)
        if self.at("-") and nxt is not None and nxt.kind == "number":
            self.pos += 1
            return "-" + self.next().text
        return self.next(expected).text

    def balanced(self) -> tuple[int, int]:
        """Skip one bracketed group starting here; return its token range ``[start, stop)``."""
        start = self.pos
        tok = self.next("a bracket")
        if tok.text not in _OPEN:
            raise self.error("a bracket", tok)
        stack = [tok]
        while stack:
            tok = self.peek()
            if tok is None:
                opened = stack[-1]
                raise self.error_type(f"'{opened.text}' is never closed", self.text, opened.offset)
            self.pos += 1
            if tok.kind in ("string", "arrow"):
                continue
            if tok.text in _OPEN:
                stack.append(tok)
            elif tok.text in _CLOSE:
                if stack[-1].text != _CLOSE[tok.text]:
                    raise self.error_type(
                        f"'{tok.text}' closes '{stack[-1].text}' opened at "
                        f"{where(self.text, stack[-1].offset)}", self.text, tok.offset)
                stack.pop()
        return start, self.pos

    def source(self, start: int, stop: int) -> str:
        """The text of tokens ``[start, stop)`` as written."""
        if start >= stop:
            return ""
        last = self.tokens[stop - 1]
        return self.text[self.tokens[start].offset:last.offset + len(last.text)]

    def _token(self, i: int) -> Token | None:
        return self.tokens[i] if i < self.end else None

    def statement_end(self) -> int:
        """Index of the token after the statement starting here."""
        depth, i = 0, self.pos
        while i < self.end:
            tok = self.tokens[i]
            if (i > self.pos and depth == 0 and tok.line_start
                    and begins_statement(self.tokens[i - 1], tok, lambda k, i=i: self._token(i + k))):
                return i
            if tok.kind not in ("string", "arrow"):
                if tok.text in _OPEN:
                    depth += 1
                elif tok.text in _CLOSE:
                    if depth == 0:
                        return i  # the '}' closing the enclosing region
                    depth -= 1
            i += 1
        return i


def where(text: str, offset: int) -> str:
    """``line:column`` of ``offset``."""
    line, column = line_column(text, offset)
    return f"{line}:{column}"
