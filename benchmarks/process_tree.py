"""Peak resident memory of a process tree, sampled in a background thread.

A run's memory is not only the benchmark's own process: the temporary Prefect API and the
Cypher query workers are child processes, so the peak is the largest *sum* over the tree seen
at any sample. Processes that stand in for something outside the run (the fake LLM server,
which would be a remote endpoint) can be left out by pid.

psutil when it is installed, else /proc (Linux).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

try:
    import psutil
except ImportError:  # /proc fallback below
    psutil = None


def _tree_rss_psutil(root: int, excluded: set[int]) -> int:
    try:
        parent = psutil.Process(root)
        processes = [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for process in processes:
        if process.pid in excluded:
            continue
        try:
            total += process.memory_info().rss
        except psutil.Error:  # exited between listing and reading
            continue
    return total


def _proc_children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def _tree_rss_proc(root: int, excluded: set[int]) -> int:
    children, page = _proc_children(), os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        if pid in excluded:
            continue
        try:
            resident = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        total += resident * page
    return total


def tree_rss(root: int, excluded: Iterable[int] = ()) -> int:
    """Bytes resident in `root` and all its descendants now, minus the excluded pids (their
    own descendants still count: leave them out by pid too)."""
    skip = set(excluded)
    return _tree_rss_psutil(root, skip) if psutil else _tree_rss_proc(root, skip)


class PeakTreeRSS:
    """Context manager: samples `tree_rss` every `interval` seconds; `peak` is in bytes."""

    def __init__(self, root: int | None = None, excluded: Iterable[int] = (),
                 interval: float = 0.1) -> None:
        self.root = os.getpid() if root is None else root
        self.excluded = set(excluded)
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(self.root, self.excluded))
            self._stop.wait(self.interval)

    def __enter__(self) -> PeakTreeRSS:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, tree_rss(self.root, self.excluded))

    @property
    def peak_mb(self) -> float:
        return self.peak / 2**20

