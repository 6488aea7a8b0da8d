"""rocMLIR lit tests out: views written as a test of rocMLIR's ``-rock-vectorization-inference-test``
pass whose ``CHECK`` lines state the exact vector length of every dim, so that an unsound or
conservative rocMLIR answer becomes a failing rocMLIR test (docs/cli.md, ``emit-lit``).

The format is that of rocMLIR's ``mlir/test/Dialect/Rock/test_vectorization_inference.mlir`` (the
copy in ``tests/data/rocmlir/``): a RUN line; per case a function over the view's buffer, the
view's ``rock.transform`` chain, and one ``"get_length"(%view) {in_dim = D : index}`` op per dim,
each under ``// CHECK: get_length`` and ``// CHECK-SAME: result = N : index`` (with the type, so
that ``result = 1`` cannot match rocMLIR's ``result = 10``). The pass
(``mlir/test/lib/Dialect/Rock/TestVectorizationInference.cpp``, read at rocMLIR commit
e1b2c5221b37) sets the ``result`` attribute of each op to ``getMaxVectorization``'s answer for
the whole dim (no ``in_dim_len``, no ``limitForDataType``, no fusion traversal: the walk stops at
the function argument), which is what ``compare_vector_lengths(view, dim)`` puts beside the exact
length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from .._maps.buffer import Buffer
from .._maps.syntax import print_transform_map
from .._maps.view import View
from .._rocmlir.vectorization import Comparison, compare_vector_lengths
from ..errors import InvalidArgumentError

RUN = ("// RUN: rocmlir-opt -rock-vectorization-inference-test \\\n"
       "// RUN: -allow-unregistered-dialect %s \\\n"
       "// RUN: | FileCheck %s\n")
"""The RUN line of rocMLIR's vectorization-inference tests."""


@dataclass(frozen=True, slots=True)
class LitCase:
    """One view as a test case: the function's name, the view, and each dim's exact length beside
    rocMLIR's."""

    name: str
    view: View
    dims: tuple[Comparison, ...]
    source: str = ""
    """Where the view was read (a comment above the function), if anywhere."""

    @property
    def differs(self) -> bool:
        """Whether rocMLIR's answer differs from the exact one along some dim."""
        return any(c.verdict != "equal" for c in self.dims)

    @property
    def unsound(self) -> bool:
        """Whether rocMLIR's answer is illegal along some dim."""
        return any(c.verdict == "rocMLIR unsound" for c in self.dims)


def lit_case(name: str, view: View, source: str = "") -> LitCase:
    """``view`` as a case named ``name`` (made a valid MLIR symbol), every dim compared."""
    return LitCase(symbol(name), view, tuple(compare_vector_lengths(view, d) for d in range(view.rank)),
                   source)


def symbol(name: str) -> str:
    """``name`` as a bare MLIR symbol name (``@name``): characters other than letters, digits and
    ``_`` become ``_``, and a leading digit gets a ``v`` before it."""
    out = re.sub(r"[^A-Za-z0-9_]", "_", name.lstrip("@%")) or "view"
    return f"v{out}" if out[0].isdigit() else out


def lit_text(cases: Iterable[LitCase], *, generic: bool = False) -> str:
    """The test file of ``cases`` (names made unique by a ``_N`` suffix); ``generic``: the ops in
    MLIR's generic form (as ``mlir-opt --mlir-print-op-generic``), which MLIR's own parser reads
    without the rock dialect."""
    parts = [RUN]
    seen: set[str] = set()
    for case in cases:
        name, n = case.name, 1
        while name in seen:
            n += 1
            name = f"{case.name}_{n}"
        seen.add(name)
        parts.append(_function(case, name, generic))
    return "\n".join(parts)


def _memref(shape: tuple[int, ...], dtype: str) -> str:
    return str(Buffer(shape, dtype))


def _function(case: LitCase, name: str, generic: bool) -> str:
    view = case.view
    lines = [f"// {case.source}"] if case.source else []
    for c in case.dims:
        lines.append(f"// dim {c.dim}: exact {c.exact.length}, rocMLIR {c.rocmlir} ({c.verdict})")
    buffer = str(view.buffer)
    lines.append(f"// CHECK-LABEL: @{name}")
    lines.append(f'"func.func"() <{{function_type = ({buffer}) -> (), sym_name = "{name}"}}> ({{\n'
                 f"^bb0(%buf: {buffer}):" if generic else f"func.func @{name}(%buf: {buffer}) {{")
    value, below = "%buf", buffer
    for i, m in enumerate(reversed(view.maps)):  # bottom map first: each applies to the value below
        above = _memref(m.upper_bounds, view.buffer.dtype)
        lines.append(f'  %{i} = "rock.transform"({value}) <{{transform = {print_transform_map(m)}}}> : '
                     f"({below}) -> {above}" if generic else
                     f"  %{i} = rock.transform {value} by {print_transform_map(m)} : {below} to {above}")
        value, below = f"%{i}", above
    for c in case.dims:
        lines += ["  // CHECK: get_length", f"  // CHECK-SAME: result = {c.exact.length} : index",
                  f'  "get_length"({value}) {{in_dim = {c.dim} : index}} : ({below}) -> ()']
    lines += ['  "func.return"() : () -> ()', "}) : () -> ()"] if generic else ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def emit_lit(views: Mapping[str, View] | Iterable[View], *, all_views: bool = False,
             generic: bool = False) -> str:
    """A rocMLIR ``-rock-vectorization-inference-test`` lit test whose ``CHECK`` values are the
    exact vector lengths of every dim of each view where rocMLIR's answer differs (every view
    with ``all_views=True``); views given by name (a mapping) get their function named after it.
    ``generic=True`` writes the ops in MLIR's generic form (MLIR's own parser reads it).

    Example: the view of ``examples/rocmlir_differences.mlir``'s first function gives one case,
    ``// CHECK-SAME: result = 12 : index`` where rocMLIR answers 24.
    """
    named: list[tuple[object, object]] = (
        list(cast("Mapping[object, object]", views).items()) if isinstance(views, Mapping)
        else [(f"view{i}", v) for i, v in enumerate(views)])
    checked: list[tuple[str, View]] = []
    for name, v in named:
        if not isinstance(name, str) or not isinstance(v, View):
            raise InvalidArgumentError(f"emit_lit: expected Views (or names to Views), got {name!r}: "
                                       f"{type(v).__name__}")
        checked.append((name, v))
    cases = (lit_case(name, v) for name, v in checked)
    return lit_text((c for c in cases if all_views or c.differs), generic=generic)
