"""A circuit breaker per model endpoint and process: stop calling a dead endpoint.

Each item's call already retries a dropped connection with backoff (`max_retries`, `http_pool`),
so a dead base URL costs every item that whole backoff: 72 s for 28 items, 1.5 h for 5,000.
After `max_consecutive_connection_failures` calls in a row ended without reaching the server
(refused, reset, timed out), the breaker opens: further calls fail at once with the cause of
the last failure. Any answered call (even an HTTP error) closes it again. While open, one probe
call is let through every `PROBE_INTERVAL_S`, so a long-lived process (a Dask worker) notices
when the endpoint comes back.

Between the first such failure and the breaker opening, the endpoint is `suspect`: calls then
try once, without retries, so the breaker opens after one backoff cycle rather than after one
per concurrent slot.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from benchcore.llm.base import LLMError, ModelConfig

PROBE_INTERVAL_S = 60.0


@dataclass
class _State:
    failures: int = 0
    cause: str = ""
    opened_at: float | None = None


class EndpointUnavailable(LLMError):
    """Raised instead of calling an endpoint whose breaker is open."""


class Breaker:
    """Consecutive connection failures of one (model, endpoint) in this process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._state = _State()
        self._lock = threading.Lock()

    @property
    def suspect(self) -> bool:
        """A call has failed to connect and none has answered since."""
        with self._lock:
            return self._state.failures > 0

    def check(self) -> None:
        """Raise `EndpointUnavailable` when open (except for the periodic probe)."""
        with self._lock:
            state = self._state
            if state.opened_at is None:
                return
            if time.monotonic() - state.opened_at >= PROBE_INTERVAL_S:
                state.opened_at = time.monotonic()   # this call is the probe
                return
            raise EndpointUnavailable(
                f"{state.cause} (not called: {state.failures} consecutive connection failures)"
            )

    def failed(self, cause: str) -> None:
        """A call that never reached the server; `cause` is its one-line error."""
        with self._lock:
            state = self._state
            state.failures += 1
            state.cause = cause
            if self.limit > 0 and state.failures >= self.limit and state.opened_at is None:
                state.opened_at = time.monotonic()

    def answered(self) -> None:
        """A call that reached the server: the endpoint is alive."""
        with self._lock:
            self._state = _State()


_BREAKERS: dict[tuple[str, str | None], Breaker] = {}
_BREAKERS_LOCK = threading.Lock()


def breaker_for(config: ModelConfig) -> Breaker:
    """The process's breaker for this model's endpoint."""
    slot = (config.name, config.base_url)
    with _BREAKERS_LOCK:
        if slot not in _BREAKERS:
            _BREAKERS[slot] = Breaker(config.max_consecutive_connection_failures)
        return _BREAKERS[slot]
