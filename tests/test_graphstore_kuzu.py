"""The embedded store on Ladybug (the default) and Kuzu: loading, read-only queries, limits,
reuse and the schema text. The shared-store tests run on both engines, in this one process
(each store builds and queries in child processes)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from benchcore.names import DEFAULT_EMBEDDED_BACKEND, EMBEDDED_BACKENDS
from dsgqa.graphstore import GraphStoreError, open_graph_store
from dsgqa.graphstore.engine import import_engine
from dsgqa.graphstore.kuzu_store import MARKER, KuzuStore
from dsgqa.graphstore.worker_pool import WorkerTimeout
from dsgqa.rows_to_sldp import rows_to_sldp
from dsgqa.scene_graph import EDGE_TYPES, LABELS, load_scene_graph
from tests import external
from tests.test_scene_graph import DEMO, EXAMPLE, raw_counts

# One statement per kind of write the guard and the read-only database must stop.
WRITES = {
    "create": "CREATE (:Object {nodeSymbol: 'X1', class: 'x', name: ''})",
    "merge": "MERGE (o:Object {nodeSymbol: 'O1'}) ON MATCH SET o.class = 'x'",
    "set": "MATCH (o:Object) SET o.class = 'vandalised'",
    "delete": "MATCH (o:Object) DELETE o",
    "detach_delete": "MATCH (r:Room) DETACH DELETE r",
    "remove": "MATCH (o:Object) REMOVE o.name",
    "drop": "DROP TABLE ROOM_CONNECTED",
    "alter": "ALTER TABLE Object ADD colour STRING",
    "copy_to_file": "COPY (MATCH (o:Object) RETURN o.nodeSymbol) TO '/tmp/dsg-leak.csv'",
    "copy_from": "COPY Object FROM '/tmp/dsg-objects.csv'",
    "load": "LOAD FROM '/etc/hostname' (file_format='csv') RETURN *",
    "install": "INSTALL httpfs",
    "attach": "ATTACH '/tmp/other.kz' AS other (dbtype kuzu)",
    "setting": "CALL query_timeout = 0",
    "procedure": "CALL project_graph('g', ['Object'], []) RETURN *",
    "two_statements": "MATCH (n) RETURN count(n); MATCH (o:Object) DELETE o",
    "lower_case": "match (o:Object) detach delete o",
    "in_subquery": "MATCH (r:Room) WHERE EXISTS { MATCH (r) SET r.name = 'x' } RETURN r",
    "update_extension": "UPDATE httpfs",
    "comment": "COMMENT ON TABLE Object IS 'vandalised'",
}
# What the read-only database itself refuses, with the guard out of the way (the second wall).
ENGINE_REFUSES = ("create", "merge", "set", "delete", "detach_delete", "remove", "drop",
                  "alter", "copy_from", "comment")


@pytest.fixture(scope="module")
def db_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("graphs")


@pytest.fixture(scope="module", params=EMBEDDED_BACKENDS)
def example_store(request, db_root):
    store = open_graph_store(request.param, load_scene_graph(EXAMPLE), db_root=db_root)
    yield store
    store.close()


@pytest.fixture(scope="module", params=EMBEDDED_BACKENDS)
def demo_store(request, db_root):
    store = open_graph_store(request.param, load_scene_graph(DEMO), db_root=db_root,
                             memory_limit_mb=256)
    yield store
    store.close()


@external.needs(external.EXAMPLE_DSG)
def test_example_counts_match_the_file(example_store):
    counts = example_store.counts()
    assert set(counts) == {*LABELS, *EDGE_TYPES}
    # Heracles' layout: every same-layer edge of the file is stored once in each direction.
    stored = {k: v * (1 if k in LABELS or k == "CONTAINS" else 2)
              for k, v in raw_counts(EXAMPLE).items()}
    assert {k: v for k, v in counts.items() if v} == stored
    assert sum(counts[label] for label in LABELS) == 166
    assert sum(counts[t] for t in EDGE_TYPES) == 643


def test_properties_and_struct_positions(demo_store):
    result = demo_store.query(
        "MATCH (o:Object {nodeSymbol: 'O1'}) "
        "RETURN o.class, o.name, o.center.x, o.center, o.bbox_dim.z"
    )
    assert result.valid, result.error
    cls, name, x, center, height = result.rows[0]
    assert (cls, name, x) == ("fridge", "", 0.5)
    assert center == pytest.approx({"x": 0.5, "y": 1.0, "z": 0.9})
    assert height == pytest.approx(1.8)


def test_multi_parent_and_parentless_nodes_survive(demo_store):
    result = demo_store.query(
        "MATCH (p:Place)-[:CONTAINS]->(o:Object {class: 'rug'}) RETURN p.nodeSymbol"
    )
    assert sorted(r[0] for r in result.rows) == ["p4", "p5"]
    orphans = demo_store.query("MATCH (o:Object) WHERE NOT EXISTS { MATCH ()-[:CONTAINS]->(o) } "
                               "RETURN o.class")
    assert orphans.rows == [["backpack"]]


@pytest.mark.parametrize("kind", sorted(WRITES))
def test_writes_change_nothing_and_are_invalid(demo_store, kind):
    before = demo_store.checksum()
    result = demo_store.query(WRITES[kind])
    assert not result.valid
    assert result.error and "\n" not in result.error
    assert result.rows == []
    assert demo_store.checksum() == before
    assert not Path("/tmp/dsg-leak.csv").exists()


@pytest.mark.parametrize("kind", ENGINE_REFUSES)
def test_read_only_database_refuses_writes_without_the_guard(demo_store, kind):
    """Bypass the write guard: the database is opened read-only, so writes still fail."""
    before = demo_store.checksum()
    response = demo_store._ask(WRITES[kind], timeout_s=5, max_rows=10)
    assert not response["ok"]
    assert demo_store.checksum() == before


def test_checksum_sees_every_kind_of_change(tmp_path):
    """The before/after checks above only mean something if a real change moves the hash."""
    graph = load_scene_graph(DEMO)
    store = KuzuStore("kuzu", tmp_path / "db")
    store.load(graph)
    before = store.checksum()
    store.close()
    engine = import_engine("kuzu")
    database = engine.Database(str(store.db_path))
    conn = engine.Connection(database)
    conn.execute("MATCH (o:Object {nodeSymbol: 'O1'}) SET o.name = 'renamed'")
    conn.close()
    database.close()
    store.open_read_only()
    try:
        assert store.checksum() != before
    finally:
        store.close()


def test_bad_cypher_is_data_not_an_exception(demo_store):
    for cypher in ("MATCH (n RETURN n", "RETURN foo(1)", "MATCH (n:Nope) RETURN n", "", "  "):
        result = demo_store.query(cypher)
        assert not result.valid and result.error
        assert "\n" not in result.error


def test_a_query_may_go_deeper_than_30_hops_for_itself(demo_store):
    """`max_hops` raises the engine's largest variable-length bound for that query only
    (`dialect.hop_bounds`); the next query is back at the engine's own 30."""
    deep = ("MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* SHORTEST 1..40]-"
            "(b:Room {nodeSymbol: 'R9'}) RETURN length(p)")
    assert "exceeds maximum: 30" in (demo_store.query(deep).error or "")
    assert demo_store.query(deep, max_hops=40).rows == [[3]]
    assert "exceeds maximum: 30" in (demo_store.query(deep).error or "")
    assert "exceeds maximum: 40" in (demo_store.query(
        deep.replace("1..40", "1..41"), max_hops=40).error or "")


