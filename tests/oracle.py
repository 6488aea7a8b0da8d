"""Brute-force oracles: the definitions, enumerated with numpy, independent of ISL."""

from __future__ import annotations

import math
from collections.abc import Sequence

import islpy as isl
import numpy as np

import viewalgebra as va


def legal_lengths(view: va.View, dim: int, run: int, *, aligned: bool = False) -> list[int]:
    """Every legal vector length (docs/vectorize.md) by enumerating every piece of every candidate."""
    addr, valid = view.addresses()
    return legal_lengths_of(addr, valid, dim, run, aligned=aligned)


def legal_lengths_of(addr: np.ndarray, valid: np.ndarray, dim: int, run: int, *,
                     aligned: bool = False) -> list[int]:
    """``legal_lengths`` of a view given as its address and validity arrays."""
    addr = np.moveaxis(addr, dim, -1)
    valid = np.moveaxis(valid, dim, -1)
    size = addr.shape[-1]
    legal = []
    for v in range(1, run + 1):
        if run % v or (size % v if size else False):
            continue
        pieces_a = addr.reshape(*addr.shape[:-1], size // v, v)
        pieces_v = valid.reshape(*valid.shape[:-1], size // v, v)
        all_invalid = ~pieces_v.any(axis=-1)
        all_valid = pieces_v.all(axis=-1)
        consecutive = (pieces_a == pieces_a[..., :1] + np.arange(v)).all(axis=-1)
        good = all_invalid | (all_valid & consecutive)
        if aligned:
            good &= all_invalid | (pieces_a[..., 0] % v == 0)
        if good.all():
            legal.append(v)
    return legal


def check_witness(view: va.View, dim: int, w: va.answers.Witness) -> None:
    """Assert that a witness really refutes its length."""
    c, size = w.length, view.shape[dim]
    assert all(0 <= x < n for x, n in zip(w.point, view.shape, strict=True))
    if w.reason == "crosses the end of the dim":
        assert size % c != 0 and w.point[dim] == size - size % c
        return
    if w.reason == "misaligned":
        a = view.address(w.point)
        assert w.point[dim] % c == 0 and a is not None and a % c != 0 and w.addresses == (a,)
        return
    p, q = w.point, w.next_point
    assert q is not None and q[dim] == p[dim] + 1 and all(
        x == y for k, (x, y) in enumerate(zip(p, q, strict=True)) if k != dim)
    assert p[dim] // c == q[dim] // c, "the step lies inside one piece"
    a, b = view.address(p), view.address(q)
    assert (a, b) == w.addresses
    if w.reason == "address jump":
        assert a is not None and b is not None and b != a + 1
    else:
        assert (a is None) != (b is None)


def expected_answer(legal: list[int], cap: int | None, compatible: bool, power_of_two: bool) -> int:
    if power_of_two:
        legal = [v for v in legal if v & (v - 1) == 0]
    if cap is None:
        return legal[-1]
    if compatible:
        return math.gcd(legal[-1], cap)
    return max(v for v in legal if v <= cap)


def chain_points(chain: Sequence[va.TransformMap], points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower points and validity of upper points through a top-first chain (numpy)."""
    coords = np.asarray(points, dtype=np.int64)
    valid = np.ones(len(coords), dtype=bool)
    for m in chain:
        coords, ok = va.evaluate_array(m, coords)
        valid &= ok
    return coords, valid


def box_points(shape: Sequence[int]) -> np.ndarray:
    return np.indices(tuple(shape)).reshape(len(shape), -1).T if shape else np.zeros((1, 0), np.int64)


def images(chain: Sequence[va.TransformMap]) -> dict[tuple[int, ...], list[tuple[int, ...]]]:
    """Every image point of the chain's valid points, with all of its preimages."""
    upper = box_points(chain[0].upper_bounds)
    lower, valid = chain_points(chain, upper)
    found: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for u, lo, ok in zip(upper, lower, valid, strict=True):
        if ok:
            found.setdefault(tuple(int(c) for c in lo), []).append(tuple(int(c) for c in u))
    return found


def isl_points(s: isl.Set) -> set[tuple[int, ...]]:
    """Every point of a bounded ISL set, as tuples."""
    n = s.dim(isl.dim_type.set)
    found: list[tuple[int, ...]] = []

    def visit(p: isl.Point) -> None:
        found.append(tuple(p.get_coordinate_val(isl.dim_type.set, k).to_python()
                           for k in range(n)))

    s.foreach_point(visit)
    assert len(found) == len(set(found))
    return set(found)


def isl_graph(m: isl.Map) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The graph of a single-valued bounded ISL map: input point -> output point."""
    n_in = m.dim(isl.dim_type.in_)
    graph: dict[tuple[int, ...], tuple[int, ...]] = {}
    for p in isl_points(m.wrap()):
        assert p[:n_in] not in graph, f"not single-valued at {p[:n_in]}"
        graph[p[:n_in]] = p[n_in:]
    return graph
