"""Neo4j 5 label expressions and the layout's exact-case names (`label_expressions.py`,
`layout_names.py`). Rows on the engines are checked by the fuzzer's regression cases
(`tests/cypher_fuzz/regressions.py`); these pin the translation itself."""

from __future__ import annotations

import pytest

from dsgqa.dialect import CypherSchemaError, DialectError, translate

TARGETS = ("kuzu", "ladybug")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "labels"), [
    ("MATCH (n:!Object) RETURN n.nodeSymbol", ":Place:MeshPlace:Room:Building"),
    ("MATCH (n:(Room|Place)&!Room) RETURN n.nodeSymbol", ":Place"),
    ("MATCH (n:%) RETURN n.nodeSymbol", ":Object:Place:MeshPlace:Room:Building"),
    ("MATCH (n:Room:Room) RETURN n.nodeSymbol", ":Room"),      # Neo4j 4: both labels
    ("MATCH (n:!Foo&Room) RETURN n.nodeSymbol", ":Room"),      # no node has Foo
    ("MATCH (n:Room|Place) RETURN n.nodeSymbol", ":Room:Place"),   # as written
])
def test_a_pattern_label_expression_is_the_alternation_it_allows(target, neo4j, labels):
    assert f"(n{labels})" in translate(neo4j, target).query


@pytest.mark.parametrize("target", TARGETS)
def test_a_pattern_predicate_keeps_its_label_expression(target):
    query = translate("MATCH (r:Room) WHERE (r)-[:CONTAINS]->(:!Object) RETURN r", target).query
    assert ":Place:MeshPlace:Room:Building)" in query


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("neo4j", [
    "MATCH (n:Room&Place) RETURN n",
    "MATCH (n:!%) RETURN n",
    "MATCH (n:Room:Place) RETURN n",
])
def test_a_pattern_no_node_satisfies_is_refused(target, neo4j):
    with pytest.raises(DialectError, match="no node satisfies"):
        translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "tests"), [
    ("MATCH (n) WHERE n:!Room RETURN n",
     "label(n) = 'Object' OR label(n) = 'Place' OR label(n) = 'MeshPlace' OR "
     "label(n) = 'Building'"),
    ("MATCH (n) WHERE n:(Room|Object) RETURN n", "label(n) = 'Object' OR label(n) = 'Room'"),
    ("MATCH (n) WHERE n:Room&Object RETURN n", "false RETURN"),
    ("MATCH (n) WHERE n:room RETURN n", "false RETURN"),   # false, as in Neo4j
    ("MATCH (r:Room) OPTIONAL MATCH (r)-->(n:Place) RETURN n:Place",
     "CASE WHEN n IS NULL THEN NULL ELSE label(n) = 'Place' END"),
    ("MATCH ()-[r]->() WHERE r:!CONTAINS RETURN r", "label(r) = 'OBJECT_CONNECTED'"),
    # A top-level `|` outside a pattern, which the grammar reads in parentheses.
    ("MATCH (n) WHERE n:Room|Object AND n.center.x > 1 RETURN n",
     "(label(n) = 'Object' OR label(n) = 'Room') AND n.center.x > 1"),
    ("MATCH (n) WHERE NOT n:Room | Place | Object RETURN n",
     "NOT (label(n) = 'Object' OR label(n) = 'Place' OR label(n) = 'Room')"),
    # (the nodes of a path are walked by position, `captures.py`)
    ("MATCH p = ()-[*1..2]->() RETURN [x IN nodes(p) WHERE x:Room|Place | x.nodeSymbol]",
     "= 'Place' OR "),
    ("MATCH p = ()-[*1..2]->() RETURN [x IN nodes(p) WHERE x:Room | x.nodeSymbol]",
     "_i1 + 1]"),
])
def test_a_label_predicate_tests_the_labels_it_allows(target, neo4j, tests):
    assert tests in translate(neo4j, target).query


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "written"), [
    ("MATCH (n:room) RETURN n", "MATCH (n) WHERE false"),
    ("MATCH (n:!room) RETURN n", "MATCH (n:Object:Place:MeshPlace:Room:Building) RETURN"),
    ("MATCH (a:Room) WHERE (a:room)-->() RETURN a", "WHERE false"),
    ("MATCH (a)-[:contains]->(b) RETURN b", "MATCH (a)-[]->(b) WHERE false"),
    ("MATCH (a)-[:CONTAINS|room_connected]->(b) RETURN b", "MATCH (a)-[:CONTAINS]->(b) RETURN"),
    ("MATCH (n:Room) RETURN n.NodeSymbol", "RETURN CAST(NULL AS STRING)"),
    ("MATCH (n:Room) RETURN n['CLASS']", "RETURN CAST(NULL AS STRING)"),
    ("MATCH (n:Room) RETURN n {.nodeSymbol, .Name}", "Name: CAST(NULL AS STRING)"),
])
def test_a_name_the_layout_spells_in_another_case_finds_nothing(target, neo4j, written):
    """The engines look names up ignoring case and would answer; Neo4j finds nothing (a
    pattern matches no row, a key is NULL)."""
    assert written in translate(neo4j, target).query


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "message"), [
    ("MATCH (n:Room) RETURN n.center.Y", "no point field Y"),
    ("MATCH (n:Room) WITH n.center AS c RETURN c.Z", "no point field Z"),
])
def test_a_point_field_in_another_case_is_a_schema_error(target, neo4j, message):
    """A point has the fields x, y, z: Neo4j raises for another."""
    with pytest.raises(CypherSchemaError, match=message):
        translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("neo4j", [
    "WITH {Class: 'x'} AS m RETURN m.Class",      # a map's own key
    "MATCH (n:Robot) RETURN n",                   # unknown: matches nothing
    "MATCH (n:Room) RETURN n.colour",             # unknown: NULL
])
def test_other_names_are_not_refused_here(target, neo4j):
    translate(neo4j, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("neo4j", "types"), [
    ("MATCH ()-[e:!CONTAINS]->() RETURN e",
     ":OBJECT_CONNECTED|PLACE_CONNECTED|MESH_PLACE_CONNECTED|ROOM_CONNECTED|BUILDING_CONNECTED"),
    ("MATCH ()-[e:!(CONTAINS|ROOM_CONNECTED)&!%]->() RETURN e", None),
    # Neo4j 4's `|:` stays valid (deprecated) on a relationship without a variable
    ("MATCH (a)-[:CONTAINS|:ROOM_CONNECTED]->(b) RETURN count(*) AS n", None),
    ("MATCH ()-[e:CONTAINS|ROOM_CONNECTED]->() RETURN e", ":CONTAINS|ROOM_CONNECTED"),
    ("MATCH ()-[e:(ROOM_CONNECTED|CONTAINS)&!CONTAINS*1..2]->() RETURN e", ":ROOM_CONNECTED*"),
])
def test_a_relationship_type_expression_is_the_list_it_allows(target, neo4j, types):
    if types is None and "[e:" in neo4j:
        with pytest.raises(DialectError, match="no relationship satisfies"):
            translate(neo4j, target)
        return
    if types is None:
        assert "[:CONTAINS|ROOM_CONNECTED]" in translate(neo4j, target).query
        return
    assert f"[e{types}" in translate(neo4j, target).query
