"""Expected rows against an engine's rows: cells with float tolerance, points as {x, y, z}
maps (what the stores return for a point), lists of undefined order as multisets, and rows
in order only where the reference's ORDER BY fixes it (`Result.runs`)."""

from __future__ import annotations

import math
from typing import Any

from tests.cypher_fuzz.reference import Result
from tests.cypher_fuzz.values import Bag, Point, is_number

REL_TOL = 1e-6
ABS_TOL = 1e-9


def plain(v: object) -> Any:
    """A reference value in the engines' row form (Bag kept, to compare as a multiset)."""
    if isinstance(v, Point):
        d = {"x": v.x, "y": v.y}
        if v.z is not None:
            d["z"] = v.z
        return d
    if isinstance(v, Bag):
        return Bag(plain(x) for x in v)
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def same(want: Any, got: Any) -> bool:
    if want is None or got is None:
        return want is None and got is None
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and want == got
    if is_number(want) and is_number(got):
        if isinstance(want, float) and math.isnan(want):
            return isinstance(got, float) and math.isnan(got)
        return math.isclose(want, got, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    if isinstance(want, Bag):
        return isinstance(got, list) and _multiset(list(want), list(got), same)
    if isinstance(want, list):
        return (isinstance(got, list) and len(want) == len(got)
                and all(same(a, b) for a, b in zip(want, got, strict=True)))
    if isinstance(want, dict):
        return (isinstance(got, dict) and set(want) == set(got)
                and all(same(want[k], got[k]) for k in want))
    return type(want) is type(got) and want == got


def _multiset(want: list, got: list, eq) -> bool:  # type: ignore[no-untyped-def]
    if len(want) != len(got):
        return False
    left = list(got)
    for w in want:
        j = next((j for j, g in enumerate(left) if eq(w, g)), None)
        if j is None:
            return False
        left.pop(j)
    return True


def same_row(want: list, got: list) -> bool:
    return len(want) == len(got) and all(same(a, b) for a, b in zip(want, got, strict=True))


def rows_agree(expected: Result, rows: list[list[Any]]) -> bool:
    """Whether an engine's rows are Neo4j's rows for the query."""
    want = [[plain(c) for c in row] for row in expected.rows]
    if len(want) != len(rows):
        return False
    pos = 0
    for run in expected.runs:
        if not _multiset(want[pos:pos + run], rows[pos:pos + run], same_row):
            return False
        pos += run
    return True
