"""``viewalgebra lds``: the bank conflicts of an .mlir file's LDS accesses, and of rocMLIR's LDS
layouts for a gemm config beside the others; its JSON is what ``va.lds`` answers when called
directly, in the documented shape; bad input is one line and exit 2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from test_cli import conforms, documented_shapes, run

import viewalgebra as va

ROOT = Path(__file__).parent.parent
GRIDWISE = ROOT / "tests" / "data" / "gridwise"
WITH_LDS = ["align-tiling-non-contiguous-strides.mlir", "test_multi_buffer_full.mlir"]
PR_2196 = "v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1"
"""rocMLIR pull request #2196's config (kpack 4; A copies 2 x 3 per thread)."""
SVG = "{http://www.w3.org/2000/svg}"


def answer(r: va.lds.BankConflicts) -> dict[str, Any]:
    """What the JSON says of one access, from ``bank_conflicts`` called directly."""
    w = r.witness
    return {"instruction": r.instruction, "width": r.width, "instructions": r.instructions, "split": r.split,
            "max_degree": r.max_degree, "counter": r.counter, "per_instruction": r.per_instruction,
            "broadcasts": r.broadcasts,
            "witness": None if w is None else {"wave": w.wave, "instance": list(w.instance),
                                               "instruction": w.instruction, "phase": w.phase, "bank": w.bank,
                                               "dwords": list(w.dwords), "lanes": [list(x) for x in w.lanes]},
            "assumed": [{"kind": p.kind, "width": p.width, "source": p.source} for p in r.assumed]}


def panel_degrees(svg: str) -> list[int]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return [int(g.get("data-degree", "")) for g in root.iter(f"{SVG}g") if "phase" in g.get("class", "").split()]


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("name", WITH_LDS)
def test_a_files_json_is_bank_conflicts_of_each_lds_access(name, arch, tmp_path):
    path = GRIDWISE / name
    found = va.lds.lds_accesses(path.read_text())
    model = va.lds.lds_model(arch)
    assert found and all(f.access is not None for f in found)
    out = tmp_path / "worst.svg"
    result = run("lds", str(path), "--arch", arch, "--json", "--svg", str(out))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    conforms(document, documented_shapes()["lds"])
    direct = [va.lds.bank_conflicts(f.access, model) for f in found if f.access is not None]
    assert document["accesses"] == [{"line": f.line, "op": f.op} | answer(r) for f, r in zip(found, direct, strict=True)]
    assert (document["file"], document["arch"], document["banks"], document["wave"], document["left_out"]) == (
        str(path), arch, model.banks, model.wave, [])
    worst = max(range(len(direct)), key=lambda k: (direct[k].max_degree, direct[k].counter))
    witness = direct[worst].witness
    w, j = (witness.wave, witness.instruction) if witness else (0, 0)
    n = 0
    if witness is not None:
        access = found[worst].access
        assert access is not None
        for dim, x, size in zip(direct[worst].instance_dims, witness.instance, direct[worst].instance_shape,
                                strict=True):
            n = n * size + x // (access.vector_length if dim == access.vector_axis else 1)
    else:
        j = int(direct[worst].degrees[0, 0].max(axis=1).argmax())
    assert document["svg"] == str(out)
    assert panel_degrees(out.read_text()) == direct[worst].degrees[w, n, j].tolist()
    text = run("lds", str(path), "--arch", arch)
    assert text.returncode == 0 and text.stderr == ""
    lines = text.stdout.splitlines()
    assert lines[0] == f"{path}: {len(found)} LDS access(es) on {arch} ({model.wave} lanes a wave, {model.banks} banks of 4 bytes)"
    for f, r in zip(found, direct, strict=True):
        head = f"line {f.line}: {f.op} {f.value}: {r.instruction}: " + (
            "conflict-free" if r.max_degree == 1 else f"degree {r.max_degree}, {r.counter} conflict cycle(s)")
        assert any(line.startswith(head) for line in lines), head
    if any(r.max_degree > 1 for r in direct):
        assert any(line.startswith("  worst: wave ") for line in lines)


