"""The body of a ``linalg.generic`` as a numpy function, for the reference interpreter.

Supported: ``arith`` float arithmetic (``addf``, ``subf``, ``mulf``, ``divf``, ``negf``,
``maximumf``, ``minimumf``, ``extf``, ``truncf``, ``constant``), ``math.exp``, ``math.sqrt``,
``math.rsqrt`` and ``linalg.yield``; constants defined outside the body may be used. A body with
anything else reads fine but has no function (``run_kernel`` then asks for ``fn=``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._maps.lexer import Cursor
from ..errors import MlirParseError

FloatArray = npt.NDArray[np.float64]

_BINARY: dict[str, Callable[[FloatArray, FloatArray], FloatArray]] = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
    "arith.divf": np.divide, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.maxf": np.maximum, "arith.minf": np.minimum,
}
_UNARY: dict[str, Callable[[FloatArray], FloatArray]] = {
    "arith.negf": np.negative, "arith.extf": lambda x: x, "math.exp": np.exp,
    "math.sqrt": np.sqrt, "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
}
_NARROW = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
"""``truncf`` targets numpy rounds exactly (``bf16`` has no numpy type: such a body has no function)."""


@dataclass(frozen=True, slots=True)
class _Step:
    result: str
    op: str
    operands: tuple[str, ...]
    cast: str = ""


class Body:
    """A parsed region: block arguments, steps, the yielded values."""

    def __init__(self, arguments: tuple[str, ...], steps: tuple[_Step, ...], yields: tuple[str, ...],
                 constants: Mapping[str, float]) -> None:
        self.arguments = arguments
        self.steps = steps
        self.yields = yields
        self.constants = dict(constants)

    def __call__(self, *inputs: FloatArray) -> FloatArray | tuple[FloatArray, ...]:
        env: dict[str, FloatArray | float] = dict(self.constants)
        env.update(zip(self.arguments, inputs, strict=False))
        for s in self.steps:
            args = [env[o] for o in s.operands]
            if s.op in _BINARY:
                env[s.result] = _BINARY[s.op](np.asarray(args[0]), np.asarray(args[1]))
            elif s.op == "arith.truncf":
                env[s.result] = np.asarray(args[0]).astype(_NARROW[s.cast]).astype(np.float64)
            else:
                env[s.result] = _UNARY[s.op](np.asarray(args[0]))
        out = tuple(np.asarray(env[y], dtype=np.float64) for y in self.yields)
        return out[0] if len(out) == 1 else out


def read_body(c: Cursor, inputs: int, constants: Mapping[str, float]) -> Body | None:
    """Read a region ``{ ^bb0(%a: f32, ...): ... linalg.yield %x : f32 }`` from ``c`` (positioned
    on ``{``). ``None`` when the body uses something without numpy semantics, or uses its output
    arguments (the interpreter passes only the inputs)."""
    start, stop = c.balanced()
    r = Cursor(c.text, c.tokens, start + 1, stop - 1)
    if r.at_kind("block"):
        r.next()
        arguments: list[str] = []
        if r.at("("):
            r.next()
            while not r.accept(")"):
                arguments.append(r.value())
                r.expect(":", "':' and the argument's type")
                r.next("a type")
                r.accept(",")
        r.expect(":", "':' after the block arguments")
    else:
        arguments = []
    known = dict(constants)
    steps: list[_Step] = []
    defined = set(arguments) | set(known)
    supported = True
    while r.peek() is not None:
        end = r.statement_end()
        s = Cursor(r.text, r.tokens, r.pos, end)
        r.pos = end
        if s.at("linalg.yield"):
            s.next()
            yields: list[str] = []
            while s.at_kind("value"):
                yields.append(s.value())
                s.accept(",")
            if not supported or any(a in _used(steps, yields) for a in arguments[inputs:]):
                return None
            return Body(tuple(arguments), tuple(steps), tuple(yields), known)
        result = s.value("a result '%x = ...' or 'linalg.yield'")
        s.expect("=")
        op = s.next("an op name").text
        if op == "arith.constant":
            value = s.signed("a constant")
            try:
                known[result] = float(value)
            except ValueError:
                supported = False
            defined.add(result)
            continue
        operands: list[str] = []
        while s.at_kind("value"):
            operands.append(s.value())
            s.accept(",")
        cast = ""
        if s.accept(":"):
            types = [t.text for t in s.tokens[s.pos:s.end] if t.kind == "ident"]
            cast = types[-1] if types else ""
        if any(o not in defined for o in operands):
            supported = False
        defined.add(result)
        if op in _BINARY and len(operands) == 2 or op in _UNARY and len(operands) == 1 \
                or op == "arith.truncf" and len(operands) == 1 and cast in _NARROW:
            steps.append(_Step(result, op, tuple(operands), cast))
        else:
            supported = False
    raise MlirParseError("expected 'linalg.yield' ending the linalg.generic body", c.text,
                         c.tokens[stop - 1].offset)


def _used(steps: list[_Step], yields: list[str]) -> set[str]:
    return {o for s in steps for o in s.operands} | set(yields)
