"""The command line on large files (``stream_sizes.py``): ``regularize``, ``check`` and ``show``
at 1, 10 and 50 MB (``--quick``: 1 and 10), each in a fresh subprocess, the commands interleaved
so that they share the machine's load; ``check`` on 1 and 10 MB of garbage. Medians of 3 runs
(one at 50 MB).

Targets (docs/performance.md): every command's peak RSS at 10 and 50 MB within 1.2x of its own
at 1 MB; ``check``'s and ``show``'s time per MB within 2x of ``regularize``'s at the same size;
garbage rejected in about the same time at 10 MB as at 1 MB (the scan stops at the first
statement that is not MLIR).

Run: ``.venv/bin/python benchmarks/bench_stream.py [--quick]``.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # this checkout

import stream_sizes  # noqa: E402
from timing import print_rows, quick_flag  # noqa: E402

Row = tuple[str, float, str, float | None, str]


def measure(sizes: tuple[int, ...], repeat: int) -> dict[tuple[str, int], tuple[float, float, int]]:
    """Median wall time and peak RSS of each command at each size."""
    runs: dict[tuple[str, int], list[tuple[float, float, int]]] = {}
    for mb in sizes:
        for _ in range(1 if mb >= 50 else repeat):
            for command in stream_sizes.COMMANDS:
                runs.setdefault((command, mb), []).append(stream_sizes.run(mb, command))
    return {key: (statistics.median(t for t, _, _ in found), statistics.median(r for _, r, _ in found),
                  found[0][2]) for key, found in runs.items()}


def rows(quick: bool) -> list[Row]:
    sizes = (1, 10) if quick else (1, 10, 50)
    measured = measure(sizes, 3)
    found: list[Row] = []
    for command in stream_sizes.COMMANDS:
        base_time, base_rss, _ = measured[command, 1]
        for mb in sizes[1:]:
            elapsed, peak, copies = measured[command, mb]
            unit = "functions" if command == "regularize" else "copies of rocmlir_differences.mlir"
            if command == "regularize":
                found.append((f"viewalgebra regularize, {mb} MB ({copies} {unit}), time per MB", elapsed / mb,
                              "1 MB", base_time, "<= 1.2x baseline"))
            else:
                found.append((f"viewalgebra {command}, {mb} MB ({copies} {unit}), time per MB", elapsed / mb,
                              f"regularize, {mb} MB", measured["regularize", mb][0] / mb, "<= 2x baseline"))
            found.append((f"viewalgebra {command}, {mb} MB, peak RSS (MB)", peak, "1 MB", base_rss,
                          "<= 1.2x baseline"))
    junk = {mb: statistics.median(stream_sizes.run(mb, "garbage")[0] for _ in range(3)) for mb in (1, 10)}
    found.append(("viewalgebra check, 10 MB of garbage, rejected at its first statement", junk[10],
                  "lexing all of it (10 x 1 MB), as the scan did twice", 10 * lex_time(), "<= 0.2x baseline"))
    found.append(("viewalgebra check, 10 MB of garbage", junk[10], "1 MB of garbage", junk[1],
                  "reference: its lines are read into one part (nothing in garbage can be cut)"))
    return found


def lex_time() -> float:
    """Median time to lex 1 MB of garbage leniently (what the scan did to every file before it
    read a statement at a time)."""
    import tempfile
    import time

    from viewalgebra._maps.lexer import tokenize  # noqa: TID251 -- the lexer itself is the baseline

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "garbage.mlir"
        stream_sizes.garbage(path, 1)
        text = path.read_text()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        tokenize(text, lenient=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv, "1 and 10 MB only")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
