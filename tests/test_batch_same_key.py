"""Items with the same inputs share one computation, also across two batches at once (two
models writing the same query): a query's rows come in one order for the whole run, so a rerun
finds every entry made from them."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from benchcore.batch import run_items
from benchcore.item_cache import ItemCache


def test_items_with_one_key_are_computed_once_across_batches(tmp_path) -> None:
    calls: list[str] = []
    lock = threading.Lock()

    def compute(item: str) -> str:
        with lock:
            calls.append(item)
            order = len(calls)
        time.sleep(0.05)
        return f"rows in order {order}"

    def batch(cache: ItemCache) -> list:
        return run_items("run-query", ["a", "b", "c"], uid_of=str, key_of=lambda item: "same",
                         compute=compute, cache=cache, workers=3)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(batch, [ItemCache(tmp_path, "q"), ItemCache(tmp_path, "q")]))
    outcomes = [o for result in results for o in result]
    assert len(calls) == 1
    assert {o.value for o in outcomes} == {"rows in order 1"}
    assert sum(not o.from_cache for o in outcomes) == 1


def test_refresh_recomputes_and_distinct_keys_run_side_by_side(tmp_path) -> None:
    cache = ItemCache(tmp_path, "q")
    cache.put("k0", "old")
    together = threading.Barrier(4, timeout=30)   # breaks unless all 4 items run at once

    def compute(i: int) -> str:
        together.wait()
        return f"new {i}"

    outcomes = run_items("s", [0, 1, 2, 3], uid_of=str, key_of=lambda i: f"k{i}",
                         compute=compute, cache=cache, workers=4, refresh=True)
    assert [o.value for o in outcomes] == ["new 0", "new 1", "new 2", "new 3"]
    assert ItemCache(tmp_path, "q").get("k0") == "new 0"


def test_a_batch_keeps_item_order_and_stops_taking_items_once_one_raises() -> None:
    """The worker threads return results in item order; an exception that escapes an item
    (run_items catches item errors, so this is a fault of the batch itself, or an interrupt)
    reaches the caller, and the workers take no further items."""
    from benchcore.batch import _each

    assert _each(lambda n: n * n, list(range(50)), workers=8) == [n * n for n in range(50)]
    started: list[int] = []

    def job(n: int) -> int:
        started.append(n)
        if n == 0:
            raise KeyboardInterrupt
        time.sleep(0.01)
        return n

    with pytest.raises(KeyboardInterrupt):
        _each(job, list(range(200)), workers=2)
    assert len(started) < 20


def test_a_value_built_once_is_built_once_when_threads_ask_at_the_same_moment() -> None:
    """The stage threads' first parses all ask for the parser at once; one builds it."""
    from benchcore.once import built_once

    builds: list[int] = []
    start = threading.Barrier(16)

    @built_once
    def parser() -> object:
        builds.append(1)
        time.sleep(0.05)          # long enough for every other thread to arrive meanwhile
        return object()

    def ask(_: int) -> object:
        start.wait()
        return parser()

    with ThreadPoolExecutor(16) as pool:
        values = list(pool.map(ask, range(16)))
    assert len(builds) == 1 and all(value is values[0] for value in values)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs per-thread CPU affinity and two cores")
def test_an_llm_batch_runs_its_threads_on_one_core_and_leaves_the_rest_alone(tmp_path,
                                                                             monkeypatch) -> None:
    """LLM stages' workers share one core (fewer cross-core GIL hand-overs); other batches'
    workers and the calling thread keep the process's cores; the variable turns it off."""
    import benchcore.one_core as one_core

    everywhere = os.sched_getaffinity(0)
    monkeypatch.delenv("NLP_DSG_BENCHMARK_ONE_CORE", raising=False)
    monkeypatch.setattr(one_core, "_chosen", {})
    try:   # a sandbox may forbid setting affinity: then pinning is a no-op, nothing to test
        os.sched_setaffinity(0, everywhere)
    except OSError:
        pytest.skip("setting CPU affinity is not allowed here")

    def cores_seen(pinned: bool) -> set[frozenset[int]]:
        seen = run_items("s", list(range(8)), uid_of=str, key_of=str,
                         compute=lambda i: frozenset(os.sched_getaffinity(0)), cache=None,
                         workers=4, one_core=pinned)
        return {outcome.value for outcome in seen}

    pinned = cores_seen(True)
    assert len(pinned) == 1 and len(next(iter(pinned))) == 1
    assert next(iter(pinned)) <= everywhere
    assert cores_seen(False) == {frozenset(everywhere)}
    assert os.sched_getaffinity(0) == everywhere          # the caller was never pinned
    monkeypatch.setenv("NLP_DSG_BENCHMARK_ONE_CORE", "0")
    monkeypatch.setattr(one_core, "_chosen", {})
    assert cores_seen(True) == {frozenset(everywhere)}


def test_dask_workers_pick_their_core_by_their_number(monkeypatch) -> None:
    """By process id, two workers of one machine shared a core half the time."""
    import benchcore.one_core as one_core

    monkeypatch.delenv("NLP_DSG_BENCHMARK_ONE_CORE", raising=False)
    monkeypatch.setattr(one_core.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    for name, core in ((0, 0), (1, 1), (5, 1)):
        monkeypatch.setattr(one_core, "current_worker",
                            lambda name=name: SimpleNamespace(name=name))
        assert one_core._pick_core(pid=1234) == core
    monkeypatch.setattr(one_core, "current_worker",
                        lambda: SimpleNamespace(name="tcp://10.0.0.2:4242"))
    assert one_core._pick_core(pid=1234) is None          # no number: not pinned
    monkeypatch.setattr(one_core, "current_worker", lambda: None)
    assert one_core._pick_core(pid=1235) == 3             # not a worker: by process id


def test_a_batch_goes_on_with_the_threads_it_got_when_no_more_can_start(monkeypatch) -> None:
    """A process at its thread limit: the threads already running do every job."""
    from benchcore.batch import _each

    real_start = threading.Thread.start
    started = []

    def limited_start(self):
        if len(started) >= 2:
            raise RuntimeError("can't start new thread")
        started.append(self)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", limited_start)
    assert _each(lambda n: n + 1, list(range(40)), workers=8) == list(range(1, 41))
    assert len(started) == 2
