"""The reader's lenient mode: every transform map of an ``.mlir`` file, and every view that its
``rock.transform`` chains build, whatever else the file holds.

It reads the file with the reader's lexer (``viewalgebra/_maps/lexer.py``) and the same parsers of
transform maps, affine maps and types, and resolves aliases per ``// -----`` section as the reader
does. Unlike ``read_mlir`` it builds no kernel graph and checks no type against a map: rocMLIR's own
tests apply maps to buffers of other shapes (``@rock_gemm`` in ``input-output-fusion-regularize.mlir``
views a ``1x32x16`` buffer through ``[1, 32, 16] -> [1, 16, 32]``), and ``viewalgebra check`` still
lints them. A map that cannot be read is reported where it is; the rest of the file is still read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .._maps import affine as A
from .._maps.buffer import Buffer
from .._maps.lexer import Cursor, tokenize
from .._maps.syntax import ParsedMap, read_affine_map_tokens, read_transform_map_tokens
from .._maps.transform_map import TransformMap
from .._maps.types import parse_shaped_type
from .._maps.view import View
from ..errors import TransformParseError, ViewAlgebraError

Form = Literal["alias", "inline", "attribute"]


@dataclass(frozen=True, slots=True)
class ParsedView:
    """A chain of ``rock.transform`` ops read from an ``.mlir`` file, as a ``View``."""

    name: str
    """The SSA value at the top of the chain, e.g. ``%3``."""
    view: View | None
    """The view (``strict=False``: rocMLIR's memref types need not match the bounds); ``None``
    when a map of the chain was rejected (see ``error``)."""
    line: int
    column: int
    error: ViewAlgebraError | None = None


def parse_mlir_transform_maps(text: str, *, strict: bool = False,
                              errors: Literal["raise", "collect"] = "raise") -> tuple[ParsedMap, ...]:
    """Every transform map of an ``.mlir`` file, in file order.

    Reads ``#name = #rock.transform_map<...>`` aliases, inline ``rock.transform %x by <...>``
    maps and any other ``#rock.transform_map<...>`` attribute; ``#map = affine_map<...>`` aliases
    are resolved within their ``// -----`` section; comments are skipped. ``strict=False`` (the
    default) accepts what rocMLIR accepts. With ``errors="collect"`` a map that fails to parse or
    verify is returned with its ``error`` instead of raising.
    """
    return tuple(m for m, _ in _Scan(text).maps(strict, errors))


def parse_mlir_views(text: str) -> tuple[ParsedView, ...]:
    """Every view that ``rock.transform`` chains build in an ``.mlir`` file, in file order.

    A chain starts at a value that no ``rock.transform`` in the same function defines (a
    function argument or an allocation, typed by the first transform's source type: a memref,
    possibly of vectors or in a memory space, or a tensor) and ends at a ``rock.transform`` result
    that no other ``rock.transform`` reads.
    """
    return _Scan(text).views()


@dataclass(frozen=True, slots=True)
class _Step:
    """``%result = rock.transform %source by <map> : <source type> ...``."""

    source: str
    map: TransformMap | None
    source_type: str
    offset: int
    error: ViewAlgebraError | None


class _Scan:
    """One file, its tokens cut into ``// -----`` sections."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text, lenient=True)
        splits = [i for i, t in enumerate(self.tokens) if t.kind == "split"]
        bounds = [0, *splits, len(self.tokens)]
        self.sections = list(zip(bounds, bounds[1:], strict=False))

    def _is(self, i: int, text: str, kind: str | None = None) -> bool:
        tok = self.tokens[i] if i < len(self.tokens) else None
        return tok is not None and tok.text == text and (kind is None or tok.kind == kind)

    def _kind(self, i: int, kind: str) -> bool:
        return i < len(self.tokens) and self.tokens[i].kind == kind

    def maps(self, strict: bool, errors: Literal["raise", "collect"]) -> list[tuple[ParsedMap, int]]:
        """Each map with the index of the token after it (its start if it cannot be read)."""
        found: list[tuple[ParsedMap, int]] = []
        for begin, end in self.sections:
            aliases = self._affine_aliases(begin, end)
            starts: dict[int, tuple[str | None, Form]] = {}
            for i in range(begin, end):
                tok = self.tokens[i]
                if tok.kind == "hash" and tok.text == "#rock.transform_map" and self._is(i + 1, "<"):
                    starts.setdefault(i, (None, "attribute"))
                    if i >= 2 and self.tokens[i - 2].kind == "hash" and self.tokens[i - 2].line_start \
                            and self._is(i - 1, "=", "punct"):
                        starts[i] = (self.tokens[i - 2].text[1:], "alias")
                elif (tok.kind == "ident" and tok.text == "rock.transform" and self._kind(i + 1, "value")
                      and self._is(i + 2, "by", "ident") and self._is(i + 3, "<", "punct")):
                    starts[i + 3] = (None, "inline")
            for i in sorted(starts):
                name, form = starts[i]
                try:
                    parsed, after = read_transform_map_tokens(self.text, self.tokens, i, strict=strict,
                                                              aliases=aliases)
                    found.append((replace(parsed, name=name, form=form), after))
                except ViewAlgebraError as e:
                    if errors == "raise":
                        raise
                    loc = TransformParseError("", self.text, self.tokens[i].offset)
                    found.append((ParsedMap(None, None, loc.line, loc.column, name, form, e,
                                            self.tokens[i].offset), i))
        return found

    def _affine_aliases(self, begin: int, end: int) -> dict[str, A.AffineMap]:
        """``#name = affine_map<...>`` definitions of a section (each usable anywhere in it)."""
        aliases: dict[str, A.AffineMap] = {}
        for i in range(begin, end):
            tok = self.tokens[i]
            if tok.kind == "hash" and tok.line_start and self._is(i + 1, "=", "punct") \
                    and self._is(i + 2, "affine_map", "ident"):
                aliases[tok.text[1:]] = read_affine_map_tokens(self.text, self.tokens, i + 2)[0]
        return aliases

    def views(self) -> tuple[ParsedView, ...]:
        maps = self.maps(False, "collect")
        cuts = sorted({0, len(self.tokens)} | {i for i, t in enumerate(self.tokens)
                                               if t.kind == "split" or t.text == "func.func"})
        found: list[ParsedView] = []
        for begin, end in zip(cuts, cuts[1:], strict=False):
            found.extend(self._scope_views(begin, end, maps))
        return tuple(found)

    def _scope_views(self, begin: int, end: int, maps: list[tuple[ParsedMap, int]]) -> list[ParsedView]:
        by_offset = {m.offset: (m, after) for m, after in maps}
        steps: dict[str, _Step] = {}
        for i in range(begin, end):
            if not (self._kind(i, "value") and self._is(i + 1, "=", "punct")
                    and self._is(i + 2, "rock.transform", "ident") and self._kind(i + 3, "value")
                    and self._is(i + 4, "by", "ident")):
                continue
            at = i + 5
            if at < len(self.tokens) and self.tokens[at].text == "#rock.transform_map":
                pass  # the attribute form: the map starts at the prefix
            elif self._kind(at, "hash"):
                steps[self.tokens[i].text[1:]] = self._alias_step(i, at, maps)
                continue
            elif not self._is(at, "<", "punct"):
                continue
            parsed, after = by_offset.get(self.tokens[at].offset, (None, at))
            error = parsed.error if parsed is not None else TransformParseError(
                "expected a transform map", self.text, self.tokens[at].offset)
            source_type = self._type_after(after)
            if error is None and not source_type:
                error = self._no_type(after)
            steps[self.tokens[i].text[1:]] = _Step(self.tokens[i + 3].text[1:],
                                                   parsed.map if parsed else None, source_type,
                                                   self.tokens[i].offset, error)
        return self._chains(steps)

    def _alias_step(self, i: int, at: int, maps: list[tuple[ParsedMap, int]]) -> _Step:
        """``%r = rock.transform %s by #name ...``: the latest definition of ``#name`` before it."""
        name = self.tokens[at].text[1:]
        before = self.tokens[i].offset
        named = [m for m, _ in maps if m.form == "alias" and m.name == name and m.offset < before]
        parsed = named[-1] if named else None
        error = parsed.error if parsed else TransformParseError(
            f"undefined transform map #{name}", self.text, self.tokens[at].offset)
        source_type = self._type_after(at + 1)
        if error is None and not source_type:
            error = self._no_type(at + 1)
        return _Step(self.tokens[i + 3].text[1:], parsed.map if parsed else None, source_type,
                     self.tokens[i].offset, error)

    def _type_after(self, i: int) -> str:
        """The source type of a ``rock.transform`` as written: the ``memref<...>`` or
        ``tensor<...>`` after the ``:`` at token ``i``; empty if there is none."""
        if not (self._is(i, ":", "punct") and i + 2 < len(self.tokens)
                and self.tokens[i + 1].text in ("memref", "tensor") and self._is(i + 2, "<", "punct")):
            return ""
        c = Cursor(self.text, self.tokens, i + 2)
        try:
            c.balanced()
        except ViewAlgebraError:
            return ""
        return c.source(i + 1, c.pos)

    def _no_type(self, i: int) -> TransformParseError:
        offset = self.tokens[i].offset if i < len(self.tokens) else len(self.text)
        return TransformParseError("expected ': memref<...>' or ': tensor<...>' after the transform map",
                                   self.text, offset)

    def _chains(self, steps: dict[str, _Step]) -> list[ParsedView]:
        sources = {step.source for step in steps.values()}
        reached: set[str] = set()
        views: list[ParsedView] = []
        # Leaves first; then whatever no leaf reaches, which can only be a cycle.
        tops = [r for r in steps if r not in sources] + list(steps)
        for result in tops:
            if result in reached:
                continue
            top = steps[result]
            chain: list[TransformMap] = []
            name, error, buffer_type = result, None, top.source_type
            seen: set[str] = set()
            step_: _Step | None = top
            while step_ is not None and error is None:
                if name in seen:
                    error = TransformParseError(f"%{name} is defined through itself", self.text, step_.offset)
                    break
                seen.add(name)
                reached.add(name)
                error = step_.error
                if step_.map is not None:
                    chain.append(step_.map)
                name, buffer_type = step_.source, step_.source_type
                step_ = steps.get(name)
            view = None
            if error is None:
                try:
                    t = parse_shaped_type(buffer_type)
                    view = View(Buffer(t.shape, t.dtype, t.strides, t.offset), tuple(chain), strict=False)
                except ViewAlgebraError as e:
                    error = e
            loc = TransformParseError("", self.text, top.offset)
            views.append(ParsedView(f"%{result}", view, loc.line, loc.column, error))
        return views
