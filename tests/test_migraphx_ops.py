"""The MIGraphX and MHAL op tables (``viewalgebra/_mlir/migraphx_ops.py``) are self-consistent, as
``tests/test_rock_ops.py`` checks the rock table: every name a format mentions is defined, every
operand and result gets a type, segment flags agree with the operand groups, every format is one
the declarative interpreter reads; and every MIGraphX or MHAL op the repository's MLIR files use
has an entry or is one no stored definition has, and each of their one-line statements gets a
generic form keeping its operands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_rock_ops import _bare, _groups, _tokens, _typed, _values

from viewalgebra._mlir.assembly_format import parse_format  # noqa: TID251 -- the interpreter's reader
from viewalgebra._mlir.migraphx_ops import MHAL_OPS, MIGRAPHX_OPS  # noqa: TID251 -- the table itself
from viewalgebra._mlir.rock_ops import OpDef  # noqa: TID251 -- its entries
from viewalgebra.mlir import generic_ops

DATA = Path(__file__).parent / "data"
TABLE: dict[str, OpDef] = {**MIGRAPHX_OPS, **MHAL_OPS}

KINDS = re.compile(r"(i32|i64|f32|str|)")
"""The attribute kinds these dialects' ops need (``rock_ops.OpDef.attributes``)."""

NOT_STORED = {"migraphx.attention", "migraphx.yield", "migraphx.backwards_data_convolution"}
"""MIGraphX ops rocMLIR's test files use that no stored ``MIGraphX.td`` defines: printed as written."""

OP_AT = re.compile(r"^\s*(?:%[\w#:, %]+=\s*)?((?:migraphx|mhal)\.[\w.]+)(?![\w.])(?!\s*=)(.*)$", re.MULTILINE)
"""A statement running a MIGraphX or MHAL op (not ``mhal.arch = ...``, an attribute)."""


def _lines() -> list[tuple[str, str, str]]:
    """(file, op, statement) for every MIGraphX or MHAL op of the repository's MLIR files."""
    found: list[tuple[str, str, str]] = []
    for path in sorted([*DATA.rglob("*.mlir"), *(Path(__file__).parent.parent / "examples").glob("*.mlir")]):
        text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        found += [(path.name, m.group(1), m.group(0).strip()) for m in OP_AT.finditer(text)]
    return found


LINES = _lines()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_names_are_defined_once(name: str) -> None:
    op = TABLE[name]
    assert name.split(".", 1)[0] in ("migraphx", "mhal")
    defined = [*_values(op), *(a for a, _ in op.attributes), *(_bare(r) for r in op.regions)]
    assert len(defined) == len(set(defined)), f"{name}: a name defined twice: {defined}"
    for mark in (*op.operands, *op.results):
        assert re.fullmatch(r"\w+[?*]?", mark), f"{name}: bad mark {mark!r}"
    for attribute, kind in op.attributes:
        assert KINDS.fullmatch(kind), f"{name}: attribute {attribute} has kind {kind!r}"


@pytest.mark.parametrize("name", sorted(TABLE))
def test_format_is_read_and_mentions_only_defined_names(name: str) -> None:
    op = TABLE[name]
    assert op.format, f"{name}: every op of these dialects has an assemblyFormat"
    parse_format(op.format)  # raises on a directive the interpreter does not read (custom<...>)
    defined = {*_values(op), *(a for a, _ in op.attributes)}
    tokens = _tokens(op.format)
    used = {t[1:] for t in tokens if t.startswith("$")}
    assert used <= defined, f"{name}: format uses {sorted(used - defined)}"
    assert "attr-dict" in tokens, f"{name}: no attr-dict"
    shown = used | ({_bare(n) for n in op.operands} if "operands" in tokens else set())
    assert {_bare(n) for n in op.operands} <= shown, f"{name}: format never shows an operand"


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_value_has_a_type(name: str) -> None:
    op = TABLE[name]
    given = dict(op.types)
    values = set(_values(op))
    assert set(given) <= values, f"{name}: types for unknown {sorted(set(given) - values)}"
    typed = _typed(op)
    assert not typed & set(given), f"{name}: {sorted(typed & set(given))} typed twice"
    assert not values - typed - set(given), f"{name}: no type for {sorted(values - typed - set(given))}"


@pytest.mark.parametrize("name", sorted(TABLE))
def test_segments_where_groups_are_ambiguous(name: str) -> None:
    op = TABLE[name]
    assert op.segments == (_groups(op.operands) > 1), name
    assert not op.result_segments and _groups(op.results) <= 1, name


def test_every_op_in_the_test_files_is_known() -> None:
    used = {op for _, op, _ in LINES}
    assert {"migraphx.dot", "migraphx.literal", "mhal.launch", "mhal.await"} <= used
    assert used - set(TABLE) == NOT_STORED


def test_every_statement_in_the_test_files_keeps_its_operands() -> None:
    """Each one-line MIGraphX or MHAL statement of the data gets a generic form whose operands are
    those written (as a multiset), by its definition or, with none, as written."""
    operand = re.compile(r"%[\w$.\-]+(?:#\d+)?")
    done = 0
    for where, op, statement in LINES:
        if not all(statement.count(a) == statement.count(b) for a, b in ("()", "[]", "{}")):
            continue  # an op written over several lines: the corpus test parses it
        line = generic_ops(statement)
        results, _, rest = statement.partition(" = ") if statement.startswith("%") else ("", "", statement)
        written = operand.findall(re.sub(r"\{[^{}]*\}", "", rest).split(":")[0])
        head = line.split(" = ", 1)[1] if results else line
        assert f'"{op}"(' in head, where
        assert sorted(operand.findall(head.split(")", 1)[0])) == sorted(written), (where, statement)
        done += 1
    assert done >= 0.9 * len(LINES)
