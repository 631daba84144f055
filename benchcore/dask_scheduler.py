"""Checks on a Dask scheduler a run is sent to, made before the run starts."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from benchcore.run_config import ConfigError

REACH_TIMEOUT_S = 5.0


def check_reachable(address: str, timeout_s: float = REACH_TIMEOUT_S) -> None:
    """Fail in seconds, in one line, when nothing listens at the scheduler's address.

    Why: the Dask client retries an unreachable scheduler for its connect timeout and then
    raises a long traceback (50 s here); a typo in `dask_address` or a scheduler that is down
    should say so at once."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls") or not parts.hostname or not parts.port:
        return   # another transport (ucx, inproc): left to Dask
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=timeout_s):
            pass
    except OSError as error:
        raise ConfigError(f"dask_address: no Dask scheduler reachable at {address} "
                          f"({error.strerror or error}); start it, or fix the address") from None


def check_cluster_can_report(dask_address: str | None, temporary_api: bool) -> None:
    """Refuse an existing cluster when the run's Prefect API is a temporary one.

    Why: the workers of an existing cluster outlive the run; they would report to an API that
    stops with the run, then hang for minutes draining events to it, and a later run on the
    same workers would lose its task runs from the server. A cluster the run starts itself
    (no `dask_address`) ends with the run and may use the temporary API."""
    if dask_address and temporary_api:
        raise ConfigError("dask_address: an existing Dask cluster needs a Prefect server its "
                          "workers can reach (scripts/orchestrate.sh server, then set "
                          "PREFECT_API_URL on this machine and on every worker)")
