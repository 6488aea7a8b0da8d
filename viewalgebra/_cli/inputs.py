"""What a command reads: regular files a line at a time, cut into parts (``text_parts``), a
directory's ``.mlir`` files, or one transform map given as text; and what it writes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .._mlir.parts import PART, marked_parts, text_parts
from .errors import InputError

PART_SIZE = PART
"""Characters a part of a file holds at least (read when a file is read, so a test can make
parts small)."""

MAP = "<map>"
"""The label of a transform map given as text."""


@dataclass(frozen=True, slots=True)
class Input:
    """A file, or a transform map given as text (``path`` is ``None``, ``label`` is ``<map>``)."""

    label: str
    path: Path | None = None
    text: str = ""

    def parts(self) -> Iterator[tuple[str, int]]:
        """The file in parts of whole top-level items, each ``(text, its first line)``."""
        if self.path is None:
            return iter([(self.text, 1)])
        return text_parts(file_lines(self.path), PART_SIZE)

    def marked_parts(self) -> Iterator[tuple[str, int, bool]]:
        """``parts``, each with whether it is the last."""
        if self.path is None:
            return iter([(self.text, 1, True)])
        return marked_parts(file_lines(self.path), PART_SIZE)

    def contains(self, needle: str) -> bool:
        """Whether ``needle`` (ASCII) is in the file, read a block at a time."""
        if self.path is None:
            return needle in self.text
        word, tail = needle.encode(), b""
        try:
            with self.path.open("rb") as f:
                while block := f.read(1 << 20):
                    if word in tail + block:
                        return True
                    tail = block[-len(word):]
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", file=self.label) from None
        return False


    def reads_as_mlir(self) -> bool:
        """Whether the reader reads the file to its end (functions read or not, a module,
        aliases, or nothing but comments): a file that holds nothing for a command is MLIR
        with nothing in it, not text that is not MLIR."""
        from .._mlir import iter_mlir_parts
        from ..errors import ViewAlgebraError

        if self.path is None:
            return False
        try:
            for _ in iter_mlir_parts(self.parts(), errors="collect"):
                pass
        except ViewAlgebraError:
            return False
        return True


def inputs(arg: str, command: str, recursive: bool = False) -> list[Input]:
    """The inputs an argument names: a file, the ``.mlir`` files of a directory (``check`` and
    ``emit-lit``; with ``recursive``, of its whole tree), or a transform map given as text (a file
    of one map)."""
    path = Path(arg)
    if path.is_dir():
        if command not in ("check", "emit-lit"):
            raise InputError(f"is a directory: only the check and emit-lit commands read directories, "
                             f"not {command}", file=arg)
        files = sorted(f for f in (path.rglob if recursive else path.glob)("*.mlir") if f.is_file())
        if not files:
            below = ("" if recursive else " (check does not recurse into subdirectories without -r)"
                     if command == "check" else " (emit-lit does not recurse into subdirectories)")
            raise InputError(f"a directory with no .mlir file in it{below}", file=arg)
        return [Input(str(f), f) for f in files]
    if path.exists():
        return [Input(arg, path)]
    if arg.lstrip().startswith(("#rock.transform_map", "<")):
        return [Input(MAP, None, arg)]
    raise InputError("no such file, and not a transform map in rocMLIR syntax", file=arg)


def regular_file(path: Path) -> None:
    if not path.exists():
        raise InputError("no such file", file=str(path))
    if not path.is_file():  # a FIFO or a device would block or never end
        raise InputError("not a regular file", file=str(path))


def file_lines(path: Path) -> Iterator[str]:
    """The lines of a regular file, read one at a time, or ``InputError`` saying why not (NUL
    bytes or bytes that are not UTF-8 are not MLIR)."""
    regular_file(path)
    try:
        with path.open("rb") as f:
            for number, raw in enumerate(f, start=1):
                if b"\0" in raw:
                    raise InputError("not text (a NUL byte)", file=str(path), line=number)
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputError("not UTF-8 text", file=str(path), line=number) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}", file=str(path)) from None


def write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror or e}", file=path) from None
