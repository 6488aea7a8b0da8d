"""MLIR text with every op of a dialect MLIR does not register printed in generic form.

MLIR's own parser reads the custom syntax of the dialects it registers upstream (``UPSTREAM``);
an op of any other dialect (rock, migraphx, an unknown one) is read only in generic form unless
the parser has that dialect. ``generic_ops`` rewrites just those ops of a function (or any run of
statements), at any depth of regions, and leaves the rest of the text as it was:

- an op with a known definition (``DEFINED``: rock ops from rocMLIR's ``RockOps.td`` in
  ``rock_ops.py``, MIGraphX and MHAL ops in ``migraphx_ops.py``) by it: operands in the op's
  order, ``operandSegmentSizes``, attribute values typed as its parser types them;
  ``rock.transforming_for``, whose syntax is hand-written in rocMLIR (``RockOps.cpp``), by its
  own reader here. A MIGraphX or MHAL op its definition does not read is taken as written when
  that is faithful (``migraphx_ops.AS_WRITTEN``);
- an op with no definition known, by what is written: its operands in written order, its
  attribute dictionary, and the types after its ``:``. When its custom syntax holds more than
  that (keywords, attributes outside the dictionary) there is no faithful generic form to give:
  ``MlirWriteError`` names the op and its line.

The types of values the text does not restate come from what was read before them: function
and block arguments, loop variables, and the results of ops whose result type is written.
"""

from __future__ import annotations

from .._common.lines import line_column
from .._maps.lexer import Cursor, Token, starts_statement, tokenize
from ..errors import MlirParseError, MlirWriteError
from . import generic as G
from .declarative import defines, read_results, read_type, read_value, to_generic
from .migraphx_ops import AS_WRITTEN, MHAL_OPS, MIGRAPHX_OPS
from .rock_ops import ROCK_OPS, OpDef

DEFINED: dict[str, OpDef] = {**ROCK_OPS, **MIGRAPHX_OPS, **MHAL_OPS}
"""Every op with a known definition, keyed by its full name."""

UPSTREAM = frozenset({
    "builtin", "func", "arith", "memref", "tensor", "linalg", "scf", "vector", "gpu", "affine",
    "math", "bufferization", "amdgpu", "rocdl", "llvm", "tosa", "cf", "index", "complex"})
"""Dialects whose custom syntax MLIR's parser reads (registered upstream, rocMLIR's tosa too)."""

_SAME_TYPE = ("arith.", "math.")
_INDEX = frozenset({"affine.apply", "affine.min", "affine.max", "gpu.thread_id", "gpu.block_id",
                    "gpu.block_dim", "gpu.grid_dim", "gpu.lane_id", "arith.index_cast"})
_RESULT_IS_TYPE = frozenset({"arith.constant", "memref.alloc", "memref.alloca", "memref.get_global",
                             "tensor.empty", "bufferization.alloc_tensor"})


def upstream(kind: str) -> bool:
    """Whether MLIR's parser reads op ``kind`` in custom form."""
    return "." not in kind or kind.split(".", 1)[0] in UPSTREAM


def generic_ops(text: str, types: dict[str, str] | None = None, *, line: int | None = None) -> str:
    """MLIR text (statements, functions, a module) with each op of a dialect MLIR does not
    register (rock, migraphx, ...) in generic form, the rest as written (docs/cli.md,
    'Generic form').

    ``types`` holds the types of values defined before ``text``
    and receives those ``text`` defines. An op with no generic form raises ``MlirWriteError``
    naming it, and its line and column when ``line`` (that of ``text``'s start) is given."""
    return _Walker(text, {} if types is None else types, line).run()


