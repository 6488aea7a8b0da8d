"""The reader's lenient mode: every transform map of an ``.mlir`` file, and every view that its
``rock.transform`` chains build, whatever else the file holds; a file given whole or in parts.

It reads the file with the reader's lexer (``viewalgebra/_maps/lexer.py``) and the same parsers of
transform maps, affine maps and types, a top-level statement at a time (a function, an alias, an
op), and resolves aliases as the reader does: each name means its latest definition before the
use, and a ``// -----`` section forgets them. Unlike ``read_mlir`` it builds no kernel graph and
refuses no type that contradicts a map: rocMLIR's own tests apply maps to buffers of other shapes
(``@rock_gemm`` in ``input-output-fusion-regularize.mlir`` views a ``1x32x16`` buffer through
``[1, 32, 16] -> [1, 16, 32]``), and ``viewalgebra check`` still lints them (a result type that
contradicts its map is a finding of the view, ``ParsedView.findings``). A map that cannot be
read is reported where it is; the rest of the file is still read.

``Scanner`` reads a file a part at a time (``text_parts``), carrying the aliases of the section
from part to part: a map is yielded as soon as its statement is read, the views of a function
when the next function or section starts. With ``unreadable="raise"`` (what ``viewalgebra``
uses) a statement that is not MLIR (a top-level line that starts no statement, or that follows a
function's closing brace; a character that starts no token; a bracket closed by the wrong one or
never closed) stops the scan with an ``MlirParseError`` at it, after the maps read before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Literal

from .._common.lines import PartText, line_column
from .._engine.cache import AnswerCache
from .._kernel.graph import FUSION_ROOTS
from .._maps import affine as A
from .._maps.buffer import Buffer
from .._maps.lexer import Cursor, Token, starts_statement, type_alias, where
from .._maps.lint import Finding
from .._maps.syntax import ParsedMap, read_affine_map_tokens, read_transform_map_tokens
from .._maps.transform_map import TransformMap
from .._maps.types import parse_shaped_type
from .._maps.view import View
from ..errors import MlirParseError, TransformParseError, ViewAlgebraError
from .parts import LazyTokens

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
    note: str = ""
    """Why a view that is valid MLIR is not analysed (``view`` is ``None``, ``error`` too):
    ``"dynamic size (memref<?x4xf32>)"``, a buffer of a dynamic shape."""
    findings: tuple[Finding, ...] = ()
    """What the written types say against the maps: a ``chain`` finding for each
    ``rock.transform`` whose result type's shape is not its map's upper bounds (the op's line
    and column in the message), which ``lint`` of the ``View`` cannot see."""


def parse_mlir_transform_maps(text: str, *, strict: bool = False,
                              errors: Literal["raise", "collect"] = "raise") -> tuple[ParsedMap, ...]:
    """Every transform map of an ``.mlir`` file, in file order.

    Reads ``#name = #rock.transform_map<...>`` aliases, inline ``rock.transform %x by <...>``
    maps and any other ``#rock.transform_map<...>`` attribute; ``#map = affine_map<...>`` aliases
    are resolved by their latest definition before the use in their ``// -----`` section;
    comments are skipped. ``strict=False`` (the
    default) accepts what rocMLIR accepts. With ``errors="collect"`` a map that fails to parse or
    verify is returned with its ``error`` instead of raising.
    """
    scanner = Scanner(strict=strict, errors=errors, views=False)
    return tuple(m for m in scanner.read([(text, 1)]) if isinstance(m, ParsedMap))


def parse_mlir_views(text: str) -> tuple[ParsedView, ...]:
    """Every view that ``rock.transform`` chains build in an ``.mlir`` file, in file order.

    A chain starts at a value that no ``rock.transform`` in the same function defines (a
    function argument or an allocation, typed by the first transform's source type: a memref,
    possibly of vectors or in a memory space, or a tensor) and ends at a ``rock.transform`` result
    that no other ``rock.transform`` reads.
    """
    return tuple(v for v in Scanner().read([(text, 1)]) if isinstance(v, ParsedView))


@dataclass(frozen=True, slots=True)
class _Step:
    """``%result = rock.transform %source by <map> : <source type> ...``."""

    source: str
    map: TransformMap | None
    source_type: str
    result_type: str
    """The type after ``to``, as written (empty if there is none)."""
    text: str
    """The text the step was read from (a part of the file): its errors are located in it."""
    offset: int
    error: ViewAlgebraError | None


_DYNAMIC = re.compile(r"(?:memref|tensor)\s*<[^,>]*\?")
"""A shaped type with a dynamic size (a ``?`` in its shape)."""
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSING = frozenset(_PAIRS.values())
_MARKED = frozenset({"rock.transform", "func.func"})
_ROOTS = FUSION_ROOTS | {f'"{name}"' for name in FUSION_ROOTS}
"""A fusion root's op name, in custom and in generic form (a string token)."""


