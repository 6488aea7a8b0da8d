"""Line and column of a character offset, by binary search over the text's line starts."""

from __future__ import annotations

import bisect
import re
from array import array
from functools import lru_cache


class PartText(str):
    """Text that is a part of a file, with the file's number of some of its lines: ``anchors``
    holds ``(line in this text, line in the file)`` pairs in order, both 1-based; the lines
    after an anchor follow it one by one."""

    anchors: tuple[tuple[int, int], ...]

    def __new__(cls, text: str, anchors: tuple[tuple[int, int], ...]) -> PartText:
        part = super().__new__(cls, text)
        part.anchors = anchors
        return part


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line (the file's, for a ``PartText``) and column of ``offset`` (``O(log n)``
    each: a file's many locations are not each a count from its start)."""
    starts = _line_starts(text)
    line = bisect.bisect_right(starts, offset)
    column = offset - starts[line - 1] + 1
    if isinstance(text, PartText) and text.anchors:
        at = max(bisect.bisect_right(text.anchors, (line, float("inf"))) - 1, 0)
        here, there = text.anchors[at]
        line = there + line - here
    return line, column


@lru_cache(maxsize=4)
def _line_starts(text: str) -> array[int]:
    # 8 bytes a line (a list of ints would take about 36)
    return array("q", [0, *(m.end() for m in re.finditer("\n", text))])
