"""Line and column of a character offset, by binary search over the text's line starts."""

from __future__ import annotations

import bisect
import re
from array import array
from functools import lru_cache


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` (``O(log n)`` each: a file's many locations are
    not each a count from its start)."""
    starts = _line_starts(text)
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


@lru_cache(maxsize=4)
def _line_starts(text: str) -> array[int]:
    # 8 bytes a line (a list of ints would take about 36)
    return array("q", [0, *(m.end() for m in re.finditer("\n", text))])
