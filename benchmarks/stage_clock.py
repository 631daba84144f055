"""When each batch stage of a run was working, from the stages' own progress events
(`benchcore.progress`): a stage's span runs from its first `started` to its last finished item,
over every model's batch of that stage (the models' batches run side by side).

In-process only, as the progress events are: right for the default threads task runner.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from types import TracebackType

from benchcore import progress


class StageClock:
    """Context manager that records every stage's span while it is open."""

    def __init__(self) -> None:
        self.first: dict[str, float] = {}
        self.last: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop: Callable[[], None] | None = None

    def _heard(self, event: str, stage: str, count: int) -> None:
        now = time.perf_counter()
        with self._lock:
            self.first.setdefault(stage, now)
            self.last[stage] = now

    def __enter__(self) -> StageClock:
        self._stop = progress.listen(self._heard)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._stop:
            self._stop()

    def span(self, stage: str) -> float:
        """Seconds from the stage's first event to its last (0 when it never ran)."""
        return self.last[stage] - self.first[stage] if stage in self.first else 0.0

    def busy(self, stages: Iterable[str]) -> float:
        """Seconds during which at least one of `stages` was working (their spans' union)."""
        spans = sorted((self.first[s], self.last[s]) for s in stages if s in self.first)
        total, end = 0.0, float("-inf")
        for start, stop in spans:
            if stop > end:
                total += stop - max(start, end)
                end = stop
        return total
