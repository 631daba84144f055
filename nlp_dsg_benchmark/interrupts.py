"""Ctrl-C and SIGTERM during a run: stop taking items at once, give the calls in flight a few
seconds, say so in one line, exit 130 / 143.

Python delivers signals to the main thread only, and the stage batches run on worker threads
(Prefect's task runner, each batch's own workers): a KeyboardInterrupt in the main thread
left them starting queued items for 17-19 s, then printed a 40-line traceback. So the run's
flow goes to a thread of its own (with the caller's context variables: Prefect's settings
live there), and the main thread only waits and handles the signal: `request_stop()` (no item
starts; retry waits end), then up to `GRACE_S` for the items in flight, whose results are
cached as each completes, then `os._exit`: nothing else of the stopped run runs or prints.
A rerun makes only the calls of the items that never finished. A second signal exits at once.
A temporary Prefect API dies with this process (it is started with a parent-death signal).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from benchcore.stop_request import in_flight, request_stop, wait_idle

T = TypeVar("T")

#: Seconds the items in flight get to finish after a stop signal.
GRACE_S = 5.0
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}


def run_stoppable(work: Callable[[], T]) -> T:
    """`work()` on a thread of its own, its result or its exception; a SIGINT or SIGTERM
    meanwhile ends the process (`stop`) and this never returns."""
    results: list[T] = []
    errors: list[BaseException] = []
    context = contextvars.copy_context()

    def target() -> None:
        try:
            results.append(context.run(work))
        except BaseException as error:   # re-raised in the caller's thread
            errors.append(error)

    received: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        if received:                     # a second one: no more waiting
            os._exit(EXIT_CODES.get(signal.Signals(signum), 130))
        received.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in EXIT_CODES}
    try:
        thread = threading.Thread(target=target, name="benchmark-run", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(0.1)
            if received:
                stop(signal.Signals(received[0]))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if errors:
        raise errors[0]
    return results[0]


def stop(signum: signal.Signals) -> None:
    """One line, no new items, the items in flight finished or abandoned within `GRACE_S`,
    then exit 130 (SIGINT) or 143 (SIGTERM)."""
    request_stop()
    print(f"nlp-dsg-benchmark: {signum.name}: stopping; no new item starts, {in_flight()} in "
          f"flight get {GRACE_S:g} s; finished items are kept, a rerun makes only the missing "
          "calls", file=sys.stderr, flush=True)
    _silence()
    wait_idle(GRACE_S)
    os._exit(EXIT_CODES[signum])


def _silence() -> None:
    """Nothing the stopping run still logs or draws (progress bars, Prefect's crash report)
    reaches the terminal after the one line."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
