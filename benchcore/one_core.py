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
whichever thread asks first), so stages that run queries are left alone. A Dask worker picks
its core by its number in the cluster, so the workers of one machine spread over its cores
(by process id, half the pairs shared a core); a worker without a number does not pin. Any
other process picks by process id. `NLP_DSG_BENCHMARK_ONE_CORE=0` turns it off (a machine
where that core is kept busy by something else, or a container whose CPU quota is not a
cpuset, where the allowed set lists cores it does not own)."""

from __future__ import annotations

import contextlib
import os
import threading

from benchcore.dask_worker import current_worker

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
    if len(allowed) < 2:
        return None
    worker = current_worker()
    if worker is None:
        return allowed[pid % len(allowed)]
    number = getattr(worker, "name", None)   # LocalCluster numbers its workers 0, 1, ...
    if not isinstance(number, int) or isinstance(number, bool):
        return None          # a Dask worker without a number: no way to spread, so no pinning
    return allowed[number % len(allowed)]


def pin_this_thread(core: int | None) -> None:
    """Run the calling thread on `core` only (on Linux, affinity 0 is the calling thread)."""
    if core is not None:
        # OSError: the core left the allowed set meanwhile (a cgroup change), or the sandbox
        # forbids setting affinity: stay put.
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {core})
