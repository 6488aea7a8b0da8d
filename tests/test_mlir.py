"""The MLIR front end: rocMLIR's files read into kernel graphs, written back, read again; their
regularize tests reproduced from the files, checked by their CHECK lines and by the interpreter."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rocmlir_data import DATA, ROCMLIR_FILES

import viewalgebra as va

ROCMLIR = DATA / "rocmlir"


def read(name: str) -> va.mlir.MlirModule:
    return va.read_mlir((ROCMLIR / name).read_text())


def same_kernel(a: va.kernel.Kernel, b: va.kernel.Kernel) -> None:
    """The same graph up to the order values are declared: buffers, views (as relations), ops."""
    assert a.name == b.name
    assert [(op.kind, op.root) for op in a.ops] == [(op.kind, op.root) for op in b.ops]
    for x, y in zip(a.ops, b.ops, strict=True):
        us, vs = [*x.reads, *x.writes], [*y.reads, *y.writes]
        if x.attr("opaque", None) is not None:
            # An op kept verbatim reads and writes every value it names, in no order that means
            # anything: custom and generic form name them in different orders (rock.buffer_load).
            us, vs = sorted(us, key=lambda u: _key(a, u)), sorted(vs, key=lambda v: _key(b, v))
        for u, v in zip(us, vs, strict=True):
            (bu, mu), (bv, mv) = a.chain(u), b.chain(v)
            if a.values[bu].kind == "argument":  # arguments keep their names
                assert a.values[bu] == b.values[bv]
            else:  # allocations may be renamed
                assert (a.shape(bu), a.dtype(bu)) == (b.shape(bv), b.dtype(bv))
            assert a.shape(u) == b.shape(v)
            if mu != mv:
                assert va.equivalent(a.view_of(u), b.view_of(v)), (x.name, u, v)


def _key(k: va.kernel.Kernel, value: str) -> tuple[str, tuple[int, ...], str]:
    """An operand of an op kept verbatim, as both forms agree on it: an argument by its name."""
    buffer = k.chain(value)[0]
    return (buffer if k.values[buffer].kind == "argument" else "", k.shape(value), k.dtype(value))


# {{{ every file

# Functions of rocMLIR's test files that cannot be a kernel graph, with the reason. rocMLIR
# does not check a rock.transform's types against its map's bounds, and some tests rely on it.
UNREADABLE = {
    "test_collapse_contiguous_merges.mlir": {
        "test_wrong_shape": "lower bounds [4, 3, 2, 5] != the shape of arg0 [5, 4, 3, 5]"},
    "test_vectorization_inference.mlir": {
        "test_merge_transpose_transposing_embed": "lower bounds [24] != the shape of buf [12]",
        **{name: "the result type's shape [8, 4] differs from the map's upper bounds [4, 8]" for name in (
            "test_fusions_ignored_by_default", "test_fusion_traversal", "test_fusion_traversal_fail",
            "test_input_fusion_traversal_good", "test_input_fusion_traversal_bad")}},
    "unknown-path__regularize_input_fusion_rock_gemm_tr.mlir": {
        "rock_gemm": "30:77: the result type's shape [1, 16, 32] differs from the map's upper bounds [1, 32, 16]"},
}


@pytest.mark.parametrize("path", ROCMLIR_FILES, ids=lambda p: p.name)
def test_every_file_reads_writes_and_reads_again(path):
    module = va.read_mlir(path.read_text(), errors="collect")
    if path.name == "invalid.transform-verifier-excerpt.mlir":
        # Each function tests one verifier message: each fails with it, located in the file.
        assert len(module.unreadable) == 23 and not module.functions
        assert str(module.unreadable[0].error) == "21:62: Have 2 names for 1 dimensions"
        return
    expected = UNREADABLE.get(path.name, {})
    found = {u.name: str(u.error) for u in module.unreadable}
    assert set(found) == set(expected)
    for name, reason in expected.items():
        assert re.match(r"\d+:\d+: ", found[name]) and reason in found[name]
    readable = va.mlir.MlirModule(tuple(i for i in module.items if not isinstance(i, va.mlir.Unreadable)))
    text = va.write_mlir(readable)
    again = va.read_mlir(text)
    assert va.write_mlir(again) == text
    for f, g in zip(readable.functions, again.functions, strict=True):
        same_kernel(f.kernel, g.kernel)
        assert f.is_kernel == g.is_kernel


def test_the_kernels_in_the_regularize_tests_are_kernels():
    kernels = {p.name: [f.name for f in va.read_mlir(p.read_text(), errors="collect").functions if f.is_kernel]
               for p in ROCMLIR_FILES}
    assert kernels["regularize.mlir"] == ["bert_part_11__part_0"]
    assert kernels["input-output-fusion-regularize.mlir"] == ["rock_gemm"]  # rock.kernel
    assert kernels["bug-1550-reduction-fusion-compile-failure.mlir"] != []


# }}}
# {{{ bad input


@pytest.mark.parametrize(("text", "message"), [
    ("func.func @f(%a: memref<4xf32>) {\n  memref.copy %a, %b : memref<4xf32> to memref<4xf32>\n  return\n}",
     "2:19: %b is not defined (or not a memref)"),
    ("func.func @f(%a: memref<4xf32>) {\n  %0 = rock.transform %a by <affine_map<(d0) -> (d0)> by "
     "[<PassThrough [\"x\"] at [0] -> [\"x\"] at [0]>] bounds = [4] -> [4]\n  return\n}",
     "4:1: '}' closes '<' opened at 2:29"),
    ("func.func @f(%a: memref<4xf32>) {\n  %0 = rock.transform %a by <affine_map<(d0) -> (d0)> by "
     "[<PassThrough [\"x\"] at [0] -> [\"x\"] at [0]>] bounds = [4] -> [5]> : memref<4xf32> to memref<4xf32>\n}",
     "2:8: rock.transform: view of a: the last map's lower bounds [5] != the shape of a [4]"),
    ("func.func @f(%a: memref<4xf32>) {\n  %0 = rock.transform %a by #nope : memref<4xf32> to memref<4xf32>\n}",
     "2:29: undefined transform map #nope"),
    ("func.func @f(%a: memref<4xf32>) {\n  %0 = rock.transform %a by <affine_map<(d0) -> (d0)> by "
     "[<PassThrough [\"x\", \"y\"] at [0] -> [\"x\"] at [0]>] bounds = [4] -> [4]> : memref<4xf32> to memref<4xf32>\n}",
     "2:59: Have 2 names for 1 dimensions"),
    ("func.func @f(%a: memref<4xf32>, %b: memref<2x2xf32>) {\n  memref.copy %a, %b : memref<4xf32> to "
     "memref<4xf32>\n}", "2:41: target: the type says [4] but %b has shape [2, 2]"),
    ("func.func @f(%a: memref<4xf32>) {\n  memref.copy %a, %a : memref<4xf32> to memref<4xf32> junk\n}",
     "2:55: expected the end of memref.copy, found 'junk'"),
    ("func.func @f(%a: memref<4xf32>) {\n  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], "
     "iterator_types = [\"parallel\"]} outs(%a : memref<4xf32>) {\n  ^bb0(%o: f32):\n  }\n}",
     "4:3: expected 'linalg.yield' ending the linalg.generic body"),
    ("func.func @f(%a: memref<4xf32>) {\n  memref.copy %a, %a : memref<4xf32> to memref<4xf32>\n",
     "1:33: '{' is never closed"),
    ("func.func @f(%a: memref<4xf32>) {\n  memref.copy %a, %a ; memref<4xf32>\n}", "2:22: unexpected character ';'"),
    ("garbage here", "1:1: expected a function, an alias '#name = ...' or a module, found 'garbage'"),
])
def test_bad_input_gives_a_located_error(text, message):
    with pytest.raises(va.errors.MlirParseError) as info:
        va.read_mlir(text)
    assert str(info.value) == message or message.endswith(": ") and str(info.value).startswith(message)


def test_unknown_ops_are_kept_as_opaque_ops():
    f = va.read_mlir("func.func @f(%a: memref<4xf32>) {\n  %x = memref.alloca() : memref<4xf32>\n  gpu.barrier\n"
                     "  %y = tensor.empty() : tensor<4xf32>\n"
                     "  memref.copy %x, %a : memref<4xf32> to memref<4xf32>\n}").functions[0]
    # Unknown ops read and write every graph value they name; what they define is opaque.
    assert [(op.kind, op.attr("opaque")) for op in f.kernel.ops] == [
        ("gpu.barrier", "3:3"), ("tensor.empty", "4:8"), ("memref.copy", None)]


def test_every_truncation_of_a_kernel_fails_cleanly():
    text = (ROCMLIR / "regularize.mlir").read_text()
    cut = text.index("return\n}")
    for end in range(0, cut, 97):
        try:
            va.read_mlir(text[:end])
        except va.errors.MlirParseError as e:
            assert re.match(r"\d+:\d+: ", str(e))


TEXTS = [p.read_text() for p in ROCMLIR_FILES]


@pytest.mark.slow
@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.data())
def test_garbled_files_read_or_fail_cleanly(data):
    """Random deletions, insertions and replacements in rocMLIR's files: the reader returns a
    module (which writes back) or raises MlirParseError, never anything else."""
    text = list(data.draw(st.sampled_from(TEXTS)))
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text) - 1))
        kind = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        char = data.draw(st.sampled_from(list('%@#^<>()[]{},=:*|-+"\n abcx019.')))
        if kind == "delete":
            del text[pos:pos + data.draw(st.integers(1, 20))]
        elif kind == "insert":
            text.insert(pos, char)
        else:
            text[pos] = char
    try:
        module = va.read_mlir("".join(text), errors="collect")
    except va.errors.MlirParseError:
        return
    readable = va.mlir.MlirModule(tuple(i for i in module.items if not isinstance(i, va.mlir.Unreadable)))
    va.read_mlir(va.write_mlir(readable))


# }}}
# {{{ linalg.generic


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.data())
def test_indexing_maps_read_as_numpy_broadcasting(data):
    """An input read through ``(d0, ..., dn) -> (d_p0, ..., d_pk)`` equals numpy's transpose +
    broadcast of the input to the loops."""
    rank = data.draw(st.integers(1, 3))
    space = tuple(data.draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank)))
    used = data.draw(st.lists(st.integers(0, rank - 1), unique=True, max_size=rank))
    constant = data.draw(st.booleans())
    results = [f"d{d}" for d in used] + (["0"] if constant else [])
    operand = tuple(space[d] for d in used) + ((1,) if constant else ())
    dims = ", ".join(f"d{i}" for i in range(rank))
    iterators = ", ".join(['"parallel"'] * rank)
    text = (f"func.func @f(%a: {memref(operand)}, %b: {memref(space)}) {{\n"
            f"  linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({', '.join(results)})>, "
            f"affine_map<({dims}) -> ({dims})>], iterator_types = [{iterators}]}} "
            f"ins(%a : {memref(operand)}) outs(%b : {memref(space)}) {{\n"
            f"  ^bb0(%x: f32, %y: f32):\n    linalg.yield %x : f32\n  }}\n  return\n}}")
    k = va.read_mlir(text).functions[0].kernel
    x = np.arange(int(np.prod(operand)), dtype=float).reshape(operand)
    got = va.kernel.run_kernel(k, {"a": x, "b": np.zeros(space)})["b"]
    squeezed = x.reshape(operand[:len(used)])
    order = sorted(range(len(used)), key=lambda i: used[i])
    want = np.transpose(squeezed, order) if used else squeezed
    shape = [space[d] if d in used else 1 for d in range(rank)]
    np.testing.assert_array_equal(got, np.broadcast_to(want.reshape(shape), space))


def memref(shape):
    return f"memref<{''.join(f'{s}x' for s in shape)}f32>"


def test_bert_part_11_computes_what_its_ops_say():
    """regularize.mlir read from the file: collapse/expand shapes, broadcasting indexing maps and
    the body (mul, add) give the same numbers as numpy on the ops' definitions."""
    k = read("regularize.mlir").functions[0].kernel
    rng = np.random.default_rng(0)
    inputs = {f"arg{i}": rng.standard_normal(k.shape(f"arg{i}")) for i in range(4)}
    inputs["arg4"] = np.zeros((1, 12, 12, 12))
    out = va.kernel.run_kernel(k, inputs)["arg4"]
    a = inputs["arg0"][0].transpose(0, 2, 1)  # gemm A [G, K, M] = arg0 [G, M, K] transposed
    b = inputs["arg1"][0]  # [G, K, N]
    c = np.einsum("gkm,gkn->gmn", a, b)
    want = c * inputs["arg2"].reshape(()) + inputs["arg3"].reshape(12)
    np.testing.assert_allclose(out[0], want, rtol=1e-12)


