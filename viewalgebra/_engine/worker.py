"""The worker process of ``budget``: answers bounded ISL queries sent by one calling thread.

A worker is either a fresh interpreter (``main``) or a fork of the caller (``forked``); both
then run ``budget.serve``.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import gc
import os
import resource
import signal
import sys
from typing import NoReturn

from .budget import WORKER_MEMORY_LIMIT, serve


def _resident_bytes() -> int:
    # The peak resident size (one cheap system call) bounds the current one from above: below
    # the limit it settles the question. Past it, read the current size: on Linux a process
    # started from a large caller inherits the caller's high-water mark across exec, and would
    # otherwise be replaced after every answer.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak = peak if sys.platform == "darwin" else peak * 1024
    if peak <= WORKER_MEMORY_LIMIT:
        return peak
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # elsewhere: the peak, an upper bound
        return peak


def _die_with_caller() -> None:
    # Ctrl-C belongs to the caller, which kills this process when it gives up on a query.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # die with the caller even if it is killed outright
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def main() -> None:
    _die_with_caller()
    # The pipes are file descriptors 0 and 1; nothing printed may corrupt the reply stream.
    stdin, stdout = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(stdin, stdout, _resident_bytes)


def forked(requests: int, replies: int, parent: int) -> NoReturn:
    """The life of a worker forked from the caller (``parent``): made as separate from the caller
    as a fresh interpreter is, then the same loop; it never returns into the caller's code."""
    code = 1
    try:
        os.setsid()  # its own session, as a fresh interpreter's (start_new_session)
        # The caller's signal handlers are the caller's business; its wakeup pipe is closed below.
        signal.set_wakeup_fd(-1)
        for sig in signal.valid_signals():
            if callable(signal.getsignal(sig)):
                with contextlib.suppress(OSError, ValueError):
                    signal.signal(sig, signal.SIG_DFL)
        _die_with_caller()
        if os.getppid() != parent:  # the caller ended before PR_SET_PDEATHSIG took effect
            return _exit(code)
        # Keep the two pipes above 2, put /dev/null on 0, 1 and 2 (nothing printed may reach the
        # caller's terminal or corrupt the replies) and close every other descriptor of the
        # caller's, so that no pipe or socket of the caller stays open here.
        requests, replies = (fcntl.fcntl(fd, fcntl.F_DUPFD, 3) for fd in (requests, replies))
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        keep = sorted((requests, replies))
        os.closerange(3, keep[0])
        os.closerange(keep[0] + 1, keep[1])
        os.closerange(keep[1] + 1, max(os.sysconf("SC_OPEN_MAX"), keep[1] + 2))
        sys.stdin = sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 -- lives as long as the process
        # The caller's objects are never traversed by the collector here, so that the pages
        # shared with the caller stay shared.
        gc.freeze()
        serve(requests, replies, _resident_bytes)
        code = 0
    finally:
        _exit(code)


def _exit(code: int) -> NoReturn:
    # Not sys.exit: the caller's atexit handlers, buffers and finalizers are not this process's.
    os._exit(code)