class _Walker:
    def __init__(self, text: str, types: dict[str, str], line: int | None) -> None:
        self.text = text
        self.types = types
        self.line = line
        try:
            self.tokens = tokenize(text)
        except MlirParseError as e:
            raise MlirWriteError(f"cannot print in generic form: {e}") from None

    def run(self) -> str:
        text, tokens = self.text, self.tokens
        out: list[str] = []
        done = 0
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if not (tok.line_start or i == 0) or not starts_statement(tok) or tok.kind in ("hash", "split"):
                i += 1
                continue
            c = Cursor(text, tokens, i)
            end = c.statement_end()
            kind = _op_name(tokens, i, end)
            if kind is None or upstream(kind):
                self.learn(i, end, kind)
                i += 1
                continue
            start, stop = tok.offset, tokens[end - 1].offset + len(tokens[end - 1].text)
            lines = self.statement(kind, text[start:stop], start)
            indent = text[text.rfind("\n", 0, start) + 1:start]
            out += [text[done:start], ("\n" + indent).join(lines)]
            done = stop
            i = end
        out.append(text[done:])
        return "".join(out)

    def statement(self, kind: str, text: str, offset: int) -> list[str]:
        d = DEFINED.get(kind)
        try:
            if kind == "rock.transforming_for":
                lines, defined = self.transforming_for(text)
            elif d is not None and d.format:
                lines, defined = self.by_definition(kind, d, text)
            else:
                lines, defined = self.by_text(kind, text)
        except (MlirWriteError, MlirParseError) as e:
            if isinstance(e, MlirWriteError) and "no generic form" in str(e):
                raise  # an op inside this one's regions, named already
            where = ""
            if self.line is not None:
                line, column = line_column(self.text, offset)
                where = f"{line + self.line - 1}:{column}: "
            raise MlirWriteError(f"{where}{kind}: no generic form: {e}") from None
        self.types.update(defined)
        return lines

    def region(self, text: str, arguments: list[tuple[str, str]] | None = None,
               terminator: str | None = None) -> list[str]:
        """A region ``{ ... }``'s statements in generic form, as the lines of a generic op's
        region (block labels at the op's level, ops two deeper)."""
        inner = text.strip()[1:-1]
        body = generic_ops(inner, self.types)
        lines = body.split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        depth = min((len(x) - len(x.lstrip()) for x in lines if x.strip() and not x.lstrip().startswith("^")),
                    default=0)
        out: list[str] = []
        if arguments is not None:
            if lines and lines[0].lstrip().startswith("^"):
                raise MlirWriteError("a region with block labels where block arguments are implicit")
            out.append("^bb0(" + ", ".join(f"%{a}: {t}" for a, t in arguments) + "):")
        for x in lines:
            out.append(x.strip() if x.lstrip().startswith("^") else "  " + x[depth:] if x.strip() else "")
        if terminator is not None and not (lines and terminator in lines[-1]):
            out.append("  " + G.op(terminator)[0])
        return out

    def by_definition(self, kind: str, d: OpDef, text: str) -> tuple[list[str], list[tuple[str, str]]]:
        """An op by its definition's format or, in a dialect of ``AS_WRITTEN``, as written."""
        try:
            return to_generic(kind, d, text, self.types.get, self.region)
        except MlirWriteError as e:
            if kind.split(".", 1)[0] not in AS_WRITTEN or "does not follow its definition" not in str(e):
                raise
            try:
                return self.by_text(kind, text, d)
            except (MlirWriteError, MlirParseError) as written:
                raise MlirWriteError(f"{e}; nor can it be taken as written: {written}") from None

    # {{{ ops with no declarative format

    def transforming_for(self, text: str) -> tuple[list[str], list[tuple[str, str]]]:
        """``rock.transforming_for``, as its parser in rocMLIR's ``RockOps.cpp`` reads it:
        ``[{attrs}] (%l...) = [maps](%u...), ... [(%v...) = validity] [iter_args(%a = %x : T...)
        -> (T...)] bounds [..] strides [..] { region }``."""
        tokens = tokenize(text)
        c = Cursor(text, tokens)
        results = read_results(c)
        c.expect("rock.transforming_for")
        properties: list[tuple[str, str]] = []
        attributes: list[tuple[str, str]] = []
        if c.at("{"):
            a, b = c.balanced()
            for key, value in G.entries(c.source(a, b)):
                (properties if key in ("forceUnroll", "useIndexDiffs") else attributes).append((key, value))
        lowers: list[list[str]] = []
        maps: list[str] = []
        uppers: list[str] = []
        validities: list[str] | None = None  # rocMLIR's older form has no validity clause
        while True:
            c.expect("(")
            names = [read_value(c)]
            while c.accept(","):
                names.append(read_value(c))
            c.expect(")")
            c.expect("=")
            if c.accept("validity"):
                validities = names
                break
            a, b = c.balanced()
            maps.append(c.source(a, b))
            c.expect("(")
            uppers.append(read_value(c))
            while c.accept(","):
                uppers.append(read_value(c))
            c.expect(")")
            lowers.append(names)
            if not c.accept(",") and not c.at("("):  # '(%v...) = validity' follows with no comma
                break
        iter_args: list[tuple[str, str]] = []
        inits: list[str] = []
        result_types: list[str] = []
        if c.accept("iter_args"):
            c.expect("(")
            while not c.at(")"):
                arg = read_value(c)
                c.expect("=")
                inits.append(read_value(c))
                iter_args.append((arg, ""))
                c.accept(",")
            c.expect(")")
            c.expect("->")
            c.expect("(")
            result_types = [read_type(c)]
            while c.accept(","):
                result_types.append(read_type(c))
            c.expect(")")
            iter_args = [(a, t) for (a, _), t in zip(iter_args, result_types, strict=True)]
        bounds, strides = _index_array(c, "bounds"), _index_array(c, "strides")
        a, b = c.balanced()
        region_text = c.source(a, b)
        if c.peek() is not None:
            raise c.error("the end of rock.transforming_for")
        arguments = [(x, "index") for names in lowers for x in names]
        arguments += [(v, "i1") for v in validities or ()] + iter_args
        self.types.update(arguments)
        starts = [0]
        for names in lowers:
            starts.append(starts[-1] + len(names))
        if validities is not None:
            starts.append(starts[-1] + len(validities))
        properties += [("transforms", "[" + ", ".join(maps) + "]"), ("bounds", bounds), ("strides", strides),
                       ("lowerStarts", f"dense<[{', '.join(map(str, starts))}]> : vector<{len(starts)}xi32>"),
                       ("operandSegmentSizes", f"array<i32: {len(uppers)}, {len(inits)}>")]
        operand_types = ["index"] * len(uppers) + [t for _, t in iter_args]
        region = self.region(region_text, arguments, "rock.yield")
        lines = G.op("rock.transforming_for", [*uppers, *inits], operand_types, result_types,
                     properties=properties, attributes=attributes, region=region, defines=defines(results))
        return lines, list(zip(results, result_types, strict=True))

    def by_text(self, kind: str, text: str,
                d: OpDef | None = None) -> tuple[list[str], list[tuple[str, str]]]:
        """An op with no definition known, or one ``d`` does not read: operands, regions, attribute
        dictionary and types as written; with ``d``, only if the counts of operands and results fit
        it, and its attributes are properties."""
        tokens = tokenize(text)
        c = Cursor(text, tokens)
        results = read_results(c)
        c.next()
        operands: list[str] = []
        attributes: list[tuple[str, str]] = []
        regions: list[list[str]] = []
        while (tok := c.peek()) is not None and not c.at(":"):
            if tok.kind == "value":
                operands.append(read_value(c))
            elif tok.text == "{":
                a, b = c.balanced()
                if _region_follows(Cursor(text, tokens, a)):
                    regions.append(self.region(c.source(a, b)))
                else:
                    attributes += G.entries(c.source(a, b))
            elif tok.text in ("(", ")", "[", "]", ","):
                c.next()
            else:
                unknown = ", and no definition of it is known" if d is None else ""
                raise MlirWriteError(f"its custom form holds {tok.text!r}, which only its own parser "
                                     f"understands{unknown}")
        ins: list[str] = []
        outs: list[str] = []
        if c.accept(":"):
            parenthesized = c.accept("(")
            ins = [] if c.at(")") else _types(c)
            if parenthesized:
                c.expect(")")
            if c.accept("->"):
                parenthesized = c.accept("(")
                outs = [] if c.at(")") else _types(c)
                if parenthesized:
                    c.expect(")")
            if c.peek() is not None:
                raise c.error("the end of the op")
        dialect = kind.split(".", 1)[0]
        if not outs and len(ins) == len(operands) + len(results):
            ins, outs = ins[:len(operands)], ins[len(operands):]
        elif not outs and len(ins) == 1 and results:
            ins, outs = ins * len(operands), ins * len(results)
        if len(ins) != len(operands):
            known = [self.types.get(o) for o in operands]
            if any(t is None for t in known):
                raise MlirWriteError(f"{len(operands)} operands and {len(ins)} operand types")
            ins = [t for t in known if t is not None]
        if len(outs) != len(results):
            raise MlirWriteError(f"{len(results)} results and {len(outs)} result types")
        known = [t for t in (self.types.get(o) for o in operands) if t is not None]
        ins = [self.qualified(t, dialect, known) for t in ins]
        outs = [self.qualified(t, dialect, known + ins) for t in outs]
        region = [line for i, r in enumerate(regions) for line in ([] if i == 0 else ["}, {"]) + r]
        properties: list[tuple[str, str]] = []
        if d is not None:
            fits = _fits(d.operands, len(operands)) and _fits(d.results, len(results))
            if not fits or d.regions or regions:
                raise MlirWriteError(f"{len(operands)} operands and {len(results)} results, which its "
                                     "definition does not divide among its operands and results")
            inherent = {name for name, _ in d.attributes}
            properties = [a for a in attributes if a[0] in inherent]
            attributes = [a for a in attributes if a[0] not in inherent]
        lines = G.op(kind, operands, ins, outs, properties=properties, attributes=attributes,
                     defines=defines(results), region=region if regions else None)
        return lines, list(zip(results, outs, strict=True))

    @staticmethod
    def qualified(t: str, dialect: str, known: list[str]) -> str:
        """A type written with its dialect prefix left out (``<2x3xf32, 3x1>``) in full, taking the
        prefix from a type of the same dialect the op uses (``!migraphx.shaped``)."""
        if not t.startswith("<"):
            return t
        for k in known:
            if k.startswith(f"!{dialect}.") and "<" in k:
                return k[:k.index("<")] + t
        raise MlirWriteError(f"the type {t} has its dialect prefix left out, and none is known")

    # }}}

    def learn(self, i: int, end: int, kind: str | None) -> None:
        """Record the types a statement kept as written gives its values."""
        tokens = self.tokens
        first = tokens[i]
        if first.kind == "block" or kind in ("func.func", "gpu.func"):
            self.arguments(i, end)
            return
        c = Cursor(self.text, tokens, i, end)
        try:
            results = read_results(c)
        except MlirParseError:
            return
        if c.at_kind("string"):  # generic: the types after its last top-level '->'
            outs = _generic_results(c)
            if outs is not None and len(outs) == len(results):
                self.types.update(zip(results, outs, strict=True))
            return
        if kind in ("affine.for", "scf.for", "scf.parallel", "affine.parallel"):
            c.next()
            while c.at_kind("value") or c.at(",") or c.at("("):
                tok = c.next()
                if tok.kind == "value":
                    self.types[tok.text[1:]] = "index"
            return
        if not results or kind is None:
            return
        if len(results) != 1:
            return
        if kind in _INDEX:
            self.types[results[0]] = _last_type(c, "index") or "index"
            return
        if kind in _RESULT_IS_TYPE or kind.startswith(_SAME_TYPE):
            t = _last_type(c, None)
            if t is not None:
                self.types[results[0]] = "i1" if kind in ("arith.cmpi", "arith.cmpf") else t

    def arguments(self, i: int, end: int) -> None:
        """``%a: T`` pairs of the first parenthesized group of a function head or block label."""
        c = Cursor(self.text, self.tokens, i, end)
        while c.peek() is not None and not c.at("("):
            c.next()
        if not c.accept("("):
            return
        while c.peek() is not None and not c.at(")"):
            if c.at_kind("value") and (nxt := c.peek(1)) is not None and nxt.text == ":":
                name = read_value(c)
                c.next()
                try:
                    self.types[name] = read_type(c)
                except MlirParseError:
                    return
            elif c.at("{") or c.at("("):
                c.balanced()
            else:
                c.next()


