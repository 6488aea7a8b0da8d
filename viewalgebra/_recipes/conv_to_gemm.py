"""The gemm views of a forward convolution, as rocMLIR's ``--rock-conv-to-gemm`` builds them:
the filter, input and output seen as ``rock.gemm``'s A ``[G, K, M]``, B ``[G, K, N]`` and C
``[G, M, N]`` (docs/gridwise.md, Conv to gemm).

A port of mlir/lib/Dialect/Rock/Transforms/ConvToGemm.cpp (memref era: read at dd01ce1ee768,
with the ``0ipad`` names and the size-1 forms of the later version that conv_to_gemm.mlir at
186457bc4b1d tests; docs/gridwise.md, rocMLIR's sources): ``MatchLayoutsToInput``
first permutes the filter and output so that their spatial (and channel, batch) dims follow the
input's order; ``commonConvRewrite`` then builds, for a forward conv, the filter map
(``PassThrough g -> gemmG``, ``Merge`` of the non-``k`` dims in memory order ``-> gemmK``,
``PassThrough k -> gemmM``), the input's three maps (``Pad`` of ``0i``, ``1i`` to ``0ipad``,
``1ipad``; per spatial dim ``Embed{dilation, stride}`` to the filter and output coordinates, or
for a filter of size 1 ``AddDim`` with ``Embed{stride}`` or with ``PassThrough`` when the stride
is 1; ``Merge`` of ``ci, 0, 1`` to ``gemmK`` and of ``ni, 0o, 1o`` to ``gemmN`` in the order
of the dims below) and the output map (``PassThrough go, ko -> gemmG, gemmM``, ``Merge`` of the
rest ``-> gemmN``). A rocMLIR kernel pins the result map for map
(tests/data/rocmlir/bug-1550-reduction-fusion-compile-failure.mlir), and so do rocMLIR's lit
tests mlir/test/Dialect/Rock/conv_to_gemm.mlir at 186457bc4b1d (the size-1 cases) and
conv_to_gemm_layout_regularization.mlir at dd01ce1ee768 (the relayouts), copied into
tests/data/gridwise/.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._maps.buffer import Buffer
from .._maps.transform_map import TransformMap
from .._maps.view import View
from ..errors import InvalidArgumentError
from .builder import BottomUpMapBuilder
from .dims_wrappers import BottomUpTopDimsWrapper, expand_names_in_place
from .problems import ConvProblem

SPATIAL = 2
"""The spatial dims of a 2-D conv: ``0`` (height) and ``1`` (width)."""

INPUT_TO_FILTER = {"ci": "c", "0i": "0", "1i": "1", "hi": "y", "wi": "x"}
"""``MatchLayoutsToInput``: the filter dims that must follow the input's order, by input dim
(rocMLIR also lists the older names ``hi``, ``wi``, ``y``, ``x``)."""
INPUT_TO_OUTPUT = {"ni": "no", "0i": "0o", "1i": "1o", "hi": "ho", "wi": "wo"}
"""``MatchLayoutsToInput``: the output dims that must follow the input's order."""


@dataclass(frozen=True, slots=True)
class ConvGemm:
    """A forward conv as ``rock.gemm`` sees it: ``C[G, M, N] = A[G, K, M] * B[G, K, N]`` with
    ``G = g``, ``K = c*y*x``, ``M = k``, ``N = n*ho*wo`` (dims ``gemmG``, ``gemmK``, ``gemmM``,
    ``gemmN``), each a ``View`` over the conv's own buffer."""

    filter: View
    """A: ``[gemmG, gemmK, gemmM]`` over the filter."""
    input: View
    """B: ``[gemmG, gemmK, gemmN]`` over the input (padding reads are invalid points)."""
    output: View
    """C: ``[gemmG, gemmM, gemmN]`` over the output."""
    filter_layout: tuple[str, ...]
    """The filter's layout after ``MatchLayoutsToInput`` (the dims its Merge reads)."""
    output_layout: tuple[str, ...]
    """The output's layout after ``MatchLayoutsToInput``."""

    @property
    def a(self) -> View:
        return self.filter

    @property
    def b(self) -> View:
        return self.input

    @property
    def c(self) -> View:
        return self.output


def conv_to_gemm(problem: ConvProblem, *, filter_view: View | None = None, input_view: View | None = None,
                 output_view: View | None = None) -> ConvGemm:
    """The ``rock.gemm`` operands rocMLIR's ``--rock-conv-to-gemm`` makes of a forward conv.

    The views start from the conv's operands: plain buffers of ``problem``'s shapes and element
    types, or the given views (rocMLIR's operands are often views of flat kernel arguments), whose
    shapes must be the problem's. See the module docstring for the maps.

    Example: the conv of rocMLIR's kernel in bug-1550-reduction-fusion-compile-failure.mlir,
    ``ConvProblem(n=2, c=4, hi=64, wi=64, k=320, y=3, x=3, padding=(1, 1, 1, 1))`` (NCHW, KCYX,
    NKHW), gives A ``[1, 36, 320]`` through ``<PassThrough ["gemmG"] at [0] -> ["g"] at [0]>,
    <Merge{4, 3, 3} ["gemmK"] at [1] -> ["c", "0", "1"] at [2, 3, 4]>, <PassThrough ["gemmM"] at
    [2] -> ["k"] at [1]>``, B ``[1, 36, 8192]`` through ``Merge{4, 3, 3}`` and ``Merge{2, 64,
    64}``, ``Embed{1, 1}`` twice and ``Pad{1, 1, 1, 1} ["0ipad", "1ipad"]``, and C ``[1, 320,
    8192]``.
    """
    if not isinstance(problem, ConvProblem):
        raise InvalidArgumentError(f"conv_to_gemm: expected a ConvProblem, got {problem!r}")
    base_filter = _operand(filter_view, problem.filter_shape, problem.dtype, "filter_view")
    base_input = _operand(input_view, problem.input_shape, problem.dtype, "input_view")
    base_output = _operand(output_view, problem.output_shape, problem.c_dtype, "output_view")
    filter_names, base_filter = _match_layout(problem.input_layout, problem.filter_layout,
                                              INPUT_TO_FILTER, base_filter)
    output_names, base_output = _match_layout(problem.input_layout, problem.output_layout,
                                              INPUT_TO_OUTPUT, base_output)
    return ConvGemm(_on(base_filter, _filter_map(filter_names, base_filter.shape)),
                    _on(base_input, *_input_maps(problem, base_input.shape)),
                    _on(base_output, _output_map(output_names, base_output.shape)),
                    filter_names, output_names)


