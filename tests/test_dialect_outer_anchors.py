"""Patterns of one correlated match that start from two outer nodes: every later pattern's
other outer node is tied by id (`outer_anchors.py`); on Kuzu such an OPTIONAL MATCH is
refused. The rows are checked on both engines by the regression cases
(`tests/cypher_fuzz/regressions.py`, `*_two_patterns_from_two_outer_nodes*`)."""

from __future__ import annotations

import pytest

from dsgqa.dialect import DialectError, translate
from dsgqa.dialect.outer_anchors import REWRITE

PAIRS = "MATCH (a:Room)-[:ROOM_CONNECTED]->(b:Room) "

# (Ladybug's relationship-uniqueness test follows in a CASE, `id_filters.py`.)
TIED = [
    (PAIRS + "OPTIONAL MATCH (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) RETURN count(y) AS n",
     "OPTIONAL MATCH (a)-[_rel1:CONTAINS]->(x), (_node1)-[_rel2:CONTAINS]->(y) "
     "WHERE id(_node1) = id(b)"),
    (PAIRS + "RETURN COUNT { (a)-->(x), (b)-->(y) WHERE y.center.x < a.center.x } AS n",
     # in a COUNT the tie is compared with true too (`count_keys.py`)
     "COUNT { MATCH (a)-[_rel1]->(x), (_node1)-[_rel2]->(y) "
     "WHERE ((y.center.x < a.center.x) AND _rel1 <> _rel2) AND (id(_node1) = id(b)) = true }"),
    # the first pattern names no outer node: the first one that does keeps its nodes
    (PAIRS + "WHERE EXISTS { MATCH (x:Object), (a)-->(x), (b)-->(y) } RETURN count(*) AS n",
     "EXISTS { MATCH (x:Object), (a)-[_rel1]->(x), (_node1)-[_rel2]->(y) "
     "WHERE id(_node1) = id(b)"),
    (PAIRS + "CALL (a, b) { MATCH (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) "
     "RETURN count(*) AS c } RETURN c",
     "(_node1)-[_rel2:CONTAINS]->(y) WHERE id(_node1) = id(b)"),
]

UNTOUCHED = [
    # a plain MATCH, one outer node in both patterns, one chain, a pattern from a new node
    PAIRS + "MATCH (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) RETURN count(y) AS n",
    PAIRS + "OPTIONAL MATCH (a)-[:CONTAINS]->(x), (a)-[:CONTAINS]->(y) RETURN count(y) AS n",
    PAIRS + "OPTIONAL MATCH (a)-[:CONTAINS]->(x)<-[:CONTAINS]-(b) RETURN count(x) AS n",
    "MATCH (a:Room) OPTIONAL MATCH (a)-[:CONTAINS]->(x), (b:Room)-[:CONTAINS]->(y) "
    "RETURN count(y) AS n",
    # b is the COUNT's own node, not an outer one
    "MATCH (a:Room) RETURN COUNT { (a)-->(x), (b:Room)-->(y) } AS n",
]


@pytest.mark.parametrize(("query", "expected"), TIED)
def test_second_outer_node_is_tied_by_id(query: str, expected: str) -> None:
    out = translate(query, "ladybug")
    assert expected in out.query
    assert REWRITE in out.rewrites


@pytest.mark.parametrize("query", [q for q, _ in TIED if "COUNT" in q or "EXISTS" in q])
def test_subquery_form_is_tied_on_kuzu_too(query: str) -> None:
    assert REWRITE in translate(query, "kuzu").rewrites


@pytest.mark.parametrize("query", [TIED[0][0], TIED[3][0]])
def test_optional_match_form_is_refused_on_kuzu(query: str) -> None:
    with pytest.raises(DialectError, match="two nodes bound before it"):
        translate(query, "kuzu")


@pytest.mark.parametrize("query", UNTOUCHED)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_other_pattern_lists_are_left_alone(query: str, target: str) -> None:
    out = translate(query, target)   # type: ignore[arg-type]
    assert REWRITE not in out.rewrites
    assert "_node" not in out.query
