"""``parse_layout``: any layout text, by its first word (docs/layouts.md)."""

from __future__ import annotations

from .text import parse_cute
from .values import ComposedLayout, Layout, LinearLayout, Swizzle


def parse_layout(text: str) -> Layout | ComposedLayout | LinearLayout | Swizzle:
    """A layout from text: CuTe's or pycute's (``(4,8):(1,4)``, ``((2,3),4):((1,2),8)``, ``8:1``,
    ``(_4,_8):(_1,_4)``, a shape alone ``(4,8)``), a swizzle ``Sw<B,M,S>``, a composed layout
    ``Sw<B,M,S> o OFF o L`` or ``Sw<B,M,S> o L``.

    Bad text raises ``LayoutSyntaxError`` with the line and column and what was expected there.
    Example: ``parse_layout("(4,8):(1,4)") == Layout((4, 8), (1, 4))``.
    """
    return parse_cute(text)
