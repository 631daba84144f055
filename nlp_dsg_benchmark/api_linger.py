"""Keeps a temporary Prefect API alive for a while after the CLI run that started it, so the
next command in the same cache reuses it instead of paying 4-10 s to start one.

`python -m nlp_dsg_benchmark.api_linger SLOT_FOLDER SERVER_PID SECONDS` runs beside the server
(detached from the CLI, in the server's session): once no CLI has held the slot's lock for
SECONDS in a row, it stops the server, removes the slot's `server.json`, and exits. It also
exits (stopping the server) when the slot folder is deleted (`rm -r .cache`) or the server
dies. A CLI holds the slot's lock for as long as it uses the server, so a server in use is
never stopped; one nobody uses is gone after SECONDS.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sys
import time
from pathlib import Path

POLL_S = 1.0
SERVER_FILE = "server.json"
LOCK_FILE = "lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_server(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def watch(folder: Path, pid: int, linger_s: float) -> None:
    idle_since: float | None = None
    while folder.is_dir() and _alive(pid):
        try:
            handle = (folder / LOCK_FILE).open("ab")
        except OSError:   # the folder is gone
            break
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:   # a CLI uses the server
                idle_since = None
            else:
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since >= linger_s:
                    # Under the lock: a CLI that takes the slot next finds no server to adopt.
                    _retire(folder, pid)
                    return
                fcntl.flock(handle, fcntl.LOCK_UN)
        time.sleep(POLL_S)
    _retire(folder, pid)


def _retire(folder: Path, pid: int) -> None:
    with contextlib.suppress(OSError):
        (folder / SERVER_FILE).unlink()
    stop_server(pid)


def main() -> None:
    folder, pid, linger_s = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    watch(folder, pid, linger_s)


if __name__ == "__main__":
    main()
