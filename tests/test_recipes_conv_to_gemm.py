"""The gemm views of a forward conv (docs/gridwise.md, Conv to gemm): equal to the maps rocMLIR
builds (a whole kernel after conv-to-gemm, and the CHECK lines of rocMLIR's conv-to-gemm lit
tests), and, for random small convs, reading exactly what the convolution formula reads (numpy)."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA

import viewalgebra as va
import viewalgebra.gridwise as gw

GRIDWISE = DATA / "gridwise"
BUG_1550 = (DATA / "rocmlir" / "bug-1550-reduction-fusion-compile-failure.mlir").read_text()


def chains(text: str) -> dict[str, va.View]:
    """The views an ``.mlir`` text builds, by the SSA value at their top."""
    return {p.name: p.view for p in va.text.parse_mlir_views(text) if p.view is not None}


def below(view: va.View, drop: int) -> va.View:
    """``view`` without its top ``drop`` maps."""
    return va.View(view.buffer, view.maps[drop:], strict=False)


def test_the_views_are_those_of_a_rocmlir_kernel() -> None:
    """bug-1550's kernel after rock-gemm-to-gridwise: a 3x3 conv, padding 1, NCHW family. From its
    conv operands (views of the kernel's flat arguments) the recipe builds rocMLIR's maps, equal
    map for map and as relations."""
    views = chains(BUG_1550)
    a, b, c = (below(views[name], 1) for name in ("%10", "%11", "%12"))  # minus rock-gemm-to-gridwise's pads
    problem = gw.ConvProblem(n=2, c=4, hi=64, wi=64, k=320, y=3, x=3, padding=(1, 1, 1, 1))
    gemm = gw.conv_to_gemm(problem, filter_view=below(a, 1), input_view=below(b, 3), output_view=below(c, 1))
    for mine, theirs in ((gemm.a, a), (gemm.b, b), (gemm.c, c)):
        assert mine.maps == theirs.maps
        assert va.equivalent(mine, theirs)
    assert (gemm.filter_layout, gemm.output_layout) == (problem.filter_layout, problem.output_layout)


def conv_cases(text: str) -> list[tuple[str, list[str], str]]:
    """(function, CHECK lines, body) of each function of a lit test."""
    cases = []
    for part in re.split(r"(?=// CHECK-LABEL:)", text)[1:]:
        name = re.match(r"// CHECK-LABEL: @(\w+)", part)
        assert name
        checks = re.findall(r"^// (CHECK(?:-NOT)?): (.*)$", part, re.M)
        cases.append((name.group(1), [f"{k}: {v}" for k, v in checks], part))
    return cases


def shape(memref: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.fullmatch(r"memref<([\dx]+)x\w+>", memref).group(1).split("x"))


def problem_of(body: str) -> tuple[gw.ConvProblem, tuple[str, str, str | None]]:
    """The ConvProblem of a ``rock.conv`` (or the conv of a ``rock.conv_elementwise_gemm``) and its
    operand values."""
    def attr(name: str) -> list[str]:
        m = re.search(rf"{name} = \[([^\]]*)\]", body)
        assert m
        return [x.strip().strip('"').split(" : ")[0] for x in m.group(1).split(",")]

    conv = re.search(r"rock\.conv\((%\w+), (%\w+), (%\w+)\).*: (memref<\S+>), (memref<\S+>), (memref<\S+>)\n", body)
    if conv:
        operands: tuple[str, str, str | None] = (conv.group(1), conv.group(2), conv.group(3))
        fshape, ishape = shape(conv.group(4)), shape(conv.group(5))
        output = attr("output_layout")
    else:
        fused = re.search(r"ab = conv\((%\w+), (%\w+)\) : (memref<\S+>), (memref<\S+>)\n", body)
        assert fused
        operands = (fused.group(1), fused.group(2), None)
        fshape, ishape = shape(fused.group(3)), shape(fused.group(4))
        output = ["no", "0o", "1o", "go", "ko"]  # the fused conv has no output operand
    flayout, ilayout = attr("filter_layout"), attr("input_layout")
    f, i = dict(zip(flayout, fshape, strict=True)), dict(zip(ilayout, ishape, strict=True))
    strides, dilations, padding = (tuple(int(x) for x in attr(n)) for n in ("strides", "dilations", "padding"))
    problem = gw.ConvProblem(n=i["ni"], c=f["c"], hi=i["0i"], wi=i["1i"], k=f["k"], y=f["0"], x=f["1"], g=f["g"],
                             padding=padding, stride=strides, dilation=dilations,
                             filter_layout=flayout, input_layout=ilayout, output_layout=output)
    return problem, operands


CONV_TO_GEMM = (GRIDWISE / "conv_to_gemm.mlir").read_text()


@pytest.mark.parametrize("name, checks, body", [pytest.param(*c, id=c[0]) for c in conv_cases(CONV_TO_GEMM)])
def test_rocmlir_conv_to_gemm_lit_checks(name: str, checks: list[str], body: str) -> None:
    """mlir/test/Dialect/Rock/conv_to_gemm.mlir: FileCheck's rules on the maps the recipe prints
    (a CHECK line is text of some map of the input's gemm view, a CHECK-NOT text of none), over
    the test's own operand views."""
    problem, (f, i, o) = problem_of(body)
    views = chains(CONV_TO_GEMM.split("// CHECK-LABEL")[0] + body)  # with the file's #map aliases
    gemm = gw.conv_to_gemm(problem, filter_view=views[f], input_view=views[i],
                           output_view=views[o] if o else None)
    printed = [va.print_transform_map(m) for m in gemm.input.maps]
    done = 0
    for check in checks:
        kind, text = check.split(": ", 1)
        if text.startswith("rock.gemm"):
            continue  # the op, not a map
        if kind == "CHECK":
            assert any(text in p for p in printed), f"{name}: {text}"
        else:
            assert not any(text in p for p in printed), f"{name}: {text}"
        done += 1
    assert done >= 1
    assert gemm.input.shape == (problem.g, problem.c * problem.y * problem.x,
                                problem.n * problem.ho * problem.wo)


def test_rocmlir_layout_regularization_lit_checks() -> None:
    """mlir/test/Dialect/Rock/conv_to_gemm_layout_regularization.mlir: a gkyxc filter and an hwgkn
    output are permuted to the ngchw input's order, by the maps its FWD lines state (the sizes,
    rocmlir-gen's defaults, do not enter these maps)."""
    text = (GRIDWISE / "conv_to_gemm_layout_regularization.mlir").read_text()
    aliases = dict(re.findall(r"^// FWD: (#map\d*) = (affine_map<.*>)$", text, re.M))
    lines = re.findall(r"^// FWD(?:-SAME|-NEXT)?: (.*)$", text, re.M)
    expected = [f"{aliases[m]} by [{same}" for m, same in
                zip(re.findall(r"#rock\.transform_map<(#map\d*) by", "\n".join(lines)),
                    [x for x in lines if x.startswith("<PassThrough")], strict=True)]
    problem = gw.ConvProblem(n=2, c=3, hi=5, wi=6, k=4, y=3, x=2, padding=(1, 1, 0, 0),
                             filter_layout=("g", "k", "0", "1", "c"), input_layout=("ni", "gi", "ci", "0i", "1i"),
                             output_layout=("0o", "1o", "go", "ko", "no"))
    gemm = gw.conv_to_gemm(problem)
    relayouts = [va.print_transform_map(gemm.filter.maps[1]), va.print_transform_map(gemm.output.maps[1])]
    assert len(expected) == 2
    for want, got in zip(expected, relayouts, strict=True):
        assert want in got
    assert (gemm.filter_layout, gemm.output_layout) == (("g", "k", "c", "0", "1"), ("no", "0o", "go", "ko", "1o"))
    assert not any("Unfold" in r for r in relayouts)


LAYOUTS = (["g", "k", "c", "0", "1"], ["ni", "gi", "ci", "0i", "1i"], ["no", "go", "ko", "0o", "1o"])


@st.composite
def convs(draw: st.DrawFn) -> gw.ConvProblem:
    layouts = [tuple(draw(st.permutations(names))) for names in LAYOUTS]
    size = st.integers(1, 3)
    problem = dict(n=draw(size), g=draw(st.integers(1, 2)), c=draw(size), k=draw(st.integers(1, 2)),
                   hi=draw(st.integers(1, 5)), wi=draw(st.integers(1, 5)), y=draw(size), x=draw(size),
                   padding=tuple(draw(st.lists(st.integers(0, 2), min_size=4, max_size=4))),
                   stride=(draw(st.integers(1, 2)), draw(st.integers(1, 2))),
                   dilation=(draw(st.integers(1, 2)), draw(st.integers(1, 2))))
    top, bottom, left, right = problem["padding"]
    assume(problem["hi"] + top + bottom > problem["dilation"][0] * (problem["y"] - 1))
    assume(problem["wi"] + left + right > problem["dilation"][1] * (problem["x"] - 1))
    return gw.ConvProblem(**problem, filter_layout=layouts[0], input_layout=layouts[1],
                          output_layout=layouts[2])


def coordinates(view: va.View, layout: tuple[str, ...]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Brute force: every point's buffer coordinates by dim name (from its address) and validity."""
    addr, valid = view.addresses()
    coords = np.unravel_index(np.where(valid, addr, 0), view.buffer.shape)
    return dict(zip(layout, coords, strict=True)), valid


@given(convs())
@settings(derandomize=True, max_examples=150, deadline=None)
def test_the_gemm_views_read_what_the_convolution_reads(problem: gw.ConvProblem) -> None:
    """At every (g, k, n) of B, the input element ``input[n, g, c, ho*sh + y*dh - top, wo*sw + x*dw -
    left]`` (or padding, an invalid point), where A's (g, k, m) names the filter element ``(g, m,
    c, y, x)`` and C's (g, m, n) the output element ``(n, g, m, ho, wo)``; A and C cover their
    buffers once. All by numpy enumeration of the three views."""
    gemm = gw.conv_to_gemm(problem)
    G, K, N = problem.g, problem.c * problem.y * problem.x, problem.n * problem.ho * problem.wo
    assert (gemm.a.shape, gemm.b.shape, gemm.c.shape) == ((G, K, problem.k), (G, K, N), (G, problem.k, N))

    f, f_valid = coordinates(gemm.a, problem.filter_layout)
    o, o_valid = coordinates(gemm.c, problem.output_layout)
    for view, valid in ((gemm.a, f_valid), (gemm.c, o_valid)):
        addr, _ = view.addresses()
        assert valid.all() and sorted(addr.ravel().tolist()) == list(range(math.prod(view.buffer.shape)))
    g_idx, k_idx, m_idx = np.indices(gemm.a.shape)
    assert (f["g"] == g_idx).all() and (f["k"] == m_idx).all()
    # gemmK -> (c, y, x) and gemmN -> (n, ho, wo) as A and C say; the same for every g and m
    c, y, x = (f[d][0, :, 0] for d in ("c", "0", "1"))
    assert all((f[d] == f[d][:1, :, :1]).all() for d in ("c", "0", "1"))
    g2, m2, _ = np.indices(gemm.c.shape)
    assert (o["go"] == g2).all() and (o["ko"] == m2).all()
    n, ho, wo = (o[d][0, 0, :] for d in ("no", "0o", "1o"))

    top, _, left, _ = problem.padding
    h = ho[None, :] * problem.stride[0] + y[:, None] * problem.dilation[0] - top
    w = wo[None, :] * problem.stride[1] + x[:, None] * problem.dilation[1] - left
    inside = (h >= 0) & (h < problem.hi) & (w >= 0) & (w < problem.wi)
    at = {"ni": n[None, :], "ci": c[:, None], "0i": h, "1i": w}
    expected = np.empty(gemm.b.shape, dtype=np.int64)
    for g in range(G):
        coords = [np.broadcast_to(at[d] if d != "gi" else g, inside.shape) for d in problem.input_layout]
        expected[g] = np.where(inside, np.ravel_multi_index([np.where(inside, x_, 0) for x_ in coords],
                                                            problem.input_shape), -1)
    addr, valid = gemm.b.addresses()
    assert (valid == (expected >= 0)).all() and (addr == expected).all()


def test_the_size_one_filters_take_rocmlirs_special_forms() -> None:
    """A 1x1 filter: AddDim and PassThrough at stride 1, AddDim and Embed{stride} otherwise; the
    relation is the general Embed's all the same (ISL)."""
    for stride in (1, 2):
        problem = gw.ConvProblem(n=2, c=3, hi=5, wi=4, k=2, y=1, x=1, stride=(stride, 1), padding=(1, 0, 0, 1))
        kinds = [op.kind for op in gw.conv_to_gemm(problem).input.maps[1].ops]
        assert kinds == ["PassThrough", "AddDim", "Embed" if stride == 2 else "PassThrough", "AddDim", "PassThrough"]


def convolution(weights: np.ndarray, image: np.ndarray, problem: gw.ConvProblem) -> np.ndarray:
    """The forward convolution by its definition: ``out[n, g, k, i, j] = sum over c, y, x of
    w[g, k, c, y, x] * in[n, g, c, i*sh + y*dh - top, j*sw + x*dw - left]`` (zero outside)."""
    top, _, left, _ = problem.padding
    out = np.zeros((problem.n, problem.g, problem.k, problem.ho, problem.wo), dtype=np.int64)
    for i, j, y, x in itertools.product(range(problem.ho), range(problem.wo), range(problem.y), range(problem.x)):
        h = i * problem.stride[0] + y * problem.dilation[0] - top
        w = j * problem.stride[1] + x * problem.dilation[1] - left
        if 0 <= h < problem.hi and 0 <= w < problem.wi:
            out[:, :, :, i, j] += np.einsum("gkc,ngc->ngk", weights[:, :, :, y, x], image[:, :, :, h, w])
    return out


def test_the_gemm_of_the_views_is_the_convolution_in_every_layout() -> None:
    """Relayouts and merge orders change the maps, never the result: A times B through the views,
    written through C, is the convolution computed from its definition, for layouts of the
    filter, input and output taken across their permutations."""
    rng = np.random.default_rng(0)
    base = dict(n=2, g=2, c=2, hi=4, wi=3, k=2, y=2, x=2, padding=(1, 0, 0, 1), stride=(2, 1), dilation=(1, 2))
    weights = rng.integers(-3, 4, size=(2, 2, 2, 2, 2))  # g, k, c, y, x
    image = rng.integers(-3, 4, size=(2, 2, 2, 4, 3))    # n, g, c, h, w
    layouts = itertools.product(*(itertools.permutations(names) for names in LAYOUTS))
    for filt, inp, outp in itertools.islice(layouts, 0, None, 20011):
        problem = gw.ConvProblem(**base, filter_layout=filt, input_layout=inp, output_layout=outp)
        gemm = gw.conv_to_gemm(problem)
        a_addr, _ = gemm.a.addresses()
        b_addr, b_valid = gemm.b.addresses()
        a = weights.transpose([LAYOUTS[0].index(d) for d in filt]).ravel()[a_addr]
        b = np.where(b_valid, image.transpose([LAYOUTS[1].index(d) for d in inp]).ravel()[np.where(b_valid, b_addr, 0)], 0)
        out = np.zeros(problem.output_shape, dtype=np.int64).ravel()
        c_addr, _ = gemm.c.addresses()
        out[c_addr] = np.einsum("gkm,gkn->gmn", a, b)
        result = out.reshape(problem.output_shape).transpose([outp.index(d) for d in LAYOUTS[2]])
        assert (result == convolution(weights, image, problem)).all(), (filt, inp, outp)


def test_bad_arguments_are_refused_with_the_reason() -> None:
    problem = gw.ConvProblem(n=1, c=1, hi=3, wi=3, k=1, y=1, x=1)
    with pytest.raises(va.errors.InvalidArgumentError, match=re.escape(
            "conv_to_gemm: input_view has shape [1, 1, 1, 3, 4], the problem's is [1, 1, 1, 3, 3]")):
        gw.conv_to_gemm(problem, input_view=va.View(va.Buffer((1, 1, 1, 3, 4))))
    with pytest.raises(va.errors.InvalidArgumentError, match="conv_to_gemm: expected a ConvProblem"):
        gw.conv_to_gemm(gw.GemmProblem(m=1, n=1, k=1))
