"""Running one stage over a batch of items: concurrently, item-cached, failures as data.

`run_items` is the one place that decides, per item, "take it from the item cache, or compute
it, and record an error instead of raising". The LLM client layer already retries transient
faults and caps concurrent requests; whatever still escapes is a failed *item*, never a failed
run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from benchcore import progress
from benchcore.gc_pause import gc_paused
from benchcore.item_cache import ItemCache
from benchcore.one_core import batch_core, pin_this_thread
from benchcore.stop_request import stop_requested, working
from benchcore.text_safety import safe_text

T = TypeVar("T")
V = TypeVar("V")


@dataclass(frozen=True)
class Outcome(Generic[V]):
    """One item's result at one stage: a value, or the error of the stage that failed."""

    uid: str
    value: V | None = None
    error: str | None = None
    from_cache: bool = False
    fresh_llm_calls: int = 0
    # False for a value used in this run but not kept for the next, because a retry might
    # change it (a query that timed out under load): a rerun computes it again.
    settled: bool = True

    @property
    def ok(self) -> bool:
        return self.error is None


class Outcomes(Sequence[Outcome[V]]):
    """A stage batch's outcomes as its task returns them: a read-only sequence in item order.

    Not a list on purpose: Prefect walks a task's returned lists, tuples, dicts, dataclasses
    and models item by item to link them to the task's state (about 40 us an item: 2 s of a
    fully cached 10,000-item rerun), but leaves other objects whole."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Outcome[V]] = ()) -> None:
        self._items = list(items)

    def __getitem__(self, index):  # type: ignore[override]  # int -> item, slice -> list
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Outcome[V]]:
        return iter(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Outcomes):
            return self._items == other._items
        return self._items == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable contents, as a list's

    def __repr__(self) -> str:
        return f"Outcomes({self._items!r})"

    def __reduce__(self) -> tuple[type[Outcomes], tuple[list[Outcome[V]]]]:
        return (Outcomes, (self._items,))


def one_line_error(error: BaseException) -> str:
    """The error as one storable, secret-free line (masked before it is cut short)."""
    text = safe_text(str(error)).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


class _KeyLocks:
    """A lock per key, made on first use and dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[object, list] = {}   # key -> [lock, holders and waiters]
        self._mutex = threading.Lock()

    @contextmanager
    def held(self, key: object) -> Iterator[None]:
        with self._mutex:
            entry = self._locks.setdefault(key, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._mutex:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._locks[key]


_SAME_KEY = _KeyLocks()


def run_items(
    stage: str,
    items: Sequence[T],
    uid_of: Callable[[T], str],
    key_of: Callable[[T], str],
    compute: Callable[[T], V],
    cache: ItemCache | None,
    workers: int = 8,
    refresh: bool = False,
    fresh_calls_of: Callable[[V], int] = lambda value: 0,
    keep: Callable[[V], bool] = lambda value: True,
    one_core: bool = False,
) -> list[Outcome[V]]:
    """Outcomes in item order. `refresh` ignores (and overwrites) cached entries; `keep` says
    whether a value may be cached (a result that a retry might change, such as a timeout under
    load, is used for this run but recomputed by the next). `one_core`: the workers share one
    CPU core (`benchcore.one_core`: for stages that only wait on an LLM, never for stages that
    may start processes)."""

    def one(job: tuple[int, T, str]) -> None:
        index, item, key = job
        try:
            if stop_requested():   # a stop came while this job was being taken: not begun
                outcomes[index] = Outcome(uid=uid_of(item), error=f"{stage}: {STOPPED}")
                return
            with working():
                outcomes[index] = attempt(item, key)
        finally:
            progress.advanced(stage)

    def attempt(item: T, key: str) -> Outcome[V]:
        if cache is None:
            return compute_one(item, uid_of(item), "")
        # One computation per key at a time in this process: two items with the same inputs
        # (two models writing the same query, a reference equal to the model's) must share one
        # result, or a query's unordered rows could be stored in one order and seen in another,
        # and the next run would miss the refine entries made from the other order.
        with _SAME_KEY.held((str(cache.folder), key)):
            if not refresh:
                hit = cache.get_or_none(key)
                if hit is not None:
                    return Outcome(uid=uid_of(item), value=hit, from_cache=True)
            return compute_one(item, uid_of(item), key)

    def compute_one(item: T, uid: str, key: str) -> Outcome[V]:
        try:
            value = compute(item)
        except Exception as error:
            return Outcome(uid=uid, error=f"{stage}: {one_line_error(error)}")
        settled = keep(value)
        if cache is not None and settled:
            cache.put(key, value, replace=refresh)
        return Outcome(uid=uid, value=value, fresh_llm_calls=fresh_calls_of(value),
                       settled=settled)

    if not items:
        return []
    progress.started(stage, len(items))
    outcomes: list[Outcome[V] | None] = [None] * len(items)
    jobs = _to_compute(stage, items, uid_of, key_of, cache, not refresh, outcomes)
    # The items compute with the collector paused: they allocate many short-lived containers
    # (requests, replies, rows, records) and form no cycles (measured for every stage, errors
    # included: 0 cyclic objects an item; `test_a_translation_leaves_no_reference_cycles`),
    # yet collections run on whichever of 64+ threads allocates next cost a 5,000-item LLM
    # stage ~0.1 ms of CPU a call, and run-query more than a second. Reading cached records
    # back is the same case (hundreds of thousands of containers, no cycle).
    with gc_paused():
        _each(one, jobs, workers, batch_core() if one_core else None)
    # Items never begun because a stop was requested (`benchcore.stop_request`): errors of
    # this run, not cached, so a rerun computes them.
    return [outcome or Outcome(uid=uid_of(items[index]), error=f"{stage}: {STOPPED}")
            for index, outcome in enumerate(outcomes)]


def _to_compute(stage: str, items: Sequence[T], uid_of: Callable[[T], str],
                key_of: Callable[[T], str], cache: ItemCache | None, look_up: bool,
                outcomes: list[Outcome | None]) -> Iterator[tuple[int, T, str]]:
    """The items to compute (index, item, key: "" without a cache), found as the workers ask
    for them; with `look_up`, the cached ones go straight into `outcomes`.

    Lazy on purpose. A fresh batch's first calls start at once, each key made when a worker
    needs its next item, where making all 5,000 keys first kept an LLM stage with no call in
    flight for 0.12 s (3% of its ideal time). A rerun's cached items are read in one pass by
    one thread while the others wait on the batch's lock, not by 64 threads contending for the
    GIL and the pool's locks, which cost several times the lookups themselves. An item being
    computed by another batch right now is looked up again under its key's lock."""
    hits = 0
    for index, item in enumerate(items):
        key = key_of(item) if cache is not None else ""
        hit = cache.get_or_none(key) if cache is not None and look_up else None
        if hit is not None:
            outcomes[index] = Outcome(uid=uid_of(item), value=hit, from_cache=True)
            hits += 1
            continue
        if hits:
            progress.advanced(stage, hits)
            hits = 0
        yield index, item, key
    if hits:
        progress.advanced(stage, hits)


_DONE = object()
STOPPED = "not run: the run was stopped (SIGINT/SIGTERM)"


def _each(work: Callable[[T], V], jobs: Iterable[T], workers: int, core: int | None = None
          ) -> list[V]:
    """`work` of every job, in job order, on up to `workers` threads that each take the next
    job as they finish one. Not an executor's `map`: that makes a future, a condition and a
    queue entry per job up front, in the calling thread, and with 64 workers already
    competing for the GIL those 5,000 submissions cost a stage more than its own work.

    `jobs` may be lazy (a generator): one thread at a time advances it, and a thread is added
    only as a job is taken while fewer than `workers` run, so a batch left with few jobs starts
    few threads. One worker: the calling thread does the jobs itself. `core`: every worker
    thread runs there."""
    source = iter(jobs)
    if workers <= 1:
        return list(map(work, source))
    results: dict[int, V] = {}
    failures: list[BaseException] = []
    threads: list[threading.Thread] = []
    taken, refused = 0, False
    lock = threading.Lock()   # `next` alone is atomic only under the GIL (not free-threaded)

    def take() -> tuple[int, T] | None:
        nonlocal taken
        with lock:
            if failures or stop_requested():
                return None
            job = next(source, _DONE)
            if job is _DONE:
                return None
            if len(threads) < workers and not refused:
                spawn()
            taken += 1
            return taken - 1, job  # type: ignore[return-value]  # not _DONE here

    def worker() -> None:
        try:
            pin_this_thread(core)
            while (next_job := take()) is not None:
                index, job = next_job
                results[index] = work(job)
        except BaseException as error:  # re-raised in the caller, as map would
            failures.append(error)

    def spawn() -> None:
        nonlocal refused
        thread = threading.Thread(target=worker, daemon=True)
        try:
            thread.start()
        except RuntimeError:   # no more threads allowed here: the running ones do the jobs
            if not threads:
                raise
            refused = True
            return
        threads.append(thread)

    with lock:
        spawn()
    joined = 0
    try:
        while True:   # a thread is only added by a running one, so this ends with the last
            with lock:
                if joined == len(threads):
                    break
                thread = threads[joined]
            thread.join()
            joined += 1
    except BaseException as interrupt:   # the caller was interrupted (Ctrl-C, a timeout):
        failures.append(interrupt)       # the workers take no further job
        raise
    if failures:
        raise failures[0]
    return [results[index] for index in range(taken)]


def carried(previous: Outcome[object], stage: str) -> Outcome[V]:
    """The outcome of an item whose earlier stage failed: it skips this stage."""
    return Outcome(uid=previous.uid, error=previous.error or f"{stage}: skipped")