# }}}
# {{{ regularize, from the files


@functools.lru_cache(maxsize=8)
def reference_outputs(name: str, seed: int) -> dict[str, np.ndarray]:
    """The outputs of the file's only kernel as read (interpreter, random inputs of ``seed``): the
    same for every style it is regularized in, so computed once per file and seed."""
    (f,) = read(name).functions
    return va.kernel.run_kernel(f.kernel, {}, seed=seed)


def regularized(name: str, style: str) -> tuple[va.mlir.MlirModule, va.kernel.Kernel, va.kernel.Regularized]:
    """Read, regularize, write back and read again; the outputs of the regularized kernel and of
    the one read back equal the original's (interpreter, random inputs; bodies included)."""
    module = read(name)
    (f,) = module.functions
    result = va.regularize(f.kernel, style)
    text = va.write_mlir(module, {f.name: result.kernel})
    again = va.read_mlir(text).functions[0].kernel
    same_kernel(result.kernel, again)
    for seed, kernels in ((0, (result.kernel, again)), (1, (result.kernel,))):
        want = reference_outputs(name, seed)
        for k in kernels:
            got = va.kernel.run_kernel(k, {}, seed=seed)
            for argument in f.kernel.arguments():
                np.testing.assert_array_equal(got[argument], want[argument], err_msg=argument)
    return module, f.kernel, result