def _op_name(tokens: list[Token], i: int, end: int) -> str | None:
    """The op a statement starting at token ``i`` runs (``None`` for a generic op or a label)."""
    j = i
    while j < end and tokens[j].kind == "value":
        j += 1
        if j + 1 < end and tokens[j].text == ":" and tokens[j + 1].kind == "number":
            j += 2
        if j < end and tokens[j].text == ",":
            j += 1
    if j > i:
        if j >= end or tokens[j].text != "=":
            return None
        j += 1
    if j >= end or tokens[j].kind != "ident":
        return None
    return tokens[j].text


def _fits(marks: tuple[str, ...], n: int) -> bool:
    """Whether ``n`` values divide among ``marks`` in one way only: single values one each, at most
    one optional (one or none) or variadic group the rest."""
    groups = [m for m in marks if m[-1] in "?*"]
    spare = n - (len(marks) - len(groups))
    return spare == 0 if not groups else len(groups) == 1 and 0 <= spare <= (1 if groups[0][-1] == "?" else n)


def _region_follows(c: Cursor) -> bool:
    """Whether the ``{`` at ``c`` opens a region: its first statement on a line of its own, and
    not an attribute dictionary written over several lines (``{\n dilation = [1, 1], ...}``)."""
    nxt = c.peek(1)
    if nxt is None:
        return True
    after = c.peek(2)
    entry = nxt.kind in ("ident", "string") and after is not None and after.text in ("=", ",")
    return nxt.line_start and not entry


