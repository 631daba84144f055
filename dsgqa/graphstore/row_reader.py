"""Reading a result's rows up to the row cap, optionally without repeats."""

from __future__ import annotations

import json
from typing import Any


class RowReader:
    """Collects rows until one more than `max_rows` is held (so a cut result is known to be
    cut). With `distinct`, a row equal to one already held is dropped before it counts: the
    embedded engines run a translated UNION as UNION ALL (`dsgqa.dialect.union_parts`), and
    Neo4j's UNION keeps each distinct row once, NULLs equal to NULLs."""

    def __init__(self, max_rows: int, distinct: bool = False) -> None:
        self._max_rows = max_rows
        self._rows: list[Any] = []
        self._seen: set[str] | None = set() if distinct else None

    @property
    def full(self) -> bool:
        return len(self._rows) > self._max_rows

    def add(self, row: Any) -> None:
        if self._seen is not None:
            key = json.dumps(row, sort_keys=True, default=str)
            if key in self._seen:
                return
            self._seen.add(key)
        self._rows.append(row)

    @property
    def kept(self) -> list[Any]:
        return self._rows[:self._max_rows]

    @property
    def truncated(self) -> bool:
        return self.full
