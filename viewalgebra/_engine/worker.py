"""The worker process of ``budget``: answers bounded ISL queries sent by one calling thread."""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys

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


def main() -> None:
    # Ctrl-C belongs to the caller, which kills this process when it gives up on a query.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # die with the caller even if it is killed outright
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    # The pipes are file descriptors 0 and 1; nothing printed may corrupt the reply stream.
    stdin, stdout = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(stdin, stdout, _resident_bytes)