def _index_array(c: Cursor, word: str) -> str:
    c.expect(word)
    a, b = c.balanced()
    numbers = [t.text for t in c.tokens[a + 1:b - 1] if t.kind == "number"]
    return "[" + ", ".join(f"{n} : index" for n in numbers) + "]"


def _types(c: Cursor) -> list[str]:
    found = [read_type(c)]
    while c.accept(","):
        found.append(read_type(c))
    return found


def _last_type(c: Cursor, default: str | None) -> str | None:
    """The type after the statement's last top-level ``:`` (after ``to`` if it is a cast)."""
    colon = G.top_level(c, (":", "to"), last=True)
    if colon is None:
        return default
    cur = Cursor(c.text, c.tokens, colon + 1, c.end)
    try:
        t = read_type(cur)
    except MlirParseError:
        return default
    return t if cur.peek() is None else default


def _generic_results(c: Cursor) -> list[str] | None:
    arrow = G.top_level(c, ("->",), last=True)
    if arrow is None:
        return None
    cur = Cursor(c.text, c.tokens, arrow + 1, c.end)
    try:
        if cur.accept("("):
            found = [] if cur.at(")") else [read_type(cur)]
            while cur.accept(","):
                found.append(read_type(cur))
            return found
        return [read_type(cur)]
    except MlirParseError:
        return None
