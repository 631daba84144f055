"""Per-item results of a stage, on disk, so finished work survives crashes and reruns.

Stages run as one Prefect task per (stage, model) over a batch of items; Prefect's own task
cache is all-or-nothing per task, which would either freeze a failed item into a cached batch
or redo a whole batch for one failure. Here every item's result is stored under a key computed
from the item's real inputs (question, model fingerprint, schema or graph fingerprint, prompt
hash, stage code version). Only successes are stored, so a rerun redoes exactly the failed or
missing items; a killed run loses at most the items that were in flight.

Entries are pickles written atomically (temp file + rename): concurrent threads, processes and
Dask workers can share one cache directory without locks.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any


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


class ItemCache:
    """One directory per stage: `<root>/<stage>/<key[:2]>/<key>.pkl`."""

    def __init__(self, root: str | Path, stage: str) -> None:
        self.folder = Path(root) / stage

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pkl"

    def get(self, key: str) -> Any | None:
        try:
            with self._path(key).open("rb") as handle:
                return pickle.load(handle)
        except (FileNotFoundError, EOFError, pickle.UnpicklingError):
            return None

    def get_or_none(self, key: str) -> Any | None:
        """`get`, but an entry that cannot be read back (truncated, or pickled from a class
        that no longer exists) is a miss to recompute, not an error that blocks every rerun."""
        try:
            return self.get(key)
        except Exception:
            return None

    def put(self, key: str, value: Any) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(value, handle)
        os.replace(tmp, path)
