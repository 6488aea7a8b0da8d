"""``viewalgebra regularize`` on large files: copies of ``examples/bert_part_11.mlir`` under
fresh function names, run as a subprocess so that its peak RSS is the process's own."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bert_part_11.mlir"


def generate(path: Path, megabytes: float) -> int:
    """Write a file of about ``megabytes`` MB; the number of functions."""
    text = EXAMPLE.read_text()
    copies = max(1, round(megabytes * 1e6 / len(text)))
    with path.open("w") as f:
        for i in range(copies):
            f.write(text.replace("@bert_part_11__part_0", f"@copy{i}_part_0"))
            f.write("\n")
    return copies


def run(megabytes: float) -> tuple[float, float, int]:
    """Wall time (s) and peak RSS (MB) of ``viewalgebra regularize`` on a generated file, and
    its number of functions."""
    with tempfile.TemporaryDirectory() as tmp:
        source, output = Path(tmp) / "big.mlir", Path(tmp) / "out.mlir"
        copies = generate(source, megabytes)
        # A fresh parent per run: RUSAGE_CHILDREN keeps the largest child a process ever waited for.
        code = ("import resource, subprocess, sys; "
                "done = subprocess.run([sys.executable, '-m', 'viewalgebra', *sys.argv[1:]], "
                "stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
                "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, "regularize", str(source), "-o", str(output)],
                              capture_output=True, text=True, cwd=ROOT, check=False)
        elapsed = time.perf_counter() - start
        status, peak_kb = map(int, done.stdout.split())
        if status not in (0, 1) or not output.exists():
            raise RuntimeError(f"regularize exited with {status}: {done.stderr[-2000:]}")
        peak = peak_kb / 1024  # kB on Linux
        return elapsed, peak, copies


if __name__ == "__main__":
    for mb in map(float, sys.argv[1:] or ["1"]):
        t, rss, n = run(mb)
        print(f"{mb:5.0f} MB, {n} functions: {t:.1f} s ({t / mb:.2f} s/MB), peak RSS {rss:.0f} MB")
