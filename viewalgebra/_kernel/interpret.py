"""The reference interpreter for a ``Kernel``: run the ops in program order on numpy arrays.

Every buffer is a float64 array of its shape. A read gathers through the value's view (padding
reads as zero); a write scatters through it (padding points are dropped, and a view that sends
two valid points to one address cannot be written). The interpreter states what a kernel
computes, so that a rewrite of the kernel can be checked by running both::

    k = Kernel("transpose")
    a = k.argument("a", (4, 8))
    b = k.argument("b", (8, 4))
    k.op("memref.copy", reads=[k.view(a, [transpose])], writes=[b])
    run_kernel(k, {"a": x, "b": np.zeros((8, 4))})["b"]  # == x.T
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from ..errors import KernelError
from .graph import BufferValue, Kernel, Op

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

GEMM_KINDS = frozenset({"rock.gridwise_gemm", "rock.gridwise_gemm_accel", "rock.gemm"})
"""Op kinds whose default is the batched ``C[g, m, n] = sum_k A[g, k, m] * B[g, k, n]``."""


def run_kernel(kernel: Kernel, inputs: Mapping[str, npt.ArrayLike], *,
               seed: int | None = None) -> dict[str, FloatArray]:
    """Run ``kernel`` on ``inputs`` (one array per function argument) and return every buffer.

    Arguments start as a float64 copy of their input (the caller's arrays are never changed),
    allocations as NaN, so that a read before any write shows in the result. Ops run in program
    order; an op's ``fn``, when given, is called with the gathered reads and returns one array
    per write (a single array if there is one write). Default semantics by kind:

    * ``linalg.generic``: none (``fn`` is required); all operands must have one shape;
    * ``memref.copy``: the write is the read;
    * ``linalg.fill``: the attribute ``value`` (default ``0.0``) everywhere, no reads;
    * ``rock.gemm``, ``rock.gridwise_gemm``, ``rock.gridwise_gemm_accel``: reads ``A[G, K, M]``
      and ``B[G, K, N]``, writes ``C[G, M, N] = A^T B`` per batch;
    * ``rock.reduce``: the sum over the attribute ``dims``, kept as size-1 dims.

    With ``seed`` given, an argument missing from ``inputs`` is filled with standard normal
    values drawn from a generator seeded by ``seed`` and the argument's name (so two kernels
    with the same arguments get the same data); without it a missing argument is an error.

    Example: a copy through ``#rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by
    [<PassThrough ["i", "j"] at [0, 1] -> ["j", "i"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>``
    from ``%a: memref<4x8xf32>`` into ``%b: memref<8x4xf32>`` gives ``b == a.T``.
    """
    memory = _initial_memory(kernel, inputs, seed)
    access = _Access(kernel)
    for op in kernel.ops:
        operands = [_gather(access, memory, r) for r in op.reads]
        results = _compute(kernel, op, operands)
        _scatter(access, memory, op, results)
    return memory


def _initial_memory(kernel: Kernel, inputs: Mapping[str, npt.ArrayLike],
                    seed: int | None) -> dict[str, FloatArray]:
    buffers = [v for v in kernel.values.values() if isinstance(v, BufferValue)]
    arguments = [b.name for b in buffers if b.kind == "argument"]
    for name in inputs:
        if name not in arguments:
            raise KernelError(
                f"run_kernel: input {name} is not an argument of {kernel.name} "
                f"(arguments: {', '.join(arguments) or 'none'})")
    memory: dict[str, FloatArray] = {}
    for b in buffers:
        if b.kind == "alloc":
            memory[b.name] = np.full(b.shape, np.nan, dtype=np.float64)
        elif b.name in inputs:
            array = np.array(inputs[b.name], dtype=np.float64)  # a copy: inputs stay unchanged
            if array.shape != b.shape:
                raise KernelError(
                    f"run_kernel: input {b.name} has shape {list(array.shape)} but argument "
                    f"{b.name} has shape {list(b.shape)}")
            memory[b.name] = array
        elif seed is not None:
            # Seeded by name, not by position, so that the data do not depend on the order in
            # which a rewritten kernel declares its arguments.
            rng = np.random.default_rng([seed, zlib.crc32(b.name.encode())])
            memory[b.name] = rng.standard_normal(b.shape)
        else:
            raise KernelError(
                f"run_kernel: no input for argument {b.name} of shape {list(b.shape)}")
    return memory


class _Access:
    """Addresses and validity of every value's points in its buffer, computed once per value."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.cache: dict[str, tuple[str, IntArray, BoolArray]] = {}

    def __call__(self, value: str) -> tuple[str, IntArray, BoolArray]:
        """(buffer name, address of each point, validity of each point), arrays of the value's shape."""
        if value not in self.cache:
            buffer = self.kernel.chain(value)[0]
            addresses, valid = self.kernel.view_of(value).addresses()
            size = int(np.prod(self.kernel.shape(buffer)))
            outside = valid & ((addresses < 0) | (addresses >= size))
            if outside.any():
                point = tuple(int(c) for c in np.argwhere(outside)[0])
                raise KernelError(
                    f"{value}: point {list(point)} is valid but its address "
                    f"{int(addresses[point])} is outside {buffer} (size {size})")
            self.cache[value] = (buffer, addresses, valid)
        return self.cache[value]


def _gather(access: _Access, memory: dict[str, FloatArray], value: str) -> FloatArray:
    buffer, addresses, valid = access(value)
    out = np.zeros(addresses.shape, dtype=np.float64)
    out[valid] = memory[buffer].reshape(-1)[addresses[valid]]
    return out


def _scatter(access: _Access, memory: dict[str, FloatArray], op: Op,
             results: Sequence[FloatArray]) -> None:
    # Check every write before storing any, so that a failing op leaves memory as it was.
    written: dict[str, list[tuple[str, IntArray]]] = {}
    stores: list[tuple[str, IntArray, FloatArray]] = []
    for value, result in zip(op.writes, results, strict=True):
        buffer, addresses, valid = access(value)
        targets = addresses[valid]
        _check_injective(op, value, buffer, targets, valid)
        for other, earlier in written.get(buffer, []):
            shared = np.intersect1d(earlier, targets)
            if shared.size:
                raise KernelError(
                    f"op {op.name} ({op.kind}): writes {other} and {value} both store to "
                    f"address {int(shared[0])} of {buffer}")
        written.setdefault(buffer, []).append((value, targets))
        stores.append((buffer, targets, result[valid]))
    for buffer, targets, elements in stores:
        memory[buffer].reshape(-1)[targets] = elements


def _check_injective(op: Op, value: str, buffer: str, targets: IntArray, valid: BoolArray) -> None:
    """Raise if two valid points (``targets`` holds their addresses in the order of
    ``np.argwhere(valid)``) share an address."""
    order = np.argsort(targets, kind="stable")
    ordered = targets[order]
    duplicates = np.flatnonzero(ordered[1:] == ordered[:-1])
    if duplicates.size:
        points = np.argwhere(valid)  # only to name the two points: a pass over every point
        k = int(duplicates[0])
        first = [int(c) for c in points[order[k]]]
        second = [int(c) for c in points[order[k + 1]]]
        raise KernelError(
            f"op {op.name} ({op.kind}): writes {value} through a non-injective view: points "
            f"{first} and {second} both store to address {int(ordered[k])} of {buffer}")


def _compute(kernel: Kernel, op: Op, operands: list[FloatArray]) -> list[FloatArray]:
    """The op's results, one array of each write's shape, checked."""
    where = f"op {op.name} ({op.kind})"
    if op.kind == "linalg.generic":
        shapes = {v: kernel.shape(v) for v in (*op.reads, *op.writes)}
        if len(set(shapes.values())) > 1:
            raise KernelError(
                f"{where}: an elementwise op needs operands of one shape, got "
                + ", ".join(f"{v} {list(s)}" for v, s in shapes.items()))
        if op.fn is None:
            raise KernelError(f"{where}: linalg.generic has no default body; pass fn=")
    if op.fn is not None:
        returned: object = op.fn(*operands)
        if len(op.writes) == 1:
            results: list[object] = [returned]
        elif len(op.writes) == 0:
            results = []
        elif isinstance(returned, (tuple, list)):
            results = list(cast(Sequence[object], returned))
        else:
            raise KernelError(
                f"{where}: fn must return {len(op.writes)} arrays (one per write), got "
                f"{type(returned).__name__}")
    elif op.kind == "memref.copy":
        _arity(op, 1, 1)
        _same_shape(kernel, op, op.reads[0], op.writes[0])
        results = [operands[0]]
    elif op.kind == "linalg.fill":
        _arity(op, 0, 1)
        value = op.attr("value", 0.0)
        try:
            constant = float(value)
        except (TypeError, ValueError):
            raise KernelError(f"{where}: value must be a number, got {value!r}") from None
        results = [np.full(kernel.shape(op.writes[0]), constant, dtype=np.float64)]
    elif op.kind in GEMM_KINDS:
        _arity(op, 2, 1)
        results = [_gemm(kernel, op, operands[0], operands[1])]
    elif op.kind == "rock.reduce":
        _arity(op, 1, 1)
        dims = _reduce_dims(op, operands[0].ndim)
        results = [np.sum(operands[0], axis=dims, keepdims=True)]
    else:
        raise KernelError(f"{where}: no default semantics; pass fn=")
    if len(results) != len(op.writes):
        raise KernelError(
            f"{where}: fn returned {len(results)} arrays for {len(op.writes)} writes")
    checked: list[FloatArray] = []
    for value, result in zip(op.writes, results, strict=True):
        array = np.asarray(result, dtype=np.float64)
        if array.shape != kernel.shape(value):
            raise KernelError(
                f"{where}: the result for {value} has shape {list(array.shape)} but {value} has "
                f"shape {list(kernel.shape(value))}")
        checked.append(array)
    return checked


def _arity(op: Op, reads: int, writes: int) -> None:
    if len(op.reads) != reads or len(op.writes) != writes:
        raise KernelError(
            f"op {op.name} ({op.kind}): needs {reads} reads and {writes} writes, got "
            f"{len(op.reads)} reads ({', '.join(op.reads) or 'none'}) and {len(op.writes)} writes "
            f"({', '.join(op.writes) or 'none'})")


def _same_shape(kernel: Kernel, op: Op, a: str, b: str) -> None:
    if kernel.shape(a) != kernel.shape(b):
        raise KernelError(
            f"op {op.name} ({op.kind}): {a} has shape {list(kernel.shape(a))} but {b} has "
            f"shape {list(kernel.shape(b))}")


def _gemm(kernel: Kernel, op: Op, a: FloatArray, b: FloatArray) -> FloatArray:
    (name_a, name_b), name_c = op.reads, op.writes[0]
    sa, sb, sc = kernel.shape(name_a), kernel.shape(name_b), kernel.shape(name_c)
    if not (len(sa) == len(sb) == len(sc) == 3 and sa[0] == sb[0] == sc[0] and sa[1] == sb[1]
            and sc[1:] == (sa[2], sb[2])):
        raise KernelError(
            f"op {op.name} ({op.kind}): needs A [G, K, M], B [G, K, N], C [G, M, N], got "
            f"{name_a} {list(sa)}, {name_b} {list(sb)}, {name_c} {list(sc)}")
    return np.einsum("gkm,gkn->gmn", a, b)


def _reduce_dims(op: Op, rank: int) -> tuple[int, ...]:
    where = f"op {op.name} ({op.kind})"
    dims: object = op.attr("dims")
    items = list(cast(Sequence[object], dims)) if isinstance(dims, (tuple, list)) else None
    if items is None or not all(isinstance(d, int) and not isinstance(d, bool) for d in items):
        raise KernelError(f"{where}: dims must be a tuple of ints, got {dims!r}")
    out = tuple(cast(int, d) for d in items)
    for d in out:
        if not 0 <= d < rank:
            raise KernelError(
                f"{where}: dim {d} is outside [0, {rank}) for {op.reads[0]} of rank {rank}")
    if len(set(out)) != len(out):
        raise KernelError(f"{where}: dims {list(out)} repeat a dim")
    return out

