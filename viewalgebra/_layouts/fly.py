"""Reading FlyDSL's layout types (ROCm/FlyDSL, the ``fly`` MLIR dialect: CuTe's algebra).

The printed forms (``include/flydsl/Dialect/Fly/IR/FlyTypeDefs.td``, ``FlyAttrDefs.td`` and the
printers in ``lib/Dialect/Fly/IR/FlyAttrDefs.cpp``)::

    !fly.layout<(8,64):(64,1)>                 shape:stride, as CuTe (spaces allowed)
    !fly.swizzle<S<2,3,3>>                     S<mask bits, base, shift>
    !fly.composed_layout<S<3,3,3> o 0 o (8,64):(64,1)>

FlyDSL's swizzle is CuTe's for a shift of 0 or more (``lib/Dialect/Fly/Utils/IntUtils.cpp``:
``x ^ ((x & (((1 << mask) - 1) << (base + shift))) >> shift)``); a negative shift is a negative
C++ shift there, which has no defined value, and is refused. Dynamic integers (``?``), empty
leaves (``*``), scaled-basis strides (``1E0``), coordinate swizzles (``CS<...>``), layouts
composed with layouts and nested composed layouts (``[...]``) have no offset function of one
integer to read and are refused with the reason.
"""

from __future__ import annotations

from ..errors import LayoutSyntaxError
from .text import Reader
from .values import ComposedLayout, Layout, Swizzle

TYPES = ("!fly.layout", "!fly.swizzle", "!fly.composed_layout")
"""The FlyDSL types ``parse_layout`` reads."""


def read_fly(reader: Reader) -> Layout | ComposedLayout | Swizzle:
    """A FlyDSL layout type, the reader at its ``!fly.`` word."""
    tok = reader.peek()
    if tok is None or tok.text not in TYPES:
        raise reader.fail("one of " + ", ".join(TYPES))
    reader.i += 1
    reader.take("<", f"'<' after {tok.text}")
    if tok.text == "!fly.layout":
        layout = reader.plain()
        reader.take(">", "'>' after the layout")
        reader.end()
        return layout
    sw = _swizzle(reader)
    if tok.text == "!fly.swizzle":
        reader.take(">", "'>' after the swizzle")
        reader.end()
        return sw
    return reader.composed(sw, ">")


def _swizzle(reader: Reader) -> Swizzle:
    tok = reader.peek()
    if tok is not None and tok.text == "CS":
        raise LayoutSyntaxError("a coordinate swizzle CS<...> XORs bits of two coordinates, not of "
                                "an offset: it is not read", reader.text, tok.offset)
    if tok is not None and tok.text != "S" and (tok.text == "(" or tok.kind == "int"):
        raise LayoutSyntaxError("a layout composed with a layout is not read: give a swizzle S<...> "
                                "composed with a layout", reader.text, tok.offset)
    sw = reader.swizzle("S")
    if sw.shift < 0:
        raise LayoutSyntaxError(
            f"FlyDSL's swizzle shifts right by the shift, and a negative shift ({sw.shift}) has no "
            "defined value there: give a shift of 0 or more", reader.text, tok.offset if tok else 0)
    return sw
