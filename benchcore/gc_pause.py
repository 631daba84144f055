"""Pausing the cyclic garbage collector while a batch reads many cached records at once, or
computes its items.

Unpickling 20,000 cached records allocates hundreds of thousands of containers and none of
them forms a cycle, yet each few hundred allocations start a collection, and every so often
a full one that walks the whole heap (2.3 s of a 7 s fully cached rerun, measured with the
fresh run's results alive). Paused, the new objects are looked at once when it resumes.
Reference counting still frees everything as usual; only cycle detection waits. A stage
computing its items is the same case: each LLM call or query allocates requests, replies, rows
and records that form no cycle, and with GC running a 5,000-question LLM stage spent ~0.1 ms
a call on it. What cycles other threads make meanwhile waits for the end of the batch.

Several batches run at once in threads, so the pause is counted: the collector resumes when
the last reader is done, and only if it was running before the first one began."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_readers = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    global _readers, _was_enabled
    with _LOCK:
        if _readers == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _readers += 1
    try:
        yield
    finally:
        with _LOCK:
            _readers -= 1
            if _readers == 0 and _was_enabled:
                gc.enable()
