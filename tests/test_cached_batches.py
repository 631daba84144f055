"""A fully cached batch is read in one pass by one thread, item by item from the item cache,
and hands Prefect a sequence it does not walk; a fresh batch starts computing before all its
keys are made; what is missing, failed or refreshed is still
computed per item. The question set is parsed once per file content."""

from __future__ import annotations

import os
import pickle
import threading

from prefect.utilities.collections import visit_collection

from benchcore import progress
from benchcore.batch import Outcome, Outcomes, run_items
from benchcore.item_cache import ItemCache
from dsgqa import questions as questions_module
from dsgqa.questions import load_question_set, shared_question_set


def _batch(cache: ItemCache, compute, refresh: bool = False, workers: int = 4) -> list[Outcome]:
    return run_items("stage", ["a", "b", "c"], uid_of=str, key_of=lambda item: f"k-{item}",
                     compute=compute, cache=cache, workers=workers, refresh=refresh)


def test_a_cached_batch_is_read_without_computing_and_a_refresh_recomputes(tmp_path) -> None:
    cache = ItemCache(tmp_path, "stage")
    first = _batch(cache, compute=str.upper)
    assert [o.value for o in first] == ["A", "B", "C"] and not any(o.from_cache for o in first)

    threads: set[int] = set()
    events: list[tuple[str, int]] = []
    stop = progress.listen(lambda event, stage, count: events.append((event, count)))
    try:
        def never(item: str) -> str:
            threads.add(threading.get_ident())
            raise AssertionError("a cached item was computed")

        again = _batch(cache, compute=never)
    finally:
        stop()
    assert [(o.uid, o.value, o.from_cache) for o in again] == [
        ("a", "A", True), ("b", "B", True), ("c", "C", True)]
    assert not threads
    assert events == [("started", 3), ("advanced", 3)]

    refreshed = _batch(cache, compute=lambda item: item * 2, refresh=True)
    assert [(o.value, o.from_cache) for o in refreshed] == [("aa", False), ("bb", False),
                                                           ("cc", False)]
    assert [o.value for o in _batch(cache, compute=str.upper)] == ["aa", "bb", "cc"]


def test_a_fresh_batch_starts_computing_before_all_its_keys_are_made(tmp_path) -> None:
    """Keys are made as the workers need their next item: an LLM stage whose 5,000 keys were
    made up front had no call in flight for its first 0.12 s."""
    import time

    log: list[tuple[str, int]] = []

    def key_of(item: int) -> str:
        log.append(("key", item))
        return f"k-{item}"

    def compute(item: int) -> int:
        log.append(("compute", item))
        time.sleep(0.002)
        return item * 2

    items = list(range(200))
    done = run_items("stage", items, uid_of=str, key_of=key_of, compute=compute,
                     cache=ItemCache(tmp_path, "stage"), workers=4)
    assert [o.value for o in done] == [2 * i for i in items]
    assert log.index(("compute", 0)) < log.index(("key", 199))
    assert sorted(i for kind, i in log if kind == "key") == items   # one key per item


def test_only_missing_and_failed_items_are_computed_in_item_order(tmp_path) -> None:
    cache = ItemCache(tmp_path, "stage")

    def flaky(item: str) -> str:
        if item == "b":
            raise RuntimeError("server said no")
        return item.upper()

    first = _batch(cache, compute=flaky)
    assert [o.ok for o in first] == [True, False, True]
    computed: list[str] = []

    def count(item: str) -> str:
        computed.append(item)
        return item.upper()

    second = _batch(cache, compute=count)
    assert computed == ["b"]
    assert [(o.uid, o.value, o.from_cache) for o in second] == [
        ("a", "A", True), ("b", "B", False), ("c", "C", True)]


def test_a_one_worker_batch_runs_in_the_calling_thread_in_order() -> None:
    seen: list[tuple[str, int]] = []

    def compute(item: str) -> str:
        seen.append((item, threading.get_ident()))
        return item

    done = run_items("compare", ["x", "y", "z"], uid_of=str, key_of=lambda item: "",
                     compute=compute, cache=None, workers=1)
    assert [o.value for o in done] == ["x", "y", "z"]
    assert seen == [(item, threading.get_ident()) for item in "xyz"]


