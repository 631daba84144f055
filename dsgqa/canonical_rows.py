"""One canonical order for a query's rows, where the query itself defines none.

Why: an engine returns the rows of a query without an ORDER BY in whatever order its plan
produced them, and that order changes between executions of the very same query on the same
read-only database (the same `RETURN DISTINCT` came back in 2 orders in 12 runs). The rows go
into the refine prompt, the agent's tool results, the item cache and the results table, so
engine order made two runs with nothing changed ask different prompts, miss each other's cache
entries and differ in verdicts. Sorted here, equal rows always read the same.

`row_key` is a total order over every value a row may hold, across types, NULLs included:
numbers (int, float, Decimal; NaN after every other number), strings, booleans, lists, maps
(nodes and points arrive as dicts), sets, anything else (dates, UUIDs: by type name and
`repr`). Types rank roughly as Cypher's ascending ORDER BY ranks them (maps, lists, other,
strings, booleans, numbers, NULL last). Distinct values never get equal keys (1 and 1.0, 0.0
and -0.0, a list and a tuple are told apart), so the sorted order never depends on the order
the rows came in. Nothing in a key depends on hashing (dict entries and set members are sorted
by their keys), so it is the same in every process whatever `PYTHONHASHSEED` is.

A cell's own contents are never reordered: a list in a cell (`collect(...)`) is data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

_MAP, _LIST, _SET, _OTHER, _STRING, _BYTES, _BOOL, _NUMBER, _NULL = range(9)
_INT, _FLOAT, _DECIMAL = range(3)

Key = tuple[Any, ...]


def cell_key(value: Any) -> Key:
    """The value's place in the canonical order: keys of any two values compare."""
    if value is None:
        return (_NULL,)
    if isinstance(value, bool):
        return (_BOOL, value)
    if isinstance(value, int):
        return (_NUMBER, 0, value, _INT, 0)
    if isinstance(value, float):
        if math.isnan(value):
            return (_NUMBER, 1, _FLOAT, "")
        return (_NUMBER, 0, value, _FLOAT, math.copysign(1.0, value))
    if isinstance(value, Decimal):
        if value.is_nan():
            return (_NUMBER, 1, _DECIMAL, str(value))
        return (_NUMBER, 0, value, _DECIMAL, str(value))   # Decimal("1.0") vs Decimal("1.00")
    if isinstance(value, str):
        return (_STRING, value)
    if isinstance(value, bytes | bytearray):
        return (_BYTES, bytes(value), isinstance(value, bytearray))
    if isinstance(value, dict):
        return (_MAP, tuple(sorted((cell_key(k), cell_key(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return (_LIST, tuple(cell_key(item) for item in value), isinstance(value, tuple))
    if isinstance(value, set | frozenset):
        return (_SET, tuple(sorted(cell_key(item) for item in value)),
                isinstance(value, frozenset))
    kind = type(value)
    return (_OTHER, f"{kind.__module__}.{kind.__qualname__}", repr(value))


def row_key(row: Sequence[Any]) -> Key:
    """A row's place in the canonical order: its cells' keys, left to right."""
    return tuple(cell_key(cell) for cell in row)


def canonical_rows(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The rows in canonical order. Rows nested too deeply to key (beyond Python's recursion
    limit, which no scene graph's values reach) stay in the order given."""
    try:
        return [list(row) for row in sorted(rows, key=row_key)]
    except RecursionError:
        return [list(row) for row in rows]


def canonical_ties(rows: Sequence[Sequence[Any]], sort_columns: Sequence[int]
                   ) -> list[list[Any]]:
    """The rows of an ordered query, each run of consecutive rows whose sort-key cells are
    identical (equal canonical keys: same type and value) put in canonical order in its place.

    Safe because such rows are ties under any ordering semantics: the query defines no order
    among them, so any permutation of a run is an order the engine might have returned. Rows
    whose keys Cypher calls equal but which differ here (1 and 1.0) are left where they are:
    moving them could break an order the engine really did define."""
    try:
        keys = [tuple(cell_key(row[c] if c < len(row) else None) for c in sort_columns)
                for row in rows]
    except RecursionError:
        return [list(row) for row in rows]
    result: list[list[Any]] = []
    start = 0
    for end in range(1, len(rows) + 1):
        if end == len(rows) or keys[end] != keys[start]:
            result.extend(canonical_rows(rows[start:end]) if end - start > 1
                          else [list(rows[start])])
            start = end
    return result
