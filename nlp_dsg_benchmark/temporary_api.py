"""A Prefect API that lives as long as one CLI run, for when no server is running.

Prefect's own "ephemeral mode" starts one only when no API URL is configured at all. The
repo's prefect.toml does configure one (the lab's server at 127.0.0.1:4200, for deployments),
and a Prefect API URL cannot be unset from the environment (an empty one breaks Prefect's
event client). So when nothing listens at the configured URL, the CLI starts the same
subprocess Prefect would (uvicorn serving `prefect.server.api.server:create_app`, UI off) and
points PREFECT_API_URL at it, before Prefect is imported in this process.

The API keeps its database under the run's cache (`<cache>/prefect-api/slot-N/prefect.db`),
not in the shared `~/.prefect/prefect.db`: two runs started at once would otherwise migrate and
write one SQLite file from two servers and lock each other out. A run takes the first slot no
other running CLI holds (an advisory file lock, released when the process ends, even by kill -9),
so concurrent runs get separate databases and a later run reuses a migrated one.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

START_TIMEOUT_S = 120.0   # a fresh API takes 14-24 s to start on this project's machines
DATABASE_SLOTS = 32       # concurrent CLI runs sharing one cache dir before slots run out


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when this process dies, even by kill -9, so a killed run
    never leaves its temporary API behind. Elsewhere a no-op."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def _database_slot(cache_dir: Path) -> Iterator[Path]:
    """The folder of the first database slot no other process holds, locked while in use."""
    root = Path(cache_dir).resolve() / "prefect-api"
    for n in range(DATABASE_SLOTS):
        folder = root / f"slot-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        handle: IO[bytes] = (folder / "lock").open("wb")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        try:
            yield folder
        finally:
            handle.close()   # closing releases the lock
        return
    raise RuntimeError(f"{root}: all {DATABASE_SLOTS} temporary Prefect API databases in use")


@contextlib.contextmanager
def temporary_api(cache_dir: str | Path = ".cache") -> Iterator[str]:
    """Start the API subprocess on its own database under `cache_dir`, yield its URL once it
    answers, stop it (and all it started) afterwards."""
    with starting_api(cache_dir) as api:
        api.wait()
        yield api.url


class StartingAPI:
    """A temporary API whose URL is known before it answers: the caller sets PREFECT_API_URL
    and does its own start-up work (loading inputs, importing Prefect, 4 s) while the server
    starts (5-10 s), then waits."""

    def __init__(self, url: str, process: subprocess.Popen[bytes]) -> None:
        self.url, self._process = url, process

    def wait(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _healthy(self.url):
            if self._process.poll() is not None:
                raise RuntimeError("temporary Prefect API exited with code "
                                   f"{self._process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"temporary Prefect API not up after {START_TIMEOUT_S:.0f} s")
            time.sleep(0.1)


@contextlib.contextmanager
def starting_api(cache_dir: str | Path = ".cache") -> Iterator[StartingAPI]:
    """Start the API subprocess and yield at once (`StartingAPI.wait` before using it); stop
    it (and all it started) afterwards."""
    with _database_slot(Path(cache_dir)) as folder:
        yield from _serve(folder / "prefect.db")


def _server_environment(url: str, database: Path) -> dict[str, str]:
    """This process's environment for the server, on its own SQLite database (a database
    URL set for a real server, under either of Prefect's names, is not this API's)."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_DATABASE_CONNECTION_URL"}
    env.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")   # a throw-away server
    return {**env, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1",
            "PREFECT__SERVER_FINAL": "1", "PREFECT_API_URL": url,
            "PREFECT_SERVER_DATABASE_CONNECTION_URL": f"sqlite+aiosqlite:///{database}"}


def _serve(database: Path) -> Iterator[StartingAPI]:
    spec = importlib.util.find_spec("prefect")
    assert spec is not None and spec.origin is not None
    port = _free_port()
    url = f"http://127.0.0.1:{port}/api"
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--app-dir", str(Path(spec.origin).parent.parent),
         "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "error", "--lifespan", "on"],
        env=_server_environment(url, database),
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    try:
        yield StartingAPI(url, process)
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
