"""The caches' store against the standard library's sqlite3 (WAL mode) as that store: writes
from many threads at once, the way a QA run's LLM stages write the response and item caches,
then a cold read of every entry, the way a cached rerun reads them.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_cache_store.py [--entries 20000]
        [--threads 64] [--value-bytes 2000]

Figures, per store: CPU seconds (user + system) and wall seconds for the writes, and per
entry; a store's writes are spread over the run, so CPU per entry is what it takes from the
harness (a 5,000 x 2 run writes ~40,000 entries: its ideal LLM time is 7.8 s, so 100 us of
CPU per entry would be half a core). sqlite3 is measured with one connection per thread
(a connection must not be shared between threads), `journal_mode=WAL`, `synchronous=NORMAL`
(durable at checkpoints; FULL would fsync every commit) and one transaction per entry (an
entry must survive a kill as soon as it is written); `busy_timeout` makes writers queue for
the one write lock instead of failing.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchcore.segment_store import SegmentStore


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(work: Callable[[], None]) -> tuple[float, float]:
    cpu, wall = _cpu(), time.perf_counter()
    work()
    return _cpu() - cpu, time.perf_counter() - wall


def _in_threads(threads: int, entries: int, put: Callable[[int, str, bytes], None],
                value: bytes) -> None:
    def worker(index: int) -> None:
        for i in range(index, entries, threads):
            put(index, f"key-{i:08d}", value)

    pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()


def segment_store(folder: Path, entries: int, threads: int, value: bytes) -> dict[str, float]:
    store = SegmentStore(folder)
    write = _timed(lambda: _in_threads(threads, entries, lambda _t, k, v: store.put(k, v),
                                       value))

    def read_all() -> None:
        cold = SegmentStore(folder)
        assert all(cold.get(f"key-{i:08d}") == value for i in range(entries))

    return _figures(write, _timed(read_all), entries)


def sqlite_wal(folder: Path, entries: int, threads: int, value: bytes) -> dict[str, float]:
    path = folder / "cache.sqlite3"
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE entries (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
    setup.commit()
    setup.close()
    local = threading.local()

    def put(_thread: int, key: str, data: bytes) -> None:
        connection = getattr(local, "connection", None)
        if connection is None:
            connection = local.connection = sqlite3.connect(path, timeout=60,
                                                            isolation_level=None)
            connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute("INSERT OR REPLACE INTO entries VALUES (?, ?)", (key, data))

    write = _timed(lambda: _in_threads(threads, entries, put, value))

    def read_all() -> None:
        connection = sqlite3.connect(path)
        assert all(connection.execute("SELECT value FROM entries WHERE key = ?",
                                      (f"key-{i:08d}",)).fetchone()[0] == value
                   for i in range(entries))
        connection.close()

    return _figures(write, _timed(read_all), entries)


def _figures(write: tuple[float, float], read: tuple[float, float],
             entries: int) -> dict[str, float]:
    return {"write_cpu_s": write[0], "write_wall_s": write[1],
            "write_cpu_us_per_entry": write[0] / entries * 1e6,
            "read_wall_s": read[1], "read_us_per_entry": read[1] / entries * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--value-bytes", type=int, default=2_000)
    args = parser.parse_args()
    value = os.urandom(args.value_bytes)
    print(f"{args.entries:,} entries of {args.value_bytes:,} bytes from {args.threads} threads")
    for name, bench in (("segment store", segment_store), ("sqlite3 WAL", sqlite_wal)):
        with tempfile.TemporaryDirectory() as folder:
            figures = bench(Path(folder), args.entries, args.threads, value)
        print(f"{name:14s} writes: {figures['write_cpu_s']:.2f} s CPU "
              f"({figures['write_cpu_us_per_entry']:.0f} us an entry), "
              f"{figures['write_wall_s']:.2f} s wall; cold read of all: "
              f"{figures['read_wall_s']:.2f} s ({figures['read_us_per_entry']:.1f} us an entry)")


if __name__ == "__main__":
    main()
