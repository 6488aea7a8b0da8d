"""``parse_layout``: any layout text, by its first word (docs/layouts.md)."""

from __future__ import annotations

from .fly import read_fly
from .padded import PaddedSharedLayout
from .text import Reader
from .triton import read_bases, read_padded_shared, read_ttg_linear
from .values import ComposedLayout, Layout, LinearLayout, Swizzle


def parse_layout(text: str) -> Layout | ComposedLayout | LinearLayout | PaddedSharedLayout | Swizzle:
    """A layout from text: CuTe's, pycute's, FlyDSL's or Triton's, told apart by the first word.

    CuTe and pycute: ``(4,8):(1,4)``, ``((2,3),4):((1,2),8)``, ``8:1``, ``(_4,_8):(_1,_4)``, a
    shape alone ``(4,8)`` (compact colexicographic strides), a swizzle ``Sw<B,M,S>``, a composed
    layout ``Sw<B,M,S> o OFF o L`` or ``Sw<B,M,S> o L``. FlyDSL: ``!fly.layout<...>``,
    ``!fly.swizzle<S<B,M,S>>``, ``!fly.composed_layout<S<B,M,S> o OFF o L>``. Triton:
    ``#ttg.linear<{register = ..., lane = ..., warp = ..., block = ...}>``, a bases dict
    ``{register: [[1], [2]], lane: [[4]]}`` optionally followed by ``-> {dim0: 8}``,
    ``#ttg.padded_shared<[I:+P] {...}>``. An alias in front (``#linear = ...``) is skipped.
    Bad text raises ``LayoutSyntaxError`` with the line and column and what was expected there.
    Example: ``parse_layout("(4,8):(1,4)") == Layout((4, 8), (1, 4))``.
    """
    reader = Reader(text)
    first, second = reader.peek(), reader.peek(1)
    if first is not None and first.text[:1] in "#!" and second is not None and second.text == "=":
        reader.i += 2  # an alias: `#linear = #ttg.linear<...>`
        first = reader.peek()
    word = first.text if first is not None else ""
    if word.startswith("!fly."):
        return read_fly(reader)
    if word == "#ttg.linear":
        return read_ttg_linear(reader)
    if word == "#ttg.padded_shared":
        return read_padded_shared(reader)
    if word.startswith(("#", "!")):
        raise reader.fail("a layout (CuTe text, !fly.layout, !fly.swizzle, !fly.composed_layout, "
                          "#ttg.linear or #ttg.padded_shared)")
    if word == "{":
        return read_bases(reader)
    return reader.cute()
