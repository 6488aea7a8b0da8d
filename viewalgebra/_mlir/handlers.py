"""One handler per op name the reader models, registered in ``HANDLERS`` (MLIR's ops, and
rocMLIR's views and allocations) or ``rock_handlers.ROCK_HANDLERS`` (rocMLIR's other ops): each
reads its op's operands (following the op's ``assemblyFormat`` in MLIR's ``memref``, ``linalg``,
``arith`` and ``func`` dialects, or in rocMLIR's ``mlir/include/mlir/Dialect/Rock/IR/RockOps.td``)
and adds one op to the graph with what it reads and writes. A handler raises ``Opaque``
when an operand is a value the graph does not hold (a tensor, a result of an opaque op): the
reader then keeps the whole op verbatim (``opaque.py``). Adding an op is adding one handler.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from .._maps import affine as A
from .._maps.lexer import Cursor, Token
from .._maps.reshape import collapse_shape_map, expand_shape_map
from .._maps.transform_map import TransformMap
from .._maps.types import memref_type
from ..errors import MlirParseError
from .body import Body, read_body
from .indexing import indexing_maps
from .model import GenericText
from .state import FunctionState, Handler, Opaque, OpReader, registrar

HANDLERS: dict[str, Handler] = {}
"""Op name -> handler, for MLIR's own ops and rocMLIR's views and allocations."""

handler = registrar(HANDLERS)


def opaque_results(f: FunctionState, results: list[str], r: OpReader, tok: Token, most: int = 1) -> None:
    """An op on memrefs defines nothing; on tensors it defines a tensor the graph does not hold."""
    if len(results) > most:
        raise MlirParseError(f"{tok.text} defines at most {most} value(s), not {len(results)}",
                             r.text, tok.offset)
    f.opaque.update(results)


@handler("memref.alloc", "memref.alloca", "rock.alloc")
def _alloc(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    result = r.result(results, tok)
    s.expect("(")
    if not s.accept(")"):  # dynamic sizes
        raise Opaque(result)
    attributes = s.source(*s.balanced()) if s.at("{") else ""
    s.expect(":", "':' and the allocation's type")
    add_alloc(r, f, tok, result, r.shaped_type(s), attributes)


def add_alloc(r: OpReader, f: FunctionState, tok: Token, result: str, typed: tuple[tuple[int, ...], str, str],
              attributes: str) -> None:
    """An allocation of the given type (shape, element type, text), its attribute dictionary as
    written."""
    shape, dtype, full = typed
    kind = tok.text.strip('"')
    if not full.startswith("memref"):
        raise MlirParseError(f"{kind} allocates a memref, not {full}", r.text, tok.offset)
    name = f.kernel.alloc(shape, dtype, name=result)
    f.names[result] = name
    if attributes:
        f.allocation_attributes[name] = attributes
    if full != memref_type(shape, dtype):
        f.types[name] = full
    if kind != "memref.alloc":
        f.allocators[name] = kind


@handler("rock.transform")
def _transform(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    result = r.result(results, tok)
    source = r.lookup(f, s)
    s.expect("by", "'by' and the transform map")
    tm = r.map_operand(s)
    s.expect(":", "':' and the types")
    r.check_type(f, s, source, "source")
    s.expect("to", "'to' and the result type")
    add_transform(r, f, s, result, source, tm)


def add_transform(r: OpReader, f: FunctionState, s: Cursor, result: str, source: str,
                  tm: TransformMap) -> None:
    """The view ``result`` of ``source`` by ``tm``, its result type at ``s``."""
    at = s.peek()
    shape = r.shaped_type(s)[0]
    if shape != tm.upper_bounds:
        raise MlirParseError(f"the result type's shape {list(shape)} differs from the map's "
                             f"upper bounds {list(tm.upper_bounds)}", r.text, at.offset if at else 0)
    f.names[result] = f.kernel.view(source, [tm], name=result)


def reassociation(s: Cursor) -> list[list[int]]:
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


@handler("memref.collapse_shape", "memref.expand_shape")
def _reshape(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    result = r.result(results, tok)
    source = r.lookup(f, s)
    groups = reassociation(s)
    if s.accept("output_shape"):
        s.balanced()
    s.expect(":", "':' and the types")
    r.check_type(f, s, source, "source")
    s.expect("into", "'into' and the result type")
    add_reshape(r, f, tok, result, source, groups, r.shaped_type(s)[0])


def add_reshape(r: OpReader, f: FunctionState, tok: Token, result: str, source: str, groups: list[list[int]],
                shape: tuple[int, ...]) -> None:
    """The view ``result`` of ``source`` that ``memref.collapse_shape`` or ``expand_shape`` makes."""
    below = f.kernel.shape(source)
    if tok.text.strip('"') == "memref.collapse_shape":
        tm = collapse_shape_map(below, groups)
        if tm.upper_bounds != shape:
            raise MlirParseError(f"collapsing {list(below)} by {groups} gives "
                                 f"{list(tm.upper_bounds)}, not {list(shape)}", r.text, tok.offset)
    else:
        tm = expand_shape_map(below, shape, groups)
    f.names[result] = f.kernel.view(source, [tm], name=result)


@handler("memref.copy")
def _copy(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    r.result(results, tok, 0)
    source = r.lookup(f, s)
    s.expect(",", "',' between source and target")
    target = r.lookup(f, s)
    s.expect(":", "':' and the types")
    r.check_type(f, s, source, "source")
    s.expect("to", "'to' and the target type")
    r.check_type(f, s, target, "target")
    f.kernel.op("memref.copy", reads=[source], writes=[target])


@handler("arith.constant")
def _constant(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    result = r.result(results, tok)
    value = s.signed("a constant")
    with contextlib.suppress(ValueError):
        f.values[result] = float(value)
    f.opaque.add(result)
    f.constants.append(s.source(s.begin, s.end))  # kept as written
    s.pos = s.end


@handler("linalg.fill")
def _fill(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``linalg.fill ins(%c : f32) outs(%x : memref<...>)`` with ``%c`` a constant."""
    r.result(results, tok, 0)
    s.expect("ins", "'ins' and the fill value")
    s.expect("(")
    at = s.peek()
    constant = s.value("the fill value")
    if constant not in f.values:
        raise MlirParseError(f"the fill value %{constant} is not a numeric arith.constant",
                             r.text, at.offset if at else 0)
    s.expect(":")
    s.next("the value's type")
    s.expect(")")
    s.expect("outs", "'outs' and the filled value")
    s.expect("(")
    target = r.operand(f, s)
    r.template(f, s, tok.text, [], [target], value=f.values[constant])


