"""Pictures: which buffer address each view point reads (``draw_svg``), and which LDS banks the
lanes of one instruction's phases hit (``banks``), as SVG."""

from ._draw import banks, draw_svg

__all__ = ["banks", "draw_svg"]
