"""rocMLIR's test files of every kind (``tests/data/rocmlir/corpus/``, listed with their source in
tests/data/README.md: lowering tests, ``Conversion/*``, attention, ``fusion/e2e``, verifier tests,
MLIR older than ``func.func``, files of RUN lines only): no file is refused for one construct.
``check`` exits 0 or 1 on each, ``regularize`` writes each, and ``regularize --generic`` in both
styles writes a module MLIR's own parser accepts, except for the files named below with what
happens instead: the writer refuses an op it has no faithful generic form for (``REFUSED``), or
MLIR's parser stops at an upstream op written in a syntax it no longer reads (``REJECTED``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rocmlir_data import DATA
from test_cli import run
from test_mlir_valid import parse

import viewalgebra as va

CORPUS = DATA / "rocmlir" / "corpus"
FILES = sorted(CORPUS.glob("*.mlir"))
OTHERS = sorted(p for p in DATA.rglob("*.mlir") if CORPUS not in p.parents)
"""The repository's other rocMLIR files (tests/data/rocmlir, tests/data/gridwise), whose own tests
are elsewhere: ``--generic`` is held for them here too."""

TEMPLATE = {"##TOKEN_ARCH##": "gfx942", "##TOKEN_FEATURES##": "mfma|dot|atomic_add"}
"""test_multi_buffer_full.mlir is a lit template: its RUN line fills these with ``sed`` before
rocmlir-opt reads it, and so does this test."""

REFUSED = {
    "fusion-invalid.mlir": "rock.global_store: its custom form does not follow its definition",
    "gridwise_gemm_accel_lowering_invalid.mlir":
        "rock.gridwise_gemm_accel: its custom form does not follow its definition",
    "lowering_output_swizzle.mlir": "rock.dealloc: its custom form does not follow its definition",
    "rock-gemm-reduce-case1.mlir": "async.launch: no generic form: its custom form holds '@test_gemm_reduce",
    "align-tiling-non-contiguous-strides.mlir": "rock.blockwise_gemm_accel: its custom form does not follow",
    "test_multi_buffer_full.mlir": "rock.blockwise_gemm_accel: its custom form does not follow",
    "attention_to_gridwise.mlir": "rock.attention: its custom form does not follow its definition",
}
"""Files whose ``--generic`` output the writer refuses, naming the op (exit 2), rather than guess
its operand order: a rock op written in the syntax of a rocMLIR version other than the definitions
in ``rock_ops.py`` (``rock.global_store`` with source coordinates and no ``if``, scaled
``rock.gridwise_gemm_accel`` with five operands, ``rock.dealloc(%x)``, ``rock.blockwise_gemm_accel
%c += %a from %ldsA * ...``, ``rock.attention`` with a parenthesized operand list), or an op of a dialect with
no definition here whose custom form holds more than operands, regions, attributes and types
(docs/cli.md, 'Generic form'). MIGraphX and MHAL ops are read by their definitions in
``migraphx_ops.py`` (``migraphx.literal (dense<...> : ...)``, ``mhal.launch @f (...)``)."""

REJECTED = {
    "atomic_fadd.mlir": "Dialect `' not found for custom op 'func'",
    "hoist-buffer.mlir": "custom op 'func' is unknown",
    "non-trivial-reshape.mlir": "'tosa.reshape' op expected 2 operands, but found 1",
    "rocmlir-custom-tosa-decompose-invalid.mlir": "custom op 'tosa.custom' expected 'operator_name'",
    "tosa-to-rock-add.mlir": "'tosa.conv2d' op expected 5 operands, but found 3",
    "tosa-to-rock-attention-three-mask.mlir": "custom op 'tosa.transpose' expected 'perms'",
    "tosa-two-outputs.mlir": "'tosa.reshape' op expected 2 operands, but found 1",
    "tosa-to-rock-matmul.mlir": "'tosa.matmul' op expected 4 operands, but found 2",
}
"""Files holding an op of a dialect MLIR registers upstream in a syntax this MLIR no longer reads
(``func @f`` from before ``func.func``; TOSA ops as TOSA once had them): kept as written, as the
rule for upstream ops says, so MLIR's parser stops at that op and at nothing before it."""


STYLE_REFUSED = {("unknown-path__regularize_invalid_generic_reduction.mlir", "rocmlir"):
                 "Only fully parallel supported"}
"""A file the rocmlir style refuses as rocMLIR does (its name says so): rocMLIR's expected error."""


def source(path: Path, tmp_path: Path) -> Path:
    """The file as rocmlir-opt reads it: a lit template filled as its RUN line fills it."""
    text = path.read_text()
    if not any(token in text for token in TEMPLATE):
        return path
    for token, value in TEMPLATE.items():
        text = text.replace(token, value)
    filled = tmp_path / path.name
    filled.write_text(text)
    return filled


def parse_chunks(written: str, read: str) -> None:
    """MLIR's parser on each ``// -----`` chunk of ``written``, except the chunks whose input
    expects an error (``expected-error``, verifier tests): rocMLIR's parser may reject those too,
    e.g. a value used at two types (invalid.transform-verifier-excerpt.mlir, chunk 5)."""
    def split(text: str) -> list[str]:  # chunks of comments only are not written
        chunks = re.split(r"^// -----.*$", text, flags=re.M)
        return [c for c in chunks if re.search(r"^\s*[^/\s]", c, flags=re.M)]

    chunks, inputs = split(written), split(read)
    assert len(chunks) == len(inputs)
    for chunk, given in zip(chunks, inputs, strict=True):
        if "expected-error" not in given:
            parse(chunk)


def test_the_corpus_is_the_files_listed() -> None:
    readme = (DATA / "README.md").read_text()
    assert len(FILES) >= 45
    for path in FILES:
        assert f"| `{path.name}` | `mlir/test/" in readme, path.name
    assert set(REJECTED) | set(REFUSED) <= {p.name for p in [*FILES, *OTHERS]}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_check_and_regularize_read_every_file(path: Path, tmp_path: Path) -> None:
    checked = run("check", str(path))
    assert checked.returncode in (0, 1), checked.stderr
    out = tmp_path / "out.mlir"
    written = run("regularize", str(path), "-o", str(out))
    assert written.returncode in (0, 1), written.stderr
    assert out.read_text().strip() or not va.read_mlir(path.read_text()).items
    va.read_mlir(out.read_text(), errors="collect")  # what is written reads again


@pytest.mark.parametrize("path", [*FILES, *OTHERS], ids=lambda p: p.name)
def test_generic_output_parses_in_mlir(path: Path, tmp_path: Path) -> None:
    read = source(path, tmp_path)
    for style in ("seed", "rocmlir"):
        out = tmp_path / f"{style}.mlir"
        result = run("regularize", str(read), "--style", style, "--generic", "-o", str(out))
        refused = REFUSED.get(path.name) or STYLE_REFUSED.get((path.name, style))
        if refused:
            assert result.returncode == 2
            assert refused in result.stderr
            assert not out.exists()
            continue
        assert result.returncode in (0, 1), result.stderr
        if path.name in REJECTED:
            with pytest.raises(Exception, match=re.escape(REJECTED[path.name])):  # noqa: PT011 -- MLIR's own error
                parse(out.read_text())
        else:
            parse_chunks(out.read_text(), read.read_text())


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