class Scanner:
    """The maps and views of one file, read a statement at a time from its parts."""

    def __init__(self, *, strict: bool = False, errors: Literal["raise", "collect"] = "collect",
                 views: bool = True, unreadable: Literal["skip", "raise"] = "skip") -> None:
        self.strict, self.errors, self.views, self.unreadable = strict, errors, views, unreadable
        self.affine: dict[str, A.AffineMap] = {}
        """``#name = affine_map<...>`` aliases of the section."""
        self.aliases: dict[str, ParsedMap] = {}
        """``#name = #rock.transform_map<...>`` aliases of the section."""
        self.steps: dict[str, _Step] = {}
        """The ``rock.transform`` ops of the current function, by result."""
        self.roots = False
        """Whether an op the reader marks as a fusion root (``FUSION_ROOTS``) was seen."""
        self.text = ""
        self.base = 0
        """Characters of the file before the current part (offsets are the file's)."""
        self.modules = 0
        """Modules open (their braces may close in a later part)."""

    def read(self, parts: Iterable[tuple[str, int]]) -> Iterator[ParsedMap | ParsedView]:
        """Every map and view of a file given in parts ``(text, its first line)``."""
        for part, first_line in parts:
            yield from self.part(part, first_line)
        yield from self.end()

    def part(self, part: str, first_line: int) -> Iterator[ParsedMap | ParsedView]:
        """The maps of one part, and the views of the functions it ends. Parts are whole
        top-level items in file order (``text_parts`` cuts them)."""
        self.text = text = part if first_line == 1 and not self.base else PartText(part, ((1, first_line),))
        source = LazyTokens(text, lenient=True)
        while (tok := source.peek()) is not None:
            if tok.kind == "split":
                source.next()
                yield from self._end_scope()
                self.affine, self.aliases = {}, {}
            elif tok.kind == "ident" and tok.text == "module" and (header := self._module(source)):
                self.modules += 1
                hashes = [i for i, t in enumerate(header) if t.kind == "hash"]
                yield from (m for m, _ in self._maps(header, hashes))
            elif tok.kind == "punct" and tok.text == "}" and self.modules:
                source.next()
                self.modules -= 1
            else:
                chunk, marks, problem = self._statement(source, tok)
                after = source.peek()
                yield from self._scan(chunk, marks, len(text) if after is None else after.offset)
                if problem is not None:
                    raise problem
        self.base += len(part)

    def end(self) -> Iterator[ParsedView]:
        """The views of the last function."""
        return self._end_scope()

    # {{{ statements

    def _module(self, source: LazyTokens) -> list[Token]:
        """Skip ``module @name attributes {...} {`` and return its tokens before the ``{``
        (scanned as a statement); none if what follows ``module`` is not a module's header."""
        header = source.module_header()
        if header[-1].text != "{" or header[-1].kind != "punct":
            if self.unreadable == "raise":
                raise Cursor(self.text, header, len(header) - 1).error("'{' opening the module")
            return []
        source.skip(len(header))
        return header[:-1]

    def _statement(self, source: LazyTokens,
                   first: Token) -> tuple[list[Token], list[int], MlirParseError | None]:
        """The tokens of the top-level statement starting at ``first`` (as
        ``LazyTokens.statement`` cuts it, except that a statement does not end after ``=``), the
        indexes of those a map or a view may start at (aliases, ``rock.transform``,
        ``func.func``), and what makes the statement unreadable, if anything (with
        ``unreadable="raise"``): it stops there."""
        strict = self.unreadable == "raise"
        if strict and (first.kind == "other" or first.text == "}"
                       or not (starts_statement(first) or type_alias(first, source.peek))):
            return [], [], self._not_a_statement(first)
        out: list[Token] = []
        marks: list[int] = []
        stack: list[Token] = []
        closed = False
        """A ``{...}`` closed outside every other bracket: a region or the attributes of a
        top-level op (the statement ends with its line)."""
        problem: MlirParseError | None = None
        ahead, at = source.ahead, source.at  # a token at a time, without a call per token
        while True:
            if at >= len(ahead):
                source.at = at
                if source.peek() is None:
                    break
                ahead, at = source.ahead, source.at
            tok = ahead[at]
            kind = tok.kind
            if tok.line_start and out and not stack:
                if starts_statement(tok) and out[-1].text != "=":
                    break
                if strict and closed:  # nothing continues a function or an op after its region
                    problem = self._not_a_statement(tok)
                    break
            if kind == "punct":
                if tok.text in _PAIRS:
                    stack.append(tok)
                elif tok.text in _CLOSING:
                    if not stack:
                        if not out:  # a bracket that closes nothing: a statement of its own
                            out.append(tok)
                            at += 1
                        break
                    opened = stack.pop()
                    closed = closed or not stack and opened.text == "{"
                    if strict and _PAIRS[opened.text] != tok.text:
                        problem = MlirParseError(f"'{tok.text}' closes '{opened.text}' opened at "
                                                 f"{where(self.text, opened.offset)}", self.text, tok.offset)
                        break
            elif kind == "hash" or kind == "ident" and tok.text in _MARKED:
                marks.append(len(out))
            elif kind == "other" and strict:
                problem = MlirParseError(f"unexpected character {tok.text!r}", self.text, tok.offset)
                break
            if tok.text in _ROOTS:
                self.roots = True
            out.append(tok)
            at += 1
        source.at = at
        if stack and strict and problem is None:
            problem = MlirParseError(f"'{stack[-1].text}' is never closed", self.text, stack[-1].offset)
        return out, marks, problem

    def _not_a_statement(self, tok: Token) -> MlirParseError:
        return MlirParseError("expected a statement (an op, a function, a module or an alias '#name = ...'), "
                              f"found {tok.text!r}", self.text, tok.offset)

    def _scan(self, tokens: list[Token], marks: list[int], end: int) -> Iterator[ParsedMap | ParsedView]:
        """The maps of one statement, and the views of each function it ends; ``end`` is the
        offset of what follows the statement."""
        found = self._maps(tokens, marks)
        yield from (m for m, _ in found)
        if not self.views:
            return
        by_offset = {m.offset - self.base: (m, after) for m, after in found}
        for k in marks:
            tok = tokens[k]
            if tok.text == "func.func":
                yield from self._end_scope()
            elif tok.text == "rock.transform" and k >= 2 and tokens[k - 2].kind == "value" \
                    and _is(tokens, k - 1, "=", "punct") and _kind(tokens, k + 1, "value") \
                    and _is(tokens, k + 2, "by", "ident"):
                step = self._step(tokens, k - 2, by_offset, end)
                if step is not None:
                    self.steps[tokens[k - 2].text[1:]] = step

    # }}}
    # {{{ maps

    def _maps(self, tokens: list[Token], marks: list[int]) -> list[tuple[ParsedMap, int]]:
        """Each map of a statement with the index of the token after it (its start if it
        cannot be read); affine aliases defined here are kept for what follows."""
        starts: dict[int, tuple[str | None, Form]] = {}
        for i in marks:
            tok = tokens[i]
            if tok.kind == "hash":
                if tok.text == "#rock.transform_map" and _is(tokens, i + 1, "<"):
                    starts.setdefault(i, (None, "attribute"))
                    if i >= 2 and tokens[i - 2].kind == "hash" and tokens[i - 2].line_start \
                            and _is(tokens, i - 1, "=", "punct"):
                        starts[i] = (tokens[i - 2].text[1:], "alias")
                elif tok.line_start and _is(tokens, i + 1, "=", "punct") \
                        and _is(tokens, i + 2, "affine_map", "ident"):
                    self.affine[tok.text[1:]] = read_affine_map_tokens(self.text, tokens, i + 2)[0]
            elif (tok.text == "rock.transform" and _kind(tokens, i + 1, "value")
                  and _is(tokens, i + 2, "by", "ident") and _is(tokens, i + 3, "<", "punct")):
                starts[i + 3] = (None, "inline")
        found: list[tuple[ParsedMap, int]] = []
        for i in sorted(starts):
            name, form = starts[i]
            offset = tokens[i].offset
            try:
                parsed, after = self._map(tokens, i)
                parsed = replace(parsed, name=name, form=form, offset=self.base + offset)
            except ViewAlgebraError as e:
                if self.errors == "raise":
                    raise
                loc = TransformParseError("", self.text, offset)
                parsed = ParsedMap(None, None, loc.line, loc.column, name, form, e, self.base + offset)
                after = i
            if form == "alias" and name is not None:
                self.aliases[name] = parsed
            found.append((parsed, after))
        return found

    def _map(self, tokens: list[Token], i: int) -> tuple[ParsedMap, int]:
        """The map starting at token ``i`` and the index of the token after it. A map read
        before (the same text, the same affine aliases in it) is not parsed again: rocMLIR's
        kernels repeat their maps."""
        end, used = _map_end(tokens, i)
        if end is None:
            return read_transform_map_tokens(self.text, tokens, i, strict=self.strict, aliases=self.affine)
        start = tokens[i].offset
        key = (self.strict, self.text[start:tokens[end].offset + 1],
               tuple((name, self.affine.get(name)) for name in used))
        known = _PARSED.get(key)
        if known is not None:
            line, column = line_column(self.text, start)
            return ParsedMap(known[0], known[1], line, column, offset=start), end + 1
        parsed, after = read_transform_map_tokens(self.text, tokens, i, strict=self.strict,
                                                  aliases=self.affine)
        if after == end + 1 and parsed.map is not None and parsed.written is not None:
            _PARSED.put(key, (parsed.map, parsed.written))
        return parsed, after

    # }}}
    # {{{ views

    def _step(self, tokens: list[Token], i: int, by_offset: dict[int, tuple[ParsedMap, int]],
              end: int) -> _Step | None:
        """``%r = rock.transform %s by <map> : <type>`` at token ``i``, ``None`` if no map
        follows ``by``."""
        at = i + 5
        source = tokens[i + 3].text[1:]
        if at < len(tokens) and tokens[at].text == "#rock.transform_map":
            pass  # the attribute form: the map starts at the prefix
        elif _kind(tokens, at, "hash"):  # an alias: its latest definition before here
            name = tokens[at].text[1:]
            parsed = self.aliases.get(name)
            error = parsed.error if parsed else TransformParseError(
                f"undefined transform map #{name}", self.text, tokens[at].offset)
            return self._typed(tokens, at + 1, source, parsed, error, tokens[i].offset, end)
        elif not _is(tokens, at, "<", "punct"):
            return None
        found, after = by_offset.get(tokens[at].offset, (None, at))
        error = found.error if found is not None else TransformParseError(
            "expected a transform map", self.text, tokens[at].offset)
        return self._typed(tokens, after, source, found, error, tokens[i].offset, end)

    def _typed(self, tokens: list[Token], after: int, source: str, parsed: ParsedMap | None,
               error: ViewAlgebraError | None, offset: int, end: int) -> _Step:
        source_type, result_type = _types_after(self.text, tokens, after)
        if error is None and not source_type:
            at = tokens[after].offset if after < len(tokens) else end
            error = TransformParseError("expected ': memref<...>' or ': tensor<...>' after the transform map",
                                        self.text, at)
        tm = parsed.map if parsed else None
        return _Step(source, tm, source_type, result_type, self.text, offset, error)

    def _end_scope(self) -> Iterator[ParsedView]:
        """The views of the function just read (its chains of ``rock.transform`` ops)."""
        steps, self.steps = self.steps, {}
        if not steps:
            return
        sources = {step.source for step in steps.values()}
        reached: set[str] = set()
        # Leaves first; then whatever no leaf reaches, which can only be a cycle.
        tops = [r for r in steps if r not in sources] + list(steps)
        for result in tops:
            if result in reached:
                continue
            top = steps[result]
            chain: list[TransformMap] = []
            typed_wrong: list[Finding] = []
            name, error, buffer_type, typed = result, None, top.source_type, top
            seen: set[str] = set()
            step: _Step | None = top
            while step is not None and error is None:
                if name in seen:
                    error = TransformParseError(f"%{name} is defined through itself", step.text, step.offset)
                    break
                seen.add(name)
                reached.add(name)
                error = step.error
                if step.map is not None:
                    wrong = _result_contradicts(step, step.map, len(chain))
                    typed_wrong += [] if wrong is None else [wrong]
                    chain.append(step.map)
                name, buffer_type, typed = step.source, step.source_type, step
                step = steps.get(name)
            view, note = None, ""
            if error is None and _DYNAMIC.match(buffer_type):
                note = f"dynamic size ({buffer_type})"
            elif error is None:
                try:
                    t = parse_shaped_type(buffer_type, source=typed.text, at=typed.offset,
                                          layouts=self.affine)
                    view = View(Buffer(t.shape, t.dtype, t.strides, t.offset), tuple(chain), strict=False)
                except ViewAlgebraError as e:
                    error = e
            loc = TransformParseError("", top.text, top.offset)
            yield ParsedView(f"%{result}", view, loc.line, loc.column, error, note, tuple(typed_wrong))

    # }}}


