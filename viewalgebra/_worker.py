"""The worker process of ``budget``: answers bounded ISL queries sent by one calling thread."""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys

from .budget import serve


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:  # no /proc: the peak is an upper bound of the current size
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    # Ctrl-C belongs to the caller, which kills this process when it gives up on a query.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # die with the caller even if it is killed outright
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    stdin, stdout = os.fdopen(0, "rb", buffering=0), os.fdopen(1, "wb", buffering=0)
    sys.stdout = sys.stderr  # nothing printed may corrupt the reply stream
    serve(stdin, stdout, _resident_bytes)
