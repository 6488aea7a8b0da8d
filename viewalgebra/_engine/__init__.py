"""Bounded ISL work: worker processes with wall-clock timeouts and memory bounds (``budget.py``,
``worker.py``) and the thread-safe caches of answers (``cache.py``); docs/performance.md."""
