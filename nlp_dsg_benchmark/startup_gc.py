"""The cyclic garbage collector while a run starts.

Starting a run imports Prefect, pydantic's models, pandas, pyarrow and matplotlib: hundreds of
thousands of long-lived objects, none of them garbage, which the collector walks again and again
while they appear (five full collections) and then at every full collection of the run itself.
On the demo's cached rerun that was 0.5-0.7 s of its 4-5 s of CPU (measured with
`gc.callbacks`). So the start-up runs with the collector paused, and the program itself (not
an in-process caller such as a test) freezes what the start-up made (`gc.freeze`) before the
flow runs: the run's own objects are collected as usual, the start-up's are never walked again
(they live until the process ends anyway). Reference counting frees everything as usual
throughout; only cycle detection waits.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


class StartUp:
    def __init__(self, freeze: bool) -> None:
        self._freeze, self._was_enabled, self._done = freeze, gc.isenabled(), False
        gc.disable()

    def done(self) -> None:
        """The flow starts: what start-up made is frozen (the program only), collection
        resumes."""
        if not self._done and self._freeze:
            gc.freeze()
        self.resume()

    def resume(self) -> None:
        if not self._done and self._was_enabled:
            gc.enable()
        self._done = True


@contextlib.contextmanager
def collector_paused(freeze: bool) -> Iterator[StartUp]:
    """The collector paused until `StartUp.done()`, or until the block ends (an error, or a
    command that never starts the flow)."""
    start = StartUp(freeze)
    try:
        yield start
    finally:
        start.resume()