def test_row_cap_cuts_and_flags(demo_store):
    result = demo_store.query("MATCH (o:Object) RETURN o.nodeSymbol", max_rows=10)
    assert result.valid and result.truncated
    assert len(result.rows) == 10
    exact = demo_store.query("MATCH (r:Room) RETURN r.nodeSymbol", max_rows=10)
    assert len(exact.rows) == 10 and not exact.truncated


@external.needs(external.EXAMPLE_DSG)
def test_expensive_query_times_out(example_store):
    result = example_store.query(
        "MATCH (a:MeshPlace)-[:MESH_PLACE_CONNECTED*1..12]-(b:MeshPlace) RETURN count(*)",
        timeout_s=0.5,
    )
    assert not result.valid
    assert "timed out after 0.5 s" in result.error
    assert result.seconds < 5
    assert example_store.query("MATCH (n) RETURN count(n)").rows == [[166]]


@external.needs(external.EXAMPLE_DSG)
def test_hard_deadline_kills_and_replaces_the_worker(example_store):
    """A query the engine does not interrupt in time: the worker is killed, the next works."""
    slow = {"cypher": "MATCH (a)-[*1..12]-(b) RETURN count(*)", "timeout_ms": 60_000,
            "max_rows": 1}
    with pytest.raises(WorkerTimeout):
        example_store._pool.ask(slow, hard_timeout_s=0.3)
    assert example_store.query("MATCH (n) RETURN count(n)").rows == [[166]]


