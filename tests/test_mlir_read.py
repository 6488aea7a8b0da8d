"""The reader reads every stage of rocMLIR's IR: lowering, fusion, attention and tensor-level
tests from rocMLIR (tests/data/rocmlir/read/), each construct on its own, ops it does not model
kept verbatim; everything read writes back and reads again to the same graph."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from rocmlir_data import DATA, INVALID_FILE
from test_mlir import same_kernel

import viewalgebra as va

FILES = [pytest.param(p, id=p.name) for p in sorted((DATA / "rocmlir" / "read").glob("*.mlir"))]


def round_trip(module: va.mlir.MlirModule) -> va.mlir.MlirModule:
    """Written back and read again: the same graph, function by function."""
    readable = va.mlir.MlirModule(tuple(i for i in module.items if not isinstance(i, va.mlir.Unreadable)))
    again = va.read_mlir(va.write_mlir(readable))
    for f, g in zip(readable.functions, again.functions, strict=True):
        same_kernel(f.kernel, g.kernel)
        assert [op.attr("opaque") is not None for op in f.kernel.ops] == \
            [op.attr("opaque") is not None for op in g.kernel.ops]
    return again


def check(path: Path) -> int:
    from viewalgebra._cli import main  # noqa: TID251 -- the command line's entry point

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["check", str(path)])


@pytest.mark.parametrize("path", FILES)
def test_every_function_reads_and_round_trips(path: Path) -> None:
    module = va.read_mlir(path.read_text())
    assert module.functions
    round_trip(module)


@pytest.mark.parametrize("path", [*FILES, INVALID_FILE])
def test_check_exits_0_or_1(path: Path) -> None:
    assert check(path) in (0, 1)


def test_a_verifier_test_gives_each_expected_error_at_its_place() -> None:
    text = INVALID_FILE.read_text()
    module = va.read_mlir(text, errors="collect")
    lines = text.split("\n")
    for u in module.unreadable:
        line = int(str(u.error).split(":")[0])
        assert "expected-error" in lines[line - 2], (u.name, str(u.error))
    readable = [f.name for f in module.functions]
    mixed = text + "\n// -----\n\nfunc.func @fine(%a: memref<4xf32>) {\n  return\n}\n"
    again = va.read_mlir(mixed, errors="collect")
    assert [f.name for f in again.functions] == [*readable, "fine"]
    assert len(again.unreadable) == len(module.unreadable)


def test_the_lowering_test_models_what_it_can() -> None:
    (f,) = va.read_mlir((DATA / "rocmlir/read/blockwise_reducesum_nr_threads_gt_blocksize.mlir")
                        .read_text()).functions
    k = f.kernel
    kinds = [(op.kind, op.attr("opaque")) for op in k.ops]
    # The workspace is a memref.view of bytes, which the graph does not model: the reduction
    # that uses it is kept verbatim too.
    assert kinds == [("memref.view", "20:13"), ("rock.workgroup_id", "21:10"), ("rock.workitem_id", "22:10"),
                     ("rock.threadwise_read_into", None), ("rock.blockwise_broadcast_reduce", "25:3"),
                     ("rock.dealloc", "26:3"), ("rock.threadwise_write_all", None)]
    read_into = k.ops[3]
    assert k.chain(read_into.reads[0])[0] == "input" and read_into.writes == ("input_reg",)
    assert k.ops[0].reads == k.ops[0].writes == ("ws_lds_bytes",)
    assert dict(f.types)["input_reg"] == "memref<20xf32, #gpu.address_space<private>>"


# {{{ each construct


def read_one(body: str, args: str = "%a: memref<4x8xf32>", results: str = "") -> va.mlir.MlirFunction:
    text = f"func.func @f({args}){results} {{\n{body}\n}}\n"
    module = va.read_mlir(text)
    round_trip(module)
    (f,) = module.functions
    return f


PT = '<affine_map<(d0, d1) -> (d1, d0)> by [{t}<PassThrough ["x", "y"] at [0, 1] -> ["y", "x"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>'


@pytest.mark.parametrize("prefix", ["", "#rock.transform"])
def test_the_prefixed_transform_form(prefix: str) -> None:
    f = read_one(f"  %0 = rock.transform %a by {PT.format(t=prefix)} : memref<4x8xf32> to memref<8x4xf32>\n"
                 "  \"use\"(%0) : (memref<8x4xf32>) -> ()\n  return")
    assert f.kernel.shape(f.kernel.ops[0].reads[0]) == (8, 4)
    tm = va.parse_transform_map(PT.format(t=prefix), strict=False)
    assert tm == va.parse_transform_map(PT.format(t=""))
    alias = f"#m = #rock.transform_map{PT.format(t='#rock.transform')}\n"
    assert va.text.parse_mlir_transform_maps(alias)[0].map == tm


def test_transform_of_a_tensor_and_tensor_arguments_and_results() -> None:
    f = read_one("  %0 = rock.transform %a by " + PT.format(t="") + " : tensor<4x8xf32> to tensor<8x4xf32>\n"
                 "  return %0 : tensor<8x4xf32>",
                 args="%a: tensor<4x8xf32>, %i: index, %v: i1, %w: vector<4xf16>",
                 results=" -> tensor<8x4xf32>")
    assert [op.kind for op in f.kernel.ops] == ["rock.transform"]
    assert f.terminator == "return %0 : tensor<8x4xf32>"
    assert dict(f.types) == {"a": "tensor<4x8xf32>", "i": "index", "v": "i1", "w": "vector<4xf16>"}


def test_return_of_a_memref() -> None:
    f = read_one("  return %a : memref<4x8xf32>", results=" -> memref<4x8xf32>")
    assert f.terminator == "return %a : memref<4x8xf32>"


@pytest.mark.parametrize(("written", "transposed"), [
    ("rock.gemm %c = tr %a * %b", ("a",)), ("rock.gemm tr %c = %a * tr %b", ("c", "b")),
    ("rock.gemm %c = %a * %b", None)])
def test_gemm_with_tr(written: str, transposed: tuple[str, ...] | None) -> None:
    f = read_one(f"  {written} features = none storeMethod = set {{arch = \"gfx908\"}} : "
                 "memref<1x4x4xf32> = memref<1x4x4xf32> * memref<1x4x4xf32>\n  return",
                 args="%a: memref<1x4x4xf32>, %b: memref<1x4x4xf32>, %c: memref<1x4x4xf32>")
    (op,) = f.kernel.ops
    assert op.root and op.reads == ("a", "b") and op.writes == ("c",)
    assert op.attr("transposed") == transposed


def test_gemm_on_tensors_has_a_result() -> None:
    f = read_one("  %r = rock.gemm %c = tr %a * %b features = none storeMethod = set : tensor<4x4xf32> = "
                 "tensor<4x4xf32> * tensor<4x4xf32> -> tensor<4x4xf32>\n  return %r : tensor<4x4xf32>",
                 args="%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>", results=" -> tensor<4x4xf32>")
    (op,) = f.kernel.ops
    assert op.kind == "rock.gemm" and op.attr("opaque") == "2:8"  # its operands are tensors


READ_INTO = ('  %t = arith.constant 0 : index\n  %valid = arith.constant true\n'
             '  {r}rock.threadwise_read_into {{forceUnroll}} [{m}](%a){x} -> %d : memref<4x8xf32> -> '
             'memref<8xf32, #gpu.address_space<private>>\n  return')
MAP = '<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["x", "y"] at [0, 1] -> ["x", "y"] at [0, 1]>] bounds = [4, 8] -> [4, 8]>'


@pytest.mark.parametrize(("results", "extra"), [("", "[%t, %t]"), ("", " [%t] if [%valid]"), ("%r = ", "[%t]")])
def test_read_into_with_extra_indices(results: str, extra: str) -> None:
    f = read_one(READ_INTO.format(r=results, m=MAP, x=extra),
                 args="%a: memref<4x8xf32>, %d: memref<8xf32, #gpu.address_space<private>>")
    (op,) = f.kernel.ops
    assert op.kind == "rock.threadwise_read_into" and op.attr("opaque") is None
    assert f.kernel.chain(op.reads[0])[0] == "a" and op.writes == ("d",)


def test_transforming_for_and_attention_regions_are_kept_verbatim() -> None:
    f = read_one(
        "  %c0 = arith.constant 0 : index\n"
        "  rock.transforming_for (%i, %j) = [](%c0, %c0) (%v) = validity bounds = [4, 8] strides = [1, 1] {\n"
        "    %x = rock.buffer_load %a[%i, %j] if %v : memref<4x8xf32>, index, index -> f32\n"
        "    rock.yield\n  }\n"
        "  rock.gridwise_attention_accel(%a, %a, %a, %b) features = mfma preSoftmaxOps = {\n"
        "  ^bb0(%arg6: memref<4x8xf32>, %arg7: memref<4x8xf32>):\n"
        "    linalg.yield\n  } {blockSize = 64 : i32} : memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>\n"
        "  rock.attention{\n     qk = tr %a * %a : memref<4x8xf32>, memref<4x8xf32>\n"
        "     %b = softmax(qk) * %a : memref<4x8xf32> -> memref<4x8xf32>\n  } {arch = \"\"}\n"
        "  rock.zero_init_kernel %b features = none : memref<4x8xf32>\n"
        "  rock.converting_copy_kernel %a to %b features = none : memref<4x8xf32> to memref<4x8xf32>\n"
        "  rock.blockwise_broadcast_reduce sum [" + MAP + "] %a into %b using %b {axis = 1 : index, blockSize = 1 : i32}"
        " : memref<4x8xf32> using memref<4x8xf32> into memref<4x8xf32>\n  return",
        args="%a: memref<4x8xf32>, %b: memref<4x8xf32>")
    k = f.kernel
    assert [(op.kind, op.reads, op.writes, op.attr("opaque")) for op in k.ops] == [
        ("rock.transforming_for", ("a",), ("a",), "3:3"),
        ("rock.gridwise_attention_accel", ("a", "b"), ("a", "b"), "7:3"),
        ("rock.attention", ("a", "b"), ("a", "b"), "11:3"),
        ("rock.zero_init_kernel", (), ("b",), None),
        ("rock.converting_copy_kernel", ("a",), ("b",), None),
        ("rock.blockwise_broadcast_reduce", ("a",), ("b", "b"), None)]


def test_vector_elements_and_address_spaces() -> None:
    f = read_one("  %r = rock.alloc() : memref<8xvector<4xf16>, #gpu.address_space<private>>\n"
                 "  \"use\"(%r) : (memref<8xvector<4xf16>, #gpu.address_space<private>>) -> ()\n  return",
                 args="%a: memref<2xf32, 3>")
    k = f.kernel
    assert k.shape("r") == (8,) and k.dtype("r") == "f16"
    assert dict(f.types) == {"a": "memref<2xf32, 3>", "r": "memref<8xvector<4xf16>, #gpu.address_space<private>>"}


WG = "#wg = #gpu.address_space<workgroup>\n"
TRANSPOSE = ('#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["i", "j"] '
             'at [0, 1] -> ["j", "i"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>\n')


@pytest.mark.parametrize(("aliases", "typ", "modelled"), [
    (WG, "memref<256xvector<2xf32>, #wg>", True),  # an address-space alias in the layout position
    ("", "memref<4xf32, #gpu.address_space<workgroup>>", True),
    ("", "memref<4x4xf32, strided<[8, 1], offset: 2>, 3>", False),  # a layout the graph cannot hold
    ("", "memref<4x4xvector<2xf16>, strided<[8, 1]>, #gpu.address_space<private>>", False),
], ids=["alias", "space", "strided-space", "strided-vector-space"])
def test_memory_spaces_layouts_and_vector_elements_read_and_print_as_written(aliases: str, typ: str,
                                                                             modelled: bool) -> None:
    text = (f"{aliases}func.func @f(%a: {typ}) {{\n  %b = memref.alloc() : {typ}\n"
            f"  memref.copy %a, %b : {typ} to {typ}\n  return\n}}\n")
    module = va.read_mlir(text)
    assert va.write_mlir(module) == text
    (f,) = module.functions
    assert dict(f.types)["a"] == typ
    opaque = [op.kind for op in f.kernel.ops if op.attr("opaque") is not None]
    assert opaque == ([] if modelled else ["memref.alloc", "memref.copy"])  # else kept verbatim
    round_trip(module)


@pytest.mark.parametrize("typ", [
    "memref<4x8xf32, #m>",  # an affine-map alias in the layout position is a layout
    "memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>, #gpu.address_space<workgroup>>",
    "memref<4x8xf32, strided<[?, 1], offset: ?>>",
    "memref<?x8xvector<2xf32>, #wg>",  # a dynamic size: rocMLIR's ops.mlir
])
def test_layouts_and_dynamic_sizes_read_and_print_as_written(typ: str) -> None:
    # Refused the whole function before ("memref layouts other than strided<...> are not
    # supported", "dynamic shapes are not supported"): the value is kept out of the graph's
    # ops, the ops over it verbatim, and a static view beside it is a view.
    aliases = "#m = affine_map<(d0, d1) -> (d1, d0)>\n#wg = #gpu.address_space<workgroup>\n" + TRANSPOSE
    body = (f"  %b = memref.alloc() : {typ}\n  memref.copy %a, %b : {typ} to {typ}\n"
            "  %0 = rock.transform %s by #t : memref<4x8xf32> to memref<8x4xf32>\n"
            "  \"use\"(%0) : (memref<8x4xf32>) -> ()\n  return")
    text = f"{aliases}func.func @f(%a: {typ}, %s: memref<4x8xf32>) -> {typ} {{\n{body}\n}}\n"
    module = va.read_mlir(text)
    written = va.write_mlir(module)
    for line in (f"@f(%a: {typ}, %s: memref<4x8xf32>) -> {typ}", f"memref.copy %a, %b : {typ} to {typ}"):
        assert line in written
    (f,) = module.functions
    assert dict(f.types)["a"] == typ
    assert [op.kind for op in f.kernel.ops if op.attr("opaque") is not None] == ["memref.alloc", "memref.copy", "use"]
    assert f.kernel.shape(f.kernel.ops[-1].reads[0]) == (8, 4)  # the static view is read
    round_trip(module)


def test_an_integer_set_is_read_and_check_reads_the_rest_of_the_file(tmp_path: Path) -> None:
    # '>=' in an integer set is no closing bracket: reading it so refused the whole file
    body = "  affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {\n  }\n  return"
    text = (TRANSPOSE + f"func.func @set(%a: memref<4x8xf32>, %i: index) {{\n{body}\n}}\n"
            "func.func @view(%a: memref<4x8xf32>) {\n"
            "  %0 = rock.transform %a by #t : memref<4x8xf32> to memref<8x4xf32>\n  return\n}\n")
    module = va.read_mlir(text)
    assert [f.name for f in module.functions] == ["set", "view"]
    assert [op.kind for op in module.function("set").kernel.ops] == ["affine.if"]
    assert "affine_set<(d0) : (d0 - 1 >= 0)>(%i)" in va.write_mlir(module)
    path = tmp_path / "set.mlir"
    path.write_text(text)
    assert check(path) == 0


def test_a_kernel_the_reader_cannot_end_is_noted_and_the_rest_is_checked(tmp_path: Path) -> None:
    gemm = ("  rock.gemm %c = %a * %b features = none storeMethod = set {arch = \"gfx942\"} "
            ": memref<1x8x8xf32> = memref<1x8x8xf32> * memref<1x8x8xf32>")
    args = "%a: memref<1x8x8xf32>, %b: memref<1x8x8xf32>, %c: memref<1x8x8xf32>"
    bad = "  %x = rock.transform %d by #t : memref<4x8xf32> to memref<8x4xf32> extra\n"  # no end there
    text = (TRANSPOSE + f"func.func @bad({args}, %d: memref<4x8xf32>) attributes {{kernel}} {{\n{bad}{gemm}\n"
            "  return\n}\n"
            f"func.func @good({args}) attributes {{kernel}} {{\n{gemm}\n  return\n}}\n"
            "func.func @view(%a: memref<4x8xf32>) {\n"
            "  %0 = rock.transform %a by #t : memref<4x8xf32> to memref<8x4xf32>\n  return\n}\n")
    path = tmp_path / "kernels.mlir"
    path.write_text(text)
    from test_cli import run

    result = run("check", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert f"viewalgebra: {path}:3:69: kernel @bad not read (left out of the kernels): " \
        "expected the end of rock.transform, found 'extra'" in result.stderr.splitlines()
    report = json.loads(result.stdout)
    assert {k["function"] for k in report["kernels"]} == {"good"}
    assert [v["line"] for v in report["views"]] == [3, 12]  # the lenient scan reads @bad's view too


def test_unknown_ops_of_every_form_are_opaque_and_print_verbatim() -> None:
    body = ("  %0 = memref.subview %a[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>\n"
            "  %1:2 = \"test.two\"(%a) ({\n  ^bb0(%x: index):\n    \"test.yield\"() : () -> ()\n  }) : (memref<4x8xf32>) -> (index, index)\n"
            "  gpu.barrier\n"
            "  memref.copy %0, %a : memref<2x8xf32, strided<[8, 1]>> to memref<4x8xf32>\n  return")
    f = read_one(body)
    assert [(op.kind, op.attr("opaque")) for op in f.kernel.ops] == [
        ("memref.subview", "2:8"), ("test.two", "3:10"), ("gpu.barrier", "7:3"), ("memref.copy", "8:3")]
    text = va.write_mlir(va.read_mlir(f"func.func @f(%a: memref<4x8xf32>) {{\n{body}\n}}\n"))
    for line in body.split("\n")[:-1]:
        assert line.strip() in text


def test_results_and_operands_on_the_next_line_continue_the_op() -> None:
    # rocMLIR's index_diff_update.mlir ends a line with the results' '=', and
    # lowering_threadwise_fusion_ops.mlir starts a line with rock.threadwise_write_all's source:
    # each cut the op in two ("expected an op name", "expected the source value").
    pad = ('<affine_map<(d0, d1) -> (d0, d1 - 2)> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>, '
           '<Pad{2, 0} ["y"] at [1] -> ["y"] at [1]>] bounds = [4, 8] -> [4, 6]>')
    body = ("  %c1 = arith.constant 1 : index\n"
            "  %i0, %d0 =\n      rock.index_diff_update #u(%c1, %c1) + (%c1) : index\n"
            "  %v = rock.transform %d by #p : memref<4x6xf32> to memref<4x8xf32>\n"
            "  %b = rock.workgroup_id : index\n"
            "  rock.threadwise_write_all features = dot {forceUnroll, useIndexDiffs}\n"
            "    %src -> [](%v)[%b] by set\n"
            "    : memref<32xf32, #gpu.address_space<private>> -> memref<4x8xf32>\n  return")
    aliases = ('#u = #rock.transform_map<affine_map<(d0, d1) -> (d1 + 4 * d0)> by [<Unmerge{16, 4} ["x", "y"] '
               f'at [0, 1] -> ["r"] at [0]>] bounds = [16, 4] -> [64]>\n#p = #rock.transform_map{pad}\n')
    text = f"{aliases}func.func @f(%src: memref<32xf32, #gpu.address_space<private>>, %d: memref<4x6xf32>) {{\n{body}\n}}\n"
    module = va.read_mlir(text)
    (f,) = module.functions
    ops = [op for op in f.kernel.ops if op.attr("opaque") is None]
    assert [op.kind for op in ops] == ["rock.threadwise_write_all"]
    assert f.kernel.shape(ops[0].writes[0]) == (4, 8)  # the view of %d through #p
    assert "%i0, %d0 =\n      rock.index_diff_update #u(%c1, %c1) + (%c1) : index" in va.write_mlir(module)
    round_trip(module)


@pytest.mark.parametrize("maps", ["", "#t"])
def test_an_inline_view_with_no_maps_writes_back(maps: str) -> None:
    # 'rock.threadwise_read_into [](%x)': with no maps the operand is %x itself, which writing
    # refused ("source replaced a view written inside the op"), so that regularize exited 2 on
    # rocMLIR's lowering_threadwise_fusion_ops.mlir though it rewrites nothing there.
    shape = "8x4" if maps else "4x8"
    text = (TRANSPOSE + "func.func @f(%a: memref<4x8xf32>, %r: memref<32xf32, #gpu.address_space<private>>) {\n"
            f"  rock.threadwise_read_into {{forceUnroll}} [{maps}](%a)[] -> %r : memref<{shape}xf32> -> "
            "memref<32xf32, #gpu.address_space<private>>\n  return\n}\n")
    module = va.read_mlir(text)
    assert va.write_mlir(module) == text
    (f,) = module.functions
    assert f.kernel.shape(f.kernel.ops[0].reads[0]) == ((8, 4) if maps else (4, 8))


def test_top_level_ops_type_aliases_and_old_functions_are_kept_as_written(tmp_path: Path) -> None:
    # rocMLIR's add_alias_info.mlir (gpu.module), emulate-narrow-type-invalid.mlir (!t = ...),
    # MIGraphX/hoist-buffer.mlir ('func @f', MLIR before func.func): each refused the whole
    # file ("expected a function, an alias '#name = ...' or a module"), check exited 2.
    kept = ["!t = memref<4xf32, #gpu.address_space<global>>",
            "gpu.module @m {\n  llvm.func @g() {\n    llvm.return\n  }\n}",
            "module {\n  func @old(%a : memref<4xf32>) {\n    return\n  }\n}"]
    text = "\n".join(kept) + "\nfunc.func @f(%a: !t) {\n  \"use\"(%a) : (!t) -> ()\n  return\n}\n"
    module = va.read_mlir(text)
    assert [f.name for f in module.functions] == ["f"]
    written = va.write_mlir(module)
    for item in kept[:2]:
        assert item in written
    assert "  func @old(%a : memref<4xf32>) {\n    return\n  }" in written
    path = tmp_path / "kept.mlir"
    path.write_text(text)
    assert check(path) == 0


def test_a_scaled_gridwise_gemm_reads_its_scales() -> None:
    # rocMLIR's gridwise_gemm_accel_lowering_invalid.mlir: five operands ("expected ')', found ','").
    m = "memref<1x16x16xf32>"
    f = read_one(f"  rock.gridwise_gemm_accel(%a, %b, %c, %sa, %sb) storeMethod(set) features = mfma "
                 f"{{blockSize = 256 : i32}} : {m}, {m}, {m}, {m}, {m}\n  return",
                 args=", ".join(f"%{n}: {m}" for n in ("a", "b", "c", "sa", "sb")))
    (op,) = f.kernel.ops
    assert (op.reads, op.writes, op.root) == (("a", "b", "sa", "sb"), ("c",), True)


# }}}


def test_check_reports_each_rejected_map_where_the_verifier_test_expects_its_error() -> None:
    import json
    import re

    from viewalgebra._cli import main  # noqa: TID251 -- the command line's entry point

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["check", "--json", str(INVALID_FILE)]) == 1
    rejected = [m for m in json.loads(out.getvalue())["maps"] if m["text"] is None]
    lines = INVALID_FILE.read_text().split("\n")
    expected = {k + 1 + int(m.group(1)) for k, line in enumerate(lines)
                for m in [re.search(r"expected-error @\+(\d+)", line)] if m}
    assert rejected and {m["line"] for m in rejected} <= expected
    for m in rejected:
        (finding,) = m["findings"]
        assert finding["code"] == "unusable" and finding["message"].startswith(f"rejected: {m['line']}:")


def test_roots_are_the_one_list_of_fusion_roots_and_str_is_a_summary():
    from viewalgebra._kernel.graph import FUSION_ROOTS  # noqa: TID251 -- the one list

    for name in ("regularize.mlir", "bug-1550-reduction-fusion-compile-failure.mlir",
                 "unknown-path__regularize_input_fusion_rock_gemm_tr.mlir"):
        module = va.read_mlir((Path(__file__).parent / "data" / "rocmlir" / name).read_text(), errors="collect")
        ops = [op for f in module.functions for op in f.kernel.ops]
        assert any(op.root for op in ops)
        assert all(op.root == (op.kind in FUSION_ROOTS) for op in ops)
        summary = str(module.functions[0].kernel)
        assert summary.startswith("kernel @") and "func.func" not in summary
