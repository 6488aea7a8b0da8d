"""Generic form of the ops MLIR's parser reads only so (``viewalgebra/_mlir/generic_text.py``):
each mechanism on a case worked out by hand from the op's definition in rocMLIR's ``RockOps.td``
(operand order, segment sizes, attribute kinds, types a trait gives, ``rock.transforming_for``'s
block arguments), ``MIGraphX.td`` and ``MHALOps.td`` (types written without their dialect prefix,
typed literals, a symbol and token operands), ops with no definition taken as written, and the
refusals; then every rock op of the repository's rocMLIR files, each converted statement keeping
its operands and parsing in MLIR's own parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from iree.compiler import ir  # MLIR's Python bindings: the 'mlir' extra
from rocmlir_data import DATA

import viewalgebra as va
from viewalgebra.errors import MlirWriteError
from viewalgebra.mlir import generic_ops


def parses(text: str) -> None:
    context = ir.Context()
    context.allow_unregistered_dialects = True
    ir.Module.parse(text, context)


def function(body: str, args: str = "") -> str:
    return f"func.func @f({args}) {{\n{body}\n  return\n}}"


def test_operands_in_the_order_of_the_definition() -> None:
    # RockOps.td: buffer_load(source, valid: I1, coords: Variadic<Index>), written source[coords] if valid
    text = function("  %v = rock.buffer_load %buf[%i, %j] if %ok : memref<4x4xf32>, index, index -> f32",
                    "%buf: memref<4x4xf32>, %ok: i1, %i: index, %j: index")
    out = generic_ops(text)
    assert '%v = "rock.buffer_load"(%buf, %ok, %i, %j) : (memref<4x4xf32>, i1, index, index) -> f32' in out
    parses(out)


def test_segments_and_types_from_traits() -> None:
    # index_diff_update: AttrSizedOperandSegments; lowerDiff has lowerIndices' types (AllTypesMatch),
    # upperDiffs and lowerOrig are Variadic<Index>; the format writes type($lowerIndices) only
    text = function("  %r:4 = rock.index_diff_update #transform_map<(d0) -> (d0)>(%a, %b) + (%c, %d) : index, index",
                    "%a: index, %b: index, %c: index, %d: index")
    out = generic_ops(text.replace("#transform_map<(d0) -> (d0)>", "#m"))
    assert ('%r:4 = "rock.index_diff_update"(%a, %b, %c, %d) <{map = #m, operandSegmentSizes = array<i32: 2, 2>}> '
            ": (index, index, index, index) -> (index, index, index, index)") in out


def test_attribute_kinds_and_unit_attributes() -> None:
    text = ('  rock.gemm tr %c = %a * tr %b features = mfma|dot storeMethod = set {arch = "gfx942", gridSize = 4 : i32}'
            " : memref<4x4xf32> = memref<4x4xf16> * memref<4x4xf16>")
    out = generic_ops(function(text, "%a: memref<4x4xf16>, %b: memref<4x4xf16>, %c: memref<4x4xf32>"))
    assert ('"rock.gemm"(%a, %b, %c) <{arch = "gfx942", bTransposed, cTransposed, '
            "features = #rock<GemmFeatures mfma|dot>, gridSize = 4 : i32, storeMethod = #rock<StoreMethod set>}> "
            ": (memref<4x4xf16>, memref<4x4xf16>, memref<4x4xf32>) -> ()") in out
    parses(out)


def test_an_elided_transform_map_gets_its_prefix() -> None:
    m = "<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>] bounds = [4] -> [4]>"
    out = generic_ops(function(f"  %0 = rock.transform %x by {m} : memref<4xf32> to memref<4xf32>",
                               "%x: memref<4xf32>"))
    assert f"<{{transform = #rock.transform_map{m}}}>" in out
    parses(out)


def test_keyworded_attributes_moved_between_versions() -> None:
    # A newer rocMLIR writes gridwise_gemm_accel's features in the dictionary, not as `features = ...`
    written = ("  rock.gridwise_gemm_accel(%a, %b, %c) storeMethod( set) {arch = \"gfx942\", blockSize = 256 : i32, "
               "features = #rock<GemmFeatures mfma>, gridSize = 4 : i32, params = #p} "
               ": memref<1x4x4xf16>, memref<1x4x4xf16>, memref<1x4x4xf32>")
    args = "%a: memref<1x4x4xf16>, %b: memref<1x4x4xf16>, %c: memref<1x4x4xf32>"
    out = generic_ops(function(written, args))
    assert "features = #rock<GemmFeatures mfma>" in out and "storeMethod = #rock<StoreMethod set>" in out
    assert '"rock.gridwise_gemm_accel"(%a, %b, %c)' in out
    assert " {arch" not in out and "<{arch" in out  # every attribute of the definition is a property


def test_transforming_for_block_arguments() -> None:
    # RockOps.td: lowerStarts holds each domain's first lower coordinate, then the validities',
    # then the iteration arguments' ([0, 2, 3] is one domain of two coordinates)
    text = function("\n".join([
        "  %r = rock.transforming_for {forceUnroll} (%l0, %l1) = [#m](%u0), (%k0, %k1) = [](%u0) "
        "(%v0, %v1) = validity iter_args(%acc = %x) -> (f32) bounds [2] strides [1] {",
        "    %y = arith.addf %acc, %acc : f32",
        "    rock.yield %y : f32",
        "  }"]), "%u0: index, %x: f32")
    out = generic_ops(text)
    assert ("%r = \"rock.transforming_for\"(%u0, %u0, %x) <{bounds = [2 : index], forceUnroll, "
            "lowerStarts = dense<[0, 2, 4, 6]> : vector<4xi32>, operandSegmentSizes = array<i32: 2, 1>, "
            "strides = [1 : index], transforms = [[#m], []]}> ({") in out
    assert "^bb0(%l0: index, %l1: index, %k0: index, %k1: index, %v0: i1, %v1: i1, %acc: f32):" in out
    assert '"rock.yield"(%y) : (f32) -> ()' in out and out.count("rock.yield") == 1
    assert "}) : (index, index, f32) -> f32" in out


def test_an_implicit_yield_is_written() -> None:
    text = function("  rock.transforming_for (%l) = [](%u) (%v) = validity bounds [2] strides [1] {\n  }", "%u: index")
    out = generic_ops(text)
    assert '"rock.yield"() : () -> ()' in out
    parses(out)


def test_transforming_for_of_older_rocmlir_has_no_validities() -> None:
    # rocMLIR's older parser (RockOps.cpp before validities): no '(%v) = validity', lowerStarts one
    # entry per domain and the end; Dialect/Rock/fusion-invalid.mlir is written so
    text = function("  rock.transforming_for (%a, %b) = [](%u, %u) bounds [1, 8] strides [1, 1] {\n  }", "%u: index")
    out = generic_ops(text)
    assert "lowerStarts = dense<[0, 2]> : vector<2xi32>" in out
    assert "^bb0(%a: index, %b: index):" in out
    parses(out)


def test_a_type_a_trait_derives_is_taken_from_the_value() -> None:
    # RockOps.td: threadwise_read_into's dynamicValidities are TypesMatchWith the dest's shape in
    # i1, which the table cannot state: the operand's own type is used
    text = function(
        "  %r = rock.threadwise_read_into [](%s)[%i] -> %d if [%ok] : memref<4xf32> -> memref<4xf32>, vector<4xi1>",
        "%s: memref<4xf32>, %d: memref<4xf32>, %ok: vector<4xi1>, %i: index")
    out = generic_ops(text)
    assert ('"rock.threadwise_read_into"(%s, %d, %ok, %i) <{extraViews = [], operandSegmentSizes = '
            "array<i32: 1, 1, 1, 1>}> : (memref<4xf32>, memref<4xf32>, vector<4xi1>, index) -> vector<4xi1>") in out
    parses(out)


def test_an_attribute_dictionary_over_several_lines_is_not_a_region() -> None:
    # Conversion/MIGraphXToTosa/migraphx-to-tosa-bwd-failure.mlir writes its attributes so
    body = "  %s = foo.conv %a {\n    dilation = [1, 1],\n    group = 1 : i64\n  } : (f32) -> f32"
    out = generic_ops(function(body, "%a: f32"))
    assert '%s = "foo.conv"(%a) {dilation = [1, 1], group = 1 : i64} : (f32) -> f32' in out
    parses(out)


def test_call_gets_its_dialect_in_a_generic_function() -> None:
    # func.func's custom parser makes func the default dialect; a generic-form region has none
    # (Dialect/Rock/gpu_launch.mlir calls so)
    text = "func.func @g() {\n  return\n}\nfunc.func @main() {\n  call @g() : () -> ()\n  return\n}\n"
    out = va.write_mlir(va.read_mlir(text), generic=True)
    assert '  func.call @g() : () -> ()' in out
    parses(out)


def test_ops_without_a_definition_as_written() -> None:
    body = "\n".join([
        "  %n = migraphx.backwards_data_convolution %m, %m : <2x3xf32, 3x1>, <2x3xf32, 3x1> -> <2x3xf32, 3x1>",
        "  %s = foo.bar %a, %a {x = 1 : i32} : (f32, f32) -> f32",
        "  rock.stage {",
        "    rock.lds_barrier",
        "  } {name = \"A\"}"])
    out = generic_ops(function(body, "%a: f32, %m: !migraphx.shaped<2x3xf32, 3x1>"))
    assert ('%n = "migraphx.backwards_data_convolution"(%m, %m) : (!migraphx.shaped<2x3xf32, 3x1>, '
            "!migraphx.shaped<2x3xf32, 3x1>) -> !migraphx.shaped<2x3xf32, 3x1>") in out
    assert '%s = "foo.bar"(%a, %a) {x = 1 : i32} : (f32, f32) -> f32' in out
    assert '"rock.stage"() ({\n    "rock.lds_barrier"() : () -> ()\n  }) {name = "A"} : () -> ()' in out
    parses(out)


def test_migraphx_ops_by_their_definitions() -> None:
    # MIGraphX.td: quantizelinear(input, scale, bias: Optional), the format writing each type with
    # MIXRShapedType's parser (no '!migraphx.shaped'); axis is no attribute of it (discardable);
    # convolution's padding, stride, dilation, group, padding_mode are its attributes (properties);
    # literal's ElementsAttr value carries its own type
    shaped = "!migraphx.shaped"
    body = "\n".join([
        "  %q = migraphx.quantizelinear %x, %s, %b {axis = 1 : i64} : <2x4xf32, 4x1>, <4xf32, 1>, <4xi8, 1> "
        "-> <2x4xi8, 4x1>",
        "  %p = migraphx.quantizelinear %x, %s : <2x4xf32, 4x1>, <4xf32, 1> -> <2x4xi8, 4x1>",
        "  %c = migraphx.convolution %in, %f {dilation = [1, 1], group = 1 : i64, padding = [0, 0, 0, 0], "
        "padding_mode = 0 : i64, stride = [1, 1], xdlopsV2 = true} : <1x3x4x4xf32, 48x16x4x1>, "
        "<2x3x1x1xf32, 3x1x1x1> -> <1x2x4x4xf32, 32x16x4x1>",
        "  %l = migraphx.literal (dense<[1, 2]> : tensor<2xi32>) : <2xi32, 1>"])
    args = (f"%x: {shaped}<2x4xf32, 4x1>, %s: {shaped}<4xf32, 1>, %b: {shaped}<4xi8, 1>, "
            f"%in: {shaped}<1x3x4x4xf32, 48x16x4x1>, %f: {shaped}<2x3x1x1xf32, 3x1x1x1>")
    out = generic_ops(function(body, args))
    assert (f'%q = "migraphx.quantizelinear"(%x, %s, %b) {{axis = 1 : i64}} : ({shaped}<2x4xf32, 4x1>, '
            f"{shaped}<4xf32, 1>, {shaped}<4xi8, 1>) -> {shaped}<2x4xi8, 4x1>") in out
    assert (f'%p = "migraphx.quantizelinear"(%x, %s) : ({shaped}<2x4xf32, 4x1>, {shaped}<4xf32, 1>) '
            f"-> {shaped}<2x4xi8, 4x1>") in out
    assert ('%c = "migraphx.convolution"(%in, %f) <{dilation = [1, 1], group = 1 : i64, padding = [0, 0, 0, 0], '
            f"padding_mode = 0 : i64, stride = [1, 1]}}> {{xdlopsV2 = true}} : ({shaped}<1x3x4x4xf32, 48x16x4x1>, "
            f"{shaped}<2x3x1x1xf32, 3x1x1x1>) -> {shaped}<1x2x4x4xf32, 32x16x4x1>") in out
    assert (f'%l = "migraphx.literal"() <{{value = dense<[1, 2]> : tensor<2xi32>}}> : () -> {shaped}<2xi32, 1>'
            in out)
    parses(out)


def test_mhal_ops_by_their_definitions() -> None:
    # MHALOps.td: launch(callee: FlatSymbolRefAttr, dependencies: Variadic<token>, launchOperands:
    # Variadic) -> (token, results: Variadic), AttrSizedOperandSegments; the format types neither
    # the dependencies nor the token (both !mhal.token); await's custom directive reads no result
    body = "\n".join([
        "  %t0 = mhal.launch @f (%a) : (f32)",
        "  %t1, %r = mhal.launch @g [%t0] (%a, %a) : (f32, f32) -> f32",
        "  mhal.await %t1 : !mhal.token"])
    out = generic_ops(function(body, "%a: f32"))
    assert '%t0 = "mhal.launch"(%a) <{callee = @f, operandSegmentSizes = array<i32: 0, 1>}> : (f32) -> !mhal.token' in out
    assert ('%t1, %r = "mhal.launch"(%t0, %a, %a) <{callee = @g, operandSegmentSizes = array<i32: 1, 2>}> '
            ": (!mhal.token, f32, f32) -> (!mhal.token, f32)") in out
    assert '"mhal.await"(%t1) : (!mhal.token) -> ()' in out
    parses(out)


def test_older_migraphx_syntax_as_written_when_it_fits_the_definition() -> None:
    # MIGraphXOps.td of an older rocMLIR: '`(`$inA `,` $inB`)` attr-dict `:` `(`type($inA) ...'
    # (fusion/e2e/mixr-*.mlir): the same operands in the same order, so taken as written; its
    # attribute axis is still a property
    body = "\n".join([
        "  %s = migraphx.add(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
        "  %m = migraphx.softmax(%s){axis = 0 : i64} : tensor<4xf32> -> tensor<4xf32>"])
    out = generic_ops(function(body, "%a: tensor<4xf32>"))
    assert '%s = "migraphx.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>' in out
    assert '%m = "migraphx.softmax"(%s) <{axis = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>' in out
    parses(out)


@pytest.mark.parametrize("statement", [
    "  %s = migraphx.add(%a) : (tensor<4xf32>) -> tensor<4xf32>",  # one operand where it takes two
    "  %s = migraphx.literal dense<1> : <1xi32, 1>",  # neither its form nor operands and types only
    "  %t = mhal.launch @f [%a] %a : (tensor<4xf32>)",  # two operand groups: which is which?
])
def test_migraphx_and_mhal_ops_their_definition_does_not_read_are_refused(statement: str) -> None:
    with pytest.raises(MlirWriteError, match=r"^(migraphx|mhal)\.\w+: no generic form: .*does not follow its definition.*; nor can it be taken as written"):
        generic_ops(function(statement, "%a: tensor<4xf32>"))


@pytest.mark.parametrize("statement", [
    "  %s = foo.bar %a by %a : f32",  # a keyword only its parser knows
    "  %v = rock.buffer_load %buf[%i] : memref<4xf32>, index -> f32",  # not its definition's form
    "  %s = foo.bar %a, %b : f32, f32",  # %b's type unknown, a result type missing
])
def test_refused_with_the_op_and_its_line(statement: str) -> None:
    with pytest.raises(MlirWriteError, match=r"^3:3: (foo\.bar|rock\.buffer_load): no generic form"):
        generic_ops(function("  %c = arith.constant 0 : index\n" + statement, "%a: f32, %buf: memref<4xf32>"), line=1)


def test_upstream_ops_and_generic_ops_are_kept() -> None:
    body = "\n".join([
        "  %c = arith.constant 0 : index",
        "  %0 = \"rock.workgroup_id\"() : () -> index",
        "  affine.for %i = 0 to 4 {",
        "    %1 = rock.workitem_id : index",
        "  }"])
    text = function(body)
    out = generic_ops(text)
    assert out == text.replace("%1 = rock.workitem_id : index", '%1 = "rock.workitem_id"() : () -> index')


# {{{ every rock op of the repository's rocMLIR files


def _rock_statements() -> list[tuple[str, str]]:
    """Every one-line rock op of the data (``%x = rock.op ...`` or ``rock.op ...``)."""
    found: list[tuple[str, str]] = []
    for path in sorted([*DATA.rglob("*.mlir"), *(Path(__file__).parent.parent / "examples").glob("*.mlir")]):
        text = path.read_text()
        if "##TOKEN" in text:  # a lit template (sed fills it in), not MLIR
            continue
        for line in text.split("\n"):
            m = re.match(r"\s*(?:%[\w$.\-]+(?::\d+)?(?:, %[\w$.\-]+)* = )?(rock\.\w+)\b(.*)", line)
            balanced = all(line.count(a) == line.count(b) for a, b in ("()", "[]", "{}"))
            if m and balanced and m.group(1) != "rock.transforming_for" and not line.rstrip().endswith("by"):
                found.append((f"{path.name}:{m.group(1)}", line.strip()))
    return found


_STATEMENTS = _rock_statements()
_REFUSALS = ("does not follow its definition", "not written and not known", "only its own parser understands")
"""Why a rock op of the data may have no generic form: written in another version's syntax than
the definitions known, or with no definition known (``rock_ops.py``)."""
_OPERAND = re.compile(r"%[\w$.\-]+(?:#\d+)?")


def test_every_rock_op_keeps_its_operands() -> None:
    """Each rock op of the data written with a definition known keeps exactly its operands (as a
    multiset: the definition reorders them) and, when one type is given for each, parses."""
    converted = 0
    for where, statement in _STATEMENTS:
        try:
            line = generic_ops(statement)
        except MlirWriteError as e:
            assert any(reason in str(e) for reason in _REFUSALS), where
            continue
        converted += 1
        results, _, rest = statement.partition("=") if statement.lstrip().startswith("%") else ("", "", statement)
        op_part = line.split(" = ", 1)[1] if results else line
        operands = sorted(_OPERAND.findall(op_part.split(")", 1)[0]))
        defined = set(_OPERAND.findall(results))
        custom = [v for v in _OPERAND.findall(re.sub(r"\{[^{}]*\}", "", rest).split(":")[0]) if v not in defined]
        assert operands == sorted(custom), where
    assert converted >= 0.8 * len(_STATEMENTS), (converted, len(_STATEMENTS))
