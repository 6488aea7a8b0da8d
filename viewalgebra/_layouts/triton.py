"""Reading Triton's layouts: ``#ttg.linear<{...}>``, a bases dict, ``#ttg.padded_shared<...>``.

Triton's printed forms (triton-lang/triton ``lib/Dialect/TritonGPU/IR/Dialect.cpp``,
``LinearEncodingAttr::parse`` and ``print``; ``PaddedSharedEncodingAttr`` in
``include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td``)::

    #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0]], warp = [], block = []}>
    #ttg.padded_shared<[512:+16] {offset = [[0, 1], ...], block = []}>
    #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>

``#ttg.linear`` needs all four input dims and takes them in the order register, lane, warp, block
whatever the text's order; its output dims are ``dim0``, ``dim1``, ... of the smallest power of two
above every basis value (``LinearLayout(bases, outDimNames)`` in ``lib/Tools/LinearLayout.cpp``).
A bases dict is the same with any input dim names, in the text's order, and optionally the output
dims: ``{register: [[1], [2]], lane: [[4]]} -> {dim0: 8}`` (``LinearLayout``'s own text).
"""

from __future__ import annotations

from ..errors import InvalidArgumentError, LayoutSyntaxError
from .padded import PaddedSharedLayout
from .text import Reader, Tok
from .values import LinearLayout

Value = list["Value"] | int

_LINEAR_DIMS = ("register", "lane", "warp", "block")


def _value(reader: Reader) -> Value:
    if reader.at("["):
        reader.i += 1
        items: list[Value] = []
        if reader.at("]"):
            reader.i += 1
            return items
        items.append(_value(reader))
        while reader.at(","):
            reader.i += 1
            items.append(_value(reader))
        reader.take("]", "',' or ']'")
        return items
    return reader.integer("an integer or '['")


def _dict(reader: Reader) -> list[tuple[Tok, Value]]:
    """``{key = value, ...}`` (also ``key: value``), keys as written, in order."""
    reader.take("{", "'{'")
    entries: list[tuple[Tok, Value]] = []
    while not reader.at("}"):
        if entries:
            reader.take(",", "',' or '}'")
        key = reader.peek()
        if key is None or key.kind not in ("ident", "string"):
            raise reader.fail("a name")
        reader.i += 1
        tok = reader.peek()
        if tok is None or tok.text not in ("=", ":"):
            raise reader.fail(f"'=' or ':' after {key.text}")
        reader.i += 1
        entries.append((key, _value(reader)))
    reader.take("}", "'}'")
    return entries


def _name(tok: Tok) -> str:
    return tok.text[1:-1] if tok.kind == "string" else tok.text


def _vectors(reader: Reader, key: Tok, value: Value) -> list[list[int]]:
    if isinstance(value, int) or not all(isinstance(v, list) and all(isinstance(x, int) for x in v)
                                         for v in value):
        raise LayoutSyntaxError(f"the bases of {_name(key)!r} must be a list of integer lists",
                                reader.text, key.offset)
    return [[x for x in v if isinstance(x, int)] for v in value if isinstance(v, list)]


def _linear(reader: Reader, entries: list[tuple[Tok, Value]], outs: list[tuple[str, int]] | None,
            where: Tok) -> LinearLayout:
    bases = {_name(k): _vectors(reader, k, v) for k, v in entries}
    if outs is None:
        rank = next((len(vs[0]) for vs in bases.values() if vs), 0)
        if rank == 0:
            raise LayoutSyntaxError("no basis vector gives the number of output dims (Triton refuses "
                                    "an empty layout too)", reader.text, where.offset)
        sizes = [1] * rank
        for vs in bases.values():
            for v in vs:
                for k, x in enumerate(v[:rank]):
                    sizes[k] = max(sizes[k], 1 << x.bit_length())
        outs = [(f"dim{k}", s) for k, s in enumerate(sizes)]
    try:
        return LinearLayout(tuple((n, tuple(tuple(v) for v in vs)) for n, vs in bases.items()), tuple(outs))
    except InvalidArgumentError as e:
        raise LayoutSyntaxError(str(e), reader.text, where.offset) from None


