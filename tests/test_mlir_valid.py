"""What ``write_mlir`` writes is MLIR: every module it writes (each file of tests/data/rocmlir/ and
examples/, as read and regularized in both styles, plus generated kernels) parses with MLIR's own
parser in generic form, its SSA names follow MLIR's lexical rules in custom form, and the custom
form reads back to the same graph with the same outputs."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from iree.compiler import ir  # MLIR's Python bindings: the 'mlir' extra
from rocmlir_data import DATA
from test_cli import run
from test_mlir import PADDED, same_kernel
from test_regularize import fused_kernels

import viewalgebra as va

FILES = [p for p in sorted([*(DATA / "rocmlir").glob("*.mlir"), *(Path(__file__).parent.parent / "examples").glob(
    "*.mlir")]) if p.name != "invalid.transform-verifier-excerpt.mlir"]  # no function reads
UNWRITTEN: dict[str, str] = {}
"""Files whose generic form the writer refuses (``MlirWriteError``); the test fails when it no
longer does, so that the file joins the others."""
WRITTEN = [pytest.param(p, marks=pytest.mark.xfail(strict=True, raises=va.errors.MlirWriteError,
                                                   reason=UNWRITTEN[p.name]))
           if p.name in UNWRITTEN else p for p in FILES]


def parse(text: str) -> None:
    """MLIR's parser on each ``// -----`` chunk (as ``mlir-opt --split-input-file``); unknown
    dialects (rock) are kept opaque, so only generic form parses for their ops."""
    context = ir.Context()
    context.allow_unregistered_dialects = True
    for chunk in re.split(r"^// -----.*$", text, flags=re.M):
        ir.Module.parse(chunk, context)


_SUFFIX_ID = re.compile(r"[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*")
"""MLIR's ``suffix-id`` (mlir/docs/LangRef.md): what may follow ``%``."""


def bad_names(text: str) -> set[str]:
    """SSA names MLIR's lexer rejects (strings, which may hold '%', left out)."""
    code = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    return {name for name in re.findall(r"%([\w$.\-]*)", code) if not _SUFFIX_ID.fullmatch(name)}


def readable(path: Path) -> va.mlir.MlirModule:
    module = va.read_mlir(path.read_text(), errors="collect")
    return va.mlir.MlirModule(tuple(i for i in module.items if not isinstance(i, va.mlir.Unreadable)))


def regularized(module: va.mlir.MlirModule, style: str | None) -> dict[str, va.kernel.Kernel]:
    """The kernels ``viewalgebra regularize`` rewrites (kernel attribute, a fusion root), those
    it can regularize."""
    kernels: dict[str, va.kernel.Kernel] = {}
    for f in module.functions if style else ():
        if f.is_kernel and any(op.root for op in f.kernel.ops):
            try:
                kernels[f.name] = va.regularize(f.kernel, style).kernel
            except va.errors.RegularizeError:  # e.g. a reduction generic: rocMLIR refuses it too
                continue
    return kernels


def outputs(k: va.kernel.Kernel, seed: int) -> dict[str, np.ndarray] | None:
    try:
        return va.kernel.run_kernel(k, {}, seed=seed)
    except va.errors.ViewAlgebraError:  # ops without numpy semantics (rock.reduce, opaque ops)
        return None


def check(module: va.mlir.MlirModule, kernels: dict[str, va.kernel.Kernel]) -> None:
    """Both forms of the written module: generic parses with MLIR, custom has legal names and
    reads back to the same graph, which computes the same."""
    parse(va.write_mlir(module, kernels, generic=True))
    text = va.write_mlir(module, kernels)
    assert bad_names(text) == set()
    again = va.read_mlir(text)
    assert va.write_mlir(again) == text
    for f, g in zip(module.functions, again.functions, strict=True):
        k = kernels.get(f.name, f.kernel)
        same_kernel(k, g.kernel)
        if sum(int(np.prod(k.shape(b))) for b in (*k.arguments(), *k.allocs())) > 20_000:
            continue  # whole rocMLIR kernels run in test_mlir.py (marked slow)
        want = outputs(k, 0)
        if want is not None:
            got = outputs(g.kernel, 0)
            assert got is not None
            for argument in k.arguments():
                np.testing.assert_array_equal(got[argument], want[argument], err_msg=argument)


