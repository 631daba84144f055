"""A real Dask cluster for tests: `dask scheduler` and two `dask worker` processes on loopback,
as a platform engineer starts them (not a LocalCluster inside the test process).

The workers run in a working directory of their own (relative paths must not resolve there),
report to the session's Prefect test API, and see only the environment given here (no API
keys unless a test adds one). Everything is stopped when the fixture ends.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import PROJECT_ROOT

_DASK = str(Path(sys.executable).with_name("dask"))


@dataclass(frozen=True)
class Cluster:
    address: str
    worker_dir: Path
    folder: Path
    env: dict[str, str]
    scheduler_pid: int = 0

    def client(self):   # a new client each time: tests close theirs
        from distributed import Client

        return Client(self.address, timeout=30)


def _environment(api_url: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items()
            if not k.endswith("_API_KEY") and not k.startswith("NDB_TEST_")}
    return {**keep, "PYTHONPATH": str(PROJECT_ROOT), "PREFECT_API_URL": api_url,
            "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
            # The scheduler setting docs/deployment.md asks for: dead workers' leases go sooner.
            "DASK_DISTRIBUTED__SCHEDULER__LOCKS__LEASE_VALIDATION_INTERVAL": "1s"}


def _start(args: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([_DASK, *args], cwd=cwd, env=env, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def start_worker(cluster: Cluster, name: str, *extra: str) -> subprocess.Popen:
    """One more worker process (the caller stops it, e.g. to play a dead machine); `extra`:
    more `dask worker` options."""
    return _start(["worker", cluster.address, "--nthreads", "4", "--no-dashboard", "--name",
                   name, "--host", "127.0.0.1", "--no-nanny", *extra], cluster.worker_dir,
                  cluster.env, cluster.folder / f"{name}.log")


def stop(process: subprocess.Popen) -> None:
    _stop(process)


def kill(process: subprocess.Popen) -> None:
    """As a machine dies: no shutdown, nothing released or said to the scheduler."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@contextmanager
def dask_cluster(folder: Path, api_url: str, workers: int = 2) -> Iterator[Cluster]:
    worker_dir = folder / "worker-cwd"
    worker_dir.mkdir(parents=True)
    scheduler_file = folder / "scheduler.json"
    env = _environment(api_url)
    processes = [_start(["scheduler", "--scheduler-file", str(scheduler_file), "--port", "0",
                         "--no-dashboard", "--host", "127.0.0.1"], folder, env,
                        folder / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        cluster = Cluster(address, worker_dir, folder, env, processes[0].pid)
        processes += [start_worker(cluster, f"w{i}") for i in range(workers)]
        if workers:
            with cluster.client() as client:
                client.wait_for_workers(workers, timeout=90)
        yield cluster
    finally:
        for process in reversed(processes):
            _stop(process)
