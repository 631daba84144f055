"""Turn query rows into SLDP text, deterministically, guided by the shape of the expected answer.

The demo's oracle model uses this to answer from its reference query's rows, so the harness can
be shown to score 100% when answers are right. It only reads the *outer shape* of `like` (the
solution text): list, set, dict, point or scalar; never its values.

Rules, in order:

1. Cells are normalised first: a struct/map with exactly x, y (and z) numbers becomes a POINT; a
   node value becomes its nodeSymbol; a path becomes the list of its nodes' symbols; NULL prints
   as `null`.
2. No rows: an empty container of the hint's kind (`[]`, `{}`), else `<>` (nothing found).
3. One row, one cell: a list cell (e.g. from collect()) becomes a list if the hint is a list,
   else a set; a NULL cell under a container hint is that empty container (Kuzu's collect() of
   nothing is NULL); a scalar under a list/set hint is wrapped in a one-element container;
   anything else is the cell itself (number, string, POINT, dict).
4. One row of 2-3 numbers when the hint is a POINT: that point.
5. One column: the cells as a list in row order if the hint is a list, else as a set.
6. Two columns and a dict hint: {first: second}; with duplicate keys, a set of [k, v] pairs.
7. Anything else: each row becomes a list, collected as a list (list hint, in row order) or a
   set. One exception: a single row under a list hint whose items are not lists is the row
   itself as the list (e.g. `RETURN min(x), max(x)` for `[1, 9]`).

Set items and dict entries are printed sorted by their text, so the same rows in another order
(an engine running in parallel does not promise one) give the same answer text.
"""

from __future__ import annotations

import math
from typing import Any

from dsgqa.sldp import (
    Point,
    SLDPDict,
    SLDPError,
    SLDPList,
    SLDPSet,
    format_sldp,
    parse_sldp,
)

_EMPTY = {"list": SLDPList(()), "set": SLDPSet(()), "dict": SLDPDict(())}


def rows_to_sldp(columns: list[str], rows: list[list[Any]], like: str | None = None) -> str:
    """SLDP text for the rows (see the module docstring for the rules)."""
    hint, inner = _shape(like)
    cells = [[_cell(value) for value in row] for row in rows]
    return format_sldp(_convert(len(columns), cells, hint, inner))


def _shape(like: str | None) -> tuple[str | None, str | None]:
    """The hint's kind (list/set/dict/point/scalar) and the kind of its first item."""
    if not like:
        return None, None
    try:
        value = parse_sldp(like)
    except SLDPError:
        return None, None
    kind = _kind(value)
    items = list(value) if isinstance(value, SLDPList | SLDPSet) else []
    return kind, (_kind(items[0]) if items else None)


def _kind(value: Any) -> str:
    if isinstance(value, SLDPList):
        return "list"
    if isinstance(value, SLDPSet):
        return "set"
    if isinstance(value, SLDPDict):
        return "dict"
    if isinstance(value, Point):
        return "point"
    return "scalar"


def _cell(value: Any) -> Any:
    """Rule 1: database values as SLDP values."""
    if isinstance(value, dict):
        if _is_xyz(value):
            return Point(tuple(value[k] for k in ("x", "y", "z") if k in value))
        if "_nodes" in value:
            return SLDPList(tuple(_cell(n) for n in value["_nodes"]))
        if "_label" in value and "nodeSymbol" in value:
            return value["nodeSymbol"]
        return _dict([(str(k), _cell(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return SLDPList(tuple(_cell(v) for v in value))
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, int | float | str):
        return value
    return str(value)


def _is_xyz(value: dict) -> bool:
    keys = set(value)
    return keys in ({"x", "y"}, {"x", "y", "z"}) and all(
        isinstance(value[k], int | float) and not isinstance(value[k], bool) for k in keys
    )


def _container(kind: str | None, items: list[Any]) -> Any:
    return SLDPList(tuple(items)) if kind == "list" else _set(items)


def _set(items: Any) -> SLDPSet:
    return SLDPSet(tuple(sorted(items, key=format_sldp)))


def _dict(pairs: list[tuple[Any, Any]]) -> SLDPDict:
    return SLDPDict(tuple(sorted(pairs, key=lambda kv: format_sldp(kv[0]))))


def _convert(width: int, rows: list[list[Any]], hint: str | None, inner: str | None) -> Any:
    if not rows:
        return _EMPTY.get(hint or "", _set(()))
    if len(rows) == 1 and len(rows[0]) == 1:
        return _single(rows[0][0], hint)
    if hint == "point" and len(rows) == 1 and 2 <= width <= 3 and all(
        isinstance(v, int | float) for v in rows[0]
    ):
        return Point(tuple(rows[0]))
    if width == 1:
        return _container(hint, [row[0] for row in rows])
    if width == 2 and hint == "dict":
        try:
            return _dict([(row[0], row[1]) for row in rows])
        except SLDPError:
            return _set(SLDPList(tuple(row)) for row in rows)
    if len(rows) == 1 and hint == "list" and inner not in ("list", None):
        return SLDPList(tuple(rows[0]))
    return _container(hint, [SLDPList(tuple(row)) for row in rows])


def _single(value: Any, hint: str | None) -> Any:
    """Rule 3: one cell."""
    if value == "null" and hint in _EMPTY:
        return _EMPTY[hint]
    if isinstance(value, SLDPList) and hint in ("list", "set", None):
        return value if hint == "list" else _set(value.items)
    if hint in ("list", "set") and not isinstance(value, SLDPList | SLDPSet):
        return _container(hint, [value])
    return value
