"""Stopping a run on request (SIGINT, SIGTERM): no new item starts, the ones in flight get a
few seconds to finish, and the process ends.

The command line turns a signal into `request_stop()` and then waits, at most a grace period,
for `idle()`; items finished by then are in the item cache (each is written as it completes),
so a rerun makes only the calls of the items that never finished. The batch runner asks
`stop_requested()` before it starts an item and counts the items in flight (`working`); the
LLM transport gives up its retry waits (`pause`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_STOP = threading.Event()
_IDLE = threading.Condition()
_in_flight = 0


def request_stop() -> None:
    """From now on no item starts and retry waits end at once."""
    _STOP.set()


def stop_requested() -> bool:
    return _STOP.is_set()


def pause(seconds: float) -> bool:
    """Sleep `seconds`, or less when a stop is requested; True when it was."""
    return _STOP.wait(seconds)


@contextmanager
def working() -> Iterator[None]:
    """Counts one item in flight for its whole work (its cache write included)."""
    global _in_flight
    with _IDLE:
        _in_flight += 1
    try:
        yield
    finally:
        with _IDLE:
            _in_flight -= 1
            _IDLE.notify_all()


def in_flight() -> int:
    return _in_flight


def wait_idle(timeout: float) -> bool:
    """Wait until no item is in flight, at most `timeout` seconds; True when none is."""
    deadline = time.monotonic() + timeout
    with _IDLE:
        while _in_flight:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _IDLE.wait(left)
    return True


def reset() -> None:
    """Forget a stop request (tests, or a process that runs again after a stop)."""
    _STOP.clear()
