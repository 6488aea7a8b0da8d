"""Read rocMLIR kernels from ``.mlir`` text into ``Kernel`` graphs, keeping what is needed to
write them back: the driver (module, functions, statements) and what every op handler shares
(types, operands, transform maps, an op's text with its operand slots).

Ops with a handler (``handlers.py``, one per op name, following rocMLIR's op definitions in
``mlir/include/mlir/Dialect/Rock/IR/RockOps.td``) become ops of the graph with their exact reads
and writes. MLIR's generic form (``"builtin.module"``, ``"func.func"``, ``"rock.transform"(...)``,
as ``mlir-opt --mlir-print-op-generic`` prints it) reads into the same graphs: ``record.py`` reads
a generic op, ``generic_handlers.py`` has the handler of each op name ``handlers.py`` has. Any
other op, in custom or generic form, with or without results and regions, is kept
verbatim (``opaque.py``): it reads and writes every graph value it names, and what it defines is
opaque to the graph, so that an op using such a value is kept verbatim too. Reading fails
(``MlirParseError``) only on text that is not MLIR, on an op with a handler written wrongly, or on
shapes a kernel graph cannot hold (dynamic sizes, memref layouts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .._common.lines import PartText, line_column
from .._kernel.graph import Kernel
from .._maps import affine as A
from .._maps.equations import affine_map_of
from .._maps.lexer import Cursor, Token, starts_statement, tokenize
from .._maps.syntax import read_affine_map_tokens, read_transform_map_tokens
from .._maps.transform_map import TransformMap
from .._maps.types import parse_shaped_type
from ..errors import InvalidTransformError, MlirParseError, TransformParseError, ViewAlgebraError
from .generic_handlers import GENERIC_HANDLERS
from .handlers import HANDLERS, SUPPORTED, Opaque
from .model import GenericText, MlirFunction, MlirModule, OpText, Slot, Unreadable
from .opaque import read_opaque
from .record import GenericOp, read_generic_op, split

__all__ = ["SUPPORTED", "GenericText", "MlirFunction", "MlirModule", "OpText", "Reader", "Slot",
           "Unreadable", "iter_mlir", "iter_mlir_parts", "read_mlir", "text_parts"]


def read_mlir(text: str, *, errors: Literal["raise", "collect"] = "raise") -> MlirModule:
    """Read an ``.mlir`` file.

    Raises ``MlirParseError`` at the first function that cannot be read; with
    ``errors="collect"`` such a function becomes an ``Unreadable`` item and reading goes on. Ops
    the reader does not model are kept verbatim as opaque ops (``op.attr("opaque")`` is their
    ``line:column``), which read and write every graph value they name. Functions and modules
    in MLIR's generic form read as their custom form does (what ``write_mlir(..., generic=True)``
    writes reads back to the same graphs).

    Example: ``read_mlir(path.read_text()).function("bert_part_11__part_0").kernel`` is the
    kernel graph of ``regularize.mlir`` in rocMLIR's tests, with its collapse and expand shapes
    and the generic's broadcasting indexing maps as views.
    """
    return Reader(text, errors).module()


def iter_mlir(text: str, *, errors: Literal["raise", "collect"] = "raise",
              ) -> Iterator[MlirFunction | Unreadable | str]:
    """The items of ``read_mlir(text, errors=errors)``, one at a time, each read when it is
    asked for: only the tokens of one top-level item (a function, an alias) are held at a time,
    so that a file of many functions is read in memory bounded by its largest function.

    A module in generic form (``"builtin.module"``) is one top-level op: its items are read at
    once.
    """
    return Reader(text, errors).items()


def iter_mlir_parts(parts: Iterable[tuple[str, int]], *, errors: Literal["raise", "collect"] = "raise",
                    ) -> Iterator[MlirFunction | Unreadable | str]:
    """``iter_mlir`` of a text given in parts, each ``(text, its first line)``: whole top-level
    items in file order (``text_parts`` cuts them). Only one part is held at a time, with the
    transform-map aliases defined before it, so a file read in parts is read in memory bounded
    by its largest function; every line and column is the file's."""
    return Reader("", errors).items_of(parts)


