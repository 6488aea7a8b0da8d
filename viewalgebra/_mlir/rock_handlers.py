"""The handlers of rocMLIR's own ops (``rock.gemm``, ``rock.conv``, ``rock.attention``, ``rock.reduce``, the
threadwise and blockwise ops, the utility kernels), following each op's ``assemblyFormat`` in
``mlir/include/mlir/Dialect/Rock/IR/RockOps.td``; registered in ``handlers.HANDLERS`` beside MLIR's
own ops. ``rock.transform`` and ``rock.alloc`` are read with MLIR's views and allocations
(``handlers.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._kernel.graph import FUSION_ROOTS
from .._maps.lexer import Cursor, Token
from ..errors import MlirParseError
from .handlers import opaque_results
from .state import FunctionState, Handler, Opaque, OpReader, registrar

ROCK_HANDLERS: dict[str, Handler] = {}
"""Op name -> handler, for rocMLIR's ops."""

handler = registrar(ROCK_HANDLERS)


@handler("rock.gemm", "rock.gridwise_gemm", "rock.gridwise_gemm_accel")
def _gemm(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.gemm (tr)? %c = (tr)? %a * (tr)? %b ...``, ``rock.gridwise_gemm %c = %a * %b ...``,
    ``rock.gridwise_gemm_accel(%a, %b, %c (, %scaleA, %scaleB)?) ...`` (a scaled gemm's scales,
    rocMLIR's optional ``aScale`` and ``bScale`` operands, are read too)."""
    opaque_results(f, results, r, tok)
    transposed: list[str] = []
    scales: list[tuple[int, str]] = []
    if s.accept("("):
        a = r.operand(f, s)
        s.expect(",")
        b = r.operand(f, s)
        s.expect(",")
        c = r.operand(f, s)
        while s.accept(","):
            scales.append(r.operand(f, s))
        s.expect(")", "',' or ')' after the operands")
    else:
        if s.accept("tr"):
            transposed.append("c")
        c = r.operand(f, s)
        s.expect("=", "'=' in '%c = %a * %b'")
        if s.accept("tr"):
            transposed.append("a")
        a = r.operand(f, s)
        s.expect("*", "'*' in '%c = %a * %b'")
        if s.accept("tr"):
            transposed.append("b")
        b = r.operand(f, s)
    if transposed:  # rocMLIR's aTransposed, bTransposed, cTransposed
        r.template(f, s, tok.text, [a, b, *scales], [c], root=tok.text in FUSION_ROOTS,
                   transposed=tuple(transposed))
    else:
        r.template(f, s, tok.text, [a, b, *scales], [c], root=tok.text in FUSION_ROOTS)


@handler("rock.conv", "rock.conv2d", "rock.conv2d_bwd_data")
def _conv(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.conv(%filter, %input, %output) ...``: reads all but the last operand, writes it."""
    opaque_results(f, results, r, tok)
    s.expect("(", "'(' opening the operands")
    operands = [r.operand(f, s)]
    while s.accept(","):
        operands.append(r.operand(f, s))
    s.expect(")")
    r.template(f, s, tok.text, operands[:-1], operands[-1:], root=tok.text in FUSION_ROOTS)


@handler("rock.attention")
def _attention(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.attention(%q, %k, %v, ..., %out) features = ...``: reads all but the last operand,
    writes it. The form with a region of its own (``rock.attention { qk = ... }``) is kept
    verbatim."""
    if not s.at("("):
        raise Opaque(tok.text)
    _conv(r, f, s, results, tok)


@handler("rock.reduce")
def _reduce(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.reduce sum %in into %out features = ... {axis = 1 : index, ...} : ...``."""
    opaque_results(f, results, r, tok)
    start = s.pos
    method = s.next("the reduction ('sum' or 'max')").text
    source = r.operand(f, s)
    s.expect("into", "'into' and the result")
    target = r.operand(f, s)
    axis = _attribute_int(s, "axis")
    if axis is None:
        raise MlirParseError("rock.reduce needs an 'axis' attribute", r.text, tok.offset)
    if method not in ("sum", "max"):
        raise MlirParseError(f"unknown reduction {method!r} (expected 'sum' or 'max')",
                             r.text, s.tokens[start].offset)
    fn = maximum(axis) if method == "max" else None
    r.template(f, s, tok.text, [source], [target], fn=fn, dims=(axis,), method=method)


def skip_to(s: Cursor, word: str) -> None:
    """Skip tokens and bracketed groups up to ``word`` (not consumed)."""
    while not s.at(word):
        if s.peek() is None:
            raise s.error(f"'{word}'")
        if s.at("[") or s.at("{") or s.at("("):
            s.balanced()
        else:
            s.next()


@handler("rock.threadwise_read_into")
def _read_into(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.threadwise_read_into {attrs} [maps](%source) ([%extra, ...])? (if [%valid])?
    -> %dest : ...``: reads the view, writes ``%dest``. Results are kept out of the graph."""
    opaque_results(f, results, r, tok, most=len(results))
    if s.at("{"):
        s.balanced()
    source = r.inline_view(f, s)
    skip_to(s, "->")  # extra indices, 'if [%valid]': index and i1 values
    s.expect("->", "'->' and the target")
    target = r.operand(f, s)
    r.template(f, s, tok.text, [source], [target], inline=r.inlined(f, source))


@handler("rock.threadwise_write_all")
def _write_all(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.threadwise_write_all features = ... {attrs} %source -> [maps](%dest)
    ([%extra, ...])? by set : ...``: reads ``%source``, writes the view."""
    r.result(results, tok, 0)
    while not s.at_kind("value"):
        if s.at("{"):
            s.balanced()
        else:
            s.next("the source value")
    source = r.operand(f, s)
    s.expect("->", "'->' and the target")
    target = r.inline_view(f, s)
    r.template(f, s, tok.text, [source], [target], inline=r.inlined(f, target))


@handler("rock.blockwise_reduce")
def _blockwise_reduce(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    r.result(results, tok, 0)
    s.next("the reduction")
    if s.at("["):
        s.balanced()
    source = r.operand(f, s)
    s.expect("into", "'into' and the result")
    target = r.operand(f, s)
    s.expect("using", "'using' and the workspace")
    workspace = r.operand(f, s)
    r.template(f, s, tok.text, [source], [target, workspace])


@handler("rock.blockwise_broadcast_reduce")
def _broadcast_reduce(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.blockwise_broadcast_reduce sum [maps]... %input into %output using [maps]...
    %workspace {attrs} : ...``: reads ``%input``, writes ``%output`` and the workspace."""
    r.result(results, tok, 0)
    s.next("the reduction")
    while s.at("["):
        s.balanced()
    source = r.operand(f, s)
    s.expect("into", "'into' and the result")
    targets = [r.operand(f, s)]
    while s.accept(","):  # further outputs, each possibly after its views
        while s.at("["):
            s.balanced()
        targets.append(r.operand(f, s))
    s.expect("using", "'using' and the workspace")
    while s.at("["):
        s.balanced()
    workspace = r.operand(f, s)
    r.template(f, s, tok.text, [source], [*targets, workspace])


@handler("rock.zero_init_kernel")
def _zero_init(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.zero_init_kernel %buffer (features = ...)? {attrs} : type (-> type)?``: writes it."""
    opaque_results(f, results, r, tok)
    target = r.operand(f, s)
    r.template(f, s, tok.text, [], [target])


@handler("rock.converting_copy_kernel")
def _converting_copy(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """``rock.converting_copy_kernel %input to %output ...``: reads ``%input``, writes ``%output``."""
    opaque_results(f, results, r, tok)
    source = r.operand(f, s)
    s.expect("to", "'to' and the output")
    target = r.operand(f, s)
    r.template(f, s, tok.text, [source], [target])


def maximum(axis: int) -> Callable[[Any], Any]:
    def reduce(x: Any) -> Any:
        return np.max(x, axis=axis, keepdims=True)
    return reduce


def _attribute_int(s: Cursor, key: str) -> int | None:
    tokens = s.tokens[s.pos:s.end]
    for i, t in enumerate(tokens[:-2]):
        if t.text == key and tokens[i + 1].text == "=" and tokens[i + 2].kind == "number":
            return int(tokens[i + 2].text)
