"""Two writers of one cache key: the same value twice is no conflict; different values are a
logged, counted conflict (never a silent winner), seen by the second writer, by the first when
it looks again, and by any store that opens the folder later. A refresh is no conflict."""

from __future__ import annotations

import logging
import pickle
import subprocess
import sys
from pathlib import Path

from benchcore.item_cache import ItemCache
from benchcore.segment_store import SegmentStore, conflict_counts
from dsgqa.records import LLMUsage, QueryOutcome, RefinedAnswer
from tests.conftest import PROJECT_ROOT


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "benchcore.cache" and r.levelno == logging.WARNING]


def test_the_same_value_twice_is_no_conflict(tmp_path: Path, caplog) -> None:
    first = SegmentStore(tmp_path)
    first.put("k", b"rows")
    second = SegmentStore(tmp_path)
    second.put("k", b"rows")
    first.refresh()
    assert not first.conflicts and not second.conflicts
    assert not SegmentStore(tmp_path).conflicts and not _warnings(caplog)


def test_a_second_writer_with_another_value_is_a_logged_conflict(tmp_path: Path,
                                                                  caplog) -> None:
    folder = tmp_path / "run-query"
    first = SegmentStore(folder)
    first.put("key-1", b"rows in one order")
    second = SegmentStore(folder)                   # sees the first writer's record
    second.put("key-1", b"rows in another order")
    assert second.conflicts == {"key-1"}
    (message,) = _warnings(caplog)
    assert str(folder) in message and "key-1" in message and "different values" in message
    assert conflict_counts()[str(folder)] == 1


def test_each_writer_and_every_later_reader_sees_the_conflict(tmp_path: Path, caplog) -> None:
    first, second = SegmentStore(tmp_path), SegmentStore(tmp_path)   # both open the empty folder
    first.put("k", b"one")
    second.put("k", b"two")                         # cannot know of the first one yet
    assert not second.conflicts
    first.refresh()                                 # the first writer looks again
    assert first.conflicts == {"k"}
    assert SegmentStore(tmp_path).conflicts == {"k"}    # a rerun opening the folder
    assert len(_warnings(caplog)) == 2


def test_a_refresh_replaces_without_a_conflict(tmp_path: Path, caplog) -> None:
    SegmentStore(tmp_path).put("k", b"old")
    refreshing = SegmentStore(tmp_path)
    refreshing.put("k", b"new", replace=True)
    later = SegmentStore(tmp_path)
    assert later.get("k") == b"new"
    assert not refreshing.conflicts and not later.conflicts and not _warnings(caplog)
    later.put("k", b"other")                        # an ordinary write over a replacement
    assert not later.conflicts


def _outcome(rows: list[list[int]], seconds: float) -> QueryOutcome:
    return QueryOutcome(uid="q1", backend="kuzu", cypher="MATCH (n) RETURN n.x", valid=True,
                        columns=["n.x"], rows=rows, seconds=seconds)


_WRITE_IN_A_CHILD = """
import pickle, sys
from benchcore.item_cache import ItemCache
ItemCache(sys.argv[1], "run-query").put("key", pickle.loads(bytes.fromhex(sys.argv[2])))
"""


def _write_in_another_process(root: Path, value: object) -> None:
    subprocess.run([sys.executable, "-c", _WRITE_IN_A_CHILD, str(root),
                    pickle.dumps(value).hex()], check=True, cwd=PROJECT_ROOT)


def test_item_cache_entries_of_two_processes(tmp_path: Path, caplog) -> None:
    """Two computations of one query differ in their timing: no conflict. Rows in another
    order (what engine order did before rows were canonical) are one."""
    _write_in_another_process(tmp_path / "same", _outcome([[1], [2]], seconds=0.1))
    cache = ItemCache(tmp_path / "same", "run-query")
    cache.put("key", _outcome([[1], [2]], seconds=0.7))
    assert not cache.conflicts and not _warnings(caplog)

    _write_in_another_process(tmp_path / "other", _outcome([[2], [1]], seconds=0.1))
    cache = ItemCache(tmp_path / "other", "run-query")
    cache.put("key", _outcome([[1], [2]], seconds=0.1))
    assert cache.conflicts == {"key"}
    assert "run-query" in _warnings(caplog)[0]


def test_a_reply_from_the_response_cache_is_the_same_result(tmp_path: Path) -> None:
    """A refine answer computed from a fresh call and one from the response cache differ in
    `usage.cached` and `seconds` only."""
    fresh = RefinedAnswer(uid="q", answer="3", raw_reply="3",
                          usage=LLMUsage(prompt_tokens=5, seconds=0.4, cached=False))
    cached = fresh.model_copy(update={"usage": LLMUsage(prompt_tokens=5, cached=True)})
    _write_in_another_process(tmp_path, fresh)
    cache = ItemCache(tmp_path, "run-query")
    cache.put("key", cached)
    assert not cache.conflicts
