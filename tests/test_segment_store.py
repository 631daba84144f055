"""The caches' append-only store: whole records only, shared by threads and processes, a
record cut short by a kill left out, and the entries of the earlier one-file layout still read."""

from __future__ import annotations

import os
import pickle
import threading

from benchcore.item_cache import ItemCache
from benchcore.segment_store import SUFFIX, SegmentStore


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