@handler("func.return", "return")
def _return(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    r.result(results, tok, 0)
    if s.peek() is not None:  # returned values: kept as written
        f.terminator = s.source(s.begin, s.end)
        s.pos = s.end


@handler("linalg.generic")
def _generic(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    r.result(results, tok, 0)
    maps: list[tuple[A.AffineMap, str]] = []
    iterators: list[str] = []
    extra: list[str] = []
    indices: dict[str, Any] = {}  # attributes such as rock.majorTensorNumber
    start, stop = s.balanced()
    for key, value in _entries(s, start, stop):
        generic_attribute(r, key, value, maps, iterators, extra, indices)
    ins = _operand_list(r, f, s, "ins")
    outs = _operand_list(r, f, s, "outs")
    if s.accept("attrs"):
        s.expect("=")
        a, b = s.balanced()
        extra.append(s.source(a, b))
    if not s.at("{"):
        raise s.error("'{' opening the body")
    body_start = s.pos
    body = read_body(s, len(ins), f.values)
    body_text = s.source(body_start, s.pos)
    add_generic(r, f, tok, maps, iterators, extra, indices, ins, outs, body, body_text)


def generic_attribute(r: OpReader, key: str, value: Cursor, maps: list[tuple[A.AffineMap, str]],
                      iterators: list[str], extra: list[str], indices: dict[str, Any]) -> None:
    """One entry of a ``linalg.generic``'s attribute dictionary, into the list it belongs to."""
    words = [t.text for t in value.tokens[value.pos:value.end]]
    number = "".join(words[:-2])
    if words[-2:] == [":", "index"] and re.fullmatch(r"-?[0-9]+", number) \
            and key not in ("kind", "reads", "writes", "root", "fn", "name", "iterator_types"):
        indices[key] = int(number)  # e.g. rock.majorTensorNumber = 0 : index
    elif key == "indexing_maps":
        maps[:] = _indexing_maps(r, value)
    elif key == "iterator_types":
        iterators[:] = [t.text.strip('"') for t in value.tokens[value.pos:value.end]
                         if t.kind == "string" or t.text in ("parallel", "reduction", "window")]
    else:
        extra.append(value.source(value.pos - 2, value.end) if value.pos < value.end else key)


def add_generic(r: OpReader, f: FunctionState, tok: Token, maps: list[tuple[A.AffineMap, str]],
                iterators: list[str], extra: list[str], indices: dict[str, Any], ins: list[str],
                outs: list[str], body: Body | None, body_text: str) -> None:
    """The ``linalg.generic`` op, its inputs read through views of their indexing maps when it is
    parallel (as rocMLIR's regularize pass rewrites them)."""
    if len(maps) != len(ins) + len(outs):
        raise MlirParseError(f"linalg.generic has {len(maps)} indexing maps for "
                             f"{len(ins) + len(outs)} operands", r.text, tok.offset)
    parallel = all(it == "parallel" for it in iterators)
    kept = None
    if parallel and outs:
        space = f.kernel.shape(outs[0])
        for amap, text in maps[len(ins):]:
            if amap != A.AffineMap(len(space), tuple(A.dim(i) for i in range(len(space)))):
                raise MlirParseError(f"linalg.generic: an output indexing map must be the "
                                     f"identity, not {text}", r.text, tok.offset)
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

def _indexing_maps(r: OpReader, value: Cursor) -> list[tuple[A.AffineMap, str]]:
    out: list[tuple[A.AffineMap, str]] = []
    value.expect("[", "'[' opening the indexing maps")
    while not value.accept("]"):
        tok = value.next("an affine map")
        if tok.kind == "hash":
            if tok.text[1:] not in r.affine:
                raise MlirParseError(f"undefined affine map {tok.text}", r.text, tok.offset)
            out.append((r.affine[tok.text[1:]], tok.text))
        elif tok.text == "affine_map":
            a = value.pos - 1
            value.balanced()
            out.append((r.affine_map(value, a, value.pos), value.source(a, value.pos)))
        else:
            raise value.error("an affine map", tok)
        if not value.at("]"):
            value.expect(",", "',' or ']'")
    return out

def _operand_list(r: OpReader, f: FunctionState, s: Cursor, word: str) -> list[str]:
    """``ins(%a, %b : T, U)``: the values, their types checked."""
    if not s.accept(word):
        return []
    s.expect("(", f"'(' after {word}")
    values: list[str] = []
    while s.at_kind("value"):
        values.append(r.lookup(f, s))
        s.accept(",")
    if s.accept(":"):
        for v in values:
            r.check_type(f, s, v, word)
            s.accept(",")
    s.expect(")", f"')' closing {word}")
    return values


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


    return None
