"""An op written in the custom form its declarative ``assemblyFormat`` defines, read by that
format and printed in MLIR's generic form (``mlir-opt --mlir-print-op-generic``).

The format is MLIR's declarative assembly format (``mlir/docs/DefiningDialects/Operations.md``,
'Declarative Assembly Format'): literals, ``$name`` variables, the ``attr-dict``, ``type(...)``,
``operands``, ``regions`` and ``functional-type`` directives, and optional groups ``(...)?``
with an anchor ``^``. What the format needs beyond the text (which names are operands, in what
order the op takes them, the kind of each attribute, the types the format leaves out) comes from
an ``OpDef``: for rock ops, ``viewalgebra/_mlir/rock_ops.py``; for MIGraphX and MHAL ops,
``viewalgebra/_mlir/migraphx_ops.py``.

Only the op's own syntax is read here; the statements of its regions are printed by ``convert``,
which the caller passes in (``generic_text.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .._maps.lexer import Cursor, tokenize
from ..errors import MlirParseError, MlirWriteError
from . import generic as G
from .assembly_format import Directive, Element, Group, Keyworded, Literal, Var, keyworded, parse_format
from .migraphx_ops import ELIDED_TYPES
from .rock_ops import OpDef

ELIDED = {"transform": "#rock.transform_map", "map": "#rock.transform_map"}
"""The attribute printed in place of ``<...>`` for an attribute argument of this name: rock's
transform maps, whose ODS type lets the custom form leave out ``#rock.transform_map``."""


# {{{ reading the custom form


@dataclass
class _Read:
    """What the custom form gave: operands, attributes, types, regions."""

    operands: dict[str, list[str]] = field(default_factory=lambda: {})
    types: dict[str, list[str]] = field(default_factory=lambda: {})
    properties: list[tuple[str, str]] = field(default_factory=lambda: [])
    attributes: list[tuple[str, str]] = field(default_factory=lambda: [])
    regions: dict[str, list[str]] = field(default_factory=lambda: {})


def _plain(name: str) -> str:
    return name.rstrip("?*")


