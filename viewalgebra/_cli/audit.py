"""``viewalgebra audit``: every (problem, config) pair of a problem list audited on Dask
(docs/audit.md): ``results.parquet``, the width-lost picture and a summary on stdout."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import TransformParseError, ViewAlgebraError
from .errors import InputError, bad_input

PARQUET, PICTURE = "results.parquet", "width-lost.svg"

DEFAULT_PROVIDER = "viewalgebra.gridwise:rocmlir_accesses"
"""rocMLIR's per-thread accesses, built by the recipes (docs/audit.md, The default provider)."""


def run(args: argparse.Namespace) -> int:
    from .._audit import run as runner
    from .._audit.picture import render
    from .._audit.report import FINDINGS, summary, summary_text, write_parquet
    from .._recipes.arch import arch as arch_named
    from .._recipes.tier1 import parse_problem_list
    from .._recipes.tuning import parse_config_list, tuning_space

    try:
        try:
            pa = runner.require("pyarrow")
            pq = runner.require("pyarrow.parquet")
            runner.require("distributed")
            target = arch_named(args.arch)
            if args.provider is None:
                args.provider = DEFAULT_PROVIDER
            runner.resolve_provider(args.provider)
        except ViewAlgebraError as e:  # about the arguments, not the problem list
            raise InputError(str(e)) from e
        if args.limit is not None and args.limit < 1:
            raise InputError(f"--limit must be at least 1, got {args.limit}")
        if args.workers is not None and args.workers < 1:
            raise InputError(f"--workers must be at least 1, got {args.workers}")
        lines = parse_problem_list(_read(args.input))
        listed = None
        if args.configs not in ("quick", "full"):
            text = _read(args.configs)
            try:
                listed = parse_config_list(text, wmma="wmma" in target.features)
            except TransformParseError as e:
                raise InputError(e.reason, args.configs, e.line, e.column) from e
        pairs: list[tuple[str, Any, Any]] = []
        for line in lines:
            configs = listed if listed is not None else tuning_space(line.problem, target, args.configs)
            pairs.append((line.text, line.problem, list(configs[:args.limit])))
        tasks = runner.tasks_of(pairs, target.name, args.provider)
        progress = runner.Progress(sum(len(t.configs) for t in tasks))
        rows = runner.run_tasks(tasks, scheduler=args.scheduler, workers=args.workers,
                                progress=progress.update)
        progress.close(len(rows))
        order = {text: i for i, (text, _, _) in enumerate(pairs)}
        rows.sort(key=lambda r: (order.get(r.problem, len(order)), r.config, r.kind == "check", r.access))
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            write_parquet(rows, out / PARQUET, pa, pq)
            (out / PICTURE).write_text(render(rows))
        except OSError as e:
            raise InputError(f"{out}: cannot write ({e.strerror or e})") from e
    except (ViewAlgebraError, InputError) as e:
        return bad_input(args, e)
    data = summary(rows, configs=sum(len(c) for _, _, c in pairs), problems=len(pairs))
    if args.json:
        print(json.dumps({"problems": args.input, "arch": target.name, "configs": args.configs,
                          "parquet": str(out / PARQUET), "picture": str(out / PICTURE), "summary": data},
                         indent=2))
    else:
        sys.stdout.write(summary_text(data))
        print(f"wrote {out / PARQUET} and {out / PICTURE}")
    return 1 if any(data["verdicts"][v] for v in FINDINGS) else 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except FileNotFoundError as e:
        raise InputError(f"{path}: no such file") from e
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read ({e})") from e