def assert_same_outputs(before: va.kernel.Kernel, after: va.kernel.Kernel) -> None:
    for seed in (0, 1):
        want, got = va.kernel.run_kernel(before, {}, seed=seed), va.kernel.run_kernel(after, {}, seed=seed)
        for name in before.arguments():
            np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def chain_shapes(k: va.kernel.Kernel, value: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(m.upper_bounds, m.lower_bounds) for m in k.chain(value)[1]]


@pytest.mark.parametrize("style", ["rocmlir", "seed"])
def test_bert_part_11(style):
    """regularize.mlir's CHECK lines: the generic reads the gemm's new 12x12x12 allocation directly
    and %arg2 / %arg3 through f32 -> 1x1x1 -> 12x12x12 and 12 -> 1x1x12 -> 12x12x12; it writes a
    new 1x12x12x12 allocation through a view, which the copy to %arg4 reads directly."""
    _, _, result = regularized("regularize.mlir", style)
    k = result.kernel
    ops = {op.kind: op for op in k.ops}
    generic, gemm, copy = ops["linalg.generic"], ops["rock.gridwise_gemm_accel"], ops["memref.copy"]
    alloc0, arg2, arg3 = generic.reads
    assert k.values[alloc0].kind == "alloc" and k.chain(gemm.writes[0])[0] == alloc0
    assert k.chain(arg2)[0] == "arg2" and k.chain(arg3)[0] == "arg3"
    if style == "rocmlir":
        assert k.shape(alloc0) == (12, 12, 12)
        assert chain_shapes(k, arg2) == [((12, 12, 12), (1, 1, 1)), ((1, 1, 1), ()), ((), (1, 1, 1, 1))]
        assert chain_shapes(k, arg3) == [((12, 12, 12), (1, 1, 12)), ((1, 1, 12), (12,)), ((12,), (1, 1, 1, 12))]
        alloc1, chain = k.chain(generic.writes[0])
        assert k.shape(alloc1) == (1, 12, 12, 12) and [m.upper_bounds for m in chain] == [(12, 12, 12)]
        assert copy.reads == (alloc1,) and copy.writes == ("arg4",)
        assert sorted(k.shape(a) for a in k.used_values() if a in k.allocs()) == [(1, 12, 12, 12), (12, 12, 12)]
        assert va.kernel.check_invariant(k, style="rocmlir") == ()
    else:
        # The seed gives the gemm its padded 12x16x16 tile directly; the generic and the copy
        # iterate over it, and every view ends on a function argument (the Pads included).
        assert k.shape(alloc0) == (12, 16, 16) and gemm.writes == (alloc0,)
        assert chain_shapes(k, arg2)[0] == ((12, 16, 16), (12, 12, 12))
        (alloc1,) = generic.writes
        assert k.values[alloc1].kind == "alloc" and copy.reads == (alloc1,)
        assert k.chain(copy.writes[0])[0] == "arg4"
        assert va.kernel.check_invariant(k) == ()


