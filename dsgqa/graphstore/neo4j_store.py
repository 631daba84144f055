"""The production store: a Neo4j server over Bolt, through the official `neo4j` driver.

- The model's Cypher runs in a READ-mode session as `Query(cypher, timeout=...)`, so the server
  rejects writes and ends slow queries itself; the write guard refuses writes before that.
  (The driver accepts `Query` objects only in `Session.run`, so this is an auto-commit READ
  transaction.) Our own reads use `execute_read` with `unit_of_work(timeout=...)`.
- Opening loads the graph only when the database does not hold it already, and never over a
  graph another store on this machine is using (`neo4j_claim`, `neo4j_content`).
- Loading replaces the database content: one DETACH DELETE, nodeSymbol indexes per label, then
  `UNWIND $rows` batches for nodes and for edges (per edge type and endpoint labels, so the MATCH
  uses the index).
- The layout is Heracles' (`layout.py`): same-layer edges both ways, `bbox_center`/`bbox_dim`.
- Positions are Neo4j points, so `n.center.x` and `point.distance()` work.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any

from dsgqa.graphstore import neo4j_content
from dsgqa.graphstore.base import (
    GraphStore,
    GraphStoreError,
    QueryResult,
    SchemaFacts,
    content_hash,
    one_line,
    plain_value,
)
from dsgqa.graphstore.layout import POINT_PROPERTIES, node_properties, stored_edges
from dsgqa.graphstore.neo4j_claim import Neo4jClaim
from dsgqa.graphstore.row_reader import RowReader
from dsgqa.graphstore.write_guard import write_violation
from dsgqa.scene_graph import LABELS, SceneGraph

BATCH_SIZE = 5000
# Properties as the loader writes them, for labels the server cannot describe (no nodes yet).
NODE_PROPERTIES: dict[str, list[tuple[str, str]]] = {
    label: [(prop, "POINT" if prop in POINT_PROPERTIES else "STRING")
            for prop in node_properties(label)]
    for label in LABELS
}
_TRUSTED_TIMEOUT_S = 300.0


def _node_query(label: str) -> str:
    """One batch of `label` nodes, with the layout's properties; points as Neo4j points."""
    sets = ", ".join(f"n.{name} = point(r.{name})" if name in POINT_PROPERTIES
                     else f"n.{name} = r.{name}" for name in node_properties(label))
    return f"UNWIND $rows AS r CREATE (n:{label}) SET {sets}"


def _edge_query(edge_type: str, src: str, dst: str) -> str:
    return (f"UNWIND $rows AS r MATCH (a:{src} {{nodeSymbol: r.source}}) "
            f"MATCH (b:{dst} {{nodeSymbol: r.target}}) CREATE (a)-[:{edge_type}]->(b)")


def _batches(rows: list[Any]) -> list[list[Any]]:
    return [rows[i:i + BATCH_SIZE] for i in range(0, len(rows), BATCH_SIZE)]