_PARSED: AnswerCache[tuple[bool, str, tuple[tuple[str, A.AffineMap | None], ...]],
                     tuple[TransformMap, A.AffineMap]] = AnswerCache(1024)
"""Maps parsed, by their text and the affine aliases they name."""


def _map_end(tokens: list[Token], i: int) -> tuple[int | None, list[str]]:
    """The index of the ``>`` that closes the map starting at token ``i`` (``None`` if it is
    not closed in ``tokens``), and the affine aliases the map names."""
    used: list[str] = []
    depth = 0
    for k in range(i, len(tokens)):
        tok = tokens[k]
        if tok.kind == "punct":
            if tok.text in _PAIRS:
                depth += 1
            elif tok.text in _CLOSING:
                depth -= 1
                if depth == 0:
                    return k, used
        elif tok.kind == "hash" and k > i:
            used.append(tok.text[1:])
    return None, used


def _is(tokens: list[Token], i: int, text: str, kind: str | None = None) -> bool:
    return i < len(tokens) and tokens[i].text == text and (kind is None or tokens[i].kind == kind)


def _kind(tokens: list[Token], i: int, kind: str) -> bool:
    return i < len(tokens) and tokens[i].kind == kind


def _types_after(text: str, tokens: list[Token], i: int) -> tuple[str, str]:
    """The source and result types of a ``rock.transform`` as written: the ``memref<...>`` or
    ``tensor<...>`` after the ``:`` at token ``i`` and the one after ``to``; empty if there is
    none."""
    source, i = _shaped_at(text, tokens, i + 1) if _is(tokens, i, ":", "punct") else ("", i)
    result, _ = _shaped_at(text, tokens, i + 1) if source and _is(tokens, i, "to", "ident") else ("", i)
    return source, result


