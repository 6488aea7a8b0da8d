"""What ``read_mlir`` reads into: a module of functions, each a kernel graph with the text the
graph does not hold (how each op prints), and the functions that could not be read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .._kernel.graph import Kernel
from .._maps import affine as A
from .._maps.transform_map import TransformMap
from ..errors import MlirParseError


@dataclass(frozen=True, slots=True)
class Slot:
    """Where an operand goes in an op's text: ``op.reads[index]`` or ``op.writes[index]``."""

    role: Literal["read", "write"]
    index: int
    inline: bool = False
    """The operand is written ``[maps](%x)``: the maps stay in the text, the slot prints ``%x``."""


@dataclass(frozen=True, slots=True)
class OpText:
    """An op as written, its operands cut out, and the operand shapes it was written for."""

    pieces: tuple[str | Slot, ...]
    shapes: tuple[tuple[int, ...], ...]
    """Shapes of ``reads`` then ``writes`` when read (the types in the text are theirs)."""


@dataclass(frozen=True, slots=True)
class GenericText:
    """A ``linalg.generic``: what its printed form needs beyond the graph."""

    body: str
    """The region, ``{ ^bb0(...): ... linalg.yield ... }``."""
    attributes: tuple[str, ...] = ()
    """Other entries of its attribute dictionary, as written."""
    indexing_maps: tuple[str, ...] | None = None
    """The maps as written when they were kept (a generic that is not fully parallel)."""


@dataclass(frozen=True, slots=True)
class MlirFunction:
    """One ``func.func``: its kernel graph and the text the graph does not hold."""

    kernel: Kernel
    is_kernel: bool
    """Has the ``kernel`` attribute (rocMLIR's regularize pass only touches these)."""
    line: int
    visibility: str = ""
    attributes: str = ""
    """The ``attributes {...}`` dictionary as written (with braces), or empty."""
    results: str = ""
    argument_attributes: tuple[tuple[str, str], ...] = ()
    types: tuple[tuple[str, str], ...] = ()
    """Buffers whose type says more than shape and element type (a memory space), as written."""
    allocators: tuple[tuple[str, str], ...] = ()
    """Allocations made by another op than ``memref.alloc`` (``rock.alloc``)."""
    constants: tuple[str, ...] = ()
    """MlirFunction-level constants, as written."""
    syntax: tuple[tuple[str, OpText | GenericText], ...] = ()
    """Per op name, how it prints."""
    inline: tuple[str, ...] = ()
    """Views written inside an op (``[maps](%x)``), not as ``rock.transform``."""
    written: tuple[tuple[TransformMap, A.AffineMap], ...] = ()
    """The written affine maps of maps that have no meaning of their own (``strict=False``)."""
    terminator: str = ""
    """The ``return`` as written when it returns values (``return %0 : tensor<...>``), else empty."""
    allocation_attributes: tuple[tuple[str, str], ...] = ()
    """Allocations with an attribute dictionary (``{alignment = 128 : i64}``), as written."""

    @property
    def name(self) -> str:
        return self.kernel.name


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A function that could not be read (``read_mlir(..., errors="collect")``)."""

    name: str
    offset: int
    error: MlirParseError
    text: str
    """The function as written (``write_mlir`` writes it back unchanged)."""


@dataclass(frozen=True, slots=True)
class MlirModule:
    """A whole ``.mlir`` file: functions and, as written, everything else at the top level
    (aliases, ``module`` braces, ``// -----`` separators, top-level ops in generic form other
    than modules and functions)."""

    items: tuple[MlirFunction | Unreadable | str, ...]

    @property
    def unreadable(self) -> tuple[Unreadable, ...]:
        return tuple(i for i in self.items if isinstance(i, Unreadable))

    @property
    def functions(self) -> tuple[MlirFunction, ...]:
        return tuple(i for i in self.items if isinstance(i, MlirFunction))

    def function(self, name: str) -> MlirFunction:
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(f"no function @{name} (functions: "
                       f"{', '.join('@' + f.name for f in self.functions) or 'none'})")
