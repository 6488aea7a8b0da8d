"""Bounded caches of answers, safe to share between threads, and one switch that clears them all."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_CLEARERS: list[Callable[[], None]] = []


class AnswerCache(Generic[K, V]):
    """A least-recently-used map of at most ``size`` answers (plain values, never ISL objects)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        _CLEARERS.append(self.clear)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def on_clear(clear: Callable[[], None]) -> None:
    """Register another cache (an ``lru_cache``'s ``cache_clear``) with ``clear_caches``."""
    _CLEARERS.append(clear)


def clear_here() -> None:
    """Clear every registered cache of this process."""
    for clear in _CLEARERS:
        clear()


def clear_caches() -> None:
    """Forget every cached answer and ISL object, in this process and in this thread's worker
    process (the next queries run cold, as the benchmarks measure them)."""
    from .budget import run_bounded, timeouts_hold

    clear_here()
    if timeouts_hold():
        run_bounded(clear_here, (), None, "clear_caches")
