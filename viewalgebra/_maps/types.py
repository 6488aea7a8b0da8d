"""MLIR's shaped types, ``memref<...>`` and ``tensor<...>``: the one parser and the one printer of
them in viewalgebra (``parse_memref_type``, the ``.mlir`` front end, ``Buffer``'s printed form, the
writer).

Only static shapes are read. A memref may have a ``strided<[...], offset: ...>`` layout and a
memory space (``#gpu.address_space<private>``, an integer, or an alias of one); its element type
may be a vector (``memref<8xvector<4xf16>>``), whose scalar type is the ``dtype``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import TransformParseError

_SHAPED = re.compile(r"(memref|tensor)\s*<\s*((?:(?:[0-9]+|\?)\s*x\s*)*)(.*)>", re.S)
_SCALAR = r"[A-Za-z_][\w.]*|![\w.]+(?:<.*>)?"
_VECTOR = re.compile(rf"vector\s*<\s*((?:[0-9]+\s*x\s*)+)({_SCALAR})\s*>", re.S)
_STRIDED = re.compile(r"strided\s*<\s*\[([^\]]*)\]\s*(?:,\s*offset\s*:\s*([^>]*?))?\s*>", re.S)


@dataclass(frozen=True, slots=True)
class ShapedType:
    """A static ``memref`` or ``tensor`` type; ``str()`` prints it as MLIR does."""

    kind: Literal["memref", "tensor"]
    shape: tuple[int, ...]
    element: str
    """The element type as written: ``f16`` or ``vector<4xf16>``."""
    strides: tuple[int, ...] | None = None
    """A ``strided<...>`` layout's strides, or ``None`` for the identity layout."""
    offset: int = 0
    """A ``strided<...>`` layout's offset."""
    space: str = ""
    """The memory space as written (``#gpu.address_space<private>``, ``5``), or empty."""

    @property
    def dtype(self) -> str:
        """The scalar element type: ``f16`` for both ``f16`` and ``vector<4xf16>``."""
        m = _VECTOR.fullmatch(self.element)
        return m.group(2) if m else self.element

    @property
    def plain(self) -> bool:
        """Nothing beyond shape and scalar element type: ``memref<4x8xf32>``."""
        return self.strides is None and not self.space and self.element == self.dtype

    def __str__(self) -> str:
        parts = ["".join(f"{s}x" for s in self.shape) + self.element]
        if self.strides is not None:
            parts.append(f"strided<[{', '.join(map(str, self.strides))}], offset: {self.offset}>")
        if self.space:
            parts.append(self.space)
        return f"{self.kind}<{', '.join(parts)}>"


def memref_type(shape: Sequence[int], element: str, *, strides: Sequence[int] | None = None,
                offset: int = 0, space: str = "") -> str:
    """``memref<4x8xf32>``, with a strided layout and a memory space when given.

    Example: ``memref_type((8,), "f16", space="#gpu.address_space<private>")`` is
    ``memref<8xf16, #gpu.address_space<private>>``.
    """
    return str(ShapedType("memref", tuple(shape), element,
                          None if strides is None else tuple(strides), offset, space))


def parse_shaped_type(text: str, *, error: type[TransformParseError] = TransformParseError,
                      source: str | None = None, at: int = 0,
                      layouts: Collection[str] | None = None) -> ShapedType:
    """A ``memref<...>`` or ``tensor<...>`` type; errors are ``error`` located at ``at`` of
    ``source`` (default: ``text`` itself).

    An alias ``#name`` after the element type is a layout (refused) or a memory space, as its
    definition says: ``layouts`` names the aliases that are layouts (``affine_map``), any other
    is a memory space (``#wg = #gpu.address_space<workgroup>``); without ``layouts`` an alias
    there is refused.

    Example: ``parse_shaped_type("memref<8xvector<4xf16>, #gpu.address_space<private>>")`` has
    shape ``(8,)``, element ``vector<4xf16>``, dtype ``f16`` and that memory space.
    """
    where = text if source is None else source

    def fail(message: str) -> TransformParseError:
        return error(message, where, at)

    m = _SHAPED.fullmatch(text.strip())
    if m is None:
        raise fail(f"expected a static memref or tensor type such as 'memref<4x8xf32>', found {text!r}")
    kind: Literal["memref", "tensor"] = "memref" if m.group(1) == "memref" else "tensor"
    dims = re.findall(r"[0-9]+|\?", m.group(2))
    if "?" in dims:
        raise fail(f"dynamic shapes are not supported: {text}")
    element, *rest = split_top(m.group(3))
    if not (re.fullmatch(_SCALAR, element) or _VECTOR.fullmatch(element)):
        raise fail(f"expected an element type (such as 'f32' or 'vector<4xf16>') in {text!r}")
    strides: tuple[int, ...] | None = None
    offset, space = 0, ""
    for i, part in enumerate(rest):
        if kind == "tensor" or i > 1 or space:
            raise fail(f"cannot read the type {text!r} (tensor encodings are not supported)"
                       if kind == "tensor" else f"cannot read the type {text!r}")
        if i == 0 and part.startswith("strided"):
            s = _STRIDED.fullmatch(part)
            try:
                if s is None:
                    raise ValueError(part)
                strides = tuple(int(x) for x in s.group(1).split(",") if x.strip())
                offset = int(s.group(2) or 0)
            except ValueError:
                raise fail(f"expected static integer strides and offset in {text!r}") from None
        elif i == 0 and (part.startswith("affine_map") or re.fullmatch(r"#[\w$.\-]+", part)
                         and (layouts is None or part[1:] in layouts)):
            raise fail(f"memref layouts other than strided<...> are not supported: {text}")
        else:
            space = part
    return ShapedType(kind, tuple(int(d) for d in dims), element, strides, offset, space)


def unheld(text: str, *, layouts: Collection[str] | None = None) -> tuple[str, str] | None:
    """Why the well-formed shaped type ``text`` is one ``parse_shaped_type`` refuses though MLIR
    reads it, with its scalar element type: ``("dynamic size", "f32")`` for
    ``memref<?x4xf32>``, ``("layout", "f16")`` for a layout other than a static
    ``strided<...>`` (an ``affine_map<...>``, an alias in ``layouts``, dynamic strides or
    offset); ``None`` for a type it reads, or text that is not a shaped type.

    Example: ``unheld("memref<?xf32>")`` is ``("dynamic size", "f32")``.
    """
    m = _SHAPED.fullmatch(text.strip())
    if m is None:
        return None
    element, *rest = split_top(m.group(3))
    vector = _VECTOR.fullmatch(element)
    dtype = vector.group(2) if vector else element
    if "?" in re.findall(r"[0-9]+|\?", m.group(2)):
        return "dynamic size", dtype
    if m.group(1) == "memref" and rest:
        layout = rest[0]
        if (layout.startswith("affine_map") or layout.startswith("strided") and "?" in layout
                or re.fullmatch(r"#[\w$.\-]+", layout) and layouts is not None and layout[1:] in layouts):
            return "layout", dtype
    return None


def split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets, each part stripped."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts
