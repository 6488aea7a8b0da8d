"""Bounded ISL work: a query answers within its wall-clock ``timeout`` or fails with a clear error.

islpy holds the GIL and ignores signals during a call, ISL's operation counter does not bound time
and lives on islpy's one shared context, and islpy leaves a few dozen bytes behind on most ISL
operations (docs/performance.md). So bounded work runs in a worker process, one per calling
thread, started on the thread's first bounded query:

* a fork of the caller where that is safe (Linux, no other thread runs Python code, the caller is
  small: ``may_fork``), which is ready within milliseconds because it has everything imported;
  else a fresh interpreter (not a fork, which is unsafe in threaded hosts), which takes the time
  of starting Python and importing islpy and this package;
* the caller waits on the worker's pipe; at the deadline, or on ``KeyboardInterrupt``, the worker
  is killed and a new one starts with the next query, so a timeout holds (within a second more
  when the query had to start the worker) and never touches another thread's query;
* the worker keeps its ISL objects cached between queries and is replaced once its memory passes
  ``WORKER_MEMORY_LIMIT``, so what islpy leaks never accumulates in the caller.

Where no worker can start (``VIEWALGEBRA_WORKERS=0``, no Python executable, or one that ends
before it is ready), work runs in the calling process without a time bound; ``timeouts_hold()``
says which applies. ``VIEWALGEBRA_WORKERS=spawn`` makes every worker a fresh interpreter.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Generator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TypeVar, cast

import islpy as isl

from ..errors import InternalError, InvalidArgumentError, QueryTimeoutError, WorkerError
from .protocol import WORKER_MEMORY_LIMIT, atomic, readable, receive, send

T = TypeVar("T")

FORK_LIMIT = WORKER_MEMORY_LIMIT // 2
"""Resident bytes of the caller up to which a worker may be forked from it (``may_fork``)."""

SIGNAL_WAKE = 0.1
"""Seconds the main thread waits on its worker at a time: a signal that another thread of the
caller received (Ctrl-C in a host that runs threads of its own) runs its handler, and so raises
``KeyboardInterrupt``, only once the main thread is back in Python code."""

START_ALLOWANCE = 0.9
"""Seconds of starting a worker that do not count against the query that starts it (less than
a second, so that a timeout holds within ``timeout + 1 s`` with time left to kill the worker)."""


def run_bounded(fn: Callable[..., T], args: tuple[object, ...], timeout: float | None, what: str) -> T:
    """``fn(*args)``, answered within ``timeout`` seconds of wall-clock time (``None``: no limit),
    else ``QueryTimeoutError``.

    ``fn`` must be a module-level function, and ``args`` and its result picklable plain data:
    they cross to the worker process (ISL objects cannot).
    """
    check_timeout(timeout, what)
    worker = _thread_worker()
    if worker is None:
        return _local(fn, args, what)
    try:
        return worker.call(fn, args, timeout, what)
    except _CannotStart as e:
        _CANNOT_START.append(str(e))
        return run_bounded(fn, args, timeout, what)


class _CannotStart(Exception):
    """A worker process ended before it was ready."""


def check_timeout(timeout: float | None, what: str) -> None:
    """Refuse a timeout that is not a positive number of seconds (or ``None``: no limit)."""
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not timeout > 0):
        raise InvalidArgumentError(f"{what}: timeout must be positive seconds or None, got {timeout!r}")


def timeouts_hold() -> bool:
    """Whether bounded work runs in a worker process here (else in-process, without a time bound)."""
    return _workers_enabled()


def stop_workers() -> None:
    """Stop every worker process (they start again on demand); clears their ISL caches too."""
    for worker in list(_ALL):
        worker.stop()


def _local(fn: Callable[..., T], args: tuple[object, ...], what: str) -> T:
    with isl_errors(what):
        return fn(*args)


@contextmanager
def isl_errors(what: str) -> Generator[None]:
    """An ISL failure inside as ``InternalError``: for the ISL objects a caller asks for, which
    are built in the caller's process from formulas already checked."""
    try:
        yield
    except isl.Error as e:
        raise InternalError(f"{what}: ISL failed: {e} (please report)") from None


def _workers_enabled() -> bool:
    return (os.environ.get("VIEWALGEBRA_WORKERS", "1") != "0" and bool(sys.executable)
            and not _CANNOT_START)