def neo4j_value(value: Any) -> Any:
    """Driver values as plain data shaped like Kuzu's: nodes/rels as dicts with `_label`,
    points as {x, y, z} maps, paths as {_nodes, _rels}."""
    from neo4j.graph import Node, Path, Relationship
    from neo4j.spatial import Point

    if isinstance(value, Node):
        return {"_label": next(iter(sorted(value.labels)), ""),
                **{k: neo4j_value(v) for k, v in value.items()}}
    if isinstance(value, Relationship):
        return {"_label": value.type, **{k: neo4j_value(v) for k, v in value.items()}}
    if isinstance(value, Path):
        return {"_nodes": [neo4j_value(n) for n in value.nodes],
                "_rels": [neo4j_value(r) for r in value.relationships]}
    if isinstance(value, Point):
        return dict(zip("xyz", (float(c) for c in value), strict=False))
    if isinstance(value, dict):
        return {str(k): neo4j_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [neo4j_value(v) for v in value]
    if hasattr(value, "iso_format"):  # neo4j.time types
        return value.iso_format()
    return plain_value(value)


class Neo4jStore(GraphStore):
    """A scene graph in a Neo4j database reached through `driver` (any object with the
    driver's `session()` interface)."""

    NODE_COUNTS_QUERY = "MATCH (n) UNWIND labels(n) AS l RETURN l, count(*)"
    EDGE_COUNTS_QUERY = "MATCH ()-[r]->() RETURN type(r), count(*)"
    EDGE_LIST_QUERY = "MATCH (a)-[r]->(b) RETURN type(r), a.nodeSymbol, b.nodeSymbol"

    backend = "neo4j"

    def __init__(self, driver: Any, *, database: str | None = None) -> None:
        self._driver = driver
        self._database = database
        self._lock = threading.Lock()  # the driver is thread-safe; this only guards close()
        self._claim: Neo4jClaim | None = None   # released with the store

    @classmethod
    def connect(cls, uri: str, user: str | None, password: str | None,
                *, database: str | None = None) -> Neo4jStore:
        import neo4j

        try:
            driver = neo4j.GraphDatabase.driver(uri, auth=(user or "neo4j", password or ""))
            driver.verify_connectivity()
        except Exception as exc:
            raise GraphStoreError(f"database unreachable: {uri}: {one_line(exc)}") from None
        return cls(driver, database=database)

    def _session(self, access_mode: str) -> Any:
        if self._driver is None:
            raise GraphStoreError("graph store is closed")
        return self._driver.session(database=self._database, default_access_mode=access_mode)

    # ------------------------------------------------------------------ loading

    def load(self, graph: SceneGraph) -> None:
        import neo4j

        try:
            with self._session(neo4j.WRITE_ACCESS) as session:
                session.execute_write(lambda tx: tx.run("MATCH (n) DETACH DELETE n").consume())
                for label in LABELS:
                    session.run(f"CREATE INDEX {label.lower()}_node_symbol IF NOT EXISTS "
                                f"FOR (n:{label}) ON (n.nodeSymbol)").consume()
                for query, rows in self._load_batches(graph):
                    session.execute_write(_write_rows, query, rows)
        except GraphStoreError:
            raise
        except Exception as exc:
            raise GraphStoreError(f"cannot load {graph.source or 'scene graph'} into neo4j: "
                                  f"{one_line(exc)}") from None

    def holds(self, graph: SceneGraph) -> bool:
        """The database holds exactly `graph` as the loader writes it (`neo4j_content`)."""
        nodes = self._trusted(neo4j_content.NODES_QUERY)
        edges = self._trusted(neo4j_content.EDGES_QUERY)
        return neo4j_content.content_digest(nodes, edges) == neo4j_content.expected_digest(graph)

    def open_for(self, graph: SceneGraph, claim: Neo4jClaim) -> None:
        """Ready to answer queries on `graph`: loaded only when the database holds something
        else that no other store on this machine is using (`neo4j_claim`)."""
        self._claim = claim
        with claim.opening():
            if self.holds(graph):
                claim.share()
                return
            if not claim.take_whole():
                raise GraphStoreError(
                    "neo4j database holds another scene graph, which another run on this "
                    f"machine is using: {graph.source or 'this graph'} was not loaded over it "
                    "(wait for that run, or give this one its own database)")
            self.load(graph)
            if not self.holds(graph):   # a load from another machine raced with this one
                raise GraphStoreError("neo4j database changed while the scene graph was "
                                      "loaded (another machine loading it?): not used")
            claim.share()

    @staticmethod
    def _load_batches(graph: SceneGraph) -> list[tuple[str, list[dict[str, Any]]]]:
        batches = []
        for label in LABELS:
            rows = [neo4j_content.node_row(n) for n in graph.nodes if n.label == label]
            batches += [(_node_query(label), batch) for batch in _batches(rows)]
        label_of = graph.labels_by_symbol()
        groups: dict[tuple[str, str, str], list[dict[str, str]]] = defaultdict(list)
        for edge in stored_edges(graph):
            key = (edge.type, label_of[edge.source], label_of[edge.target])
            groups[key].append({"source": edge.source, "target": edge.target})
        for (edge_type, src, dst), rows in sorted(groups.items()):
            batches += [(_edge_query(edge_type, src, dst), batch) for batch in _batches(rows)]
        return batches

    # ------------------------------------------------------------------ queries

    def query(self, cypher: str, *, timeout_s: float = 10.0, max_rows: int = 200,
              distinct_rows: bool = False, max_hops: int | None = None) -> QueryResult:
        import neo4j
        from neo4j.exceptions import (
            DriverError,
            Neo4jError,
            ServiceUnavailable,
            SessionExpired,
            TransientError,
        )

        started = time.monotonic()
        problem = "empty query" if not cypher.strip() else write_violation(cypher)
        if problem:
            return QueryResult.failure(problem, time.monotonic() - started)
        try:
            with self._session(neo4j.READ_ACCESS) as session:
                result = session.run(neo4j.Query(cypher, timeout=timeout_s))
                columns = list(result.keys())
                rows = RowReader(max_rows, distinct_rows)
                for record in result:
                    if rows.full:
                        break
                    rows.add([neo4j_value(v) for v in record.values()])
                result.consume()
        except (ServiceUnavailable, SessionExpired) as exc:
            raise GraphStoreError(f"database unreachable: {one_line(exc)}") from None
        except TransientError as exc:
            # Raised, not returned: the item is recorded as failed (not cached) and a rerun or
            # the task's retry asks again, where a wrong answer would be stored for good.
            raise GraphStoreError(f"transient database error: {one_line(exc)}") from None
        except (Neo4jError, DriverError, ValueError, TypeError) as exc:
            return QueryResult.failure(one_line(exc), time.monotonic() - started)
        return QueryResult(columns=columns, rows=rows.kept, truncated=rows.truncated,
                           seconds=time.monotonic() - started)

    def _trusted(self, cypher: str) -> list[list[Any]]:
        import neo4j

        @neo4j.unit_of_work(timeout=_TRUSTED_TIMEOUT_S)
        def work(tx: Any) -> list[list[Any]]:
            return [[neo4j_value(v) for v in record.values()] for record in tx.run(cypher)]

        try:
            with self._session(neo4j.READ_ACCESS) as session:
                return session.execute_read(work)
        except GraphStoreError:
            raise
        except Exception as exc:
            raise GraphStoreError(f"neo4j: internal query failed: {one_line(exc)}") from None

    def checksum(self) -> str:
        nodes = self._trusted(neo4j_content.NODES_QUERY)
        edges = self._trusted(
            "MATCH (a)-[r]->(b) RETURN type(r), a.nodeSymbol, b.nodeSymbol, properties(r)"
        )
        return content_hash(nodes, edges)

    def schema_facts(self) -> SchemaFacts:
        counts = self.counts()
        properties: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for labels, name, types in self._trusted(
            "CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes "
            "RETURN nodeLabels, propertyName, propertyTypes"
        ):
            if labels and name:
                properties[labels[0]].append((name, "|".join(types or []).upper()))
        for label in LABELS:
            if not properties.get(label):
                properties[label] = list(NODE_PROPERTIES[label])
        endpoints: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        for edge_type, src, dst, n in self._trusted(
            "MATCH (a)-[r]->(b) RETURN type(r), labels(a)[0], labels(b)[0], count(*)"
        ):
            endpoints[edge_type].append((src, dst, n))
        classes: dict[str, list[str]] = defaultdict(list)
        for label, class_name in self._trusted(
            "MATCH (n) WHERE n.class IS NOT NULL AND n.class <> '' "
            "RETURN DISTINCT labels(n)[0], n.class"
        ):
            classes[label].append(class_name)
        ordered = {label: properties[label] for label in LABELS}
        ordered.update({k: v for k, v in properties.items() if k not in ordered})
        return SchemaFacts(
            node_counts={label: counts.get(label, 0) for label in ordered},
            properties=ordered,
            edge_endpoints={t: sorted(v) for t, v in endpoints.items()},
            classes={label: sorted(v) for label, v in classes.items()},
            hop_limits=self.hop_limits(),
        )

    def close(self) -> None:
        with self._lock:
            driver, self._driver = self._driver, None
            claim, self._claim = self._claim, None
        if driver is not None:
            driver.close()
        if claim is not None:
            claim.release()


def _write_rows(tx: Any, query: str, rows: list[dict[str, Any]]) -> None:
    tx.run(query, rows=rows).consume()

