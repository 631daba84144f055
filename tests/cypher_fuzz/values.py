"""Cypher values in the reference evaluator, and the Neo4j rules for comparing them.

Written from the Neo4j Cypher Manual ("Values and types", "Equality, ordering and comparison",
"Working with null"): `=` on null is null, values of different types are unequal (integers and
floats compare as numbers), `<` between incomparable types is null; DISTINCT and grouping use
equivalence, under which null equals null; ORDER BY, min() and max() use the global order of
values, in which every string sorts before every boolean and every boolean before every number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


class Nondeterministic(Exception):
    """The query's rows are not fixed by Neo4j's semantics (an index into a list whose order
    is undefined, a tie cut by LIMIT, ...). Such a query is dropped, never compared."""


class CypherError(Exception):
    """Neo4j would raise an error for this query (wrong argument type, division by zero)."""


@dataclass(frozen=True)
class Raised:
    """A projected value whose computation raised. Neo4j may compute a projection lazily (after
    a LIMIT, or not at all when nothing reads it), so the error is Neo4j's answer only where the
    value is certainly needed: returned, sorted on, grouped on, or read by a later expression."""

    message: str


@dataclass(frozen=True)
class Point:
    """A cartesian point; z is None for a 2D point."""

    x: float
    y: float
    z: float | None = None


@dataclass(frozen=True)
class NodeRef:
    id: str  # the nodeSymbol, unique in a graph


@dataclass(frozen=True)
class RelRef:
    id: int


@dataclass(frozen=True)
class PathVal:
    nodes: tuple[NodeRef, ...]
    rels: tuple[RelRef, ...]


class Bag(list):
    """A list whose order Neo4j leaves undefined (collect over unordered rows, a pattern
    comprehension, keys()). Reading it by position is `Nondeterministic`; returned, it
    compares as a multiset."""


def is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def equals(a: object, b: object) -> bool | None:
    """Cypher `=`: three-valued."""
    if a is None or b is None:
        return None
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        if isinstance(a, Bag) or isinstance(b, Bag):
            raise Nondeterministic("list of undefined order compared")
        if len(a) != len(b):
            return False
        result: bool | None = True
        for x, y in zip(a, b, strict=True):
            e = equals(x, y)
            if e is False:
                return False
            if e is None:
                result = None
        return result
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return False
        return _all3(equals(a[k], b[k]) for k in a)
    if type(a) is not type(b):
        return False
    return a == b


def _all3(values: object) -> bool | None:
    result: bool | None = True
    for v in values:  # type: ignore[attr-defined]
        if v is False:
            return False
        if v is None:
            result = None
    return result


def compare(a: object, b: object) -> int | None:
    """Cypher `<`/`>` as -1/0/1, None when the values are not comparable."""
    if a is None or b is None:
        return None
    if is_number(a) and is_number(b):
        if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
            return None
        return (a > b) - (a < b)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)
    if isinstance(a, bool) and isinstance(b, bool):
        return (a > b) - (a < b)
    return None


def equivalence_key(v: object) -> object:
    """A hashable key under which equivalent values (DISTINCT, grouping) are equal."""
    if isinstance(v, Bag):
        raise Nondeterministic("list of undefined order used as a grouping key")
    if isinstance(v, bool) or v is None:
        return ("b", v)
    if is_number(v):
        return ("n", float(v))
    if isinstance(v, list):
        return ("l", tuple(equivalence_key(x) for x in v))
    if isinstance(v, dict):
        return ("m", tuple(sorted((k, equivalence_key(x)) for k, x in v.items())))
    return (type(v).__name__, v)


def sort_key(v: object) -> tuple:
    """ORDER BY's global order for the values the generator sorts on: strings before booleans
    before numbers (integers and floats by value), null after everything ascending."""
    if v is None:
        return (9,)
    if isinstance(v, bool):
        return (3, v)
    if is_number(v):   # NaN after every number (Java's Double.compare), ties with NaN
        return (4, 1, 0.0) if math.isnan(v) else (4, 0, float(v))
    if isinstance(v, str):
        return (2, v)
    raise Nondeterministic(f"sorting on {type(v).__name__}")


def order_compare(a: object, b: object) -> int:
    """The global order of two non-null values (min() and max() of mixed types use it; NaN
    above every number, as Neo4j's min/max compare with Java's Double.compare)."""
    ka, kb = sort_key(a), sort_key(b)
    return (ka > kb) - (ka < kb)
