"""Write kernels back as MLIR that ``read_mlir`` (and rocMLIR) reads.

Ops read from a file print as they were written, with their current operands; views print as
``rock.transform`` chains (one op per map); allocations, copies and fills that a rewrite added
print in their usual form. An op built in Python with a ``fn`` has no MLIR form: ``MlirWriteError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from .._graph import BufferValue, Kernel, Op, ViewValue, memref_type
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap
from ..errors import MlirWriteError
from .reader import GenericText, MlirFunction, MlirModule, OpText, Slot, Unreadable


def write_mlir(module: MlirModule, kernels: Mapping[str, Kernel] | None = None) -> str:
    """The module as MLIR text, each function with its kernel replaced by ``kernels[name]`` when
    given (e.g. a regularized kernel). Functions that could not be read are written as they were.

    Example: ``write_mlir(m, {f.name: regularize(f.kernel, "rocmlir").kernel for f in m.functions})``.
    """
    kernels = kernels or {}
    out: list[str] = []
    indent = 0
    for item in module.items:
        if isinstance(item, MlirFunction):
            kernel = kernels.get(item.name, item.kernel)
            out.append(_indented(write_function(replace(item, kernel=kernel)), indent))
        elif isinstance(item, Unreadable):
            out.append("  " * indent + item.text)
        elif item == "}":
            indent -= 1
            out.append("  " * indent + "}")
        else:
            out.append("  " * indent + item)
            if item.endswith("{"):
                indent += 1
    return "\n".join(out) + "\n"


def _indented(text: str, indent: int) -> str:
    return "\n".join("  " * indent + line if line else line for line in text.split("\n"))


class _Names:
    """Types of values, printed maps, and fresh names for intermediate views and constants: each
    found once, so that writing takes time linear in what is written."""

    def __init__(self, f: MlirFunction) -> None:
        self.kernel = f.kernel
        self.full = dict(f.types)
        self.written = dict(f.written)
        self.taken = set(f.kernel.values) | {m.group(1) for c in f.constants
                                              for m in [re.match(r"%([\w$.\-]+)", c)] if m}
        self._dtypes: dict[str, str] = {}
        self._maps: dict[TransformMap, str] = {}
        self._suffixes: dict[str, int] = {}

    def dtype(self, value: str) -> str:
        # A view's element type is its source's: views print after their sources, so this does
        # not walk each view of a long chain of views down to the buffer again.
        found = self._dtypes.get(value)
        if found is None:
            v = self.kernel.values[value]
            below = self._dtypes.get(v.source) if isinstance(v, ViewValue) else None
            found = self._dtypes[value] = below or self.kernel.dtype(value)
        return found

    def type(self, value: str) -> str:
        v = self.kernel.values[value]
        if isinstance(v, BufferValue) and value in self.full:
            return self.full[value]
        return memref_type(self.kernel.shape(value), self.dtype(value))

    def map(self, m: TransformMap) -> str:
        """``m`` as written after ``by``; a rewritten kernel repeats the same maps in many views."""
        found = self._maps.get(m)
        if found is None:
            found = self._maps[m] = print_transform_map(m, prefix=False, affine_map=self.written.get(m))
        return found

    def fresh(self, base: str) -> str:
        name = base
        if name in self.taken:
            # Names are never given back, so the first free suffix only grows: start from the last.
            k = self._suffixes.get(base, 0)
            while f"{base}_{k}" in self.taken:
                k += 1
            name, self._suffixes[base] = f"{base}_{k}", k + 1
        self.taken.add(name)
        return name


def write_function(f: MlirFunction) -> str:
    """One ``func.func`` (see ``write_mlir``)."""
    k = f.kernel
    names = _Names(f)
    arg_attrs = dict(f.argument_attributes)
    args = ", ".join(f"%{a}: {names.type(a)}" + (f" {arg_attrs[a]}" if a in arg_attrs else "")
                     for a in k.arguments())
    head = ["func.func"] + ([f.visibility] if f.visibility else []) + [f"@{f.name}({args})"]
    head += [f.results] if f.results else []
    head += [f"attributes {f.attributes}"] if f.attributes else []
    lines = [" ".join(head) + " {"]
    lines += [f"  {c}" for c in f.constants]
    used = k.used_values()
    allocators = dict(f.allocators)
    inline = set(f.inline)
    for v in k.values.values():
        if v.name not in used or v.name in inline:
            continue
        if isinstance(v, BufferValue) and v.kind == "alloc":
            lines.append(f"  %{v.name} = {allocators.get(v.name, 'memref.alloc')}() : {names.type(v.name)}")
        elif isinstance(v, ViewValue):
            lines += _transforms(v, names)
    syntax = dict(f.syntax)
    for op in k.ops:
        lines += [f"  {line}" for line in _op(op, syntax.get(op.name), names)]
    lines += ["  return", "}"]
    return "\n".join(lines)


def _transforms(v: ViewValue, names: _Names) -> list[str]:
    lines: list[str] = []
    below = v.source
    dtype = names.dtype(v.name)
    for i, m in enumerate(reversed(v.maps)):
        target = v.name if i == len(v.maps) - 1 else names.fresh(f"{v.name}_{i}")
        lines.append(f"  %{target} = rock.transform %{below} by {names.map(m)}"
                     f" : {names.type(below) if i == 0 else memref_type(m.lower_bounds, dtype)} to "
                     f"{memref_type(m.upper_bounds, dtype)}")
        below = target
    return lines


def _op(op: Op, syntax: OpText | GenericText | None, names: _Names) -> list[str]:
    k = names.kernel
    if isinstance(syntax, OpText):
        operands = (*op.reads, *op.writes)
        now = tuple(k.shape(v) for v in operands)
        if now != syntax.shapes:
            raise MlirWriteError(
                f"op {op.name} ({op.kind}) was read with operand shapes {[list(s) for s in syntax.shapes]} "
                f"and now has {[list(s) for s in now]}; its text cannot be reused")
        text = "".join(_slot(op, p, k) if isinstance(p, Slot) else p for p in syntax.pieces)
        return text.split("\n")
    if op.kind == "linalg.generic" and isinstance(syntax, GenericText):
        return _generic(op, syntax, names)
    if op.kind == "memref.copy" and op.fn is None:
        (a,), (b,) = op.reads, op.writes
        return [f"memref.copy %{a}, %{b} : {names.type(a)} to {names.type(b)}"]
    if op.kind == "linalg.fill" and op.fn is None:
        (target,) = op.writes
        constant = names.fresh("cst")
        dtype = names.dtype(target)
        return [f"%{constant} = arith.constant {float(op.attr('value', 0.0))!r} : {dtype}",
                f"linalg.fill ins(%{constant} : {dtype}) outs(%{target} : {names.type(target)})"]
    raise MlirWriteError(f"op {op.name} ({op.kind}) was not read from MLIR and has no MLIR form "
                         "(ops built with fn= cannot be written)")


def _slot(op: Op, slot: Slot, k: Kernel) -> str:
    value = (op.reads if slot.role == "read" else op.writes)[slot.index]
    if slot.inline:
        v = k.values[value]
        if not isinstance(v, ViewValue):
            raise MlirWriteError(f"op {op.name}: {value} replaced a view written inside the op")
        value = v.source
    return f"%{value}"


def _generic(op: Op, syntax: GenericText, names: _Names) -> list[str]:
    k = names.kernel
    rank = len(k.shape(op.writes[0])) if op.writes else 0
    if syntax.indexing_maps is not None:  # kept as written: the op was never rewritten
        maps, iterators = list(syntax.indexing_maps), tuple(op.attr("iterator_types", ()))
    else:  # parallel, identity maps over its (possibly new) shape
        dims = ", ".join(f"d{i}" for i in range(rank))
        maps = [f"affine_map<({dims}) -> ({dims})>"] * (len(op.reads) + len(op.writes))
        iterators = ("parallel",) * rank
    entries = [f"indexing_maps = [{', '.join(maps)}]",
               "iterator_types = [" + ", ".join(f'"{it}"' for it in iterators) + "]"]
    entries += list(syntax.attributes)
    entries += [f"{key} = {value} : index" for key, value in op.attrs
                if key not in ("iterator_types",) and isinstance(value, int)]
    ins = ", ".join(f"%{r}" for r in op.reads)
    outs = ", ".join(f"%{w}" for w in op.writes)
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
