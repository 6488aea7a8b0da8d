"""The operands of rock.gridwise_gemm (docs/gridwise.md, Gemm to gridwise): equal to the maps of
rocMLIR's kernels, of the shapes rocMLIR's gemm-to-gridwise lit test states, and, for random small
gemms, equal to the unpadded operands on the original box and invalid outside it (numpy)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

ROCMLIR = DATA / "rocmlir"


def chains(text: str) -> dict[str, va.View]:
    return {p.name: p.view for p in va.text.parse_mlir_views(text) if p.view is not None}


def below(view: va.View, drop: int) -> va.View:
    return va.View(view.buffer, view.maps[drop:], strict=False)


# (file, (A, B, C) at the gridwise op, maps the pass added to each, rock.gemm's transposes, params)
KERNELS = [
    ("bug-1550-reduction-fusion-compile-failure.mlir", ("%10", "%11", "%12"), (1, 1, 1), (True, False, False),
     dict(m_per_block=128, n_per_block=16, kpack_per_block=4, kpack=8)),
    ("bug-1546-compile-failure.mlir", ("%3", "%4", "%5"), (2, 1, 1), (False, False, False),
     dict(m_per_block=16, n_per_block=16, kpack_per_block=4, kpack=4)),
    ("regularize.mlir", ("%4", "%5", "%6"), (2, 1, 1), (False, False, False),
     dict(m_per_block=16, n_per_block=16, kpack_per_block=16, kpack=1)),
]


@pytest.mark.parametrize("file, names, added, transposed, blocks", [pytest.param(*k, id=k[0]) for k in KERNELS])
def test_the_views_are_those_of_rocmlir_kernels(file: str, names: tuple[str, str, str], added: tuple[int, int, int],
                                                transposed: tuple[bool, bool, bool], blocks: dict[str, int]) -> None:
    """Three kernels dumped after rock-gemm-to-gridwise: from the rock.gemm operands the recipe
    builds the normalize and pad maps rocMLIR built, map for map (names, dims, bounds)."""
    views = chains((ROCMLIR / file).read_text())
    theirs = [views[n] for n in names]
    gemm = gw.gemm_to_gridwise(*(below(v, k) for v, k in zip(theirs, added, strict=True)),
                               a_transposed=transposed[0], b_transposed=transposed[1], c_transposed=transposed[2],
                               **blocks)
    for mine, view in zip((gemm.a, gemm.b, gemm.c), theirs, strict=True):
        assert mine.maps == view.maps


def test_a_conv_problem_goes_all_the_way_to_rocmlirs_gridwise_operands() -> None:
    """gridwise_views of bug-1550's conv over plain buffers: the same addresses as rocMLIR's
    operands over the kernel's flat arguments (ISL)."""
    views = chains((ROCMLIR / KERNELS[0][0]).read_text())
    problem = gw.ConvProblem(n=2, c=4, hi=64, wi=64, k=320, y=3, x=3, padding=(1, 1, 1, 1))
    gemm = gw.gridwise_views(problem, **KERNELS[0][4])
    assert (gemm.size, gemm.padding) == ((1, 320, 36, 8192), (64, 28, 0))
    for mine, name in zip((gemm.a, gemm.b, gemm.c), KERNELS[0][1], strict=True):
        assert va.equivalent(mine, views[name])


def gemm_cases() -> list[tuple[str, str, dict[str, int]]]:
    """(function, body, params) of each rock.gemm function of rocMLIR's gemm_to_gridwise.mlir."""
    text = (DATA / "gridwise" / "gemm_to_gridwise.mlir").read_text()
    params = {name: dict((k, int(v)) for k, v in re.findall(r"(\w+) = (\d+)", fields))
              for name, fields in re.findall(r"^(#\w+) = #rock\.\w+<(.*)>$", text, re.M)}
    cases = []
    for part in re.split(r"(?=// CHECK-LABEL:)", text)[1:]:
        name = re.match(r"// CHECK-LABEL: func\.func @(\w+)", part)
        use = re.search(r"params = (#\w+)", part)
        if name and use and "rock.gemm" in part:
            cases.append((name.group(1), part, params[use.group(1)]))
    return cases


def memref(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("x")[:-1])


