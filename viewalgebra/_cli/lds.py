"""``viewalgebra lds``: the LDS bank conflicts of the LDS accesses of an ``.mlir`` file, or of
rocMLIR's LDS layouts for a gemm perf config beside the layouts its maps could express
(``--gemm``); docs/cli.md. Each access is answered by ``bank_conflicts`` (exact, by enumeration);
``--svg`` draws the worst one with ``va.draw.banks``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .._analyses.lds import BankConflicts, LdsAccess
from .._analyses.lds_model import LdsModel
from ..errors import InternalError, TransformParseError, ViewAlgebraError
from .errors import InputError, bad_input
from .inputs import Input, file_lines, write_text


@dataclass(frozen=True, slots=True)
class _Answer:
    """One access and its answer, with where it comes from."""

    where: dict[str, Any]
    """The JSON keys that say which access it is (``line`` and ``op``; with --gemm, the layout,
    the operand and the kind)."""
    label: str
    """The same as text: ``line 156: rock.threadwise_write_all``."""
    result: BankConflicts
    access: Callable[[], LdsAccess] | None = None
    """The access (built when a picture asks for it); ``None``: not drawn (another layout than
    rocMLIR's)."""


@dataclass(slots=True)
class _Report:
    """What one run found: the accesses answered, and how the output names them."""

    what: str
    """How the text's first line names the input."""
    head: dict[str, Any]
    """The JSON keys before ``arch``."""
    answers: list[_Answer] = field(default_factory=lambda: list[_Answer]())
    body: list[str] | None = None
    """The text after the first line, when not one paragraph per access (--gemm: per operand,
    rocMLIR's accesses in full and one line per other layout)."""
    left_out: int = 0
    """Accesses found but not analysed, each noted on stderr."""


def run(args: argparse.Namespace) -> int:
    from .._analyses.lds_model import lds_model

    try:
        _check_arguments(args)
        try:
            model = lds_model(args.arch.split(":", 1)[0])  # a target such as gfx942:sramecc+ names its chip
        except ViewAlgebraError as e:
            raise InputError(f"--arch {args.arch}: {e}") from e
        report = _gemm(args, model) if args.gemm is not None else _file(args, model)
        worst = max((a for a in report.answers if a.access is not None),
                    key=lambda a: (a.result.max_degree, a.result.counter), default=None)
        drawn = None
        if args.svg is not None and worst is not None and worst.access is not None:
            from .._analyses.lds import bank_conflicts
            from .._draw.banks import banks

            access = worst.access()
            again = bank_conflicts(access, model).degrees
            if again.shape != worst.result.degrees.shape or (again != worst.result.degrees).any():
                raise InternalError(f"lds --svg: the access rebuilt to draw {worst.label} does not count as "
                                    "the one answered")
            write_text(args.svg, banks(worst.result, model, access=access,
                                       title=f"{worst.label}: {worst.result.instruction} on {model.arch}"))
            drawn = args.svg
    except (ViewAlgebraError, InputError) as e:
        return bad_input(args, e)
    if args.json:
        print(json.dumps(report.head | {
            "arch": model.arch, "banks": model.banks, "wave": model.wave,
            "accesses": [a.where | entry(a.result) for a in report.answers], "svg": drawn}, indent=2))
        return 0
    if not report.answers:
        said = (f"{report.left_out} LDS access(es) not analysed and no other" if report.left_out
                else "0 LDS accesses")
        print(f"{report.what}: {said}, nothing to check")
        return 0
    print(f"{report.what}: {len(report.answers)} LDS access(es) on {model.arch} ({model.wave} lanes a wave, "
          f"{model.banks} banks of {model.bank_bytes} bytes)")
    if report.body is not None:
        sys.stdout.write("".join(report.body))
    else:
        for a in report.answers:
            sys.stdout.write(text_of(a.label, a.result))
    free = sum(a.result.max_degree <= 1 for a in report.answers)
    top = max(report.answers, key=lambda a: (a.result.max_degree, a.result.counter))
    print(f"summary: {len(report.answers)} access(es), {free} conflict-free; worst degree "
          f"{top.result.max_degree}" + (f" ({top.label})" if top.result.max_degree > 1 else ""))
    if drawn is not None:
        print(f"wrote {drawn}")
    return 0


def _check_arguments(args: argparse.Namespace) -> None:
    if args.gemm is None:
        if args.input is None:
            raise InputError("give an .mlir file, or --gemm PARAMS for rocMLIR's LDS layouts of a gemm")
        for flag in ("--problem", "--dtype", "--operand"):
            if getattr(args, flag[2:]) is not None:
                raise InputError(f"{flag} goes with --gemm (a file's accesses take their types from it)")
    elif args.input is not None:
        raise InputError(f"--gemm takes no file (got {args.input}): give one or the other")


def _file(args: argparse.Namespace, model: LdsModel) -> _Report:
    """The LDS accesses of the file (``lds_accesses``), each answered; those that cannot be
    built are left out with their reason."""
    from .._analyses.lds import bank_conflicts
    from .._audit.lds_mlir import lds_accesses

    text = "".join(file_lines(Path(args.input)))
    report = _Report(args.input, {"file": args.input})
    left_out: list[dict[str, Any]] = []
    for found in lds_accesses(text):
        where = {"line": found.line, "op": found.op}
        if found.access is None:
            left_out.append(where | {"reason": found.reason})
            print(f"viewalgebra: {args.input}:{found.line}: {found.op} {found.value}: not analysed: "
                  f"{found.reason}", file=sys.stderr)
            continue
        report.answers.append(_Answer(where, f"line {found.line}: {found.op} {found.value}",
                                      bank_conflicts(found.access, model), partial(_same, found.access)))
    if not report.answers and not left_out:
        _check_mlir(args.input)
    report.head = {"file": args.input, "left_out": left_out}
    report.left_out = len(left_out)
    return report


def _check_mlir(label: str) -> None:
    """Nothing found: MLIR with no LDS access (nothing to do), or ``MlirParseError`` located at the
    first statement of text that is not MLIR."""
    from .._mlir import iter_mlir_parts
    from ..errors import MlirParseError

    try:
        for _ in iter_mlir_parts(Input(label, Path(label)).parts(), errors="collect"):
            pass
    except MlirParseError as e:
        raise MlirParseError(f"holds no LDS access: {e.reason}", e.text, e.offset) from None


def _same(access: LdsAccess) -> LdsAccess:
    return access


def _gemm(args: argparse.Namespace, model: LdsModel) -> _Report:
    """rocMLIR's LDS layout of each operand beside the other layouts (``compare_lds_layouts``):
    every layout's store and read, rocMLIR's first."""
    from .._audit.lds_compare import compare_lds_layouts
    from .._audit.memo import config_views
    from .._recipes.arch import arch as arch_named
    from .._recipes.perf_config import AccelPerfConfig, Operand, PerfConfig
    from .._recipes.tier1 import parse_problem_list

    try:
        target = arch_named(args.arch)
    except ViewAlgebraError as e:
        raise InputError(f"--arch {args.arch}: {e}") from e
    try:
        config = PerfConfig.parse(args.gemm, wmma="wmma" in target.features)
    except TransformParseError as e:
        raise InputError(f"--gemm {args.gemm}: {e.reason}") from e
    if not isinstance(config, AccelPerfConfig):
        raise InputError(f"--gemm {args.gemm}: a non-accelerated config reads no LDS through an MFMA or WMMA "
                         "layout; give an accelerated perf config")
    dtype = args.dtype or "f16"
    text = args.problem if args.problem is not None else (
        f"-t {dtype} -out_datatype {dtype} -transA false -transB false -g 1 -m {config.m_per_block} "
        f"-n {config.n_per_block} -k {config.k_per_block}")
    try:
        lines = parse_problem_list(text)
    except TransformParseError as e:
        raise InputError(f"--problem: {e}") from e
    if len(lines) != 1:
        raise InputError(
            f"--problem: expected one problem line (gemm or conv, as audit reads), got {len(lines)}")
    line = lines[0]
    if line.perf_config is not None and str(line.perf_config) != str(config):
        raise InputError(f"--problem: its -perf_config {line.perf_config} is not --gemm {args.gemm}")
    problem = line.problem
    if args.dtype is not None and args.dtype != problem.dtype:
        raise InputError(f"--dtype {args.dtype}: the problem's element type is {problem.dtype}")
    grid = config_views(problem, config)
    operands: tuple[Operand, ...] = (args.operand,) if args.operand else ("a", "b")
    verdicts: list[dict[str, Any]] = []
    body: list[str] = []
    report = _Report(f"{args.gemm} on {target.name}, {line.text}", {}, body=body)
    for operand in operands:
        comparison = compare_lds_layouts(grid, operand, config, target, problem.dtype)
        verdicts.append({"operand": operand, "kind": comparison.kind, "verdict": comparison.verdict,
                         "best": comparison.best.variant.label})
        body.append(f"{operand.upper()}: rocMLIR's layout is {comparison.rocmlir.variant.label}: "
                    f"{comparison.verdict}\n")
        others: list[str] = []
        for row in comparison.rows:
            for kind, result in (("write", row.write), ("read", row.read)):
                label = f"{operand.upper()} {'store' if kind == 'write' else 'read'}, {row.variant.label}"
                build = partial(_layout_access, grid, operand, config, target, problem.dtype, row.variant,
                                kind) if row.rocmlir else None
                report.answers.append(_Answer(
                    {"layout": row.variant.label, "rocmlir": row.rocmlir, "operand": operand, "kind": kind},
                    label + (" (rocMLIR's)" if row.rocmlir else ""), result, build))
                if row.rocmlir:
                    body.append(text_of("  " + report.answers[-1].label, result).replace("\n  ", "\n    "))
            if not row.rocmlir:
                others.append(f"    {row.row()}\n")
        body += [f"  other layouts ({len(others)}):\n", *others]
    report.head = {"file": None, "gemm": {
        "config": str(config), "problem": line.text, "dtype": problem.dtype, "operands": list(operands),
        "verdicts": verdicts}}
    return report


def _layout_access(grid: Any, operand: Any, config: Any, arch: Any, dtype: str, variant: Any,
                   kind: str) -> LdsAccess:
    """The store (``kind`` write) or read of ``operand``'s tile laid out as ``variant``, as
    ``compare_lds_layouts`` counts it."""
    from .._audit.lds_compare import thread_lds_access
    from .._recipes.accel_params import OperandLds, operand_lds
    from .._recipes.lds_read import lds_read
    from .._recipes.lds_views import lds_store

    flags = variant.flags
    if kind == "write":
        return thread_lds_access(lds_store(grid, operand, config, arch, dtype, lds=flags), arch)
    own = operand_lds(grid, operand, config, arch, dtype)
    return thread_lds_access(lds_read(grid, operand, config, arch, dtype, layout=OperandLds(
        own.vector_dim, own.d_per_thread, own.k_per_thread, flags, own.dxk)), arch)


def entry(r: BankConflicts) -> dict[str, Any]:
    """A ``BankConflicts`` as the JSON contract has it (docs/cli.md, ``lds``)."""
    w = r.witness
    return {
        "instruction": r.instruction, "width": r.width, "instructions": r.instructions, "split": r.split,
        "max_degree": r.max_degree, "counter": r.counter, "per_instruction": r.per_instruction,
        "broadcasts": r.broadcasts,
        "witness": None if w is None else {
            "wave": w.wave, "instance": list(w.instance), "instruction": w.instruction, "phase": w.phase,
            "bank": w.bank, "dwords": list(w.dwords), "lanes": [list(lanes) for lanes in w.lanes]},
        "assumed": [{"kind": p.kind, "width": p.width, "source": p.source} for p in r.assumed],
    }


def text_of(label: str, r: BankConflicts) -> str:
    """The text of one access: a line, then its witness and assumed rules, indented."""
    from .._draw.banks import lanes_text

    split = f" ({r.instructions} a lane: {r.split})" if r.split else ""
    if r.max_degree <= 1:
        head = f"{label}: {r.instruction}{split}: conflict-free"
    else:
        head = (f"{label}: {r.instruction}{split}: degree {r.max_degree}, {r.counter} conflict cycle(s), "
                f"at most {r.per_instruction} in one instruction")
    if r.broadcasts:
        head += f"; {r.broadcasts} lane(s) served by a broadcast"
    lines = [head]
    w = r.witness
    if w is not None:
        held = "; ".join(f"dword {d} (lane{'s' if len(ls) > 1 else ''} {lanes_text(ls)})"
                         for d, ls in zip(w.dwords, w.lanes, strict=True))
        instance = f", instance {tuple(w.instance)}" if w.instance else ""
        split = f", instruction {w.instruction + 1} of {r.instructions}" if r.instructions > 1 else ""
        lines.append(f"  worst: wave {w.wave}{instance}{split}, phase {w.phase}: bank {w.bank} "
                     f"holds {len(w.dwords)} dwords: {held}")
    lines += [f"  assumed: {p.kind} of {p.width} bytes: {p.source}" for p in r.assumed]
    return "\n".join(lines) + "\n"