class _Reader:
    def __init__(self, kind: str, d: OpDef, c: Cursor, results: list[str],
                 convert: Callable[[str], list[str]]) -> None:
        self.kind = kind
        self.d = d
        self.c = c
        self.convert = convert
        self.operands = {_plain(o): o for o in d.operands}
        self.results = {_plain(r): r for r in d.results}
        self.attributes = dict(d.attributes)
        self.regions = {_plain(r) for r in d.regions}
        self.result_names = results
        self.read = _Read()
        self.lenient = False
        """Keyworded attributes may come in any order, or not at all (``Keyworded``)."""
        self.keyworded: list[Keyworded] = []

    def fail(self, expected: str) -> MlirWriteError:
        e = self.c.error(expected)
        return MlirWriteError(f"{self.kind}: its custom form does not follow its definition: {e}")

    def elements(self, elements: Sequence[Element]) -> None:
        for e in elements:
            self.absorb()
            if isinstance(e, Keyworded):
                if not self.lenient:
                    self.elements(e.elements)
            else:
                self.element(e)
        self.absorb()

    def absorb(self) -> None:
        """Leniently, every keyworded attribute whose keyword comes next."""
        while self.lenient and (tok := self.c.peek()) is not None:
            found = next((k for k in self.keyworded if k.word == tok.text), None)
            if found is None:
                return
            self.keyworded.remove(found)
            self.lenient = False
            try:
                self.elements(found.elements)
            finally:
                self.lenient = True

    def element(self, e: Element) -> None:
        c = self.c
        if isinstance(e, Literal):
            if not c.accept(e.text):
                raise self.fail(f"'{e.text}'")
        elif isinstance(e, Var):
            self.variable(e.name)
        elif isinstance(e, Group):
            if self.present(e.elements):
                self.elements(e.elements)
            else:
                self.elements(e.otherwise)
        elif isinstance(e, Keyworded):
            self.elements(e.elements)
        elif e.kind == "attr-dict":
            self.attr_dict()
        elif e.kind == "attr-dict-with-keyword":
            if c.at("attributes"):
                c.next()
                self.attr_dict()
        elif e.kind in ("type", "qualified"):
            for arg in e.args:
                self.types(arg)
        elif e.kind == "functional-type":
            for arg in e.args:
                self.types(arg, functional=True)
        elif e.kind == "operands":
            values = [read_value(c)] if c.at_kind("value") else []
            while values and c.accept(","):
                values.append(read_value(c))
            self.spread_operands(values)
        elif e.kind == "regions":
            for name in self.regions:
                self.variable(name)
        else:  # results: only in type directives
            raise self.fail("a format this reader knows")

    def spread_operands(self, values: list[str]) -> None:
        """All operands written as one list: single operands take one value each, the one
        optional or variadic group (if any) the rest."""
        marks = list(self.operands.values())
        groups = [m for m in marks if m[-1] in "*?"]
        spare = len(values) - (len(marks) - len(groups))
        if spare < 0 or len(groups) > 1 and spare > 0 or not groups and spare or \
                groups and groups[0][-1] == "?" and spare > 1:
            raise self.fail(f"operands that divide among {', '.join(marks)}")
        i = 0
        for name, mark in self.operands.items():
            n = spare if mark[-1] in "*?" else 1
            self.read.operands[name] = values[i:i + n]
            i += n

    def present(self, elements: Sequence[Element]) -> bool:
        """Whether an optional group is written: decided by its first element, as MLIR does."""
        first = elements[0]
        c = self.c
        if isinstance(first, Literal):
            return c.at(first.text)
        if isinstance(first, Var):
            if first.name in self.operands:
                return c.at_kind("value")
            if first.name in self.regions:
                return c.at("{")
            return c.peek() is not None and not c.at(":")
        if isinstance(first, Directive) and first.kind in ("type", "qualified"):
            return c.peek() is not None
        return c.at("{") if isinstance(first, Directive) and first.kind == "attr-dict" else False

    def variable(self, name: str) -> None:
        c = self.c
        if name in self.operands:
            mark = self.operands[name][-1]
            values: list[str] = []
            if mark in "*?":
                while c.at_kind("value") and (mark == "*" or not values):
                    values.append(read_value(c))
                    if mark == "?" or not c.accept(","):
                        break
            else:
                if not c.at_kind("value"):
                    raise self.fail(f"the operand ${name}")
                values.append(read_value(c))
            self.read.operands[name] = values
        elif name in self.attributes:
            self.read.properties.append((name, self.attribute(name, self.attributes[name])))
        elif name in self.regions:
            if not c.at("{"):
                raise self.fail(f"the region ${name}")
            a, b = c.balanced()
            self.read.regions[name] = self.convert(c.source(a, b))
        else:
            raise self.fail(f"a format whose ${name} is an operand, attribute or region")

    def attribute(self, name: str, kind: str) -> str:
        c = self.c
        if kind == "unit":
            return ""
        if kind.startswith("enum:"):
            tok = c.next(f"the value of {name}")
            if tok.kind == "hash":
                return _hash_attribute(c, c.pos - 1)
            words = [tok.text.strip('"')]
            while c.accept("|"):
                words.append(c.next(f"the value of {name}").text)
            return f"#rock<{kind[5:]} {'|'.join(words)}>"
        start = c.pos
        text = _attribute_text(c, name)
        literal = c.tokens[start].kind == "number" or c.tokens[start].text in ("-", "dense", "sparse")
        if not kind and literal and c.accept(":"):  # an untyped attribute's literal takes its type
            text += " : " + read_type(c)
        if kind in ("i32", "i64", "index", "f32", "f64") and ":" not in text:
            return f"{text} : {kind}"
        return text

    def attr_dict(self) -> None:
        c = self.c
        if not c.at("{"):
            return
        a, b = c.balanced()
        for key, value in G.entries(c.source(a, b)):
            target = self.read.properties if key in self.attributes else self.read.attributes
            target.append((key, value))

    def types(self, arg: Element, *, functional: bool = False) -> None:
        c = self.c
        if isinstance(arg, Directive) and arg.kind in ("operands", "results"):
            names = list(self.operands if arg.kind == "operands" else self.results)
        elif isinstance(arg, Var):
            names = [arg.name]
        else:
            raise self.fail("a type directive this reader knows")
        if functional:  # (types) or a single type for results
            if c.accept("("):
                found = _type_list(c) if not c.at(")") else []
                c.expect(")")
            else:
                found = [read_type(c)]
            self.spread(names, found)
            return
        total = sum(self.count(n) for n in names)
        found = [read_type(c) for _ in range(min(total, 1))]
        while len(found) < total:
            c.expect(",")
            found.append(read_type(c))
        self.spread(names, found)

    def spread(self, names: list[str], found: list[str]) -> None:
        counts = [self.count(n) for n in names]
        if sum(counts) != len(found):
            raise self.fail(f"{sum(counts)} types")
        prefix = ELIDED_TYPES.get(self.kind.split(".", 1)[0], "")
        if any(t.startswith("<") for t in found) and not prefix:
            raise self.fail("types with their dialect prefix")
        found = [prefix + t if t.startswith("<") else t for t in found]
        i = 0
        for name, n in zip(names, counts, strict=True):
            self.read.types[name] = found[i:i + n]
            i += n

    def count(self, name: str) -> int:
        """How many values ``name`` stands for: operands as read; results as declared."""
        if name in self.operands:
            return len(self.read.operands.get(name, []))
        if name in self.results:
            return _result_counts(self.d, len(self.result_names)).get(name, 0)
        raise self.fail(f"a format whose type(${name}) names an operand or result")


