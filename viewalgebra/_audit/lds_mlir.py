"""The LDS accesses of rocMLIR IR: every ``rock.threadwise_write_all`` into and every
``rock.threadwise_read_into`` from a buffer in ``#gpu.address_space<workgroup>``, as ``LdsAccess``
values that ``bank_conflicts`` counts (docs/lds.md, rocMLIR's layouts).

The ops sit inside loops and stages (``scf.for``, ``rock.stage``), which the kernel graph of
``read_mlir`` keeps opaque, so the text is scanned: the views come from the file scan
(``parse_mlir_views``: the ``rock.transform`` chain that ends at the op's LDS operand, with the
op's own ``[maps]`` on top), one op a line as rocMLIR prints them.

The access, as ``ThreadwiseWriteAllRewritePattern`` and ``ThreadwiseReadIntoRewritePattern``
(mlir/lib/Dialect/Rock/Transforms/ThreadwiseGemmLowering.cpp) lower it: the view's first dims are
the op's extra indices, the rest its iteration; the thread dim is the extra index that is a
``rock.workitem_id``; the vector dim is the last iteration dim. When the LDS buffer's element is
``vector<N x T>`` (a ``memref.view`` of the byte buffer) the lanes are spelled out: if the
register side holds scalars an iteration step is one scalar (lane ``j`` of the vector the view
gives at the step's multiple of N), if it holds vectors a step is one whole vector; either way
the vector is N elements, rocMLIR's width. Over a scalar LDS buffer the width is rocMLIR's
threadwise rule (``rocmlir_threadwise_width``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .._analyses.lds import LdsAccess
from .._maps.buffer import Buffer
from .._maps.syntax import ParsedMap
from .._maps.transform_map import TransformMap
from .._maps.types import parse_shaped_type
from .._maps.view import View
from .._mlir.scan import ParsedView, parse_mlir_transform_maps, parse_mlir_views
from .._rocmlir.threadwise_width import rocmlir_threadwise_width
from ..errors import InvalidArgumentError, TransformParseError, ViewAlgebraError
from .access import scalar_view
from .lds_compare import spell_lanes

_VALUE = r"%[\w.$-]+"
_WRITE = re.compile(rf"rock\.threadwise_write_all\b.*?({_VALUE})\s*->\s*\[([^\]]*)\]\(({_VALUE})\)"
                    rf"\s*(?:\[([^\]]*)\])?.*?\bby\b[^:]*:(.*)$")
_READ = re.compile(rf"rock\.threadwise_read_into\b[^\[]*\[([^\]]*)\]\(({_VALUE})\)\s*(?:\[([^\]]*)\])?"
                   rf".*?->\s*({_VALUE})\s*:(.*)$")
_WORKITEM = re.compile(rf"({_VALUE})\s*=\s*rock\.workitem_id\b")
_FUNCTION = re.compile(r"\bfunc\.func\b[^@]*@([\w.$-]+)")
_VECTOR = re.compile(r"vector<(\d+)x(\w+)>")


@dataclass(frozen=True, slots=True)
class MlirLdsAccess:
    """One LDS access of an ``.mlir`` file: the op, where it is, and the access (or why not).

    Example: the A store of rocMLIR's align-tiling-non-contiguous-strides.mlir is a
    ``rock.threadwise_write_all`` on line 156, 128 threads each writing one ``vector<8xf16>``.
    """

    function: str
    line: int
    op: Literal["rock.threadwise_write_all", "rock.threadwise_read_into"]
    value: str
    """The LDS-side operand as written (``%45``)."""
    access: LdsAccess | None
    reason: str = ""
    """Why ``access`` is ``None``."""


def lds_accesses(text: str) -> tuple[MlirLdsAccess, ...]:
    """Every LDS store (``rock.threadwise_write_all`` into a ``#gpu.address_space<workgroup>``
    buffer) and LDS read (``rock.threadwise_read_into`` from one) of the MLIR text of a module or
    function, in file order, each as an ``LdsAccess`` with its line (docs/lds.md, rocMLIR's
    layouts).

    Example: ``lds_accesses(Path("align-tiling-non-contiguous-strides.mlir").read_text())`` gives
    the two LDS stores of ``@mlir_dot_sigmoid``, A's and B's.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"lds_accesses: expected the MLIR text, got {type(text).__name__}")
    views = parse_mlir_views(text)
    maps = parse_mlir_transform_maps(text, errors="collect")
    lines = text.splitlines()
    functions: list[tuple[int, str]] = []
    workitems: list[tuple[int, str]] = []
    found: list[MlirLdsAccess] = []
    for number, line in enumerate(lines, start=1):
        f = _FUNCTION.search(line)
        if f is not None:
            functions.append((number, f.group(1)))
        for w in _WORKITEM.finditer(line):
            workitems.append((number, w.group(1)))
        if "rock.threadwise_write_all" in line or "rock.threadwise_read_into" in line:
            start = functions[-1][0] if functions else 0
            name = functions[-1][1] if functions else ""
            tids = {v for n, v in workitems if n >= start}
            found.extend(_access(line, number, name, start, views, maps, tids))
    return tuple(found)


