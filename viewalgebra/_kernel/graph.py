"""A small kernel graph: buffers (function arguments and allocations), views of them, and ops in
program order that read and write values. Enough to state and check rocMLIR's fusion invariants.

Build it the way a compiler pass sees a kernel::

    k = Kernel("fused")
    a = k.argument("a", (1, 16, 32), "f32")
    c = k.alloc((1, 32, 32), "f32", name="c")
    k.op("rock.gridwise_gemm", reads=[a, b], writes=[c], root=True)

Values are named by strings. ``view(value, maps)`` takes maps top-first (a ``rock.transform``
chain on a buffer or on another view). Readers and writers of a buffer are found through views, as
rocMLIR's BufferDependencyAnalysis does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from .._maps.buffer import Buffer
from .._maps.syntax import print_transform_map
from .._maps.transform_map import TransformMap
from .._maps.types import memref_type
from .._maps.view import View
from ..errors import KernelError, RegularizeError

FUSION_ROOTS = frozenset({
    "rock.gemm", "rock.gridwise_gemm", "rock.gridwise_gemm_accel", "rock.conv", "rock.conv2d",
    "rock.conv2d_bwd_data", "rock.attention", "rock.gridwise_attention_accel"})
"""Op kinds that are fusion roots in rocMLIR (its ``RockFusionRoot`` ops: the gemm, conv and
attention ops and their gridwise forms): the one list, used by the ``.mlir`` reader to mark roots."""

ELEMENTWISE_KINDS = frozenset({"linalg.generic", "memref.copy", "linalg.fill"})
"""Op kinds a view can be pushed through (parallel, identity indexing)."""


@dataclass(frozen=True, slots=True)
class BufferValue:
    """A function argument or an allocation."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    kind: Literal["argument", "alloc"]


