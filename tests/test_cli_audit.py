"""``viewalgebra audit`` end to end (docs/audit.md): on a local Dask cluster of two worker
processes, and on a cluster of a ``dask scheduler`` and two ``dask worker`` processes started here;
the Parquet, the summary, the picture, and the same rows as the audit done in this process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from audit_tiles import provider
from test_cli import conforms, documented_shapes, run

import viewalgebra.gridwise as gw

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("distributed")

TESTS = Path(__file__).parent
PROBLEMS = ("-t f16 -out_datatype f16 -transA false -transB false -g 1 -m 256 -n 256 -k 128\n"
            "-t f16 -out_datatype f16 -transA true -transB true -g 2 -m 96 -n 80 -k 72\n")
CONFIGS = "v4:32,32,8,16,16,16,8,1,2,2,0,0,1,1\nv4:64,16,8,16,16,16,8,1,1,2,0,0,1,1\n"
COLUMNS = ["problem", "config", "arch", "access", "operand", "kind", "dtype", "rocmlir_width", "exact_width",
           "best_width", "verdict", "witness", "seconds"]


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "problems").write_text(PROBLEMS)
    (tmp_path / "configs").write_text(CONFIGS)
    return tmp_path / "problems", tmp_path / "configs"


def expected_rows(source: gw.Provider) -> list[tuple[object, ...]]:
    """The rows of the audit done here, without Dask (``seconds`` left out)."""
    rows = []
    for line in gw.parse_problem_list(PROBLEMS):
        for config in gw.parse_config_list(CONFIGS):
            for r in gw.audit_config(line.problem, config, gw.arch("gfx942"), source, problem_text=line.text):
                rows.append((r.problem, r.config, r.access, r.rocmlir_width, r.exact_width, r.best_width,
                             r.verdict, r.witness))
    return sorted(rows, key=repr)


def check_outputs(out: Path, document: dict[str, object], source: gw.Provider = provider) -> None:
    table = pq.read_table(out / "results.parquet")
    assert table.column_names == COLUMNS
    assert str(table.schema.field("rocmlir_width").type) == "int32"
    got = sorted(((r["problem"], r["config"], r["access"], r["rocmlir_width"], r["exact_width"], r["best_width"],
                   r["verdict"], r["witness"]) for r in table.to_pylist()), key=repr)
    assert got == expected_rows(source)
    summary = document["summary"]
    assert isinstance(summary, dict)
    assert (summary["problems"], summary["configs"], summary["rows"]) == (2, 4, len(got))
    assert sum(summary["verdicts"].values()) == len(got)
    accesses = [r for r in table.to_pylist() if r["rocmlir_width"] is not None and r["best_width"] is not None]
    assert summary["accesses"] == len(accesses)
    assert summary["losing_width"] == sum(r["best_width"] > r["rocmlir_width"] for r in accesses)
    for field in summary["fields"]:  # every access counted once per field, at its config's value
        assert sum(rate["accesses"] for rate in field["rates"]) == len(accesses)
    svg = ET.parse(out / "width-lost.svg").getroot()
    cells = [e for e in svg.iter() if e.tag.endswith("rect") and any(c.tag.endswith("title") for c in e)]
    names = {r["access"] for r in table.to_pylist() if r["kind"] != "check"}
    assert len(cells) == 2 * len(names)  # problems x accesses


def run_apart(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (``python -m viewalgebra``), this directory importable
    for ``--provider audit_tiles:provider``: Dask leaves a thread behind in the process that ran a
    cluster (its offload pool), and a process with another thread never forks its workers
    (tests/test_budget.py tests forks, in any order of the tests)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "viewalgebra", *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def test_audit_on_a_local_cluster_of_two_workers(inputs, tmp_path):
    problems, configs = inputs
    result = run_apart("audit", str(problems), "--configs", str(configs), "--workers", "2", "--provider",
                 "audit_tiles:provider", "--out", str(tmp_path / "out"), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("audit: 4 configs, ")  # not a terminal: only the final line
    document = json.loads(result.stdout)
    conforms(document, documented_shapes()["audit"])
    check_outputs(tmp_path / "out", document)
    text = run_apart("audit", str(problems), "--configs", str(configs), "--limit", "1", "--workers", "1",
               "--provider", "audit_tiles:provider", "--out", str(tmp_path / "text"))
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("2 problem(s), 2 config(s), ") and "verdicts: equal " in text.stdout


def _start(args: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([str(Path(sys.executable).with_name("dask")), *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def test_audit_on_a_running_scheduler_with_two_workers(inputs, tmp_path):
    problems, configs = inputs
    file = tmp_path / "scheduler.json"
    started = [_start(["scheduler", "--port", "0", "--no-dashboard", "--scheduler-file", str(file)])]
    try:
        deadline = time.monotonic() + 30
        while not file.exists() or not file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.2)
        address = json.loads(file.read_text())["address"]
        started += [_start(["worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-dashboard"])
                    for _ in range(2)]
        # The default provider: rocMLIR's own accesses, built by the recipes in the workers.
        result = run_apart("audit", str(problems), "--configs", str(configs), "--scheduler", address,
                     "--out", str(tmp_path / "out"), "--json")
        assert result.returncode == 0, result.stderr
        check_outputs(tmp_path / "out", json.loads(result.stdout), gw.rocmlir_accesses)
        names = {r["access"] for r in pq.read_table(tmp_path / "out" / "results.parquet").to_pylist()}
        assert {"a_global_load", "b_lds_store", "a_lds_read", "c_global_store", "c_store_writes_block_once"} <= names
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.mark.parametrize(("extra", "message"), [
    (["--provider", "nowhere:provider"], "viewalgebra: --provider nowhere:provider: cannot import nowhere"),
    (["--provider", "audit_tiles:provider", "--arch", "gfx1"], "viewalgebra: unknown arch"),
    (["--provider", "audit_tiles:provider", "--configs", "missing"], "viewalgebra: missing: no such file"),
])
def test_bad_input_is_one_line_and_exit_2(inputs, extra, message):
    result = run("audit", str(inputs[0]), *extra)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr


def test_without_the_extra_audit_says_what_to_install(inputs, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed: importing it fails
    result = run("audit", str(inputs[0]), "--provider", "audit_tiles:provider", "--json")
    assert result.returncode == 2
    assert result.stderr == ("viewalgebra: audit needs pyarrow, which is not installed: pip install "
                             "'viewalgebra[audit]' (dask[distributed], distributed, pyarrow)\n")
    assert json.loads(result.stdout)["error"]["type"] == "MissingDependencyError"


def test_a_missing_problem_list_is_bad_input():
    result = run("audit", "no-such-problems", "--provider", "audit_tiles:provider")
    assert (result.returncode, result.stderr) == (2, "viewalgebra: no-such-problems: no such file\n")