def read_ttg_linear(reader: Reader) -> LinearLayout:
    """``#ttg.linear<{register = ..., lane = ..., warp = ..., block = ...}>``."""
    start = reader.take("#ttg.linear")
    reader.take("<", "'<' after #ttg.linear")
    entries = _dict(reader)
    reader.take(">", "'>'")
    reader.end()
    by_name = {_name(k): (k, v) for k, v in entries}
    for k, _ in entries:
        if _name(k) not in _LINEAR_DIMS:
            raise LayoutSyntaxError(f"#ttg.linear has the input dims {', '.join(_LINEAR_DIMS)}, not "
                                    f"{_name(k)!r}", reader.text, k.offset)
    missing = [n for n in _LINEAR_DIMS if n not in by_name]
    if missing:
        raise LayoutSyntaxError(f"#ttg.linear needs the bases of {', '.join(missing)} (give [] for none)",
                                reader.text, start.offset)
    return _linear(reader, [by_name[n] for n in _LINEAR_DIMS], None, start)


def read_bases(reader: Reader) -> LinearLayout:
    """``{name: [[...], ...], ...}`` optionally followed by ``-> {out: size, ...}``."""
    start = reader.peek()
    if start is None:
        raise reader.fail("'{'")
    entries = _dict(reader)
    outs: list[tuple[str, int]] | None = None
    if reader.peek() is not None:
        arrow = reader.peek()
        if arrow is None or arrow.text != "->":
            raise reader.fail("'->' and the output dims, or the end of the layout")
        reader.i += 1
        outs = []
        for k, v in _dict(reader):
            if not isinstance(v, int):
                raise LayoutSyntaxError(f"the size of output dim {_name(k)!r} must be an integer",
                                        reader.text, k.offset)
            outs.append((_name(k), v))
    reader.end()
    return _linear(reader, entries, outs, start)


def read_padded_shared(reader: Reader) -> PaddedSharedLayout:
    """``#ttg.padded_shared<[I:+P, ...] {offset = [...], block = []}>`` or with ``{order = [...],
    shape = [...]}``."""
    start = reader.take("#ttg.padded_shared")
    reader.take("<", "'<' after #ttg.padded_shared")
    reader.take("[", "'[' and the interval:+pad pairs")
    padding: list[tuple[int, int]] = []
    while True:
        interval = reader.integer("an interval")
        reader.take(":", "':' after the interval")
        reader.take("+", "'+' before the pad")
        padding.append((interval, reader.integer("a pad")))
        if not reader.at(","):
            break
        reader.i += 1
    reader.take("]", "',' or ']'")
    if reader.at(","):
        reader.i += 1
    entries = {_name(k): (k, v) for k, v in _dict(reader)}
    reader.take(">", "'>'")
    reader.end()
    try:
        if "offset" in entries:
            key, value = entries["offset"]
            bases = _vectors(reader, key, value)
            block = entries.get("block")
            if block is not None and block[1] != []:
                raise LayoutSyntaxError("bases of 'block' (several CTAs) are not read: give block = []",
                                        reader.text, block[0].offset)
            rank = len(bases[0]) if bases else 1
            sizes = [1] * rank
            for v in bases:
                for k, x in enumerate(v[:rank]):
                    sizes[k] = max(sizes[k], 1 << x.bit_length())
            return PaddedSharedLayout(tuple(padding), tuple(tuple(v) for v in bases), tuple(sizes))
        if "order" in entries and "shape" in entries:
            order = entries["order"][1]
            shape = entries["shape"][1]
            if not (isinstance(order, list) and isinstance(shape, list)
                    and all(isinstance(x, int) for x in order + shape)):
                raise LayoutSyntaxError("order and shape must be integer lists", reader.text,
                                        entries["order"][0].offset)
            dims = [x for x in order if isinstance(x, int)]
            sizes = [x for x in shape if isinstance(x, int)]
            if sorted(dims) != list(range(len(sizes))):
                raise LayoutSyntaxError(f"order {dims} is not a permutation of the {len(sizes)} dims of "
                                        f"shape {sizes}", reader.text, entries["order"][0].offset)
            identity: list[tuple[int, ...]] = []
            for d in dims:
                for b in range(max(sizes[d], 1).bit_length() - 1):
                    identity.append(tuple((1 << b) if k == d else 0 for k in range(len(sizes))))
            return PaddedSharedLayout(tuple(padding), tuple(identity), tuple(sizes))
    except InvalidArgumentError as e:
        raise LayoutSyntaxError(str(e), reader.text, start.offset) from None
    raise LayoutSyntaxError("#ttg.padded_shared needs {offset = [...], block = []} or {order = [...], "
                            "shape = [...]}", reader.text, start.offset)
