"""An append-only key -> bytes store in one folder: the on-disk format of the item cache and
the LLM response cache.

Why not one file per entry: creating a file costs this machine's kernel ~0.8 ms of CPU when
64 threads do it at once (1.9 ms of system time per LLM call with its two cache entries, against
0.2 ms with no cache), which capped a 5,000-question run at ~200 calls/s. Appending a record is
one `write` of a few microseconds.

Layout: `<folder>/<pid>-<random>.seg`, one file per writing store object, so writers never
share a file. A record is a header (magic, key length, value length, CRC-32 of the value), the
key and the value, appended with one `os.write`. Opening a store maps every segment of the
folder and indexes its whole records: a record cut short by a kill -9, or still being written
by another process, runs past the end of the file and is left out until the file grows; a
damaged one reads as a miss (`get` checks the value's CRC).

Resynchronising: a write cut short in the middle of a segment (a full disk: `os.write` wrote
part of a record and the writer went on appending) leaves a record whose header claims bytes
that belong to the records after it. Following that length would lose every later record of
the segment (LLM calls paid again). So a record is taken as it stands only when the next
record's magic (or the end of the file) follows it; otherwise its value's CRC decides, and a
record whose header is not a record's, or whose CRC fails, is skipped by searching forward
for the next header that starts a whole record with a matching CRC: only the cut record is
lost. (A CRC-32 match at a false header, inside a value, is a 1 in 4 billion chance at each
candidate. A cut record whose claimed length happens to end exactly where a later record
starts still hides the records in between; its own value fails the CRC at `get`.) The CRC is
not checked for every record as it is indexed: that made opening 40,000 records (99 MB)
0.2-0.5 s instead of 0.2 s here, on every open of a cache.

A record replaces an indexed one of its key only if its segment is at least as recently
modified (a store's own writes count as made when written), so a refreshed entry replaces the
old one whatever order the segments are found in.

Merging: every process that writes leaves a segment behind, and each mapped segment holds a
file descriptor, so a cache used by a nightly run for a year (several segments a run) would
pass a process's usual limit of 1,024 descriptors, and segments that could no longer be mapped
would read as misses: LLM calls paid again. A store that opens a folder of `MERGE_AT` or more
segments merges the idle ones (no live writer: each writer holds an exclusive `flock` on its
own segment while it has it open; and left alone for `MERGE_IDLE_S`, for writers on other
machines whose locks are not seen here) into one, keeping only the record that wins for each
key, and removes them. The merged segment takes the newest modification time of those it
replaces, and holds only keys whose winner was among them, so no record of a live segment
loses to an older one that was merged. Maps already made of removed segments stay valid.
Where the file system has no locks, writing works as before and nothing is merged. A
finished-run record (`finished_runs`) names the segments its run left, so after a merge its
rerun goes through the item cache instead of being reused as it was.

Conflicts: a key is written by one computation of its inputs, so two records of a key from two
writers (two processes, two Dask workers, or machines sharing the folder, each of which
computed the key before it could see the other's record) should hold the same value. When
they do not, whichever is newer wins, and a rerun's result then depends on which writer
happened to finish last: a silent change of verdicts. So a store that sees two such records
with different values (at `put`, when its index already holds another writer's record of the
key; or when it indexes a record of a key it already holds from another segment) logs a
warning naming the folder (the stage) and the key, and counts it (`conflicts`,
`conflict_counts`). "Different" is the owner's to say (`same`: the item cache leaves out
timings and whether a reply came from the response cache, which differ between equal
computations); without it, different bytes. A deliberate rewrite (`put(..., replace=True)`: a
`--refresh`) is written as a replacement record and is no conflict with what it replaces,
for this store or any that reads it later. (Code from before replacement records stops
reading a segment at the first one: its later records are misses there, never wrong values.)

`SegmentStore.shared(folder)` is the process's one store of a folder: what one thread writes,
every other thread reads at once (two models' batches that run the same query find each other's
rows). `refresh()` indexes what other processes appended since; stage tasks call it when they
open their cache. `rm -rf` of the folder empties it.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import mmap
import os
import secrets
import struct
import threading
import time
import weakref
import zlib
from collections import Counter
from collections.abc import Callable
from typing import ClassVar

SUFFIX = ".seg"
MERGE_AT = 32   # segments in a folder at which an opening store merges the idle ones
# Only segments left alone this long are merged: a writer on another machine sharing the
# folder over a mount whose locks are local to each machine holds a lock nobody here sees.
MERGE_IDLE_S = 3600
_MERGING = ".merging"
_READ, _VANISHED, _UNREADABLE = "read", "vanished", "unreadable"
_HEADER = struct.Struct("<4sHII")   # magic, key length, value length, CRC-32 of the value
_MAGIC = b"SEG1"
_REPLACING = b"SEGR"   # the same record, written on purpose over an earlier value of its key
_MAGICS = (_MAGIC, _REPLACING)
_MAGIC_STEM = b"SEG"   # what both magics start with: where a search for the next record looks
_LOG = logging.getLogger("benchcore.cache")
# folder -> keys seen written with different values, in this process
_CONFLICTS: Counter[str] = Counter()
_CONFLICTS_LOCK = threading.Lock()
Same = Callable[[bytes, bytes], bool]


def conflict_counts() -> dict[str, int]:
    """Folder -> how many keys this process saw written with different values there."""
    with _CONFLICTS_LOCK:
        return dict(_CONFLICTS)


class _Mapped:
    """A segment's current map. Its index entries point here, so when the segment has grown
    and is mapped again, one assignment moves them all to the new map and the old one (a file
    descriptor) is let go, with no walk over the index."""

    __slots__ = ("map",)

    def __init__(self, buffer: mmap.mmap) -> None:
        self.map = buffer


def _record(key: str, value: bytes, crc: int, replacing: bool = False) -> bytes:
    """One record as a segment holds it: header, key, value."""
    encoded = key.encode("utf-8")
    magic = _REPLACING if replacing else _MAGIC
    return _HEADER.pack(magic, len(encoded), len(value), crc) + encoded + value


def _whole_record(buffer: mmap.mmap, offset: int, size: int) -> tuple[int, int] | None:
    """(value start, value end) of the record at `offset` when it is whole: a record's magic,
    inside the file, its value's CRC-32 matching; else None."""
    magic, key_length, value_length, crc = _HEADER.unpack_from(buffer, offset)
    start = offset + _HEADER.size + key_length
    end = start + value_length
    if magic not in _MAGICS or end > size:
        return None
    with memoryview(buffer) as view, view[start:end] as value:
        if zlib.crc32(value) != crc:
            return None
    return start, end