def read_value(c: Cursor) -> str:
    """``%x`` or ``%x#1`` at ``c``, without its ``%``."""
    tok = c.next("an SSA value")
    text = tok.text[1:]
    nxt = c.peek()
    if nxt is not None and nxt.kind == "hash" and nxt.offset == tok.offset + len(tok.text) \
            and nxt.text[1:].isdigit():
        c.next()
        text += nxt.text
    return text


def _hash_attribute(c: Cursor, start: int) -> str:
    """``#alias`` or ``#dialect<...>`` / ``#dialect.name<...>`` that began at token ``start``."""
    if _adjacent(c, "<"):
        c.balanced()
    return c.source(start, c.pos)


def _adjacent(c: Cursor, text: str) -> bool:
    """Whether the next token is ``text`` and follows the previous one with no blank between."""
    tok, last = c.peek(), c.tokens[c.pos - 1]
    return tok is not None and tok.text == text and tok.offset == last.offset + len(last.text)


def _attribute_text(c: Cursor, name: str) -> str:
    """One attribute value as written: an alias, a dialect attribute, a bracketed group, a
    string, a number (with its sign), a keyword with its ``<...>``."""
    start = c.pos
    tok = c.next(f"the value of {name}")
    if tok.kind == "hash":
        return _hash_attribute(c, start)
    if tok.text in ("[", "{", "("):
        c.pos = start
        c.balanced()
        return c.source(start, c.pos)
    if tok.text == "-":
        c.next(f"the value of {name}")
        return c.source(start, c.pos)
    if tok.text == "<":  # the dialect prefix left out, as the op's format allows
        c.pos = start
        c.balanced()
        return ELIDED.get(name, "") + c.source(start, c.pos)
    if tok.kind == "ident":
        if _adjacent(c, "<"):
            c.balanced()
        return c.source(start, c.pos)
    return tok.text


def read_type(c: Cursor) -> str:
    """One type as written (``f32``, ``memref<4xf32, #gpu.address_space<private>>``, ``!x.y<...>``,
    ``(f32) -> f32``)."""
    start = c.pos
    tok = c.next("a type")
    if tok.text == "!":
        c.next("a dialect type")
    elif tok.text == "(":
        c.pos = start
        c.balanced()
        if c.at("->"):
            c.next()
            read_type(c)
        return c.source(start, c.pos)
    elif tok.text == "<":
        c.pos = start
        c.balanced()
        return c.source(start, c.pos)
    elif tok.kind != "ident":
        raise c.error("a type", tok)
    if _adjacent(c, "<"):
        c.balanced()
    return c.source(start, c.pos)


def _type_list(c: Cursor) -> list[str]:
    found = [read_type(c)]
    while c.accept(","):
        found.append(read_type(c))
    return found


def _result_counts(d: OpDef, total: int) -> dict[str, int]:
    """How many of ``total`` results each result group of ``d`` takes: single results one each,
    the rest shared evenly among variadic groups, an optional group one if any is left."""
    singles = [r for r in d.results if r[-1] not in "*?"]
    groups = [r for r in d.results if r[-1] in "*?"]
    left = total - len(singles)
    counts = {r: 1 for r in singles}
    if groups:
        share, extra = divmod(max(left, 0), len(groups))
        if extra:
            raise MlirWriteError(f"{total} results do not divide among {len(groups)} result groups")
        counts.update({_plain(r): share for r in groups})
    return counts


# }}}


