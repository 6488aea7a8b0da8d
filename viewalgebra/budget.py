"""Bounded ISL work: a query either answers within its budget or fails with a clear error.

islpy holds the GIL and ignores signals during a call, and ISL's operation counter does not bound
time (islpy-notes.md §6). So a query first runs here under a small operation budget, which cheap
queries never reach; one that reaches it runs again in a forked worker process that is killed
when the wall-clock ``timeout`` expires.
"""

from __future__ import annotations

import os
import pickle
import select
import time
from collections.abc import Callable
from typing import TypeVar

import islpy as isl

from .errors import ViewAlgebraError

T = TypeVar("T")

OPERATION_BUDGET = 200_000
"""ISL operations a query may spend in this process before it moves to a worker."""


class QueryTimeoutError(ViewAlgebraError, TimeoutError):
    """An ISL query did not finish within its wall-clock limit."""


def run_bounded(fn: Callable[..., T], args: tuple[object, ...], timeout: float | None, what: str) -> T:
    """``fn(*args)``, bounded by ``timeout`` seconds of ISL work (``None``: unbounded).

    ``fn`` must be a module-level function, and ``args`` and its result picklable plain data:
    they may cross to a worker process (ISL objects cannot).
    """
    return _run_bounded(lambda: fn(*args), timeout, what)


def _run_bounded(fn: Callable[[], T], timeout: float | None, what: str) -> T:
    if timeout is None:
        return _isl_errors(fn, what)
    ctx = isl.DEFAULT_CONTEXT
    ctx.set_max_operations(OPERATION_BUDGET)
    ctx.reset_operations()
    try:
        try:
            result = fn()
        except Exception:
            if not _over_budget():
                raise
        else:
            # Past its budget ISL may answer silently wrong (a void sample point, say), so a
            # result computed after the budget ran out is not trusted.
            if not _over_budget():
                return result
    except isl.Error as e:
        raise ViewAlgebraError(f"{what}: ISL failed: {e}") from None
    finally:
        ctx.set_max_operations(0)
        ctx.reset_operations()
    if not hasattr(os, "fork"):
        return _isl_errors(fn, what)
    return _in_worker(fn, timeout, what)


_PROBE = isl.Set("{ [i, j] : 0 <= i <= 10 and 0 <= j <= 10 and 3i + 5j >= 7 and 2i - j <= 4 }")


def _over_budget() -> bool:
    """Whether the operation budget ran out: the probe needs simplex pivots, which count."""
    try:
        _PROBE.sample_point()
    except isl.Error:
        return True
    return False


def _isl_errors(fn: Callable[[], T], what: str) -> T:
    try:
        return fn()
    except isl.Error as e:
        raise ViewAlgebraError(f"{what}: ISL failed: {e}") from None


def _in_worker(fn: Callable[[], T], timeout: float, what: str) -> T:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: answer through the pipe, never return into the caller's code
        status = 0
        try:
            os.close(read_end)
            try:
                payload = pickle.dumps(("ok", fn()))
            except Exception as e:  # sent back and raised in the caller  # noqa: BLE001
                try:
                    payload = pickle.dumps(("raise", e))
                except Exception:  # noqa: BLE001
                    payload = pickle.dumps(("error", f"{type(e).__name__}: {e}"))
            with os.fdopen(write_end, "wb") as out:
                out.write(payload)
        except BaseException:  # noqa: BLE001
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            ready = select.select([read_end], [], [], max(remaining, 0))[0] if remaining > 0 else []
            if not ready:
                os.kill(pid, 9)
                raise QueryTimeoutError(
                    f"{what}: no answer within {timeout:g} s of ISL work; the view is too complex "
                    "for an exact answer in that time (raise timeout= to wait longer)")
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    if not chunks:
        raise ViewAlgebraError(f"{what}: the worker process died without an answer")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "raise":
        if isinstance(value, isl.Error):
            raise ViewAlgebraError(f"{what}: ISL failed: {value}")
        raise value
    if kind == "error":
        raise ViewAlgebraError(f"{what}: {value}")
    return value
