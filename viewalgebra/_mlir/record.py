"""An op in MLIR's generic form (``mlir/docs/LangRef.md``, 'Operations'), read into a record that
the reader's handlers take their operands, attributes and types from:

    %r = "name"(%a, %b) <{properties}> ({regions}) {attributes} : (types) -> results

Properties (``<{...}>``, MLIR's inherent attributes) and the attribute dictionary are merged into
one dictionary, as older MLIR printed them all in ``{...}``. The record holds token ranges of the
file being read, so that errors point into it and attributes are read by the reader's parsers.

Also here: region statements of the generic form (``linalg.generic`` bodies, function-level
constants, ``func.return``) in custom form, the inverse of ``generic.statement``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._maps.lexer import Cursor, Token, tokenize
from ..errors import MlirParseError
from .generic import FASTMATH

Span = tuple[int, int]
"""A token range ``[start, stop)``."""


@dataclass(frozen=True, slots=True)
class GenericOp:
    """One op in generic form; ``Span`` values index the tokens of the file being read."""

    name: Token
    """The quoted op name."""
    results: tuple[str, ...]
    operands: tuple[int, ...]
    """Token index of each operand ``%x``."""
    attributes: dict[str, Span]
    """Properties and attributes: key -> its value's tokens (empty for a unit attribute)."""
    properties: frozenset[str]
    """Which of ``attributes`` were written as properties ``<{...}>``."""
    regions: tuple[Span, ...]
    """Each region's tokens, braces included."""
    operand_types: tuple[Span, ...]
    result_types: tuple[Span, ...]

    @property
    def op(self) -> str:
        return self.name.text.strip('"')


def read_generic_op(c: Cursor, results: list[str]) -> GenericOp:
    """The op at ``c`` (on its quoted name, results already read); ``c`` ends after it."""
    name = c.kind("string", "a quoted op name")
    c.expect("(", "'(' opening the operands")
    operands: list[int] = []
    while not c.accept(")"):
        c.kind("value", "an operand '%x'")
        operands.append(c.pos - 1)
        if not c.at(")"):
            c.expect(",", "',' or ')' in the operands")
    if c.at("["):  # successors
        c.balanced()
    attributes: dict[str, Span] = {}
    properties: set[str] = set()
    if c.at("<"):
        start, stop = c.balanced()
        inner = Cursor(c.text, c.tokens, start + 1, stop - 1)
        if not inner.at("{"):
            raise inner.error("'{' opening the properties")
        a, b = inner.balanced()
        found = entries(c, a, b)
        attributes.update(found)
        properties.update(found)
    regions: list[Span] = []
    if c.at("(") and _next_is(c, "{"):
        start, stop = c.balanced()
        inner = Cursor(c.text, c.tokens, start + 1, stop - 1)
        while inner.peek() is not None:
            regions.append(inner.balanced())
            inner.accept(",")
    if c.at("{"):
        attributes.update(entries(c, *c.balanced()))
    c.expect(":", "':' and the op's type")
    if not c.at("("):
        raise c.error("'(' opening the operand types")
    operand_types = split(c, *c.balanced())
    c.expect("->", "'->' and the result types")
    if c.at("("):
        result_types = split(c, *c.balanced())
    else:
        start = c.pos
        _type(c)
        result_types = [(start, c.pos)]
    if c.at("loc"):
        c.next()
        c.balanced()
    if len(operand_types) != len(operands) or len(result_types) != len(results):
        raise MlirParseError(f"{name.text} has {len(operands)} operand(s) and {len(results)} result(s) "
                             f"but {len(operand_types)} operand type(s) and {len(result_types)} "
                             "result type(s)", c.text, name.offset)
    return GenericOp(name, tuple(results), tuple(operands), attributes, frozenset(properties),
                     tuple(regions), tuple(operand_types), tuple(result_types))


def _type(c: Cursor) -> None:
    c.accept("!")
    c.next("a type")
    if c.at("<"):
        c.balanced()


def _next_is(c: Cursor, text: str) -> bool:
    tok = c.peek(1)
    return tok is not None and tok.text == text