@pytest.mark.parametrize("style", [None, "seed", "rocmlir"], ids=["as-read", "seed", "rocmlir"])
@pytest.mark.parametrize("path", WRITTEN, ids=lambda p: p.name)
def test_every_written_module_is_mlir(path, style):
    module = readable(path)
    check(module, regularized(module, style))


def test_defect_fresh_names_start_like_mlir_names():
    """bert_part_11 regularized: the new allocations and views (%2_0, %6_r_0, %9_bcast_0 before)
    print with names MLIR's lexer reads, and MLIR parses the module."""
    module = readable(DATA / "rocmlir" / "regularize.mlir")
    kernels = regularized(module, "rocmlir")
    (k,) = kernels.values()
    assert {"2_0", "6_r", "9_bcast", "10_bcast"} <= set(k.values)  # the graph's own names
    text = va.write_mlir(module, kernels)
    assert bad_names(text) == set()
    assert "%v2_0 = memref.alloc() {alignment = 128 : i64} : memref<12x12x12xf32>" in text
    assert "ins(%v2_0, %v9_bcast, %v10_bcast : " in text
    parse(va.write_mlir(module, kernels, generic=True))
    with pytest.raises(ir.MLIRError, match="expected '=' after SSA name"):  # what MLIR says of %2_0
        parse("func.func @f() {\n  %2_0 = memref.alloc() : memref<4xf32>\n  return\n}")


ALLOCATED = """func.func @padded(%x: memref<1x4x6xf32>, %b: memref<1x8x5xf32>, %c: memref<1x6x5xf32>) attributes {kernel} {
  %t = rock.alloc() {alignment = 128 : i64} : memref<1x4x6xf32, #gpu.address_space<global>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x4x6xf32>) outs(%t : memref<1x4x6xf32, #gpu.address_space<global>>) {
  ^bb0(%i: f32, %o: f32):
    %e = math.exp %i : f32
    linalg.yield %e : f32
  }
  %p = rock.transform %t by <affine_map<(d0, d1, d2) -> (d0, d1 - 2, d2)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>,
      <Pad{2, 2} ["k"] at [1] -> ["k"] at [1]>, <PassThrough ["m"] at [2] -> ["m"] at [2]>] bounds = [1, 8, 6] -> [1, 4, 6]>
      : memref<1x4x6xf32, #gpu.address_space<global>> to memref<1x8x6xf32, #gpu.address_space<global>>
  rock.gridwise_gemm %c = %p * %b storeMethod(set)
      : memref<1x6x5xf32> = memref<1x8x6xf32, #gpu.address_space<global>> * memref<1x8x5xf32>
  return
}
"""


def padded_with_a_new_allocation() -> tuple[va.mlir.MlirModule, dict[str, va.kernel.Kernel]]:
    """PADDED with %t a ``rock.alloc`` in global memory, aligned: the seed gives the gemm a fresh
    1x8x6 buffer %t_0 in its place."""
    module = va.read_mlir(ALLOCATED)
    (f,) = module.functions
    return module, {f.name: va.regularize(f.kernel).kernel}


def test_defect_a_new_allocation_is_made_like_the_one_it_derives_from():
    """The same op (rock.alloc) and memory space; views of it keep the memory space."""
    module, kernels = padded_with_a_new_allocation()
    text = va.write_mlir(module, kernels)
    assert "%t_0 = rock.alloc() {alignment = 128 : i64} : memref<1x8x6xf32, #gpu.address_space<global>>" in text
    assert "%t_r = rock.transform %t_0 by " in text and " : memref<1x8x6xf32, #gpu.address_space<global>> to " \
        "memref<1x4x6xf32, #gpu.address_space<global>>" in text
    check(module, kernels)


def test_defect_a_new_allocation_keeps_the_attributes_of_the_one_it_derives_from():
    module, kernels = padded_with_a_new_allocation()
    assert "%t_0 = rock.alloc() {alignment = 128 : i64} : " in va.write_mlir(module, kernels)


def test_generic_form_is_what_mlir_prints():
    """MLIR parses the generic form and prints the same ops, with properties where we print them
    (the ops it knows: func, memref, linalg, arith, math)."""
    module = va.read_mlir(PADDED)
    (f,) = module.functions
    text = va.write_mlir(module, {f.name: va.regularize(f.kernel).kernel}, generic=True)
    context = ir.Context()
    context.allow_unregistered_dialects = True
    printed = ir.Module.parse(text, context).operation.get_asm(print_generic_op_form=True)
    shape = re.compile(r'"([\w.]+)"\([^)]*\)( <\{)?')
    assert shape.findall(printed) == [("builtin.module", ""), *shape.findall(text)]


