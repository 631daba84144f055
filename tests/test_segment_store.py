"""The caches' append-only store: whole records only, shared by threads and processes, a
record cut short by a kill left out, and the entries of the earlier one-file layout still read."""

from __future__ import annotations

import os
import pickle
import threading

from benchcore.item_cache import ItemCache
from benchcore.segment_store import _HEADER, SUFFIX, SegmentStore


def test_round_trip_and_a_later_store_sees_it(tmp_path) -> None:
    store = SegmentStore(tmp_path / "stage")
    assert store.get("k") is None and len(store) == 0
    store.put("k", b"value")
    assert store.get("k") == b"value"
    assert SegmentStore(tmp_path / "stage").get("k") == b"value"


def test_a_later_record_replaces_the_earlier(tmp_path) -> None:
    first = SegmentStore(tmp_path)
    first.put("k", b"old")
    os.utime(next(tmp_path.glob(f"*{SUFFIX}")), ns=(1, 1))   # clearly older
    second = SegmentStore(tmp_path)
    second.put("k", b"new")
    second.put("k", b"newer")
    assert SegmentStore(tmp_path).get("k") == b"newer"


def test_threads_writing_at_once_leave_every_record_whole(tmp_path) -> None:
    store = SegmentStore(tmp_path)

    def write(i: int) -> None:
        for j in range(50):
            store.put(f"{i}-{j}", bytes([i]) * (1000 + j))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reopened = SegmentStore(tmp_path)
    assert len(reopened) == 16 * 50
    assert all(reopened.get(f"{i}-{j}") == bytes([i]) * (1000 + j)
               for i in range(16) for j in range(50))


def test_a_record_cut_short_or_damaged_is_a_miss(tmp_path) -> None:
    store = SegmentStore(tmp_path)
    store.put("whole", b"a" * 100)
    store.put("damaged", b"b" * 100)
    store.put("cut", b"c" * 100)
    segment = next(tmp_path.glob(f"*{SUFFIX}"))
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0xFF                           # inside "damaged"'s value
    segment.write_bytes(bytes(data[:-10]))                 # "cut" loses its end
    reopened = SegmentStore(tmp_path)
    assert reopened.get("whole") == b"a" * 100
    assert reopened.get("damaged") is None
    assert reopened.get("cut") is None


def test_a_forked_child_writes_its_own_segment(tmp_path) -> None:
    store = SegmentStore(tmp_path)
    store.put("parent", b"p")
    pid = os.fork()
    if pid == 0:
        store.put("child", b"c")
        os._exit(0)
    os.waitpid(pid, 0)
    assert len(list(tmp_path.glob(f"*{SUFFIX}"))) == 2
    reopened = SegmentStore(tmp_path)
    assert (reopened.get("parent"), reopened.get("child")) == (b"p", b"c")


def test_item_cache_reads_entries_of_the_one_file_layout(tmp_path) -> None:
    legacy = tmp_path / "stage" / "ab" / "abcd.pkl"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(pickle.dumps({"rows": [[1]]}))
    cache = ItemCache(tmp_path, "stage")
    assert cache.get("abcd") == {"rows": [[1]]}
    cache.put("ef01", [1, 2])
    assert ItemCache(tmp_path, "stage").get("ef01") == [1, 2]
    assert cache.get_or_none("9999") is None


def test_the_shared_store_sees_other_writers_after_a_refresh(tmp_path) -> None:
    shared = SegmentStore.shared(tmp_path)
    assert SegmentStore.shared(tmp_path) is shared
    shared.put("mine", b"1")
    other = SegmentStore(tmp_path)         # as another process would
    other.put("theirs", b"2")
    assert shared.get("theirs") is None
    assert SegmentStore.shared(tmp_path).get("theirs") == b"2"
    other.put("theirs", b"3")
    assert SegmentStore.shared(tmp_path).get("theirs") == b"3"
    assert shared.get("mine") == b"1"


