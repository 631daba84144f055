"""Names that differ only in case (`variable_case.py`, `layout_names.py`): Neo4j's are
case-sensitive, the engines' binders and struct fields are not, so each such query is refused
or raises Neo4j's own error instead of answering with another variable's value."""

from __future__ import annotations

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate

TARGETS = ("kuzu", "ladybug")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "name"), [
    ("MATCH (n:Room) RETURN N.nodeSymbol", "N"),
    ("MATCH (a:Room) RETURN a.nodeSymbol AS S ORDER BY s", "s"),
    ("MATCH (r:Room) WITH r AS room RETURN ROOM.class", "ROOM"),
    ("MATCH (r:Room) RETURN [x IN [1, 2] | X] AS xs", "X"),
])
def test_a_name_bound_only_in_another_case_is_not_defined(target, neo4j, name):
    with pytest.raises(CypherSyntaxError, match=f"variable {name} is not defined"):
        translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("neo4j", [
    "MATCH (a:Room), (A:Object) RETURN count(*) AS c",
    "MATCH (a:Room) WITH a.nodeSymbol AS X, a.class AS x RETURN X, x",
    "UNWIND [1, 2] AS i UNWIND [3] AS I RETURN i, I",
    # Neo4j: R is a new variable of the subquery (any node with a relationship); the engines
    # would read it as r.
    "MATCH (r:Room) WHERE EXISTS { MATCH (R)-->() } RETURN r",
    "MATCH (a:Room) WITH a, a.nodeSymbol AS A RETURN A ORDER BY A",
])
def test_two_names_bound_in_different_cases_are_refused(target, neo4j):
    with pytest.raises(DialectError, match="differ only in case"):
        translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("neo4j", [
    "WITH {Class: 'x'} AS m RETURN m.class AS c",
    "MATCH (n:Room) WITH n {.nodeSymbol} AS m RETURN m.NODESYMBOL AS c",
    "MATCH (n:Room) WITH collect(n {.class}) AS ms RETURN [m IN ms | m.Class] AS cs",
])
def test_a_map_key_read_in_another_case_is_refused(target, neo4j):
    """Neo4j: NULL (no such key); the engines: the other key's value."""
    with pytest.raises(DialectError, match="differs only in case"):
        translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("neo4j", [
    "MATCH (n:Room) RETURN count(n) AS N",        # an alias nothing reads is a column name
    "MATCH (a:Room) RETURN a.nodeSymbol AS X, a.class AS x ORDER BY a.nodeSymbol",
    "MATCH (n:Room) RETURN Count(n), COUNT(*)",   # function names ignore case in Neo4j too
    "WITH {Class: 'x'} AS m RETURN m.Class",     # not the graph's `class`: a map's own key
    "MATCH (r:Room) WHERE EXISTS { MATCH (r)-->() } RETURN r",
])
def test_names_in_one_case_each_pass(target, neo4j):
    translate(neo4j, target)
