"""Ops the reader does not model, kept verbatim (docs/api.md, ``read_mlir``).

Such an op, in custom or generic form, with or without results and regions, is an op of the graph
of its own name that reads and writes every graph value it names (in its operands and in its
regions), which is what rocMLIR's own analyses assume of an op with unknown memory effects. Its
results are opaque: an op that uses one is kept verbatim too. ``op.attr("opaque")`` is the op's
``line:column``, so that a rewrite that would have to look through the op can refuse and say where.
"""

from __future__ import annotations

from .._maps.lexer import Cursor, Token
from .model import Slot
from .state import FunctionState, OpReader


def read_opaque(r: OpReader, f: FunctionState, s: Cursor, results: list[str], tok: Token) -> None:
    """Add the statement's op (its name at ``tok``, ``s`` just after it) as an opaque op."""
    operands: list[str] = []
    slots: dict[int, Slot] = {}
    for i in range(s.pos, s.end):
        t = s.tokens[i]
        name = t.text[1:]
        if t.kind != "value" or name not in f.names:
            continue  # values defined inside the op's regions, scalars, opaque values
        value = f.names[name]
        if value not in operands:
            operands.append(value)
        slots[i] = Slot("read", operands.index(value))
    f.opaque.update(results)
    r.emit(f, s, tok.text.strip('"'), slots, operands, operands, opaque=r.where(tok.offset))
