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

A server the CLI starts stays up after the run, unused, for NLP_DSG_TEMPORARY_API_LINGER_S seconds
(default 300; 0: it stops with the run; `api_linger.py` watches it), and the next command on the
same cache adopts it instead of starting one (the demo's cached rerun: about 4 s instead of 7 s,
benchmarks/bench_cli_startup.py). A run that fails or is interrupted stops its server at once.

Starting one is Prefect's server importing itself (2.6 of its 3.5 s of CPU), so the CLI starts
it as soon as it knows the run needs one (after reading the configuration, before pandas, the
console, the inputs and Prefect are imported) and waits only when the flow starts. Each slot
keeps Prefect's block-registration memo beside its database (`MEMO_FILE`), so a server that
starts on a database it registered before skips registering them (0.5 s of CPU). Prefect's own
in-process alternative does not exist for this: its "ephemeral mode" is the same subprocess, and
task runs reach the API only as events over a websocket, which an in-process app cannot serve.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import json
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

from benchcore import atomic_files
from nlp_dsg_benchmark.api_linger import SERVER_FILE

START_TIMEOUT_S = 120.0   # a fresh API takes 14-24 s to start on this project's machines
DATABASE_SLOTS = 32       # concurrent CLI runs sharing one cache dir before slots run out
LINGER_VARIABLE = "NLP_DSG_TEMPORARY_API_LINGER_S"
# Off for library callers (benchmarks, tests); the CLI asks for `CLI_LINGER_S`: the demo's
# cached rerun takes about 4 s with the API an earlier command left running against 7 s
# starting one (benchmarks/bench_cli_startup.py).
DEFAULT_LINGER_S = 0.0
CLI_LINGER_S = 300.0


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
    and does its own start-up work (loading inputs, importing Prefect, 2 s) while the server
    starts (4-10 s), then waits. `adopted`: left running by an earlier command and reused."""

    def __init__(self, url: str, process: subprocess.Popen[bytes] | None,
                 adopted: bool = False) -> None:
        self.url, self._process, self.adopted = url, process, adopted

    def wait(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _healthy(self.url):
            if self._process is None or self._process.poll() is not None:
                code = self._process.returncode if self._process is not None else "?"
                raise RuntimeError(f"temporary Prefect API exited with code {code}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"temporary Prefect API not up after {START_TIMEOUT_S:.0f} s")
            time.sleep(0.1)


def linger_seconds(default: float = DEFAULT_LINGER_S) -> float:
    """How long a temporary API stays up, unused, after the command that started it
    ($NLP_DSG_TEMPORARY_API_LINGER_S, else `default`; 0: it stops with that command)."""
    try:
        return max(0.0, float(os.environ.get(LINGER_VARIABLE, default)))
    except ValueError:
        return default


@contextlib.contextmanager
def starting_api(cache_dir: str | Path = ".cache",
                 linger_s: float | None = None) -> Iterator[StartingAPI]:
    """Yield a temporary API at once (`StartingAPI.wait` before using it): the one an earlier
    command left running in this cache, or a new one. Afterwards a new one is stopped (and all
    it started), unless it is to linger (`linger_seconds`): then `api_linger` stops it once
    it has been unused that long."""
    linger = linger_seconds() if linger_s is None else linger_s
    with _database_slot(Path(cache_dir)) as folder:
        url = _lingering_server(folder)
        if url is not None:
            yield StartingAPI(url, None, adopted=True)
            return
        yield from _serve(folder, linger)


def _lingering_server(folder: Path) -> str | None:
    """The URL of the server an earlier command left in this slot, if it still answers and
    runs on this interpreter (the caller holds the slot's lock: it cannot be retired now)."""
    try:
        record = json.loads((folder / SERVER_FILE).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("python") != sys.executable:
        return None
    url = record.get("url")
    return url if isinstance(url, str) and _healthy(url) else None


# Prefect's note that the block types are registered in a database (it skips registering
# them again, 0.5 s of the server's start), kept beside the database it speaks of.
MEMO_FILE = "memo_store.toml"
DATABASE_FILE = "prefect.db"
_NOT_THIS_API = ("PREFECT_API_DATABASE_CONNECTION_URL", "PREFECT_MEMO_STORE_PATH")


def forget_memo_without_database(folder: Path) -> None:
    """A slot whose database is gone (or was never made) has no block types registered: its
    memo must not say it has."""
    if not (folder / DATABASE_FILE).exists():
        (folder / MEMO_FILE).unlink(missing_ok=True)


def _server_environment(url: str, database: Path) -> dict[str, str]:
    """This process's environment for the server, on its own SQLite database (a database
    URL set for a real server, under either of Prefect's names, is not this API's), with its
    own memo store: Prefect's default, one file in PREFECT_HOME for every database, holds the
    note of the last database any server registered its block types in, so with several
    caches (or tests) each server start registered them all again."""
    env = {k: v for k, v in os.environ.items() if k not in _NOT_THIS_API}
    env.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")   # a throw-away server
    return {**env, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1",
            "PREFECT__SERVER_FINAL": "1", "PREFECT_API_URL": url,
            "PREFECT_SERVER_DATABASE_CONNECTION_URL": f"sqlite+aiosqlite:///{database}",
            "PREFECT_SERVER_MEMO_STORE_PATH": str(database.with_name(MEMO_FILE))}


def _serve(folder: Path, linger_s: float) -> Iterator[StartingAPI]:
    spec = importlib.util.find_spec("prefect")
    assert spec is not None and spec.origin is not None
    port = _free_port()
    url = f"http://127.0.0.1:{port}/api"
    lingers = linger_s > 0
    forget_memo_without_database(folder)
    with contextlib.ExitStack() as files:
        log = files.enter_context((folder / "server.log").open("ab")) if lingers else None
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--app-dir", str(Path(spec.origin).parent.parent),
             "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "error", "--lifespan", "on"],
            env=_server_environment(url, folder / DATABASE_FILE),
            start_new_session=True,
            # A lingering server outlives this process (its watcher stops it); any other dies
            # with it, even when it is killed with -9.
            preexec_fn=None if lingers else _die_with_parent,
            stdout=log, stderr=log,
        )
    if lingers:
        atomic_files.write_text(folder / SERVER_FILE, json.dumps(
            {"url": url, "pid": process.pid, "python": sys.executable}))
        subprocess.Popen([sys.executable, "-m", "nlp_dsg_benchmark.api_linger", str(folder),
                          str(process.pid), str(linger_s)],
                         start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         cwd=str(Path(__file__).resolve().parent.parent))
    try:
        yield StartingAPI(url, process)
    except BaseException:
        _stop(process)   # a failed or interrupted run leaves nothing behind
        raise
    if not lingers:
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
