"""The MIGraphX and MHAL op tables (``viewalgebra/_mlir/migraphx_ops.py``) are self-consistent, as
``tests/test_rock_ops.py`` checks the rock table: every name a format mentions is defined, every
operand and result gets a type, segment flags agree with the operand groups, every format is one
the declarative interpreter reads; and every MIGraphX or MHAL op the repository's MLIR files use
has an entry or is one no stored definition has, and each of their one-line statements gets a
generic form keeping its operands. Then the writer's reading of each entry against a printer of
the same entry written here (random group sizes, types, attributes), MLIR's parser reading the
result: this checks the interpreter on every format; the hand-derived cases in
tests/test_generic_text.py check entries against rocMLIR's definitions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iree.compiler import ir  # MLIR's Python bindings: the 'mlir' extra
from test_rock_ops import _bare, _groups, _tokens, _typed, _values

from viewalgebra._mlir.assembly_format import (  # noqa: TID251 -- the interpreter's reader
    Directive,
    Element,
    Group,
    Literal,
    Var,
    parse_format,
)
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


# {{{ every entry read back from a custom form printed by its format

_TYPES = {"migraphx": ("<2x3xf32, 3x1>", "<4xi8, 1>", "!migraphx.shaped<1xf16, 0>", "tensor<4xf16>"),
          "mhal": ("f32", "tensor<4xf16>", "memref<2xi8>")}
"""Types to write: MIGraphX's shaped type with and without its prefix, builtin ones."""
_VALUES = {"i64": "2 : i64", "i32": "1 : i32", "f32": "1.5 : f32", "str": '"s"', "": "[1, 2]"}
_IN_FORMAT = {"value": "dense<[1, 2]> : tensor<2xi32>", "callee": "@g"}
"""The attributes these formats print as variables, with a value each."""


def _count(draw: st.DrawFn, mark: str, fixed: bool = False) -> int:
    if fixed:
        return 0
    return 1 if mark[-1] not in "?*" else draw(st.integers(0, 1 if mark[-1] == "?" else 2))


class _Printer:
    """An op's custom form printed by its format (MLIR's declarative printer, for what these
    formats use): the reverse of what the writer reads."""

    def __init__(self, values: dict[str, list[str]], types: dict[str, list[str]], attr_dict: str) -> None:
        self.values, self.types, self.attr_dict = values, types, attr_dict

    def elements(self, elements: tuple[Element, ...]) -> list[str]:
        return [piece for e in elements for piece in self.element(e)]

    def element(self, e: Element) -> list[str]:
        if isinstance(e, Literal):
            return [e.text]
        if isinstance(e, Var):
            return [_IN_FORMAT[e.name]] if e.name in _IN_FORMAT else [", ".join(self.values[e.name])]
        if isinstance(e, Group):
            return self.elements(e.elements) if self.present(e.elements) else self.elements(e.otherwise)
        assert isinstance(e, Directive)
        if e.kind == "attr-dict":
            return [self.attr_dict]
        if e.kind == "operands":
            return [", ".join(v for values in self.values.values() for v in values)]
        assert e.kind == "type", e.kind
        names = [a.name if isinstance(a, Var) else "operands" for a in e.args]
        found = [t for n in names for t in (self.types["operands"] if n == "operands" else self.types[n])]
        return [", ".join(found)]

    def present(self, elements: tuple[Element, ...]) -> bool:
        for e in elements:
            if isinstance(e, Var) and e.anchor:
                return bool(self.values[e.name])
            if isinstance(e, Directive) and e.anchor:
                return bool(self.types[cast(Var, e.args[0]).name])
        raise AssertionError("an optional group with no anchor")


@pytest.mark.parametrize("name", sorted(TABLE))
@settings(derandomize=True, max_examples=8, deadline=None)
@given(data=st.data())
def test_a_printed_custom_form_reads_back(name: str, data: st.DataObject) -> None:
    """The generic form of a custom form printed by the entry's own format (random group sizes,
    types, attributes) holds the operands in definition order with their types, the result types,
    the definition's attributes as properties (with ``operandSegmentSizes``) and the rest as
    attributes, and MLIR's parser reads it so."""
    op, dialect = TABLE[name], name.split(".", 1)[0]
    fixed = dict(op.types)
    values: dict[str, list[str]] = {}
    types: dict[str, list[str]] = {}
    args: list[str] = []
    for mark in op.operands:
        n = _count(data.draw, mark)
        values[_bare(mark)] = [f"%arg{len(args) + i}" for i in range(n)]
        written = [fixed.get(_bare(mark)) or data.draw(st.sampled_from(_TYPES[dialect])) for _ in range(n)]
        types[_bare(mark)] = written
        args += written
    types["operands"] = args
    results: list[str] = []
    for mark in op.results:
        n = _count(data.draw, mark, fixed.get(_bare(mark)) == "")
        types[_bare(mark)] = [fixed.get(_bare(mark)) or data.draw(st.sampled_from(_TYPES[dialect])) for _ in range(n)]
        results += types[_bare(mark)]
    printed_attributes = {e.name for e in _vars(parse_format(op.format))}
    inherent = [(a, _VALUES[k]) for a, k in op.attributes
                if a not in printed_attributes and data.draw(st.booleans())]
    discardable = [("extra", "7 : i64")] if data.draw(st.booleans()) else []
    attr_dict = "{" + ", ".join(f"{a} = {v}" for a, v in [*inherent, *discardable]) + "}" if inherent or discardable else ""
    defined = ", ".join(f"%r{i}" for i in range(len(results)))
    custom = " ".join(_Printer(values, types, attr_dict).elements(parse_format(op.format)))
    statement = (f"{defined} = " if results else "") + f"{name} {custom}"

    def full(t: str) -> str:
        return "!migraphx.shaped" + t if t.startswith("<") else t

    signature = ", ".join(f"%arg{i}: {full(t)}" for i, t in enumerate(args))
    out = generic_ops(f"func.func @g({signature}) {{\n  {statement}\n  return\n}}")
    context = ir.Context()
    context.allow_unregistered_dialects = True
    module = ir.Module.parse(out, context)
    function = module.body.operations[0]
    read = function.regions[0].blocks[0].operations[0]
    assert read.name == name, out
    assert [o.get_name() for o in read.operands] == [f"%arg{i}" for i in range(len(args))], out
    assert [str(o.type) for o in read.operands] == [full(t) for t in args], out
    assert [str(r.type) for r in read.results] == [full(t) for t in results], out
    assert {k: str(read.attributes[k]) for k in read.attributes} == dict(discardable), out
    properties = [*((a, _IN_FORMAT[a]) for a in sorted(printed_attributes)), *inherent]
    if op.segments:
        sizes = ", ".join(str(len(values[_bare(m)])) for m in op.operands)
        properties.append(("operandSegmentSizes", f"array<i32: {sizes}>"))
    shown = "<{" + ", ".join(f"{a} = {v}" for a, v in sorted(properties)) + "}>" if properties else ""
    assert (shown in out) if shown else "<{" not in out, out


def _vars(elements: tuple[Element, ...]) -> list[Var]:
    """The attribute variables of a format (those not operands)."""
    found: list[Var] = []
    for e in elements:
        if isinstance(e, Var) and e.name in _IN_FORMAT:
            found.append(e)
        elif isinstance(e, Group):
            found += _vars(e.elements)
    return found
