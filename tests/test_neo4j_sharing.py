"""A Neo4j database shared by several stores: loaded only when it does not hold the graph, never
replaced under a store on this machine that uses it, and a load raced from elsewhere is an
error. Against a stand-in server (no Neo4j can run here) that keeps what the loader's queries
write and answers the content queries from it, as a server would."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from neo4j.spatial import CartesianPoint

from dsgqa.graphstore import GraphStoreError, open_graph_store
from dsgqa.graphstore.layout import POINT_PROPERTIES
from dsgqa.graphstore.neo4j_claim import Neo4jClaim
from dsgqa.graphstore.neo4j_content import EDGES_QUERY, NODES_QUERY
from dsgqa.graphstore.neo4j_store import Neo4jStore
from dsgqa.scene_graph import SceneEdge, SceneGraph, SceneNode, load_scene_graph
from tests.test_graphstore_neo4j import FakeDriver, FakeResult, FakeSession
from tests.test_scene_graph import DEMO

URI = "bolt://lab-server:7687"


class StandInServer:
    """What the database holds: nodes (label, properties) and relationships (type, source
    symbol, target symbol), changed by the loader's queries as Neo4j would change them."""

    def __init__(self) -> None:
        self.nodes: list[tuple[str, dict[str, Any]]] = []
        self.edges: list[tuple[str, str, str]] = []
        self.writes = 0

    def answer(self, query: str, parameters: dict[str, Any]) -> tuple[list[str], list[Any]]:
        if query == "MATCH (n) DETACH DELETE n":
            self.writes += 1
            self.nodes, self.edges = [], []
        elif created := re.search(r"CREATE \(n:(\w+)\)", query):
            self.writes += 1
            for row in parameters["rows"]:
                props = {k: CartesianPoint((v["x"], v["y"], v["z"]))
                         if k in POINT_PROPERTIES else v
                         for k, v in row.items() if v is not None}
                self.nodes.append((created.group(1), props))
        elif linked := re.search(r"CREATE \(a\)-\[:(\w+)\]->\(b\)", query):
            self.writes += 1
            symbols = {props["nodeSymbol"] for _, props in self.nodes}
            self.edges += [(linked.group(1), r["source"], r["target"]) for r in parameters["rows"]
                           if r["source"] in symbols and r["target"] in symbols]
        elif query == NODES_QUERY:
            return ["labels", "props"], [[[label], dict(props)] for label, props in self.nodes]
        elif query == EDGES_QUERY:
            return ["t", "a", "b"], [list(edge) for edge in self.edges]
        return [], []

    def driver(self) -> FakeDriver:
        server = self

        class Connected(FakeDriver):
            def answer(self, kind: str, session: FakeSession, query: Any,
                       parameters: dict[str, Any], timeout: float | None) -> FakeResult:
                super().answer(kind, session, query, parameters, timeout)   # recorded
                return FakeResult(*server.answer(str(query), parameters))

        return Connected()


def _graph(room_class: str) -> SceneGraph:
    nodes = (SceneNode("R1", "Room", room_class, "", (0.0, 0.0, 1.0)),
             SceneNode("O1", "Object", "chair", "", (1.0, 2.0, 0.5), (1.0, 2.0, 0.5),
                       (0.4, 0.4, 0.9)),
             SceneNode("O2", "Object", "table", "", (1.5, 2.0, 0.5), None, None))
    edges = (SceneEdge("R1", "O1", "CONTAINS"), SceneEdge("R1", "O2", "CONTAINS"),
             SceneEdge("O1", "O2", "OBJECT_CONNECTED"))
    return SceneGraph(nodes, edges, source=f"{room_class}.json")


def _opened(server: StandInServer, graph: SceneGraph, root: Path) -> Neo4jStore:
    store = Neo4jStore(server.driver())
    try:
        store.open_for(graph, Neo4jClaim(root, URI))
    except Exception:
        store.close()
        raise
    return store


def test_a_database_holding_the_graph_is_used_as_it_is(tmp_path: Path) -> None:
    server, graph = StandInServer(), load_scene_graph(DEMO)
    first = _opened(server, graph, tmp_path)
    loaded = server.writes
    assert loaded > 0 and first.holds(graph)
    # A second process of the run (a Dask worker, the oracle): reads, writes nothing.
    second = _opened(server, graph, tmp_path)
    assert server.writes == loaded
    first.close()
    second.close()


def test_another_graph_in_use_on_this_machine_is_not_loaded_over_it(tmp_path: Path) -> None:
    server, kitchen, office = StandInServer(), _graph("kitchen"), _graph("office")
    running = _opened(server, kitchen, tmp_path)
    with pytest.raises(GraphStoreError, match="another run on this machine is using") as error:
        _opened(server, office, tmp_path)
    assert "\n" not in str(error.value)
    assert running.holds(kitchen)   # the running store's graph is untouched
    running.close()
    later = _opened(server, office, tmp_path)   # nobody uses it now: replaced
    assert later.holds(office) and not later.holds(kitchen)
    later.close()


def test_a_changed_database_is_loaded_again(tmp_path: Path) -> None:
    server, graph = StandInServer(), _graph("kitchen")
    _opened(server, graph, tmp_path).close()
    server.nodes[0][1]["class"] = "bathroom"   # edited by hand on the server
    writes = server.writes
    store = _opened(server, graph, tmp_path)
    assert server.writes > writes and store.holds(graph)
    store.close()


def test_a_load_raced_from_another_machine_is_an_error(tmp_path: Path) -> None:
    class Raced(StandInServer):
        def answer(self, query: str, parameters: dict[str, Any]):
            answer = super().answer(query, parameters)
            if "CREATE (n:Object)" in query:   # another machine's loader, at the same time
                self.nodes.append(("Object", {"nodeSymbol": "O1", "class": "chair"}))
            return answer

    with pytest.raises(GraphStoreError, match="changed while the scene graph was loaded"):
        _opened(Raced(), _graph("kitchen"), tmp_path)


def test_open_graph_store_shares_the_database(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    server, graph = StandInServer(), _graph("kitchen")
    monkeypatch.setattr(Neo4jStore, "connect",
                        classmethod(lambda cls, *args, **kw: cls(server.driver())))
    with open_graph_store("neo4j", graph, db_root=tmp_path, neo4j_uri=URI) as first:
        loaded = server.writes
        with open_graph_store("neo4j", graph, db_root=tmp_path, neo4j_uri=URI):
            assert server.writes == loaded
        with pytest.raises(GraphStoreError, match="another run"):
            open_graph_store("neo4j", _graph("office"), db_root=tmp_path, neo4j_uri=URI)
        assert first.holds(graph)