def _operand(view: View | None, shape: tuple[int, ...], dtype: str, what: str) -> View:
    if view is None:
        return View(Buffer(shape, dtype))
    if not isinstance(view, View):
        raise InvalidArgumentError(f"conv_to_gemm: {what} must be a View, got {view!r}")
    if view.shape != shape:
        raise InvalidArgumentError(
            f"conv_to_gemm: {what} has shape {list(view.shape)}, the problem's is {list(shape)}")
    return view


def _on(base: View, *maps: TransformMap) -> View:
    """``base`` seen through ``maps`` (listed top first); a lenient base stays lenient below."""
    return View(base.buffer, (*maps, *base.maps), strict=base.strict)


def _match_layout(from_layout: tuple[str, ...], to_layout: tuple[str, ...], mapping: dict[str, str],
                  view: View) -> tuple[tuple[str, ...], View]:
    """``makeToLayoutLikeFromLayoutAlong``: permute the dims of ``to_layout`` that ``mapping``
    names so that they follow their counterparts' order in ``from_layout``, by a ``PassThrough``
    over ``view``; unchanged when already in order."""
    expected = [mapping[n] for n in from_layout if n in mapping]
    where = {n: i for i, n in enumerate(to_layout)}
    positions = [where[n] for n in expected if n in where]
    if positions == sorted(positions):
        return to_layout, view
    order = iter(expected)
    permuted = set(expected)
    new_layout = tuple(next(order) if n in permuted else n for n in to_layout)
    relayout = BottomUpMapBuilder(to_layout, view.shape)
    BottomUpTopDimsWrapper(relayout, {n: i for i, n in enumerate(new_layout)}).pass_through(to_layout)
    return new_layout, _on(view, relayout.get())


def _filter_map(names: tuple[str, ...], shape: tuple[int, ...]) -> TransformMap:
    b = BottomUpMapBuilder(names, shape)
    b.pass_through(["gemmG"], [0], ["g"])
    b.merge("gemmK", 1, [n for n in names if n not in ("g", "k")])
    b.pass_through(["gemmM"], [2], ["k"])
    return b.get()


def _input_maps(problem: ConvProblem, shape: tuple[int, ...]) -> tuple[TransformMap, TransformMap,
                                                                       TransformMap]:
    """The input's gemm map, embed map and pad map (top first)."""
    pad = BottomUpMapBuilder(problem.input_layout, shape)
    for name in ("ni", "gi", "ci"):
        pad.pass_through(name)
    spatial = [f"{i}i" for i in range(SPATIAL)]
    padded = [f"{i}ipad" for i in range(SPATIAL)]
    pad.pad(padded, problem.padding, [pad.start_index(n) for n in spatial], spatial)
    pad_map = pad.get()

    embed = BottomUpMapBuilder.above(pad, pad_map)
    wrap = BottomUpTopDimsWrapper(embed, expand_names_in_place(
        pad, {f"{i}ipad": [f"{i}", f"{i}o"] for i in range(SPATIAL)}))
    wrap.pass_through(["ni", "gi", "ci"])
    filters, outputs = (problem.y, problem.x), (problem.ho, problem.wo)
    for i in range(SPATIAL):
        fil, out, stride = filters[i], outputs[i], problem.stride[i]
        if fil != 1:
            wrap.embed([f"{i}", f"{i}o"], [fil, out], f"{i}ipad", [problem.dilation[i], stride])
        elif stride != 1:
            wrap.add_dim(f"{i}", fil)
            wrap.embed([f"{i}o"], [out], f"{i}ipad", [stride])
        else:
            wrap.add_dim(f"{i}", fil)
            wrap.pass_through(f"{i}o", f"{i}ipad")
    embed_map = embed.get()

    gemm = BottomUpMapBuilder.above(embed, embed_map)
    gemm.pass_through(["gemmG"], [0], ["gi"])
    # matchUnderlyingOrder: merge in the order of the dims below, so no merge transposes
    to_k = sorted(["ci", *(f"{i}" for i in range(SPATIAL))], key=gemm.start_index)
    to_n = sorted(["ni", *(f"{i}o" for i in range(SPATIAL))], key=gemm.start_index)
    gemm.merge("gemmK", 1, to_k)
    gemm.merge("gemmN", 2, to_n)
    return gemm.get(), embed_map, pad_map


def _output_map(names: tuple[str, ...], shape: tuple[int, ...]) -> TransformMap:
    b = BottomUpMapBuilder(names, shape)
    b.pass_through(["gemmG"], [0], ["go"])
    b.pass_through(["gemmM"], [1], ["ko"])
    b.merge("gemmN", 2, [n for n in names if n not in ("go", "ko")])
    return b.get()
