"""Pictures of views: which buffer address each view point reads, as SVG."""

from ._draw import draw_svg

__all__ = ["draw_svg"]
