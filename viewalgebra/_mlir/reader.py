"""Read rocMLIR kernels from ``.mlir`` text into ``Kernel`` graphs, keeping what is needed to
write them back.

Supported ops: ``func.func`` / ``return``, ``memref.alloc``, ``rock.alloc``, ``memref.copy``,
``memref.collapse_shape`` / ``memref.expand_shape`` (views), ``rock.transform``, ``linalg.generic``
(a parallel generic's indexing maps become views; both as rocMLIR's regularize pass does,
``mlir/lib/Dialect/Rock/Transforms/Regularize.cpp``), function-level ``arith.constant``, the
fusion roots ``rock.gridwise_gemm``, ``rock.gridwise_gemm_accel``, ``rock.gemm``, ``rock.conv``,
``rock.conv2d``, and ``rock.reduce``, ``rock.threadwise_read_into``, ``rock.threadwise_write_all``,
``rock.blockwise_reduce``; ops in generic form (``"name"(%a) : (...) -> ()``) without results are
kept as opaque readers of their operands. Anything else fails with ``UnsupportedOpsError``,
which lists every such op with its line and column.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._graph import Kernel
from .._maps import affine as A
from .._maps.equations import affine_map_of
from .._maps.reshape import collapse_shape_map, expand_shape_map
from .._maps.syntax import blank_comments, parse_affine_map, read_transform_map_at
from .._maps.transform_map import TransformMap
from ..errors import (
    InvalidTransformError,
    MlirParseError,
    TransformParseError,
    UnsupportedOpsError,
    ViewAlgebraError,
)
from .body import read_body
from .indexing import indexing_maps
from .lexer import Cursor, Token, line_column, tokenize, where

ROOTS = ("rock.gridwise_gemm", "rock.gridwise_gemm_accel", "rock.gemm", "rock.conv", "rock.conv2d")
SUPPORTED = (
    "func.func", "func.return", "return", "memref.alloc", "rock.alloc", "memref.copy",
    "memref.collapse_shape", "memref.expand_shape", "rock.transform", "linalg.generic", "linalg.fill",
    "arith.constant", *ROOTS, "rock.reduce", "rock.threadwise_read_into",
    "rock.threadwise_write_all", "rock.blockwise_reduce")
"""The ops the reader understands (plus any op in generic form without results)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """Where an operand goes in an op's text: ``op.reads[index]`` or ``op.writes[index]``."""

    role: Literal["read", "write"]
    index: int
    inline: bool = False
    """The operand is written ``[maps](%x)``: the maps stay in the text, the slot prints ``%x``."""


@dataclass(frozen=True, slots=True)
class OpText:
    """An op as written, its operands cut out, and the operand shapes it was written for."""

    pieces: tuple[str | Slot, ...]
    shapes: tuple[tuple[int, ...], ...]
    """Shapes of ``reads`` then ``writes`` when read (the types in the text are theirs)."""


@dataclass(frozen=True, slots=True)
class GenericText:
    """A ``linalg.generic``: what its printed form needs beyond the graph."""

    body: str
    """The region, ``{ ^bb0(...): ... linalg.yield ... }``."""
    attributes: tuple[str, ...] = ()
    """Other entries of its attribute dictionary, as written."""
    indexing_maps: tuple[str, ...] | None = None
    """The maps as written when they were kept (a generic that is not fully parallel)."""


