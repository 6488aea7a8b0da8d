"""rocMLIR's test files of every kind (``tests/data/rocmlir/corpus/``, listed with their source in
tests/data/README.md: lowering tests, ``Conversion/*``, attention, ``fusion/e2e``, verifier tests,
MLIR older than ``func.func``, files of RUN lines only): no file is refused for one construct.
``check`` exits 0 or 1 on each, ``regularize`` writes each, and ``regularize --generic`` in both
styles writes a module MLIR's own parser accepts, except where the writer does not yet print an op
of a dialect MLIR lacks in generic form (issue 22, item 1: those cases fail and are expected to)
or the file as read is MLIR that this parser rejects itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from rocmlir_data import DATA
from test_cli import run
from test_mlir_valid import parse

import viewalgebra as va

CORPUS = DATA / "rocmlir" / "corpus"
FILES = sorted(CORPUS.glob("*.mlir"))

UNWRITTEN = {
    "fusion-invalid.mlir", "gpu_launch.mlir", "gridwise_gemm_accel_lowering_invalid.mlir",
    "literal_unpack_invalid.mlir", "lowering_output_swizzle.mlir",
    "lowering_threadwise_fusion_ops.mlir", "migraphx-to-tosa-bwd-failure.mlir", "mixr-attention-tier1-case2.mlir",
    "rock-gemm-reduce-case1.mlir", "rocmlir-custom-tosa-decompose-invalid.mlir",
    "tosa-to-rock-attention-three-mask.mlir"}
"""Files whose ``--generic`` output is not MLIR: the writer refuses an op with no faithful generic
form known (a rock op in another version's syntax than the definitions in rock_ops.py, an op of
another dialect whose syntax holds more than operands, regions, attributes and types: docs/cli.md,
'Generic form'), or MLIR's parser rejects an upstream op as written."""

REJECTED = {
    "atomic_fadd.mlir": "'func @f' of MLIR before func.func",
    "hoist-buffer.mlir": "'func @f' of MLIR before func.func",
    "non-trivial-reshape.mlir": "tosa.reshape with one operand, as TOSA once had it",
    "tosa-to-rock-add.mlir": "tosa.conv2d with three operands, as TOSA once had it",
    "tosa-two-outputs.mlir": "tosa.reshape with one operand, as TOSA once had it",
}
"""Files that MLIR's parser (the ``mlir`` extra's) rejects as read: their ops, kept as written,
are rejected in the output too."""

def _param(path: Path, generic: bool = False) -> object:
    marks: list[pytest.MarkDecorator] = []
    if generic and path.name in REJECTED:
        marks.append(pytest.mark.xfail(strict=True, reason=f"MLIR rejects the file as read: {REJECTED[path.name]}"))
    elif generic and path.name in UNWRITTEN:
        marks.append(pytest.mark.xfail(strict=True, reason="no faithful generic form known, or an upstream op rejected as written"))
    return pytest.param(path, marks=marks, id=path.name)


def test_the_corpus_is_the_files_listed() -> None:
    readme = (DATA / "README.md").read_text()
    assert len(FILES) >= 45
    for path in FILES:
        assert f"| `{path.name}` | `mlir/test/" in readme, path.name
    assert set(REJECTED) | UNWRITTEN <= {p.name for p in FILES}


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_check_and_regularize_read_every_file(path: Path, tmp_path: Path) -> None:
    checked = run("check", str(path))
    assert checked.returncode in (0, 1), checked.stderr
    out = tmp_path / "out.mlir"
    written = run("regularize", str(path), "-o", str(out))
    assert written.returncode in (0, 1), written.stderr
    assert out.read_text().strip() or not va.read_mlir(path.read_text()).items
    va.read_mlir(out.read_text(), errors="collect")  # what is written reads again


@pytest.mark.parametrize("path", [_param(p, generic=True) for p in FILES])
def test_generic_output_parses_in_mlir(path: Path, tmp_path: Path) -> None:
    for style in ("seed", "rocmlir"):
        out = tmp_path / f"{style}.mlir"
        result = run("regularize", str(path), "--style", style, "--generic", "-o", str(out))
        assert result.returncode in (0, 1), result.stderr
        parse(out.read_text())


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_the_files_mlir_rejects_as_read_are_rejected(name: str) -> None:
    with pytest.raises(Exception, match="Unable to parse module assembly"):  # noqa: PT011 -- MLIR's own error
        parse((CORPUS / name).read_text())


def test_results_with_attributes_print_in_generic_form() -> None:
    # rocMLIR's fusion/e2e/non-trivial-reshape.mlir: '-> (tensor<...> {func.write_access})' was
    # written into function_type, which MLIR rejects ("expected ')'").
    text = ("func.func @f(%a: tensor<4xf32> {func.read_access}) -> (tensor<4xf32> {func.write_access}, f32) {\n"
            "  %c = arith.constant 1.0 : f32\n  return %a, %c : tensor<4xf32>, f32\n}\n")
    module = va.read_mlir(text)
    generic = va.write_mlir(module, generic=True)
    parse(generic)
    assert "res_attrs = [{func.write_access}, {}]" in generic
    assert va.write_mlir(va.read_mlir(generic)) == text
