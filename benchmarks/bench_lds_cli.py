"""``viewalgebra lds`` and ``va.draw.banks``: what the command and the picture add to the count.

Run: ``.venv/bin/python benchmarks/bench_lds_cli.py [--quick]``. Each row is a median from cold
caches beside its baseline, the two timed in turns in the same run:

- the picture of rocMLIR PR #2196's A store on gfx942 (``va.draw.banks``, one instruction's 2
  phases) beside its ``bank_conflicts`` (every wave, instance and phase);
- ``viewalgebra lds --gemm`` on PR #2196's config (both operands, 18 layouts each, JSON) beside
  ``compare_lds_layouts`` of both operands called directly;
- ``viewalgebra lds FILE --json`` on test_multi_buffer_full.mlir (gfx950) beside
  ``lds_accesses`` and ``bank_conflicts`` called directly.

Targets: the picture within 3x the count; the command within 1.5x the direct calls.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from timing import ms

import viewalgebra as va
from viewalgebra._cli import main as cli  # noqa: TID251 -- the command line, in process

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "tests" / "data" / "gridwise" / "test_multi_buffer_full.mlir"
PR_2196 = "v4:96,256,8,96,32,32,4,1,2,0,0,4,1,1"


def command(*args: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if cli(list(args)) != 0:
            raise SystemExit(f"viewalgebra {' '.join(args)} failed")


def paired_medians(run: Callable[[], object], baseline: Callable[[], object],
                   repeat: int) -> tuple[float, float]:
    """Medians of ``run`` and ``baseline`` timed in turns, each from cold caches after one untimed
    warm-up, so that a busy machine slows both alike."""
    run()
    baseline()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for f, out in ((run, times[0]), (baseline, times[1])):
            va.clear_caches()
            start = time.perf_counter()
            f()
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    repeat = 5 if parser.parse_args().quick else 15
    gw = va.gridwise
    config = gw.PerfConfig.parse(PR_2196)
    assert isinstance(config, gw.AccelPerfConfig)
    problem = gw.GemmProblem(m=96, n=256, k=32, dtype="f16", out_dtype="f16")
    grid = gw.config_views(problem, config)
    gfx942 = gw.arch("gfx942")
    model = va.lds.lds_model("gfx942")
    store = va.lds.thread_lds_access(gw.lds_store(grid, "a", config, gfx942, "f16"), gfx942)
    text = FILE.read_text()
    gfx950 = va.lds.lds_model("gfx950")

    def direct_file() -> None:
        for found in va.lds.lds_accesses(text):
            if found.access is not None:
                va.lds.bank_conflicts(found.access, gfx950)

    rows = [
        ("va.draw.banks, PR #2196 A store", lambda: va.draw.banks(store, model),
         "bank_conflicts of it", lambda: va.lds.bank_conflicts(store, model), 3.0),
        ("lds --gemm PR #2196 --json",
         lambda: command("lds", "--gemm", PR_2196, "--arch", "gfx942", "--json"),
         "compare_lds_layouts a and b",
         lambda: [va.lds.compare_lds_layouts(gw.config_views(problem, config), o, config, "gfx942", "f16")
                  for o in ("a", "b")], 1.5),
        ("lds test_multi_buffer_full.mlir --json",
         lambda: command("lds", str(FILE), "--arch", "gfx950", "--json"),
         "lds_accesses + bank_conflicts", direct_file, 1.5),
    ]
    print(f"{'what':42} {'median':>12} {'baseline':32} {'median':>12} {'ratio':>7}  target")
    for what, run, base, baseline, target in rows:
        figure, reference = paired_medians(run, baseline, repeat)
        ratio = figure / reference
        verdict = "ok" if ratio <= target else "MISSED"
        print(f"{what:42} {ms(figure):>12} {base:32} {ms(reference):>12} {ratio:6.2f}x  "
              f"<= {target}x {verdict}")


if __name__ == "__main__":
    main()
