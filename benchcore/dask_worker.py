"""Whether this process is a Dask worker, asked without importing Dask."""

from __future__ import annotations

import sys


def current_worker() -> object | None:
    """The Dask worker this process runs, or None. A process that has not imported
    `distributed` is no worker: importing it just to ask took half a second of the first LLM
    stage's start."""
    if "distributed" not in sys.modules:
        return None
    from distributed import get_worker

    try:
        return get_worker()
    except ValueError:   # distributed is loaded, but this process is no worker
        return None
