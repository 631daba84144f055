"""Progress of batch stages, for whoever wants to show it (the CLI draws rich progress bars).

Stages call `started` and `advanced`; listeners subscribe with `listen`. Nothing listens by
default, so library code and tests pay nothing. In-process only: stages that run on Dask workers
report to the workers' processes, where nobody listens.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, str, int], None]   # (event "started"|"advanced", stage, count)

_LISTENERS: list[Listener] = []
_LOCK = threading.Lock()


def listen(listener: Listener) -> Callable[[], None]:
    """Subscribe; returns the function that unsubscribes."""
    with _LOCK:
        _LISTENERS.append(listener)

    def stop() -> None:
        with _LOCK:
            if listener in _LISTENERS:
                _LISTENERS.remove(listener)

    return stop


def _emit(event: str, stage: str, count: int) -> None:
    with _LOCK:
        listeners = list(_LISTENERS)
    for listener in listeners:
        listener(event, stage, count)


def started(stage: str, total: int) -> None:
    _emit("started", stage, total)


def advanced(stage: str, count: int = 1) -> None:
    _emit("advanced", stage, count)


@contextmanager
def step(stage: str) -> Iterator[None]:
    """A stage done in one piece (loading a graph, building the report): a bar of one item,
    so every part of a run that can take seconds is visible, not only the batches."""
    started(stage, 1)
    try:
        yield
    finally:
        advanced(stage)
