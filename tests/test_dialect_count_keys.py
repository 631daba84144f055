"""Equalities between a COUNT subquery's own values and outer ones are compared with true
(`count_keys.py`), so the engines do not plan them as a join key. The rows are checked on both
engines by the regression cases (`tests/cypher_fuzz/regressions.py`, `count_*`)."""

from __future__ import annotations

import pytest

from dsgqa.dialect import translate
from dsgqa.dialect.count_keys import REWRITE

OUTER = "MATCH (t:Object {nodeSymbol: 'O1'}) MATCH (r:Room) "

CHANGED = [
    (OUTER + "RETURN COUNT { (r)-->(o:Object) WHERE o.class = t.class } AS k",
     "WHERE (o.class = t.class) = true"),
    (OUTER + "RETURN COUNT { (r)-->(:Object {class: t.class}) } AS k",
     "->(_node1:Object) WHERE (_node1.class = t.class) = true"),
    (OUTER + "RETURN size([(r)-->(o:Object) WHERE o.class = t.class | o]) AS k",
     "(o.class = t.class) = true"),
    ("MATCH (a:Room), (b:Room) RETURN COUNT { (a)-->(n)-->(x) WHERE x = b } AS k",
     "= true"),   # `(x = b) = true`; on Kuzu `(id(x) = id(b)) = true`
]

UNCHANGED = [
    # EXISTS is planned right; a COUNT's equalities of its own values or of literals stay
    OUTER + "RETURN EXISTS { (r)-->(o:Object) WHERE o.class = t.class } AS e",
    OUTER + "RETURN COUNT { (r)-->(o:Object) WHERE o.class = 'trash' } AS k",
    OUTER + "RETURN COUNT { (r)-->(o:Object)-->(p) WHERE o.class = p.class } AS k",
    OUTER + "RETURN COUNT { (r)-->(o:Object {class: 'trash'}) } AS k",
]


@pytest.mark.parametrize(("query", "expected"), CHANGED)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_equality_with_an_outer_value_is_compared_with_true(query: str, expected: str,
                                                           target: str) -> None:
    out = translate(query, target)   # type: ignore[arg-type]
    assert expected in out.query
    assert REWRITE in out.rewrites


@pytest.mark.parametrize("query", UNCHANGED)
def test_other_equalities_stay(query: str) -> None:
    out = translate(query, "ladybug")
    assert REWRITE not in out.rewrites
    assert "= true" not in out.query