def test_gemm_answers_are_compare_lds_layouts(tmp_path):
    gw = va.gridwise
    config = gw.PerfConfig.parse(PR_2196)
    problem = gw.GemmProblem(m=96, n=256, k=32, dtype="f16", out_dtype="f16")
    grid = gw.config_views(problem, config)
    out = tmp_path / "worst.svg"
    result = run("lds", "--gemm", PR_2196, "--arch", "gfx942", "--json", "--svg", str(out))
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    conforms(document, documented_shapes()["lds"])
    expected: list[dict[str, Any]] = []
    verdicts = []
    rocmlir: list[va.lds.BankConflicts] = []
    for operand in ("a", "b"):
        comparison = va.lds.compare_lds_layouts(grid, operand, config, "gfx942", "f16")
        assert comparison.rows[0].rocmlir
        verdicts.append({"operand": operand, "kind": comparison.kind, "verdict": comparison.verdict,
                         "best": comparison.best.variant.label})
        for row in comparison.rows:
            for kind, r in (("write", row.write), ("read", row.read)):
                expected.append({"layout": row.variant.label, "rocmlir": row.rocmlir, "operand": operand,
                                 "kind": kind} | answer(r))
                if row.rocmlir:
                    rocmlir.append(r)
    assert document["accesses"] == expected
    assert document["gemm"] == {"config": PR_2196, "problem": "-t f16 -out_datatype f16 -transA false -transB false "
                                "-g 1 -m 96 -n 256 -k 32", "dtype": "f16", "operands": ["a", "b"],
                                "verdicts": verdicts}
    # PR #2196: rocMLIR neither rotates nor swaps A; its 2 x 3 copies are ds_write_b32, 8-way.
    a_store = document["accesses"][0]
    assert (a_store["layout"], a_store["instruction"], a_store["max_degree"]) == ("plain", "ds_write_b32", 8)
    assert any(a["operand"] == "a" and a["kind"] == "write" and a["layout"] == "rotate(stride 2)"
               and a["max_degree"] == 1 for a in document["accesses"])
    # The picture is of rocMLIR's worst access (A's store), its witness's instruction: the same degrees.
    worst = max(rocmlir, key=lambda r: (r.max_degree, r.counter))
    assert worst is rocmlir[0] and worst.witness is not None
    assert worst.witness.instance == (0,)  # the first of the 3 vectors along iter: instance index 0
    assert panel_degrees(out.read_text()) == worst.degrees[worst.witness.wave, 0, worst.witness.instruction].tolist()
    one = json.loads(run("lds", "--gemm", PR_2196, "--arch", "gfx942", "--operand", "b", "--json").stdout)
    assert one["accesses"] == [a for a in expected if a["operand"] == "b"]
    text = run("lds", "--gemm", PR_2196, "--arch", "gfx942").stdout
    assert "A: rocMLIR's layout is plain: " in text
    assert "  A store, plain (rocMLIR's): ds_write_b32: degree 8, " in text
    assert "    rotate(stride 2): ds_write_b32 1-way (0 cycles), ds_read_b64 1-way (0 cycles)" in text


def test_gemm_takes_a_problem_line_as_audit_reads():
    line = "-t f16 -out_datatype f16 -transA true -transB false -g 1 -m 1000 -n 1000 -k 1000"
    document = json.loads(run("lds", "--gemm", PR_2196, "--arch", "gfx942", "--problem", line, "--operand", "a",
                              "--json").stdout)
    gw = va.gridwise
    config = gw.PerfConfig.parse(PR_2196)
    problem = gw.parse_problem_list(line)[0].problem
    comparison = va.lds.compare_lds_layouts(gw.config_views(problem, config), "a", config, "gfx942", "f16")
    assert [a["max_degree"] for a in document["accesses"]] == [
        r.max_degree for row in comparison.rows for r in (row.write, row.read)]
    assert document["gemm"]["problem"] == line


NO_LDS = "func.func @f(%a: memref<4xf32>) {\n  return\n}\n"

NO_TID = """func.func @k(%src: memref<8xf32, #gpu.address_space<private>>, %i: index) {
  %lds = rock.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
  rock.threadwise_write_all %src -> [](%lds) [%i] by  set : memref<8xf32, #gpu.address_space<private>> -> memref<512xf32, #gpu.address_space<workgroup>>
  return
}
"""


def test_a_file_with_no_lds_access_has_nothing_to_check(tmp_path):
    path = tmp_path / "none.mlir"
    path.write_text(NO_LDS)
    result = run("lds", str(path), "--arch", "gfx942")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{path}: 0 LDS accesses, nothing to check\n", "")
    document = run("lds", str(path), "--arch", "gfx942", "--json", "--svg", str(tmp_path / "x.svg"))
    assert document.returncode == 0 and not (tmp_path / "x.svg").exists()
    report = json.loads(document.stdout)
    conforms(report, documented_shapes()["lds"])
    assert (report["accesses"], report["left_out"], report["svg"]) == ([], [], None)


def test_an_access_that_cannot_be_built_is_left_out_and_said(tmp_path):
    path = tmp_path / "no_tid.mlir"
    path.write_text(NO_TID)
    found = va.lds.lds_accesses(NO_TID)
    assert len(found) == 1 and found[0].access is None
    result = run("lds", str(path), "--arch", "gfx942")
    assert result.returncode == 0
    assert result.stdout == f"{path}: 1 LDS access(es) not analysed and no other, nothing to check\n"
    assert result.stderr == (f"viewalgebra: {path}:3: rock.threadwise_write_all %lds: not analysed: "
                             f"{found[0].reason}\n")
    report = json.loads(run("lds", str(path), "--arch", "gfx942", "--json").stdout)
    conforms(report, documented_shapes()["lds"])
    assert report["left_out"] == [{"line": 3, "op": "rock.threadwise_write_all", "reason": found[0].reason}]


