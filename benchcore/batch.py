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

    def one(job: tuple[T, str]) -> Outcome[V]:
        try:
            return attempt(*job)
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
            cache.put(key, value)
        return Outcome(uid=uid, value=value, fresh_llm_calls=fresh_calls_of(value),
                       settled=settled)

    if not items:
        return []
    progress.started(stage, len(items))
    keys = [key_of(item) for item in items] if cache is not None else [""] * len(items)
    outcomes: list[Outcome[V] | None] = [None] * len(items)
    if cache is not None and not refresh:
        outcomes = cached_outcomes(items, keys, uid_of, cache)
        hits = sum(o is not None for o in outcomes)
        if hits:
            progress.advanced(stage, hits)
    missing = [i for i, outcome in enumerate(outcomes) if outcome is None]
    jobs = [(items[i], keys[i]) for i in missing]
    # The items compute with the collector paused: they allocate many short-lived containers
    # (requests, replies, rows, records) and form no cycles (measured for every stage, errors
    # included: 0 cyclic objects an item; `test_a_translation_leaves_no_reference_cycles`),
    # yet collections run on whichever of 64+ threads allocates next cost a 5,000-item LLM
    # stage ~0.1 ms of CPU a call, and run-query more than a second.
    with gc_paused():
        done = _each(one, jobs, workers, batch_core() if one_core else None)
    for i, outcome in zip(missing, done, strict=True):
        outcomes[i] = outcome
    return outcomes  # type: ignore[return-value]  # every slot is filled by now


def _each(work: Callable[[T], V], jobs: Sequence[T], workers: int, core: int | None = None
          ) -> list[V]:
    """`work` of every job, in job order, on up to `workers` threads that each take the next
    job as they finish one. Not an executor's `map`: that makes a future, a condition and a
    queue entry per job up front, in the calling thread, and with 64 workers already
    competing for the GIL those 5,000 submissions cost a stage more than its own work. One
    worker: the calling thread does the jobs itself. `core`: every worker thread runs there."""
    if workers <= 1 or len(jobs) <= 1:
        return list(map(work, jobs))
    results: list[V | None] = [None] * len(jobs)
    failures: list[BaseException] = []
    taken = iter(range(len(jobs)))
    lock = threading.Lock()   # `next` alone is atomic only under the GIL (not free-threaded)

    def worker() -> None:
        try:
            pin_this_thread(core)
            while not failures:
                with lock:
                    index = next(taken, None)
                if index is None:
                    return
                results[index] = work(jobs[index])
        except BaseException as error:  # re-raised in the caller, as map would
            failures.append(error)

    threads = [threading.Thread(target=worker, daemon=True)
               for _ in range(min(workers, len(jobs)))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException as interrupt:   # the caller was interrupted (Ctrl-C, a timeout):
        failures.append(interrupt)       # the workers take no further job
        raise
    if failures:
        raise failures[0]
    return results  # type: ignore[return-value]  # every slot is filled when none failed


def cached_outcomes(items: Sequence[T], keys: Sequence[str], uid_of: Callable[[T], str],
                    cache: ItemCache) -> list[Outcome | None]:
    """The items already in the cache, read in the calling thread before any worker starts;
    None where an item must go to the pool (missing, unreadable, or being computed by another
    batch right now: the pool takes the key's lock and looks again). A rerun whose items are
    all cached then costs one lookup each, where 64 pool threads contending for the GIL and
    the pool's own locks cost several times that."""
    found: list[Outcome | None] = []
    with gc_paused():
        for item, key in zip(items, keys, strict=True):
            hit = cache.get_or_none(key)
            found.append(None if hit is None else Outcome(uid=uid_of(item), value=hit,
                                                          from_cache=True))
    return found


def carried(previous: Outcome[object], stage: str) -> Outcome[V]:
    """The outcome of an item whose earlier stage failed: it skips this stage."""
    return Outcome(uid=previous.uid, error=previous.error or f"{stage}: skipped")