def split(c: Cursor, start: int, stop: int) -> list[Span]:
    """The comma-separated items inside the brackets at tokens ``[start, stop)``."""
    out: list[Span] = []
    inner = Cursor(c.text, c.tokens, start + 1, stop - 1)
    begin = inner.pos
    while (tok := inner.peek()) is not None:
        if tok.kind == "punct" and tok.text in "([{<":
            inner.balanced()
        elif inner.at(","):
            out.append((begin, inner.pos))
            inner.next()
            begin = inner.pos
        else:
            inner.next()
    if inner.pos > begin:
        out.append((begin, inner.pos))
    return out


def entries(c: Cursor, start: int, stop: int) -> dict[str, Span]:
    """The ``key = value`` entries of the dictionary at tokens ``[start, stop)``."""
    out: dict[str, Span] = {}
    for a, b in split(c, start, stop):
        key = c.tokens[a].text.strip('"')
        out[key] = (a + 2, b) if b > a + 1 and c.tokens[a + 1].text == "=" else (b, b)
    return out


# {{{ statements in custom form


def custom_statement(text: str) -> str:
    """A statement written by ``generic.statement`` (``%r = "arith.addf"(%a, %b) <{fastmath =
    #arith.fastmath<none>}> : (f32, f32) -> f32``) in custom form (``%r = arith.addf %a, %b :
    f32``); any other statement is kept as written."""
    tokens = tokenize(text)
    c = Cursor(text, tokens)
    results: list[str] = []
    while c.at_kind("value"):
        results.append(c.value())
        c.accept(",")
    if results and not c.accept("="):
        return text
    if not c.at_kind("string"):
        return text
    try:
        op = read_generic_op(c, results)
    except MlirParseError:
        return text
    name = op.op
    if c.peek() is not None or op.regions or set(op.attributes) - {"fastmath", "value"}:
        return text
    operands = ", ".join(tokens[i].text for i in op.operands)
    ins = [c.source(*t) for t in op.operand_types]
    outs = [c.source(*t) for t in op.result_types]
    head = ", ".join(f"%{r}" for r in results) + " = " if results else ""
    if name == "arith.constant" and "value" in op.attributes and not operands and len(outs) == 1:
        return f"{head}arith.constant {c.source(*op.attributes['value'])}"
    if "value" in op.attributes:
        return text
    if name in ("linalg.yield", "func.return") and not results:
        word = "return" if name == "func.return" else name
        return f"{word} {operands} : {', '.join(ins)}" if ins else word
    fastmath = ""
    if "fastmath" in op.attributes:
        flags = c.source(*op.attributes["fastmath"])
        if name not in FASTMATH or not flags.startswith("#arith.fastmath<"):
            return text
        flags = flags.removeprefix("#arith.fastmath")
        fastmath = "" if flags == "<none>" else f" fastmath{flags}"
    if not ins or len(outs) != 1:
        return text
    if len(set(ins)) == 1 and len(ins) == len(op.operands) and outs == ins[:1]:
        types = outs[0]
    elif len(ins) == 1:  # a cast
        types = f"{ins[0]} to {outs[0]}"
    else:
        return text
    return f"{head}{name} {operands}{fastmath} : {types}"


def custom_region(text: str) -> str:
    """A region ``{ ^bb0(...): ... }`` with each statement ``custom_statement`` can print in
    custom form so printed, one statement a line, indented by two under the block label."""
    tokens = tokenize(text)
    c = Cursor(text, tokens)
    start, stop = c.balanced()
    r = Cursor(text, tokens, start + 1, stop - 1)
    lines = ["{"]
    if r.at_kind("block"):
        a = r.pos
        r.next()
        if r.at("("):
            r.balanced()
        r.expect(":")
        lines.append(r.source(a, r.pos))
    while r.peek() is not None:
        end = r.statement_end()
        lines.append("  " + custom_statement(r.source(r.pos, end)))
        r.pos = end
    return "\n".join([*lines, "}"])


# }}}
