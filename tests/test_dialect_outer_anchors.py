"""Patterns of one correlated match that start from two outer nodes: every later pattern's
other outer node is tied by id (`outer_anchors.py`), compared with true in a subquery; on Kuzu
such an OPTIONAL MATCH is refused. The rows are checked on both engines by the regression
cases (`tests/cypher_fuzz/regressions.py`, `*_two_patterns_from_two_outer_nodes*`), which
accept a refusal; here the subquery forms must be answered."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from dsgqa.dialect import DialectError, translate
from dsgqa.dialect.outer_anchors import REWRITE
from tests.cypher_fuzz import graphs
from tests.cypher_fuzz.engines import BACKENDS, run_engines
from tests.cypher_fuzz.regressions import CASES, GRAPH
from tests.ladybug_run import require_ladybug

PAIRS = "MATCH (a:Room)-[:ROOM_CONNECTED]->(b:Room) "

# (On Ladybug the relationship-uniqueness test follows in a CASE, `pattern_filters.py`.)
TIED = [
    (PAIRS + "OPTIONAL MATCH (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) RETURN count(y) AS n",
     "OPTIONAL MATCH (a)-[_rel1:CONTAINS]->(x), (_node1)-[_rel2:CONTAINS]->(y) "
     "WHERE id(_node1) = id(b)"),
    (PAIRS + "RETURN COUNT { (a)-->(x), (b)-->(y) WHERE y.center.x < a.center.x } AS n",
     # in a COUNT the tie is compared with true too (`count_keys.py`)
     "COUNT { MATCH (a)-[_rel1]->(x), (_node1)-[_rel2]->(y) "
     "WHERE (y.center.x < a.center.x) AND (id(_node1) = id(b)) = true AND CASE"),
    # the first pattern names no outer node: the first one that does keeps its nodes; in an
    # EXISTS the tie is compared with true (as written, both engines fail: unordered_map::at)
    (PAIRS + "WHERE EXISTS { MATCH (x:Object), (a)-->(x), (b)-->(y) } RETURN count(*) AS n",
     "EXISTS { MATCH (x:Object), (a)-[_rel1]->(x), (_node1)-[_rel2]->(y) "
     "WHERE (id(_node1) = id(b)) = true AND CASE"),
    (PAIRS + "RETURN EXISTS { (a)-[:CONTAINS]->(x), (y)-[:CONTAINS]->(b) } AS e",
     "EXISTS { MATCH (a)-[_rel1:CONTAINS]->(x), (y)-[_rel2:CONTAINS]->(_node1) "
     "WHERE (id(_node1) = id(b)) = true AND CASE"),
    (PAIRS + "RETURN NOT EXISTS { MATCH (a)-->(x), (b)-->(y) WHERE x.class = y.class "
     "RETURN x } AS e",
     # the EXISTS's RETURN is dropped
     "(_node1)-[_rel2]->(y) WHERE (id(_node1) = id(b)) = true AND CASE"),
    # size() of a pattern comprehension (a COUNT) whose WHERE holds such an EXISTS
    (PAIRS + "RETURN size([(a)-->(m) WHERE EXISTS { (m)-->(x), (b)-->(y) } | m]) AS n",
     "EXISTS { MATCH (m)-[_rel1]->(x), (_node1)-[_rel2]->(y) "
     "WHERE (id(_node1) = id(b)) = true AND CASE"),
    (PAIRS + "MATCH (c:Room) RETURN EXISTS { (a)-->(x), (b)-->(y), (c)-->(z) } AS e",
     "WHERE (id(_node1) = id(b)) = true AND (id(_node2) = id(c)) = true AND CASE"),
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


@pytest.mark.parametrize("query", [q for q, _ in TIED if "OPTIONAL" in q or "CALL" in q])
def test_optional_match_form_is_refused_on_kuzu(query: str) -> None:
    with pytest.raises(DialectError, match="two nodes bound before it"):
        translate(query, "kuzu")


@pytest.mark.parametrize("query", UNTOUCHED)
@pytest.mark.parametrize("target", ["ladybug", "kuzu"])
def test_other_pattern_lists_are_left_alone(query: str, target: str) -> None:
    out = translate(query, target)   # type: ignore[arg-type]
    assert REWRITE not in out.rewrites
    assert "_node" not in out.query


# The regression cases of EXISTS and COUNT subqueries from two outer nodes.
ANSWERED = [case for case in CASES if "two_outer_nodes" in case.name
            and case.name.startswith(("exists", "not_exists", "count"))]


@pytest.fixture(scope="module")
def answered_rows() -> dict[str, list[dict[str, Any]]]:
    require_ladybug()
    with tempfile.TemporaryDirectory(prefix="outer-anchors-") as scratch:
        path = graphs.write_spark_dsg(GRAPH, Path(scratch) / "graph.json")
        results = run_engines([{"graph": str(path), "queries": [c.query for c in ANSWERED]}])
    return {backend: results[backend][0] for backend in BACKENDS}


def test_subquery_cases_are_chosen() -> None:
    assert len(ANSWERED) >= 6 and any(c.name.startswith("exists") for c in ANSWERED)


@pytest.mark.parametrize("backend", BACKENDS)
def test_subqueries_from_two_outer_nodes_are_answered(
        answered_rows: dict[str, list[dict[str, Any]]], backend: str) -> None:
    """Not refused: the EXISTS forms failed with unordered_map::at on both engines (`dialect`)
    before the tie was compared with true; the rows are the regression cases' to check."""
    refused = [f"{case.name}: {result['error']}"
               for case, result in zip(ANSWERED, answered_rows[backend], strict=True)
               if not result["valid"]]
    assert not refused, "\n".join(refused)