def test_vector_lengths_of_the_gemm_follow_the_fused_ops_to_the_arguments():
    """bert_part_11 after either style: the gemm's store followed through the generic and the
    copy lands on %arg4; its exact vector lengths equal brute force, and the view sends each
    point where the interpreter stores it."""
    from oracle import expected_answer, legal_lengths

    f = read("regularize.mlir").functions[0]
    for style in ("seed", "rocmlir"):
        k = va.regularize(f.kernel, style).kernel
        gemm = next(op for op in k.ops if op.root)
        ((argument, view),) = k.fused_views(gemm, gemm.writes[0])
        assert argument == "arg4"
        shape = view.maps[0].upper_bounds
        lengths = [va.max_vector_length(view, d).length for d in range(len(shape))]
        assert lengths == [1, 1, 4]
        for d, n in enumerate(shape):
            assert lengths[d] == expected_answer(legal_lengths(view, d, n), None, False, False)
        for operand, want in zip(gemm.reads, ([1, 32, 1], [1, 1, 4]), strict=True):  # the loads
            ((_, load),) = k.fused_views(gemm, operand)
            got = [va.max_vector_length(load, d).length for d in range(3)]
            assert got == want == [expected_answer(legal_lengths(load, d, n), None, False, False)
                                   for d, n in enumerate(load.shape)]
        # Where the store really goes: run the kernel and find each gemm output in %arg4.
        inputs = {name: np.random.default_rng(1).standard_normal(k.shape(name)) for name in k.arguments()}
        out = va.kernel.run_kernel(k, inputs)["arg4"].ravel()
        a, b = inputs["arg0"][0].transpose(0, 2, 1), inputs["arg1"][0]
        product = np.einsum("gkm,gkn->gmn", a, b) * inputs["arg2"].reshape(()) + inputs["arg3"].reshape(12)
        addresses, valid = view.addresses()
        assert valid[:, :12, :12].all() and valid.sum() == 12 * 12 * 12  # the padding is not stored
        g, m, n = np.argwhere(valid).T
        np.testing.assert_allclose(out[addresses[valid]], product[g, m, n], rtol=1e-12)


