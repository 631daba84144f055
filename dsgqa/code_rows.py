"""A code result as rows, so the codegen pipeline's execution accuracy uses the very rules of
`execution_match` (the reference query's rows).

The reading, the one a query returning the same answer would give:
- a list (or tuple) of lists: one row each; a list of anything else: one single-cell row each;
- a dict: one row per item, `[key, value]` (a list value spread into the row's cells after the
  key), like `RETURN r.name, count(o)`;
- anything else (a number, a string, None): one row of one cell, like `RETURN count(o)`.

Positions: spark_dsg gives a node's position as a numpy array, so code returns `[x, y, z]`
where a query returns a point (`RETURN o.center`, a `{x, y, z}` cell). Where the reference's
rows hold a point in a column (`point_columns`), a list of two or three numbers in that column
reads as that point, and where that is the only column, a list of such lists is one point per
row; a position is never read as three rows of one number.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

_AXES = ("x", "y", "z")


def _is_point(cell: Any) -> bool:
    return isinstance(cell, dict) and set(cell) in ({"x", "y"}, {"x", "y", "z"})


def _is_position(value: Any) -> bool:
    return isinstance(value, list) and len(value) in (2, 3) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value)


def point_columns(reference_rows: Sequence[Sequence[Any]]) -> tuple[bool, ...]:
    """For each column of the reference rows, whether it holds a point."""
    width = max((len(row) for row in reference_rows), default=0)
    return tuple(any(i < len(row) and _is_point(row[i]) for row in reference_rows)
                 for i in range(width))


def _as_point(value: list[Any]) -> dict[str, Any]:
    return dict(zip(_AXES, value, strict=False))


def _row(cells: list[Any], points: tuple[bool, ...]) -> list[Any]:
    return [_as_point(c) if i < len(points) and points[i] and _is_position(c) else c
            for i, c in enumerate(cells)]


def result_rows(value: Any, points: tuple[bool, ...] = ()) -> list[list[Any]]:
    """The rows of a code result; `points` as `point_columns` gives them (empty: none)."""
    if points == (True,):
        if _is_position(value):
            return [[_as_point(value)]]
        if isinstance(value, list) and value and all(_is_position(v) for v in value):
            return [[_as_point(v)] for v in value]
    if isinstance(value, dict):
        point_value = len(points) > 1 and points[1]
        return [_row([key, *item] if isinstance(item, list)
                     and not (point_value and _is_position(item)) else [key, item], points)
                for key, item in value.items()]
    if isinstance(value, list):
        if value and all(isinstance(row, list) for row in value):
            return [_row(list(row), points) for row in value]
        return [_row([cell], points) for cell in value]
    return [[value]]


def rows_of_result(result_json: str, points: tuple[bool, ...] = ()) -> list[list[Any]]:
    """The rows of a run's JSON result text."""
    return result_rows(json.loads(result_json), points)
