"""The Neo4j backend against a recording stand-in for the driver (no server can run here).

The stand-in implements the part of the driver interface the store uses (driver.session,
session.run / execute_read / execute_write, tx.run, result keys/iteration/consume) and records
every call: access mode, query text, parameters and timeout, which is what the tests assert.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import neo4j
import pytest
from neo4j.exceptions import ClientError, ServiceUnavailable
from neo4j.spatial import CartesianPoint

from dsgqa.graphstore import GraphStoreError
from dsgqa.graphstore.neo4j_store import BATCH_SIZE, Neo4jStore
from dsgqa.scene_graph import SceneEdge, SceneGraph, SceneNode, load_scene_graph
from tests.test_scene_graph import DEMO


@dataclass
class Call:
    kind: str  # "run" (auto-commit), "tx" (inside a managed transaction)
    access_mode: str
    query: str
    parameters: dict[str, Any]
    timeout: float | None
    database: str | None


class FakeRecord(tuple):
    def values(self) -> list[Any]:
        return list(self)


class FakeResult:
    def __init__(self, keys: list[str], rows: list[list[Any]]) -> None:
        self._keys = keys
        self._rows = rows
        self.consumed = False

    def keys(self) -> list[str]:
        return list(self._keys)

    def __iter__(self) -> Iterator[FakeRecord]:
        for row in self._rows:
            yield FakeRecord(row)

    def consume(self) -> None:
        self.consumed = True


@dataclass
class FakeDriver:
    """Answers queries with `responder(query) -> (keys, rows)` or raises what it returns."""

    responder: Callable[[str], Any] = lambda query: ([], [])
    calls: list[Call] = field(default_factory=list)
    closed: bool = False

    def session(self, *, database: str | None = None,
                default_access_mode: str = neo4j.WRITE_ACCESS) -> FakeSession:
        return FakeSession(self, database, default_access_mode)

    def close(self) -> None:
        self.closed = True

    def answer(self, kind: str, session: FakeSession, query: Any, parameters: dict[str, Any],
               timeout: float | None) -> FakeResult:
        text = query.text if isinstance(query, neo4j.Query) else query
        if isinstance(query, neo4j.Query):
            timeout = query.timeout
        self.calls.append(Call(kind, session.access_mode, text, parameters, timeout,
                               session.database))
        outcome = self.responder(text)
        if isinstance(outcome, Exception):
            raise outcome
        return FakeResult(*outcome)


class FakeTransaction:
    def __init__(self, session: FakeSession, access_mode: str, timeout: float | None) -> None:
        self.session, self.access_mode, self.timeout = session, access_mode, timeout

    def run(self, query: str, parameters: dict[str, Any] | None = None, **kwargs: Any):
        if isinstance(query, neo4j.Query):  # the real driver refuses these in transactions
            raise TypeError("Query object is only supported for session.run")
        saved, self.session.access_mode = self.session.access_mode, self.access_mode
        try:
            return self.session.driver.answer("tx", self.session, query,
                                              {**(parameters or {}), **kwargs}, self.timeout)
        finally:
            self.session.access_mode = saved


class FakeSession:
    def __init__(self, driver: FakeDriver, database: str | None, access_mode: str) -> None:
        self.driver, self.database, self.access_mode = driver, database, access_mode

    def __enter__(self) -> FakeSession:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, query: Any, parameters: dict[str, Any] | None = None, **kwargs: Any):
        return self.driver.answer("run", self, query, {**(parameters or {}), **kwargs}, None)

    def execute_read(self, work: Callable[..., Any], *args: Any) -> Any:
        return work(FakeTransaction(self, neo4j.READ_ACCESS, getattr(work, "timeout", None)),
                    *args)

    def execute_write(self, work: Callable[..., Any], *args: Any) -> Any:
        return work(FakeTransaction(self, neo4j.WRITE_ACCESS, getattr(work, "timeout", None)),
                    *args)


def test_query_runs_read_only_with_the_timeout():
    driver = FakeDriver(lambda q: (["n"], [[1], [2], [3]]))
    store = Neo4jStore(driver)
    result = store.query("MATCH (n:Object) RETURN n.x", timeout_s=7.5, max_rows=2)
    (call,) = driver.calls
    assert call.kind == "run" and call.access_mode == neo4j.READ_ACCESS
    assert call.query == "MATCH (n:Object) RETURN n.x" and call.timeout == 7.5
    assert result.valid and result.columns == ["n"]
    assert result.rows == [[1], [2]] and result.truncated


def test_points_become_xyz_maps():
    driver = FakeDriver(lambda q: (["c"], [[CartesianPoint((1.0, 2.0, 3.0))]]))
    result = Neo4jStore(driver).query("MATCH (n) RETURN n.center")
    assert result.rows == [[{"x": 1.0, "y": 2.0, "z": 3.0}]]


def test_write_attempts_never_reach_the_server():
    driver = FakeDriver()
    store = Neo4jStore(driver)
    for cypher in ("CREATE (n:Object)", "MATCH (n) DETACH DELETE n", "MATCH (n) SET n.x = 1",
                   "CALL apoc.create.node(['X'], {}) YIELD node RETURN node",
                   "LOAD CSV FROM 'file:///x' AS row RETURN row"):
        result = store.query(cypher)
        assert not result.valid and "not allowed" in result.error
    assert driver.calls == []


def test_server_errors_are_data_and_outages_are_errors():
    def refuse(query: str) -> Exception:
        if "boom" in query:
            return ServiceUnavailable("connection refused")
        return ClientError("Invalid input 'RETURN'")

    store = Neo4jStore(FakeDriver(refuse))
    result = store.query("MATCH (n RETURN n")
    assert not result.valid and "Invalid input" in result.error
    with pytest.raises(GraphStoreError, match="database unreachable"):
        store.query("MATCH (boom) RETURN boom")


def big_graph(n_objects: int) -> SceneGraph:
    nodes = [SceneNode("R1", "Room", "kitchen", "kitchen", (0.0, 0.0, 1.0))]
    nodes += [SceneNode(f"O{i}", "Object", "chair", "", (float(i), 0.0, 0.0),
                        (float(i), 0.0, 0.0), (0.5, 0.5, 0.9)) for i in range(n_objects)]
    edges = [SceneEdge("R1", f"O{i}", "CONTAINS") for i in range(n_objects)]
    edges.append(SceneEdge("O0", "O1", "OBJECT_CONNECTED"))
    return SceneGraph(tuple(nodes), tuple(edges), source="synthetic")


def test_load_replaces_content_in_unwind_batches():
    driver = FakeDriver()
    store = Neo4jStore(driver, database="dsg")
    store.load(big_graph(2 * BATCH_SIZE + 7))
    calls = driver.calls
    assert calls[0].query == "MATCH (n) DETACH DELETE n" and calls[0].access_mode == "WRITE"
    indexes = [c.query for c in calls if c.query.startswith("CREATE INDEX")]
    assert len(indexes) == 5 and all("ON (n.nodeSymbol)" in q for q in indexes)
    writes = [c for c in calls if c.query.startswith("UNWIND $rows")]
    assert all(c.kind == "tx" and c.access_mode == "WRITE" and c.database == "dsg"
               for c in writes)
    object_batches = [c for c in writes if "CREATE (n:Object)" in c.query]
    assert [len(c.parameters["rows"]) for c in object_batches] == [BATCH_SIZE, BATCH_SIZE, 7]
    first = object_batches[0].parameters["rows"][0]
    assert first == {"nodeSymbol": "O0", "class": "chair", "name": "",
                     "center": {"x": 0.0, "y": 0.0, "z": 0.0},
                     "bbox_center": {"x": 0.0, "y": 0.0, "z": 0.0},
                     "bbox_dim": {"x": 0.5, "y": 0.5, "z": 0.9}}
    assert "point(r.center)" in object_batches[0].query
    contains = [c for c in writes if ":CONTAINS]" in c.query]
    assert sum(len(c.parameters["rows"]) for c in contains) == 2 * BATCH_SIZE + 7
    assert "MATCH (a:Room {nodeSymbol: r.source})" in contains[0].query
    (linked,) = [c for c in writes if ":OBJECT_CONNECTED]" in c.query]
    # Heracles' layout: the same-layer edge is sent once in each direction.
    assert linked.parameters["rows"] == [{"source": "O0", "target": "O1"},
                                         {"source": "O1", "target": "O0"}]


def test_load_of_demo_graph_sends_every_node_and_edge_in_heracles_layout():
    graph = load_scene_graph(DEMO)
    driver = FakeDriver()
    Neo4jStore(driver).load(graph)
    rows = [(c.query, r) for c in driver.calls if c.query.startswith("UNWIND")
            for r in c.parameters["rows"]]
    symbols = [r["nodeSymbol"] for q, r in rows if "CREATE (n:" in q]
    assert sorted(symbols) == sorted(n.symbol for n in graph.nodes)
    contains = sum(1 for e in graph.edges if e.type == "CONTAINS")
    same_layer = len(graph.edges) - contains
    assert sum(1 for q, _ in rows if "CREATE (a)-[" in q) == contains + 2 * same_layer


def test_internal_reads_use_read_transactions_with_a_timeout():
    answers = {
        "MATCH (n) UNWIND labels(n)": (["l", "c"], [["Object", 2], ["Room", 1]]),
        "MATCH ()-[r]->() RETURN type(r)": (["t", "c"], [["CONTAINS", 2]]),
        "CALL db.schema.nodeTypeProperties": (
            ["l", "p", "t"], [[["Object"], "nodeSymbol", ["String"]],
                              [["Object"], "center", ["Point"]]]),
        "MATCH (a)-[r]->(b) RETURN type(r), labels": (["t", "a", "b", "c"],
                                                      [["CONTAINS", "Room", "Object", 2]]),
        "RETURN DISTINCT labels(n)[0], n.class": (["l", "c"], [["Object", "chair"]]),
    }

    def respond(query: str):
        return next((v for k, v in answers.items() if query.startswith(k) or k in query),
                    ([], []))

    driver = FakeDriver(respond)
    store = Neo4jStore(driver)
    assert store.counts()["Object"] == 2 and store.counts()["Place"] == 0
    text = store.schema_description()
    assert "- Object(nodeSymbol: STRING, center: POINT)" in text
    assert "- Room(nodeSymbol: STRING, class: STRING" in text  # from the loader when unknown
    assert "- CONTAINS: Room -> Object" in text and "- Object: chair" in text
    assert "point.distance" in text and "SHORTEST" not in text
    assert all(c.kind == "tx" and c.access_mode == "READ" and c.timeout == 300.0
               for c in driver.calls)


def test_checksum_hashes_nodes_and_edges():
    state = {"name": "kitchen"}

    def respond(query: str):
        if query.startswith("MATCH (n) RETURN labels(n)"):
            return ["l", "p"], [[["Room"], {"nodeSymbol": "R1", "name": state["name"]}]]
        return ["t", "a", "b", "p"], [["CONTAINS", "B0", "R1", {}]]

    store = Neo4jStore(FakeDriver(respond))
    before = store.checksum()
    assert store.checksum() == before
    state["name"] = "vandalised"
    assert store.checksum() != before


def test_close_closes_the_driver():
    driver = FakeDriver()
    store = Neo4jStore(driver)
    store.close()
    assert driver.closed
    with pytest.raises(GraphStoreError, match="closed"):
        store.query("RETURN 1")


def test_open_without_uri_or_server_fails_in_one_line(tmp_path):
    from dsgqa.graphstore import open_graph_store

    graph = load_scene_graph(DEMO)
    with pytest.raises(GraphStoreError, match="needs a URI"):
        open_graph_store("neo4j", graph, db_root=tmp_path)
    unreachable = r"database unreachable: bolt://127\.0\.0\.1:9"
    with pytest.raises(GraphStoreError, match=unreachable) as err:
        open_graph_store("neo4j", graph, neo4j_uri="bolt://127.0.0.1:9", neo4j_user="neo4j",
                         neo4j_password="secret")
    assert "\n" not in str(err.value) and "secret" not in str(err.value)
