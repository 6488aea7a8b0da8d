"""The answers every report command writes, as the JSON contract has them (docs/cli.md): a map's
or a view's fields, its lint, formulas, inverse, vector lengths and rocMLIR's utilities.

Each answer depends on the map or view alone (not on its name or place), so it is kept in a
bounded cache: a file that repeats a map or a view (rocMLIR's kernels share their tiling maps)
answers it once. The cached values are shared between entries and never changed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from .._analyses.invert import invert
from .._analyses.vectorize import Witness, elements_per_access, max_vector_length
from .._engine.cache import AnswerCache
from .._maps.equations import dim_names
from .._maps.lint import Finding, lint
from .._maps.syntax import ParsedMap
from .._maps.syntax import print_transform_map as print_map
from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import CoordinateError, InvalidArgumentError, InvalidTransformError, TooComplexError
from .errors import InputError, error_object

T = TypeVar("T")

_ANSWERS: AnswerCache[Hashable, Any] = AnswerCache(4096)


def _cached(key: Hashable, compute: Callable[[], T]) -> T:
    found = _ANSWERS.get(key)
    if found is None:
        found = compute()
        _ANSWERS.put(key, found)
    return found


def map_lint(m: ParsedMap) -> tuple[Finding, ...]:
    """``lint`` of a parsed map (its written affine map too)."""
    if m.map is None:
        return lint(m)
    return _cached(("lint", m.map, m.written), lambda: lint(m))


def lint_of(x: TransformMap | View) -> tuple[Finding, ...]:
    return _cached(("lint", x), lambda: lint(x))


def unusable(found: Sequence[Finding]) -> Finding | None:
    """The finding that leaves a map or view without meaning (docs/semantics.md), if any."""
    return next((f for f in found if f.code == "unusable"), None)


def unusable_error(found: Finding, label: str, line: int, what: str) -> dict[str, Any]:
    return error_object(InvalidTransformError(found.message), file=label, line=line, what=what)


def map_fields(m: ParsedMap, tm: TransformMap, usable: bool) -> dict[str, Any]:
    """What every report says of a map it can read."""
    return {"name": m.name, "form": m.form, "line": m.line, "column": m.column,
            "text": print_map(tm, affine_map=None if usable else m.written),
            "upper_bounds": list(tm.upper_bounds), "lower_bounds": list(tm.lower_bounds)}


def view_fields(name: str, view: View, line: int) -> dict[str, Any]:
    """What every report says of a view."""
    return {"name": name, "line": line, "buffer": str(view.buffer), "shape": list(view.shape),
            "maps": len(view.maps)}


def findings(found: Sequence[Finding]) -> list[dict[str, Any]]:
    return [{"code": f.code, "message": f.message, "map_index": f.map_index,
             "point": list(f.point) if f.point is not None else None} for f in found]


def moves(tm: TransformMap) -> list[str]:
    """Where each PassThrough of ``tm`` puts an upper dim it moves to another position (a
    transpose keeps the names, so its formulas read ``a = a``): ``a (upper dim 0) -> lower dim 1``."""
    return [f"{name} (upper dim {u}) -> lower dim {low}" for t in tm.ops if t.kind == "PassThrough"
            for name, u, low in zip(t.upper_names, t.upper_dims, t.lower_dims, strict=True) if u != low]


def formulas(tm: TransformMap) -> list[str]:
    """One sympy equation per lower dim, in rocMLIR's names where they are identifiers."""
    return _cached(("formulas", tm), lambda: _formulas((tm,)))


def _formulas(chain: tuple[TransformMap, ...]) -> list[str]:
    from .._maps.sympy_formulas import format_formulas, sympy_formulas

    eqs = sympy_formulas(chain, upper=dim_names(chain[0], "upper"), lower=dim_names(chain[-1], "lower"))
    return list(format_formulas(eqs))


def address(view: View) -> str:
    """The address formula, or why there is none (a chain too long to write as one formula)."""
    return _cached(("address", view), lambda: _address(view))


def _address(view: View) -> str:
    from .._maps.equations import validity_checks
    from .._maps.sympy_formulas import format_formulas, sympy_formulas

    try:
        formula = format_formulas(sympy_formulas(
            view, upper=dim_names(view.maps[0], "upper") if view.maps else None))[0]
    except TooComplexError as e:
        return f"address: no formula ({e})"
    if any(validity_checks(m) for m in view.maps) or view.narrow_links():
        return f"{formula} (where the point is valid: off the padding, inside every bound)"
    return formula


def inverse(tm: TransformMap | tuple[TransformMap, ...]) -> dict[str, Any]:
    """The exact inverse of a map or a view's chain beside rocMLIR's."""
    return _cached(("inverse", tm), lambda: _inverse(tm))


