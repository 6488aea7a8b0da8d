"""The ops of rocMLIR's rock dialect as data: what turning an op's custom form (its declarative
``assemblyFormat``) into MLIR's generic form needs.

Read from ``mlir/include/mlir/Dialect/Rock/IR/RockOps.td`` (enum mnemonics from
``mlir/include/mlir/Dialect/Rock/IR/RockAttrDefs.td``):

* the newest version stored, a fork of rocMLIR at commit 95306a7b0e7c (vjelic/rocMLIR-glog-fork,
  both files): every op it defines is taken from it;
* ROCm/rocMLIR at commit 85cd228c46d4, for the ops that version defines and the newer one no longer
  does (``conv2d``, ``conv2d_bwd_data``, ``conv2d_bwd_weight``, ``zero_init_kernel``,
  ``buffer_load``, ``buffer_store``, ``accel_gemm``, ``in_warp_transpose``), marked "older" below.

Where the two versions print an op differently, the entry holds the newer form and a comment names
the older one. rocMLIR's test files are sometimes newer than both (``rock.blockwise_gemm_accel``
with ``matrixParamsA``) or older (``rock.blockwise_reduce``, in neither version: its entry is 85cd228c's
``blockwise_broadcast_reduce`` under the name the test files use).

In ``types``, the kind ``""`` marks a type a trait derives with a transform the table cannot state
(``TypesMatchWith`` building a vector of ``i1``); a comment on the entry says how.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OpDef:
    """One rock op as ``RockOps.td`` defines it: what its generic form needs."""

    operands: tuple[str, ...] = ()
    """The op's operands in definition (ODS) order: ``"a"``, ``"b?"`` (Optional), ``"c*"`` (Variadic)."""
    results: tuple[str, ...] = ()
    """Its results, same marks."""
    attributes: tuple[tuple[str, str], ...] = ()
    """Every attribute argument (inherent attribute) in ODS order with its kind: ``"i32"`` (I32Attr and
    I32Attr confined), ``"i64"``, ``"index"`` (IndexAttr), ``"f32"``, ``"unit"`` (UnitAttr), ``"str"``
    (StrAttr), ``"enum:<Mnemonic>"`` for enum attributes printed as ``#rock<Mnemonic value>`` in generic
    form (e.g. ``"enum:GemmFeatures"``, ``"enum:StoreMethod"``, ``"enum:ReduceMethod"`` — take the
    mnemonic from RockAttrDefs.td / the enum's EnumAttr definition), or ``""`` for every other
    attribute (arrays, transform maps, tuning params: printed with their full syntax either way).
    OptionalAttr/DefaultValuedAttr wrappers: the kind of the wrapped attribute."""
    format: str = ""
    """The ``assemblyFormat`` with whitespace collapsed to single spaces; ``""`` when the op has
    ``hasCustomAssemblyFormat = 1`` (a hand-written parser)."""
    regions: tuple[str, ...] = ()
    """Region names in ODS order (``"region"``), ``"name*"`` for VariadicRegion."""
    segments: bool = False
    """``AttrSizedOperandSegments``."""
    result_segments: bool = False
    """``AttrSizedResultSegments``."""
    types: tuple[tuple[str, str], ...] = ()
    """The type of every operand or result the format does not print with a type directive
    (``type($x)``, ``type(operands)``, ``type(results)``, ``functional-type``): ``(name, "index")``
    when its constraint is a buildable type (``Index`` -> ``index``, ``I1`` -> ``i1``, ``I32`` ->
    ``i32``...; for a Variadic<Index> every element is ``index``), or ``(name, "=other")`` when a
    trait gives it the type of another operand/result (``AllTypesMatch<["x", "y"]>``,
    ``SameOperandsAndResultType``, ``TypesMatchWith`` with an identity transform, ``SameVariadicResultSize``
    together with AllTypesMatch). When the format's types come from a trait you cannot express this
    way, add a comment saying so on that entry."""


_FEATURES = ("features", "enum:GemmFeatures")
_STORE = ("storeMethod", "enum:StoreMethod")
_REDUCE = ("reduceMethod", "enum:ReduceMethod")