def test_input_output_fusion_regularize():
    """input-output-fusion-regularize.mlir's CHECK lines: input path: the generic writes a new
    1x32x16 allocation directly, the gemm reads it through the inverse transpose then its own view;
    output path: the copy reads a new 1x32x32 allocation directly, written through a view."""
    _, _, result = regularized("input-output-fusion-regularize.mlir", "rocmlir")
    k = result.kernel
    extf, gemm, add, copy = k.ops
    (alloc,) = extf.writes
    assert k.values[alloc].kind == "alloc" and k.shape(alloc) == (1, 32, 16)
    buffer, chain = k.chain(gemm.reads[0])
    assert buffer == alloc and [(m.upper_bounds, m.lower_bounds) for m in chain] == [
        ((1, 16, 32), (1, 16, 32)), ((1, 16, 32), (1, 32, 16))]
    (alloc1,) = copy.reads
    assert k.values[alloc1].kind == "alloc" and k.shape(alloc1) == (1, 32, 32)
    assert k.chain(add.writes[0])[0] == alloc1 and chain_shapes(k, add.writes[0]) == [((1, 32, 32), (1, 32, 32))]
    assert [e.rule for e in result.log] == ["input path", "output path"]
    assert va.kernel.check_invariant(k, style="rocmlir") == ()


def test_input_fusion_rock_gemm_tr():
    """@rock_gemm_tr: the gemm reads a new allocation (1x16x32) through the inverse permutation."""
    module = va.read_mlir((ROCMLIR / "unknown-path__regularize_input_fusion_rock_gemm_tr.mlir").read_text(),
                          errors="collect")
    f = module.function("rock_gemm_tr")
    for style in ("rocmlir", "seed"):
        result = va.regularize(f.kernel, style)
        assert_same_outputs(f.kernel, result.kernel)
        k = result.kernel
        gemm = next(op for op in k.ops if op.root)
        assert k.values[k.chain(gemm.reads[0])[0]].kind == "alloc"
        assert va.kernel.check_invariant(k, style="rocmlir") == () if style == "rocmlir" else va.kernel.check_invariant(k) == ()