@dataclass(frozen=True, slots=True)
class MlirFunction:
    """One ``func.func``: its kernel graph and the text the graph does not hold."""

    kernel: Kernel
    is_kernel: bool
    """Has the ``kernel`` attribute (rocMLIR's regularize pass only touches these)."""
    line: int
    visibility: str = ""
    attributes: str = ""
    """The ``attributes {...}`` dictionary as written (with braces), or empty."""
    results: str = ""
    argument_attributes: tuple[tuple[str, str], ...] = ()
    types: tuple[tuple[str, str], ...] = ()
    """Buffers whose type says more than shape and element type (a memory space), as written."""
    allocators: tuple[tuple[str, str], ...] = ()
    """Allocations made by another op than ``memref.alloc`` (``rock.alloc``)."""
    constants: tuple[str, ...] = ()
    """MlirFunction-level constants, as written."""
    syntax: tuple[tuple[str, OpText | GenericText], ...] = ()
    """Per op name, how it prints."""
    inline: tuple[str, ...] = ()
    """Views written inside an op (``[maps](%x)``), not as ``rock.transform``."""
    written: tuple[tuple[TransformMap, A.AffineMap], ...] = ()
    """The written affine maps of maps that have no meaning of their own (``strict=False``)."""

    @property
    def name(self) -> str:
        return self.kernel.name


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A function that could not be read (``read_mlir(..., errors="collect")``)."""

    name: str
    offset: int
    error: MlirParseError
    text: str
    """The function as written (``write_mlir`` writes it back unchanged)."""


@dataclass(frozen=True, slots=True)
class MlirModule:
    """A whole ``.mlir`` file: functions and, as written, everything else at the top level
    (aliases, ``module`` braces, ``// -----`` separators, ops in generic form)."""

    items: tuple[MlirFunction | Unreadable | str, ...]

    @property
    def unreadable(self) -> tuple[Unreadable, ...]:
        return tuple(i for i in self.items if isinstance(i, Unreadable))

    @property
    def functions(self) -> tuple[MlirFunction, ...]:
        return tuple(i for i in self.items if isinstance(i, MlirFunction))

    def function(self, name: str) -> MlirFunction:
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(f"no function @{name} (functions: "
                       f"{', '.join('@' + f.name for f in self.functions) or 'none'})")


def read_mlir(text: str, *, errors: Literal["raise", "collect"] = "raise") -> MlirModule:
    """Read an ``.mlir`` file.

    Raises ``MlirParseError`` (``UnsupportedOpsError`` for ops outside ``SUPPORTED``) at the
    first function that cannot be read; with ``errors="collect"`` such a function becomes an
    ``Unreadable`` item and reading goes on.

    Example: ``read_mlir(path.read_text()).function("bert_part_11__part_0").kernel`` is the
    kernel graph of ``regularize.mlir`` in rocMLIR's tests, with its collapse and expand shapes
    and the generic's broadcasting indexing maps as views.
    """
    return _Reader(text, errors).module()


class _Poisoned(Exception):
    """A statement uses the result of an unsupported op (reported once, at that op)."""


_MEMREF = re.compile(r"memref<\s*((?:(?:[0-9]+|\?)\s*x\s*)*)([A-Za-z_][\w.]*)\s*(?:,\s*(.*))?>", re.S)
_KERNEL_ATTR = re.compile(r"[{,]\s*(?:rock\.)?kernel\s*(?=[,}=])")


@dataclass
class _FunctionState:
    kernel: Kernel
    names: dict[str, str] = field(default_factory=lambda: {})
    types: dict[str, str] = field(default_factory=lambda: {})
    allocators: dict[str, str] = field(default_factory=lambda: {})
    constants: list[str] = field(default_factory=lambda: [])
    values: dict[str, float] = field(default_factory=lambda: {})
    syntax: dict[str, OpText | GenericText] = field(default_factory=lambda: {})
    inline: list[str] = field(default_factory=lambda: [])
    unsupported: list[tuple[str, int]] = field(default_factory=lambda: [])
    poisoned: set[str] = field(default_factory=lambda: set())


class _Reader:
    def __init__(self, text: str, errors: Literal["raise", "collect"] = "raise") -> None:
        self.errors = errors
        self.text = text
        self.code = blank_comments(text)
        """The text without comments, at the same offsets (for the transform-map parser)."""
        self.tokens = tokenize(text)
        self.affine: dict[str, A.AffineMap] = {}
        self.maps: dict[str, int] = {}
        """Transform-map aliases: where each value starts in the text."""
        self.written: dict[TransformMap, A.AffineMap] = {}
        self.handlers: dict[str, Callable[[_FunctionState, Cursor, list[str], Token], None]] = {
            "memref.alloc": self._alloc, "rock.alloc": self._alloc,
            "rock.transform": self._transform,
            "memref.collapse_shape": self._reshape, "memref.expand_shape": self._reshape,
            "memref.copy": self._copy, "arith.constant": self._constant,
            "func.return": self._return, "return": self._return,
            "linalg.generic": self._generic, "linalg.fill": self._fill,
            **{root: self._gemm for root in ROOTS[:3]}, "rock.conv": self._conv, "rock.conv2d": self._conv,
            "rock.reduce": self._reduce, "rock.threadwise_read_into": self._read_into,
            "rock.threadwise_write_all": self._write_all, "rock.blockwise_reduce": self._blockwise_reduce,
        }

    # {{{ top level

    def module(self) -> MlirModule:
        items: list[MlirFunction | Unreadable | str] = []
        c = Cursor(self.text, self.tokens)
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
            elif tok.text == "func.func":
                end = c.statement_end()
                function = Cursor(self.text, self.tokens, c.pos, end)
                c.pos = end
                _check_brackets(Cursor(self.text, self.tokens, function.pos, end))  # never collected
                try:
                    items.append(self._function(function))
                except MlirParseError as e:
                    if self.errors == "raise":
                        raise
                    function.pos = function.begin
                    items.append(Unreadable(_name(function), function.tokens[function.begin].offset, e,
                                            function.source(function.begin, function.end)))
            elif tok.kind == "string":
                end = c.statement_end()
                items.append(c.source(c.pos, end))
                c.pos = end
            else:
                raise c.error("a function, an alias '#name = ...' or a module")
        return MlirModule(tuple(items))

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
            self.affine[name] = self._affine_map(value, value.pos, end)
        elif first.text == "#rock.transform_map":
            self.maps[name] = first.offset
        return c.source(start, end)

    def _affine_map(self, c: Cursor, start: int, stop: int) -> A.AffineMap:
        text = c.source(start, stop)
        try:
            return parse_affine_map(text)
        except TransformParseError as e:
            raise MlirParseError(e.reason, self.text, self.tokens[start].offset + e.offset) from None

    def _transform_map(self, offset: int) -> TransformMap:
        """The map at ``offset`` of the file (its ``<`` or ``#rock.transform_map``)."""
        try:
            parsed = read_transform_map_at(self.code, offset, strict=False, aliases=self.affine)
        except TransformParseError as e:
            raise MlirParseError(e.reason, self.text, e.offset) from None
        except InvalidTransformError as e:
            raise MlirParseError(e.reason or str(e), self.text,
                                 offset if e.offset is None else e.offset) from None
        tm, written = parsed.map, parsed.written
        if tm is None or written is None:  # read_transform_map_at raises instead
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
        line = self.text.count("\n", 0, self.tokens[start].offset) + 1
        c.expect("func.func")
        visibility = c.next().text if c.at("private") or c.at("public") or c.at("nested") else ""
        name = c.kind("symbol", "the function's name '@name'").text[1:].strip('"')
        f = _FunctionState(Kernel(name))
        arg_attrs: list[tuple[str, str]] = []
        c.expect("(", "'(' opening the arguments")
        while not c.accept(")"):
            arg = c.value("an argument '%name: memref<...>'")
            c.expect(":", "':' and the argument's type")
            shape, dtype, full = self._type(c)
            f.names[arg] = f.kernel.argument(arg, shape, dtype)
            if full:
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
                self._type(c)
            results = c.source(s, c.pos)
        attributes = ""
        if c.accept("attributes"):
            s, e = c.balanced()
            attributes = c.source(s, e)
        if not c.at("{"):
            return c.source(start, c.pos)  # a declaration
        s, e = c.balanced()
        body = Cursor(self.text, self.tokens, s + 1, e - 1)
        while body.peek() is not None:
            end = body.statement_end()
            stmt = Cursor(self.text, self.tokens, body.pos, end)
            body.pos = end
            with contextlib.suppress(_Poisoned):
                self._statement(f, stmt)
        if f.unsupported:
            listed = ", ".join(f"{op} at {where(self.text, at)}" for op, at in f.unsupported)
            raise UnsupportedOpsError(
                f"@{name} uses ops the reader does not support: {listed} (supported: "
                f"{', '.join(SUPPORTED)}, and ops in generic form without results)",
                self.text, f.unsupported[0][1],
                tuple((op, *line_column(self.text, at)) for op, at in f.unsupported))
        return MlirFunction(
            f.kernel, bool(_KERNEL_ATTR.search(attributes)), line, visibility, attributes, results,
            tuple(arg_attrs), tuple(f.types.items()), tuple(f.allocators.items()), tuple(f.constants),
            tuple(f.syntax.items()), tuple(f.inline), tuple(self.written.items()))

    def _type(self, c: Cursor) -> tuple[tuple[int, ...], str, str]:
        """A memref type: shape, element type, and the full text when it says more."""
        tok = c.peek()
        if tok is None or tok.text != "memref":
            raise c.error("a memref type such as 'memref<4x8xf32>'")
        start = c.pos
        c.next()
        if not c.at("<"):
            raise c.error("'<' after 'memref'")
        c.balanced()
        text = c.source(start, c.pos)
        m = _MEMREF.fullmatch(text)
        if m is None:
            raise MlirParseError(f"cannot read the memref type {text!r}", self.text, tok.offset)
        dims = re.findall(r"[0-9]+|\?", m.group(1))
        if "?" in dims:
            raise MlirParseError(f"dynamic shapes are not supported: {text}", self.text, tok.offset)
        extra = m.group(3)
        if extra is not None and "address_space" not in extra:
            raise MlirParseError(f"memref layouts are not supported in kernels: {text}",
                                 self.text, tok.offset)
        return tuple(int(d) for d in dims), m.group(2), text if extra else ""

    # }}}
    # {{{ statements

    def _statement(self, f: _FunctionState, s: Cursor) -> None:
        results: list[str] = []
        if s.at_kind("value"):
            results.append(s.value())
            while s.accept(","):
                results.append(s.value())
            s.expect("=", "'=' after the results")
        tok = s.next("an op name")
        name = tok.text
        handler = self._generic_form if tok.kind == "string" else self.handlers.get(name)
        if handler is None:
            f.unsupported.append((name, tok.offset))
            f.poisoned.update(results)
            return
        try:
            handler(f, s, results, tok)
        except (MlirParseError, _Poisoned):
            raise
        except ViewAlgebraError as e:
            raise MlirParseError(f"{name}: {e}", self.text, tok.offset) from None
        if s.peek() is not None:
            raise s.error(f"the end of {name}")

    def _lookup(self, f: _FunctionState, s: Cursor) -> str:
        tok = s.peek()
        value = s.value()
        if value in f.poisoned:
            raise _Poisoned
        if value not in f.names:
            raise MlirParseError(f"%{value} is not defined (or not a memref)", self.text,
                                 tok.offset if tok else 0)
        return f.names[value]

    def _result(self, results: list[str], tok: Token, count: int = 1) -> str:
        if len(results) != count:
            raise MlirParseError(f"{tok.text} defines {count} value(s), not {len(results)}",
                                 self.text, tok.offset)
        return results[0] if results else ""

    def _alloc(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        result = self._result(results, tok)
        s.expect("(")
        s.expect(")")
        if s.at("{"):
            s.balanced()
        s.expect(":", "':' and the allocation's type")
        shape, dtype, full = self._type(s)
        name = f.kernel.alloc(shape, dtype, name=result)
        f.names[result] = name
        if full:
            f.types[name] = full
        if tok.text != "memref.alloc":
            f.allocators[name] = tok.text

    def _check_type(self, f: _FunctionState, s: Cursor, value: str, what: str) -> None:
        tok = s.peek()
        shape = self._type(s)[0]
        if shape != f.kernel.shape(value):
            raise MlirParseError(
                f"{what}: the type says {list(shape)} but %{value} has shape "
                f"{list(f.kernel.shape(value))}", self.text, tok.offset if tok else 0)

    def _transform(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        result = self._result(results, tok)
        source = self._lookup(f, s)
        s.expect("by", "'by' and the transform map")
        tm = self._map_operand(s)
        s.expect(":", "':' and the types")
        self._check_type(f, s, source, "source")
        s.expect("to", "'to' and the result type")
        at = s.peek()
        shape = self._type(s)[0]
        if shape != tm.upper_bounds:
            raise MlirParseError(f"the result type's shape {list(shape)} differs from the map's "
                                 f"upper bounds {list(tm.upper_bounds)}", self.text, at.offset if at else 0)
        f.names[result] = f.kernel.view(source, [tm], name=result)

    def _map_operand(self, s: Cursor) -> TransformMap:
        """``<affine_map<...> by [...] bounds = ...>`` or ``#alias`` or ``#rock.transform_map<...>``."""
        tok = s.peek()
        if tok is not None and tok.text == "#rock.transform_map":
            s.next()
            tok = s.peek()
        if tok is not None and tok.text == "<":
            s.balanced()
            return self._transform_map(tok.offset)
        if tok is not None and tok.kind == "hash":
            s.next()
            if tok.text[1:] not in self.maps:
                raise MlirParseError(f"undefined transform map {tok.text}", self.text, tok.offset)
            return self._transform_map(self.maps[tok.text[1:]])
        raise s.error("a transform map '<affine_map<...> by [...] ...>' or '#alias'")

    def _reassociation(self, s: Cursor) -> list[list[int]]:
        groups: list[list[int]] = []
        s.expect("[", "'[' opening the reassociation")
        while not s.accept("]"):
            s.expect("[", "'[' opening a group")
            group: list[int] = []
            while not s.accept("]"):
                group.append(s.integer("a dim index"))
                if not s.at("]"):
                    s.expect(",", "',' or ']'")
            groups.append(group)
            if not s.at("]"):
                s.expect(",", "',' or ']'")
        return groups

    def _reshape(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        result = self._result(results, tok)
        source = self._lookup(f, s)
        groups = self._reassociation(s)
        if s.accept("output_shape"):
            s.balanced()
        s.expect(":", "':' and the types")
        self._check_type(f, s, source, "source")
        s.expect("into", "'into' and the result type")
        shape = self._type(s)[0]
        below = f.kernel.shape(source)
        if tok.text == "memref.collapse_shape":
            tm = collapse_shape_map(below, groups)
            if tm.upper_bounds != shape:
                raise MlirParseError(f"collapsing {list(below)} by {groups} gives "
                                     f"{list(tm.upper_bounds)}, not {list(shape)}", self.text, tok.offset)
        else:
            tm = expand_shape_map(below, shape, groups)
        f.names[result] = f.kernel.view(source, [tm], name=result)

    def _copy(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        source = self._lookup(f, s)
        s.expect(",", "',' between source and target")
        target = self._lookup(f, s)
        s.expect(":", "':' and the types")
        self._check_type(f, s, source, "source")
        s.expect("to", "'to' and the target type")
        self._check_type(f, s, target, "target")
        f.kernel.op("memref.copy", reads=[source], writes=[target])

    def _constant(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        result = self._result(results, tok)
        value = s.next("a constant")
        with contextlib.suppress(ValueError):
            f.values[result] = float(value.text)
        f.constants.append(s.source(s.begin, s.end))  # kept as written
        s.pos = s.end

    def _fill(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        """``linalg.fill ins(%c : f32) outs(%x : memref<...>)`` with ``%c`` a constant."""
        self._result(results, tok, 0)
        s.expect("ins", "'ins' and the fill value")
        s.expect("(")
        at = s.peek()
        constant = s.value("the fill value")
        if constant not in f.values:
            raise MlirParseError(f"the fill value %{constant} is not a numeric arith.constant",
                                 self.text, at.offset if at else 0)
        s.expect(":")
        s.next("the value's type")
        s.expect(")")
        s.expect("outs", "'outs' and the filled value")
        s.expect("(")
        target = self._operand(f, s)
        self._template(f, s, tok.text, [], [target], value=f.values[constant])

    def _return(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)

    # }}}
    # {{{ linalg.generic

    def _generic(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        maps: list[tuple[A.AffineMap, str]] = []
        iterators: list[str] = []
        extra: list[str] = []
        indices: dict[str, Any] = {}  # attributes such as rock.majorTensorNumber
        start, stop = s.balanced()
        for key, value in _entries(s, start, stop):
            words = [t.text for t in value.tokens[value.pos:value.end]]
            if len(words) == 3 and words[1:] == [":", "index"] and words[0].lstrip("-").isdigit() \
                    and key not in ("kind", "reads", "writes", "root", "fn", "name", "iterator_types"):
                indices[key] = int(words[0])  # e.g. rock.majorTensorNumber = 0 : index
            elif key == "indexing_maps":
                maps = self._indexing_maps(value)
            elif key == "iterator_types":
                iterators = [t.text.strip('"') for t in value.tokens[value.pos:value.end]
                             if t.kind == "string" or t.text in ("parallel", "reduction", "window")]
            else:
                extra.append(value.source(value.pos - 2, value.end) if value.pos < value.end else key)
        ins = self._operand_list(f, s, "ins")
        outs = self._operand_list(f, s, "outs")
        if s.accept("attrs"):
            s.expect("=")
            a, b = s.balanced()
            extra.append(s.source(a, b))
        if not s.at("{"):
            raise s.error("'{' opening the body")
        body_start = s.pos
        body = read_body(s, len(ins), f.values)
        body_text = s.source(body_start, s.pos)
        if len(maps) != len(ins) + len(outs):
            raise MlirParseError(f"linalg.generic has {len(maps)} indexing maps for "
                                 f"{len(ins) + len(outs)} operands", self.text, tok.offset)
        parallel = all(it == "parallel" for it in iterators)
        kept = None
        if parallel and outs:
            space = f.kernel.shape(outs[0])
            for amap, text in maps[len(ins):]:
                if amap != A.AffineMap(len(space), tuple(A.dim(i) for i in range(len(space)))):
                    raise MlirParseError(f"linalg.generic: an output indexing map must be the "
                                         f"identity, not {text}", self.text, tok.offset)
            reads: list[str] = []
            for operand, (amap, _text) in zip(ins, maps, strict=False):
                views = indexing_maps(amap, space, f.kernel.shape(operand))
                reads.append(f.kernel.view(operand, views, name=f"{operand}_bcast") if views else operand)
            ins = reads
        else:
            kept = tuple(text for _amap, text in maps)
        op = f.kernel.op("linalg.generic", reads=ins, writes=outs, fn=body if parallel else None,
                         iterator_types=tuple(iterators), **indices)
        f.syntax[op.name] = GenericText(body_text, tuple(extra), kept)

    def _indexing_maps(self, value: Cursor) -> list[tuple[A.AffineMap, str]]:
        out: list[tuple[A.AffineMap, str]] = []
        value.expect("[", "'[' opening the indexing maps")
        while not value.accept("]"):
            tok = value.next("an affine map")
            if tok.kind == "hash":
                if tok.text[1:] not in self.affine:
                    raise MlirParseError(f"undefined affine map {tok.text}", self.text, tok.offset)
                out.append((self.affine[tok.text[1:]], tok.text))
            elif tok.text == "affine_map":
                a = value.pos - 1
                value.balanced()
                out.append((self._affine_map(value, a, value.pos), value.source(a, value.pos)))
            else:
                raise value.error("an affine map", tok)
            if not value.at("]"):
                value.expect(",", "',' or ']'")
        return out

    def _operand_list(self, f: _FunctionState, s: Cursor, word: str) -> list[str]:
        """``ins(%a, %b : T, U)``: the values, their types checked."""
        if not s.accept(word):
            return []
        s.expect("(", f"'(' after {word}")
        values: list[str] = []
        while s.at_kind("value"):
            values.append(self._lookup(f, s))
            s.accept(",")
        if s.accept(":"):
            for v in values:
                self._check_type(f, s, v, word)
                s.accept(",")
        s.expect(")", f"')' closing {word}")
        return values

    # }}}
    # {{{ rock ops and generic-form ops: text with operand slots

    def _template(self, f: _FunctionState, s: Cursor, kind: str, reads: Sequence[tuple[int, str]],
                  writes: Sequence[tuple[int, str]], inline: Sequence[int] = (), root: bool = False,
                  fn: Callable[..., Any] | None = None, **attrs: Any) -> None:
        """Add the op; ``reads``/``writes`` are (token index, value) pairs; ``inline`` lists token
        indices of operands written as ``[maps](%x)``."""
        slots = {i: Slot("read", n, i in inline) for n, (i, _) in enumerate(reads)}
        slots.update({i: Slot("write", n, i in inline) for n, (i, _) in enumerate(writes)})
        pieces: list[str | Slot] = []
        pos = s.tokens[s.begin].offset
        indent = "\n" + " " * (pos - (self.text.rfind("\n", 0, pos) + 1))  # the op's column
        for i in sorted(slots):
            tok = s.tokens[i]
            pieces.extend([self.text[pos:tok.offset].replace(indent, "\n"), slots[i]])
            pos = tok.offset + len(tok.text)
        pieces.append(self.text[pos:_end(s.tokens[s.end - 1])].replace(indent, "\n"))
        s.pos = s.end  # the rest of the op is kept as written
        op = f.kernel.op(kind, reads=[v for _, v in reads], writes=[v for _, v in writes], root=root,
                         fn=fn, **attrs)
        shapes = tuple(f.kernel.shape(v) for v in (*op.reads, *op.writes))
        f.syntax[op.name] = OpText(tuple(p for p in pieces if p != ""), shapes)

    def _operand(self, f: _FunctionState, s: Cursor) -> tuple[int, str]:
        i = s.pos
        return i, self._lookup(f, s)

    def _gemm(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        if s.accept("("):  # rock.gridwise_gemm_accel(%a, %b, %c)
            a = self._operand(f, s)
            s.expect(",")
            b = self._operand(f, s)
            s.expect(",")
            c = self._operand(f, s)
        else:
            c = self._operand(f, s)
            s.expect("=", "'=' in '%c = %a * %b'")
            a = self._operand(f, s)
            s.expect("*", "'*' in '%c = %a * %b'")
            b = self._operand(f, s)
        self._template(f, s, tok.text, [a, b], [c], root=True)

    def _conv(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        s.expect("(", "'(' opening the operands")
        operands = [self._operand(f, s)]
        while s.accept(","):
            operands.append(self._operand(f, s))
        s.expect(")")
        self._template(f, s, tok.text, operands[:-1], operands[-1:], root=True)

    def _reduce(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        start = s.pos
        method = s.next("the reduction ('sum' or 'max')").text
        source = self._operand(f, s)
        s.expect("into", "'into' and the result")
        target = self._operand(f, s)
        axis = _attribute_int(s, "axis")
        if axis is None:
            raise MlirParseError("rock.reduce needs an 'axis' attribute", self.text, tok.offset)
        if method not in ("sum", "max"):
            raise MlirParseError(f"unknown reduction {method!r} (expected 'sum' or 'max')",
                                 self.text, self.tokens[start].offset)
        fn = _maximum(axis) if method == "max" else None
        self._template(f, s, tok.text, [source], [target], fn=fn, dims=(axis,), method=method)

    def _inline_view(self, f: _FunctionState, s: Cursor) -> tuple[int, str]:
        """``[maps](%x)``: a view of ``%x`` (top-first maps); the token index of ``%x``."""
        maps: list[TransformMap] = []
        s.expect("[", "'[' opening the transform maps")
        while not s.accept("]"):
            maps.append(self._map_operand(s))
            if not s.at("]"):
                s.expect(",", "',' or ']'")
        s.expect("(", "'(' and the viewed value")
        index, value = self._operand(f, s)
        s.expect(")")
        if not maps:
            return index, value
        name = f.kernel.view(value, maps, name=f"{value}_view")
        f.inline.append(name)
        return index, name

    def _read_into(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        if s.at("{"):
            s.balanced()
        source = self._inline_view(f, s)
        s.expect("->", "'->' and the target")
        target = self._operand(f, s)
        self._template(f, s, tok.text, [source], [target], inline=[source[0]])

    def _write_all(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        while not s.at_kind("value"):
            if s.at("{"):
                s.balanced()
            else:
                s.next("the source value")
        source = self._operand(f, s)
        s.expect("->", "'->' and the target")
        target = self._inline_view(f, s)
        self._template(f, s, tok.text, [source], [target], inline=[target[0]])

    def _blockwise_reduce(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        self._result(results, tok, 0)
        s.next("the reduction")
        if s.at("["):
            s.balanced()
        source = self._operand(f, s)
        s.expect("into", "'into' and the result")
        target = self._operand(f, s)
        s.expect("using", "'using' and the workspace")
        workspace = self._operand(f, s)
        self._template(f, s, tok.text, [source], [target, workspace])

    def _generic_form(self, f: _FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
        if results:
            f.unsupported.append((tok.text, tok.offset))
            f.poisoned.update(results)
            s.pos = s.end
            return
        s.expect("(", "'(' opening the operands")
        operands: list[tuple[int, str]] = []
        while not s.accept(")"):
            operands.append(self._operand(f, s))
            if not s.at(")"):
                s.expect(",", "',' or ')'")
        self._template(f, s, tok.text.strip('"'), operands, [])

    # }}}


def _check_brackets(c: Cursor) -> None:
    """Raise at the first bracket that is never closed or closed by the wrong one."""
    while (tok := c.peek()) is not None:
        if tok.text in ("(", "[", "{", "<") and tok.kind == "punct":
            c.balanced()
        else:
            c.next()


def _name(c: Cursor) -> str:
    tok = c.peek(1)
    if tok is not None and tok.kind != "symbol":
        tok = c.peek(2)
    return tok.text[1:].strip('"') if tok is not None and tok.kind == "symbol" else "?"


def _end(tok: Token) -> int:
    return tok.offset + len(tok.text)


def _entries(s: Cursor, start: int, stop: int) -> list[tuple[str, Cursor]]:
    """The ``key = value`` entries of an attribute dictionary (tokens ``[start, stop)``)."""
    out: list[tuple[str, Cursor]] = []
    c = Cursor(s.text, s.tokens, start + 1, stop - 1)
    while c.peek() is not None:
        key = c.next().text.strip('"')
        if c.accept("="):
            begin = c.pos
            while (tok := c.peek()) is not None and not c.at(","):
                if tok.text in ("(", "[", "{", "<"):
                    c.balanced()
                else:
                    c.next()
            out.append((key, Cursor(s.text, s.tokens, begin, c.pos)))
        else:
            out.append((key, Cursor(s.text, s.tokens, c.pos, c.pos)))
        c.accept(",")
    return out


def _maximum(axis: int) -> Callable[[Any], Any]:
    def reduce(x: Any) -> Any:
        return np.max(x, axis=axis, keepdims=True)
    return reduce


def _attribute_int(s: Cursor, key: str) -> int | None:
    tokens = s.tokens[s.pos:s.end]
    for i, t in enumerate(tokens[:-2]):
        if t.text == key and tokens[i + 1].text == "=" and tokens[i + 2].kind == "number":
            return int(tokens[i + 2].text)
    return None
