"""Turn query rows into SLDP text, deterministically, in the shape of the expected answer.

The oracle model uses this to answer from its reference query's rows, so the harness can be shown
to score 100% when answers are right. It reads only the *shape* of `like` (the solution text):
its kind (list, set, dict, point or scalar) and the shape of its first item (first dict value),
e.g. "a set of points" or "a dict of points"; never its values.

Rules, in order:

1. Cells are normalised first: a point (a struct/map with exactly x, y (and z) numbers, or a
   Neo4j point object) becomes a POINT; a node value becomes its nodeSymbol; a path becomes the
   list of its nodes' symbols; NULL prints as `null`.
2. No rows: an empty container of the hint's kind (`[]`, `{}`), else `<>` (nothing found).
3. One row, one cell: a list cell (e.g. from collect()) becomes a list if the hint is a list,
   else a set; a NULL cell under a container hint is that empty container (Kuzu's collect() of
   nothing is NULL); a scalar under a list/set hint is wrapped in a one-element container;
   anything else is the cell itself. A list of 2-3 numbers where a point is expected (the hint,
   or the hint's items) is that point.
4. Each row is shaped like the hint's item: where the item is a point, 2-3 numeric cells become
   one POINT (x, y, z columns); in a list item ([name, POINT(..)]), the numeric run in the point's
   position does. Without a usable hint, trailing columns named x, y, z (`x`, `c.x`, `pos_x`)
   mark a point.
5. One row shaping into a point, under a point hint or none: that point
   (`RETURN o.center.x, o.center.y, o.center.z`).
6. A dict hint and two or more columns: {first column: the rest, shaped}, e.g. `name, x, y, z`
   rows give a dict of points; with duplicate keys, a set of [key, value] lists.
7. One column, or rows that each shape into one value: the values as a list in row order if the
   hint is a list, else as a set.
8. Anything else: each row becomes a list, collected as a list (list hint, in row order) or a
   set. One exception: a single row under a list hint whose items are not lists is the row
   itself as the list (e.g. `RETURN min(x), max(x)` for `[1, 9]`).

Set items and dict entries are printed sorted by their text, so the same rows in another order
(an engine running in parallel does not promise one) give the same answer text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
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
# A column holding one coordinate: `x`, `c.x`, `center_x`, `o.center.x` (any case).
_AXIS = re.compile(r"(?:^|[._\s])([xyz])$", re.IGNORECASE)
_POINT_3D = Point((0.0, 0.0, 0.0))


@dataclass(frozen=True)
class _Hint:
    """What the solution's shape says: its kind, and a sample of its items (None if unknown)."""

    kind: str | None = None
    item: Any = None


def rows_to_sldp(columns: list[str], rows: list[list[Any]], like: str | None = None) -> str:
    """SLDP text for the rows (see the module docstring for the rules)."""
    hint = _hint(like, columns)
    cells = [[_cell(value) for value in row] for row in rows]
    return format_sldp(_convert(len(columns), cells, hint))


def _hint(like: str | None, columns: list[str]) -> _Hint:
    """The hint from the solution text, completed by the column names where it says nothing."""
    kind = item = None
    if like:
        try:
            value = parse_sldp(like)
        except SLDPError:
            value = None
        if value is not None:
            kind = _kind(value)
            item = _sample(value)
    if kind == "point":
        item = item or _POINT_3D
    if item is None or (kind == "dict" and not isinstance(item, Point | SLDPList)):
        item = _from_columns(columns, kind) or item
    return _Hint(kind, item)


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


def _sample(value: Any) -> Any:
    """A representative item: the first list/set item, the first dict value, the point itself."""
    if isinstance(value, SLDPList | SLDPSet):
        return value.items[0] if value.items else None
    if isinstance(value, SLDPDict):
        return value.items[0][1] if value.items else None
    if isinstance(value, Point):
        return value
    return None


def _from_columns(columns: list[str], kind: str | None) -> Any:
    """A row template from column names: trailing x, y(, z) columns are one point."""
    axes = [(_AXIS.search(c.strip()) or [None, None])[1] for c in columns]
    axes = [a.lower() if a else None for a in axes]
    for dim, names in ((3, ["x", "y", "z"]), (2, ["x", "y"])):
        if len(axes) >= dim and axes[-dim:] == names:
            point = Point((0.0,) * dim)
            lead = len(axes) - dim - (1 if kind == "dict" else 0)
            if lead < 0:
                return None
            return point if lead == 0 else SLDPList(("",) * lead + (point,))
    return None


