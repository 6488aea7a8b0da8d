"""Bounded work: answers from a worker process per thread, wall-clock timeouts, Ctrl-C, threads."""

from __future__ import annotations

import gc
import os
import select
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import FrameType

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import legal_lengths
from rocmlir_data import DATA
from strategies import views

import viewalgebra as va
from viewalgebra._analyses import vectorize as vectorize  # noqa: TID251 -- which path answered
from viewalgebra._engine import budget as budget  # noqa: TID251 -- the worker machinery itself is under test

CONV = DATA.parent.parent / "examples" / "conv2d_fwd_nchw.mlir"
BENCHMARKS = DATA.parent.parent / "benchmarks"


@pytest.fixture(autouse=True)
def _fresh_worker():
    """Each test starts with a fresh worker: one grown past WORKER_MEMORY_LIMIT by earlier tests
    would be replaced right after its next answer, under the test's feet."""
    budget.stop_workers()


@pytest.fixture(autouse=True)
def _the_test_runners_thread_is_not_counted(monkeypatch):
    """Under pytest-xdist (the README's test command) this process also runs execnet's receiver
    thread, started with ``_thread`` so that only ``sys._current_frames`` sees it, and
    ``may_fork()`` rightly declines to fork beside it: every fork test here would test a fresh
    interpreter instead. That thread runs none of a worker's code, and a forked worker replaces
    every stream and closes every descriptor it inherits (``worker.forked``), so it is left out of
    the count; every thread a test starts is still counted (the thread tests say so)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    every = sys._current_frames

    def started_by_the_runner(frame: FrameType) -> bool:
        while frame.f_back is not None:
            frame = frame.f_back
        return f"{os.sep}execnet{os.sep}" in frame.f_code.co_filename

    monkeypatch.setattr(sys, "_current_frames", lambda: {
        ident: frame for ident, frame in every().items() if not started_by_the_runner(frame)})


@pytest.fixture(params=["fork", "spawn"])
def start(request, monkeypatch) -> str:
    """Workers of either kind: forks of this process (whatever its size) or fresh interpreters."""
    if request.param == "fork":
        if not sys.platform.startswith("linux"):
            pytest.skip("workers are forked on Linux only")
        fork_whatever_the_size(monkeypatch)
    else:
        monkeypatch.setenv("VIEWALGEBRA_WORKERS", "spawn")
    return request.param


def fork_whatever_the_size(patch: pytest.MonkeyPatch) -> None:
    """Fork this process however large it is, and keep the fork. The fork starts with this
    process's pages, so when earlier tests have grown it past ``WORKER_MEMORY_LIMIT`` (any order of
    the tests, or pytest-xdist's) the fork would be replaced right after its first answer."""
    patch.setattr(budget, "FORK_LIMIT", 2**40)
    patch.setattr(budget, "WORKER_MEMORY_LIMIT", 2**40)


def _kind() -> str:
    """How this thread's running worker started."""
    return "fork" if budget._THREAD.worker._box[0].forked else "spawn"  # noqa: SLF001


def _conv() -> va.View:
    (parsed,) = va.text.parse_mlir_views(CONV.read_text())
    return parsed.view


def _within(started: float, timeout: float) -> None:
    elapsed = time.monotonic() - started
    assert elapsed <= max(2 * timeout, timeout + 1), f"answered after {elapsed:.2f} s"


def test_a_timeout_holds_in_wall_clock_time(start):
    budget.run_bounded(abs, (1,), 30, "warm-up")  # the worker of this thread is running
    assert _kind() == start
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


def test_ctrl_c_reaches_the_caller_and_leaves_no_worker(start):
    budget.run_bounded(abs, (1,), None, "warm-up")
    assert _kind() == start
    worker = budget._THREAD.worker  # noqa: SLF001
    pid = worker._box[0].pid  # noqa: SLF001
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        budget.run_bounded(time.sleep, (30,), None, "sleep")
    assert time.monotonic() - started < 1.3
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_ctrl_c_received_by_another_thread_reaches_the_caller(start):
    # A host with threads of its own (a test runner's, Dask's, a notebook's): the kernel may hand
    # SIGINT to any of them, and only the main thread runs the handler, once back in Python code.
    budget.run_bounded(abs, (1,), None, "warm-up")
    assert _kind() == start
    pid = budget._THREAD.worker._box[0].pid  # noqa: SLF001
    idle = threading.Event()
    other = threading.Thread(target=idle.wait)
    other.start()
    threading.Timer(0.3, lambda: signal.pthread_kill(other.ident or 0, signal.SIGINT)).start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            budget.run_bounded(time.sleep, (30,), None, "sleep")
        assert time.monotonic() - started < 1.3
    finally:
        idle.set()
        other.join()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_large_worker_is_replaced_with_the_same_answers(monkeypatch, start):
    view = _conv()
    before = va.max_vector_length(view, 2)
    budget.run_bounded(abs, (1,), 30, "warm-up")
    assert _kind() == start
    monkeypatch.setattr(budget, "WORKER_MEMORY_LIMIT", 0)  # every worker is too large
    pids = set()
    for _ in range(3):
        assert va.max_vector_length(va.View(view.buffer, view.maps), 2, timeout=60) == before
        pids.add(budget.run_bounded(os.getpid, (), 30, "pid"))
    assert len(pids) == 3 and os.getpid() not in pids


