"""The handlers of ops written in MLIR's generic form (``record.py``), registered in
``GENERIC_HANDLERS`` under the same op names as their custom form's handlers (``handlers.py``):
each reads the same op into the same graph, taking its operands from the operand list in the
op's operand order (the ``arguments`` of the op's definition, e.g. rocMLIR's
``mlir/include/mlir/Dialect/Rock/IR/RockOps.td``), its attributes from the merged properties and
attributes, and its types from the type signature.

Ops the writer prints from the graph (allocations, views, copies, generics, constants, the
return) come back in custom form; a rock op keeps its generic text, with its operands cut out.
An op without a handler here stays opaque (``opaque.py``), as in custom form.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from .._kernel.graph import FUSION_ROOTS
from .._maps import affine as A
from .._maps.lexer import Cursor, tokenize
from .._maps.transform_map import TransformMap
from ..errors import MlirParseError
from .body import read_body
from .handlers import (
    add_alloc,
    add_generic,
    add_reshape,
    add_transform,
    generic_attribute,
    opaque_results,
    reassociation,
)
from .record import GenericOp, Span, custom_region, split
from .rock_handlers import maximum
from .state import FunctionState, Opaque, OpReader

GenericHandler = Callable[[OpReader, FunctionState, Cursor, GenericOp], None]

GENERIC_HANDLERS: dict[str, GenericHandler] = {}
"""Op name -> handler of its generic form."""


def generic_handler(*names: str) -> Callable[[GenericHandler], GenericHandler]:
    def register(fn: GenericHandler) -> GenericHandler:
        for name in names:
            GENERIC_HANDLERS[name] = fn
        return fn
    return register


def _at(s: Cursor, span: Span) -> Cursor:
    return Cursor(s.text, s.tokens, *span)


def _operands(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp, count: int | None = None,
              ) -> list[tuple[int, str]]:
    """Each operand's token index and graph value; ``count`` of them when given."""
    if count is not None and len(op.operands) != count:
        raise MlirParseError(f"{op.op} has {count} operand(s), not {len(op.operands)}", r.text,
                             op.name.offset)
    return [(i, r.lookup(f, _at(s, (i, i + 1)))) for i in op.operands]


def _check_types(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp, values: list[str]) -> None:
    for n, value in enumerate(values):
        r.check_type(f, _at(s, op.operand_types[n]), value, f"operand {n}")


def _value(r: OpReader, s: Cursor, op: GenericOp, key: str) -> Cursor:
    if key not in op.attributes:
        raise MlirParseError(f"{op.op} needs a '{key}' attribute", r.text, op.name.offset)
    return _at(s, op.attributes[key])


def _result(r: OpReader, op: GenericOp) -> str:
    return r.result(list(op.results), op.name)


# {{{ memref, arith, func