def _inverse(tm: TransformMap | tuple[TransformMap, ...]) -> dict[str, Any]:
    from .._rocmlir.inversion import rocmlir_invert

    ours, theirs = invert(tm), rocmlir_invert(tm)
    return {
        "kind": ours.kind,
        "maps": None if ours.maps is None else [print_map(m) for m in ours.maps],
        "formulas": None if ours.maps is None else _formulas(ours.maps),
        "certified": ours.certificate is not None and ours.certificate.ok,
        "reason": ours.reason,
        "witness": None if ours.witness is None else [list(p) for p in ours.witness],
        "uncovered": None if ours.uncovered is None else str(ours.uncovered),
        "rocmlir": None if theirs.maps is None else [print_map(m) for m in theirs.maps],
        "rocmlir_reason": theirs.reason,
    }


def vectors(view: View, dim: int, args: argparse.Namespace | None = None) -> dict[str, Any]:
    """The exact vector length along ``dim`` beside rocMLIR's, and with ``vectorize``'s options
    (``args``) applied."""
    if not 0 <= dim < view.rank:
        raise CoordinateError(f"dim {dim} out of range for a view of rank {view.rank}")
    length, size = getattr(args, "length", None), view.shape[dim]
    if length is not None and length < 1:
        raise InvalidArgumentError(f"--length {length}: a run length is at least 1")
    if length is not None and (length > size or size % length):
        raise InvalidArgumentError(
            f"--length {length}: must divide dim {dim}'s size {size}: runs of {length} "
            + (f"do not fit in {size}" if length > size else "would end in a partial run")
            + " (va.max_vector_length answers for partial runs, docs/vectorize.md)")
    entry = _cached(("vectors", view, dim, length), lambda: _compare(view, dim, length))
    if args is not None and (args.bits is not None or args.power_of_two or args.aligned):
        if args.bits is not None and (args.bits < 1 or args.bits % view.buffer.bits):
            raise InputError(f"--bits {args.bits}: must be a positive multiple of the element's "
                             f"{view.buffer.bits} bits ({view.buffer.dtype})")
        cap = elements_per_access(view, args.bits) if args.bits is not None else None
        options = _cached(("options", view, dim, length, cap, args.power_of_two, args.aligned),
                          lambda: max_vector_length(view, dim, length, max_elements=cap,
                                                    power_of_two=args.power_of_two, aligned=args.aligned))
        entry = entry | {"with_options": {"length": options.length, "legal": list(options.legal), "cap": cap,
                                          "witness": witness(options.witness)}}
    return entry


def _compare(view: View, dim: int, length: int | None) -> dict[str, Any]:
    from .._rocmlir.vectorization import compare_vector_lengths

    c = compare_vector_lengths(view, dim, length)
    return {"dim": dim, "size": view.shape[dim], "exact": c.exact.length, "legal": list(c.exact.legal),
            "rocmlir": c.rocmlir, "verdict": c.verdict, "witness": witness(c.exact.witness)}


def witness(w: Witness | None) -> dict[str, Any] | None:
    """Why the next length is illegal, as data (and the sentence the text output prints)."""
    if w is None:
        return None
    return {"length": w.length, "reason": w.reason, "point": list(w.point),
            "next_point": point(w.next_point), "addresses": list(w.addresses), "text": str(w)}


def point(p: Sequence[int] | None) -> list[int] | None:
    return None if p is None else list(p)


def utilities(view: View) -> dict[str, Any]:
    """The exact counterparts of rocMLIR's transform-map utilities for one view, each beside
    rocMLIR's rule: a shorter chain, the validity checks, the 64-bit decision."""
    return _cached(("utilities", view), lambda: _utilities(view))


def _utilities(view: View) -> dict[str, Any]:
    from .._rocmlir.collapse import compare_collapse
    from .._rocmlir.index_width import compare_index_width
    from .._rocmlir.validity import compare_validity

    c = compare_collapse(view)
    s = c.exact
    simplified = {
        "verdict": c.verdict, "maps": len(s.maps), "buffer": str(s.result.buffer),
        "chain": [print_map(m) for m in s.maps] if s.changed else [], "log": list(s.log),
        "certified": bool(s.certificate), "rocmlir_collapsed": [str(m) for m in c.rocmlir.collapsed],
        "witness": point(c.witness), "addresses": None if c.addresses is None else list(c.addresses)}
    v = compare_validity(view, count=False)
    validity = {
        "verdict": v.verdict, "invalid_point": point(v.exact.witness),
        "impacting_dims": list(v.exact.impacting_dims), "rocmlir_checks": [list(k) for k in v.rocmlir_checks],
        "unchecked": [{"map": u.map_index, "dim": u.dim, "bound": u.bound, "point": list(u.point),
                       "value": u.value} for u in v.unchecked],
        "needless": [{"map": n.map_index, "dim": n.dim, "bound": n.bound, "kind": n.kind,
                      "point": point(n.point)} for n in v.needless],
        "missed_dims": [d.dim for d in v.missed_dims]}
    w = compare_index_width(view)
    width = {"verdict": w.verdict, "needs_64bit": w.exact.needs_64bit, "rocmlir": w.rocmlir,
             "witness": point(w.exact.witness), "reason": w.exact.reason}
    return {"simplified": simplified, "validity": validity, "index_width": width}
