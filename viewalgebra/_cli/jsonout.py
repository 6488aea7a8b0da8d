"""Output written as it is made: a JSON document written value by value (the same text as
``json.dumps(document, indent=2)``), and spools that keep text for later in bounded memory."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from typing import IO, Any

from ..errors import InternalError

SPOOL_MEMORY = 1 << 16
"""Characters a spool keeps in memory before it moves to a temporary file."""


class Spool:
    """Text kept for later: in memory up to ``SPOOL_MEMORY`` characters, then in a temporary
    file (deleted when the spool is closed)."""

    def __init__(self) -> None:
        self._file: IO[str] | None = None
        self.empty = True

    def write(self, text: str) -> None:
        if self._file is None:
            self._file = tempfile.SpooledTemporaryFile(SPOOL_MEMORY, "w+", encoding="utf-8")  # noqa: SIM115 -- closed by close()
        self._file.write(text)
        self.empty = self.empty and not text

    def copy_to(self, write: Callable[[str], object]) -> None:
        """Write what the spool holds, then empty it."""
        if self._file is not None:
            self._file.seek(0)
            while block := self._file.read(1 << 16):
                write(block)
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file, self.empty = None, True


def indented(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``depth`` levels deep (a string
    never holds a raw line break, so every line break is the layout's)."""
    return json.dumps(value, indent=2).replace("\n", "\n" + "  " * depth)


class ListSpool:
    """The items of a JSON list written later (``JsonWriter.spooled``), ``depth`` levels deep."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.count = 0
        self.spool = Spool()

    def add(self, item: Any) -> None:
        self.spool.write(("," if self.count else "") + "\n" + "  " * self.depth + indented(item, self.depth))
        self.count += 1


class JsonWriter:
    """One JSON document written as it is built: ``open`` a container (under a key inside an
    object), add complete values with ``value``, ``close`` it; the text is what
    ``json.dumps(document, indent=2)`` would write, so the document never has to be whole in
    memory."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self.write = write
        self._counts: list[int] = []
        """Values written so far in each open container, outermost first."""

    @property
    def depth(self) -> int:
        return len(self._counts)

    def _start(self, key: str | None) -> None:
        if self._counts:
            self.write(("," if self._counts[-1] else "") + "\n" + "  " * self.depth
                       + ("" if key is None else json.dumps(key) + ": "))
            self._counts[-1] += 1

    def open(self, bracket: str, key: str | None = None) -> None:
        """Open an object (``{``) or a list (``[``)."""
        self._start(key)
        self.write(bracket)
        self._counts.append(0)

    def value(self, value: Any, key: str | None = None) -> None:
        self._start(key)
        self.write(indented(value, self.depth))

    def close(self, bracket: str) -> None:
        """Close the innermost container with ``}`` or ``]``; the document ends with a line break."""
        count = self._counts.pop()
        self.write(("\n" + "  " * self.depth if count else "") + bracket + ("" if self._counts else "\n"))

    def spooled(self, key: str, items: ListSpool) -> None:
        """A list whose items were spooled (``items.depth`` must be this list's items' depth)."""
        self.open("[", key)
        if items.depth != self.depth:
            raise InternalError(f"a list spooled {items.depth} deep written {self.depth} deep")
        items.spool.copy_to(self.write)
        self._counts[-1] = items.count
        self.close("]")