PART = 1 << 20
"""Characters a part holds at least (then up to the next top-level item)."""

_ITEM_START = re.compile(r'\s*(?:func\.func\b|"func\.func"|module\b|\}|// -----)')
"""A line that may start a part: a function, a module, a module's closing brace, a split."""

_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//.*|[()\[\]{}]')


def text_parts(lines: Iterable[str], size: int = PART) -> Iterator[tuple[str, int]]:
    """Lines (with their line breaks) joined into parts of at least ``size`` characters, each
    cut before a line that starts a top-level item while only modules' braces are open."""
    part: list[str] = []
    length, first = 0, 1
    open_brackets: list[bool] = []
    """The brackets open at the end of the last line: ``True`` for a module's brace."""
    for number, line in enumerate(lines, start=1):
        if length >= size and all(open_brackets) and _ITEM_START.match(line):
            yield "".join(part), first
            part, length, first = [], 0, number
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
        yield "".join(part), first


_KERNEL_ATTR = re.compile(r"[{,]\s*(?:rock\.)?kernel\s*(?=[,}=])")


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


Handler = Callable[["Reader", FunctionState, Cursor, list[str], Token], None]


class Reader:
    """One file being read; the helpers every op handler uses."""

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

    # {{{ top level

    def module(self) -> MlirModule:
        return MlirModule(tuple(self.items()))

    def items(self) -> Iterator[MlirFunction | Unreadable | str]:
        """The top-level items, each read when asked for (what ``_items`` reads from a list of
        all the tokens, read here from tokens lexed one item at a time)."""
        return self.items_of([(self.text, 1)])

    def items_of(self, parts: Iterable[tuple[str, int]]) -> Iterator[MlirFunction | Unreadable | str]:
        """``items`` of a text given in whole top-level items, each part ``(text, first line)``:
        a part is read from its own text, after the transform-map aliases defined before it
        (``_part_text``), with the file's lines and columns."""
        depth = 0
        """Modules open (their braces may close in a later part)."""
        for part, first_line in parts:
            if first_line == 1:
                self.text, start = part, 0
            else:
                self.text, start = self._part_text(part, first_line)
            source = _Lazy(self.text, start)
            while (tok := source.peek()) is not None:
                if tok.kind == "split":
                    source.next()
                    self.affine, self.maps, self.alias_lines = {}, {}, {}
                    yield "// -----"
                elif tok.kind == "hash":
                    self.tokens = source.statement()
                    yield self._alias(Cursor(self.text, self.tokens))
                elif tok.text == "module":
                    self.tokens = source.module_header()
                    c = Cursor(self.text, self.tokens)
                    c.next()
                    if c.at_kind("symbol"):
                        c.next()
                    if c.accept("attributes"):
                        c.balanced()
                    header = c.source(0, c.pos)
                    c.expect("{", "'{' opening the module")
                    source.skip(c.pos)
                    depth += 1
                    yield header + " {"
                elif tok.text == "}" and depth:
                    source.next()
                    depth -= 1
                    yield "}"
                elif tok.text == '"builtin.module"' and tok.kind == "string":
                    self.tokens = source.statement()
                    items: list[MlirFunction | Unreadable | str] = []
                    self._generic_module(Cursor(self.text, self.tokens), items)
                    yield from items
                elif tok.text == "func.func" or tok.text == '"func.func"' and tok.kind == "string":
                    self.tokens = source.statement()
                    yield self._top_function(Cursor(self.text, self.tokens), tok)
                elif tok.kind == "string":
                    self.tokens = source.statement()
                    yield Cursor(self.text, self.tokens).source(0, len(self.tokens))
                else:
                    raise Cursor(self.text, [tok]).error("a function, an alias '#name = ...' or a module")
                self.tokens = []

    def _part_text(self, part: str, first_line: int) -> tuple[PartText, int]:
        """The text a part is read from: the lines of the transform-map aliases defined before
        it, then the part, each anchored at its line in the file; with where the part starts.
        ``maps`` is read again from it."""
        pieces: list[str] = []
        anchors: list[tuple[int, int]] = []
        starts: dict[str, int] = {}
        offset, line = 0, 1
        for name, (at, lines, start, _) in sorted(self.alias_lines.items(), key=lambda a: a[1][0]):
            anchors.append((line, at))
            starts[name] = offset + start
            pieces.append(lines)
            offset += len(lines)
            line += lines.count("\n")
        anchors.append((line, first_line))
        text = PartText("".join(pieces) + part, tuple(anchors))
        for name, base in starts.items():
            end = base - self.alias_lines[name][2] + self.alias_lines[name][3]
            tokens = [Token(t.kind, t.text, t.offset + base, t.line_start) for t in tokenize(text[base:end])]
            self.maps[name] = (tokens, self.maps[name][1])
        return text, offset

    def _items(self, c: Cursor, items: list[MlirFunction | Unreadable | str]) -> None:
        """The top-level items at ``c``: functions, aliases, modules in either form."""
        depth = 0
        while (tok := c.peek()) is not None:
            if tok.kind == "split":
                c.next()
                items.append("// -----")
                self.affine, self.maps = {}, {}
            elif tok.kind == "hash":
                items.append(self._alias(c))
            elif tok.text == "module":
                start = c.pos
                c.next()
                if c.at_kind("symbol"):
                    c.next()
                if c.accept("attributes"):
                    c.balanced()
                header = c.source(start, c.pos)
                c.expect("{", "'{' opening the module")
                items.append(header + " {")
                depth += 1
            elif tok.text == "}" and depth:
                c.next()
                items.append("}")
                depth -= 1
            elif tok.text == '"builtin.module"' and tok.kind == "string":
                end = c.statement_end()
                self._generic_module(Cursor(self.text, self.tokens, c.pos, end), items)
                c.pos = end
            elif tok.text == "func.func" or tok.text == '"func.func"' and tok.kind == "string":
                end = c.statement_end()
                function = Cursor(self.text, self.tokens, c.pos, end)
                c.pos = end
                items.append(self._top_function(function, tok))
            elif tok.kind == "string":
                end = c.statement_end()
                items.append(c.source(c.pos, end))
                c.pos = end
            else:
                raise c.error("a function, an alias '#name = ...' or a module")

    def _top_function(self, function: Cursor, tok: Token) -> MlirFunction | Unreadable | str:
        """A ``func.func`` at the top level or in a module, either form; ``Unreadable`` when it
        cannot be read and errors are collected."""
        _check_brackets(Cursor(self.text, self.tokens, function.pos, function.end))  # never collected
        try:
            return (self._function(function) if tok.kind != "string"
                    else self._generic_function(function))
        except MlirParseError as e:
            if self.errors == "raise":
                raise
            function.pos = function.begin
            return Unreadable(_name(function), function.tokens[function.begin].offset, e,
                              function.source(function.begin, function.end))

    def _generic_module(self, c: Cursor, items: list[MlirFunction | Unreadable | str]) -> None:
        """``"builtin.module"() <{sym_name = "m"}> ({ ... }) {attributes} : () -> ()``, as the
        items of its custom form ``module @m attributes {...} {``, its contents and ``}``."""
        op = read_generic_op(c, [])
        if c.peek() is not None:
            raise c.error("the end of builtin.module")
        if len(op.regions) != 1 or op.operands:
            raise MlirParseError("builtin.module has one region and no operands", self.text, op.name.offset)
        header = "module"
        if "sym_name" in op.attributes:
            name = c.source(*op.attributes["sym_name"])
            header += " @" + (name.strip('"') if re.fullmatch(r'"[\w$.\-]+"', name) else name)
        rest = {k: v for k, v in op.attributes.items() if k not in op.properties}
        if rest:
            header += " attributes {" + ", ".join(
                c.source(a - 2, b) if a < b else c.tokens[a - 1].text for a, b in rest.values()) + "}"
        items.append(header + " {")
        start, stop = op.regions[0]
        self._items(Cursor(self.text, self.tokens, start + 1, stop - 1), items)
        items.append("}")

    def _alias(self, c: Cursor) -> str:
        start = c.pos
        name = c.next().text[1:]
        c.expect("=", "'=' defining the alias")
        end = c.statement_end()
        value = Cursor(self.text, self.tokens, c.pos, end)
        c.pos = end
        first = value.peek()
        if first is None:
            raise value.error("the alias's value")
        if first.text == "affine_map":
            self.affine[name] = self.affine_map(value, value.pos, end)
        elif first.text == "#rock.transform_map":
            self.maps[name] = (self.tokens, value.pos)
            last = self.tokens[end - 1]
            begin, stop = self.tokens[start].offset, last.offset + len(last.text)
            line_begin = self.text.rfind("\n", 0, begin) + 1
            line_end = self.text.find("\n", stop)
            line_end = len(self.text) if line_end < 0 else line_end + 1
            self.alias_lines[name] = (line_column(self.text, begin)[0], self.text[line_begin:line_end],
                                      begin - line_begin, stop - line_begin)
        return c.source(start, end)

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

    # }}}
    # {{{ functions

    def _function(self, c: Cursor) -> MlirFunction | str:
        start = c.pos
        line = line_column(self.text, self.tokens[start].offset)[0]
        c.expect("func.func")
        visibility = c.next().text if c.at("private") or c.at("public") or c.at("nested") else ""
        name = c.kind("symbol", "the function's name '@name'").text[1:].strip('"')
        f = FunctionState(Kernel(name))
        arg_attrs: list[tuple[str, str]] = []
        c.expect("(", "'(' opening the arguments")
        while not c.accept(")"):
            arg = c.value("an argument '%name: memref<...>'")
            c.expect(":", "':' and the argument's type")
            shape, dtype, full = self.any_type(c)
            value = f.names[arg] = f.kernel.argument(arg, shape, dtype)
            if not full.startswith("memref"):  # tensors, vectors, scalars: only opaque ops use them
                f.unshaped.add(value)
            if full and not (full.startswith("memref") and parse_shaped_type(full).plain):
                f.types[arg] = full
            if c.at("{"):
                s, e = c.balanced()
                arg_attrs.append((arg, c.source(s, e)))
            if not c.at(")"):
                c.expect(",", "',' or ')' in the arguments")
        results = ""
        if c.at("->"):
            s = c.pos
            c.next()
            if c.at("("):
                c.balanced()
            else:
                self.any_type(c)
            results = c.source(s, c.pos)
        attributes = ""
        if c.accept("attributes"):
            s, e = c.balanced()
            attributes = c.source(s, e)
        if not c.at("{"):
            return c.source(start, c.pos)  # a declaration
        s, e = c.balanced()
        body = Cursor(self.text, self.tokens, s + 1, e - 1)
        return self._function_body(f, body, line, visibility, attributes, results, arg_attrs)

    def _generic_function(self, c: Cursor) -> MlirFunction | str:
        """``"func.func"() <{function_type = ..., sym_name = "f"}> ({ ^bb0(%arg0: T): ... })
        {attributes} : () -> ()``, read as its custom form would be."""
        start = c.pos
        line = line_column(self.text, self.tokens[start].offset)[0]
        op = read_generic_op(c, [])
        if c.peek() is not None:
            raise c.error("the end of func.func")
        if len(op.regions) != 1 or "sym_name" not in op.attributes or "function_type" not in op.attributes:
            raise MlirParseError("func.func has one region, a sym_name and a function_type", self.text,
                                 op.name.offset)
        region_start, region_stop = op.regions[0]
        if region_stop - region_start == 2:
            return c.source(start, c.pos)  # a declaration
        name = c.source(*op.attributes["sym_name"]).strip('"')
        visibility = (c.source(*op.attributes["sym_visibility"]).strip('"')
                      if "sym_visibility" in op.attributes else "")
        f = FunctionState(Kernel(name))
        body = Cursor(self.text, self.tokens, region_start + 1, region_stop - 1)
        arguments: list[str] = []
        if body.at_kind("block"):
            body.next()
            if body.accept("("):
                while not body.accept(")"):
                    arg = body.value("an argument '%name: memref<...>'")
                    body.expect(":", "':' and the argument's type")
                    shape, dtype, full = self.any_type(body)
                    value = f.names[arg] = f.kernel.argument(arg, shape, dtype)
                    arguments.append(arg)
                    if not full.startswith("memref"):
                        f.unshaped.add(value)
                    if full and not (full.startswith("memref") and parse_shaped_type(full).plain):
                        f.types[arg] = full
                    if body.at("loc"):
                        body.next()
                        body.balanced()
                    if not body.at(")"):
                        body.expect(",", "',' or ')' in the arguments")
            body.expect(":", "':' after the block arguments")
        arg_attrs: list[tuple[str, str]] = []
        if "arg_attrs" in op.attributes:
            value = Cursor(self.text, self.tokens, *op.attributes["arg_attrs"])
            spans = split(value, *value.balanced()) if value.at("[") else []
            for arg, (a, b) in zip(arguments, spans, strict=False):
                if b - a > 2:  # not {}
                    arg_attrs.append((arg, c.source(a, b)))
        signature = Cursor(self.text, self.tokens, *op.attributes["function_type"])
        signature.balanced()
        signature.expect("->", "'->' and the function's results")
        results = signature.source(signature.pos, signature.end)
        results = "" if results == "()" else f"-> {results}"
        rest = [(k, v) for k, v in op.attributes.items() if k not in op.properties]
        attributes = "{" + ", ".join(c.source(a - 2, b) if a < b else c.tokens[a - 1].text
                                     for _, (a, b) in rest) + "}" if rest else ""
        return self._function_body(f, body, line, visibility, attributes, results, arg_attrs)

    def _function_body(self, f: FunctionState, body: Cursor, line: int, visibility: str,
                       attributes: str, results: str, arg_attrs: Sequence[tuple[str, str]]) -> MlirFunction:
        """Read the statements of a function's body (either form) and make the function."""
        while body.peek() is not None:
            end = body.statement_end()
            stmt = Cursor(self.text, self.tokens, body.pos, end)
            body.pos = end
            self._statement(f, stmt)
        return MlirFunction(
            f.kernel, bool(_KERNEL_ATTR.search(attributes)), line, visibility, attributes, results,
            tuple(arg_attrs), tuple(f.types.items()), tuple(f.allocators.items()), tuple(f.constants),
            tuple(f.syntax.items()), tuple(f.inline), tuple(self.written.items()), f.terminator,
            tuple(f.allocation_attributes.items()))

    def shaped_type(self, c: Cursor) -> tuple[tuple[int, ...], str, str]:
        """A memref or tensor type: shape, element type, and the full text as written.

        The element type is the scalar one (``f16`` for ``memref<8xvector<4xf16>>``); the memory
        space (``#gpu.address_space<private>`` or an integer) stays in the text.
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
        t = parse_shaped_type(text, error=MlirParseError, source=self.text, at=tok.offset)
        if t.strides is not None:
            raise MlirParseError(f"memref layouts are not supported in kernels: {text}",
                                 self.text, tok.offset)
        return t.shape, t.dtype, text

    def any_type(self, c: Cursor) -> tuple[tuple[int, ...], str, str]:
        """A memref or tensor type, or any other type (``index``, ``i1``, ``vector<4xf32>``,
        ``!async.token``) as shape ``()`` and its text."""
        tok = c.peek()
        if tok is not None and tok.text in ("memref", "tensor"):
            return self.shaped_type(c)
        start = c.pos
        c.accept("!")
        c.kind("ident", "a type")
        if c.at("<"):
            c.balanced()
        text = c.source(start, c.pos)
        return (), text, text

    # }}}
    # {{{ statements

    def _statement(self, f: FunctionState, s: Cursor) -> None:
        results: list[str] = []
        if s.at_kind("value"):
            results.append(s.value())
            if s.at_kind("punct") and s.at(":"):  # %0:2 = ...
                s.next()
                s.integer()
            while s.accept(","):
                results.append(s.value())
            s.expect("=", "'=' after the results")
        after = s.pos
        tok = s.next("an op name")
        name = tok.text.strip('"') if tok.kind == "string" else tok.text
        handler = HANDLERS.get(name) if tok.kind == "ident" else None
        generic = GENERIC_HANDLERS.get(name) if tok.kind == "string" else None
        if handler is None and generic is None:
            read_opaque(self, f, s, results, tok)
            return
        saved = f.snapshot()
        try:
            if generic is not None:
                s.pos = after
                op: GenericOp = read_generic_op(s, results)
                if s.peek() is not None:
                    raise s.error(f"the end of {name}")
                s.pos = after
                generic(self, f, s, op)
                s.pos = s.end
            elif handler is not None:
                handler(self, f, s, results, tok)
            if s.peek() is not None:
                raise s.error(f"the end of {name}")
        except Opaque:  # an operand the graph does not hold: keep the whole op as written
            f.restore(saved)
            s.pos = after + 1
            read_opaque(self, f, s, results, tok)
        except MlirParseError:
            raise
        except ViewAlgebraError as e:
            raise MlirParseError(f"{name}: {e}", self.text, tok.offset) from None

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

    # }}}


def _check_brackets(c: Cursor) -> None:
    """Raise at the first bracket that is never closed or closed by the wrong one."""
    while (tok := c.peek()) is not None:
        if tok.text in ("(", "[", "{", "<") and tok.kind == "punct":
            c.balanced()
        else:
            c.next()


def _name(c: Cursor) -> str:
    if (first := c.peek()) is not None and first.text == '"func.func"':  # generic form: its sym_name
        for i in range(c.pos, min(c.end, c.pos + 200) - 2):
            if c.tokens[i].text == "sym_name" and c.tokens[i + 1].text == "=":
                return c.tokens[i + 2].text.strip('"')
        return "?"
    tok = c.peek(1)
    if tok is not None and tok.kind != "symbol":
        tok = c.peek(2)
    return tok.text[1:].strip('"') if tok is not None and tok.kind == "symbol" else "?"


def _end(tok: Token) -> int:
    return tok.offset + len(tok.text)


_OPEN = frozenset("([{<")
_CLOSE = frozenset(")]}>")
"""Brackets as ``viewalgebra/_maps/lexer.py`` counts them (``->`` is a token of its own)."""


class _Lazy:
    """The tokens of a text, lexed a block of lines at a time as they are needed (a token never
    spans a line break, so a block cut after one lexes as it would in the whole text)."""

    BLOCK = 1 << 16
    """Characters lexed at a time (then up to the end of the line)."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
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
        base = self.done
        try:
            block = tokenize(self.text[base:end])
        except MlirParseError as e:
            raise MlirParseError(e.reason, self.text, base + e.offset) from None
        self.ahead = [*self.ahead[self.at:], *(Token(t.kind, t.text, t.offset + base, t.line_start)
                                               for t in block)]
        self.at, self.done = 0, end

    def statement(self) -> list[Token]:
        """The tokens of the statement starting here, as ``Cursor.statement_end`` cuts it."""
        out: list[Token] = []
        depth = 0
        while (tok := self.peek()) is not None:
            if out and depth == 0 and tok.line_start and starts_statement(tok):
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
