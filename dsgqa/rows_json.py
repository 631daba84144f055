"""The rows a query returned, kept as readable JSON beside the results: the first thing anyone
asks of a wrong answer is "what did the query return?".

Capped so a run of thousands of questions keeps a small table: at most `MAX_ROWS` rows and
`MAX_BYTES` of text; `truncated` says that rows were left out (distinct from the database's own
row cap, which the `truncated` column of the results reports).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

MAX_ROWS = 50
MAX_BYTES = 20_000


def capped_rows_json(
    columns: Sequence[str], rows: Sequence[Sequence[Any]],
    max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES,
) -> tuple[str, bool]:
    """`{"columns": [...], "rows": [[...], ...]}` with as many leading rows as fit, and whether
    any were left out. Values JSON cannot hold (points, dates) are written as their text."""
    kept = [list(row) for row in rows[:max_rows]]
    truncated = len(rows) > len(kept)
    text = _dump(columns, kept)
    while len(text.encode()) > max_bytes and kept:
        # Halve until it fits, then the text is at most one halving short of the limit.
        kept = kept[: len(kept) // 2]
        truncated = True
        text = _dump(columns, kept)
    return text, truncated


def _dump(columns: Sequence[str], rows: list[list[Any]]) -> str:
    return json.dumps({"columns": list(columns), "rows": rows}, ensure_ascii=False,
                      default=str, separators=(",", ":"))