def _shaped_at(text: str, tokens: list[Token], i: int) -> tuple[str, int]:
    """The ``memref<...>`` or ``tensor<...>`` at token ``i`` and the index after it; empty if
    there is none."""
    if not (i < len(tokens) and tokens[i].text in ("memref", "tensor") and _is(tokens, i + 1, "<", "punct")):
        return "", i
    c = Cursor(text, tokens, i + 1)
    try:
        c.balanced()
    except ViewAlgebraError:
        return "", i
    return c.source(i, c.pos), c.pos


_DIMS = re.compile(r"(?:memref|tensor)<((?:[0-9]+x)*)")
"""The static dims at the head of a shaped type written without spaces."""


def _result_contradicts(step: _Step, tm: TransformMap, index: int) -> Finding | None:
    """A ``chain`` finding when the result type of ``step`` has another shape than ``tm``'s
    upper bounds (rocMLIR's ``conv_to_gemm.mlir`` views ``[1, 3136, 256]`` as
    ``memref<1x12544x256xf32>``); none when they agree or the type has a dynamic size."""
    if not step.result_type or _DYNAMIC.match(step.result_type):
        return None
    m = _DIMS.match(step.result_type.replace(" ", ""))
    if m is None:
        return None
    shape = [int(d) for d in m.group(1).split("x")[:-1]]
    if shape == list(tm.upper_bounds):
        return None
    line, column = line_column(step.text, step.offset)
    return Finding("chain", f"upper bounds {list(tm.upper_bounds)} != the shape {shape} of the result type "
                            f"{step.result_type} (rock.transform at {line}:{column})", index)
