"""A run sent to a Dask scheduler fails in seconds, in one line, when the scheduler cannot be
reached, or when an existing cluster's workers would report to a temporary Prefect API."""

from __future__ import annotations

import socket
import time

import pytest

from benchcore.dask_scheduler import check_cluster_can_report, check_reachable
from benchcore.run_config import ConfigError


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_scheduler_fails_at_once_in_one_line() -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    with pytest.raises(ConfigError) as error:
        check_reachable(address)
    assert time.monotonic() - started < 5
    assert address in str(error.value) and "\n" not in str(error.value)


def test_a_listening_scheduler_passes() -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        check_reachable(f"127.0.0.1:{listening.getsockname()[1]}")


def test_an_existing_cluster_needs_a_server_its_workers_reach() -> None:
    with pytest.raises(ConfigError, match="Prefect server"):
        check_cluster_can_report("tcp://10.0.0.5:8786", temporary_api=True)
    check_cluster_can_report("tcp://10.0.0.5:8786", temporary_api=False)
    check_cluster_can_report(None, temporary_api=True)   # a local cluster ends with the run