def test_memory_cap_stops_a_runaway_allocation(demo_store):
    # ~400 MB of integers outside the buffer pool; the 256 MB budget must refuse it.
    demo_store.query("RETURN 1")
    before = {w.process.pid for w in demo_store._pool._idle}
    result = demo_store.query("UNWIND range(1, 50000000) AS x RETURN sum(x)", timeout_s=20)
    assert not result.valid
    assert "memory" in result.error
    # The worker that ran out of memory is replaced: one that failed bad_alloc failed every
    # later query too.
    assert not before & {w.process.pid for w in demo_store._pool._idle}
    assert demo_store.query("MATCH (r:Room) RETURN count(r)").rows == [[10]]


def test_queries_from_many_threads(demo_store):
    expected = {label: demo_store.counts()[label] for label in ("Object", "Place", "Room")}
    answers: list[tuple[str, object]] = []

    def ask(label: str) -> None:
        for _ in range(4):
            rows = demo_store.query(f"MATCH (n:{label}) RETURN count(n)").rows
            answers.append((label, rows[0][0]))

    threads = [threading.Thread(target=ask, args=(label,)) for label in expected for _ in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 24
    assert all(value == expected[label] for label, value in answers)


def test_rows_are_plain_json(demo_store):
    result = demo_store.query("MATCH (o:Object) RETURN sum(1), o LIMIT 1")
    json.dumps(result.rows)
    assert result.rows[0][0] == 1 and isinstance(result.rows[0][0], int)
    node = result.rows[0][1]
    assert node["_label"] == "Object" and "_id" not in node


def test_a_path_reads_the_same_on_both_engines(demo_store):
    """Ladybug spells a path's parts `_NODES` and `_RELS`: scoring reads a path as its list of
    nodes (`rows_to_sldp`) only under Kuzu's names, so a path a model returned whole was
    scored as a map on Ladybug."""
    result = demo_store.query("MATCH p = (r:Room)-[:CONTAINS]->(x) RETURN p LIMIT 1")
    path = result.rows[0][0]
    assert set(path) == {"_nodes", "_rels"}
    symbols = [node["nodeSymbol"] for node in path["_nodes"]]
    assert path["_nodes"][0]["_label"] == "Room" and len(symbols) == 2
    assert rows_to_sldp(["p"], [[path]], "[a]") == f"[{symbols[0]}, {symbols[1]}]"


def test_reopen_reuses_a_complete_load(db_root, demo_store):
    graph = load_scene_graph(DEMO)
    directory = db_root / f"{graph.fingerprint()[:16]}-{demo_store.backend}"
    marker = directory / MARKER
    stamp = marker.stat().st_mtime_ns
    again = open_graph_store(demo_store.backend, graph, db_root=db_root)
    try:
        assert marker.stat().st_mtime_ns == stamp
        assert again.checksum() == demo_store.checksum()
    finally:
        again.close()


def test_incomplete_load_is_rebuilt(tmp_path):
    graph = load_scene_graph(DEMO)
    directory = tmp_path / f"{graph.fingerprint()[:16]}-{DEFAULT_EMBEDDED_BACKEND}"
    directory.mkdir()
    (directory / "graph.kz").write_bytes(b"half a database")
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, graph, db_root=tmp_path)
    try:
        assert store.counts()["Object"] == 57
        assert json.loads((directory / MARKER).read_text())["fingerprint"] == graph.fingerprint()
    finally:
        store.close()


def test_closed_store_raises(tmp_path):
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(DEMO), db_root=tmp_path)
    store.close()
    with pytest.raises(GraphStoreError):
        store.query("RETURN 1")


