"""An append-only key -> bytes store in one folder: the on-disk format of the item cache and
the LLM response cache.

Why not one file per entry: creating a file costs this machine's kernel ~0.8 ms of CPU when
64 threads do it at once (1.9 ms of system time per LLM call with its two cache entries, against
0.2 ms with no cache), which capped a 5,000-question run at ~200 calls/s. Appending a record is
one `write` of a few microseconds.

Layout: `<folder>/<pid>-<random>.seg`, one file per writing store object, so writers never
share a file. A record is a header (magic, key length, value length, CRC-32 of the value), the
key and the value, appended with one `os.write`. Opening a store maps every segment of the
folder and indexes its complete records: a record cut short by a kill -9, or still being
written by another process, runs past the end of the file and is left out; a damaged one fails
its CRC and reads as a miss. Segments are read in modification order and a later record of a
key wins, so a refreshed entry replaces the old one.

`SegmentStore.shared(folder)` is the process's one store of a folder: what one thread writes,
every other thread reads at once (two models' batches that run the same query find each other's
rows). `refresh()` indexes what other processes appended since; stage tasks call it when they
open their cache. `rm -rf` of the folder empties it.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import secrets
import struct
import threading
import weakref
import zlib
from typing import ClassVar

SUFFIX = ".seg"
_HEADER = struct.Struct("<4sHII")   # magic, key length, value length, CRC-32 of the value
_MAGIC = b"SEG1"


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


class SegmentStore:
    """Thread-safe; any number of stores (threads, processes, Dask workers) may share a folder."""

    _SHARED: ClassVar[dict[str, SegmentStore]] = {}
    _SHARED_LOCK = threading.Lock()

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = os.fspath(folder)
        # key -> (buffer, value offset, value length, CRC-32)
        self._index: dict[str, tuple[bytes | mmap.mmap, int, int, int]] = {}
        self._indexed: dict[str, int] = {}   # segment path -> bytes indexed so far
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._own: str | None = None
        self._pid = 0
        self.refresh()

    @classmethod
    def shared(cls, folder: str | os.PathLike[str]) -> SegmentStore:
        """This process's store of `folder`, refreshed with what others appended since."""
        path = os.path.abspath(os.fspath(folder))
        with cls._SHARED_LOCK:
            store = cls._SHARED.get(path)
            if store is None:
                store = cls._SHARED[path] = cls(path)
                return store
        store.refresh()
        return store

    def __len__(self) -> int:
        return len(self._index)

    def refresh(self) -> None:
        """Index the records appended to the folder's segments since the last look."""
        try:
            names = [n for n in os.listdir(self.folder) if n.endswith(SUFFIX)]
        except (FileNotFoundError, NotADirectoryError):
            return
        segments = []
        for name in names:
            path = os.path.join(self.folder, name)
            try:
                info = os.stat(path)
            except FileNotFoundError:
                continue
            if path != self._own and info.st_size > self._indexed.get(path, 0):
                segments.append((info.st_mtime_ns, path))
        with self._lock:
            for _, path in sorted(segments):
                self._index_segment(path)

    def _index_segment(self, path: str) -> None:
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size == 0:
                    return
                buffer = mmap.mmap(handle.fileno(), size, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return
        offset = self._indexed.get(path, 0)
        while offset + _HEADER.size <= size:
            magic, key_length, value_length, crc = _HEADER.unpack_from(buffer, offset)
            start = offset + _HEADER.size + key_length
            end = start + value_length
            if magic != _MAGIC or end > size:
                break
            key = buffer[offset + _HEADER.size:start].decode("utf-8", "replace")
            self._index[key] = (buffer, start, value_length, crc)
            offset = end
        self._indexed[path] = offset

    def get(self, key: str) -> bytes | None:
        """The value last stored under `key`, or None (missing or damaged)."""
        entry = self._index.get(key)
        if entry is None:
            return None
        buffer, start, length, crc = entry
        value = bytes(buffer[start:start + length])
        return value if zlib.crc32(value) == crc else None

    def put(self, key: str, value: bytes) -> None:
        encoded = key.encode("utf-8")
        crc = zlib.crc32(value)
        record = _HEADER.pack(_MAGIC, len(encoded), len(value), crc) + encoded + value
        with self._lock:
            fd = self._segment()
        # No lock around the write: one write() on an O_APPEND file lands whole and unmixed,
        # and holding a lock across the system call made 128 threads queue behind it.
        if os.write(fd, record) != len(record):
            raise OSError(f"{self.folder}: short write to a cache segment (disk full?)")
        self._index[key] = (record, len(record) - len(value), len(value), crc)

    def _segment(self) -> int:
        """This store's own segment, opened on the first write (again in a forked child, which
        must not append to its parent's file)."""
        if self._fd is None or self._pid != os.getpid():
            os.makedirs(self.folder, exist_ok=True)
            self._own = os.path.join(self.folder,
                                     f"{os.getpid()}-{secrets.token_hex(6)}{SUFFIX}")
            self._fd = os.open(self._own,
                               os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            self._pid = os.getpid()
            weakref.finalize(self, _close, self._fd)
        return self._fd


class OneFileLayout:
    """Where the earlier layout, one file per entry (`<folder>/<key[:2]>/<key><suffix>`), kept
    an entry; read-only, nothing writes it any more. Whether the folder has any such entries is
    looked up once, at the first miss: in a folder without them (everything written since),
    each miss would otherwise pay a failed open of a file that cannot exist."""

    def __init__(self, folder: str | os.PathLike[str], suffix: str) -> None:
        self.folder, self.suffix = os.fspath(folder), suffix
        self._present: bool | None = None

    def path(self, key: str) -> str | None:
        """The entry's file, or None when the folder holds no entries of this layout."""
        if self._present is None:
            self._present = self._has_entry_folders()
        return os.path.join(self.folder, key[:2], key + self.suffix) if self._present else None

    def _has_entry_folders(self) -> bool:
        try:
            with os.scandir(self.folder) as entries:
                return any(len(e.name) == 2 and e.is_dir() for e in entries)
        except (FileNotFoundError, NotADirectoryError):
            return False
