"""One run at a time per run folder: a run holds an exclusive `flock` on `<run dir>/.run.lock`
from its start to its end, and a second run of the same run id refuses at once.

Why: two runs of one run id started together (a retried deployment beside the run it retries,
a nightly and a hand-started `rerun`) both computed every item (the item cache shares results
only inside one process) and paid for every LLM call twice, then wrote the same tables over
each other. Refusing, rather than waiting, says at once what happened; the first run's tables
are the run's, and a `rerun` afterwards costs nothing.

The lock file is created once and never written, so its size and time stay what a finished
run's record saw (`finished_runs`). The lock goes with the process: a run killed with
`kill -9` leaves no stale lock. On a file system without locks (some network mounts) runs
are not kept apart.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

LOCK_FILE = ".run.lock"


class RunFolderBusy(RuntimeError):
    """Another run holds the run folder; one line naming it."""


def _busy(run_dir: Path) -> RunFolderBusy:
    return RunFolderBusy(
        f"{run_dir}: another run of run id {run_dir.name!r} is writing this folder now "
        f"(it holds {run_dir / LOCK_FILE}); wait for it to finish, or choose another --run-id")


@contextlib.contextmanager
def run_folder_lock(run_dir: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the run folder for the block; `RunFolderBusy` when another run holds it."""
    folder = Path(run_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(folder) from None
        except OSError:   # no locks here: the run goes on, unprotected, as before
            pass
        yield
    finally:
        os.close(fd)


def check_not_busy(run_dir: str | os.PathLike[str]) -> None:
    """`RunFolderBusy` when another run holds the folder now (a look, taking nothing): the CLI
    asks before it spends 20 s starting Prefect."""
    folder = Path(run_dir)
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY)
    except OSError:   # no lock file: no run has held the folder
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(folder) from None
    except OSError:
        pass
    finally:
        os.close(fd)   # closing lets go of the lock taken to look