_STATEMENT = re.compile(r'\s*(?:%|"|\^|\}|return\b|[\w]+\.[\w.]+)')
_ROCK_OP = re.compile(r'\s*(?:%[\w$.\-]+(?:\s*,\s*%[\w$.\-]+)*\s*=\s*)?"?rock\.(?!transform\b|alloc\b)')


def statements(text: str) -> list[str]:
    """The lines of ``text`` joined into statements, rock ops other than views and allocations
    left out, blanks removed."""
    out: list[str] = []
    for line in text.split("\n"):
        if out and not _STATEMENT.match(line):
            out[-1] += line
        else:
            out.append(line)
    return [re.sub(r"\s+", "", s) for s in out if not _ROCK_OP.match(s)]


def same_text(custom: str, again: str) -> None:
    """The custom form of a generic read is the custom form, statement by statement, except what
    generic form does not keep: the order of a function's attributes, blanks, and rock ops, which
    keep their generic text."""
    a, b = statements(custom), statements(again)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x == y or x.startswith("func.func") and y.startswith("func.func"), (x, y)


@pytest.mark.parametrize("style", [None, "seed", "rocmlir"], ids=["as-read", "seed", "rocmlir"])
@pytest.mark.parametrize("path", WRITTEN, ids=lambda p: p.name)
def test_generic_form_reads_back(path, style):
    """The generic form reads to the same graph, and writes back to the same generic form."""
    module = readable(path)
    kernels = regularized(module, style)
    text = va.write_mlir(module, kernels, generic=True)
    again = va.read_mlir(text)
    assert len(again.functions) == len(module.functions)
    for f, g in zip(module.functions, again.functions, strict=True):
        same_kernel(kernels.get(f.name, f.kernel), g.kernel)
        assert (f.is_kernel, f.visibility, f.results) == (g.is_kernel, g.visibility, g.results)
    assert va.write_mlir(again, generic=True) == text
    # A rock op kept verbatim that was read in generic form prints as read (ops.mlir's
    # rock.buffer_load): only modules without one read back to the same custom form.
    if not any(op.attr("opaque", None) is not None and op.kind.startswith("rock.")
               for f in module.functions for op in f.kernel.ops):
        same_text(va.write_mlir(module, kernels), va.write_mlir(again))


def test_generic_form_mlir_prints_reads_back():
    """What MLIR's own printer prints in generic form (its own value names, aliases hoisted)
    reads to the same graph as the custom form."""
    module = readable(DATA / "rocmlir" / "regularize.mlir")
    kernels = regularized(module, "rocmlir")
    context = ir.Context()
    context.allow_unregistered_dialects = True
    printed = ir.Module.parse(va.write_mlir(module, kernels, generic=True), context) \
        .operation.get_asm(print_generic_op_form=True)
    assert '"builtin.module"() ({' in printed
    (g,) = va.read_mlir(printed).functions
    (k,) = kernels.values()
    same_kernel(k, g.kernel)


def test_generic_form_of_a_whole_kernel():
    """bert_part_11 in generic form: the transforms are views again, the generic's body has its
    function, the arguments keep their attributes and the function its attributes."""
    module = readable(DATA / "rocmlir" / "regularize.mlir")
    kernels = regularized(module, "rocmlir")
    (f,) = va.read_mlir(va.write_mlir(module, kernels, generic=True)).functions
    assert [op.kind for op in f.kernel.ops] == ["rock.gridwise_gemm_accel", "linalg.generic", "memref.copy"]
    assert f.kernel.ops[1].fn is not None and f.kernel.ops[0].root
    assert dict(f.argument_attributes)["arg0"] == "{mhal.read_access}"
    assert f.is_kernel and "original_func = @bert_part_11__part_0" in f.attributes
    text = va.write_mlir(va.mlir.MlirModule((f,)))
    assert "%0 = rock.transform %arg1 by <affine_map<(d0, d1, d2) -> (0, d0, d1, d2)> by [<Merge" in text


@pytest.mark.parametrize(("text", "kind", "opaque"), [
    ('%0 = "rock.workgroup_id"() : () -> index', "rock.workgroup_id", "3:8"),
    ('%0 = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>',
     "memref.alloc", "3:8"),
    ('"rock.zero_init_kernel"(%a) : (memref<4xf32>) -> ()', "rock.zero_init_kernel", None)])
