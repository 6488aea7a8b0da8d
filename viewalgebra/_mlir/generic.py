"""MLIR's generic op form (``mlir-opt --mlir-print-op-generic``) of the ops the writer prints in
custom form: ``"name"(%operands) <{properties}> ({regions}) {attributes} : (types) -> results``.

The ops of other dialects than MLIR's own are printed so by ``generic_text.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._maps.lexer import Cursor, Token, tokenize
from ..errors import MlirParseError, MlirWriteError

FASTMATH = frozenset({
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.negf",
    "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.maxf", "arith.minf",
    "math.exp", "math.exp2", "math.log", "math.sqrt", "math.rsqrt", "math.tanh", "math.absf",
    "math.powf", "math.erf", "math.sin", "math.cos"})
"""Float ops with the ``fastmath`` property (``ArithFastMathInterface``), printed when generic."""


def op(name: str, operands: Sequence[str] = (), types: Sequence[str] = (), results: Sequence[str] = (),
       *, properties: Sequence[tuple[str, str]] = (), attributes: Sequence[tuple[str, str]] = (),
       region: Sequence[str] | None = None, defines: Sequence[str] = ()) -> list[str]:
    """One op in generic form, as lines (a region's lines as given: block labels at the op's
    indentation, ops indented by two more)."""
    head = ", ".join(f"%{d}" for d in defines)
    text = (f"{head} = " if head else "") + f'"{name}"(' + ", ".join(f"%{o}" for o in operands) + ")"
    if properties:
        text += " <{" + _dictionary(properties) + "}>"
    signature = "(" + ", ".join(types) + ") -> " + (
        results[0] if len(results) == 1 and not results[0].startswith("(") else
        "(" + ", ".join(results) + ")")
    tail = (" {" + _dictionary(attributes) + "}" if attributes else "") + " : " + signature
    if region is None:
        return [text + tail]
    return [text + " ({", *region, "})" + tail]


def _dictionary(entries: Sequence[tuple[str, str]]) -> str:
    # MLIR keeps dictionaries sorted by name.
    return ", ".join(key if value == "" else f"{key} = {value}" for key, value in sorted(entries))


def entries(text: str) -> list[tuple[str, str]]:
    """``{a = 1 : i32, b, c = [x, y]}`` as ``[("a", "1 : i32"), ("b", ""), ("c", "[x, y]")]``."""
    tokens = tokenize(text)
    c = Cursor(text, tokens)
    start, stop = c.balanced()
    return _entries(Cursor(text, tokens, start + 1, stop - 1))


def _entries(c: Cursor) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    while c.peek() is not None:
        key = c.next().text
        if c.accept("="):
            begin = c.pos
            while (tok := c.peek()) is not None and not c.at(","):
                if tok.kind == "punct" and tok.text in "([{<":
                    c.balanced()
                else:
                    c.next()
            out.append((key, c.source(begin, c.pos)))
        else:
            out.append((key, ""))
        c.accept(",")
    return out


# {{{ statements of regions and function-level constants


def statement(text: str) -> str:
    """One statement in custom form (``%r = arith.addf %a, %b : f32``, ``linalg.yield %x : f32``,
    ``%c = arith.constant 2.0 : f32``) in generic form; a statement already generic is kept."""
    try:
        tokens = tokenize(text)
    except MlirParseError as e:
        raise MlirWriteError(f"cannot print {text!r} in generic form: {e}") from None
    c = Cursor(text, tokens)
    results: list[str] = []
    while c.at_kind("value"):
        results.append(c.value())
        c.accept(",")
    if results:
        c.expect("=")
    name = c.next("an op name")
    if name.kind == "string":
        return text.strip()
    colon = _top_level_colon(c)
    if colon is None:
        if name.text in ("linalg.yield", "func.return", "return") and c.peek() is None:
            return op("func.return" if name.text == "return" else name.text)[0]
        raise MlirWriteError(f"cannot print {text.strip()!r} in generic form (no types)")
    if name.text == "arith.constant" and len(results) == 1:
        value = c.source(c.pos, c.end)
        result = c.source(colon + 1, c.end)
        return op(name.text, (), (), (result,), properties=[("value", value)], defines=results)[0]
    operands: list[str] = []
    properties: list[tuple[str, str]] = []
    while c.pos < colon:
        tok = c.next()
        if tok.kind == "value":
            operands.append(tok.text[1:])
        elif tok.text == "fastmath" and c.at("<"):
            a, b = c.balanced()
            properties.append(("fastmath", "#arith.fastmath" + c.source(a, b)))
        elif tok.text != ",":
            raise MlirWriteError(f"cannot print {text.strip()!r} in generic form ({tok.text!r})")
    types = _split_types(Cursor(text, tokens, colon + 1, len(tokens)))
    if name.text in ("linalg.yield", "func.return", "return"):
        return op("func.return" if name.text == "return" else name.text, operands, types)[0]
    if name.text in FASTMATH and not properties:
        properties.append(("fastmath", "#arith.fastmath<none>"))
    if "to" in types:  # a cast: %r = arith.extf %a : f16 to f32
        i = types.index("to")
        ins, outs = types[:i], types[i + 1:]
    elif len(types) == 1:  # same operand and result types
        ins, outs = types * len(operands), types * len(results)
    else:
        raise MlirWriteError(f"cannot print {text.strip()!r} in generic form (its types)")
    if len(ins) != len(operands) or len(outs) != len(results):
        raise MlirWriteError(f"cannot print {text.strip()!r} in generic form (its types)")
    return op(name.text, operands, ins, outs, properties=properties, defines=results)[0]


def _top_level_colon(c: Cursor) -> int | None:
    return top_level(c, (":",))


def top_level(c: Cursor, texts: tuple[str, ...], *, last: bool = False) -> int | None:
    """Index of the statement's first (``last``: last) token outside brackets whose text is one
    of ``texts``."""
    found = None
    depth = 0
    for i in range(c.pos, c.end):
        tok = c.tokens[i]
        if tok.kind == "punct" and tok.text in "([{<":
            depth += 1
        elif tok.kind == "punct" and tok.text in ")]}>":
            depth -= 1
        elif depth == 0 and tok.text in texts:
            if not last:
                return i
            found = i
    return found


def _split_types(c: Cursor) -> list[str]:
    """``f16 to f32`` as ``["f16", "to", "f32"]``; ``f32, f32`` as ``["f32", "f32"]``."""
    out: list[str] = []
    start = c.pos
    while (tok := c.peek()) is not None:
        if tok.kind == "punct" and tok.text in "([{<":
            c.balanced()
            continue
        if tok.text in (",", "to"):
            out.append(c.source(start, c.pos))
            if tok.text == "to":
                out.append("to")
            c.next()
            start = c.pos
            continue
        c.next()
    out.append(c.source(start, c.pos))
    return [t for t in out if t]


def region(body: str) -> list[str]:
    """A region written ``{ ^bb0(%a: f32, ...): ...  }`` as the lines of its generic form."""
    tokens = tokenize(body)
    c = Cursor(body, tokens)
    start, stop = c.balanced()
    r = Cursor(body, tokens, start + 1, stop - 1)
    lines: list[str] = []
    if r.at_kind("block"):
        a = r.pos
        r.next()
        if r.at("("):
            r.balanced()
        r.expect(":")
        lines.append(_label(body, tokens[a:r.pos]))
    while r.peek() is not None:
        end = r.statement_end()
        lines.append("  " + statement(r.source(r.pos, end)))
        r.pos = end
    return lines


def _label(text: str, tokens: list[Token]) -> str:
    """``^bb0(%a : f32, %b: f32):`` as MLIR prints it, ``^bb0(%a: f32, %b: f32):``."""
    first, last = tokens[0], tokens[-1]
    raw = text[first.offset:last.offset + len(last.text)]
    return " ".join(raw.split()).replace(" :", ":").replace("( ", "(").replace(" )", ")")


# }}}
