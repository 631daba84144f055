"""Per-item results of a stage, on disk, so finished work survives crashes and reruns.

Stages run as one Prefect task per (stage, model) over a batch of items; Prefect's own task
cache is all-or-nothing per task, which would either freeze a failed item into a cached batch
or redo a whole batch for one failure. Here every item's result is stored under a key computed
from the item's real inputs (question, model fingerprint, schema or graph fingerprint, prompt
hash, stage code version). Only successes are stored, so a rerun redoes exactly the failed or
missing items; a killed run loses at most the items that were in flight.

Entries are pickles appended to a `SegmentStore` (one record, one write; a record cut short by a
kill is left out): concurrent threads, processes and Dask workers can share one cache directory
without locks. Two writers of a key (two processes that computed it before either saw the
other's entry) must have stored the same result; when they did not, the store logs a conflict
(`SegmentStore`'s docstring) rather than let the newer one win in silence. The same result
means equal but for `VOLATILE_FIELDS`, which two computations of equal inputs differ in.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

from benchcore.segment_store import OneFileLayout, SegmentStore

# What two computations of the same inputs may differ in without a different result: wall time,
# and whether an LLM reply came from the response cache (the stages' `seconds`, `usage.cached`,
# `fresh_calls`; the planning records' `meta.seconds` and `meta.fresh_llm_calls`).
VOLATILE_FIELDS = frozenset({"seconds", "cached", "fresh_calls", "fresh_llm_calls"})


def item_key(stage: str, *parts: Any) -> str:
    """A stable key over a stage name and JSON-able parts."""
    blob = json.dumps([stage, *parts], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def source_version(*modules: Any) -> str:
    """Hash of modules' source: editing a stage's code invalidates that stage's entries."""
    import inspect

    digest = hashlib.sha256()
    for module in modules:
        digest.update(inspect.getsource(module).encode())
    return digest.hexdigest()[:16]


def same_result(a: bytes, b: bytes) -> bool:
    """Whether two pickled entries of one key hold the same result (`VOLATILE_FIELDS` aside).
    Raises when one cannot be unpickled: then there is no result to weigh."""
    return _content(pickle.loads(a)) == _content(pickle.loads(b))


def _content(value: Any) -> Any:
    """The value as plain data without its volatile fields: models and dataclasses as dicts,
    tuples as lists."""
    if hasattr(value, "model_dump") and not isinstance(value, type):
        value = value.model_dump()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _content(v) for k, v in value.items() if k not in VOLATILE_FIELDS}
    if isinstance(value, list | tuple):
        return [_content(v) for v in value]
    return value


class ItemCache:
    """One folder per stage, `<root>/<stage>/`, holding a `SegmentStore` of pickles. Entries
    written one file each (`<key[:2]>/<key>.pkl`, the earlier layout) are still read."""

    def __init__(self, root: str | Path, stage: str) -> None:
        self.folder = Path(root) / stage
        self._store = SegmentStore.shared(self.folder, same=same_result)
        self._one_file = OneFileLayout(self.folder, ".pkl")

    def __len__(self) -> int:
        return len(self._store)

    def get(self, key: str) -> Any | None:
        data = self._store.get(key)
        if data is not None:
            return pickle.loads(data)
        path = self._one_file.path(key)
        if path is None:
            return None
        try:
            with open(path, "rb") as handle:
                return pickle.load(handle)
        except (FileNotFoundError, NotADirectoryError, EOFError, pickle.UnpicklingError):
            return None

    def get_or_none(self, key: str) -> Any | None:
        """`get`, but an entry that cannot be read back (truncated, or pickled from a class
        that no longer exists) is a miss to recompute, not an error that blocks every rerun."""
        try:
            return self.get(key)
        except Exception:
            return None

    def put(self, key: str, value: Any, replace: bool = False) -> None:
        """Store `value` under `key`; `replace`: on purpose over an earlier value (a refresh),
        which is then no conflict."""
        self._store.put(key, pickle.dumps(value), replace)

    @property
    def conflicts(self) -> set[str]:
        """Keys of this folder this process saw written with different values."""
        return set(self._store.conflicts)