def test_errors_cross_from_the_worker(start):
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
def test_a_fork_of_the_caller_has_its_own_worker_and_leaves_the_callers_alone(start):
    before = budget.run_bounded(os.getpid, (), 30, "pid")
    assert _kind() == start
    child = os.fork()
    if child == 0:  # the fork: answer through a worker of its own, then exit as forks do
        code = 0 if budget.run_bounded(os.getpid, (), 30, "pid") not in (before, os.getpid()) else 1
        budget.stop_workers()
        os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert budget.run_bounded(os.getpid, (), 30, "pid") == before  # the caller's worker lives on


def test_where_no_worker_can_start_queries_run_in_process():
    # A frozen application, say: sys.executable does not run Python code. A fresh interpreter
    # cannot be a worker there (a fork can: the second run).
    code = ("import sys, warnings, viewalgebra as va\n"
            "from viewalgebra._engine import budget as budget\n"
            "sys.executable = '/bin/false'\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    ok = va.invert(va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by "
            "[<Merge{4, 8} [\"k\"] at [0] -> [\"a\", \"b\"] at [0, 1]>] bounds = [32] -> [4, 8]>')).kind\n"
            "print(ok, budget.timeouts_hold(), len(w), bool(w) and 'exited with 1' in str(w[0].message))\n")
    spawn = {**os.environ, "VIEWALGEBRA_WORKERS": "spawn"}
    out = subprocess.run([sys.executable, "-c", code], env=spawn, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["bijective", "False", "1", "True"]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["bijective", "True", "0", "False"]


def test_a_worker_killed_from_outside_is_a_worker_error_and_is_replaced(start):
    pid = budget.run_bounded(os.getpid, (), 30, "pid")
    assert _kind() == start
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
            "print(len(pids), ballast.sum() > 0, budget._THREAD.worker._box[0].forked)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "True", "False"]  # too large to fork: a fresh interpreter


# {{{ the first query of a process: a fork of the caller


CHILDREN = '''
def children():
    # The processes whose parent is this one.
    found = set()
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:  # not a process, or ended meanwhile
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == os.getpid():
            found.add(int(entry))
    return found
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_a_program_that_never_queries_starts_no_process():
    code = ("import os, threading\n"
            "import viewalgebra as va\n"
            f"{CHILDREN}"
            "tm = va.parse_transform_map('<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)> by "
            "[<Merge{4, 8} [\"k\"] at [0] -> [\"a\", \"b\"] at [0, 1]>] bounds = [32] -> [4, 8]>')\n"
            "view = va.View(va.Buffer((4, 8)), [tm])\n"
            "view.addresses(); n = va.max_vector_length(view, 0).length  # numpy answers it\n"
            "print(n, len(children()), threading.active_count())\n"
            "va.invert(tm)  # ISL: now there is a worker\n"
            "print(len(children()), threading.active_count())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["32", "0", "1", "1", "1"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_the_first_query_of_a_fresh_process_is_a_fork_that_holds_a_short_timeout():
    # A query that ISL cannot answer in seconds (counting the invalid points of a conv2d input
    # at 8e10 elements), first of its process, with a fresh interpreter unable to start: a fork
    # holds the timeout, the next query gets its answer from a new fork, and that fork dies with
    # its caller when the caller is killed outright.
    sys.path.insert(0, str(BENCHMARKS))
    from conv_stack import gemm_tiling_view

    view = gemm_tiling_view(64, 1024, 256)
    expected = [va.max_vector_length(view, d) for d in range(view.rank)]
    code = (f"import os, signal, sys, time; sys.path.insert(0, {str(BENCHMARKS)!r})\n"
            "import viewalgebra as va\n"
            "from viewalgebra._engine import budget\n"
            "from conv_stack import conv2d_input_view, gemm_tiling_view\n"
            "budget._Process.spawn = None\n"
            "started = time.monotonic()\n"
            "try:\n"
            "    va.validity(conv2d_input_view(6400, 1024, 112, 112), timeout=0.5)\n"
            "except va.errors.QueryTimeoutError:\n"
            "    print(f'timeout after {time.monotonic() - started:.2f} s')\n"
            "view = gemm_tiling_view(64, 1024, 256)\n"
            "print(repr([va.max_vector_length(view, d) for d in range(view.rank)]))\n"
            "print(budget._THREAD.worker._box[0].pid, flush=True)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == -signal.SIGKILL and len(done.stdout.splitlines()) == 3, done.stderr
    first, answers, pid = done.stdout.splitlines()
    assert first.startswith("timeout after ") and float(first.split()[2]) <= 1.5, first
    assert answers == repr(expected)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} still runs after its caller was killed")



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_a_forked_worker_holds_nothing_of_the_callers(monkeypatch, capfd):
    fork_whatever_the_size(monkeypatch)
    read, write = os.pipe()  # the caller waits for the end of this pipe: no worker may hold it
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        assert budget.run_bounded(os.getppid, (), 30, "parent") == os.getpid()
        assert _kind() == "fork"
        assert budget.run_bounded(signal.getsignal, (signal.SIGTERM,), 30, "handler") == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert budget.run_bounded(signal.getsignal, (signal.SIGINT,), 30, "handler") == signal.SIG_IGN
    assert budget.run_bounded(os.getsid, (0,), 30, "session") != os.getsid(0)
    os.close(write)
    assert select.select([read], [], [], 5)[0] and os.read(read, 1) == b""
    os.close(read)
    budget.run_bounded(print, ("from the worker",), 30, "print")
    budget.run_bounded(os.write, (2, b"from the worker"), 30, "write")
    assert capfd.readouterr() == ("", "")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_threads_each_get_their_answer_beside_a_forked_worker(monkeypatch):
    # The first query forks; threads started later get fresh interpreters (no fork while another
    # thread runs Python code), and every answer is the one the fork gives.
    fork_whatever_the_size(monkeypatch)
    view = _conv()

    def by_isl(_: object = None) -> list[va.answers.VectorLength]:  # past the answer cache
        return [vectorize._answer((view, d, view.shape[d], None, False, False, False), 60, "isl")  # noqa: SLF001
                for d in range(view.rank)]

    serial = by_isl()
    assert _kind() == "fork"
    kinds = []

    def query(_: int) -> list[va.answers.VectorLength]:
        answers = by_isl()
        kinds.append(_kind())
        return answers

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(query, range(2))) == [serial] * 2
    assert kinds == ["spawn"] * 2
    assert by_isl() == serial and _kind() == "fork"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
@settings(derandomize=True, deadline=None, max_examples=40)
@given(view=views(max_maps=3, max_points=300).filter(lambda v: v.rank > 0), data=st.data())
def test_a_forked_worker_answers_as_brute_force(view, data):
    dim = data.draw(st.integers(0, view.rank - 1))
    run = view.shape[dim]
    assume(run > 1)  # else the answer 1 needs no ISL
    with pytest.MonkeyPatch.context() as patch:
        fork_whatever_the_size(patch)
        result = vectorize._answer((view, dim, run, None, False, False, False), 60, "isl")  # noqa: SLF001
        assert _kind() == "fork"
    assert list(result.legal) == legal_lengths(view, dim, run)


# }}}


def test_a_host_with_many_open_files_gets_its_answers(start):
    # The worker's pipes get descriptors past 1023, which select() refuses.
    import resource

    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1200:
        pytest.skip("this process may not open 1,100 files")
    null = os.open(os.devnull, os.O_RDONLY)
    held = [os.dup(null) for _ in range(1100)]
    try:
        assert budget.run_bounded(abs, (-5,), 30, "abs") == 5
        assert budget._THREAD.worker._box[0].replies > 1023  # noqa: SLF001
        with pytest.raises(va.errors.QueryTimeoutError):
            budget.run_bounded(time.sleep, (30,), 0.2, "sleep")
    finally:
        for fd in [null, *held]:
            os.close(fd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_a_fork_that_ends_before_it_is_ready_gives_way_to_fresh_interpreters(monkeypatch):
    from viewalgebra._engine import worker  # noqa: TID251 -- the child's life is replaced

    fork_whatever_the_size(monkeypatch)
    monkeypatch.setattr(budget, "_CANNOT_FORK", [])
    monkeypatch.setattr(worker, "forked", lambda *_: os._exit(3))
    assert budget.run_bounded(abs, (-7,), 30, "abs") == 7  # the query sent to the fork is answered
    assert _kind() == "spawn" and budget._CANNOT_FORK == ["a forked worker exited with 3"]  # noqa: SLF001
    assert not budget.may_fork()
    assert budget.timeouts_hold()
