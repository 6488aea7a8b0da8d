"""The operands of ``rock.gridwise_gemm``, as rocMLIR's ``--rock-gemm-to-gridwise`` builds them
from ``rock.gemm``'s: normalized to A ``[G, K, M]``, B ``[G, K, N]``, C ``[G, M, N]``, split
along K for split-K, and padded up to whole block tiles (docs/gridwise.md, Gemm to gridwise).

A port of mlir/lib/Dialect/Rock/Transforms/GemmToGridwise.cpp (memref era: ``GemmRewritePattern``;
``normalizeMatrix`` and ``padMatrix`` as read at 29eb88d59e5b, since moved to
mlir/lib/Dialect/Rock/utility/loweringUtils.cpp unchanged; ``arrangeSplitKTransform`` as
gemm_to_gridwise.mlir at dc58f1bf83a1 tests it) and of ``calculatePadding`` and
``requiredPadding`` (mlir/lib/Dialect/Rock/Tuning/GridwiseGemmParams.cpp at 86823e882d59;
docs/gridwise.md, rocMLIR's sources):

1. ``normalizeMatrix``: a 2-D operand gets a ``gemmG`` of size 1 (``AddDim``); an operand stored
   the other way round is transposed by a ``PassThrough`` (A is taken ``[K, M]``, so rocMLIR's
   untransposed A, ``[M, K]``, is the one transposed).
2. Split-K (``splitKFactor > 1``): K is padded to a multiple of the factor, each of A and B is
   unmerged to ``[G, splitK, K/splitK, D]`` and merged back to ``[G*splitK, K/splitK, D]``
   (``gemmKSplit`` the minor part of ``gemmG``); C is seen as ``[G*splitK, M, N]`` by a ``Merge``
   of ``gemmG`` into ``(gemmG, gemmKSplit)`` and an ``AddDim`` that drops ``gemmKSplit``: every
   split adds into the same C (rocMLIR's store becomes ``atomic_add``).
3. ``padMatrix``: M, N and K are padded up to multiples of ``mPerBlock``, ``nPerBlock`` and
   ``kpackPerBlock * kpack`` (dims renamed ``gemmMPad``, ...); padding reads are invalid points.

rocMLIR's kernels pin the maps (tests/data/rocmlir/bug-1550-reduction-fusion-compile-failure.mlir,
bug-1546-compile-failure.mlir, regularize.mlir) and rocMLIR's lit test
mlir/test/Dialect/Rock/gemm_to_gridwise.mlir at dc58f1bf83a1 (tests/data/gridwise/) the shapes,
split-K among them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._common.ints import integer
from .._maps.buffer import Buffer
from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import InvalidArgumentError
from .builder import BottomUpMapBuilder, TopDownMapBuilder
from .conv_to_gemm import conv_to_gemm
from .problems import ConvProblem, GemmProblem


@dataclass(frozen=True, slots=True)
class GridwiseGemm:
    """The operands of ``rock.gridwise_gemm``: ``C[G, M, N] = A[G, K, M] * B[G, K, N]`` with
    every size a whole number of block tiles."""

    a: View
    """``[G, K, M]`` (``gemmG``, ``gemmK`` or ``gemmKPad``, ``gemmM`` or ``gemmMPad``)."""
    b: View
    """``[G, K, N]``."""
    c: View
    """``[G, M, N]``."""
    size: tuple[int, int, int, int]
    """``(G, M, K, N)`` after split-K and before padding (rocMLIR's ``GemmSize`` order)."""
    padding: tuple[int, int, int]
    """``(M, K, N)`` padding added at the high end (``requiredPadding``)."""
    split_k: int = 1


def calculate_padding(m: int, k: int, n: int, *, m_per_block: int, n_per_block: int,
                      kpack_per_block: int, kpack: int = 1) -> tuple[int, int, int]:
    """``(M, K, N)`` padding that makes M, K, N whole multiples of ``m_per_block``,
    ``kpack_per_block * kpack`` and ``n_per_block`` (rocMLIR's ``calculatePadding``).

    ``kpack_per_block`` and ``kpack`` are the fields of rocMLIR's accel params
    (``#rock.xdlops_gemm_params<kpackPerBlock = 4, ..., kpack = 8>``); for general params pass
    their ``kPerBlock`` with ``kpack = 1``, as ``requiredPadding`` does.

    Example: ``calculate_padding(320, 36, 8192, m_per_block=128, n_per_block=16,
    kpack_per_block=4, kpack=8) == (64, 28, 0)``.
    """
    sizes = [_positive(v, what) for v, what in ((m, "m"), (k, "k"), (n, "n"))]
    blocks = [_positive(m_per_block, "m_per_block"),
              _positive(kpack_per_block, "kpack_per_block") * _positive(kpack, "kpack"),
              _positive(n_per_block, "n_per_block")]
    m_extra, k_extra, n_extra = ((-s) % b for s, b in zip(sizes, blocks, strict=True))
    return m_extra, k_extra, n_extra


def normalize_matrix(view: View, transpose: bool, first: str, second: str) -> View:
    """``view`` as ``[gemmG, first, second]`` (rocMLIR's ``normalizeMatrix``): a 2-D view gets
    ``gemmG`` of size 1; with ``transpose`` the view is ``[.., second, first]`` and is transposed.

    Example: a ``memref<1x12x32xf32>`` A of M 12, K 32 (rocMLIR's untransposed A):
    ``normalize_matrix(a, True, "gemmK", "gemmM")`` adds ``<PassThrough ["gemmG"] at [0] ->
    ["gemmG"] at [0]>, <PassThrough ["gemmK", "gemmM"] at [1, 2] -> ["gemmK", "gemmM"] at [2, 1]>``.
    """
    _view(view, "normalize_matrix")
    if view.rank not in (2, 3):
        raise InvalidArgumentError(f"normalize_matrix: a matrix has 2 or 3 dims, got {list(view.shape)}")
    add_group = view.rank != 3
    if not add_group and not transpose:
        return view
    names = ([] if add_group else ["gemmG"]) + ([second, first] if transpose else [first, second])
    b = BottomUpMapBuilder(names, view.shape)
    if add_group:
        b.add_dim("gemmG", 0, 1)
    else:
        b.pass_through(b.start_names[0])
    b.pass_through([first, second], [1, 2], [first, second])
    return _on(view, b.get())


def pad_matrix(view: View, first: str, first_pad: int, second: str, second_pad: int) -> View:
    """``view`` (``[G, first, second]``) padded at the high end of its last two dims
    (rocMLIR's ``padMatrix``); a padded dim is renamed ``firstPad``. Unchanged with no padding.

    Example: ``pad_matrix(a, "gemmK", 28, "gemmM", 64)`` on A ``[1, 36, 320]`` adds
    ``<Pad{0, 28} ["gemmKPad"] at [1] -> ["gemmK"] at [1]>, <Pad{0, 64} ["gemmMPad"] ...``.
    """
    _view(view, "pad_matrix")
    pads = [integer(first_pad, "pad_matrix: first_pad", InvalidArgumentError),
            integer(second_pad, "pad_matrix: second_pad", InvalidArgumentError)]
    if any(p < 0 for p in pads):
        raise InvalidArgumentError(f"pad_matrix: padding {pads} is negative")
    if view.rank != 3:
        raise InvalidArgumentError(f"pad_matrix: expected [G, {first}, {second}], got {list(view.shape)}")
    if pads == [0, 0]:
        return view
    b = BottomUpMapBuilder(["gemmG", first, second], view.shape)
    b.pass_through("gemmG")
    for name, pad in ((first, pads[0]), (second, pads[1])):
        if pad == 0:
            b.pass_through(name)
        else:
            b.pad(f"{name}Pad", [0, pad], in_names=name)
    return _on(view, b.get())


def split_k(a: View, b: View, c: View, factor: int) -> tuple[View, View, View]:
    """A ``[G, K, M]``, B ``[G, K, N]`` and C ``[G, M, N]`` split into ``factor`` parts along K
    (rocMLIR's ``arrangeSplitKTransform``): A ``[G*factor, K'/factor, M]``, B likewise, with K
    padded to ``K'``, a multiple of ``factor``; C ``[G*factor, M, N]``, each split adding into
    the same element.

    Example: ``split_k`` by 3 of A ``[1, 238, 128]`` pads K to 240, unmerges it to
    ``[1, 3, 80, 128]`` and merges that to ``[3, 80, 128]``.
    """
    for view, what in ((a, "a"), (b, "b"), (c, "c")):
        _view(view, "split_k")
        if view.rank != 3:
            raise InvalidArgumentError(f"split_k: {what} must be [G, ., .], got {list(view.shape)}")
    parts = _positive(factor, "factor")
    k = a.shape[1]
    k_pad = (-k) % parts
    a = pad_matrix(a, "gemmK", k_pad, "gemmM", 0)
    b = pad_matrix(b, "gemmK", k_pad, "gemmN", 0)
    k += k_pad
    split: list[View] = []
    for view, other in ((a, "gemmM"), (b, "gemmN")):
        unmerge = BottomUpMapBuilder(["gemmG", "gemmK", other], view.shape)
        unmerge.pass_through(["gemmG", other], [0, 3], ["gemmG", other])
        unmerge.unmerge(["gemmKSplit", "gemmK"], [1, 2], "gemmK", [parts, k // parts])
        unmerge_map = unmerge.get()
        merge = BottomUpMapBuilder.above(unmerge, unmerge_map)
        merge.merge("gemmG", 0, ["gemmG", "gemmKSplit"])
        merge.pass_through(["gemmK", other], [1, 2], ["gemmK", other])
        split.append(_on(view, merge.get(), unmerge_map))
    g, m, n = c.shape
    merge_c = TopDownMapBuilder(["gemmG", "gemmM", "gemmN"], [g * parts, m, n])
    merge_c.merge(["gemmG", "gemmKSplit"], [0, 1], "gemmG", [g, parts])
    merge_c.pass_through(["gemmM", "gemmN"], [2, 3], ["gemmM", "gemmN"])
    merge_c_map = merge_c.get()
    ignore = TopDownMapBuilder.below(merge_c, merge_c_map)
    ignore.ignore("gemmKSplit")
    ignore.pass_through(["gemmG", "gemmM", "gemmN"], [0, 1, 2], ["gemmG", "gemmM", "gemmN"])
    return split[0], split[1], _on(c, merge_c_map, ignore.get())


def gemm_to_gridwise(a: View, b: View, c: View, *, a_transposed: bool, b_transposed: bool,
                     c_transposed: bool, m_per_block: int, n_per_block: int, kpack_per_block: int,
                     kpack: int = 1, split_k_factor: int = 1) -> GridwiseGemm:
    """``rock.gemm``'s operands as ``rock.gridwise_gemm`` takes them (``GemmRewritePattern``).

    ``a``, ``b``, ``c`` and the ``*_transposed`` flags are ``rock.gemm``'s: A is ``[G, M, K]``
    (``[G, K, M]`` when ``a_transposed``), B ``[G, K, N]`` (``[G, N, K]``), C ``[G, M, N]``
    (``[G, N, M]``), each with or without its leading ``G``. The block sizes are the perf
    config's (see ``calculate_padding``).

    Example (rocMLIR's regularize.mlir, a batched gemm of ``#rock.mfma_gemm_params<kpackPerBlock
    = 16, mPerBlock = 16, nPerBlock = 16, kpack = 1, ...>``): A ``memref<12x12x32xf32>`` (M 12, K
    32, not transposed), B ``memref<12x32x12xf32>``, C ``memref<12x12x12xf32>`` become A
    ``[12, 32, 16]`` through ``<PassThrough ["gemmK", "gemmM"] at [1, 2] -> ["gemmK", "gemmM"] at
    [2, 1]>`` and ``<Pad{0, 4} ["gemmMPad"] at [2] -> ["gemmM"] at [2]>``, B ``[12, 32, 16]``
    (``gemmNPad``) and C ``[12, 16, 16]``.
    """
    for flag, what in ((a_transposed, "a_transposed"), (b_transposed, "b_transposed"),
                       (c_transposed, "c_transposed")):
        if not isinstance(flag, bool):
            raise InvalidArgumentError(f"gemm_to_gridwise: {what} must be a bool, got {flag!r}")
    factor = _positive(split_k_factor, "split_k_factor")
    a = normalize_matrix(a, not a_transposed, "gemmK", "gemmM")
    b = normalize_matrix(b, b_transposed, "gemmK", "gemmN")
    c = normalize_matrix(c, c_transposed, "gemmM", "gemmN")
    _check_shapes(a, b, c)
    if factor > 1:
        a, b, c = split_k(a, b, c, factor)
    g, k, m = a.shape
    n = b.shape[2]
    m_pad, k_pad, n_pad = calculate_padding(m, k, n, m_per_block=m_per_block, n_per_block=n_per_block,
                                            kpack_per_block=kpack_per_block, kpack=kpack)
    return GridwiseGemm(pad_matrix(a, "gemmK", k_pad, "gemmM", m_pad),
                        pad_matrix(b, "gemmK", k_pad, "gemmN", n_pad),
                        pad_matrix(c, "gemmM", m_pad, "gemmN", n_pad),
                        (g, m, k, n), (m_pad, k_pad, n_pad), factor)


def gridwise_views(problem: GemmProblem | ConvProblem, *, m_per_block: int, n_per_block: int,
                   kpack_per_block: int, kpack: int = 1, split_k_factor: int = 1) -> GridwiseGemm:
    """The ``rock.gridwise_gemm`` operands of a problem over its own buffers: a ``GemmProblem``'s
    A, B and C as stored, or a forward conv's filter, input and output through
    ``conv_to_gemm``.

    Example: ``gridwise_views(ConvProblem(n=2, c=4, hi=64, wi=64, k=320, y=3, x=3, padding=(1, 1,
    1, 1)), m_per_block=128, n_per_block=16, kpack_per_block=4, kpack=8)`` gives A ``[1, 64,
    384]``, B ``[1, 64, 8192]``, C ``[1, 384, 8192]``: the operands of ``rock.gridwise_gemm_accel``
    in rocMLIR's kernel (bug-1550-reduction-fusion-compile-failure.mlir), K padded by 28 and M by
    64.
    """
    blocks = {"m_per_block": m_per_block, "n_per_block": n_per_block,
              "kpack_per_block": kpack_per_block, "kpack": kpack, "split_k_factor": split_k_factor}
    if isinstance(problem, ConvProblem):
        gemm = conv_to_gemm(problem)
        return gemm_to_gridwise(gemm.filter, gemm.input, gemm.output, a_transposed=True,
                                b_transposed=False, c_transposed=False, **blocks)
    if not isinstance(problem, GemmProblem):
        raise InvalidArgumentError(
            f"gridwise_views: expected a GemmProblem or a ConvProblem, got {problem!r}")
    return gemm_to_gridwise(View(Buffer(problem.a_shape, problem.dtype)),
                            View(Buffer(problem.b_shape, problem.dtype)),
                            View(Buffer(problem.c_shape, problem.c_dtype)),
                            # rocMLIR's flag on A means "stored [K, M]", the problem's "stored [M, K]"
                            a_transposed=not problem.transpose_a, b_transposed=problem.transpose_b,
                            c_transposed=problem.transpose_c, **blocks)


def _check_shapes(a: View, b: View, c: View) -> None:
    (ga, ka, m), (gb, kb, n), (gc, mc, nc) = a.shape, b.shape, c.shape
    rule = (f"A [G, K, M] = {list(a.shape)}, B [G, K, N] = {list(b.shape)}, "
            f"C [G, M, N] = {list(c.shape)}")
    for ok, what in ((ga == gb == gc, "G"), (ka == kb, "K"), (m == mc, "M"), (n == nc, "N")):
        if not ok:
            raise InvalidArgumentError(f"gemm_to_gridwise: {what} differs between operands: {rule}")


def _on(view: View, *maps: TransformMap) -> View:
    return View(view.buffer, (*maps, *view.maps), strict=view.strict)


def _view(view: object, what: str) -> None:
    if not isinstance(view, View):
        raise InvalidArgumentError(f"{what}: expected a View, got {view!r}")


def _positive(value: object, what: str) -> int:
    n = integer(value, what, InvalidArgumentError)
    if n < 1:
        raise InvalidArgumentError(f"{what} must be positive, got {n}")
    return n
