"""startNode(r) / endNode(r) give the stored start and end on Kuzu, as on Neo4j, also when the
pattern has no direction (Kuzu's own start_node() follows the traversal there)."""

from __future__ import annotations

import pytest

from dsgqa.dialect import DialectError, translate
from dsgqa.graphstore import open_graph_store
from dsgqa.scene_graph import load_scene_graph
from tests import external, fidelity_gold
from tests.test_dialect_uniqueness import relationships


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = open_graph_store("kuzu", load_scene_graph(fidelity_gold.EXAMPLE),
                             db_root=tmp_path_factory.mktemp("graphs"))
    yield store
    store.close()


def rows(store, neo4j: str) -> list[tuple]:
    result = store.query(translate(neo4j).query, max_rows=10_000)
    assert result.valid, result.error
    return sorted(map(tuple, result.rows), key=repr)


def neo4j_rows() -> list[tuple]:
    """(x, y, start, end) of every undirected match (x)-[:ROOM_CONNECTED]-(y), from the JSON."""
    out = []
    for rel in relationships():
        if rel.type == "ROOM_CONNECTED":
            out += [(rel.src, rel.dst, rel.src, rel.dst), (rel.dst, rel.src, rel.src, rel.dst)]
    return sorted(out)


@external.needs(external.EXAMPLE_DSG)
def test_undirected_start_and_end_are_the_stored_ones(store):
    neo4j = ("MATCH (x:Room)-[r:ROOM_CONNECTED]-(y:Room) RETURN x.nodeSymbol, y.nodeSymbol, "
             "startNode(r).nodeSymbol, endNode(r).nodeSymbol")
    translation = translate(neo4j)
    assert "startNode->CASE on _src" in translation.rewrites
    assert "struct_extract(r, '_src')" in translation.query
    assert rows(store, neo4j) == neo4j_rows()
    # Kuzu's start_node() alone gives the traversal's start on every row.
    plain = store.query(neo4j.replace("startNode", "start_node").replace("endNode", "end_node"),
                        max_rows=10_000)
    assert sorted(map(tuple, plain.rows)) != neo4j_rows()


@external.needs(external.EXAMPLE_DSG)
def test_anonymous_endpoints_and_whole_nodes(store):
    neo4j = ("MATCH (:Room {nodeSymbol: 'R1'})-[r:ROOM_CONNECTED]-(:Room) "
             "RETURN startNode(r) AS s, endNode(r) AS e")
    got = sorted((s["nodeSymbol"], e["nodeSymbol"]) for s, e in rows(store, neo4j))
    assert got == sorted((s, e) for x, _, s, e in neo4j_rows() if x == "R1")


@external.needs(external.EXAMPLE_DSG)
def test_directed_patterns_use_kuzus_start_node(store):
    neo4j = ("MATCH (m:MeshPlace)<-[r:CONTAINS]-(x:Room) "
             "RETURN m.nodeSymbol, startNode(r).nodeSymbol, endNode(r).nodeSymbol")
    assert translate(neo4j).rewrites == ("startNode->start_node",)
    assert all(start != m and end == m for m, start, end in rows(store, neo4j))


def test_an_endpoint_compared_is_compared_on_each_end():
    """`startNode(r) = a` of an undirected hop: the comparison with the end that is the stored
    start, never a node-valued CASE inside it (Kuzu 0.11.3 crashes on one)."""
    query = translate("MATCH (a)-[r]-(b) WHERE startNode(r) = a RETURN a").query
    assert "THEN a = a ELSE b = a END" in query or "THEN id(a) = id(a) ELSE id(b) = id(a)" in query


@pytest.mark.parametrize("cypher", [
    "MATCH (a)-[r]-(b) WITH r RETURN startNode(r).nodeSymbol",  # endpoints dropped
    "MATCH (a)-[r]-(b) WHERE startNode(r) IN [a] RETURN a",  # node-valued CASE in a list
    "MATCH p = (a)-[*]-(b) RETURN [x IN relationships(p) | startNode(x)]",  # undirected path
    "MATCH p = (a)-[*]->(b)<-[]-(c) RETURN [x IN relationships(p) | startNode(x)]",  # both ways
    "MATCH p = (a)-[*]->(b) WITH relationships(p) AS rs RETURN [x IN rs | startNode(x)]",
    "RETURN startNode(1)",
])
def test_what_has_no_faithful_form_is_a_dialect_error(cypher):
    """(A path matched one way walks its positions: tests/cypher_fuzz/regressions.py.)"""
    with pytest.raises(DialectError, match=r"startNode|endNode"):
        translate(cypher)
