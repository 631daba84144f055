"""Variables named again in patterns: labels of a bound node become label tests
(`bound_labels.py`), a relationship variable named twice in one MATCH matches nothing
(`repeated_relationships.py`), and a pattern expression may not introduce a variable
(`scope_errors.py`, Neo4j's `SemanticExpressionCheck`). The rows are checked on both engines
by the regression cases (`labels_of_*`, `one_relationship_variable_twice*`); every error
below was confirmed with Neo4j 5's own linter."""

from __future__ import annotations

import pytest

from dsgqa.dialect import CypherSyntaxError, translate
from dsgqa.dialect.bound_labels import REWRITE as BOUND_LABELS
from dsgqa.dialect.repeated_relationships import REWRITE as REPEATED

TARGETS = ["ladybug", "kuzu"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("query", "expected"), [
    ("MATCH (p:Place)-->(o) MATCH (p:MeshPlace) RETURN count(*)",
     "label(p) = 'MeshPlace'"),
    ("MATCH (m:MeshPlace), (m:Object) RETURN count(*)",
     "MATCH (m:MeshPlace), (m) WHERE label(m) = 'Object'"),
    ("MATCH (a)-[:CONTAINS]->(x) MATCH (a:Room) RETURN count(*)",
     "label(a) = 'Room'"),
    ("MATCH (r:Room) MATCH (r:Room|Building)-->(x) RETURN count(*)",
     "(label(r) = 'Room' OR label(r) = 'Building')"),
])
def test_labels_of_a_bound_node_become_tests(query: str, expected: str, target: str) -> None:
    out = translate(query, target)   # type: ignore[arg-type]
    assert expected in out.query
    assert "(p:MeshPlace)" not in out.query and "(a:Room)" not in out.query
    assert BOUND_LABELS in out.rewrites


@pytest.mark.parametrize("query", [
    "MATCH (r:Room)-[:CONTAINS]->(m:MeshPlace) RETURN count(*)",
    "MATCH (r:Room) MATCH (r)-->(m:MeshPlace) RETURN count(*)",
    "MATCH (a:Room), (b:Room) RETURN count(*)",
])
def test_labels_of_new_nodes_stay(query: str) -> None:
    assert BOUND_LABELS not in translate(query, "ladybug").rewrites


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("query", [
    "MATCH (a:Room)-[e:ROOM_CONNECTED]->(b:Room), (b)-[e]->(a) RETURN count(*)",
    "MATCH ()-[e]->()-[e]->() RETURN count(*)",
    "MATCH (a)-[r*1..2]->(b), (c)-[r*1..2]->(d) RETURN count(*)",
    "MATCH (a:Room) OPTIONAL MATCH (a)-[e]->(b)-[e]->(c) RETURN a.nodeSymbol, e",
])
def test_a_relationship_named_twice_matches_nothing(query: str, target: str) -> None:
    out = translate(query, target)   # type: ignore[arg-type]
    assert "WHERE false" in out.query
    assert REPEATED in out.rewrites


def test_a_relationship_named_as_a_list_and_as_one_is_a_type_mismatch() -> None:
    query = ("MATCH (a:Room)-[r:ROOM_CONNECTED*1..2]->(b:Room)-[r]->(c:Room) "
             "RETURN count(*) AS n")
    with pytest.raises(CypherSyntaxError, match="Type mismatch: r defined with conflicting"):
        translate(query, "ladybug")


def test_a_relationship_read_again_in_a_subquery_is_the_bound_one() -> None:
    query = "MATCH (a:Room)-[e]->(b) WHERE EXISTS { MATCH (b)-[e]->(a) } RETURN count(*)"
    assert REPEATED not in translate(query, "ladybug").rewrites


@pytest.mark.parametrize(("query", "variable"), [
    ("MATCH (a:Room) WHERE (a)-->(x) RETURN count(a)", "x"),
    ("MATCH (a:Room) WHERE a.x > 1 AND (a)<--(b:Building) RETURN count(a)", "b"),
    ("MATCH (a:Room) WHERE (a)-[r]->() RETURN count(a)", "r"),
    ("MATCH (a:Room) RETURN NOT (a)-->(z) AS x", "z"),
    ("MATCH (a:Room) WHERE any(x IN [1] WHERE (a)-->(z)) RETURN 1", "z"),
    ("MATCH (a:Room) RETURN [(a)-->(b) WHERE (b)-->(c) | b.nodeSymbol] AS x", "c"),
])
def test_a_pattern_expression_may_not_introduce_a_variable(query: str, variable: str) -> None:
    with pytest.raises(CypherSyntaxError,
                       match=f"not allowed to introduce new variables: '{variable}'"):
        translate(query, "ladybug")


@pytest.mark.parametrize("query", [
    "MATCH (a:Room)-->(b) WHERE (a)-->(b) RETURN count(a)",
    "MATCH (a:Room) WHERE NOT (a)-[:CONTAINS]->(:Object) RETURN count(a)",
    "MATCH (a:Room) WITH a WHERE (a)-->(:Room) RETURN count(a)",
    # inside a CASE Neo4j's semantic analysis lets it pass
    "MATCH (a:Room) RETURN CASE WHEN (a)-->(z) THEN 1 END AS x",
    "MATCH (a:Room) RETURN [(a)-->(b) WHERE (b)-->(:Object) | b.nodeSymbol] AS x",
])
def test_pattern_expressions_over_bound_variables_stay_valid(query: str) -> None:
    translate(query, "ladybug")