_CONV_OPERANDS = ("filter", "input", "output")
_CONV_ATTRIBUTES = (("arch", "str"), _FEATURES, ("derivedBlockSize", "i32"), ("gridSize", "i32"),
                    ("padding", ""), ("strides", ""), ("dilations", ""), ("params", ""))
_CONV_FORMAT = "`(` operands `)` `features` `=` $features attr-dict `:` type(operands) (`->` type($result)^)?"

_GEMM_GEMM_ATTRIBUTES = (("arch", "str"), _FEATURES, ("numCU", "i32"), ("params0", ""), ("params1", ""),
                         ("firstGemmIdx", "i32"))

_KERNEL_SIZES = (("blockSize", "i32"), ("gridSize", "i32"), ("elemsPerThread", "index"))

ROCK_OPS: dict[str, OpDef] = {
    # -- kernel-level ops ------------------------------------------------------------------------
    # Newer rocMLIR tests write rock.conv without `features = ...` (and no features attribute).
    "rock.conv": OpDef(
        operands=_CONV_OPERANDS, results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("numCU", "i32")), format=_CONV_FORMAT),
    "rock.conv_bwd_data": OpDef(
        operands=_CONV_OPERANDS, results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("kernelId", "index"), ("numCU", "i32")), format=_CONV_FORMAT),
    "rock.conv_bwd_weight": OpDef(
        operands=(*_CONV_OPERANDS, "workspace?"), results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("kBlocks", "index"), ("numCU", "i32")), format=_CONV_FORMAT),
    # older (85cd228c): the 2-D convolutions, rank-5 operands; attribute ``numCu`` (not ``numCU``).
    "rock.conv2d": OpDef(
        operands=_CONV_OPERANDS, results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("numCu", "i32")), format=_CONV_FORMAT),
    "rock.conv2d_bwd_data": OpDef(
        operands=_CONV_OPERANDS, results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("numCu", "i32"), ("kernelId", "index")), format=_CONV_FORMAT),
    "rock.conv2d_bwd_weight": OpDef(
        operands=(*_CONV_OPERANDS, "workspace?"), results=("result?",),
        attributes=(*_CONV_ATTRIBUTES, ("kBlocks", "index"), ("numCu", "i32")), format=_CONV_FORMAT),
    # 85cd228c has no aAccelLayout/bAccelLayout; same format.
    "rock.gemm": OpDef(
        operands=("a", "b", "c"), results=("result?",),
        attributes=(("aTransposed", "unit"), ("bTransposed", "unit"), ("cTransposed", "unit"),
                    ("aAccelLayout", "unit"), ("bAccelLayout", "unit"), ("arch", "str"),
                    ("numCU", "i32"), _FEATURES, _STORE, ("derivedBlockSize", "i32"),
                    ("gridSize", "i32"), ("params", "")),
        format="(`tr` $cTransposed^)? $c `=` (`tr` $aTransposed^)? $a `*` (`tr` $bTransposed^)? $b "
               "`features` `=` $features `storeMethod` `=` $storeMethod attr-dict "
               "`:` type($c) `=` type($a) `*` type($b) (`->` type($result)^)?"),
    "rock.reduce": OpDef(
        operands=("in", "out"), results=("result?",),
        attributes=(_FEATURES, _REDUCE, ("axis", "index"), ("blockSize", "i32"), ("gridSize", "i32"),
                    ("useLDS", "unit"), ("useDPP", "unit")),
        format="$reduceMethod $in `into` $out `features` `=` $features attr-dict "
               "`:` type($in) `into` type($out) (`->` type($result)^)?"),
    # 85cd228c: operands (queries, keys, values, scale, out), attributes (features, blockSize,
    # gridSize), format "`(` operands `)` `features` `=` $features attr-dict `:` type(operands)
    # (`->` type($result)^)?".
    "rock.attention": OpDef(
        operands=("queries", "keys", "values", "preSoftmaxElemWiseInputs*", "currentSeqLen?", "out",
                  "lse?"),
        results=("result?", "lseOut?"),
        attributes=(("qTransposed", "unit"), ("kTransposed", "unit"), ("vTransposed", "unit"),
                    ("oTransposed", "unit"), ("causal", "unit"), ("arch", "str"), _FEATURES,
                    ("softmaxType", ""), ("numCU", "i32"), ("params0", ""), ("params1", ""),
                    ("firstGemmIdx", "i32")),
        format="`{` `\\n` ` ` `qk` `=` (`tr` $qTransposed^)? $queries `*` (`tr` $kTransposed^)? $keys "
               "`:` type($queries) `,` type($keys) `\\n` "
               "(`currentSeqLen` `=` `(` $currentSeqLen^ `:` type($currentSeqLen) `)` `\\n`)? "
               "(`causal` `\\n` $causal^)? (`lse` `=` $lse^ `:` type($lse) `\\n`)? "
               "(`qk` `=` `elementwise` (`otherIns` `(` $preSoftmaxElemWiseInputs^ `:` "
               "type($preSoftmaxElemWiseInputs) `)`)? $preSoftmaxBody^ `\\n`)? "
               "(`tr` $oTransposed^)? $out `=` `softmax` `(` `qk` `)` `*` (`tr` $vTransposed^)? $values "
               "`:` type($values) `->` type($out) `\\n` `}` attr-dict (`->` type($result)^)? "
               "(`,` type($lseOut)^)?",
        regions=("preSoftmaxBody",), segments=True, result_segments=True),
    "rock.gemm_elementwise_gemm": OpDef(
        operands=("a", "b", "c", "elemwiseInputs*", "out"), results=("result?",),
        attributes=(("aTransposed", "unit"), ("bTransposed", "unit"), ("cTransposed", "unit"),
                    ("oTransposed", "unit"), *_GEMM_GEMM_ATTRIBUTES),
        format="`{` `\\n` ` ` `ab` `=` (`tr` $aTransposed^)? $a `*` (`tr` $bTransposed^)? $b "
               "`:` type($a) `,` type($b) `\\n` "
               "(`ab` `=` `elementwise` (`otherIns` `(` $elemwiseInputs^ `:` type($elemwiseInputs) `)`)? "
               "$preSecondGemmBody^ `\\n`)? "
               "(`tr` $oTransposed^)? $out `=` `ab` `*` (`tr` $cTransposed^)? $c `:` type($c) `->` "
               "type($out) `\\n` `}` attr-dict (`->` type($result)^)?",
        regions=("preSecondGemmBody",)),
    # Newer rocMLIR tests carry ``firstGemmIndices = [0 : index]`` instead of firstGemmIdx.
    "rock.conv_elementwise_gemm": OpDef(
        operands=("filter", "input", "c", "elemwiseInputs*", "out"), results=("result?",),
        attributes=(("cTransposed", "unit"), ("oTransposed", "unit"), ("arch", "str"), _FEATURES,
                    ("numCU", "i32"), ("padding", ""), ("strides", ""), ("dilations", ""),
                    ("params0", ""), ("params1", ""), ("firstGemmIdx", "i32")),
        format="`{` `\\n` ` ` `ab` `=` `conv` `(` $filter `,` $input `)` `:` type($filter) `,` "
               "type($input) `\\n` "
               "(`ab` `=` `elementwise` (`otherIns` `(` $elemwiseInputs^ `:` type($elemwiseInputs) `)`)? "
               "$preSecondGemmBody^ `\\n`)? "
               "(`tr` $oTransposed^)? $out `=` `ab` `*` (`tr` $cTransposed^)? $c `:` type($c) `->` "
               "type($out) `\\n` `}` attr-dict (`->` type($result)^)?",
        regions=("preSecondGemmBody",)),
    "rock.init_kernel": OpDef(
        operands=("buffer",), results=("result?",),
        attributes=(_FEATURES, ("initValueAttr", ""), *_KERNEL_SIZES),
        format="$buffer `features` `=` $features attr-dict `:` type($buffer) (`->` type($result)^)?"),
    # older (85cd228c): renamed init_kernel (which added initValueAttr).
    "rock.zero_init_kernel": OpDef(
        operands=("buffer",), results=("result?",), attributes=(_FEATURES, *_KERNEL_SIZES),
        format="$buffer `features` `=` $features attr-dict `:` type($buffer) (`->` type($result)^)?"),
    "rock.converting_copy_kernel": OpDef(
        operands=("input", "output"), results=("result?",), attributes=(_FEATURES, *_KERNEL_SIZES),
        format="$input `to` $output `features` `=` $features attr-dict "
               "`:` type($input) `to` type($output) (`->` type($result)^)?"),
    # -- views -------------------------------------------------------------------------------------
    "rock.transform": OpDef(
        operands=("input",), results=("output",), attributes=(("transform", ""),),
        format="$input `by` $transform attr-dict `:` type($input) `to` type($output)"),
    "rock.tensor_untransform_cast": OpDef(
        operands=("transformedResult", "transformedArg"), results=("untransformed",),
        format="attr-dict $transformedResult `aka` $transformedArg "
               "`:` type($transformedResult) `to` type($untransformed)",
        types=(("transformedArg", "=transformedResult"),)),
    "rock.accel_layout_transform": OpDef(
        operands=("input",), results=("output",),
        attributes=(("isA", "unit"), ("transposed", "unit"), ("params", "")),
        format="$input attr-dict `:` type($input) `to` type($output)"),
    # -- gridwise ops --------------------------------------------------------------------------------
    # 85cd228c: attributes (features, gridSize, params), no `storeMethod` in the format.
    "rock.gridwise_gemm": OpDef(
        operands=("a", "b", "c"),
        attributes=(_FEATURES, _STORE, ("numCU", "i32"), ("gridSize", "i32"), ("params", "")),
        format="$c `=` $a `*` $b `storeMethod` `(` $storeMethod `)` `features` `=` $features attr-dict "
               "`:` type($c) `=` type($a) `*` type($b)"),
    # Newer rocMLIR tests omit `features = ...` and pass five operands (scaled gemm: scaleA and
    # scaleB after c), a version not stored.
    "rock.gridwise_gemm_accel": OpDef(
        operands=("a", "b", "c"),
        attributes=(("aAccelLayout", "unit"), ("bAccelLayout", "unit"), ("arch", "str"),
                    ("numCU", "i32"), _FEATURES, _STORE, ("blockSize", "i32"), ("gridSize", "i32"),
                    ("params", "")),
        format="`(` operands `)` `storeMethod` `(` $storeMethod `)` `features` `=` $features attr-dict "
               "`:` type(operands)"),
    "rock.gridwise_attention_accel": OpDef(
        operands=("queries", "keys", "values", "preSoftmaxElemWiseInputs*", "currentSeqLen?", "out",
                  "lse?"),
        attributes=(("causal", "unit"), ("arch", "str"), _FEATURES, ("blockSize", "i32"),
                    ("gridSize", "i32"), ("disableQBypassLDS", "unit"), ("prePadG0M", "index"),
                    ("prePadG0N", "index"), ("softmaxType", ""), ("params0", ""), ("params1", ""),
                    ("firstGemmIdx", "i32"), ("enableSoftmax", "")),
        format="`(` operands `)` `features` `=` $features `preSoftmaxOps` `=` $preSoftmaxBody attr-dict "
               "`:` type(operands)",
        regions=("preSoftmaxBody",), segments=True),
    # -- memory ------------------------------------------------------------------------------------
    "rock.alloc": OpDef(results=("output",), format="`(` `)` attr-dict `:` type($output)"),
    # Newer rocMLIR tests write ``rock.dealloc(%x) : type``, a version not stored.
    "rock.dealloc": OpDef(operands=("memref",), format="$memref attr-dict `:` type($memref)"),
    "rock.extract_multibuffer": OpDef(
        operands=("buffers*", "selectIndex"), results=("output",),
        format="`(` $buffers `)` `[` $selectIndex `]` attr-dict `(`type($buffers)`)` `:` type($output)",
        types=(("selectIndex", "index"),)),
    "rock.fill": OpDef(
        operands=("input", "value"), format="`(` operands `)` attr-dict `:` type(operands)"),
    "rock.blockwise_fill": OpDef(
        operands=("memref", "value"), attributes=(("blockSize", "i32"),),
        format="`(` operands `)` attr-dict `:` type(operands)"),
    # -- synchronization and ids -------------------------------------------------------------------
    "rock.workgroup_barrier": OpDef(format="attr-dict"),
    "rock.lds_barrier": OpDef(format="attr-dict"),
    "rock.workgroup_id": OpDef(results=("id",), format="attr-dict `:` type($id)"),
    "rock.workitem_id": OpDef(results=("id",), format="attr-dict `:` type($id)"),
    # -- vectors -----------------------------------------------------------------------------------
    "rock.extract_slice": OpDef(
        operands=("vector", "coord"), results=("result",),
        format="attr-dict $vector `[` $coord `]` `:` type($vector) `->` type($result)",
        types=(("coord", "index"),)),
    "rock.insert_slice": OpDef(
        operands=("source", "dest", "coord"), results=("result",),
        format="attr-dict $source `->` $dest `[` $coord `]` `:` type($source) `->` type($dest)",
        types=(("coord", "index"), ("result", "=dest"))),
    # older (85cd228c; described there as dead code).
    "rock.in_warp_transpose": OpDef(
        operands=("vector", "laneId"), results=("res",),
        attributes=(("size", "i32"), ("inGroupPerm", "")),
        format="attr-dict $vector `,` $laneId `:` type($vector) `,` type($laneId)",
        types=(("res", "=vector"),)),
    # -- loops -------------------------------------------------------------------------------------
    "rock.yield": OpDef(
        operands=("operands*",), format="attr-dict ($operands^ `:` type($operands))?"),
    "rock.transforming_for": OpDef(
        operands=("upperInits*", "iterInits*"), results=("results*",),
        attributes=(("transforms", ""), ("bounds", ""), ("strides", ""), ("lowerStarts", ""),
                    ("useIndexDiffs", "unit"), ("forceUnroll", "unit")),
        regions=("region",), segments=True,
        # Custom parser; iterInits and results take the types of its `iter_args(...) -> (...)`.
        types=(("upperInits", "index"),)),
    "rock.index_diff_update": OpDef(
        operands=("upperDiffs*", "lowerOrig*"), results=("lowerIndices*", "lowerDiff*"),
        attributes=(("map", ""),),
        format="attr-dict $map `(` $upperDiffs `)` `+` `(` $lowerOrig `)` `:` type($lowerIndices)",
        # SameVariadicResultSize, not AttrSizedResultSegments: the two result groups split evenly.
        segments=True,
        types=(("upperDiffs", "index"), ("lowerOrig", "index"), ("lowerDiff", "=lowerIndices"))),
    "rock.stage": OpDef(
        attributes=(("name", "str"),), regions=("region",)),
    # -- loads and stores --------------------------------------------------------------------------
    # older (85cd228c): replaced by global_load / global_store.
    "rock.buffer_load": OpDef(
        operands=("source", "valid", "coords*"), results=("result",),
        attributes=(("offset", "index"), ("oobIsOverflow", "unit")),
        format="$source `[` $coords `]` `if` $valid attr-dict "
               "`:` type($source) (`,` type($coords)^)? `->` type($result)",
        types=(("valid", "i1"),)),
    "rock.buffer_store": OpDef(
        operands=("data", "dest", "valid", "coords*"),
        attributes=(_FEATURES, _STORE, ("offset", "index"), ("oobIsOverflow", "unit")),
        format="$storeMethod $data `->` $dest `[` $coords `]` `if` $valid `features` `=` $features "
               "attr-dict `:` type($data) `->` type($dest) (`,` type($coords)^)?",
        types=(("valid", "i1"),)),
    "rock.in_bounds_load": OpDef(
        operands=("source", "coords*"), results=("result",),
        format="$source `[` $coords `]` attr-dict `:` type($source) `,` type($coords) `->` type($result)"),
    "rock.in_bounds_store": OpDef(
        operands=("data", "dest", "coords*"),
        format="$data `->` $dest `[` $coords `]` attr-dict `:` type($data) `->` type($dest) `,` "
               "type($coords)"),
    "rock.global_load": OpDef(
        operands=("source", "valid", "sourceCoord*"), results=("result",),
        attributes=(("needs64BitIdx", "unit"), ("canReadOffEnd", "unit")),
        format="$source `[` $sourceCoord `]` `if` $valid attr-dict `:` type($source) `->` type($result)",
        types=(("valid", "i1"), ("sourceCoord", "index"))),
    "rock.global_load_to_lds": OpDef(
        operands=("source", "dest", "valid", "sourceCoord*", "destCoord*"),
        attributes=(("transferType", ""), ("needs64BitIdx", "unit"), ("canReadOffEnd", "unit")),
        format="$source `[` $sourceCoord `]` `->` $dest `[` $destCoord `]` `if` $valid attr-dict "
               "`:` type($source) `->` type($dest)",
        segments=True,
        types=(("valid", "i1"), ("sourceCoord", "index"), ("destCoord", "index"))),
    # 85cd228c: `storeMethod` `(` $storeMethod `)` `features` `=` $features after `if` $valid, and
    # `,` type($destCoord) at the end; no needs64BitIdx / canStoreOffEnd / nontemporal.
    "rock.global_store": OpDef(
        operands=("source", "dest", "sourceCoord", "valid", "destCoord*"),
        attributes=(("length", "index"), _FEATURES, _STORE, ("needs64BitIdx", "unit"),
                    ("canStoreOffEnd", "unit"), ("nontemporal", "")),
        format="$storeMethod $source `[` $sourceCoord `]` `->` $dest `[` $destCoord `]` `if` $valid "
               "`features` `=` `` $features attr-dict `:` type($source) `->` type($dest)",
        types=(("sourceCoord", "index"), ("valid", "i1"), ("destCoord", "index"))),
    # -- threadwise and blockwise ops --------------------------------------------------------------
    # 85cd228c: operands (source, dest, extraIndices*), no validities, format without
    # `if [...]` and `, type($validityRecord)`.
    "rock.threadwise_read_into": OpDef(
        operands=("source", "dest", "dynamicValidities*", "extraIndices*"),
        results=("validityRecord?",),
        attributes=(("extraViews", ""), ("forceUnroll", "unit"), ("useIndexDiffs", "unit")),
        format="attr-dict $extraViews `(` $source `)` (`[` $extraIndices^ `]`)? `->` $dest "
               "(`if` ` ` `[` $dynamicValidities^ `]`)? "
               "`:` type($source) `->` type($dest) (`,` type($validityRecord)^)?",
        segments=True,
        # TypesMatchWith: each is vector<shape of dest's type x i1>, not a copy of another type.
        types=(("dynamicValidities", ""), ("extraIndices", "index"))),
    # Newer rocMLIR tests omit the leading `features = ...`.
    "rock.threadwise_write_all": OpDef(
        operands=("source", "dest", "extraIndices*"),
        attributes=(("extraViews", ""), _FEATURES, _STORE, ("forceUnroll", "unit"),
                    ("useIndexDiffs", "unit")),
        format="`features` `=` $features attr-dict $source `->` $extraViews `(` $dest `)` "
               "(`[` $extraIndices^ `]`)? `by` $storeMethod `:` type($source) `->` type($dest)",
        types=(("extraIndices", "index"),)),
    "rock.threadwise_copy": OpDef(
        operands=("source", "extraIndicesSource*", "dest", "extraIndicesDest*"),
        attributes=(("forceUnroll", "unit"), ("useIndexDiffs", "unit")),
        format="attr-dict $source (`[` $extraIndicesSource^ `]`)? `->` $dest "
               "(`[` $extraIndicesDest^ `]`)? `:` type($source) `->` type($dest)",
        segments=True,
        types=(("extraIndicesSource", "index"), ("extraIndicesDest", "index"))),
    # 85cd228c: attribute params only.
    "rock.blockwise_gemm": OpDef(
        operands=("matrixA", "matrixB", "matrixC"),
        attributes=(("inMPerThread", "i32"), ("inNPerThread", "i32"), ("rotateMWithK", "unit"),
                    ("rotateNWithK", "unit"), ("params", "")),
        format="$matrixC `+` `` `=` $matrixA `*` $matrixB attr-dict "
               "`:` type($matrixC) `+` `` `=` type($matrixA) `*` type($matrixB)"),
    # 85cd228c: operands (matrixA, matrixB, waveOffsetA, waveOffsetB, bufferA, bufferB, matrixC),
    # format "$matrixC += $bufferA from $matrixA [ $waveOffsetA ] * $bufferB from $matrixB
    # [ $waveOffsetB ] features = $features ...". Newer rocMLIR tests write
    # "%c += %bufA from %a * %bufB from %b {... matrixParamsA = ...}", a version not stored.
    "rock.blockwise_gemm_accel": OpDef(
        operands=("matrixA", "matrixB", "bufferA", "bufferB", "bufferAForLoad", "bufferBForLoad",
                  "matrixC"),
        attributes=(("inMPerThread", "i32"), ("inNPerThread", "i32"), ("rotateMWithK", "unit"),
                    ("rotateNWithK", "unit"), ("directToLDS", "unit"),
                    ("ldsLayoutA", "enum:GemmLDSLayout"), ("ldsLayoutB", "enum:GemmLDSLayout"),
                    ("arch", "str"), _FEATURES, ("blockSize", "i32"), ("params", "")),
        format="$matrixC `+` `` `=` $bufferA `(` $bufferAForLoad `)` `from` $matrixA `*` "
               "$bufferB `(` $bufferBForLoad `)` `from` $matrixB `features` `=` $features attr-dict "
               "`:` type($matrixC) `+` `` `=` type($bufferA) `(` type($bufferAForLoad) `)` `from` "
               "type($matrixA) `*` type($bufferB) `(` type($bufferBForLoad) `)` `from` type($matrixB)"),
    "rock.threadwise_gemm": OpDef(
        operands=("matrixA", "matrixB", "matrixC"),
        format="$matrixC `+` `` `=` $matrixA `*` $matrixB attr-dict "
               "`:` type($matrixC) `+` `` `=` type($matrixA) `*` type($matrixB)"),
    "rock.threadwise_accel_gemm": OpDef(
        operands=("matrixA", "matrixB", "matrixC", "computeIndices*"),
        attributes=(("arch", "str"), _FEATURES, ("params", "")),
        format="$matrixC `+` `` `=` $matrixA `*` $matrixB `at` `[` $computeIndices `]` `features` `=` "
               "$features attr-dict `:` type($matrixC) `+` `` `=` type($matrixA) `*` type($matrixB)",
        types=(("computeIndices", "index"),)),
    # older (85cd228c): replaced by threadwise_accel_gemm.
    "rock.accel_gemm": OpDef(
        operands=("mRepeat", "nRepeat", "matrixA", "matrixB", "matrixC"),
        attributes=(("arch", "str"), _FEATURES, ("params", "")),
        format="$matrixC `+` `` `=` $matrixA`[`$mRepeat`]` `*` $matrixB`[`$nRepeat`]` `features` `=` "
               "$features attr-dict `:` type($matrixC) `+` `` `=` type($matrixA) `*` type($matrixB)",
        types=(("mRepeat", "index"), ("nRepeat", "index"))),
    # 85cd228c: no extraOut / tidSubTileSliceView / iterSubTileSliceView / extraOutView; format
    # "$reduceMethod $inputRegView $input `into` $output `using` $workspace_buffer attr-dict `:`
    # type($input) `using` type($workspace_buffer) `into` type($output)".
    "rock.blockwise_broadcast_reduce": OpDef(
        operands=("input", "workspace_buffer", "output", "extraOut?"),
        attributes=(("axis", "index"), _REDUCE, ("inputRegView", ""), ("tidSubTileSliceView", ""),
                    ("iterSubTileSliceView", ""), ("extraOutView", ""), ("blockSize", "i32")),
        format="$reduceMethod $inputRegView $tidSubTileSliceView $iterSubTileSliceView $input `into` "
               "$output(`,` $extraOutView $extraOut^)? `using` $workspace_buffer attr-dict `:` "
               "type($input) `using` type($workspace_buffer) `into` type($output)( `,` type($extraOut)^)?"),
    # Not in a stored RockOps.td: rocMLIR's earlier blockwise reduction, as rocMLIR's
    # blockwise_reduce_simple.mlir writes it, is 85cd228c's blockwise_broadcast_reduce (same format,
    # operands and attributes) under this name.
    "rock.blockwise_reduce": OpDef(
        operands=("input", "workspace_buffer", "output"),
        attributes=(("axis", "index"), _REDUCE, ("inputRegView", ""), ("blockSize", "i32")),
        format="$reduceMethod $inputRegView $input `into` $output `using` $workspace_buffer attr-dict `:` "
               "type($input) `using` type($workspace_buffer) `into` type($output)"),
}
"""Every rock op, keyed by its full name."""
