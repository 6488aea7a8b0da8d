"""The ops of rocMLIR's MIGraphX and MHAL dialects as data, in the form of ``rock_ops.py``
(``OpDef``): what turning an op's custom form (its declarative ``assemblyFormat``) into MLIR's
generic form needs.

Read from:

* ``mlir/include/mlir/Dialect/MIGraphX/IR/MIGraphX.td`` at ROCm/rocMLIR commit 03825280edcc
  (attribute kinds: ``I64Attr`` -> ``"i64"``, ``F32Attr`` -> ``"f32"``, ``StrAttr`` -> ``"str"``,
  ``I64ArrayAttr``, ``ElementsAttr``, ``SymbolRefAttr`` -> ``""``; ``PadOpModeAttr`` is an
  ``I32EnumAttr`` of ``mlir/include/mlir/Dialect/MIGraphX/IR/MIGraphXTypes.td``, stored as an
  ``i32``), and the same file in the fork trixirt/rocMLIR at commit e6a9480fcf94, a newer
  version, for the two ops it adds (``unpack``, ``reduce_sum``), marked "newer" below; its other
  ops print as in 03825280;
* ``external/mlir-hal/include/mlir/Dialect/MHAL/IR/MHALOps.td`` at ROCm/rocMLIR commit
  6ca104f643d0, with ``mhal.await``'s custom directive read from
  ``external/mlir-hal/lib/Dialect/MHAL/IR/MHALOps.cpp`` (commit 7255e20d7ab6).

Every op of those files has an ``assemblyFormat``. rocMLIR's test files use MIGraphX ops that no
stored version defines (``migraphx.attention``, ``migraphx.yield``,
``migraphx.backwards_data_convolution``): they are printed as written (docs/cli.md, 'Generic
form'), and so are ops written in the syntax of rocMLIR's older ``MIGraphXOps.td`` (ROCm/rocMLIR
``mlir/include/mlir/Dialect/MIGraphX/MIGraphXOps.td`` at commit 001fb1c53e3c:
``migraphx.add(%a, %b) : (T, T) -> T``), see ``AS_WRITTEN``.
"""

from __future__ import annotations

from .rock_ops import OpDef

SHAPED = "!migraphx.shaped"
"""MIGraphX's shaped type (``MIGraphX_ShapedType``, mnemonic ``shaped``), which a format's type
directive reads without its dialect prefix (``<2x3xf32, 3x1>``): every ``MIXRShapedOf``
constraint names its C++ class ``MIXRShapedType``."""

ELIDED_TYPES = {"migraphx": SHAPED}
"""The type a type directive of an op of this dialect reads when written as ``<...>``."""

AS_WRITTEN = frozenset({"migraphx", "mhal"})
"""Dialects whose ops, when written in a form their definition here does not read, are still
printed as written if that is all they hold (operands, an attribute dictionary, types) and the
operand and result counts fit the definition: rocMLIR's older MIGraphX syntax (``MIGraphXOps.td``
at 001fb1c53e3c) differs from the stored one in punctuation only (parenthesized operands,
function-like types), the operands in the definition's order either way. Rock ops are not
(``rock_ops.py``): their older and newer syntaxes move operands and attributes."""


def _unary(*attributes: tuple[str, str]) -> OpDef:
    return OpDef(operands=("input",), results=("output",), attributes=attributes,
                 format="$input attr-dict `:` type($input) `->` type($output)")


_BINARY = OpDef(operands=("inA", "inB"), results=("output",),
                format="$inA `,` $inB attr-dict `:` type($inA) `,` type($inB) `->` type($output)")
_ELEMENTWISE = OpDef(operands=("inA",), results=("output",),
                     format="$inA attr-dict `:` type($inA) `->` type($output)")
_CONVOLUTION = OpDef(
    operands=("input", "filter"), results=("output",),
    attributes=(("padding", ""), ("stride", ""), ("dilation", ""), ("group", "i64"),
                ("padding_mode", "i64"), ("perf_config", "str")),
    format="$input `,` $filter attr-dict `:` type($input) `,` type($filter) `->` type($output)")
_DOT = OpDef(operands=("in_a", "in_b"), results=("output",),
             format="$in_a `,` $in_b attr-dict `:` type($in_a) `,` type($in_b) `->` type($output)")
_QUANTIZE = OpDef(
    operands=("input", "scale", "bias?"), results=("output",),
    format="$input `,` $scale (`,` $bias^)? attr-dict `:` type($input) `,` type($scale) "
           "(`,` type($bias)^)? `->` type($output)")
_AS_SHAPE = OpDef(operands=("in",), results=("out",), format="$in attr-dict `:` type($in) `to` type($out)")

