"""Time the interpreter spends in garbage collection while a block runs (all threads).

A cached rerun unpickles tens of thousands of records while the fresh run's results are still
alive in the benchmark's process; each full collection then walks all of them. This says how
much of a measured wall time was collection, so it is not mistaken for the harness's work."""

from __future__ import annotations

import gc
import time
from types import TracebackType


class GCClock:
    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = {0: 0, 1: 0, 2: 0}
        self._started = 0.0

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started
            self.collections[info["generation"]] += 1

    def __enter__(self) -> GCClock:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        gc.callbacks.remove(self._callback)
