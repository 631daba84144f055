"""Parent side of the query workers (see `query_worker`): start, ask, time out, replace.

A pool of a few long-lived workers serves queries from many threads. Each request has a hard
deadline a little beyond the engine's own timeout; a worker that misses it (a query the engine
does not interrupt) or dies (out of memory) is killed and replaced, and the query is reported as
failed. Nothing a query does can take the benchmark process down with it.
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from dsgqa.graphstore.base import GraphStoreError

START_TIMEOUT_S = 60.0
# The directory holding the `dsgqa` package, so a worker imports the same code as its parent.
_CODE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass(frozen=True)
class WorkerSpec:
    """How a worker opens the database; serialised onto its command line."""

    backend: str
    db_path: str
    buffer_pool_bytes: int
    max_db_size: int
    heap_bytes: int
    threads: int = 2


class WorkerTimeout(Exception):
    """The worker did not answer by the hard deadline."""


class WorkerDied(Exception):
    """The worker process exited (usually killed for memory) before answering."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode  # negative: killed by that signal


def worker_env() -> dict[str, str]:
    """This environment with the project first on PYTHONPATH, so a child (query or build
    worker) imports the same code as its parent."""
    env = dict(os.environ)
    paths = [_CODE_ROOT, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


class _Worker:
    def __init__(self, spec: WorkerSpec) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dsgqa.graphstore.query_worker", json.dumps(spec.__dict__)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=worker_env(),
        )
        try:
            hello = self._read(time.monotonic() + START_TIMEOUT_S)
        except (WorkerTimeout, WorkerDied) as exc:
            self.kill()
            raise GraphStoreError(f"query worker did not start: {exc}") from None
        except BaseException:
            self.kill()   # whatever went wrong here, the child must not outlive its handle
            raise
        if not hello.get("ready"):
            self.kill()
            raise GraphStoreError(f"cannot open database {spec.db_path}: {hello.get('error')}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: dict[str, Any], deadline: float) -> dict[str, Any]:
        stdin: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        try:
            stdin.write((json.dumps(request) + "\n").encode())
            stdin.flush()
        except OSError as exc:
            raise WorkerDied(str(exc)) from None
        return self._read(deadline)

    def _read(self, deadline: float) -> dict[str, Any]:
        """The worker's next line, or `WorkerTimeout` at the deadline. Waits with poll(), not
        select(): select() refuses descriptors numbered 1024 or more, which a long-lived process
        (a served deployment, a test session) reaches after a few runs' LLM connections."""
        stdout: IO[bytes] = self.process.stdout  # type: ignore[assignment]
        remaining = deadline - time.monotonic()
        waiting = select.poll()
        waiting.register(stdout, select.POLLIN)
        if not waiting.poll(max(0, math.ceil(remaining * 1000))):
            raise WorkerTimeout(f"no answer within {max(0.0, remaining):.1f} s")
        line = stdout.readline()
        if not line:
            self.process.wait()
            raise WorkerDied(f"worker exited with code {self.process.returncode}",
                             self.process.returncode)
        return json.loads(line)

    def kill(self) -> None:
        """Stop this worker (our own child, by its handle) and reap it."""
        if self.alive():
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


_OUT_OF_MEMORY = re.compile(r"bad_alloc|buffer pool is full|out of memory", re.IGNORECASE)


class WorkerPool:
    """Up to `size` workers shared by any number of threads."""

    def __init__(self, spec: WorkerSpec, size: int) -> None:
        self.spec = spec
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(size)
        self._closed = False

    @contextmanager
    def _worker(self) -> Iterator[_Worker]:
        with self._slots:
            with self._lock:
                if self._closed:
                    raise GraphStoreError("graph store is closed")
                worker = self._idle.pop() if self._idle else None
            if worker is not None and not worker.alive():
                worker.kill()  # reap the dead idle worker and close its pipes
                worker = None
            if worker is None:
                worker = _Worker(self.spec)
            try:
                yield worker
            finally:
                with self._lock:
                    if worker.alive() and not self._closed:
                        self._idle.append(worker)
                    else:
                        worker.kill()

    def ask(self, request: dict[str, Any], hard_timeout_s: float) -> dict[str, Any]:
        """Send one request; on a missed deadline or a crash the worker is replaced, and so it
        is after the engine ran out of memory: a worker that failed `std::bad_alloc` failed
        every later query too (measured on Ladybug and Kuzu: twenty questions in a row), so
        one question's memory would have scored the questions after it."""
        with self._worker() as worker:
            try:
                response = worker.ask(request, time.monotonic() + hard_timeout_s)
            except (WorkerTimeout, WorkerDied):
                worker.kill()
                raise
            if not response.get("ok", True) and _OUT_OF_MEMORY.search(
                    str(response.get("error", ""))):
                worker.kill()
            return response

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