def _next_whole_record(buffer: mmap.mmap, offset: int, size: int) -> int | None:
    """Where the first whole record (CRC checked) at or after `offset` starts, or None."""
    while True:
        offset = buffer.find(_MAGIC_STEM, offset, size)
        if offset < 0 or offset + _HEADER.size > size:
            return None
        if _whole_record(buffer, offset, size) is not None:
            return offset
        offset += 1


def _writer(path: str) -> str:
    """A record's writer as a log line names it: its segment, or this process."""
    return f"segment {os.path.basename(path)}" if path else "this process"


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


class SegmentStore:
    """Thread-safe; any number of stores (threads, processes, Dask workers) may share a folder."""

    _SHARED: ClassVar[dict[str, SegmentStore]] = {}
    _SHARED_LOCK = threading.Lock()

    def __init__(self, folder: str | os.PathLike[str], same: Same | None = None) -> None:
        self.folder = os.fspath(folder)
        self._same = same
        # keys whose indexed record is a replacement (no conflict with the records it replaced)
        self._replacing: set[str] = set()
        self.conflicts: set[str] = set()   # keys seen written with different values
        # key -> (its segment's map, or the record itself for this store's own writes; value
        # offset, value length, CRC-32, when its segment was modified, the segment's path: ""
        # for this store's own writes)
        self._index: dict[str, tuple[_Mapped | bytes, int, int, int, int, str]] = {}
        self._mapped: dict[str, _Mapped] = {}
        self._unreadable: set[str] = set()   # segments that could not be mapped at last look
        self._indexed: dict[str, int] = {}   # segment path -> bytes indexed so far
        # segment path -> its size when last read: a segment ending in a record cut short by
        # a kill is read again only when it grows, not at every refresh
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._own: str | None = None
        self._pid = 0
        self.refresh()
        if len(self._indexed) >= MERGE_AT:
            with contextlib.suppress(OSError):   # a folder that cannot be merged still works
                self._merge_idle_segments()

    @classmethod
    def shared(cls, folder: str | os.PathLike[str], same: Same | None = None) -> SegmentStore:
        """This process's store of `folder`, refreshed with what others appended since.
        `same`: how its owner compares two values of a key (the first opener's is kept)."""
        path = os.path.abspath(os.fspath(folder))
        with cls._SHARED_LOCK:
            store = cls._SHARED.get(path)
            if store is None:
                store = cls._SHARED[path] = cls(path, same)
                return store
        store.refresh()
        return store

    def __len__(self) -> int:
        return len(self._index)

    def refresh(self) -> None:
        """Index the records appended to the folder's segments since the last look. A segment
        that vanished meanwhile was merged by another store: the folder is read again, to find
        the merged one."""
        for _ in range(3):
            if not self._refresh_once():
                return

    def _refresh_once(self) -> bool:
        """One look at the folder; True when a segment vanished before it could be read."""
        try:
            names = [n for n in os.listdir(self.folder) if n.endswith(SUFFIX)]
        except (FileNotFoundError, NotADirectoryError):
            return False
        segments, vanished = [], False
        for name in names:
            path = os.path.join(self.folder, name)
            try:
                info = os.stat(path)
            except FileNotFoundError:
                vanished = True
                continue
            if path != self._own and info.st_size > self._seen.get(path, 0):
                segments.append((info.st_mtime_ns, path))
        with self._lock:
            for modified, path in sorted(segments):
                result = self._index_segment(path, modified)
                vanished |= result == _VANISHED
                if result == _UNREADABLE:
                    self._unreadable.add(path)
                else:
                    self._unreadable.discard(path)
        return vanished

    def _index_segment(self, path: str, modified: int) -> str:
        """Index the segment's records past what was indexed before: `_READ`, `_VANISHED`, or
        `_UNREADABLE` (it could not be mapped: its records read as misses for now)."""
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size == 0:
                    return _READ
                buffer = mmap.mmap(handle.fileno(), size, access=mmap.ACCESS_READ)
        except FileNotFoundError:
            return _VANISHED
        except (OSError, ValueError):
            return _UNREADABLE
        mapped = self._mapped.get(path)
        if mapped is None:
            mapped = self._mapped[path] = _Mapped(buffer)
        else:
            mapped.map = buffer   # it grew: the new map covers the earlier entries too
        offset = self._indexed.get(path, 0)
        while offset + _HEADER.size <= size:
            magic, key_length, value_length, crc = _HEADER.unpack_from(buffer, offset)
            start = offset + _HEADER.size + key_length
            end = start + value_length
            # The common case inline (a function call per record is a tenth of the open):
            # a record followed by the next one's magic or the end of the file.
            if magic not in _MAGICS or end > size or (
                    size - end >= _HEADER.size and buffer[end:end + 4] not in _MAGICS
                    and _whole_record(buffer, offset, size) is None):
                # Not a whole record here: a cut or damaged one (skip to the next whole one),
                # or the last one, still being written (read again when the file grows).
                following = _next_whole_record(buffer, offset + 1, size)
                if following is None:
                    break
                _LOG.warning("cache segment %s: skipped %d bytes of a damaged or cut record "
                             "at byte %d", path, following - offset, offset)
                offset = following
                continue
            key = buffer[offset + _HEADER.size:start].decode("utf-8", "replace")
            known = self._index.get(key)
            replacing = magic == _REPLACING
            if known is not None and known[5] != path and (known[2], known[3]) != (
                    value_length, crc) and not replacing and key not in self._replacing:
                self._check_conflict(key, known, buffer[start:end], crc, path)
            if known is None or known[4] <= modified:
                self._index[key] = (mapped, start, value_length, crc, modified, path)
                if replacing:
                    self._replacing.add(key)
                else:
                    self._replacing.discard(key)
            offset = end
        self._indexed[path], self._seen[path] = offset, size
        return _READ

    def get(self, key: str) -> bytes | None:
        """The value last stored under `key`, or None (missing or damaged)."""
        entry = self._index.get(key)
        if entry is None:
            return None
        buffer, start, length, crc, _, _ = entry
        if buffer.__class__ is _Mapped:
            buffer = buffer.map
        value = bytes(buffer[start:start + length])
        return value if zlib.crc32(value) == crc else None

    def put(self, key: str, value: bytes, replace: bool = False) -> None:
        """Append `value` under `key`. `replace`: written on purpose over the key's earlier
        value (a refresh), so no conflict with it."""
        crc = zlib.crc32(value)
        record = _record(key, value, crc, replace)
        known = self._index.get(key)
        if known is not None and not replace and known[5] and (known[2], known[3]) != (
                len(value), crc) and key not in self._replacing:
            with self._lock:
                self._check_conflict(key, known, value, crc, "")
        with self._lock:
            fd = self._segment()
        # No lock around the write: one write() on an O_APPEND file lands whole and unmixed,
        # and holding a lock across the system call made 128 threads queue behind it.
        if os.write(fd, record) != len(record):
            raise OSError(f"{self.folder}: short write to a cache segment (disk full?)")
        # Stamped as other processes will see it (the file's modification time, from the
        # kernel's coarse clock), so a later write of the key elsewhere is not beaten by a
        # finer clock's reading of an earlier moment.
        self._index[key] = (record, len(record) - len(value), len(value), crc,
                            os.fstat(fd).st_mtime_ns, "")
        if replace:
            self._replacing.add(key)
        else:
            self._replacing.discard(key)

    def _check_conflict(self, key: str, known: tuple[_Mapped | bytes, int, int, int, int, str],
                        other: bytes, crc: int, other_path: str) -> None:
        """Log and count a conflict when the indexed record of `key` (`known`) and another
        writer's value (`other`, with its CRC-32, from `other_path`: "" for this store's own
        write) differ by the owner's `same`. Called with the lock held."""
        if key in self.conflicts:
            return
        buffer, start, length, known_crc, _, path = known
        if buffer.__class__ is _Mapped:
            buffer = buffer.map
        value = bytes(buffer[start:start + length])
        if zlib.crc32(value) != known_crc or zlib.crc32(other) != crc:
            return   # a damaged record is a miss, not a value
        try:
            same = self._same(value, other) if self._same is not None else value == other
        except Exception:   # an owner that cannot read one of them: no value to weigh
            return
        if same:
            return
        self.conflicts.add(key)
        with _CONFLICTS_LOCK:
            _CONFLICTS[self.folder] += 1
            total = sum(_CONFLICTS.values())
        _LOG.warning(
            "cache conflict in %s: key %s was written with different values by two writers "
            "(%s, %s); the newer is used, so a rerun may not repeat this run's result "
            "(%d conflicting key(s) seen by this process)", self.folder, key,
            _writer(path), _writer(other_path), total)

    def _segment(self) -> int:
        """This store's own segment, opened on the first write (again in a forked child, which
        must not append to its parent's file), and locked for as long as it is open: a
        merging store leaves a locked segment alone. Empty until locked, and an empty segment
        is never merged, so no merge can take it between its creation and its lock."""
        if self._fd is None or self._pid != os.getpid():
            os.makedirs(self.folder, exist_ok=True)
            self._own = os.path.join(self.folder,
                                     f"{os.getpid()}-{secrets.token_hex(6)}{SUFFIX}")
            self._fd = os.open(self._own,
                               os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            self._pid = os.getpid()
            weakref.finalize(self, _close, self._fd)
            # A file system without locks (some network mounts): the cache works as before,
            # and nothing is merged there, since a merging store cannot lock either.
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return self._fd

    def _merge_idle_segments(self) -> None:
        """Merge the segments no live writer holds into one (see the module docstring). Run
        when the store opens, before it has a segment of its own."""
        _remove_abandoned_merges(self.folder)
        idle: dict[str, int] = {}   # path -> its descriptor, locked
        old_enough = time.time_ns() - MERGE_IDLE_S * 10**9
        try:
            for path in sorted(self._indexed):
                try:
                    fd = os.open(path, os.O_RDWR)   # network locks want a writable file
                except OSError:
                    continue
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    if os.fstat(fd).st_mtime_ns > old_enough:
                        raise BlockingIOError   # written lately: maybe not done yet
                except OSError:   # a live writer's, or locks do not work here
                    os.close(fd)
                    continue
                idle[path] = fd
            if len(idle) < 2 or self._unreadable:
                return   # (a segment this store could not read might hold a newer record)
            # What the idle segments' writers appended before they ended; all of it must be
            # read, or the merge would drop what could not be.
            with self._lock:
                for path, fd in idle.items():
                    if self._index_segment(path, os.fstat(fd).st_mtime_ns) != _READ:
                        return
            self._write_merged(idle)
        finally:
            for fd in idle.values():
                os.close(fd)

    def _write_merged(self, idle: dict[str, int]) -> None:
        newest = max(os.fstat(fd).st_mtime_ns for fd in idle.values())
        name = f"{os.getpid()}-{secrets.token_hex(6)}"
        scratch = os.path.join(self.folder, name + _MERGING)
        try:
            with open(scratch, "wb") as out:
                for key, (_, _, _, crc, _, path) in list(self._index.items()):
                    if path not in idle:
                        continue        # its winner is in a live segment, which stays
                    value = self.get(key)
                    if value is not None:   # a damaged record stays a miss
                        out.write(_record(key, value, crc, key in self._replacing))
            os.utime(scratch, ns=(newest, newest))
            merged = os.path.join(self.folder, name + SUFFIX)
            os.replace(scratch, merged)   # in place before the old ones go: a reader finds one
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(scratch)
            raise
        for path in idle:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            self._indexed.pop(path, None)
            self._seen.pop(path, None)
            self._mapped.pop(path, None)
        # Read the merged segment: its records win over the idle ones' (same values, newest
        # time), so the maps of the removed segments are let go.
        with self._lock:
            self._index_segment(merged, newest)


def _remove_abandoned_merges(folder: str) -> None:
    """Scratch files of merges that were killed part way (a merge takes seconds)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(_MERGING) and \
                    entry.stat().st_mtime < time.time() - MERGE_IDLE_S:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


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
