"""Bounded work: answers from a worker process per thread, wall-clock timeouts, Ctrl-C, threads."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from rocmlir_data import DATA

import viewalgebra as va
from viewalgebra._analyses import vectorize as vectorize  # noqa: TID251 -- which path answered
from viewalgebra._engine import budget as budget  # noqa: TID251 -- the worker machinery itself is under test

CONV = DATA.parent.parent / "examples" / "conv2d_fwd_nchw.mlir"


@pytest.fixture(autouse=True)
def _fresh_worker():
    """Each test starts with a fresh worker: one grown past WORKER_MEMORY_LIMIT by earlier tests
    would be replaced right after its next answer, under the test's feet."""
    budget.stop_workers()


def _conv() -> va.View:
    (parsed,) = va.text.parse_mlir_views(CONV.read_text())
    return parsed.view


def _within(started: float, timeout: float) -> None:
    elapsed = time.monotonic() - started
    assert elapsed <= max(2 * timeout, timeout + 1), f"answered after {elapsed:.2f} s"


def test_a_timeout_holds_in_wall_clock_time():
    budget.run_bounded(abs, (1,), 30, "warm-up")  # the worker of this thread is running
    started = time.monotonic()
    with pytest.raises(va.errors.QueryTimeoutError, match=r"sleep: no answer within 0.3 s"):
        budget.run_bounded(time.sleep, (30,), 0.3, "sleep")
    _within(started, 0.3)
    assert budget.run_bounded(abs, (-3,), 30, "after") == 3  # a new worker took over


def test_an_isl_query_over_its_time_fails_cleanly():
    view = va.View(_conv().buffer, _conv().maps)  # a fresh value: nothing cached
    query = (view, 1, view.shape[1], None, False, False, False)
    with pytest.raises(va.errors.QueryTimeoutError, match=r"no answer within 0.001 s"):
        vectorize._answer(query, 0.001, "isl")  # noqa: SLF001 -- ISL's path, which the probe skips here


def test_a_timeout_holds_in_a_thread_and_leaves_other_threads_alone():
    view = _conv()
    serial = [va.max_vector_length(view, d) for d in range(view.rank)]

    def slow() -> float:
        budget.run_bounded(abs, (1,), None, "warm-up")  # this thread's worker is running
        started = time.monotonic()
        with pytest.raises(va.errors.QueryTimeoutError):
            budget.run_bounded(time.sleep, (30,), 0.5, "sleep")
        return time.monotonic() - started

    def query(d: int) -> va.answers.VectorLength:
        return va.max_vector_length(va.View(view.buffer, view.maps), d % view.rank)

    with ThreadPoolExecutor(8) as pool:
        timed_out = pool.submit(slow)
        answers = list(pool.map(query, range(16)))
        assert timed_out.result() <= 1.0  # max(2 t, t + 1 s) with t = 0.5
    assert answers == [serial[d % view.rank] for d in range(16)]


def test_ctrl_c_reaches_the_caller_and_leaves_no_worker():
    budget.run_bounded(abs, (1,), None, "warm-up")
    worker = budget._THREAD.worker  # noqa: SLF001
    pid = worker._box[0].pid  # noqa: SLF001
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        budget.run_bounded(time.sleep, (30,), None, "sleep")
    assert time.monotonic() - started < 1.3
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_large_worker_is_replaced_with_the_same_answers(monkeypatch):
    view = _conv()
    before = va.max_vector_length(view, 2)
    monkeypatch.setattr(budget, "WORKER_MEMORY_LIMIT", 0)  # every worker is too large
    pids = set()
    for _ in range(3):
        assert va.max_vector_length(va.View(view.buffer, view.maps), 2, timeout=60) == before
        pids.add(budget.run_bounded(os.getpid, (), 30, "pid"))
    assert len(pids) == 3 and os.getpid() not in pids


def test_errors_cross_from_the_worker():
    with pytest.raises(ValueError, match="invalid literal"):
        budget.run_bounded(int, ("x",), 30, "int")