def test_a_folder_without_one_file_entries_is_not_searched_for_them(tmp_path) -> None:
    from benchcore.segment_store import OneFileLayout

    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "x.seg").write_bytes(b"")
    assert OneFileLayout(tmp_path / "stage", ".pkl").path("abcd") is None
    assert OneFileLayout(tmp_path / "missing", ".pkl").path("abcd") is None
    (tmp_path / "stage" / "ab").mkdir()
    assert OneFileLayout(tmp_path / "stage", ".pkl").path("abcd") == \
        str(tmp_path / "stage" / "ab" / "abcd.pkl")


def _segments(folder) -> list:
    return sorted(folder.glob(f"*{SUFFIX}"))


def _written_and_ended(folder, records: dict[str, bytes], modified_ns: int | None = None) -> None:
    """A segment whose writer has ended (its store gone, so its lock released)."""
    store = SegmentStore(folder)
    for key, value in records.items():
        store.put(key, value)
    own = store._own
    del store                     # the finalizer closes the segment, releasing its lock
    if modified_ns is not None:
        os.utime(own, ns=(modified_ns, modified_ns))


def test_a_folder_of_many_idle_segments_is_merged_when_opened(tmp_path, monkeypatch) -> None:
    """Each mapped segment holds a descriptor: a year of nightly runs must not reach the
    process's limit. The merge keeps each key's winning record, and only those."""
    from benchcore import segment_store

    monkeypatch.setattr(segment_store, "MERGE_AT", 1000)
    for i in range(12):   # "k" rewritten in every segment: the newest segment's wins
        _written_and_ended(tmp_path, {f"only-{i}": bytes([i]) * 50, "k": b"v%d" % i},
                           modified_ns=(i + 1) * 10**9)
    # An older-modified segment written last: its "k" is older, it must not win.
    _written_and_ended(tmp_path, {"k": b"stale", "late": b"l"}, modified_ns=10**8)
    before = sum(p.stat().st_size for p in _segments(tmp_path))
    monkeypatch.setattr(segment_store, "MERGE_AT", 8)
    descriptors = len(os.listdir("/proc/self/fd"))
    merged = SegmentStore(tmp_path)
    assert len(_segments(tmp_path)) == 1
    assert _segments(tmp_path)[0].stat().st_mtime_ns == 12 * 10**9   # the newest replaced
    assert sum(p.stat().st_size for p in _segments(tmp_path)) < before  # superseded dropped
    for reader in (merged, SegmentStore(tmp_path)):
        assert reader.get("k") == b"v11" and reader.get("late") == b"l"
        assert all(reader.get(f"only-{i}") == bytes([i]) * 50 for i in range(12))
        assert len(reader) == 14
    del merged, reader
    reopened = SegmentStore(tmp_path)
    assert len(os.listdir("/proc/self/fd")) - descriptors <= 1   # one map for the folder
    assert reopened.get("k") == b"v11"


def test_a_live_writers_segment_is_not_merged_and_its_newer_records_still_win(
        tmp_path, monkeypatch) -> None:
    from benchcore import segment_store

    monkeypatch.setattr(segment_store, "MERGE_AT", 1000)
    for i in range(6):
        _written_and_ended(tmp_path, {f"old-{i}": b"o", "k": b"merged"},
                           modified_ns=(i + 1) * 10**9)
    live = SegmentStore(tmp_path)          # a writer still running, as another process
    live.put("k", b"live")                 # newer than every idle segment's "k"
    reader = SegmentStore(tmp_path)        # a long-lived reader that saw everything
    assert reader.get("k") == b"live"
    monkeypatch.setattr(segment_store, "MERGE_AT", 4)
    merging = SegmentStore(tmp_path)
    segments = _segments(tmp_path)
    assert len(segments) == 2 and live._own in {str(p) for p in segments}
    reader.refresh()                       # finds the merged segment: no older "k" wins
    for store in (merging, reader, SegmentStore(tmp_path)):
        assert store.get("k") == b"live"
        assert all(store.get(f"old-{i}") == b"o" for i in range(6))
    live.put("k", b"later")
    assert SegmentStore.shared(tmp_path).get("k") == b"later"


