"""Peak resident memory of a process tree, sampled in a background thread.

A run's memory is not only the benchmark's own process: the temporary Prefect API and the
Cypher query workers are child processes, so the peak is the largest *sum* over the tree seen
at any sample. Processes that stand in for something outside the run (the fake LLM server,
which would be a remote endpoint) can be left out by pid.

psutil when it is installed, else /proc (Linux).
"""

from __future__ import annotations

import ctypes
import os
import platform
import select
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

try:
    import psutil
except ImportError:  # /proc fallback below
    psutil = None


def _usage_psutil(root: int) -> dict[int, tuple[int, int, int]]:
    """pid -> (parent pid, resident bytes, virtual bytes) of `root` and its descendants."""
    try:
        parent = psutil.Process(root)
        processes = [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return {}
    usage = {}
    for process in processes:
        try:
            memory = process.memory_info()
            usage[process.pid] = (process.ppid(), memory.rss, memory.vms)
        except psutil.Error:  # exited between listing and reading
            continue
    return usage


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


def _usage_proc(root: int) -> dict[int, tuple[int, int, int]]:
    children, page = _proc_children(), os.sysconf("SC_PAGE_SIZE")
    parent_of = {child: pid for pid, kids in children.items() for child in kids}
    usage, todo = {}, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            size, resident = Path(f"/proc/{pid}/statm").read_text().split()[:2]
            usage[pid] = (parent_of.get(pid, 0), int(resident) * page, int(size) * page)
        except (OSError, ValueError):
            continue
    return usage


# kcmp(2) tells whether two processes share one address space; its number per architecture.
_KCMP = {"x86_64": 312, "aarch64": 272}.get(platform.machine())
_KCMP_VM = 1
_libc = ctypes.CDLL(None, use_errno=True) if _KCMP and sys.platform == "linux" else None


def _shares_memory(pid: int, parent: int, usage: dict[int, tuple[int, int, int]]) -> bool:
    """Whether `pid` runs in its parent's address space: a child between `vfork` and `exec`.
    kcmp where the kernel allows it; else both sizes equal, read a moment apart, which holds
    for most samples but not all while the parent allocates."""
    if _libc is not None:
        same = _libc.syscall(_KCMP, pid, parent, _KCMP_VM, 0, 0)
        if same >= 0:
            return same == 0
    return usage[pid][1:] == usage[parent][1:]


def tree_rss(root: int, excluded: Iterable[int] = ()) -> int:
    """Bytes resident in `root` and all its descendants now, minus the excluded pids (their
    own descendants still count: leave them out by pid too).

    A child that runs in its parent's address space is counted once, with the parent: that
    is a child between `vfork` and `exec` (how `subprocess` starts a child, such as a query
    worker), and it shows all of its parent's memory as its own. Summed twice, one such moment
    caught by a sample added a 431 MB child that held nothing of its own (a 1.6 GB peak where
    runs on the same machine peaked at 1.0-1.1 GB), and only when the machine was busy enough
    to keep the child waiting before its `exec`."""
    skip = set(excluded)
    usage = _usage_psutil(root) if psutil else _usage_proc(root)
    total = 0
    for pid, (parent, resident, _) in usage.items():
        if pid in skip or (parent in usage and _shares_memory(pid, parent, usage)):
            continue
        total += resident
    return total


class PeakTreeRSS:
    """Context manager: samples `tree_rss` every `interval` seconds; `peak` is in bytes.

    The sampling runs in a process of its own (this file, run as a script), left out of the
    tree it measures. A sampling thread in the measured process took the interpreter's lock
    for about 1 ms every 0.1 s, in turn with the 128 threads of the LLM stages it was there to
    watch: with both cores busy, runs watched by a thread reached 83.7-84.0% of ideal
    throughput (medians of 3), and the same runs, interleaved, watched from a process 91.3-92.5%."""

    def __init__(self, root: int | None = None, excluded: Iterable[int] = (),
                 interval: float = 0.1) -> None:
        self.root = os.getpid() if root is None else root
        self.excluded = set(excluded)
        self.interval = interval
        self.peak = 0
        self._sampler: subprocess.Popen[str] | None = None

    def __enter__(self) -> PeakTreeRSS:
        self._sampler = subprocess.Popen(
            [sys.executable, __file__, str(self.root), str(self.interval),
             *map(str, self.excluded)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._sampler.stdout.readline()   # "sampling": the first sample is taken
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        sampler, self._sampler = self._sampler, None
        if sampler is not None:
            out, _ = sampler.communicate()   # closing its stdin tells it to stop
            self.peak = max(self.peak, int(out) if out.strip() else 0)   # its peak's line
        self.peak = max(self.peak, tree_rss(self.root, self.excluded))

    @property
    def peak_mb(self) -> float:
        return self.peak / 2**20


def _sample_until_told(root: int, interval: float, excluded: set[int]) -> None:
    """The sampler process: the tree's peak (this process left out) until stdin closes."""
    excluded.add(os.getpid())
    peak = tree_rss(root, excluded)
    print("sampling", flush=True)
    while not select.select([sys.stdin], [], [], interval)[0]:
        peak = max(peak, tree_rss(root, excluded))
    print(max(peak, tree_rss(root, excluded)), flush=True)


if __name__ == "__main__":
    _sample_until_told(int(sys.argv[1]), float(sys.argv[2]), {int(a) for a in sys.argv[3:]})