@pytest.mark.parametrize(("args", "message"), [
    (["FILE", "--arch", "gfx9000"], "--arch gfx9000: lds_model: no LDS table for 'gfx9000' (known: "),
    (["--gemm", PR_2196, "--arch", "gfx803"], "--arch gfx803: lds_model: no LDS table for 'gfx803'"),
    (["--arch", "gfx942"], "give an .mlir file, or --gemm PARAMS for rocMLIR's LDS layouts of a gemm"),
    (["FILE", "--gemm", PR_2196, "--arch", "gfx942"], "--gemm takes no file (got FILE): give one or the other"),
    (["FILE", "--arch", "gfx942", "--operand", "a"], "--operand goes with --gemm"),
    (["FILE", "--arch", "gfx942", "--dtype", "f32"], "--dtype goes with --gemm"),
    (["MISSING", "--arch", "gfx942"], "MISSING: no such file"),
    (["--gemm", "v4:96,256", "--arch", "gfx942"], "--gemm v4:96,256: "),
    (["--gemm", "256,128,128,16,4,4", "--arch", "gfx942"], "a non-accelerated config reads no LDS"),
    (["--gemm", PR_2196, "--arch", "gfx942", "--problem", "-t f16 -m 5"], "--problem: "),
    (["--gemm", PR_2196, "--arch", "gfx942", "--dtype", "f32", "--problem",
      "-t f16 -out_datatype f16 -transA false -transB false -g 1 -m 64 -n 64 -k 64"],
     "--dtype f32: the problem's element type is f16"),
    (["--gemm", PR_2196, "--arch", "gfx942", "--dtype", "f9"], "--dtype f9: "),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    path = tmp_path / "k.mlir"
    path.write_text(NO_LDS)
    args = [str(path) if a == "FILE" else str(tmp_path / "missing.mlir") if a == "MISSING" else a for a in args]
    message = message.replace("FILE", str(path)).replace("MISSING", str(tmp_path / "missing.mlir"))
    result = run("lds", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("viewalgebra: ") and result.stderr.count("\n") == 1
    assert message in result.stderr, result.stderr
    document = run("lds", *args, "--json")
    assert document.returncode == 2 and message in json.loads(document.stdout)["error"]["message"]


def test_text_that_is_not_mlir_is_bad_input_located(tmp_path):
    path = tmp_path / "prose.mlir"
    path.write_text("// fine\nthis is not } MLIR {\n")
    result = run("lds", str(path), "--arch", "gfx942")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"viewalgebra: {path}:2:1: holds no LDS access: expected a function, an alias "
                             "'#name = ...' or a module, found 'this'\n")


READ = """func.func @k(%regs: memref<1xf32, #gpu.address_space<private>>) {
  %tid = rock.workitem_id : index
  %lds = rock.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
  %v = rock.transform %lds by <affine_map<(d0, d1) -> (d0 * 8 + d1)> by [<Embed{8, 1} ["tid", "i"] at [0, 1] -> ["x"] at [0]>] bounds = [64, 1] -> [512]> : memref<512xf32, #gpu.address_space<workgroup>> to memref<64x1xf32, #gpu.address_space<workgroup>>
  rock.threadwise_read_into {forceUnroll, useIndexDiffs} [](%v) [%tid] -> %regs : memref<64x1xf32, #gpu.address_space<workgroup>> -> memref<1xf32, #gpu.address_space<private>>
  return
}
"""


def test_an_lds_read_at_a_stride_of_32_bytes_is_8_way(tmp_path):
    # Lane l reads the f32 at byte 32 l: dword 8 l, bank 8 l mod 32. A ds_read_b32 is served in
    # 2 phases of 32 lanes; in each, banks 0, 8, 16, 24 hold 8 dwords: degree 8, 7 cycles a phase.
    path = tmp_path / "read.mlir"
    path.write_text(READ)
    result = run("lds", str(path), "--arch", "gfx942")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[1:] == [
        "line 5: rock.threadwise_read_into %v: ds_read_b32: degree 8, 14 conflict cycle(s), at most 14 in one "
        "instruction",
        "  worst: wave 0, phase 0: bank 0 holds 8 dwords: dword 0 (lane 0); dword 32 (lane 4); dword 64 (lane 8); "
        "dword 96 (lane 12); dword 128 (lane 16); dword 160 (lane 20); dword 192 (lane 24); dword 224 (lane 28)",
        "summary: 1 access(es), 0 conflict-free; worst degree 8 (line 5: rock.threadwise_read_into %v)"]
    entry = json.loads(run("lds", str(path), "--arch", "gfx942", "--json").stdout)["accesses"][0]
    assert (entry["op"], entry["instruction"], entry["max_degree"], entry["counter"], entry["assumed"]) == (
        "rock.threadwise_read_into", "ds_read_b32", 8, 14, [])
    assert entry["witness"]["lanes"] == [[lane] for lane in range(0, 32, 4)]
