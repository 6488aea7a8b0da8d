"""Write kernels back as MLIR that ``read_mlir`` (and rocMLIR) reads.

Ops read from a file print as they were written, with their current operands; views print as
``rock.transform`` chains (one op per map); allocations, copies and fills that a rewrite added
print in their usual form. An op built in Python with a ``fn`` has no MLIR form: ``MlirWriteError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .._common.lines import line_column
from .._kernel.graph import BufferValue, Kernel, Op, ViewValue
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap
from .._maps.types import memref_type, parse_shaped_type, split_top
from ..errors import MlirWriteError
from . import generic as G
from .generic_text import generic_ops, upstream
from .model import GenericText, MlirFunction, MlirModule, OpText, Slot, Unreadable

_SSA = re.compile(r"[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*")
"""What may follow ``%`` in an SSA name: all digits, or a letter, ``_``, ``$``, ``.`` or ``-`` then
letters, digits and those (MLIR's ``suffix-id``, ``mlir/docs/LangRef.md``, 'Identifiers and keywords')."""
_ILLEGAL = re.compile(r"[^A-Za-z0-9_$.\-]")
_PLAIN = re.compile(r"[A-Za-z0-9_$.\-]+")
"""A name ``_Names.fresh`` takes as it is (``_ILLEGAL`` finds nothing in it)."""


def write_mlir(module: MlirModule, kernels: Mapping[str, Kernel] | None = None, *,
               generic: bool = False) -> str:
    """The module as MLIR text, each function with its kernel replaced by ``kernels[name]`` when
    given (e.g. a regularized kernel). Functions that could not be read are written as they were.
    With ``generic=True`` every op prints in MLIR's generic form (as ``mlir-opt
    --mlir-print-op-generic`` prints it); ops kept as written outside functions stay as written.

    Example: ``write_mlir(m, {f.name: regularize(f.kernel, "rocmlir").kernel for f in m.functions})``.
    """
    kernels = kernels or {}
    writer = ItemWriter(generic)
    text = "".join(writer.write(item, kernels.get(item.name) if isinstance(item, MlirFunction) else None)
                   for item in module.items)
    return text or "\n"


class ItemWriter:
    """Writes a module's items one at a time, as ``write_mlir`` writes them all: each item's
    text ends with a line break, and ``module`` braces indent what they hold."""

    def __init__(self, generic: bool = False) -> None:
        self.generic = generic
        self.closers: list[str] = []

    def write(self, item: MlirFunction | Unreadable | str, kernel: Kernel | None = None) -> str:
        """``item`` as MLIR text, a function with ``kernel`` in place of its own if given."""
        closers = self.closers
        indent = "  " * len(closers)
        if isinstance(item, MlirFunction):
            text = _indented(write_function(item, kernel, generic=self.generic), len(closers))
        elif isinstance(item, Unreadable):
            text = indent + (_unreadable_generic(item) if self.generic else item.text)
        elif item == "}" and closers:
            text = "  " * (len(closers) - 1) + closers.pop()
        elif item.endswith("{"):
            head, closer = _module(item) if self.generic else (item, "}")
            text = indent + head
            closers.append(closer)
        else:
            text = indent + item
        return text + "\n"


def _unreadable_generic(item: Unreadable) -> str:
    """A function the reader could not read, its ops of other dialects than MLIR's in generic form."""
    source = item.error.text
    at = source[item.offset:item.offset + len(item.text)] == item.text
    line = line_column(source, item.offset)[0] if at else None
    try:
        return generic_ops(item.text, line=line)
    except MlirWriteError as e:
        raise MlirWriteError(f"@{item.name} (left as written): {e}") from None


_MODULE = re.compile(r"module(?:\s+@(\"(?:[^\"\\]|\\.)*\"|[\w$.\-]+))?"
                     r"(?:\s+attributes\s*(\{.*\}))?\s*\{", re.S)


def _module(header: str) -> tuple[str, str]:
    """A ``module @name attributes {...} {`` line in generic form, and its closing line."""
    m = _MODULE.fullmatch(header)
    if m is None:
        raise MlirWriteError(f"cannot print {header!r} in generic form")
    name, attributes = m.group(1), m.group(2)
    properties = [("sym_name", name if name.startswith('"') else f'"{name}"')] if name else []
    head, *_, tail = G.op("builtin.module", properties=properties,
                          attributes=G.entries(attributes) if attributes else (), region=[])
    return head, tail


def _indented(text: str, indent: int) -> str:
    if not indent:
        return text
    return "\n".join("  " * indent + line if line else line for line in text.split("\n"))


class _Names:
    """Printed names and types of values, printed maps, and fresh names for intermediate views
    and constants: each found once, so that writing takes time linear in what is written.

    A value keeps its name when MLIR's lexer accepts it (``_SSA``) and no region of an op defines
    it; otherwise it prints as a fresh name that starts with a letter (``%2_0`` as ``%v2_0``)."""

    def __init__(self, f: MlirFunction, kernel: Kernel) -> None:
        self.kernel = kernel
        self.full = dict(f.types)
        self.written = dict(f.written)
        self.allocators = dict(f.allocators)
        self.attributes = dict(f.allocation_attributes)
        self.read = {name: v for name, v in f.kernel.values.items() if isinstance(v, BufferValue)}
        """The buffers as read: a new allocation takes the kind and memory space of the one it
        derives from."""
        texts = [*f.constants, *(p for _, s in f.syntax
                                 for p in ((s.body,) if isinstance(s, GenericText) else s.pieces)
                                 if isinstance(p, str))]
        reserved = {m.group(1) for t in texts for m in re.finditer(r"%([\w$.\-]+)", t)}
        kept = {name for name in kernel.values if _SSA.fullmatch(name) and name not in reserved}
        self.taken = reserved | kept
        self._suffixes: dict[str, int] = {}
        self.printed = {name: name if name in kept else self.fresh(name) for name in kernel.values}
        self._dtypes: dict[str, str] = {}
        self._buffers: dict[str, str] = {}
        self._maps: dict[TransformMap, str] = {}
        self._memrefs: dict[tuple[tuple[int, ...], str, str], str] = {}
        self._types: dict[str, str] = {}
        self._elements: dict[str, tuple[str, str]] = {}
        self._tails: dict[tuple[str, str], dict[TransformMap, str]] = {}
        self.constants: list[str] = []
        """Constants the writer adds (a new fill's value)."""

    def __call__(self, value: str) -> str:
        """``value`` as printed, with its ``%``."""
        return f"%{self.printed[value]}"

    def dtype(self, value: str) -> str:
        # A view's element type is its source's: views print after their sources, so this does
        # not walk each view of a long chain of views down to the buffer again.
        found = self._dtypes.get(value)
        if found is None:
            v = self.kernel.values[value]
            below = self._dtypes.get(v.source) if isinstance(v, ViewValue) else None
            found = self._dtypes[value] = below or self.kernel.dtype(value)
        return found

    def buffer(self, value: str) -> str:
        found = self._buffers.get(value)
        if found is None:
            v = self.kernel.values[value]
            found = self._buffers[value] = self.buffer(v.source) if isinstance(v, ViewValue) else value
        return found

    def origin(self, buffer: str) -> str:
        """The buffer as read that ``buffer`` is, or derives from (``Kernel.alloc`` names an
        allocation made for ``%x`` ``x_0``, ``x_1``, ...)."""
        name = buffer
        while name not in self.read:
            m = re.fullmatch(r"(.+)_[0-9]+", name)
            if m is None:
                return buffer
            name = m.group(1)
        return name if self.read[name].kind == "alloc" or name == buffer else buffer

    def allocator(self, buffer: str) -> str:
        return self.allocators.get(self.origin(buffer), "memref.alloc")

    def allocation_attributes(self, buffer: str) -> str:
        """The attribute dictionary of the allocation ``buffer`` is or derives from, or ``""``."""
        return self.attributes.get(self.origin(buffer), "")

    def type(self, value: str) -> str:
        found = self._types.get(value)
        if found is None:
            v = self.kernel.values[value]
            if isinstance(v, BufferValue) and value in self.full and self.read[value].shape == v.shape:
                found = self.full[value]
            else:
                found = self.memref(self.kernel.shape(value), *self.element(value))
            self._types[value] = found
        return found

    def element(self, value: str) -> tuple[str, str]:
        """The element type and memory space of ``value``'s type: those of its buffer, or of the
        allocation the buffer derives from (a view's too, as rocMLIR's TransformOp builder gives
        them)."""
        found = self._elements.get(value)
        if found is None:
            dtype = self.dtype(value)
            full = self.full.get(self.origin(self.buffer(value)))
            written = parse_shaped_type(full, layouts=()) if full else None  # as read: no alias is a layout
            found = self._elements[value] = ((dtype, "") if written is None or written.dtype != dtype
                                             else (written.element, written.space))
        return found

    def map(self, m: TransformMap) -> str:
        """``m`` as written after ``by``; a rewritten kernel repeats the same maps in many views."""
        found = self._maps.get(m)
        if found is None:
            found = self._maps[m] = print_transform_map(m, prefix=False, affine_map=self.written.get(m))
        return found

    def memref(self, shape: tuple[int, ...], element: str, space: str) -> str:
        """``memref_type(shape, element, space=space)``, each printed once."""
        key = (shape, element, space)
        found = self._memrefs.get(key)
        if found is None:
            found = self._memrefs[key] = memref_type(shape, element, space=space)
        return found

    def transform_tails(self, element: str, space: str) -> dict[TransformMap, str]:
        """``by <map> : <lower type> to <upper type>`` of each map printed so far for views of
        ``element`` in ``space``: the ``rock.transform`` of a map after the first of its chain
        ends so. A long chain of views repeats a few maps (equal, if not the same objects)."""
        found = self._tails.get((element, space))
        if found is None:
            found = self._tails[element, space] = {}
        return found

    def fresh(self, base: str) -> str:
        """A name no value has, ``base`` or ``base_k``, made legal (``2_0`` as ``v2_0``)."""
        if not _PLAIN.fullmatch(base):
            base = _ILLEGAL.sub("_", base) or "v"
        if base[0].isdigit() and not base.isdigit() or base.isdigit() and base in self.taken:
            base = f"v{base}"
        name = base
        if name in self.taken:
            # Names are never given back, so the first free suffix only grows: start from the last.
            k = self._suffixes.get(base, 0)
            while f"{base}_{k}" in self.taken:
                k += 1
            name, self._suffixes[base] = f"{base}_{k}", k + 1
        self.taken.add(name)
        return name

    def fresh_run(self, prefix: str, count: int) -> list[str]:
        """``[fresh(f"{prefix}_{i}") for i in range(count)]``: the names of a chain's intermediate
        views, made legal once for all of them."""
        if not _PLAIN.fullmatch(prefix):
            return [self.fresh(f"{prefix}_{i}") for i in range(count)]
        # Each name is legal and not all digits; it starts with the prefix's first character.
        head = f"v{prefix}" if prefix[0].isdigit() else prefix
        taken = self.taken
        plain = [f"{head}_{i}" for i in range(count)]
        if taken.isdisjoint(plain):  # none taken: each is its own fresh name
            taken.update(plain)
            return plain
        found: list[str] = []
        for name in plain:
            if name in taken:
                name = self.fresh(name)
            else:
                taken.add(name)
            found.append(name)
        return found


def write_function(f: MlirFunction, kernel: Kernel | None = None, *, generic: bool = False) -> str:
    """One ``func.func`` (see ``write_mlir``), with ``kernel`` in place of ``f.kernel`` if given."""
    k = f.kernel if kernel is None else kernel
    names = _Names(f, k)
    syntax = dict(f.syntax)
    inline = set(f.inline)
    used = k.used_values()
    lines: list[str] = []
    for v in k.values.values():
        if v.name not in used or v.name in inline:
            continue
        if isinstance(v, BufferValue) and v.kind == "alloc":
            lines += _alloc(v.name, names, generic)
        elif isinstance(v, ViewValue):
            lines += _transforms(v, names, generic)
    for op in k.ops:
        lines += _op(op, syntax.get(op.name), names, generic)
    # Constants first, those of new fills too, as the reader keeps them: what is written reads
    # back to the same text.
    written = [G.statement(c) for c in f.constants] if generic else list(f.constants)
    lines = [*written, *names.constants, *lines]
    arg_attrs = dict(f.argument_attributes)
    if not generic:
        args = ", ".join(f"{names(a)}: {names.type(a)}" + (f" {arg_attrs[a]}" if a in arg_attrs else "")
                         for a in k.arguments())
        head = ["func.func"] + ([f.visibility] if f.visibility else []) + [f"@{f.name}({args})"]
        head += [f.results] if f.results else []
        head += [f"attributes {f.attributes}"] if f.attributes else []
        # Each line indented by two spaces, the terminator's too (one join, not a string per line).
        return " ".join(head) + " {\n  " + "\n  ".join([*lines, f.terminator or "return"]) + "\n}"
    types = [names.type(a) for a in k.arguments()]
    results, res_attrs = _results(f.results)
    properties = [("sym_name", f'"{f.name}"' if re.fullmatch(r"[\w$.\-]+", f.name) else f.name),
                  ("function_type", f"({', '.join(types)}) -> {results or '()'}")]
    properties += [("sym_visibility", f'"{f.visibility}"')] if f.visibility else []
    if arg_attrs:
        properties.append(("arg_attrs", "[" + ", ".join(arg_attrs.get(a, "{}") for a in k.arguments()) + "]"))
    if res_attrs:
        properties.append(("res_attrs", res_attrs))
    label = [f"^bb0({', '.join(f'{names(a)}: {t}' for a, t in zip(k.arguments(), types, strict=True))}):"]
    end = G.statement(f.terminator) if f.terminator else G.op("func.return")[0]
    body = [*(label if types else []), *(f"  {line}" for line in [*lines, end])]
    text = "\n".join(G.op("func.func", properties=properties, region=body,
                           attributes=G.entries(f.attributes) if f.attributes else ()))
    if all(upstream(op.kind) or not isinstance(syntax.get(op.name), OpText) for op in k.ops):
        return text
    values = {names.printed[v]: names.type(v) for v in used if v in k.values}
    try:
        return generic_ops(text, values)
    except MlirWriteError as e:
        raise MlirWriteError(f"@{f.name}: {e}") from None


def _results(written: str) -> tuple[str, str]:
    """A function's results as read (``-> (tensor<4xf32> {func.write_access}, f32)``) as the
    generic form's ``function_type`` results and ``res_attrs`` (empty when no result has
    attributes): ``(tensor<4xf32>, f32)`` and ``[{func.write_access}, {}]``."""
    text = written.removeprefix("->").strip()
    if not text.startswith("(") or "{" not in text:
        return text, ""
    types: list[str] = []
    attrs: list[str] = []
    for part in split_top(text[1:-1]):
        brace = _top_brace(part)
        types.append(part[:brace].strip() if brace >= 0 else part)
        attrs.append(part[brace:].strip() if brace >= 0 else "{}")
    return ("(" + ", ".join(types) + ")" if len(types) != 1 else types[0],
            "[" + ", ".join(attrs) + "]" if any(a != "{}" for a in attrs) else "")


def _top_brace(text: str) -> int:
    """Where the attribute dictionary after a type starts (a '{' outside '<...>'), or -1."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "{" and depth == 0:
            return i
    return -1


def _alloc(value: str, names: _Names, generic: bool) -> list[str]:
    allocator, type_ = names.allocator(value), names.type(value)
    attributes = names.allocation_attributes(value)
    if not generic:
        return [f"{names(value)} = {allocator}(){f' {attributes}' if attributes else ''} : {type_}"]
    segments = [("operandSegmentSizes", "array<i32: 0, 0>")] if allocator == "memref.alloc" else []
    # MLIR prints alignment as a property of memref.alloc, as an attribute of other allocators
    entries = G.entries(attributes) if attributes else []
    if allocator == "memref.alloc":
        segments = [*segments, *((k, v) for k, v in entries if k == "alignment")]
        entries = [(k, v) for k, v in entries if k != "alignment"]
    return G.op(allocator, results=(type_,), properties=segments, attributes=entries,
                defines=(names.printed[value],))


def _transforms(v: ViewValue, names: _Names, generic: bool) -> list[str]:
    below = names.printed[v.source]
    element, space = names.element(v.name)
    maps = v.maps[::-1]
    targets = [*names.fresh_run(names.printed[v.name], len(maps) - 1), names.printed[v.name]]
    source = names.type(v.source)
    if generic:
        lines: list[str] = []
        for i, (m, target) in enumerate(zip(maps, targets, strict=True)):
            lower = source if i == 0 else names.memref(m.lower_bounds, element, space)
            upper = names.memref(m.upper_bounds, element, space)
            lines += G.op("rock.transform", (below,), (lower,), (upper,),
                          properties=[("transform", f"#rock.transform_map{names.map(m)}")], defines=(target,))
            below = target
        return lines
    m, target = maps[0], targets[0]
    lines = [f"%{target} = rock.transform %{below} by {names.map(m)} : {source} to "
             f"{names.memref(m.upper_bounds, element, space)}"]
    tails = names.transform_tails(element, space)

    def tail(m: TransformMap) -> str:
        found = tails[m] = (f"by {names.map(m)} : {names.memref(m.lower_bounds, element, space)} to "
                            f"{names.memref(m.upper_bounds, element, space)}")
        return found

    ends = [tails.get(m) or tail(m) for m in maps[1:]]
    lines += [f"%{target} = rock.transform %{below} {end}"
              for below, target, end in zip(targets, targets[1:], ends, strict=False)]
    return lines


def _op(op: Op, syntax: OpText | GenericText | None, names: _Names, generic: bool) -> list[str]:
    k = names.kernel
    if isinstance(syntax, OpText):
        operands = (*op.reads, *op.writes)
        now = tuple(k.shape(v) for v in operands)
        if now != syntax.shapes:
            raise MlirWriteError(
                f"op {op.name} ({op.kind}) was read with operand shapes {[list(s) for s in syntax.shapes]} "
                f"and now has {[list(s) for s in now]}; its text cannot be reused")
        text = "".join(_slot(op, p, names) if isinstance(p, Slot) else p for p in syntax.pieces)
        if generic and "." not in op.kind:
            # 'call' is 'func.call' only inside func.func's custom form, whose parser makes func the
            # default dialect; the generic form's region has none.
            head = rf"^((?:%[^=\n]*=\s*)?){re.escape(op.kind)}\b"
            text = re.sub(head, rf"\g<1>func.{op.kind}", text, count=1)
        # Generic form of ops MLIR's parser reads only so: by write_function, once for all.
        return text.split("\n")
    if op.kind == "linalg.generic" and isinstance(syntax, GenericText):
        return _generic(op, syntax, names, generic)
    if op.kind == "memref.copy" and op.fn is None:
        (a,), (b,) = op.reads, op.writes
        if generic:
            return G.op("memref.copy", (names.printed[a], names.printed[b]), (names.type(a), names.type(b)))
        return [f"memref.copy {names(a)}, {names(b)} : {names.type(a)} to {names.type(b)}"]
    if op.kind == "linalg.fill" and op.fn is None:
        (target,) = op.writes
        constant = names.fresh("cst")
        dtype = names.dtype(target)
        value = f"{float(op.attr('value', 0.0))!r} : {dtype}"
        if not generic:
            names.constants.append(f"%{constant} = arith.constant {value}")
            return [f"linalg.fill ins(%{constant} : {dtype}) outs({names(target)} : {names.type(target)})"]
        block = [names.fresh("in"), names.fresh("out")]
        region = [f"^bb0(%{block[0]}: {dtype}, %{block[1]}: {dtype}):",
                  *(f"  {line}" for line in G.op("linalg.yield", (block[0],), (dtype,)))]
        names.constants += G.op("arith.constant", results=(dtype,), properties=[("value", value)],
                                defines=(constant,))
        return [*G.op("linalg.fill", (constant, names.printed[target]), (dtype, names.type(target)),
                      properties=[("operandSegmentSizes", "array<i32: 1, 1>")], region=region)]
    raise MlirWriteError(f"op {op.name} ({op.kind}) was not read from MLIR and has no MLIR form "
                         "(ops built with fn= cannot be written)")


_GENERIC = re.compile(r'(?:%[\w$.\-]+(?:\s*,\s*%[\w$.\-]+)*\s*=\s*)?"')
"""An op read in generic form (``"name"(...)`` or ``%r = "name"(...)``): it prints as read."""


def _operand(op: Op, slot: Slot, k: Kernel) -> str:
    """The value a slot prints: the operand, or the source of a view written inside the op."""
    value = (op.reads if slot.role == "read" else op.writes)[slot.index]
    if slot.inline:
        v = k.values[value]
        if not isinstance(v, ViewValue):
            raise MlirWriteError(f"op {op.name}: {value} replaced a view written inside the op")
        value = v.source
    return value


def _slot(op: Op, slot: Slot, names: _Names) -> str:
    return names(_operand(op, slot, names.kernel))


def _generic(op: Op, syntax: GenericText, names: _Names, generic: bool) -> list[str]:
    k = names.kernel
    rank = len(k.shape(op.writes[0])) if op.writes else 0
    if syntax.indexing_maps is not None:  # kept as written: the op was never rewritten
        maps, iterators = list(syntax.indexing_maps), tuple(op.attr("iterator_types", ()))
    else:  # parallel, identity maps over its (possibly new) shape
        dims = ", ".join(f"d{i}" for i in range(rank))
        maps = [f"affine_map<({dims}) -> ({dims})>"] * (len(op.reads) + len(op.writes))
        iterators = ("parallel",) * rank
    indices = [(key, f"{value} : index") for key, value in op.attrs
               if key not in ("iterator_types",) and isinstance(value, int)]
    operands = (*op.reads, *op.writes)
    if generic:
        properties = [("indexing_maps", f"[{', '.join(maps)}]"),
                      ("iterator_types",
                       "[" + ", ".join(f"#linalg.iterator_type<{it}>" for it in iterators) + "]"),
                      ("operandSegmentSizes", f"array<i32: {len(op.reads)}, {len(op.writes)}>")]
        attributes = [e for a in syntax.attributes
                      for e in G.entries(a if a.startswith("{") else "{" + a + "}")] + indices
        return G.op("linalg.generic", [names.printed[v] for v in operands], [names.type(v) for v in operands],
                    properties=properties, attributes=attributes, region=G.region(syntax.body))
    entries = [f"indexing_maps = [{', '.join(maps)}]",
               "iterator_types = [" + ", ".join(f'"{it}"' for it in iterators) + "]"]
    entries += list(syntax.attributes)
    entries += [f"{key} = {value}" for key, value in indices]
    ins = ", ".join(names(r) for r in op.reads)
    outs = ", ".join(names(w) for w in op.writes)
    in_types = ", ".join(names.type(r) for r in op.reads)
    out_types = ", ".join(names.type(w) for w in op.writes)
    head = f"linalg.generic {{{', '.join(entries)}}} "
    head += f"ins({ins} : {in_types}) " if op.reads else ""
    head += f"outs({outs} : {out_types}) " if op.writes else ""
    body = syntax.body.split("\n")
    return [head + body[0], *_dedent(body[1:])]


def _dedent(lines: list[str]) -> list[str]:
    """Re-indent a body's lines relative to the op (the closing brace at the op's level)."""
    if not lines:
        return lines
    base = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    last = len(lines[-1]) - len(lines[-1].lstrip())
    shift = min(base, last)
    return [line[shift:] for line in lines]