def test_generic_ops_without_a_handler_stay_opaque_others_are_read(text, kind, opaque):
    source = ('"func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({\n'
              f'^bb0(%a: memref<4xf32>, %n: index):\n  {text}\n  "func.return"() : () -> ()\n}}) : () -> ()\n')
    (f,) = va.read_mlir(source).functions
    (op,) = f.kernel.ops
    assert (op.kind, op.attr("opaque")) == (kind, opaque)


def test_a_generic_function_that_cannot_be_read_is_named_where_it_fails():
    text = ('"func.func"() <{function_type = (memref<4xf32>) -> (), sym_name = "g"}> ({\n^bb0(%a: memref<4xf32>):\n'
            '  "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()\n  "func.return"() : () -> ()\n}) : () -> ()\n')
    (u,) = va.read_mlir(text, errors="collect").unreadable
    assert (u.name, str(u.error)) == ("g", "3:21: %b is not defined (or not a memref)")
    assert va.write_mlir(va.read_mlir(text, errors="collect")) == text


def test_cli_generic(tmp_path):
    out = tmp_path / "out.mlir"
    result = run("regularize", str(DATA / "rocmlir" / "regularize.mlir"), "--style", "rocmlir", "--generic",
                 "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert '"rock.gridwise_gemm_accel"(' in text and "rock.transform %" not in text
    parse(text)


# {{{ generated kernels


def as_mlir(k: va.kernel.Kernel) -> str:
    """A generated kernel as rocMLIR writes one: its generics compute exp (the body's function
    is not what is checked here)."""
    def t(v: str) -> str:
        return f"memref<{''.join(f'{s}x' for s in k.shape(v))}f32>"

    lines = [f"func.func @{k.name}({', '.join(f'%{a}: {t(a)}' for a in k.arguments())}) attributes {{kernel}} {{"]
    for v in k.values.values():
        if v.name in k.allocs():
            lines.append(f"  %{v.name} = memref.alloc() : {t(v.name)}")
        elif v.name not in k.arguments():  # a view
            below = v.source
            for i, m in enumerate(reversed(v.maps)):
                name = v.name if i == len(v.maps) - 1 else f"{v.name}_{i}"
                lines.append(f"  %{name} = rock.transform %{below} by {va.print_transform_map(m)} : "
                             f"memref<{''.join(f'{s}x' for s in m.lower_bounds)}f32> to "
                             f"memref<{''.join(f'{s}x' for s in m.upper_bounds)}f32>")
                below = name
    for op in k.ops:
        if op.root:
            (a, b), (c,) = op.reads, op.writes
            lines.append(f"  rock.gridwise_gemm %{c} = %{a} * %{b} storeMethod(set) : {t(c)} = {t(a)} * {t(b)}")
        else:
            (r,), (w,) = op.reads, op.writes
            dims = ", ".join(f"d{i}" for i in range(len(k.shape(w))))
            identity = f"affine_map<({dims}) -> ({dims})>"
            parallel = ", ".join(['"parallel"'] * len(k.shape(w)))
            lines += [f"  linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{parallel}]}}"
                      f" ins(%{r} : {t(r)}) outs(%{w} : {t(w)}) {{",
                      "  ^bb0(%i: f32, %o: f32):", "    %e = math.exp %i : f32", "    linalg.yield %e : f32", "  }"]
    return "\n".join([*lines, "  return", "}"])


@settings(derandomize=True, deadline=None, max_examples=15)
@given(kernel=fused_kernels())
def test_generated_kernels_write_mlir(kernel):
    module = va.read_mlir(as_mlir(kernel))
    (f,) = module.functions
    for style in ("seed", "rocmlir"):
        check(module, {f.name: va.regularize(f.kernel, style).kernel})


# }}}


def test_ops_kept_as_written_print_by_their_dialect():
    """An op kept as written of a dialect MLIR's parser reads (memref.view) stays in custom form
    in a generic module; a rock op kept as written (rock.dealloc) prints in generic form."""
    text = (DATA / "rocmlir/read/blockwise_reducesum_nr_threads_gt_blocksize.mlir").read_text()
    module = va.read_mlir(text)
    written = va.write_mlir(module, generic=True)
    parse(written)
    assert "= memref.view " in written and '"rock.dealloc"(' in written and "rock.dealloc %" not in written
    assert va.read_mlir(va.write_mlir(module)).functions  # the custom form is written


