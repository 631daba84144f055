"""Process settings that must be in place before Prefect is imported."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

from benchcore.disk_errors import is_no_room
from benchcore.terminal_text import printable
from benchcore.text_safety import safe_text
from nlp_dsg_benchmark.proxy_environment import check_proxy_variables, exempt_loopback

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
FLUSH_TIMEOUT_S = 5.0


def prepare_prefect_environment(cache_dir: str | Path = ".cache", quiet: bool = True) -> str:
    """Defaults a user may override in their own environment. Returns the configured API URL,
    or "" when no reachable server is configured (the caller then starts a temporary API).

    - A fresh ephemeral Prefect API takes 14-24 s to start here; Prefect's default timeout is 20 s.
    - Task results live in the project's cache dir, so reruns find them and `rm -r .cache` is the
      one way to start from scratch.
    - Prefect's per-task INFO lines drown the summary; warnings and errors still show.
    - The repo's prefect.toml points the Prefect CLI at a local server (for deployments). When
      that server is not running, a run started from our CLI uses a temporary API instead of
      failing (temporary_api.py): the demo must work with no server to start.
    """
    check_proxy_variables()   # before httpx reads them: one line, not its traceback
    exempt_loopback()         # the temporary API on 127.0.0.1 is never behind the proxy
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    storage = Path(cache_dir).resolve() / "prefect-results"
    os.environ.setdefault("PREFECT_LOCAL_STORAGE_PATH", str(storage))
    # No telemetry from a lab's nightly box (and no DNS failure line in every run's output).
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    # Stopping the temporary server cancels its event recorder mid-flush, which logs a harmless
    # traceback after the run has finished; the server's own errors still reach its log file.
    os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_SERVER_LEVEL", "CRITICAL")
    if quiet:
        os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL", "WARNING")
        os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_FLOW_RUNS_LEVEL", "WARNING")
    return _choose_api()


def _configured_api_url() -> str | None:
    """The API URL from the environment or ./prefect.toml, read without importing Prefect
    (whose settings, once loaded, would not see a change we make here); if Prefect is loaded
    already (the CLI called in-process, e.g. by tests), the URL its settings hold."""
    if "prefect" in sys.modules:
        from prefect.settings import PREFECT_API_URL

        return PREFECT_API_URL.value() or None
    if "PREFECT_API_URL" in os.environ:
        return os.environ["PREFECT_API_URL"] or None
    toml = Path("prefect.toml")
    if toml.is_file():
        with toml.open("rb") as handle:
            return tomllib.load(handle).get("api", {}).get("url")
    return None


def _choose_api() -> str:
    url = _configured_api_url()
    if not url:
        return ""
    parsed = urlparse(url)
    if parsed.hostname in LOOPBACK and not _listening(parsed.hostname, parsed.port or 80):
        return ""
    return url


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def heartbeats_off_for_temporary_api(temporary: bool) -> Iterator[None]:
    """No flow-run heartbeats when the API lives only as long as this process.

    Heartbeats let a long-lived server notice a crashed run; a temporary API dies with the run,
    so they buy nothing there, and Prefect joins the heartbeat thread at the end of every flow
    run, which costs up to 1 s (0.085 s vs 1.07 s for an empty flow, measured here).
    """
    if not temporary:
        yield
        return
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield


class _RedactingFilter(logging.Filter):
    """Masks secrets in every log line (a server may echo a key into an error message) and
    removes terminal control sequences (a reply may hold them; log lines reach a terminal)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = printable(safe_text(message), keep_newlines=True)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class _NoErrorBudgetTraceback(logging.Filter):
    """The run's error budget and a full disk are the CLI's to report (one line, naming the
    causes or the file), so Prefect's "Encountered exception" record with its traceback stays
    off the console; the API still gets it."""

    def filter(self, record: logging.LogRecord) -> bool:
        from benchcore.run_summary import ErrorBudgetExceeded

        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, ErrorBudgetExceeded) and not is_no_room(error)


def install_log_filters() -> None:
    """After Prefect configured logging: every handler masks secrets; console handlers drop
    the error-budget traceback."""
    loggers = [logging.getLogger(), *(
        logger for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    )]
    for handler in {h for logger in loggers for h in logger.handlers}:
        if not any(isinstance(f, _RedactingFilter) for f in handler.filters):
            handler.addFilter(_RedactingFilter())
        if isinstance(handler, logging.StreamHandler) and not any(
            isinstance(f, _NoErrorBudgetTraceback) for f in handler.filters
        ):
            handler.addFilter(_NoErrorBudgetTraceback())


def flush_prefect_telemetry() -> None:
    """Send the logs and events Prefect still holds while the API can take them: stopping a
    temporary API first ends the run with "Error logging to API / All connection attempts
    failed". A no-op when Prefect was never imported."""
    if "prefect" not in sys.modules:
        return
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for worker in (APILogWorker, EventsWorker):
        with contextlib.suppress(Exception):
            worker.drain_all(timeout=FLUSH_TIMEOUT_S)
