"""Heracles' graph layout, pinned on the example graph (docs/graph_layout.md has the same table)."""

from __future__ import annotations

from collections import Counter

import pytest

from benchcore.names import EMBEDDED_BACKENDS
from dsgqa.graphstore import open_graph_store
from dsgqa.graphstore.layout import node_properties, node_values, stored_edges
from dsgqa.scene_graph import load_scene_graph
from tests import external
from tests.test_scene_graph import EXAMPLE

NODES = {"Object": 65, "Place": 0, "MeshPlace": 96, "Room": 5, "Building": 0}
EDGES = {"CONTAINS": 161, "MESH_PLACE_CONNECTED": 472, "ROOM_CONNECTED": 10,
         "OBJECT_CONNECTED": 0, "PLACE_CONNECTED": 0, "BUILDING_CONNECTED": 0}
EDGE_ENDPOINTS = {("CONTAINS", "Room", "MeshPlace"): 91, ("CONTAINS", "MeshPlace", "Object"): 70,
                  ("MESH_PLACE_CONNECTED", "MeshPlace", "MeshPlace"): 472,
                  ("ROOM_CONNECTED", "Room", "Room"): 10}


@pytest.fixture(scope="module")
def graph():
    return load_scene_graph(EXAMPLE)


@external.needs(external.EXAMPLE_DSG)
def test_same_layer_edges_exist_both_ways(graph):
    edges = stored_edges(graph)
    pairs = {(e.type, e.source, e.target) for e in edges}
    assert len(pairs) == len(edges)
    for kind, a, b in pairs:
        if kind != "CONTAINS":
            assert (kind, b, a) in pairs
    labels = graph.labels_by_symbol()
    assert Counter((e.type, labels[e.source], labels[e.target]) for e in edges) == EDGE_ENDPOINTS


@external.needs(external.EXAMPLE_DSG)
def test_property_names_are_heracles(graph):
    assert node_properties("Object") == ("nodeSymbol", "class", "name", "center", "bbox_center",
                                         "bbox_dim")
    assert node_properties("Room") == ("nodeSymbol", "class", "name", "center")


@external.needs(external.EXAMPLE_DSG)
def test_every_loader_takes_its_property_names_from_the_layout(graph):
    from dsgqa.graphstore.neo4j_store import _node_query

    for node in graph.nodes:
        assert tuple(node_values(node)) == node_properties(node.label)
    assert _node_query("Object") == (
        "UNWIND $rows AS r CREATE (n:Object) SET n.nodeSymbol = r.nodeSymbol, n.class = r.class, "
        "n.name = r.name, n.center = point(r.center), n.bbox_center = point(r.bbox_center), "
        "n.bbox_dim = point(r.bbox_dim)")


@external.needs(external.EXAMPLE_DSG)
@pytest.mark.parametrize("backend", EMBEDDED_BACKENDS)
def test_the_embedded_database_holds_the_layout(graph, tmp_path, backend):
    store = open_graph_store(backend, graph, db_root=tmp_path)
    try:
        assert store.counts() == {**NODES, **EDGES}
        rows = store.query("MATCH (o:Object {nodeSymbol: 'O2'}) RETURN o.center, o.bbox_dim").rows
        center, box = rows[0]
        assert set(center) == {"x", "y", "z"} and set(box) == {"x", "y", "z"}
        ends = store.query("MATCH (a)-[r]->(b) RETURN label(r), label(a), label(b), count(*)",
                           max_rows=100).rows
        assert {(t, a, b): n for t, a, b, n in ends} == EDGE_ENDPOINTS
    finally:
        store.close()