def _cell(value: Any) -> Any:
    """Rule 1: database values as SLDP values."""
    if isinstance(value, tuple) and hasattr(value, "srid"):  # neo4j.spatial.Point
        return Point(tuple(float(c) for c in value))
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
    return keys in ({"x", "y"}, {"x", "y", "z"}) and all(_is_number(value[k]) for k in keys)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _container(kind: str | None, items: list[Any]) -> Any:
    return SLDPList(tuple(items)) if kind == "list" else _set(items)


def _set(items: Any) -> SLDPSet:
    return SLDPSet(tuple(sorted(items, key=format_sldp)))


def _dict(pairs: list[tuple[Any, Any]]) -> SLDPDict:
    return SLDPDict(tuple(sorted(pairs, key=lambda kv: format_sldp(kv[0]))))


def _convert(width: int, rows: list[list[Any]], hint: _Hint) -> Any:
    kind, item = hint.kind, hint.item
    if not rows:
        return _EMPTY.get(kind or "", _set(()))
    if len(rows) == 1 and width == 1:
        return _single(rows[0][0], hint)
    if kind in ("point", None) and len(rows) == 1:
        shaped = _shaped(rows[0], item)
        if isinstance(shaped, Point):
            return shaped
    if kind == "dict" and width >= 2:
        pairs = [(row[0], _value(row[1:], item)) for row in rows]
        try:
            return _dict(pairs)
        except SLDPError:
            return _set(SLDPList((key, value)) for key, value in pairs)
    if width == 1:
        return _container(kind, [_coerce(row[0], item) for row in rows])
    shaped_rows = [_shaped(row, item) for row in rows]
    if all(isinstance(v, Point) for v in shaped_rows):
        return _container(kind, shaped_rows)
    if len(rows) == 1 and kind == "list" and not isinstance(item, SLDPList | None):
        return SLDPList(tuple(rows[0]))
    return _container(kind, [v if v is not None else SLDPList(tuple(row))
                             for v, row in zip(shaped_rows, rows, strict=True)])


def _value(cells: list[Any], item: Any) -> Any:
    """A dict value from the cells after the key: one cell itself, else shaped, else a list."""
    if len(cells) == 1:
        return _coerce(cells[0], item)
    shaped = _shaped(cells, item)
    return shaped if shaped is not None else SLDPList(tuple(cells))


def _shaped(row: list[Any], item: Any) -> Any:
    """Rule 4: the row as one value shaped like `item`, or None when it does not fit."""
    if isinstance(item, Point):
        return _point(row)
    if isinstance(item, SLDPList) and any(isinstance(i, Point) for i in item.items):
        return _consume(row, item.items)
    return None


def _point(cells: list[Any]) -> Point | None:
    if 2 <= len(cells) <= 3 and all(_is_number(c) for c in cells):
        return Point(tuple(cells))
    return None


def _consume(row: list[Any], template: tuple[Any, ...]) -> SLDPList | None:
    """Cells taken left to right: a numeric run where the template has a point, else one cell."""
    out: list[Any] = []
    at = 0
    for part in template:
        if isinstance(part, Point):
            size = len(part.coords)
            point = _point(row[at:at + size])
            if point is not None:
                out.append(point)
                at += size
                continue
        if at >= len(row):
            return None
        out.append(row[at])
        at += 1
    return SLDPList(tuple(out)) if at == len(row) else None


def _coerce(value: Any, item: Any) -> Any:
    """A list of 2-3 numbers where a point is expected is that point; else the value itself."""
    if isinstance(item, Point) and isinstance(value, SLDPList):
        return _point(list(value.items)) or value
    return value


def _single(value: Any, hint: _Hint) -> Any:
    """Rule 3: one cell."""
    kind, item = hint.kind, hint.item
    if value == "null" and kind in _EMPTY:
        return _EMPTY[kind]
    if kind == "point":
        return _coerce(value, item)
    if isinstance(value, SLDPList) and kind in ("list", "set", None):
        items = [_coerce(v, item) for v in value.items]
        return SLDPList(tuple(items)) if kind == "list" else _set(items)
    if kind in ("list", "set") and not isinstance(value, SLDPList | SLDPSet):
        return _container(kind, [value])
    return value