def to_generic(kind: str, d: OpDef, text: str, lookup: Callable[[str], str | None],
               convert: Callable[[str], list[str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """The statement ``text`` (op ``kind`` in the custom form of ``d.format``) in generic form, as
    lines, and the types of the values it defines. ``lookup`` gives the type of a value the text
    does not type; ``convert`` prints a region's statements (``{ ... }``, braces included) as lines.

    Example: ``%1 = rock.workgroup_id : index`` is ``%1 = "rock.workgroup_id"() : () -> index``.
    """
    try:
        tokens = tokenize(text)
    except MlirParseError as e:
        raise MlirWriteError(f"{kind}: cannot read {text.strip()!r}: {e}") from None
    c = Cursor(text, tokens)
    results = read_results(c)
    name = c.next("an op name")
    if name.text != kind:
        raise MlirWriteError(f"expected {kind}, found {name.text!r}")
    elements = keyworded(parse_format(d.format), {name for name, _ in d.attributes})
    start = c.pos
    try:
        r = _read(kind, d, c, results, convert, elements, lenient=False)
    except MlirWriteError as strict:
        # rocMLIR's syntax moves keyworded attributes between versions (into the attribute
        # dictionary, or another order): read so, each attribute keeps its name either way.
        c.pos = start
        try:
            r = _read(kind, d, c, results, convert, elements, lenient=True)
        except MlirWriteError:
            raise strict from None
    read = r.read
    counts = _result_counts(d, len(results))
    types = dict(read.types)
    _infer(d, read, counts, types, lookup, kind)
    operands: list[str] = []
    operand_types: list[str] = []
    for o in d.operands:
        values = read.operands.get(_plain(o), [])
        operands += values
        operand_types += types.get(_plain(o), [])
    result_types = [t for res in d.results for t in types.get(_plain(res), [])]
    if len(result_types) != len(results):
        raise MlirWriteError(f"{kind}: {len(results)} results, {len(result_types)} result types")
    properties = list(read.properties)
    if d.segments:
        sizes = ", ".join(str(len(read.operands.get(_plain(o), []))) for o in d.operands)
        properties.append(("operandSegmentSizes", f"array<i32: {sizes}>"))
    if d.result_segments:
        sizes = ", ".join(str(counts.get(_plain(res), 0)) for res in d.results)
        properties.append(("resultSegmentSizes", f"array<i32: {sizes}>"))
    region: list[str] | None = None
    if read.regions:
        region = []
        for i, rname in enumerate(_plain(x) for x in d.regions):
            if rname in read.regions:
                region += ([] if i == 0 else ["}, {"]) + read.regions[rname]
    lines = G.op(kind, operands, operand_types, result_types, properties=properties,
                 attributes=read.attributes, region=region, defines=defines(results))
    return lines, list(zip(results, result_types, strict=True))


def _read(kind: str, d: OpDef, c: Cursor, results: list[str], convert: Callable[[str], list[str]],
          elements: tuple[Element, ...], *, lenient: bool) -> _Reader:
    r = _Reader(kind, d, c, results, convert)
    r.lenient = lenient
    r.keyworded = [e for e in elements if isinstance(e, Keyworded)]
    try:
        r.elements(elements)
    except MlirParseError as e:
        raise MlirWriteError(f"{kind}: its custom form does not follow its definition: {e}") from None
    if c.peek() is not None:
        raise r.fail("the end of the op")
    return r


def _infer(d: OpDef, read: _Read, counts: dict[str, int], types: dict[str, list[str]],
           lookup: Callable[[str], str | None], kind: str) -> None:
    """Fill in the types the format leaves out: from ``d.types``, then from ``lookup``."""
    rules = dict(d.types)
    for _ in range(len(rules) + 1):  # '=x' may name another inferred entry
        for name, rule in rules.items():
            if name in types or not rule:  # "": a trait the table cannot state; lookup below
                continue
            n = len(read.operands[name]) if name in read.operands else counts.get(name, 0)
            if rule.startswith("="):
                if rule[1:] in types:
                    source = types[rule[1:]]
                    types[name] = source if len(source) == n else source[:1] * n
            else:
                types[name] = [rule] * n
    for o in d.operands:
        name = _plain(o)
        values = read.operands.get(name, [])
        if name not in types or len(types[name]) != len(values):
            found = [lookup(v) for v in values]
            if any(t is None for t in found):
                raise MlirWriteError(f"{kind}: the type of operand ${name} is not written and not known")
            types[name] = [t for t in found if t is not None]
    for res in d.results:
        types.setdefault(_plain(res), [])


def read_results(c: Cursor) -> list[str]:
    """The results a statement defines, ``%a, %b = `` or ``%a:2 = `` (as ``a#0``, ``a#1``)."""
    found: list[str] = []
    while c.at_kind("value"):
        name = c.next().text[1:]
        if c.at(":"):
            c.next()
            n = c.integer("a result count")
            found += [f"{name}#{i}" for i in range(n)]
        else:
            found.append(name)
        c.accept(",")
    if found:
        c.expect("=")
    return found


def defines(results: list[str]) -> list[str]:
    """Printed result names: ``a#0, a#1`` as ``a:2``."""
    out: list[str] = []
    for r in results:
        base, _, index = r.partition("#")
        if index and index != "0":
            continue
        n = sum(1 for x in results if x.partition("#")[0] == base and "#" in x) if index else 0
        out.append(f"{base}:{n}" if index else base)
    return out