@pytest.mark.parametrize("name, body, params", [pytest.param(*c, id=c[0]) for c in gemm_cases()])
def test_rocmlir_gemm_to_gridwise_lit_checks(name: str, body: str, params: dict[str, int]) -> None:
    """mlir/test/Dialect/Rock/gemm_to_gridwise.mlir: each ``rock.transform ... : memref<X> to
    memref<Y>`` its CHECK lines state is a map of the recipe's operands (lower bounds X, upper Y),
    and a CHECK-NEXT straight to the gridwise op means the recipe adds no map."""
    gemm_op = re.search(r"rock\.gemm (tr )?%c = (tr )?%a \* (tr )?%b", body)
    shapes = re.search(r"\(%a: memref<(\w+)>, %b: memref<(\w+)>, %c: memref<(\w+)>\)", body)
    assert gemm_op and shapes
    k_per_block = params.get("kpackPerBlock", params.get("kPerBlock"))
    assert k_per_block
    gemm = gw.gemm_to_gridwise(*(va.View(va.Buffer(memref(s))) for s in shapes.groups()),
                               a_transposed=bool(gemm_op.group(2)), b_transposed=bool(gemm_op.group(3)),
                               c_transposed=bool(gemm_op.group(1)), m_per_block=params["mPerBlock"],
                               n_per_block=params["nPerBlock"], kpack_per_block=k_per_block,
                               kpack=params["kpack"], split_k_factor=params["splitKFactor"])
    mine = {(m.lower_bounds, m.upper_bounds) for v in (gemm.a, gemm.b, gemm.c) for m in v.maps}
    stated = {(memref(x), memref(y)) for x, y in
              re.findall(r"// CHECK-DAG: .*rock\.transform .* : memref<(\w+)> to memref<(\w+?)(?:\{\{\.\*\}\})?>", body)}
    assert stated <= mine
    if re.search(r"CHECK-NEXT: rock\.gridwise_gemm", body):
        assert mine == set()
    assert all(x % b == 0 for x, b in zip(gemm.a.shape[1:], (k_per_block * params["kpack"], params["mPerBlock"]),
                                          strict=True))


def test_split_k_folds_the_splits_into_g() -> None:
    """rocMLIR's gemm_pad_for_split_k: K 238 split in 3 is padded to 240, unmerged to
    [1, 3, 80, 128] and merged to [3, 80, 128]; C is seen [3, 128, 512], each split adding into
    the same element."""
    a, b, c = (va.View(va.Buffer(s)) for s in ((1, 128, 238), (1, 238, 512), (1, 128, 512)))
    gemm = gw.gemm_to_gridwise(a, b, c, a_transposed=False, b_transposed=False, c_transposed=False,
                               m_per_block=64, n_per_block=64, kpack_per_block=8, split_k_factor=3)
    assert (gemm.a.shape, gemm.b.shape, gemm.c.shape) == ((3, 80, 128), (3, 80, 512), (3, 128, 512))
    assert (gemm.size, gemm.padding, gemm.split_k) == ((3, 128, 80, 512), (0, 0, 0), 3)
    assert [va.print_transform_map(m) for m in gemm.c.maps] == [
        '#rock.transform_map<affine_map<(d0, d1, d2) -> (0, d0, d1, d2)> by [<Merge{1, 3} '
        '["gemmG"] at [0] -> ["gemmG", "gemmKSplit"] at [0, 1]>, <PassThrough ["gemmM", "gemmN"] at [1, 2] -> '
        '["gemmM", "gemmN"] at [2, 3]>] bounds = [3, 128, 512] -> [1, 3, 128, 512]>',
        '#rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)> by [<AddDim{3} ["gemmKSplit"] at [1] -> '
        '[] at []>, <PassThrough ["gemmG", "gemmM", "gemmN"] at [0, 2, 3] -> ["gemmG", "gemmM", "gemmN"] at '
        '[0, 1, 2]>] bounds = [1, 3, 128, 512] -> [1, 128, 512]>']


@st.composite
def gemms(draw: st.DrawFn) -> tuple[tuple[int, int, int, int], tuple[bool, bool, bool], bool, dict[str, int]]:
    size = (draw(st.integers(1, 2)), draw(st.integers(1, 6)), draw(st.integers(1, 7)), draw(st.integers(1, 6)))
    flags = (draw(st.booleans()), draw(st.booleans()), draw(st.booleans()))
    blocks = dict(m_per_block=draw(st.integers(1, 4)), n_per_block=draw(st.integers(1, 4)),
                  kpack_per_block=draw(st.integers(1, 3)), kpack=draw(st.integers(1, 2)),
                  split_k_factor=draw(st.integers(1, 3)))
    return size, flags, draw(st.booleans()), blocks


