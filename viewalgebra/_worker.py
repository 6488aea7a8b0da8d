"""The worker process of ``budget``: answers bounded ISL queries sent by one calling thread."""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys

from ._budget import serve


def _peak_bytes() -> int:
    # The peak resident size (a cheap system call) bounds the current one from above.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


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
    serve(stdin, stdout, _peak_bytes)