@generic_handler("memref.alloc", "memref.alloca", "rock.alloc")
def _alloc(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    result = _result(r, op)
    if op.operands:  # dynamic sizes
        raise Opaque(result)
    entries = [s.source(a - 2, b) if a < b else s.tokens[a - 1].text
               for key, (a, b) in op.attributes.items() if key != "operandSegmentSizes"]
    attributes = "{" + ", ".join(entries) + "}" if entries else ""
    add_alloc(r, f, op.name, result, r.shaped_type(_at(s, op.result_types[0])), attributes)


@generic_handler("rock.transform")
def _transform(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    result = _result(r, op)
    ((_, source),) = _operands(r, f, s, op, 1)
    tm = r.map_operand(_value(r, s, op, "transform"))
    _check_types(r, f, s, op, [source])
    add_transform(r, f, _at(s, op.result_types[0]), result, source, tm)


@generic_handler("memref.collapse_shape", "memref.expand_shape")
def _reshape(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    result = _result(r, op)
    if len(op.operands) > 1:  # dynamic output sizes
        raise Opaque(result)
    ((_, source),) = _operands(r, f, s, op, 1)
    groups = reassociation(_value(r, s, op, "reassociation"))
    _check_types(r, f, s, op, [source])
    add_reshape(r, f, op.name, result, source, groups, r.shaped_type(_at(s, op.result_types[0]))[0])


@generic_handler("memref.copy")
def _copy(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    r.result(list(op.results), op.name, 0)
    (_, source), (_, target) = _operands(r, f, s, op, 2)
    _check_types(r, f, s, op, [source, target])
    f.kernel.op("memref.copy", reads=[source], writes=[target])
    s.pos = s.end


@generic_handler("arith.constant")
def _constant(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    result = _result(r, op)
    value = _value(r, s, op, "value")
    text = value.source(value.pos, value.end)
    with contextlib.suppress(ValueError):
        f.values[result] = float(value.signed("a constant"))
    f.opaque.add(result)
    f.constants.append(f"%{result} = arith.constant {text}")  # in custom form, as the reader keeps it
    s.pos = s.end


@generic_handler("linalg.fill")
def _fill(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    r.result(list(op.results), op.name, 0)
    if len(op.operands) != 2:
        raise MlirParseError(f"linalg.fill has 2 operands, not {len(op.operands)}", r.text, op.name.offset)
    tok = s.tokens[op.operands[0]]
    if tok.text[1:] not in f.values:
        raise MlirParseError(f"the fill value {tok.text} is not a numeric arith.constant", r.text, tok.offset)
    target = op.operands[1], r.lookup(f, _at(s, (op.operands[1], op.operands[1] + 1)))
    r.template(f, s, op.op, [], [target], value=f.values[tok.text[1:]])


@generic_handler("func.return")
def _return(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    r.result(list(op.results), op.name, 0)
    if op.operands:  # returned values: kept in custom form
        values = ", ".join(s.tokens[i].text for i in op.operands)
        f.terminator = f"return {values} : {', '.join(s.source(*t) for t in op.operand_types)}"
    s.pos = s.end


# }}}
# {{{ linalg.generic


@generic_handler("linalg.generic")
def _generic(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    r.result(list(op.results), op.name, 0)
    maps: list[tuple[A.AffineMap, str]] = []
    iterators: list[str] = []
    extra: list[str] = []
    indices: dict[str, Any] = {}
    for key, span in op.attributes.items():
        if key != "operandSegmentSizes":
            generic_attribute(r, key, _at(s, span), maps, iterators, extra, indices)
    segments = [int(t.text) for t in s.tokens[slice(*op.attributes.get("operandSegmentSizes", (0, 0)))]
                if t.kind == "number"]
    if len(segments) != 2 or sum(segments) != len(op.operands) or len(op.regions) != 1:
        raise MlirParseError("linalg.generic: expected operandSegmentSizes = array<i32: ins, outs> "
                             "and one region", r.text, op.name.offset)
    values = [v for _, v in _operands(r, f, s, op)]
    _check_types(r, f, s, op, values)
    ins, outs = values[:segments[0]], values[segments[0]:]
    body_text = custom_region(s.source(*op.regions[0]))
    try:
        body = read_body(Cursor(body_text, tokenize(body_text)), len(ins), f.values)
    except MlirParseError as e:
        raise MlirParseError(f"linalg.generic: {e.reason}", r.text, op.name.offset) from None
    add_generic(r, f, op.name, maps, iterators, extra, indices, ins, outs, body, body_text)
    s.pos = s.end


# }}}
# {{{ rock


def _root(op: GenericOp) -> bool:
    return op.op in FUSION_ROOTS


@generic_handler("rock.gemm", "rock.gridwise_gemm", "rock.gridwise_gemm_accel")
def _gemm(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    """Operands ``(a, b, c)`` and a scaled gemm's scales (read); ``aTransposed`` and the like are
    unit properties."""
    opaque_results(f, list(op.results), r, op.name)
    if len(op.operands) < 3:
        _operands(r, f, s, op, 3)  # raises: too few
    a, b, c, *scales = _operands(r, f, s, op)
    transposed = tuple(x for x in ("c", "a", "b") if f"{x}Transposed" in op.attributes)
    if transposed:
        r.template(f, s, op.op, [a, b, *scales], [c], root=_root(op), transposed=transposed)
    else:
        r.template(f, s, op.op, [a, b, *scales], [c], root=_root(op))


@generic_handler("rock.conv", "rock.conv2d", "rock.conv2d_bwd_data")
def _conv(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    opaque_results(f, list(op.results), r, op.name)
    operands = _operands(r, f, s, op)
    if not operands:
        raise MlirParseError(f"{op.op} has no operands", r.text, op.name.offset)
    r.template(f, s, op.op, operands[:-1], operands[-1:], root=_root(op))


@generic_handler("rock.reduce")
def _reduce(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    """Operands ``(in, out)``; ``reduceMethod = #rock<ReduceMethod Sum>``, ``axis = 1 : index``."""
    opaque_results(f, list(op.results), r, op.name)
    source, target = _operands(r, f, s, op, 2)
    method_at = _value(r, s, op, "reduceMethod")
    words = [t.text for t in s.tokens[method_at.pos:method_at.end] if t.kind in ("ident", "string")]
    method = words[-1].strip('"').lower() if words else ""
    if method not in ("sum", "max"):
        raise MlirParseError(f"unknown reduction {method!r} (expected 'sum' or 'max')", r.text,
                             op.name.offset)
    axis = _value(r, s, op, "axis").integer("the axis")
    fn = maximum(axis) if method == "max" else None
    r.template(f, s, op.op, [source], [target], fn=fn, dims=(axis,), method=method)


def _view(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp, operand: tuple[int, str], key: str,
          ) -> tuple[int, str]:
    """The operand seen through the transform maps of property ``key`` (top-first), as the custom
    form's ``[maps](%x)``."""
    maps: list[TransformMap] = []
    if key in op.attributes:
        value = _at(s, op.attributes[key])
        if not value.at("["):
            raise value.error(f"'[' opening {key}")
        maps = [r.map_operand(_at(s, span)) for span in split(value, *value.balanced())]
    index, source = operand
    if not maps:
        return index, source
    name = f.kernel.view(source, maps, name=f"{source}_view")
    f.inline.append(name)
    return index, name


@generic_handler("rock.threadwise_read_into")
def _read_into(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    """Operands ``(source, dest, extra indices...)``: reads the source through ``extraViews``."""
    opaque_results(f, list(op.results), r, op.name, most=len(op.results))
    operands = _operands(r, f, s, op)[:2]
    if len(operands) != 2:
        raise MlirParseError(f"{op.op} needs a source and a destination", r.text, op.name.offset)
    source = _view(r, f, s, op, operands[0], "extraViews")
    r.template(f, s, op.op, [source], [operands[1]], inline=r.inlined(f, source))


@generic_handler("rock.threadwise_write_all")
def _write_all(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    """Operands ``(source, dest, extra indices...)``: writes the dest through ``extraViews``."""
    r.result(list(op.results), op.name, 0)
    operands = _operands(r, f, s, op)[:2]
    if len(operands) != 2:
        raise MlirParseError(f"{op.op} needs a source and a destination", r.text, op.name.offset)
    target = _view(r, f, s, op, operands[1], "extraViews")
    r.template(f, s, op.op, [operands[0]], [target], inline=r.inlined(f, target))


@generic_handler("rock.blockwise_reduce")
def _blockwise_reduce(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    """Operands ``(input, workspace, output)``."""
    r.result(list(op.results), op.name, 0)
    source, workspace, target = _operands(r, f, s, op, 3)
    r.template(f, s, op.op, [source], [target, workspace])


@generic_handler("rock.zero_init_kernel")
def _zero_init(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    opaque_results(f, list(op.results), r, op.name)
    (target,) = _operands(r, f, s, op, 1)
    r.template(f, s, op.op, [], [target])


@generic_handler("rock.converting_copy_kernel")
def _converting_copy(r: OpReader, f: FunctionState, s: Cursor, op: GenericOp) -> None:
    opaque_results(f, list(op.results), r, op.name)
    source, target = _operands(r, f, s, op, 2)
    r.template(f, s, op.op, [source], [target])


# }}}