@pytest.mark.parametrize("style", ["rocmlir", "seed"])
def test_bug_1546_four_copies(style):
    module, _, result = regularized("bug-1546-compile-failure.mlir", style)
    copies = [op for op in result.kernel.ops if op.kind == "memref.copy"]
    if style == "rocmlir":
        assert len(copies) == 4  # CHECK-COUNT-4: memref.copy, CHECK-NOT: memref.copy
        text = va.write_mlir(module, {module.functions[0].name: result.kernel})
        assert text.count("memref.copy") == 4
        assert va.kernel.check_invariant(result.kernel, style="rocmlir") == ()
    else:
        assert len(copies) == 2 and va.kernel.check_invariant(result.kernel) == ()


@pytest.mark.slow
@pytest.mark.parametrize("style", ["rocmlir", "seed"])
def test_bug_1550_regularizes(style):
    _, _, result = regularized("bug-1550-reduction-fusion-compile-failure.mlir", style)
    if style == "rocmlir":
        assert va.kernel.check_invariant(result.kernel, style="rocmlir") == ()
    else:  # the reductions stop the propagation: views stay only on their reads
        assert {v.op for v in va.kernel.check_invariant(result.kernel, result.fusing)} == {"reduce", "reduce_0"}
        assert [e.rule for e in result.log].count("stop") == 4


def test_major_tensor_number():
    module, _, result = regularized("unknown-path__regularize_major_tensor_number.mlir", "rocmlir")
    text = va.write_mlir(module, {module.functions[0].name: result.kernel})
    assert "rock.majorTensorNumber = 0 : index" in text
    again = va.read_mlir(text)  # regularizing the output again changes nothing
    (f,) = again.functions
    assert va.write_mlir(again, {f.name: va.regularize(f.kernel, "rocmlir").kernel}) == text


PADDED = """func.func @padded(%x: memref<1x4x6xf32>, %b: memref<1x8x5xf32>, %c: memref<1x6x5xf32>) attributes {kernel} {
  %t = memref.alloc() : memref<1x4x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x4x6xf32>) outs(%t : memref<1x4x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %e = math.exp %i : f32
    linalg.yield %e : f32
  }
  %p = rock.transform %t by <affine_map<(d0, d1, d2) -> (d0, d1 - 2, d2)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>,
      <Pad{2, 2} ["k"] at [1] -> ["k"] at [1]>, <PassThrough ["m"] at [2] -> ["m"] at [2]>] bounds = [1, 8, 6] -> [1, 4, 6]>
      : memref<1x4x6xf32> to memref<1x8x6xf32>
  rock.gridwise_gemm %c = %p * %b storeMethod(set) : memref<1x6x5xf32> = memref<1x8x6xf32> * memref<1x8x5xf32>
  return
}
"""


def test_a_padded_gemm_input_gets_a_fill_that_writes_back():
    """The seed gives the gemm a fresh 1x8x6 buffer; the padding rocMLIR's view read as zero is
    filled explicitly (linalg.fill), which prints, reads back and runs the same."""
    module = va.read_mlir(PADDED)
    (f,) = module.functions
    result = va.regularize(f.kernel)
    assert [e.rule for e in result.log] == ["R1", "fill", "stop"]
    text = va.write_mlir(module, {f.name: result.kernel})
    assert "linalg.fill ins(%cst : f32) outs(%t_0 : memref<1x8x6xf32>)" in text
    again = va.read_mlir(text).functions[0].kernel
    assert [op.kind for op in again.ops] == ["linalg.fill", "linalg.generic", "rock.gridwise_gemm"]
    for k in (result.kernel, again):
        np.testing.assert_array_equal(va.kernel.run_kernel(k, {}, seed=0)["c"], va.kernel.run_kernel(f.kernel, {}, seed=0)["c"])


def test_invalid_generic_reduction():
    f = read("unknown-path__regularize_invalid_generic_reduction.mlir").functions[0]
    with pytest.raises(va.errors.RegularizeError, match="Only fully parallel supported.*explicitly marked illegal"):
        va.regularize(f.kernel, "rocmlir")


# }}}