def test_queries_work_when_the_process_holds_over_1024_descriptors(tmp_path):
    """A long-lived process (a served deployment, a test session) holds many descriptors after
    a few runs' LLM connections; the worker's pipes then get numbers select() refuses."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1200
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"descriptor limit {hard} < {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    held = []
    try:
        while not held or held[-1] < 1050:
            held.append(os.open(os.devnull, os.O_RDONLY))
        store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(DEMO),
                                 db_root=tmp_path)
        try:
            assert store.query("MATCH (r:Room) RETURN count(r)").rows == [[10]]
        finally:
            store.close()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_worker_that_fails_to_start_in_any_way_is_reaped(tmp_path, monkeypatch):
    from dsgqa.graphstore import worker_pool

    started = []

    def broken_read(self, deadline):
        started.append(self.process)
        raise ValueError("the wait itself failed")

    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(DEMO), db_root=tmp_path)
    try:
        monkeypatch.setattr(worker_pool._Worker, "_read", broken_read)
        with pytest.raises(ValueError):
            worker_pool._Worker(store._pool.spec)
        assert len(started) == 1 and started[0].poll() is not None   # killed and reaped
    finally:
        store.close()


def test_only_one_engine_per_process():
    import_engine("kuzu")
    with pytest.raises(GraphStoreError, match="kuzu is already loaded"):
        import_engine("ladybug")
    with pytest.raises(GraphStoreError, match="unknown"):
        import_engine("falkordb")


def test_unknown_backend_is_refused(tmp_path):
    with pytest.raises(GraphStoreError, match="unknown backend"):
        open_graph_store("falkordb", load_scene_graph(DEMO), db_root=tmp_path)


@external.needs(external.EXAMPLE_DSG)
def test_schema_description_comes_from_the_database(example_store):
    text = example_store.schema_description()
    assert "- Object(nodeSymbol: STRING, class: STRING, name: STRING, center: POINT" in text
    assert "bbox_dim: POINT" in text
    assert "- Place(" in text and "no nodes in this graph" in text
    assert "- CONTAINS: MeshPlace -> Object, Room -> MeshPlace" in text
    assert "- BUILDING_CONNECTED: none in this graph" in text
    assert "- Room: hallway, lounge" in text
    # The model writes Neo4j Cypher for Heracles' schema; dsgqa.dialect translates it.
    assert "point.distance" in text and "shortestPath" in text and "both directions" in text
    assert "65" not in text  # no counts: they would answer counting questions


# Each dialect note in the schema text, as a query whose answer proves the note true.
NOTE_CHECKS = [
    ("struct fields", "MATCH (o:Object {nodeSymbol: 'O1'}) RETURN o.center.x", [[0.5]]),
    ("no point()", "RETURN point({x: 1, y: 2, z: 3})", None),
    ("no distance()", "RETURN distance(1, 2)", None),
    ("SHORTEST", "MATCH p = (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* SHORTEST 1..10]-"
                 "(b:Room {nodeSymbol: 'R9'}) RETURN length(p), properties(nodes(p), 'name')",
     [[3, ["kitchen", "entrance hall", "landing", "office"]]]),
    ("no shortestPath", "MATCH p = shortestPath((a:Room)-[*]-(b:Room)) RETURN p", None),
    # O50 (office chair) has one edge, to the desk, stored both ways: one directed walk of
    # every length, up to the cap.
    ("30-hop default", "MATCH p = (a:Object {nodeSymbol: 'O50'})-[:OBJECT_CONNECTED*]->(b) "
                       "RETURN max(length(p))", [[30]]),
    ("label(r)", "MATCH (:Building)-[r]->(:Room {nodeSymbol: 'R1'}) RETURN label(r)",
     [["CONTAINS"]]),
    ("no type(r)", "MATCH ()-[r]->() RETURN type(r) LIMIT 1", None),
    ("label(n) string", "MATCH (n:Room {nodeSymbol: 'R1'}) RETURN label(n)", [["Room"]]),
    ("no comprehension", "RETURN [x IN [1, 2, 3] | x * 2]", None),
    ("list_transform", "RETURN list_transform([1, 2, 3], x -> x * 2), "
                       "list_filter([1, 2, 3], x -> x > 1), size([1, 2])",
     [[[2, 4, 6], [2, 3], 2]]),
    ("list_reduce", "RETURN list_reduce([1, 2, 3], (a, b) -> a + b)", [[6]]),
    ("any/all", "RETURN any(x IN [1, 2] WHERE x > 1), all(x IN [1, 2] WHERE x > 1)",
     [[True, False]]),
    ("no CALL {}", "CALL { MATCH (n) RETURN n } RETURN n", None),
    ("EXISTS/COUNT {}", "MATCH (r:Room {nodeSymbol: 'R1'}) RETURN COUNT { MATCH (r)-[:CONTAINS]->"
                        "(:Place) }, EXISTS { MATCH (r)-[:CONTAINS]->(:Place) }", [[2, True]]),
    ("1-based lists", "RETURN [10, 20, 30][1], [10, 20, 30][-1]", [[10, 30]]),
    ("1-based substring", "RETURN substring('kitchen', 1, 3)", [["kit"]]),
    ("CAST", "RETURN CAST(3.7 AS INT64), CAST(floor(3.7) AS INT64), CAST(2 AS DOUBLE), "
             "CAST(12 AS STRING)", [[4, 3, 2.0, "12"]]),
    ("no toInteger", "RETURN toInteger(3.7)", None),
    ("no toFloat", "RETURN toFloat(3)", None),
    ("round(x, n)", "RETURN round(3.14159, 2)", [[3.14]]),
    ("round needs 2 args", "RETURN round(3.14159)", None),
    ("collect of nothing", "MATCH (o:Object {class: 'piano'}) RETURN collect(o.class), "
                           "sum(o.center.x), coalesce(collect(o.class), []), "
                           "coalesce(sum(o.center.x), 0)", [[None, None, [], 0]]),
    # R1 has one neighbour, R2, through two relationships (one each way): walks may reuse
    # either (4 ways back to R1), trails may not (2 ways).
    ("walk semantics", "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED*2..2]-(b:Room) "
                       "WHERE b = a RETURN count(*)", [[4]]),
    ("walk in fixed patterns", "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED]-(b)"
                               "-[:ROOM_CONNECTED]-(c) WHERE c = a RETURN count(*)", [[4]]),
    ("TRAIL", "MATCH (a:Room {nodeSymbol: 'R1'})-[:ROOM_CONNECTED* TRAIL 2..2]-(b:Room) "
              "WHERE b = a RETURN count(*)", [[2]]),
    ("WITH ORDER BY needs LIMIT", "MATCH (r:Room) WITH r ORDER BY r.name RETURN count(r)", None),
    ("WITH ORDER BY SKIP 0", "MATCH (r:Room) WITH r ORDER BY r.name SKIP 0 RETURN count(r)",
     [[10]]),
    ("no properties(n)", "MATCH (n:Room) RETURN properties(n) LIMIT 1", None),
    ("unmatched label pair", "MATCH (a:Object)-[:CONTAINS]->(b:Room) RETURN count(*)", [[0]]),
]


# Where Ladybug 0.22.0's native dialect differs from Kuzu's notes (measured): collect() of
# nothing is [] and the coalesced sum a DOUBLE; properties(n) of a whole node works. Models
# never see these notes (they write Neo4j Cypher, which is translated).
LADYBUG_NOTE_RESULTS: dict[str, list | None] = {
    "collect of nothing": [[[], None, [], 0.0]],
    "no properties(n)": [[{"nodeSymbol": "R1", "class": "kitchen", "name": "kitchen",
                           "center": {"x": 2.0, "y": 2.0, "z": 1.2}}]],
}


@pytest.mark.parametrize(("note", "cypher", "expected"), NOTE_CHECKS,
                         ids=[n for n, _, _ in NOTE_CHECKS])
def test_dialect_notes_hold(demo_store, note, cypher, expected):
    """`expected=None`: the note says the construct is not supported, so it must fail."""
    if demo_store.backend == "ladybug":
        expected = LADYBUG_NOTE_RESULTS.get(note, expected)
    result = demo_store.query(cypher)
    if expected is None:
        assert not result.valid, f"{note}: now supported, update KUZU_NOTES"
    else:
        assert result.valid, f"{note}: {result.error}"
        assert result.rows == expected