def test_a_store_that_finds_a_segment_gone_reads_the_folder_again(tmp_path, monkeypatch) -> None:
    """A segment merged away between a reader's listing and its read: the reader looks again
    and finds the merged one, instead of missing those entries."""
    from benchcore import segment_store

    monkeypatch.setattr(segment_store, "MERGE_AT", 1000)
    for i in range(5):
        _written_and_ended(tmp_path, {f"k{i}": b"%d" % i}, modified_ns=(i + 1) * 10**9)
    reader = SegmentStore.__new__(SegmentStore)
    listed = os.listdir

    def listing_then_merge(folder):
        names = listed(folder)
        if not getattr(listing_then_merge, "done", False):
            listing_then_merge.done = True
            monkeypatch.setattr(segment_store, "MERGE_AT", 2)
            SegmentStore(tmp_path)            # another store merges right after this listing
        return names

    monkeypatch.setattr(segment_store.os, "listdir", listing_then_merge)
    reader.__init__(tmp_path)
    assert len(_segments(tmp_path)) == 1          # the merge did happen under the reader
    assert [reader.get(f"k{i}") for i in range(5)] == [b"%d" % i for i in range(5)]


def test_segments_written_lately_are_not_merged(tmp_path, monkeypatch) -> None:
    """A writer on another machine, over a mount whose locks each machine keeps to itself,
    holds a lock nobody here sees: only segments left alone for an hour are merged."""
    from benchcore import segment_store

    monkeypatch.setattr(segment_store, "MERGE_AT", 1000)
    for i in range(4):
        _written_and_ended(tmp_path, {f"k{i}": b"x"})
    monkeypatch.setattr(segment_store, "MERGE_AT", 2)
    assert len(SegmentStore(tmp_path)) == 4 and len(_segments(tmp_path)) == 4


def test_without_file_locks_the_cache_still_works(tmp_path, monkeypatch) -> None:
    """Some network mounts refuse flock: writing works as before (one segment), unmerged."""
    import errno

    from benchcore import segment_store

    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(segment_store.fcntl, "flock", no_locks)
    store = SegmentStore(tmp_path)
    for i in range(5):
        store.put(f"k{i}", b"v")
    assert len(_segments(tmp_path)) == 1 and SegmentStore(tmp_path).get("k4") == b"v"


def test_a_later_write_elsewhere_wins_even_within_one_clock_tick(tmp_path) -> None:
    """A store's own records are stamped with its segment's modification time, the clock
    other processes' records are judged by, so a write made after it elsewhere wins."""
    mine, theirs = SegmentStore(tmp_path), SegmentStore(tmp_path)
    for i in range(20):
        mine.put(f"k{i}", b"mine")
        theirs.put(f"k{i}", b"theirs")
    mine.refresh()
    assert all(mine.get(f"k{i}") == b"theirs" for i in range(20))


def test_a_segment_read_again_as_it_grows_keeps_one_map(tmp_path) -> None:
    """Each map holds a descriptor: a long-lived reader of a segment another process keeps
    writing must not keep one per look."""
    writer, reader = SegmentStore(tmp_path), SegmentStore(tmp_path)
    writer.put("first", b"1")
    reader.refresh()
    descriptors = len(os.listdir("/proc/self/fd"))
    for i in range(50):
        writer.put(f"k{i}", b"%d" % i)
        reader.refresh()
    assert len(os.listdir("/proc/self/fd")) <= descriptors
    assert reader.get("first") == b"1" and reader.get("k49") == b"49"


def test_a_segment_ending_in_a_cut_record_is_read_again_only_when_it_grows(tmp_path) -> None:
    """Re-reading it at every refresh would map it (a descriptor) and walk the index anew."""
    writer = SegmentStore(tmp_path)
    writer.put("whole", b"w")
    with open(writer._own, "ab") as segment:
        segment.write(b"SEG1\x05")                     # a header cut short by a kill
    reader = SegmentStore(tmp_path)
    mapped = reader._index["whole"][0]
    reader.refresh()
    assert reader._index["whole"][0] is mapped and reader.get("whole") == b"w"


