"""The audit of many (problem, config) pairs on Dask (docs/audit.md): a ``distributed.LocalCluster``
of worker processes on this machine's cores, or an existing cluster's scheduler, the same tasks
either way. Dask, distributed and pyarrow (the ``audit`` extra) are imported only here, when a run
starts, so that the rest of the package works without them.

A task audits a few configs of one problem (``CHUNK``), so that the views and answers a worker
memoizes (``memo.py``, ``access.ANSWERS``) serve the configs of one problem together. The
provider is named ``module:function`` and imported in each worker, so that a cluster runs it
unchanged wherever the module is importable.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, cast

from .._recipes.arch import arch as arch_named
from .._recipes.perf_config import AccelPerfConfig, GeneralPerfConfig
from .._recipes.problems import ConvProblem, GemmProblem
from ..errors import InvalidArgumentError, MissingDependencyError
from .access import AuditRow, Provider, audit_config

CHUNK = 8
"""Configs of one problem per task."""

EXTRA = "pip install 'viewalgebra[audit]' (dask[distributed], distributed, pyarrow)"
"""What to install when the audit's dependencies are missing."""


def require(module: str) -> Any:
    """Import ``module`` of the ``audit`` extra, or say which extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingDependencyError(f"audit needs {module}, which is not installed: {EXTRA}") from e


def resolve_provider(spec: str) -> Provider:
    """The provider ``module:function`` names (``InvalidArgumentError`` when it cannot be found)."""
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise InvalidArgumentError(f"--provider {spec}: expected MODULE:FUNCTION")
    try:
        found: Any = getattr(importlib.import_module(module), name)
    except ImportError as e:
        raise InvalidArgumentError(f"--provider {spec}: cannot import {module} ({e})") from e
    except AttributeError as e:
        raise InvalidArgumentError(f"--provider {spec}: {module} has no {name}") from e
    if not callable(found):
        raise InvalidArgumentError(f"--provider {spec}: {module}.{name} is not callable")
    return cast("Provider", found)


Problem = GemmProblem | ConvProblem
Config = AccelPerfConfig | GeneralPerfConfig


@dataclass(frozen=True, slots=True)
class Task:
    """Some configs of one problem, as sent to a worker."""

    problem_text: str
    problem: Problem
    configs: tuple[Config, ...]
    arch: str
    provider: str
    aligned: bool = False
    timeout: float | None = 60.0


def audit_task(task: Task) -> list[AuditRow]:
    """Run in a worker: the rows of every config of the task. A config whose audit raises gives
    one ``error`` row naming the exception, so that one bad config does not stop a long run."""
    provider = resolve_provider(task.provider)
    target = arch_named(task.arch)
    rows: list[AuditRow] = []
    for config in task.configs:
        try:
            rows += audit_config(task.problem, config, target, provider, problem_text=task.problem_text,
                                 aligned=task.aligned, timeout=task.timeout)
        except Exception as e:  # noqa: BLE001 -- reported as a row, the run goes on
            rows.append(AuditRow(task.problem_text, str(config), task.arch, "provider", "", "provider", "",
                                 None, None, None, "error", f"{type(e).__name__}: {e}", 0.0))
    return rows


def tasks_of(pairs: Sequence[tuple[str, Problem, Sequence[Config]]], arch: str, provider: str, *,
             aligned: bool = False, timeout: float | None = 60.0, chunk: int = CHUNK) -> list[Task]:
    """The tasks of every (problem, its configs): ``chunk`` configs of one problem each."""
    return [Task(text, problem, tuple(configs[i:i + chunk]), arch, provider, aligned, timeout)
            for text, problem, configs in pairs for i in range(0, len(configs), chunk)]


class Progress:
    """A text progress bar on ``stream``, redrawn as tasks complete when it is a terminal; else
    silent until ``close``, which writes one final line."""

    def __init__(self, total: int, stream: IO[str] | None = None, what: str = "configs") -> None:
        self.total, self.done, self.what = total, 0, what
        self.stream = sys.stderr if stream is None else stream
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()

    def update(self, n: int) -> None:
        self.done += n
        if self.tty:
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {self.done}/{self.total} "
                              f"{self.what}  {time.perf_counter() - self.start:.1f} s")
            self.stream.flush()

    def close(self, rows: int) -> None:
        if self.tty:
            self.stream.write("\n")
        self.stream.write(f"audit: {self.done} {self.what}, {rows} rows in "
                          f"{time.perf_counter() - self.start:.1f} s\n")
        self.stream.flush()


def run_tasks(tasks: Sequence[Task], *, scheduler: str | None = None, workers: int | None = None,
              progress: Callable[[int], None] | None = None) -> list[AuditRow]:
    """Every task's rows, run on Dask: on the cluster whose scheduler is at ``scheduler``, else on
    a ``LocalCluster`` of ``workers`` processes (default: this machine's cores) with one thread
    each. ``progress`` is told how many configs each finished task audited."""
    distributed = require("distributed")
    require("dask")
    cluster: Any = None
    if scheduler is not None:
        try:
            client: Any = distributed.Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as e:
            raise InvalidArgumentError(f"--scheduler {scheduler}: cannot connect ({e})") from e
    else:
        n = workers or os.cpu_count() or 1
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
    try:
        futures = [client.submit(audit_task, task, pure=False) for task in tasks]
        sizes = {future.key: len(task.configs) for future, task in zip(futures, tasks, strict=True)}
        rows: list[AuditRow] = []
        for future in distributed.as_completed(futures):
            rows += future.result()
            if progress is not None:
                progress(sizes[future.key])
        return rows
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_serial(tasks: Sequence[Task], progress: Callable[[int], None] | None = None) -> list[AuditRow]:
    """The same tasks in this process, one after the other (the benchmark's baseline and a
    check that Dask changes nothing)."""
    rows: list[AuditRow] = []
    for task in tasks:
        rows += audit_task(task)
        if progress is not None:
            progress(len(task.configs))
    return rows