_ALL: weakref.WeakSet[_Worker] = weakref.WeakSet()
_THREAD = threading.local()
_warned = False
_CANNOT_START: list[str] = []
"""Why a worker could not start (a frozen application, say): then no further one is tried."""
_CANNOT_FORK: list[str] = []
"""Why a forked worker ended before it was ready: then workers are fresh interpreters."""


def may_fork() -> bool:
    """Whether this thread's next worker may be a fork of this process.

    Only where a fork is cheap and safe: on Linux (elsewhere system libraries do not survive a fork
    without ``exec``), when this is the one thread that runs Python code (no other thread can hold
    a lock the worker would need; threads of native libraries, such as numpy's OpenBLAS pool, run
    none of the worker's code), and when this process is resident in at most ``FORK_LIMIT`` bytes
    (the fork starts with this process's pages, counts them against ``WORKER_MEMORY_LIMIT``, and
    keeps their contents alive once this process changes them). Not with
    ``VIEWALGEBRA_WORKERS=spawn``.
    """
    if (os.environ.get("VIEWALGEBRA_WORKERS") == "spawn" or _CANNOT_FORK
            or not sys.platform.startswith("linux") or not hasattr(os, "fork")):
        return False
    # threading's count misses threads started with _thread; the frames of every thread do not.
    if threading.active_count() != 1 or len(sys._current_frames()) != 1:  # noqa: SLF001  # pyright: ignore[reportPrivateUsage]
        return False
    return _caller_resident() <= FORK_LIMIT


def _wake() -> float | None:
    return SIGNAL_WAKE if threading.current_thread() is threading.main_thread() else None


def _caller_resident() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return WORKER_MEMORY_LIMIT  # unknown: too large to fork


def _thread_worker() -> _Worker | None:
    global _warned
    if not _workers_enabled():
        if not _warned:
            _warned = True
            why = _CANNOT_START[0] if _CANNOT_START else "VIEWALGEBRA_WORKERS=0 or no Python executable"
            warnings.warn(f"viewalgebra: no worker processes ({why}); ISL queries run in-process "
                          "and timeouts are not enforced", RuntimeWarning, stacklevel=3)
        return None
    worker = cast("_Worker | None", getattr(_THREAD, "worker", None))
    if worker is None or worker.pid != os.getpid():  # also after a fork of the caller
        worker = _Worker()
        _THREAD.worker = worker
    return worker


class _Process:
    """A worker process and the caller's ends of its pipes (requests in, replies out)."""

    def __init__(self, pid: int, requests: int, replies: int,
                 popen: subprocess.Popen[bytes] | None = None) -> None:
        self.pid = pid
        self.requests = requests
        self.replies = replies
        self.forked = popen is None
        self._popen = popen
        self._ended = False

    @staticmethod
    def spawn() -> _Process:
        """A fresh interpreter that imports the worker."""
        top = str(Path(__file__).resolve().parents[2])
        code = (f"import sys; sys.path.insert(0, {top!r}); "
                "from viewalgebra._engine.worker import main; main()")
        popen = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
        return _Process(popen.pid, cast("IO[bytes]", popen.stdin).fileno(),
                        cast("IO[bytes]", popen.stdout).fileno(), popen)

    @staticmethod
    def fork() -> _Process | None:
        """A fork of this process that serves as a worker, or ``None`` if the fork failed."""
        from .worker import forked  # imported here: the child imports nothing

        its_requests, requests = os.pipe()  # (read end, write end)
        replies, its_replies = os.pipe()
        parent = os.getpid()
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns of a fork of any process with several OS threads, such as
                # numpy's OpenBLAS pool: only this thread runs Python code (may_fork), and the
                # child runs the worker's loop alone.
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
        except (OSError, RuntimeError):  # no memory for it, or a sub-interpreter
            for fd in (its_requests, requests, replies, its_replies):
                os.close(fd)
            return None
        if pid == 0:
            forked(its_requests, its_replies, parent)  # never returns
        os.close(its_requests)
        os.close(its_replies)
        return _Process(pid, requests, replies)

    def ended(self) -> bool:
        """Whether an idle worker has ended: it never writes unasked, so a readable pipe is its end."""
        return self._ended or readable(self.replies, 0)

    def end(self, kill: bool = True) -> int | None:
        """Kill the process (``kill``; else it has closed its end and exits by itself), wait for
        it and close the pipes; its exit code."""
        if self._ended:
            return None
        self._ended = True
        code: int | None = None
        if self._popen is not None:
            if kill and self._popen.poll() is None:
                self._popen.kill()
            code = self._popen.wait()
            for pipe in (self._popen.stdin, self._popen.stdout):
                if pipe is not None:
                    pipe.close()
            return code
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # reaped elsewhere (SIGCHLD ignored, say)
            code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        os.close(self.requests)
        os.close(self.replies)
        return code


