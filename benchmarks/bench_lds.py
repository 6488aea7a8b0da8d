"""LDS bank-conflict benchmark: enumeration and the ISL decision beside a per-lane count in plain
Python, same run.

Run: ``.venv/bin/python benchmarks/bench_lds.py [--quick]``.

The access: 256 threads (4 waves of gfx942) × 64 instances, each lane reading 8 f16 (one
``ds_read_b128``) from a ``64 × 64 × 8`` buffer; every wave reads the same 64 rows. "free": lane
``l`` reads row ``l`` of instance ``i`` at ``i * 512 + l * 8`` (16 bytes apart, conflict-free);
"8-way": at ``l * 512 + i * 8`` (1024 bytes apart, 8 dwords per bank in every phase). Figures are
medians of repeated runs, each from cold caches (``clear_caches``); the per-lane count is the
test suite's independent implementation (``tests/test_lds.py``, ``per_lane``), run once.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent)]  # this checkout

from test_lds import per_lane  # noqa: E402
from timing import median_time, print_rows, quick_flag  # noqa: E402

import viewalgebra as va  # noqa: E402

T = va.transforms
Row = tuple[str, float, str, float | None, str]


def access(conflicting: bool) -> va.lds.LdsAccess:
    """The benchmark's access (module docstring): conflict-free, or 8-way."""
    top = va.TransformMap((T.Merge((4, 64), ("tid",), (0,), ("w", "l"), (0, 1)),
                           T.PassThrough((), ("i", "k"), (1, 2), ("i", "k"), (2, 3))),
                          (256, 64, 8), (4, 64, 64, 8))
    order = (0, 1, 2) if conflicting else (1, 0, 2)  # buffer dims of (l, i, k)
    bottom = va.TransformMap((T.AddDim((4,), ("w",), (0,), (), ()),
                              T.PassThrough((), ("l", "i", "k"), (1, 2, 3), ("l", "i", "k"), order)),
                             (4, 64, 64, 8), (64, 64, 8))
    view = va.View(va.Buffer((64, 64, 8), "f16"), (top, bottom))
    return va.lds.LdsAccess(view, "tid", "k", 8, "read")


def rows(quick: bool) -> list[Row]:
    """Per access: ``bank_conflicts`` and ``conflict_free``, each beside the per-lane count."""
    repeat = 3 if quick else 7
    model = va.lds.lds_model("gfx942")
    found: list[Row] = []
    for name, conflicting in (("free", False), ("8-way", True)):
        a = access(conflicting)
        start = time.perf_counter()
        expected = per_lane(a, model)
        baseline = time.perf_counter() - start
        got = va.lds.bank_conflicts(a, model)
        if (got.instruction, got.degrees.reshape(-1).tolist(), got.counter) != expected[:3]:
            raise SystemExit(f"bench_lds: bank_conflicts differs from the per-lane count ({name})")
        if (va.lds.conflict_free(a, model) is None) != (got.max_degree <= 1):
            raise SystemExit(f"bench_lds: conflict_free differs from the count ({name})")
        what = f"256 threads x 64 instances, gfx942 ds_read_b128, {name} (counter {got.counter})"
        found.append((f"bank_conflicts, {what}",
                      median_time(lambda a=a: va.lds.bank_conflicts(a, model), repeat),
                      "per-lane Python", baseline, "<= 20 ms"))
        found.append((f"conflict_free (ISL), {what}",
                      median_time(lambda a=a: va.lds.conflict_free(a, model), repeat),
                      "per-lane Python", baseline, ""))
    return found


def main(argv: list[str] | None = None) -> int:
    print_rows(rows(quick_flag(__doc__, argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
