"""Keeping a batch's threads on one CPU core while they wait on an LLM endpoint.

CPython runs one thread's Python code at a time (the GIL). An LLM stage has 64 threads per
model, each spending a fraction of a millisecond in Python per call and the rest waiting on
the network; the kernel spreads them over the cores, so nearly every hand-over of the GIL
wakes a thread on another core and moves the interpreter's state across. On this project's
2-core machine (2 models x 64 threads, generate-cypher against the loopback fake at 0.05 s):
spread, 80-83% of the ideal rate at 0.48-0.50 ms of CPU a call; on one core, 92.7-92.9% at
0.29-0.34 ms. The threads' Python work fits one core by construction (the GIL), and libcurl's
share of a call is small.

Only the batch's own worker threads are pinned, and only for LLM stages: processes started
from a pinned thread would inherit its single core (the query workers are started lazily by
whichever thread asks first), so stages that run queries are left alone. Each process picks
its core from its allowed set by process id, so Dask workers on one machine spread out.
`NLP_DSG_BENCHMARK_ONE_CORE=0` turns it off (a machine where that core is kept busy by
something else)."""

from __future__ import annotations

import contextlib
import os
import threading

_ENV = "NLP_DSG_BENCHMARK_ONE_CORE"
_chosen: dict[int, int | None] = {}   # process id -> its batch core (None: not pinning)
_lock = threading.Lock()


def batch_core() -> int | None:
    """This process's core for LLM batch threads, or None where pinning is off or impossible
    (no per-thread affinity on this OS, a single allowed core)."""
    pid = os.getpid()
    with _lock:
        if pid not in _chosen:
            _chosen[pid] = _pick_core(pid)
        return _chosen[pid]


def _pick_core(pid: int) -> int | None:
    if os.environ.get(_ENV, "1") == "0" or not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    return allowed[pid % len(allowed)] if len(allowed) > 1 else None


def pin_this_thread(core: int | None) -> None:
    """Run the calling thread on `core` only (on Linux, affinity 0 is the calling thread)."""
    if core is not None:
        # OSError: the core left the allowed set meanwhile (a cgroup change): stay put.
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {core})