class _Worker:
    """One worker process, used by one thread at a time; restarted after a kill or when large."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        # The process sits in a box shared with the finalizer, which kills it when the thread
        # that owns this worker ends.
        self._box: list[_Process | None] = [None]
        _ALL.add(self)
        weakref.finalize(self, _Worker._kill, self._box, self.pid)

    @staticmethod
    def _kill(box: list[_Process | None], owner: int) -> None:
        proc = box[0] if box else None
        # A fork of the caller inherits this object, not the process: it must not kill it.
        if proc is not None and os.getpid() == owner:
            proc.end()

    def stop(self) -> None:
        _Worker._kill(self._box, self.pid)
        self._box[0] = None

    def _start(self, deadline: float | None, payload: bytes) -> tuple[_Process, bool, bool]:
        """A new worker, whether it said it is ready before ``deadline`` (``None``: no limit) plus
        ``START_ALLOWANCE``, and whether ``payload`` was sent to it already: a fork if
        ``may_fork()``, else a fresh interpreter."""
        late = None if deadline is None else deadline + START_ALLOWANCE
        proc = _Process.fork() if may_fork() else None
        if proc is not None:
            self._box[0] = proc
            # A small request goes into the new, empty pipe at once (it cannot block there), so
            # that the fork finds it when it is ready instead of waiting for this thread to
            # wake up and send it: under load each wake-up costs milliseconds.
            sent = atomic(payload)
            if sent:
                with contextlib.suppress(BrokenPipeError):  # it ended already: seen below
                    send(proc.requests, payload)
            if receive(proc.replies, late, _wake()) is not None:
                return proc, True, sent
            if late is not None and time.monotonic() >= late:
                return proc, False, sent
            code = proc.end(kill=False)  # it ended before it was ready: no more forks
            self._box[0] = None
            _CANNOT_FORK.append(f"a forked worker exited with {code}")
        proc = _Process.spawn()
        self._box[0] = proc
        if receive(proc.replies, late, _wake()) is not None:
            return proc, True, False
        if late is not None and time.monotonic() >= late:
            return proc, False, False
        # The pipe closed before the worker was ready: it cannot start here.
        code = proc.end(kill=False)
        self._box[0] = None
        raise _CannotStart(f"{sys.executable} -c ... exited with {code}")

    def call(self, fn: Callable[..., T], args: tuple[object, ...], timeout: float | None,
             what: str) -> T:
        start = time.monotonic()
        deadline = None if timeout is None else start + timeout
        proc = self._box[0]
        payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        sent = False
        try:
            if proc is None or proc.ended():
                self.stop()
                # The worker says when it is ready; up to START_ALLOWANCE seconds of starting it do
                # not count against the query (so the answer comes within timeout + 1 s at worst).
                proc, ready, sent = self._start(deadline, payload)
                if ready and deadline is not None:
                    deadline += min(time.monotonic() - start, START_ALLOWANCE)
            if not sent:
                send(proc.requests, payload)
            reply = receive(proc.replies, deadline, _wake())
        except BrokenPipeError:
            reply = None
        except BaseException:  # a timeout or KeyboardInterrupt: the worker is mid-query
            self.stop()
            raise
        if reply is None:
            if deadline is not None and time.monotonic() >= deadline:
                self.stop()
                raise QueryTimeoutError(
                    f"{what}: no answer within {timeout:g} s; the view is too complex for an exact "
                    "answer in that time (raise timeout= to wait longer)") from None
            self.stop()
            raise WorkerError(f"{what}: the worker process died without an answer")
        kind, value, memory = pickle.loads(reply)
        if memory > WORKER_MEMORY_LIMIT:
            self.stop()
        if kind == "ok":
            return cast(T, value)
        if kind == "raise":
            if isinstance(value, isl.Error):
                raise InternalError(f"{what}: ISL failed: {value} (please report)")
            raise cast(BaseException, value)
        raise InternalError(f"{what}: {value}")


@atexit.register
def _stop_all() -> None:
    stop_workers()
