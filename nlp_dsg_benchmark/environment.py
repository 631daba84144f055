"""Process settings that must be in place before Prefect is imported."""

from __future__ import annotations

import os
from pathlib import Path


def prepare_prefect_environment(cache_dir: str | Path = ".cache", quiet: bool = True) -> None:
    """Defaults a user may override in their own environment.

    - A fresh ephemeral Prefect API takes 14-24 s to start here; Prefect's default timeout is 20 s.
    - Task results (the stage cache) live in the project's cache dir, so reruns find them and
      `rm -r .cache` is the one way to start from scratch.
    - Prefect's per-task INFO lines drown the summary; warnings and errors still show.
    """
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
