"""Which process on this machine may replace a Neo4j database's content.

Every store opened on a Neo4j database holds a shared claim on it (a `flock` on a file beside
the embedded databases, named by the server's URI) for as long as it is open. Opening takes a
machine-wide lock first, so opens happen one at a time; then:
- the database holds the graph already (`neo4j_content`): the store shares it, nothing is
  written (the usual case: a run's Dask workers, the oracle, a rerun);
- it holds something else and no other open store on this machine uses it: the store loads
  the graph (the claim exclusive while it does) and then shares it;
- it holds something else that another store on this machine is using: the open is refused
  with one line. Replacing it would hand that run's queries another graph, or half of one.

Processes on other machines cannot be seen through a file lock: a load is read back and
compared with the graph before the store is used, so one that raced with a load elsewhere is an
error, not a different graph; runs on several machines must each have their own database.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path


class Neo4jClaim:
    """This process's claim on one Neo4j database (`uri`, `database`)."""

    def __init__(self, root: Path, uri: str, database: str | None = None) -> None:
        name = hashlib.sha256(f"{uri}|{database or ''}".encode()).hexdigest()[:16]
        root.mkdir(parents=True, exist_ok=True)
        self._opening = root / f".neo4j-{name}.opening.lock"
        self._users = root / f".neo4j-{name}.users.lock"
        self._fd: int | None = None

    @contextlib.contextmanager
    def opening(self) -> Iterator[None]:
        """One open at a time on this machine: no load starts while another store checks
        what the database holds."""
        with open(self._opening, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def share(self) -> None:
        """Use the database as it is (held until `release`)."""
        fcntl.flock(self._file(), fcntl.LOCK_SH)

    def take_whole(self) -> bool:
        """The right to replace the content, if no other open store here uses it."""
        try:
            fcntl.flock(self._file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)   # closing the descriptor drops its lock
            self._fd = None

    def _file(self) -> int:
        if self._fd is None:
            self._fd = os.open(self._users, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        return self._fd