def test_a_refresh_beside_writing_threads_never_fails(tmp_path) -> None:
    """Another process's segment grows while this process's batches write: the refresh must
    not walk the index the writers are adding to."""
    other = SegmentStore(tmp_path)
    for i in range(100_000):
        other.put(f"o{i}", b"v")
    mine = SegmentStore(tmp_path)
    stop, errors = threading.Event(), []

    def write() -> None:
        i = 0
        while not stop.is_set():
            mine.put(f"m{i}", b"x")
            i += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for i in range(30):
            other.put(f"later{i}", b"v")
            try:
                mine.refresh()
            except Exception as error:   # what the test looks for
                errors.append(repr(error))
    finally:
        stop.set()
        writer.join()
    assert errors == []
    assert mine.get("later29") == b"v" and mine.get("o99999") == b"v" and mine.get("m0") == b"x"


def test_no_merge_while_a_segment_cannot_be_read(tmp_path, monkeypatch) -> None:
    """A segment this store could not map might hold a newer record of a key it would merge."""
    import mmap as mmap_module

    from benchcore import segment_store

    monkeypatch.setattr(segment_store, "MERGE_AT", 1000)
    for i in range(6):
        _written_and_ended(tmp_path, {f"k{i}": b"v"}, modified_ns=(i + 1) * 10**9)
    unmappable = str(_segments(tmp_path)[0])
    real_mmap = mmap_module.mmap

    class FailingFor(real_mmap):
        def __new__(cls, fd, *args, **kwargs):
            if os.readlink(f"/proc/self/fd/{fd}") == unmappable:
                raise OSError(24, "Too many open files")
            return real_mmap(fd, *args, **kwargs)

    monkeypatch.setattr(segment_store.mmap, "mmap", FailingFor)
    monkeypatch.setattr(segment_store, "MERGE_AT", 4)
    store = SegmentStore(tmp_path)
    assert len(_segments(tmp_path)) == 6 and len(store) == 5


def _cut_one_write(monkeypatch, keep: int | None = None) -> None:
    """The next write to a segment lands only in part (a full disk), as `os.write` reports."""
    from benchcore import segment_store

    real_write, cut = os.write, []

    def write(fd: int, data: bytes) -> int:
        if not cut:
            cut.append(fd)
            return real_write(fd, data[: len(data) // 2 if keep is None else keep])
        return real_write(fd, data)

    monkeypatch.setattr(segment_store.os, "write", write)


def test_a_write_cut_short_loses_only_its_own_record(tmp_path, monkeypatch) -> None:
    """After a short write the writer goes on appending; a later reader must find every later
    record, whether the cut record's header claims more bytes than follow it or fewer."""
    import pytest

    for later, value in ((50, b"v" * 200), (2, b"v" * 5000)):
        folder = tmp_path / f"after-{later}"
        store = SegmentStore(folder)
        store.put("before", b"b")
        _cut_one_write(monkeypatch)
        with pytest.raises(OSError, match="short write"):
            store.put("cut", value)
        for i in range(later):
            store.put(f"later{i}", b"%d" % i * 50)
        monkeypatch.undo()
        reopened = SegmentStore(folder)
        assert reopened.get("cut") is None and reopened.get("before") == b"b"
        assert [reopened.get(f"later{i}") for i in range(later)] == [
            b"%d" % i * 50 for i in range(later)]


def test_a_damaged_record_mid_segment_does_not_hide_the_ones_after_it(tmp_path) -> None:
    store = SegmentStore(tmp_path)
    store.put("first", b"1" * 100)
    store.put("damaged", b"d" * 100)
    for i in range(20):
        store.put(f"later{i}", b"l" * 100)
    segment = next(tmp_path.glob(f"*{SUFFIX}"))
    data = bytearray(segment.read_bytes())
    header = data.index(b"damaged") - _HEADER.size
    data[header + 6:header + 10] = (10**6).to_bytes(4, "little")   # value length: past the end
    segment.write_bytes(bytes(data))
    reopened = SegmentStore(tmp_path)
    assert reopened.get("damaged") is None and reopened.get("first") == b"1" * 100
    assert all(reopened.get(f"later{i}") == b"l" * 100 for i in range(20))