@dataclass(frozen=True, slots=True)
class ViewValue:
    """``source`` seen through ``maps`` (top-first): ``view[u] = source[M_last(...M_first(u))]``."""

    name: str
    source: str
    maps: tuple[TransformMap, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return self.maps[0].upper_bounds


Value = BufferValue | ViewValue


@dataclass(frozen=True, slots=True)
class Op:
    """One op: reads and writes values (buffers or views), in program order."""

    name: str
    kind: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    root: bool = False
    """A fusion root (gemm, conv, attention)."""
    fn: Callable[..., Any] | None = field(default=None, compare=False)
    """The computation, for the reference interpreter (``None``: the kind's default)."""
    attrs: tuple[tuple[str, Any], ...] = ()
    """Extra attributes, e.g. ``(("value", 0.0),)`` for a fill, ``(("dims", (1,)),)`` for a reduce."""

    def attr(self, key: str, default: Any = None) -> Any:
        return dict(self.attrs).get(key, default)

    @property
    def elementwise(self) -> bool:
        """Parallel and elementwise: a view can be pushed through it. A ``linalg.generic`` with
        ``iterator_types`` other than ``"parallel"`` (e.g. a reduction) is not, nor an op the
        reader kept verbatim (``opaque``: it may read and write all its operands)."""
        iterators = self.attr("iterator_types", ())
        return (self.kind in ELEMENTWISE_KINDS and all(it == "parallel" for it in iterators)
                and self.attr("opaque") is None)


@dataclass(slots=True)
class Kernel:
    """A function: arguments, allocations, views and ops in program order."""

    name: str
    values: dict[str, Value] = field(default_factory=lambda: {})
    ops: list[Op] = field(default_factory=lambda: [])

    # {{{ building

    def _fresh(self, base: str) -> str:
        if base not in self.values:
            return base
        k = 0
        while f"{base}_{k}" in self.values:
            k += 1
        return f"{base}_{k}"

    def argument(self, name: str, shape: Sequence[int], dtype: str = "f32") -> str:
        """A function argument (``%name``)."""
        return self._add(BufferValue(self._unique(name), tuple(shape), dtype, "argument"))

    def alloc(self, shape: Sequence[int], dtype: str = "f32", *, name: str | None = None) -> str:
        """A ``memref.alloc`` of the given shape."""
        return self._add(BufferValue(self._fresh(name or "alloc"), tuple(shape), dtype, "alloc"))

    def view(self, value: str, maps: Sequence[TransformMap], *, name: str | None = None) -> str:
        """A ``rock.transform`` chain on ``value``, maps top-first."""
        chain = tuple(maps)
        if not chain:
            raise KernelError(f"view of {value}: a view needs at least one map")
        below = self.shape(value)
        if chain[-1].lower_bounds != below:
            raise KernelError(
                f"view of {value}: the last map's lower bounds {list(chain[-1].lower_bounds)} != "
                f"the shape of {value} {list(below)}")
        View(Buffer(below), chain)  # checks the chain's own bounds
        return self._add(ViewValue(self._fresh(name or f"{value}_view"), value, chain))

    def op(self, kind: str, reads: Sequence[str] = (), writes: Sequence[str] = (), *,
           root: bool = False, fn: Callable[..., Any] | None = None, name: str | None = None,
           **attrs: Any) -> Op:
        """An op in program order; ``root=True`` marks a fusion root."""
        for v in (*reads, *writes):
            if v not in self.values:
                raise KernelError(f"op {kind}: unknown value {v}")
        taken = {o.name for o in self.ops}
        base = name or kind.split(".")[-1]
        op_name, k = base, 0
        while op_name in taken:
            op_name, k = f"{base}_{k}", k + 1
        frozen: dict[str, Any] = {key: tuple(cast(list[Any], v)) if isinstance(v, list) else v
                                  for key, v in attrs.items()}
        op = Op(op_name, kind, tuple(reads), tuple(writes), root, fn, tuple(sorted(frozen.items())))
        self.ops.append(op)
        return op

    def _unique(self, name: str) -> str:
        if name in self.values:
            raise KernelError(f"value {name} is defined twice")
        return name

    def _add(self, value: Value) -> str:
        self.values[value.name] = value
        return value.name

    def copy(self) -> Kernel:
        """An independent copy (values and ops are frozen, so a shallow copy of the containers)."""
        return Kernel(self.name, dict(self.values), list(self.ops))

    # }}}
    # {{{ queries

    def shape(self, value: str) -> tuple[int, ...]:
        v = self.values[value]
        return v.shape

    def dtype(self, value: str) -> str:
        return self.buffer(value).dtype

    def chain(self, value: str) -> tuple[str, tuple[TransformMap, ...]]:
        """The buffer under ``value`` and the maps from ``value`` down to it, top-first."""
        maps: list[TransformMap] = []
        seen: set[str] = set()
        while True:
            v = self.values[value]
            if isinstance(v, BufferValue):
                return value, tuple(maps)
            if value in seen:
                raise KernelError(f"view {value} is defined through itself")
            seen.add(value)
            maps.extend(v.maps)
            value = v.source

    def buffer(self, value: str) -> BufferValue:
        v = self.values[self.chain(value)[0]]
        if not isinstance(v, BufferValue):  # chain() ends at a buffer
            raise KernelError(f"{value} reaches no buffer")
        return v

    def view_of(self, value: str) -> View:
        """``value`` as a ``View`` of its row-major buffer."""
        name, maps = self.chain(value)
        b = self.values[name]
        return View(Buffer(b.shape, b.dtype if isinstance(b, BufferValue) else "f32"), maps)

    def writers(self, buffer: str) -> list[tuple[Op, str]]:
        """(op, operand) pairs that write ``buffer``, directly or through views."""
        return [(op, v) for op in self.ops for v in op.writes if self.chain(v)[0] == buffer]

    def readers(self, buffer: str) -> list[tuple[Op, str]]:
        """(op, operand) pairs that read ``buffer``, directly or through views."""
        return [(op, v) for op in self.ops for v in op.reads if self.chain(v)[0] == buffer]

    def arguments(self) -> list[str]:
        return [n for n, v in self.values.items() if isinstance(v, BufferValue) and v.kind == "argument"]

    def allocs(self) -> list[str]:
        return [n for n, v in self.values.items() if isinstance(v, BufferValue) and v.kind == "alloc"]

    def used_values(self) -> set[str]:
        used: set[str] = set()
        for op in self.ops:
            for v in (*op.reads, *op.writes):
                # A value already seen had its whole chain added with it.
                while v not in used:
                    used.add(v)
                    value = self.values[v]
                    if isinstance(value, BufferValue):
                        break
                    v = value.source
        return used

    # }}}

    def fused_views(self, op: Op, value: str) -> tuple[tuple[str, View], ...]:
        """Where ``op``'s accesses of ``value`` really go once every fused op is inlined: one
        ``(function argument, View)`` per path through elementwise fusees (as rocMLIR's fusion
        traversal follows them), with the view from ``value``'s coordinates to that argument.

        A load follows the writers of each intermediate buffer back to their inputs, a store its
        readers on to their outputs. Every fusee on a path must use the buffer directly (as after
        ``regularize``): a view there would have to be inverted, and ``RegularizeError`` says so.
        """
        loading = value in op.reads
        found: list[tuple[str, View]] = []
        pending: list[tuple[Op, str, tuple[TransformMap, ...]]] = [(op, value, ())]
        while pending:
            current, operand, above = pending.pop()
            buffer, maps = self.chain(operand)
            chain = (*above, *maps)
            b = self.values[buffer]
            if isinstance(b, BufferValue) and b.kind == "argument":
                found.append((buffer, View(Buffer(b.shape, b.dtype), chain)))
                continue
            links = self.writers(buffer) if loading else self.readers(buffer)
            links = [(o, v) for o, v in links if o.name != current.name]
            if not links:
                raise KernelError(f"fused_views: %{buffer} has no {'writer' if loading else 'reader'}")
            for fusee, used in links:
                if not fusee.elementwise:
                    raise RegularizeError(f"fused_views: {fusee.name} ({fusee.kind}) is not elementwise")
                if self.chain(used)[1]:
                    raise RegularizeError(
                        f"fused_views: {fusee.name} uses %{buffer} through the view %{used}; "
                        "regularize the kernel first")
                onward = fusee.reads if loading else fusee.writes
                pending.extend((fusee, v, chain) for v in onward if v != used)
        return tuple(reversed(found))

    def replace_op(self, old: Op, new: Op) -> None:
        self.ops[self.ops.index(old)] = new

    def __str__(self) -> str:
        return kernel_summary(self)


class KernelIndex:
    """A kernel with what a rewriter looks up kept at hand: each value's chain, each op by name and
    by position, and the ops that use each buffer, so no lookup scans the whole kernel.

    Values never change once defined, so chains are remembered; op changes go through ``replace``
    and ``insert`` (not ``kernel.ops``) to keep the rest current. Op names are unique, as
    ``Kernel.op`` makes them.
    """

    __slots__ = ("_chains", "_ops", "_position", "_using", "kernel")

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self._chains: dict[str, tuple[str, tuple[TransformMap, ...]]] = {}
        self._ops: dict[str, Op] = {}
        self._position: dict[str, int] = {}
        self._using: dict[str, set[str]] = {}  # buffer -> names of the ops that use it
        for op in kernel.ops:
            self._add(op)
        self._number()

    def chain(self, value: str) -> tuple[str, tuple[TransformMap, ...]]:
        """``Kernel.chain``, remembered."""
        found = self._chains.get(value)
        if found is None:
            found = self._chains[value] = self.kernel.chain(value)
        return found

    def op(self, name: str) -> Op:
        return self._ops[name]

    def position(self, name: str) -> int:
        """Where the op is in program order (its index in ``kernel.ops``)."""
        return self._position[name]

    def using(self, buffer: str) -> list[Op]:
        """The ops that use ``buffer``, directly or through views, in program order."""
        return [self._ops[n] for n in sorted(self._using.get(buffer, ()), key=self._position.__getitem__)]

    def users(self, buffer: str) -> list[tuple[Op, str]]:
        """(op, operand) pairs that read or write ``buffer`` (reads first), in program order."""
        return [(op, v) for op in self.using(buffer) for v in (*op.reads, *op.writes)
                if self.chain(v)[0] == buffer]

    def writers(self, buffer: str) -> list[tuple[Op, str]]:
        """``Kernel.writers``."""
        return [(op, v) for op in self.using(buffer) for v in op.writes if self.chain(v)[0] == buffer]

    def readers(self, buffer: str) -> list[tuple[Op, str]]:
        """``Kernel.readers``."""
        return [(op, v) for op in self.using(buffer) for v in op.reads if self.chain(v)[0] == buffer]

    def replace(self, new: Op) -> None:
        """Put ``new`` in place of the op of the same name."""
        self._drop(self._ops[new.name])
        self.kernel.ops[self._position[new.name]] = new
        self._add(new)

    def insert(self, position: int, kind: str, reads: Sequence[str] = (), writes: Sequence[str] = (),
               *, name: str, **attrs: Any) -> Op:
        """``Kernel.op``, placed at ``position`` in program order instead of at the end."""
        op = self.kernel.op(kind, reads, writes, name=name, **attrs)
        self.kernel.ops.insert(position, self.kernel.ops.pop())
        self._add(op)
        self._number()
        return op

    def _add(self, op: Op) -> None:
        self._ops[op.name] = op
        for v in (*op.reads, *op.writes):
            self._using.setdefault(self.chain(v)[0], set()).add(op.name)

    def _drop(self, op: Op) -> None:
        for v in (*op.reads, *op.writes):
            self._using[self.chain(v)[0]].discard(op.name)

    def _number(self) -> None:
        self._position = {op.name: i for i, op in enumerate(self.kernel.ops)}


def with_operands(op: Op, reads: Sequence[str], writes: Sequence[str]) -> Op:
    return replace(op, reads=tuple(reads), writes=tuple(writes))


def kernel_summary(k: Kernel) -> str:
    """A readable summary of a kernel for debugging, not MLIR: its buffers, each view with its
    maps (top first, in rocMLIR's syntax) and each op with what it reads and writes.
    ``write_mlir`` writes a kernel read from MLIR back as MLIR."""
    used = k.used_values()
    lines = [f"kernel @{k.name}"]
    for v in k.values.values():
        if isinstance(v, BufferValue):
            lines.append(f"  {v.kind} %{v.name}: {memref_type(v.shape, v.dtype)}"
                         + ("" if v.name in used else " (unused)"))
        else:
            lines.append(f"  view %{v.name} of %{v.source}: {list(v.shape)}"
                         + ("" if v.name in used else " (unused)"))
            lines.extend(f"    {print_transform_map(m)}" for m in v.maps)
    for op in k.ops:
        root = ", fusion root" if op.root else ""
        attrs = "".join(f", {key} = {value!r}" for key, value in op.attrs)
        lines.append(f"  op {op.name} ({op.kind}{root}{attrs}): reads "
                     f"{', '.join('%' + r for r in op.reads) or 'nothing'}; writes "
                     f"{', '.join('%' + w for w in op.writes) or 'nothing'}")
    return "\n".join(lines)
