"""MLIR's declarative assembly format (``mlir/docs/DefiningDialects/Operations.md``, 'Declarative
Assembly Format') read into elements: literals, ``$name`` variables, directives (``attr-dict``,
``type(...)``, ``operands``, ``regions``, ``functional-type``) and optional groups ``(...)?`` with
their anchor ``^``; ``declarative.py`` reads an op's custom form by them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from ..errors import MlirWriteError


@dataclass(frozen=True, slots=True)
class Literal:
    text: str


@dataclass(frozen=True, slots=True)
class Var:
    name: str
    anchor: bool = False


@dataclass(frozen=True, slots=True)
class Directive:
    kind: str
    """``attr-dict``, ``attr-dict-with-keyword``, ``type``, ``qualified``, ``functional-type``,
    ``operands``, ``results``, ``regions``."""
    args: tuple[Element, ...] = ()
    anchor: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    elements: tuple[Element, ...]
    otherwise: tuple[Element, ...] = ()


@dataclass(frozen=True, slots=True)
class Keyworded:
    """An attribute spelled after a keyword (`` `features` `=` $features ``, `` `storeMethod` `(`
    $storeMethod `)` ``): what rocMLIR's syntax adds, drops or moves between versions."""

    word: str
    elements: tuple[Element, ...]


Element = Literal | Var | Directive | Group | Keyworded

_FORMAT = re.compile(r"\s*(`[^`]*`|\$[A-Za-z_]\w*|[a-z][a-z-]*|\^|\(|\)|\?|,|:|<[^>]*>)")


def parse_format(text: str) -> tuple[Element, ...]:
    pieces = [m.group(1) for m in _FORMAT.finditer(text)]
    if "".join(pieces).replace(" ", "") != text.replace(" ", ""):
        raise MlirWriteError(f"cannot read the assembly format {text!r}")
    elements, rest = _elements(pieces, 0)
    if rest != len(pieces):
        raise MlirWriteError(f"cannot read the assembly format {text!r}")
    return tuple(elements)


def keyworded(elements: tuple[Element, ...], attributes: set[str]) -> tuple[Element, ...]:
    """``elements`` with each keyword, its punctuation and the attribute after it as one
    ``Keyworded``."""
    out: list[Element] = []
    i = 0
    while i < len(elements):
        e = elements[i]
        j = i + 1
        while j < len(elements) and isinstance(elements[j], Literal) and \
                not cast(Literal, elements[j]).text.isalpha():
            j += 1
        last = elements[j] if j < len(elements) else None
        if isinstance(e, Literal) and e.text.isalpha() and isinstance(last, Var) and \
                last.name in attributes:
            stop = j + 1
            opened = [x for x in elements[i + 1:j] if isinstance(x, Literal) and x.text == "("]
            if opened and stop < len(elements) and elements[stop] == Literal(")"):
                stop += 1
            out.append(Keyworded(e.text, elements[i:stop]))
            i = stop
        else:
            out.append(e)
            i += 1
    return tuple(out)


def _elements(p: list[str], i: int) -> tuple[list[Element], int]:
    out: list[Element] = []
    while i < len(p) and p[i] not in (")", ",", ":", "?"):
        piece = p[i]
        i += 1
        if piece == "^":
            last = out[-1]
            out[-1] = (Var(last.name, True) if isinstance(last, Var) else
                       Directive(last.kind, last.args, True) if isinstance(last, Directive) else last)
        elif piece.startswith("`"):
            if piece[1:-1].strip() and piece[1:-1] != "\\n":  # `` ``, ` ` and `\n` only lay out
                out.append(Literal(piece[1:-1]))
        elif piece.startswith("$"):
            out.append(Var(piece[1:]))
        elif piece == "(":
            inner, i = _elements(p, i)
            otherwise: list[Element] = []
            if p[i:i + 3] == [")", ":", "("]:
                otherwise, i = _elements(p, i + 3)
            if p[i:i + 2] != [")", "?"]:
                raise MlirWriteError("an optional group that does not end with ')?'")
            out.append(Group(tuple(inner), tuple(otherwise)))
            i += 2
        elif piece in ("attr-dict", "attr-dict-with-keyword", "operands", "results", "regions"):
            out.append(Directive(piece))
        elif piece in ("type", "qualified", "functional-type"):
            if p[i] != "(":
                raise MlirWriteError(f"'{piece}' without its arguments")
            args: list[Element] = []
            i += 1
            while p[i] != ")":
                arg, i = _elements(p, i)
                args += arg
                if p[i] == ",":
                    i += 1
            out.append(Directive(piece, tuple(args)))
            i += 1
        else:
            raise MlirWriteError(f"the format directive {piece!r} is not read here")
    return out, i