@given(gemms())
@settings(derandomize=True, max_examples=150, deadline=None)
def test_the_gridwise_operands_are_the_gemm_operands_padded(case: tuple[tuple[int, int, int, int],
                                                                        tuple[bool, bool, bool], bool,
                                                                        dict[str, int]]) -> None:
    """Brute force (numpy): A' at (g*s + j, k, m) reads A at (g, j*K'/s + k, m) when that K index
    and m are inside A (K' the K padded to a multiple of s), and is padding otherwise; B' likewise;
    C' at (g*s + j, m, n) writes C at (g, m, n) inside C, for every split j; every size a whole
    number of blocks."""
    (g, m, k, n), (a_t, b_t, c_t), rank2, blocks = case
    g = 1 if rank2 else g
    stored = {"a": (k, m) if a_t else (m, k), "b": (n, k) if b_t else (k, n), "c": (n, m) if c_t else (m, n)}
    views = {x: va.View(va.Buffer(shape if rank2 else (g, *shape))) for x, shape in stored.items()}
    gemm = gw.gemm_to_gridwise(views["a"], views["b"], views["c"], a_transposed=a_t, b_transposed=b_t,
                               c_transposed=c_t, **blocks)
    s = blocks["split_k_factor"]
    per_split = -(-k // s)
    assert gemm.size == (g * s, m, per_split, n)
    for view, block in zip((gemm.a, gemm.b), (blocks["kpack_per_block"] * blocks["kpack"],) * 2, strict=True):
        assert view.shape[0] == g * s and view.shape[1] % block == 0 and view.shape[1] >= per_split
    assert gemm.a.shape[2] % blocks["m_per_block"] == 0 and gemm.b.shape[2] % blocks["n_per_block"] == 0

    def address(which: str, gg: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Row-major address of the logical element (gg, i, j) of an operand as stored."""
        rows, cols = stored[which]
        transposed = {"a": not a_t, "b": b_t, "c": c_t}[which]
        r, c = (j, i) if transposed else (i, j)
        return (gg * rows + r) * cols + c

    for which, view, inner in (("a", gemm.a, m), ("b", gemm.b, n)):
        gp, kp, dp = np.indices(view.shape)
        kk = (gp % s) * per_split + kp
        inside = (kp < per_split) & (kk < k) & (dp < inner)
        expected = np.where(inside, address(which, gp // s, kk, dp), -1)
        addr, valid = view.addresses()
        assert (valid == inside).all() and (addr == expected).all()
    gp, mp, np_ = np.indices(gemm.c.shape)
    inside = (mp < m) & (np_ < n)
    addr, valid = gemm.c.addresses()
    assert (valid == inside).all() and (addr == np.where(inside, address("c", gp // s, mp, np_), -1)).all()


def test_calculate_padding_is_rocmlirs() -> None:
    assert gw.calculate_padding(320, 36, 8192, m_per_block=128, n_per_block=16, kpack_per_block=4,
                                kpack=8) == (64, 28, 0)
    assert gw.calculate_padding(1, 1, 1, m_per_block=64, n_per_block=64, kpack_per_block=16) == (63, 15, 63)
    assert gw.calculate_padding(64, 32, 64, m_per_block=64, n_per_block=64, kpack_per_block=16) == (0, 0, 0)
    assert math.prod(gw.calculate_padding(3, 5, 7, m_per_block=3, n_per_block=7, kpack_per_block=5)) == 0


def test_bad_arguments_are_refused_with_the_reason() -> None:
    a, b, c = (va.View(va.Buffer(s)) for s in ((1, 8, 4), (1, 6, 5), (1, 4, 5)))
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape(
            "gemm_to_gridwise: K differs between operands: A [G, K, M] = [1, 8, 4], B [G, K, N] = [1, 6, 5], "
            "C [G, M, N] = [1, 4, 5]")):
        gw.gemm_to_gridwise(a, b, c, a_transposed=True, b_transposed=False, c_transposed=False,
                            m_per_block=4, n_per_block=4, kpack_per_block=4)
    with pytest.raises(va.errors.InvalidArgumentError, match="m_per_block must be positive, got 0"):
        gw.calculate_padding(1, 1, 1, m_per_block=0, n_per_block=1, kpack_per_block=1)
    with pytest.raises(va.errors.InvalidArgumentError, match="a_transposed must be a bool, got 1"):
        gw.gemm_to_gridwise(a, b, c, a_transposed=1, b_transposed=False, c_transposed=False,
                            m_per_block=4, n_per_block=4, kpack_per_block=4)
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape(
            "normalize_matrix: a matrix has 2 or 3 dims, got [2, 2, 2, 2]")):
        gw.normalize_matrix(va.View(va.Buffer((2, 2, 2, 2))), False, "gemmK", "gemmM")
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape("pad_matrix: padding [-1, 0] is negative")):
        gw.pad_matrix(a, "gemmK", -1, "gemmM", 0)
    with pytest.raises(va.errors.InvalidArgumentError, match="split_k: expected a View"):
        gw.split_k(a, b, "c", 2)
    with pytest.raises(va.errors.InvalidArgumentError, match="gridwise_views: expected a GemmProblem or a ConvProblem"):
        gw.gridwise_views("gemm", m_per_block=4, n_per_block=4, kpack_per_block=4)
