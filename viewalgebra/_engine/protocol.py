"""What the caller and a worker process say to each other (``budget.py`` calls, ``worker.py``
answers): length-prefixed pickled messages on a pair of pipes, and the worker's loop, ``serve``."""

from __future__ import annotations

import math
import os
import pickle
import select
import struct
import time
from collections.abc import Callable
from typing import Any

WORKER_MEMORY_LIMIT = 256 * 2**20
"""Peak resident bytes past which a worker is replaced after its current query."""

_HEADER = struct.Struct("<Q")


def atomic(payload: bytes) -> bool:
    """Whether ``send`` writes the message in one piece (at most ``PIPE_BUF`` bytes): into an
    empty pipe it then never blocks."""
    return len(payload) + _HEADER.size <= select.PIPE_BUF


def send(fd: int, payload: bytes) -> None:
    """One length-prefixed message."""
    data = memoryview(_HEADER.pack(len(payload)) + payload)
    while data:
        data = data[os.write(fd, data):]


def receive(fd: int, deadline: float | None, wake: float | None = None) -> bytes | None:
    """One length-prefixed message, or ``None`` at end of stream or past the deadline. With
    ``wake``, the wait returns to Python code every ``wake`` seconds: a signal that another thread
    of this process received (Ctrl-C in a host with threads of its own) is handled by the main
    thread only there."""
    data = bytearray()
    need = _HEADER.size
    while len(data) < need:
        if deadline is not None or wake is not None:
            while True:
                remaining = math.inf if deadline is None else deadline - time.monotonic()
                if remaining <= 0:
                    return None
                if readable(fd, min(remaining, math.inf if wake is None else wake)):
                    break
        # Never past this message: the next one may already wait in the pipe.
        chunk = os.read(fd, need - len(data))
        if not chunk:
            return None
        data += chunk
        if need == _HEADER.size and len(data) >= need:
            need += _HEADER.unpack_from(data)[0]
    return bytes(memoryview(data)[_HEADER.size:])


def readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has data or its end within ``timeout`` seconds (``poll``, unlike ``select``,
    takes descriptors past 1023, which a host with many open files hands out)."""
    if not hasattr(select, "poll"):
        return bool(select.select([fd], [], [], timeout)[0])
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(math.ceil(timeout * 1000)))


def serve(stdin: int, stdout: int, memory: Callable[[], int]) -> None:
    """The worker's loop: say it is ready, then answer each request until the caller closes the
    pipe."""
    send(stdout, b"")
    while (request := receive(stdin, None)) is not None:
        fn, args = pickle.loads(request)
        reply: Any
        try:
            reply = ("ok", fn(*args))
        except Exception as e:  # sent back and raised in the caller  # noqa: BLE001
            reply = ("raise", e)
        try:
            payload = pickle.dumps((*reply, memory()), protocol=pickle.HIGHEST_PROTOCOL)
            if reply[0] == "raise":
                pickle.loads(payload)  # the caller must be able to rebuild the exception
        except Exception:  # noqa: BLE001
            payload = pickle.dumps(("error", f"{type(reply[1]).__name__}: {reply[1]}", memory()))
        send(stdout, payload)
