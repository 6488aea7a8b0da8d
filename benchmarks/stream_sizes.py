"""The command line on large files, each command as a subprocess so that its peak RSS is the
process's own: ``regularize`` on copies of ``examples/bert_part_11.mlir``, ``check`` and ``show``
on copies of ``examples/rocmlir_differences.mlir`` (maps and views), each copy's functions under
fresh names; and ``check`` on garbage (random characters of MLIR's alphabet), which it rejects.

Run: ``.venv/bin/python benchmarks/stream_sizes.py [MB ...]`` (default 1 and 10): every command at
every size, the sizes interleaved so that each command's figures come from the same stretch of
time.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bert_part_11.mlir"
VIEWS = ROOT / "examples" / "rocmlir_differences.mlir"

COMMANDS = {
    "regularize": (EXAMPLE, ["-o", "{out}"]),
    "check": (VIEWS, []),
    "show": (VIEWS, []),
}
"""Each command, the file it reads copies of, and its arguments after the input."""


def generate(path: Path, megabytes: float, example: Path = EXAMPLE) -> int:
    """Write a file of about ``megabytes`` MB of copies of ``example``, each copy's functions
    renamed; the number of copies."""
    text = example.read_text()
    names = sorted(set(re.findall(r"func\.func @([\w$.]+)", text)), key=len, reverse=True)
    pattern = re.compile(r"@(" + "|".join(map(re.escape, names)) + r")\b")
    copies = max(1, round(megabytes * 1e6 / len(text)))
    with path.open("w") as f:
        for i in range(copies):
            f.write(pattern.sub(lambda m, i=i: f"@copy{i}_{m.group(1)}", text))
            f.write("\n")
    return copies


GARBAGE = "abcdefghijklmnopqrstuvwxyz0123456789 ()[]{}<>#%@=,.:-+*/\n"
"""Characters of MLIR's tokens, punctuation and brackets included."""


def garbage(path: Path, megabytes: float) -> int:
    """Write about ``megabytes`` MB of random characters of ``GARBAGE`` (seeded); its size."""
    rng = random.Random(0)
    size = round(megabytes * 1e6)
    with path.open("w") as f:
        for _ in range(0, size, 1 << 20):
            f.write("".join(rng.choices(GARBAGE, k=min(1 << 20, size))))
    return size


def run(megabytes: float, command: str = "regularize") -> tuple[float, float, int]:
    """Wall time (s) and peak RSS (MB) of ``viewalgebra COMMAND`` on a generated file, and its
    number of copies; ``garbage`` runs ``check`` on garbage (its size instead), which must
    exit with status 2."""
    with tempfile.TemporaryDirectory() as tmp:
        source, output = Path(tmp) / "big.mlir", Path(tmp) / "out.mlir"
        if command == "garbage":
            copies, args, expected = garbage(source, megabytes), ["check", str(source)], (2,)
        else:
            example, extra = COMMANDS[command]
            copies = generate(source, megabytes, example)
            args, expected = [command, str(source), *(a.format(out=output) for a in extra)], (0, 1)
        # A fresh parent per run: RUSAGE_CHILDREN keeps the largest child a process ever waited for.
        code = ("import resource, subprocess, sys; "
                "done = subprocess.run([sys.executable, '-m', 'viewalgebra', *sys.argv[1:]], "
                "stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
                "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
                "sys.stderr.write(done.stderr.decode()[-2000:])")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                              check=False)
        elapsed = time.perf_counter() - start
        status, peak_kb = map(int, done.stdout.split())
        if status not in expected or (command == "regularize" and not output.exists()):
            raise RuntimeError(f"{command} exited with {status}: {done.stderr[-2000:]}")
        return elapsed, peak_kb / 1024, copies  # kB on Linux


if __name__ == "__main__":
    sizes = [float(a) for a in sys.argv[1:]] or [1.0, 10.0]
    for mb in sizes:
        for command in (*COMMANDS, "garbage"):
            t, rss, n = run(mb, command)
            print(f"{command:10} {mb:5.0f} MB, {n} copies: {t:.1f} s ({t / mb:.2f} s/MB), "
                  f"peak RSS {rss:.0f} MB", flush=True)
