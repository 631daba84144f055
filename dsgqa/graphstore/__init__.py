"""Scene graphs in a Cypher graph database: one `GraphStore` interface, three backends.

`open_graph_store` is the entry point: it loads a `SceneGraph` (or reuses an earlier load) and
returns a store whose `query` is read-only, time-limited and row-capped.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

from benchcore.names import BACKENDS
from dsgqa.graphstore.base import (
    GraphStore,
    GraphStoreError,
    QueryResult,
    SchemaFacts,
)
from dsgqa.scene_graph import SceneGraph

__all__ = [
    "BACKENDS",
    "GraphStore",
    "GraphStoreError",
    "QueryResult",
    "SchemaFacts",
    "open_graph_store",
]

DEFAULT_DB_ROOT = Path(".cache/graphs")


def open_graph_store(
    backend: str,
    graph: SceneGraph,
    *,
    db_root: Path | None = None,
    neo4j_uri: str | None = None,
    neo4j_user: str | None = None,
    neo4j_password: str | None = None,
    memory_limit_mb: int = 2048,
) -> GraphStore:
    """A read-only store holding `graph`.

    kuzu / ladybug: the database lives in `db_root/<fingerprint[:16]>-<backend>` and is built
    only when that directory holds no complete load of this graph (a marker written last says
    so); a file lock keeps two processes from building it at once.
    neo4j: the server's database is loaded with the graph unless it holds it already, and
    never replaced while another store on this machine uses it (`neo4j_claim`)."""
    if backend not in BACKENDS:
        raise GraphStoreError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    root = Path(db_root) if db_root is not None else DEFAULT_DB_ROOT
    if backend == "neo4j":
        return _open_neo4j(graph, neo4j_uri, neo4j_user, neo4j_password, root)
    from dsgqa.graphstore.kuzu_store import KuzuStore

    root.mkdir(parents=True, exist_ok=True)
    directory = root / f"{graph.fingerprint()[:16]}-{backend}"
    store = KuzuStore(backend, directory, memory_limit_mb=memory_limit_mb)
    with open(root / f".{directory.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if store.is_loaded(graph):
            store.open_read_only()
        else:
            store.load(graph)
    return store


def _open_neo4j(
    graph: SceneGraph, uri: str | None, user: str | None, password: str | None,
    lock_root: Path,
) -> GraphStore:
    from dsgqa.graphstore.neo4j_claim import Neo4jClaim
    from dsgqa.graphstore.neo4j_store import Neo4jStore

    if not uri:
        raise GraphStoreError("neo4j backend needs a URI (config neo4j_uri or NEO4J_URI)")
    store = Neo4jStore.connect(uri, user, password)
    try:
        store.open_for(graph, Neo4jClaim(lock_root, uri))
    except Exception:
        store.close()
        raise
    return store