MIGRAPHX_OPS: dict[str, OpDef] = {
    "migraphx.literal": OpDef(
        results=("output",), attributes=(("value", ""),),
        format="`(` $value `)` attr-dict `:` type($output)"),
    **{f"migraphx.{name}": _BINARY for name in ("add", "sub", "mul", "div", "pow")},
    "migraphx.clip": OpDef(
        operands=("x", "minVals", "maxVals"), results=("output",),
        format="$x `,` $minVals `,` $maxVals attr-dict `:` type($x) `,` type($minVals) `,` "
               "type($maxVals) `->` type($output)"),
    "migraphx.where": OpDef(
        operands=("cond", "inA", "inB"), results=("output",),
        format="$cond `,` $inA `,` $inB attr-dict `:` type($cond) `,` type($inA) `,` type($inB) "
               "`->` type($output)"),
    "migraphx.convert": OpDef(
        operands=("inA",), results=("output",), format="$inA attr-dict `:` type($inA) `to` type($output)"),
    **{f"migraphx.{name}": _ELEMENTWISE for name in (
        "abs", "ceil", "erf", "exp", "floor", "log", "neg", "recip", "relu", "rsqrt", "sigmoid", "sqrt",
        "tanh")},
    # newer (e6a9480f).
    "migraphx.unpack": OpDef(
        operands=("in",), results=("out",), attributes=(("axis", "i64"),),
        format="$in attr-dict `:` type($in) `->` type($out)"),
    "migraphx.quantizelinear": _QUANTIZE,
    "migraphx.dequantizelinear": _QUANTIZE,
    "migraphx.mlir.as.logical.shape": _AS_SHAPE,
    "migraphx.mlir.as.underlying.shape": _AS_SHAPE,
    "migraphx.quant_convolution": _CONVOLUTION,
    "migraphx.convolution": _CONVOLUTION,
    "migraphx.batch_norm_inference": OpDef(
        operands=("input", "a", "b", "c", "d"), results=("output",),
        attributes=(("epsilon", "f32"), ("momentum", "f32"), ("bn_mode", "i64")),
        format="operands attr-dict `:` type(operands) `->` type($output)"),
    "migraphx.pad": _unary(("pads", ""), ("value", "f32"), ("mode", "i32")),
    "migraphx.pooling": _unary(("mode", "str"), ("padding", ""), ("stride", ""), ("length", ""),
                               ("ceil_mode", "i64")),
    "migraphx.flatten": _unary(("axis", "i64")),
    "migraphx.transpose": _unary(("permutation", "")),
    "migraphx.reshape": _unary(("dims", "")),
    "migraphx.slice": _unary(("axes", ""), ("ends", ""), ("starts", "")),
    "migraphx.broadcast": _unary(("axis", "i64"), ("out_lens", "")),
    "migraphx.multibroadcast": _unary(("out_lens", "")),
    "migraphx.quant_dot": _DOT,
    "migraphx.dot": _DOT,
    "migraphx.softmax": _unary(("axis", "i64")),
    "migraphx.reduce_mean": _unary(("axes", "")),
    # newer (e6a9480f).
    "migraphx.reduce_sum": _unary(("axes", "")),
    "migraphx.code_object": OpDef(
        operands=("kernelArgs*",), results=("outputs*",),
        attributes=(("kernel", ""), ("globalSize", ""), ("localSize", "")),
        format="attr-dict `(`$kernelArgs`)` `:` `(`type($kernelArgs)`)` `->` type($outputs)"),
}
"""Every MIGraphX op, keyed by its full name."""

TOKEN = "!mhal.token"
"""MHAL's token type (``MHAL_TokenType``, a buildable type), as rocMLIR's test files write it."""

MHAL_OPS: dict[str, OpDef] = {
    # AttrSizedOperandSegments; the dependencies are tokens, the first result a token.
    "mhal.launch": OpDef(
        operands=("dependencies*", "launchOperands*"), results=("token", "results*"),
        attributes=(("callee", ""),),
        format="$callee (` ` `[` $dependencies^ `]`)? `(` $launchOperands `)` attr-dict "
               "`:` `(` type($launchOperands) `)` (`->` type($results)^)?",
        segments=True, types=(("dependencies", TOKEN), ("token", TOKEN))),
    # MHALOps.td: "$operand `:` custom<AwaitResultType>(type($operand), type($result)) attr-dict";
    # the directive's parser (parseAwaitResultType, MHALOps.cpp) reads the operand's type and
    # never a result type, so the custom form has no result: written here as the type directive.
    "mhal.await": OpDef(
        operands=("operand",), results=("result?",), format="$operand `:` type($operand) attr-dict",
        types=(("result", ""),)),
}
"""Every MHAL op, keyed by its full name."""
