"""The rock op table (``viewalgebra/_mlir/rock_ops.py``) is self-consistent: every name a format
mentions is defined, every operand and result gets a type, marks and segment flags agree with the
operand groups, and every rock op the repository's MLIR test files use has an entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from viewalgebra._mlir.rock_ops import ROCK_OPS, OpDef  # noqa: TID251 -- the table itself

DATA = Path(__file__).parent / "data"

TOKEN = re.compile(r"`[^`]*`|\$\w+|attr-dict|functional-type|type|operands|results|[()^?:,]")
"""The pieces of a declarative assembly format."""

KINDS = re.compile(r"(i32|i64|index|f32|unit|str|enum:[A-Z]\w*|)")

NOT_STORED = {"rock.async_wait"}
"""Ops rocMLIR's test files use that the table does not define (no stored RockOps.td has them)."""


def _bare(name: str) -> str:
    return name.rstrip("?*")


def _values(op: OpDef) -> tuple[str, ...]:
    return tuple(_bare(n) for n in (*op.operands, *op.results))


def _tokens(fmt: str) -> list[str]:
    """The format split into tokens; nothing may be left over."""
    tokens = TOKEN.findall(fmt)
    rest = TOKEN.sub("", fmt).strip()
    if rest:
        raise ValueError(f"unrecognised format text {rest!r} in {fmt!r}")
    return tokens


def _typed(op: OpDef) -> set[str]:
    """The operands and results the format prints a type for."""
    typed = set(re.findall(r"type\(\$(\w+)\)", op.format))
    if "type(operands)" in op.format or "functional-type" in op.format:
        typed |= {_bare(n) for n in op.operands}
    if "type(results)" in op.format or "functional-type" in op.format:
        typed |= {_bare(n) for n in op.results}
    return typed


def _groups(names: tuple[str, ...]) -> int:
    return sum(1 for n in names if n.endswith(("?", "*")))


@pytest.mark.parametrize("name", sorted(ROCK_OPS))
def test_names_are_defined_once(name: str) -> None:
    op = ROCK_OPS[name]
    defined = [*_values(op), *(a for a, _ in op.attributes), *(_bare(r) for r in op.regions)]
    assert len(defined) == len(set(defined)), f"{name}: a name defined twice: {defined}"
    for mark in (*op.operands, *op.results, *op.regions):
        assert re.fullmatch(r"\w+[?*]?", mark), f"{name}: bad mark {mark!r}"
    assert all(not r.endswith("?") for r in op.regions), name
    for attribute, kind in op.attributes:
        assert KINDS.fullmatch(kind), f"{name}: attribute {attribute} has kind {kind!r}"


@pytest.mark.parametrize("name", sorted(n for n, op in ROCK_OPS.items() if op.format))
def test_format_mentions_only_defined_names(name: str) -> None:
    op = ROCK_OPS[name]
    defined = {*_values(op), *(a for a, _ in op.attributes), *(_bare(r) for r in op.regions)}
    tokens = _tokens(op.format)
    used = {t[1:] for t in tokens if t.startswith("$")}
    assert used <= defined, f"{name}: format uses {sorted(used - defined)}"
    assert tokens.count("(") == tokens.count(")"), f"{name}: unbalanced parentheses"
    assert "attr-dict" in tokens, f"{name}: no attr-dict"
    # Every operand and region appears in the format, by name or through a directive.
    shown = used | ({_bare(n) for n in op.operands} if "operands" in tokens else set())
    missing = {*(_bare(n) for n in op.operands), *(_bare(r) for r in op.regions)} - shown
    assert not missing, f"{name}: format never shows {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(ROCK_OPS))
def test_every_value_has_a_type(name: str) -> None:
    op = ROCK_OPS[name]
    values = _values(op)
    given = dict(op.types)
    assert len(given) == len(op.types), f"{name}: a type given twice"
    assert set(given) <= set(values), f"{name}: types for unknown {sorted(set(given) - set(values))}"
    for value, kind in given.items():
        if kind.startswith("="):
            assert kind[1:] in values and kind[1:] != value, f"{name}: {value} copies {kind!r}"
    if not op.format:
        return  # a hand-written parser: types come from its own syntax
    typed = _typed(op)
    assert not typed & set(given), f"{name}: {sorted(typed & set(given))} typed twice"
    untyped = set(values) - typed - set(given)
    assert not untyped, f"{name}: no type for {sorted(untyped)}"
    for value, kind in given.items():
        if kind.startswith("="):
            assert kind[1:] in typed or kind[1:] in given, f"{name}: {value} copies an untyped value"


# index_diff_update's two result groups are sized by SameVariadicResultSize, not by an attribute.
RESULT_GROUPS_WITHOUT_SEGMENTS = {"rock.index_diff_update"}


@pytest.mark.parametrize("name", sorted(ROCK_OPS))
def test_segments_where_groups_are_ambiguous(name: str) -> None:
    op = ROCK_OPS[name]
    assert op.segments == (_groups(op.operands) > 1), name
    expected = _groups(op.results) > 1 and name not in RESULT_GROUPS_WITHOUT_SEGMENTS
    assert op.result_segments == expected, name


def test_every_op_in_the_test_files_is_known() -> None:
    used: set[str] = set()
    op_at = re.compile(r"^\s*(?:%[\w#:, %]+=\s*)?(rock\.[a-z_0-9]+)\b(?![.=])", re.MULTILINE)
    for path in DATA.rglob("*.mlir"):
        text = "\n".join(line for line in path.read_text().splitlines()
                         if not line.lstrip().startswith("//"))
        used |= set(op_at.findall(text))
    used -= {"rock.transform_map"}
    assert "rock.transform" in used and "rock.gemm" in used
    assert used - set(ROCK_OPS) == NOT_STORED