def _access(line: str, number: int, function: str, start: int, views: tuple[ParsedView, ...],
            maps: tuple[ParsedMap, ...], tids: set[str]) -> list[MlirLdsAccess]:
    write = _WRITE.search(line)
    read = None if write else _READ.search(line)
    if write is not None:
        op: Literal["rock.threadwise_write_all", "rock.threadwise_read_into"] = "rock.threadwise_write_all"
        inline, value, extras, types = write.group(2), write.group(3), write.group(4), _types(write.group(5))
        private_type, lds_type = types[:2] if len(types) >= 2 else ("", "")
    elif read is not None:
        op = "rock.threadwise_read_into"
        inline, value, extras, types = read.group(1), read.group(2), read.group(3), _types(read.group(5))
        lds_type, private_type = types[:2] if len(types) >= 2 else ("", "")
    else:
        return []
    if "#gpu.address_space<workgroup>" not in lds_type:
        return []

    def refuse(reason: str) -> list[MlirLdsAccess]:
        return [MlirLdsAccess(function, number, op, value, None, reason)]

    try:
        lds = parse_shaped_type(lds_type, layouts=())
        private = parse_shaped_type(private_type, layouts=())
        view = _view(value, inline, number, start, views, maps, lds.shape, lds.dtype)
    except ViewAlgebraError as e:
        return refuse(str(e))
    names = [e.strip() for e in (extras or "").split(",") if e.strip()]
    thread = [i for i, e in enumerate(names) if e in tids]
    if len(thread) != 1:
        return refuse(f"no single extra index is a rock.workitem_id (extra indices: {names})")
    if view.rank <= len(names):
        return refuse(f"the view of rank {view.rank} has no iteration dim after {len(names)} extra indices")
    d = view.rank - 1
    lanes = _lanes(lds.element)
    try:
        if lanes > 1:
            if _lanes(private.element) > 1:
                view, d = spell_lanes(view, lanes, "vector_lane"), view.rank
            else:
                view = scalar_view(view, d, lanes, f"{op} on line {number}")
            length = lanes
        else:
            values = 1
            for n in private.shape:
                values *= n
            length = rocmlir_threadwise_width(view, d, values, op="write_all" if write else "read_into")
        access = LdsAccess(view, thread[0], d, length, "write" if write else "read")
    except ViewAlgebraError as e:
        return refuse(str(e))
    return [MlirLdsAccess(function, number, op, value, access)]


def _types(text: str) -> list[str]:
    """The types after an op's colon, split at the top-level ``->`` and commas."""
    parts: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">" and depth and text[i - 1] != "-":
            depth -= 1
        elif depth == 0 and (c == "," or text.startswith("->", i)):
            parts.append(text[start:i].strip())
            i += 1 if c == "," else 2
            start = i
            continue
        i += 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _lanes(element: str) -> int:
    m = _VECTOR.fullmatch(element.strip())
    return 1 if m is None else int(m.group(1))


def _view(value: str, inline: str, number: int, start: int, views: tuple[ParsedView, ...],
          maps: tuple[ParsedMap, ...], shape: tuple[int, ...], dtype: str) -> View:
    """The op's view: its own ``[maps]`` over the chain that ends at ``value`` in this function
    (or over the buffer of the op's type when ``value`` is not a chain's end)."""
    chain = [v for v in views if v.name == value and start <= v.line < number]
    if chain:
        parsed = chain[-1]
        if parsed.view is None:
            raise TransformParseError(f"the view {value} is not analysed: {parsed.error or parsed.note}",
                                      "", 0)
        base = parsed.view
    else:
        base = View(Buffer(shape, dtype), ())
    own: list[TransformMap] = []
    for alias in (a.strip() for a in inline.split(",") if a.strip()):
        known = [m for m in maps if m.name == alias.lstrip("#") and m.line < number]
        if not known or known[-1].map is None:
            raise TransformParseError(f"the map {alias} of the op on line {number} is not defined before it",
                                      "", 0)
        own.append(known[-1].map)
    return View(base.buffer, (*own, *base.maps), strict=False)
