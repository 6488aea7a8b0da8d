"""Import benchmark: ``import viewalgebra`` and ``viewalgebra --help`` in a fresh interpreter, beside
``import islpy, numpy`` alone (the floor: the core needs both) and the import of every public name
(what ``import viewalgebra`` loaded before its heavy parts became lazy), measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_import.py [--quick]``. Medians of wall times of fresh
subprocesses, interpreter start-up included, after one untimed run of each (compiled bytecode).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {
    "import islpy, numpy": ["-c", "import islpy, numpy"],
    "import viewalgebra": ["-c", "import viewalgebra"],
    "viewalgebra --help": ["-m", "viewalgebra", "--help"],
    "every public name": ["-c", "import viewalgebra; [getattr(viewalgebra, n) for n in viewalgebra.__all__]"],
}


def _run(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def timings(repeat: int) -> dict[str, float]:
    """The median wall time of each command; the commands take turns, so that a busy moment of the
    machine is shared among them."""
    for args in COMMANDS.values():
        _run(args)
    times: dict[str, list[float]] = {what: [] for what in COMMANDS}
    for _ in range(repeat):
        for what, args in COMMANDS.items():
            times[what].append(_run(args))
    return {what: statistics.median(t) for what, t in times.items()}


def rows(quick: bool) -> list[tuple[str, float, str, float | None, str]]:
    """(what, seconds, baseline, baseline seconds or None, target) per measurement."""
    t = timings(5 if quick else 11)
    floor, everything = "import islpy, numpy", "every public name"
    return [
        ("import viewalgebra", t["import viewalgebra"], floor, t[floor], "<= 0.3 s"),
        ("viewalgebra --help", t["viewalgebra --help"], floor, t[floor], "<= 0.5 s"),
        (everything, t[everything], "import viewalgebra", t["import viewalgebra"],
         "reference: sympy, the MLIR front end, drawing, the interpreter and the rocMLIR port too"),
        (floor, t[floor], "", None, "reference: the core needs both"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 repetitions instead of 11")
    quick = parser.parse_args(argv).quick
    print(f"{'what':22} {'seconds':>8}   {'baseline':22} {'seconds':>8}   target")
    for what, seconds, base, base_seconds, target in rows(quick):
        base_text = "" if base_seconds is None else f"{base_seconds:8.3f}"
        print(f"{what:22} {seconds:8.3f}   {base:22} {base_text:>8}   {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
