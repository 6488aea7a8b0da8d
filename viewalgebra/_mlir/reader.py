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
(``MlirParseError``) only on text that is not MLIR or on an op with a handler written wrongly;
an op over a value a kernel graph cannot hold (dynamic sizes, a strided or affine-map layout) is
kept verbatim.
"""


from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal

from .._common.lines import PartText, line_column
from .._kernel.graph import Kernel
from .._maps.lexer import Cursor, Token, starts_statement, tokenize, type_alias
from .._maps.types import parse_shaped_type, split_top, unheld
from ..errors import MlirParseError, ViewAlgebraError
from .generic_handlers import GENERIC_HANDLERS
from .handlers import HANDLERS
from .model import MlirFunction, MlirModule, Unreadable
from .opaque import read_opaque
from .parts import LazyTokens, text_parts
from .record import GenericOp, read_generic_op, split
from .rock_handlers import ROCK_HANDLERS
from .state import FunctionState, Opaque, OpReader

OPS = {**HANDLERS, **ROCK_HANDLERS}
"""Op name -> handler of its custom form: MLIR's ops (``handlers.py``), rocMLIR's (``rock_handlers.py``)."""

SUPPORTED = ("func.func", *sorted(OPS))
"""The ops the reader models; any other op is kept verbatim and read as opaque."""

__all__ = ["SUPPORTED", "MlirFunction", "MlirModule", "Reader", "Unreadable", "iter_mlir", "iter_mlir_parts",
           "read_mlir", "text_parts"]


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


_KERNEL_ATTR = re.compile(r"[{,]\s*(?:rock\.)?kernel\s*(?=[,}=])")

class Reader(OpReader):
    """One file being read: modules, functions and statements, each op read by its handler."""
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
            source = LazyTokens(self.text, start)
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
                elif tok.kind == "string" or _kept(tok, source.peek):
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
            elif tok.kind == "string" or _kept(tok, lambda k: c.peek(k)):
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
            shape, dtype, full = self.any_type(c, strided=True)
            self._argument(f, arg, shape, dtype, full)
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
                self.any_type(c, strided=True)
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
                    shape, dtype, full = self.any_type(body, strided=True)
                    self._argument(f, arg, shape, dtype, full)
                    arguments.append(arg)
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
        if "res_attrs" in op.attributes:  # each result's attributes, as the custom form writes them
            value = Cursor(self.text, self.tokens, *op.attributes["res_attrs"])
            attrs = [c.source(a, b) for a, b in split(value, *value.balanced())] if value.at("[") else []
            types = split_top(results[1:-1]) if results.startswith("(") else [results]
            results = "(" + ", ".join(f"{typ} {attr}" if attr != "{}" else typ
                                      for typ, attr in zip(types, attrs, strict=False)) + ")"
        results = "" if results == "()" else f"-> {results}"
        rest = [(k, v) for k, v in op.attributes.items() if k not in op.properties]
        attributes = "{" + ", ".join(c.source(a - 2, b) if a < b else c.tokens[a - 1].text
                                     for _, (a, b) in rest) + "}" if rest else ""
        return self._function_body(f, body, line, visibility, attributes, results, arg_attrs)

    def _argument(self, f: FunctionState, arg: str, shape: tuple[int, ...], dtype: str, full: str) -> None:
        """A function's argument of type ``full``. Tensors, vectors, scalars, memrefs of any
        layout and of dynamic sizes are values of the graph that only opaque ops use (kept
        verbatim); a type beyond shape and scalar element is kept to be written as read."""
        value = f.names[arg] = f.kernel.argument(arg, shape, dtype)
        written = (parse_shaped_type(full, layouts=self.affine)
                   if full.startswith("memref") and unheld(full, layouts=self.affine) is None else None)
        if written is None or written.strides is not None:
            f.unshaped.add(value)
        if full and not (written is not None and written.plain):
            f.types[arg] = full

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
        handler = OPS.get(name) if tok.kind == "ident" else None
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

    # }}}


def _kept(tok: Token, ahead: Callable[[int], Token | None]) -> bool:
    """Whether the top-level statement at ``tok`` is kept as written: an op other than a
    function (``gpu.module @m {...}``, whose functions are not read), a type alias ``!t = ...``,
    a function of MLIR before ``func.func`` (``func @f(...)``)."""
    return tok.kind == "ident" and starts_statement(tok) or type_alias(tok, ahead)


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
