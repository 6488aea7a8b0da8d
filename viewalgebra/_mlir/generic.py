"""MLIR's generic op form (``mlir-opt --mlir-print-op-generic``) of the ops the writer prints in
custom form: ``"name"(%operands) <{properties}> ({regions}) {attributes} : (types) -> results``.

Which attributes of a rock op are properties (inherent) follows the op's ``arguments`` in
``mlir/include/mlir/Dialect/Rock/IR/RockOps.td``; the others stay in the attribute dictionary.
Enum attributes print as rocMLIR's generic printer prints them (``#rock<StoreMethod set>``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._maps.lexer import Cursor, Token, tokenize
from ..errors import MlirParseError, MlirWriteError

INHERENT: dict[str, frozenset[str]] = {
    "rock.gridwise_gemm": frozenset({"arch", "features", "storeMethod", "gridSize", "params"}),
    "rock.gridwise_gemm_accel": frozenset(
        {"arch", "features", "storeMethod", "blockSize", "gridSize", "params"}),
    "rock.gemm": frozenset({"aTransposed", "bTransposed", "cTransposed", "arch", "numCU", "features",
                            "storeMethod", "derivedBlockSize", "gridSize", "params"}),
    "rock.conv2d": frozenset({"arch", "features", "derivedBlockSize", "gridSize", "padding", "strides",
                              "dilations", "params", "numCu"}),
    "rock.conv": frozenset({"arch", "features", "derivedBlockSize", "gridSize", "padding", "strides",
                            "dilations", "params", "numCU"}),
    "rock.reduce": frozenset({"features", "reduceMethod", "axis", "blockSize", "gridSize", "useLDS",
                              "useDPP"}),
    "rock.threadwise_read_into": frozenset({"extraViews", "forceUnroll", "useIndexDiffs"}),
    "rock.threadwise_write_all": frozenset(
        {"extraViews", "features", "storeMethod", "forceUnroll", "useIndexDiffs"}),
    "rock.blockwise_reduce": frozenset({"axis", "reduceMethod", "inputRegView", "blockSize"}),
}
"""Per rock op the writer prints, the names of its properties (RockOps.td)."""

_VIEWS = {"rock.threadwise_read_into": "extraViews", "rock.threadwise_write_all": "extraViews",
          "rock.blockwise_reduce": "inputRegView"}
"""The property holding the transform maps written ``[maps](%x)`` in custom form."""

_REDUCTIONS = ("rock.reduce", "rock.blockwise_reduce")

_ENUMS = {"storeMethod": "StoreMethod", "features": "GemmFeatures", "reduceMethod": "ReduceMethod"}

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


def _enum(key: str, value: str) -> str:
    value = value.strip().strip('"')
    return value if value.startswith("#") else f"#rock<{_ENUMS[key]} {value}>"


def rock_op(kind: str, text: str, operands: Sequence[str], types: Sequence[str]) -> list[str]:
    """A rock op written in custom form (``text``, its operands already in place) in generic
    form, with the given operands and their types in the op's operand order."""
    tokens = tokenize(text)
    c = Cursor(text, tokens, 1)
    inherent = INHERENT.get(kind)
    if inherent is None:
        raise MlirWriteError(f"{kind}: no generic form known for this op")
    found: list[tuple[str, str]] = []
    values = 0
    transposed = ("c", "a", "b")  # rock.gemm's operands in custom order
    while (tok := c.peek()) is not None and not c.at(":"):
        if tok.text == "{" and tok.kind == "punct":
            a, b = c.balanced()
            found += _entries(Cursor(text, tokens, a + 1, b - 1))
        elif tok.text == "[" and tok.kind == "punct":
            a, b = c.balanced()
            found.append((_VIEWS.get(kind, "extraViews"), c.source(a, b)))
        elif tok.text == "storeMethod" and _next_is(c, "("):
            c.next()
            a, b = c.balanced()
            found.append(("storeMethod", _enum("storeMethod", c.source(a + 1, b - 1))))
        elif tok.text in ("storeMethod", "features") and _next_is(c, "="):
            c.next()
            c.next()
            found.append((tok.text, _enum(tok.text, _enum_text(c))))
        elif tok.text == "by" and kind == "rock.threadwise_write_all":
            c.next()
            found.append(("storeMethod", _enum("storeMethod", c.next("a store method").text)))
        elif tok.kind == "ident" and tok.text in ("sum", "max") and kind in _REDUCTIONS:
            c.next()
            found.append(("reduceMethod", _enum("reduceMethod", tok.text)))
        elif tok.text == "tr" and kind == "rock.gemm":
            c.next()
            found.append((f"{transposed[values]}Transposed", ""))
        else:
            if tok.kind == "value":
                values += 1
            c.next()
    properties = [(k, v) for k, v in found if k in inherent]
    attributes = [(k, v) for k, v in found if k not in inherent]
    return op(kind, operands, types, properties=properties, attributes=attributes)


def _next_is(c: Cursor, text: str) -> bool:
    tok = c.peek(1)
    return tok is not None and tok.text == text


def _enum_text(c: Cursor) -> str:
    """``mfma|dot|atomic_add``, ``"dot|atomic_add"``, ``none`` or ``#rock<...>`` at ``c``."""
    tok = c.next("an enum value")
    if tok.kind == "hash":
        start = c.pos - 1
        if c.at("<"):
            c.balanced()
        return c.source(start, c.pos)
    words = [tok.text]
    while c.at("|"):
        c.next()
        words.append(c.next("an enum value").text)
    return "|".join(words)


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
    depth = 0
    for i in range(c.pos, c.end):
        tok = c.tokens[i]
        if tok.kind == "punct" and tok.text in "([{<":
            depth += 1
        elif tok.kind == "punct" and tok.text in ")]}>":
            depth -= 1
        elif tok.text == ":" and depth == 0:
            return i
    return None


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