def test_without_workers_queries_run_in_process():
    code = ("import warnings, viewalgebra as va\n"
            "from viewalgebra._engine import budget as budget\n"
            "tm = va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by "
            "[<Merge{4, 8} [\"k\"] at [0] -> [\"a\", \"b\"] at [0, 1]>] bounds = [32] -> [4, 8]>')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    n = va.max_vector_length(va.View(va.Buffer((4, 8)), [tm]), 0).length\n"
            "    here = budget.run_bounded(__import__('os').getpid, (), 1, 'pid') == __import__('os').getpid()\n"
            "    va.invert(tm)\n"
            "print(n, budget.timeouts_hold(), here, len(w))\n")
    env = {**os.environ, "VIEWALGEBRA_WORKERS": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["32", "False", "True", "1"]


def test_an_exception_that_cannot_cross_arrives_as_its_message():
    # TransformParseError needs its text and offset to be rebuilt; the caller gets its message.
    with pytest.raises(va.ViewAlgebraError, match=r"parse: TransformParseError: .*expected"):
        budget.run_bounded(va.parse_transform_map, ("<nonsense",), 30, "parse")


def test_a_thread_that_ends_takes_its_worker_with_it():
    pids = []
    thread = threading.Thread(target=lambda: pids.append(budget.run_bounded(os.getpid, (), 30, "pid")))
    thread.start()
    thread.join()
    gc.collect()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pids[0], 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pids[0]} still runs after its thread ended")


def test_starting_a_worker_does_not_eat_a_short_timeout():
    answers = []
    started = time.monotonic()
    thread = threading.Thread(target=lambda: answers.append(budget.run_bounded(abs, (-2,), 0.2, "abs")))
    thread.start()  # a new thread: its worker starts with this query
    thread.join()
    assert answers == [2] and time.monotonic() - started < 0.2 + 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the caller cannot fork here")
def test_a_fork_of_the_caller_has_its_own_worker_and_leaves_the_callers_alone():
    before = budget.run_bounded(os.getpid, (), 30, "pid")
    child = os.fork()
    if child == 0:  # the fork: answer through a worker of its own, then exit as forks do
        code = 0 if budget.run_bounded(os.getpid, (), 30, "pid") not in (before, os.getpid()) else 1
        budget.stop_workers()
        os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert budget.run_bounded(os.getpid, (), 30, "pid") == before  # the caller's worker lives on


def test_where_no_worker_can_start_queries_run_in_process():
    # A frozen application, say: sys.executable does not run Python code.
    code = ("import sys, warnings, viewalgebra as va\n"
            "from viewalgebra._engine import budget as budget\n"
            "sys.executable = '/bin/false'\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    ok = va.invert(va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by "
            "[<Merge{4, 8} [\"k\"] at [0] -> [\"a\", \"b\"] at [0, 1]>] bounds = [32] -> [4, 8]>')).kind\n"
            "print(ok, budget.timeouts_hold(), len(w), 'exited with 1' in str(w[0].message))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["bijective", "False", "1", "True"]


def test_a_worker_killed_from_outside_is_a_worker_error_and_is_replaced():
    pid = budget.run_bounded(os.getpid, (), 30, "pid")
    threading.Timer(0.3, lambda: os.kill(pid, signal.SIGKILL)).start()
    with pytest.raises(va.errors.WorkerError, match="sleep: the worker process died without an answer"):
        budget.run_bounded(time.sleep, (30,), 30, "sleep")
    assert budget.run_bounded(os.getpid, (), 30, "pid") != pid


def test_bad_arguments_are_invalid_argument_errors():
    view = va.View(va.Buffer((4, 8)))
    for call in (lambda: va.max_vector_length(view, 1, 0), lambda: va.max_vector_length(view, 1, timeout=0),
                 lambda: va.max_vector_length(view, 1, max_elements=0)):
        with pytest.raises(va.errors.InvalidArgumentError):
            call()
    with pytest.raises(va.errors.InvalidArgumentError, match="unknown style 'x'"):
        va.regularize(va.kernel.Kernel("k"), style="x")


def test_an_isl_failure_arrives_as_an_internal_error_in_the_worker_and_here():
    import dataclasses

    import islpy

    with pytest.raises(va.errors.InternalError, match="ISL failed"):
        budget.run_bounded(islpy.Set, ("{ [i] : garbage",), 30, "parse a set")
    tm = va.parse_transform_map('<affine_map<(d0) -> (d0 - 2)> by [<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>] '
                                'bounds = [7] -> [4]>')
    broken = dataclasses.replace(va.invert(tm), uncovered_text="{ [i] : garbage")
    with pytest.raises(va.errors.InternalError, match="Inverse.uncovered: ISL failed"):
        _ = broken.uncovered


def test_a_large_caller_keeps_its_worker():
    # A worker started from a caller of 400 MB must not count the caller's memory as its own
    # (on Linux the peak resident size survives exec): it answers many queries, not one.
    code = ("import os, numpy as np\n"
            "from viewalgebra._engine import budget as budget\n"
            "ballast = np.ones(50_000_000)  # 400 MB, touched\n"
            "pids = {budget.run_bounded(os.getpid, (), 30, 'pid') for _ in range(3)}\n"
            "print(len(pids), ballast.sum() > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "True"]
