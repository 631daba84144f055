"""A code result as rows, so the codegen pipeline's execution accuracy uses the very rules of
`execution_match` (the reference query's rows).

The reading, the one a query returning the same answer would give:
- a list (or tuple) of lists: one row each; a list of anything else: one single-cell row each;
- a dict: one row per item, `[key, value]` (a list value spread into the row's cells after the
  key), like `RETURN r.name, count(o)`;
- anything else (a number, a string, None): one row of one cell, like `RETURN count(o)`.
"""

from __future__ import annotations

import json
from typing import Any


def result_rows(value: Any) -> list[list[Any]]:
    if isinstance(value, dict):
        return [[key, *item] if isinstance(item, list) else [key, item]
                for key, item in value.items()]
    if isinstance(value, list):
        if value and all(isinstance(row, list) for row in value):
            return [list(row) for row in value]
        return [[cell] for cell in value]
    return [[value]]


def rows_of_result(result_json: str) -> list[list[Any]]:
    """The rows of a run's JSON result text."""
    return result_rows(json.loads(result_json))