def test_outcomes_are_a_sequence_prefect_leaves_whole() -> None:
    items = [Outcome(uid=f"q{i}", value=i) for i in range(5)]
    batch = Outcomes(items)
    assert len(batch) == 5 and batch[1] == items[1] and batch[1:3] == items[1:3]
    assert list(batch) == items and batch == items and batch == Outcomes(items)
    assert pickle.loads(pickle.dumps(batch)) == batch

    visited: list[object] = []
    visit_collection(batch, visit_fn=visited.append, max_depth=1)
    assert visited == [batch]      # as Prefect links a task's result: the batch, not each item
    visited.clear()
    visit_collection(items, visit_fn=visited.append, max_depth=1)
    assert len(visited) == 6


QUESTIONS = """questions:
  - uid: q1
    question: How many chairs are there?
    solution: "4"
    correctness_comparator: {comparison_type: SLDP}
"""


def test_the_question_set_is_parsed_once_per_file_content(tmp_path) -> None:
    path = tmp_path / "questions.yaml"
    path.write_text(QUESTIONS)
    first = shared_question_set(path)
    assert shared_question_set(path) is first
    assert first == load_question_set(path)

    # An edit of the same size within the same mtime is still seen: the key is the text.
    stat = path.stat()
    path.write_text(QUESTIONS.replace('"4"', '"5"'))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    edited = shared_question_set(path)
    assert edited is not first and edited.questions[0].solution == "5"


def test_a_question_set_fingerprint_is_remembered_and_right(tmp_path) -> None:
    path = tmp_path / "questions.yaml"
    path.write_text(QUESTIONS)
    one, other = load_question_set(path), load_question_set(path)
    assert one.fingerprint() == one.fingerprint() == other.fingerprint()
    assert questions_module._SET_FINGERPRINTS[id(one)][1] == one.fingerprint()
    changed = load_question_set(path).model_copy(update={"questions": ()})
    assert changed.fingerprint() != one.fingerprint()


def test_a_value_not_kept_is_used_now_marked_unsettled_and_computed_again(tmp_path) -> None:
    cache = ItemCache(tmp_path, "stage")
    timed_out = {"b"}

    def compute(item: str) -> str:
        return "timed out" if item in timed_out else item.upper()

    def batch() -> list[Outcome]:
        return run_items("stage", ["a", "b"], uid_of=str, key_of=lambda item: f"k-{item}",
                         compute=compute, cache=cache, keep=lambda value: value != "timed out")

    first = batch()
    assert [(o.value, o.settled) for o in first] == [("A", True), ("timed out", False)]
    timed_out.clear()
    again = batch()
    assert [(o.value, o.settled, o.from_cache) for o in again] == [
        ("A", True, True), ("B", True, False)]


def test_a_reference_query_not_kept_leaves_the_item_unsettled() -> None:
    from dsgqa.records import QueryOutcome
    from dsgqa.stage_batches import with_execution_matches

    def outcome(uid: str, rows: list, settled: bool = True) -> Outcome:
        return Outcome(uid=uid, settled=settled, value=QueryOutcome(
            uid=uid, backend="kuzu", cypher="", valid=True, columns=["n"], rows=rows))

    def run_references(attempts: list[Outcome]) -> list[Outcome]:
        # q1's reference ran; q2's timed out under load (used, not kept).
        return [outcome("q1", [[1]]) if a.uid == "q1" else
                Outcome(uid="q2", settled=False, value=QueryOutcome(
                    uid="q2", backend="kuzu", cypher="", valid=False,
                    error="query timed out after 10 s")) for a in attempts]

    done = with_execution_matches([outcome("q1", [[1]]), outcome("q2", [[2]])], run_references,
                                  {"q1": "RETURN 1 AS n", "q2": "RETURN 2 AS n"})
    assert [(o.value.execution_match, o.settled) for o in done] == [(True, True), (None, False)]


def test_a_timeout_of_any_engine_or_a_failed_query_path_is_not_kept() -> None:
    from dsgqa.records import QueryOutcome
    from dsgqa.stage_batches import keep_query

    def failed(error: str, kind: str) -> QueryOutcome:
        return QueryOutcome(uid="q", backend="neo4j", cypher="MATCH (n) RETURN n", valid=False,
                            error=error, query_error_kind=kind)

    assert not keep_query(failed("query timed out after 10 s", "timeout"))          # Kuzu
    assert not keep_query(failed("Neo.ClientError.Transaction.TransactionTimedOut: "
                                 "the transaction has been terminated", "timeout"))  # Neo4j
    assert not keep_query(failed("run-query: GraphStoreError: transient database error",
                                 "runtime"))               # the agent's tool, path failed
    assert keep_query(failed("Parser exception: invalid input", "syntax"))   # the model's fault
    assert keep_query(QueryOutcome(uid="q", backend="kuzu", cypher="RETURN 1", valid=True))
