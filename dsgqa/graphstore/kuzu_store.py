"""The embedded store: Ladybug (default) or Kuzu, one database directory per scene graph.

Life cycle: `load` builds the database read-write in a scratch directory (in a child process,
`build_worker`), writes a completion marker and renames the directory into place, so a
half-built database is never reused. Queries then run in read-only worker processes
(`worker_pool`) with the engine's query timeout, a buffer-pool cap and an address-space cap.
Every read this class makes for itself (checksum, counts, schema) goes through the same workers,
but bypasses the write guard and the row cap. This process never imports an engine, so it may
hold stores of both engines.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from dsgqa.graphstore.base import (
    GraphStore,
    GraphStoreError,
    QueryResult,
    SchemaFacts,
    content_hash,
)
from dsgqa.graphstore.build_worker import build_database
from dsgqa.graphstore.engine import engine_version
from dsgqa.graphstore.worker_pool import WorkerDied, WorkerPool, WorkerSpec, WorkerTimeout
from dsgqa.graphstore.write_guard import write_violation
from dsgqa.scene_graph import SceneGraph

# Bump when the database layout changes, so directories built by older code are rebuilt.
LAYOUT_VERSION = 2  # 2: Heracles' layout (same-layer edges both ways, bbox_dim)
DB_FILE = "graph.kz"
MARKER = "LOADED.json"
_TRUSTED_ROWS = 10**9


class KuzuStore(GraphStore):
    """A scene graph in an embedded Kuzu-API database at `directory`."""

    NODE_COUNTS_QUERY = "MATCH (n) RETURN label(n), count(*)"
    EDGE_COUNTS_QUERY = "MATCH ()-[r]->() RETURN label(r), count(*)"
    EDGE_LIST_QUERY = "MATCH (a)-[r]->(b) RETURN label(r), a.nodeSymbol, b.nodeSymbol"
    # The binder refuses a variable-length upper bound above 30 (Kuzu and Ladybug alike).
    MAX_VAR_LENGTH = 30

    def __init__(
        self,
        backend: str,
        directory: Path,
        *,
        memory_limit_mb: int = 2048,
        pool_size: int | None = None,
    ) -> None:
        self.backend = backend
        self.directory = Path(directory)
        self.memory_limit_mb = memory_limit_mb
        self.pool_size = pool_size or min(4, os.cpu_count() or 2)
        # The database file's digest (first 16 hex digits) once loaded or verified: cached
        # query results are keyed on it, so results never outlive the build they came from.
        self.build_id: str | None = None
        self._pool: WorkerPool | None = None

    @property
    def db_path(self) -> Path:
        return self.directory / DB_FILE

    # ------------------------------------------------------------------ loading

    def is_loaded(self, graph: SceneGraph) -> bool:
        """Whether `directory` holds a complete, undamaged load of exactly this graph: the
        marker names this graph, engine and layout, and the database file still has the digest
        it had when the build finished (a file cut short or overwritten would otherwise answer
        every query with no rows and no error)."""
        try:
            marker = json.loads((self.directory / MARKER).read_text())
        except (OSError, ValueError):
            return False
        digest = marker.pop("database_sha256", None) if isinstance(marker, dict) else None
        if marker != _marker(graph, self.backend) or not self.db_path.is_file():
            return False
        try:
            if digest != file_digest(self.db_path):
                return False
        except OSError:
            return False
        self.build_id = digest[:16]
        return True

    def load(self, graph: SceneGraph) -> None:
        """Rebuild the database from `graph` (read-write), then reopen it read-only."""
        self.close()
        scratch = self.directory.with_name(f"{self.directory.name}.building-{os.getpid()}")
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(parents=True)
        try:
            build_database(self.backend, graph, scratch / DB_FILE)
            digest = file_digest(scratch / DB_FILE)
            (scratch / MARKER).write_text(json.dumps(
                {**_marker(graph, self.backend), "database_sha256": digest}))
            shutil.rmtree(self.directory, ignore_errors=True)
            os.replace(scratch, self.directory)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        self.build_id = digest[:16]
        self.open_read_only()

    def open_read_only(self) -> None:
        """Prepare the read-only query workers (started on demand)."""
        if self._pool is not None:
            return
        if not self.db_path.is_file():
            raise GraphStoreError(f"no database at {self.db_path}")
        memory = self.memory_limit_mb * 1024 * 1024
        spec = WorkerSpec(
            backend=self.backend,
            db_path=str(self.db_path),
            # Half the budget for the engine's page buffer, half for everything else it allocates.
            buffer_pool_bytes=memory // 2,
            heap_bytes=memory // 2,
            max_db_size=_max_db_size(self.db_path.stat().st_size),
        )
        # Workers start on the first query: a rerun served from the caches starts none.
        self._pool = WorkerPool(spec, self.pool_size)

    # ------------------------------------------------------------------ queries

    def query(self, cypher: str, *, timeout_s: float = 10.0, max_rows: int = 200,
              distinct_rows: bool = False, max_hops: int | None = None) -> QueryResult:
        started = time.monotonic()
        problem = "empty query" if not cypher.strip() else write_violation(cypher)
        if problem:
            return QueryResult.failure(problem, time.monotonic() - started)
        try:
            response = self._ask(cypher, timeout_s, max_rows, distinct_rows, max_hops)
        except WorkerTimeout:
            response = {"ok": False, "error": f"query timed out after {timeout_s:g} s"}
        except WorkerDied as exc:
            response = {"ok": False, "error": _death(exc, self.memory_limit_mb)}
        seconds = time.monotonic() - started
        if not response["ok"]:
            return QueryResult.failure(self._explain(response["error"], timeout_s), seconds)
        return QueryResult(columns=response["columns"], rows=response["rows"],
                           truncated=response["truncated"], seconds=seconds)

    def _ask(self, cypher: str, timeout_s: float, max_rows: int,
             distinct_rows: bool = False, max_hops: int | None = None) -> dict[str, Any]:
        if self._pool is None:
            raise GraphStoreError("graph store is not open")
        request = {"cypher": cypher, "timeout_ms": int(timeout_s * 1000), "max_rows": max_rows,
                   "distinct_rows": distinct_rows, "max_hops": max_hops}
        # The engine checks its timeout between batches; the hard deadline covers the rest.
        return self._pool.ask(request, hard_timeout_s=timeout_s + max(2.0, timeout_s / 2))

    def _explain(self, error: str, timeout_s: float) -> str:
        if "Interrupted" in error:
            return f"query timed out after {timeout_s:g} s"
        if "bad_alloc" in error or "buffer pool is full" in error.lower():
            return f"query exceeded the memory limit ({self.memory_limit_mb} MB): {error}"
        return error

    def _trusted(self, cypher: str) -> list[list[Any]]:
        """Our own read queries: no guard, no row cap; failures are database errors."""
        try:
            response = self._ask(cypher, 300.0, _TRUSTED_ROWS)
        except (WorkerTimeout, WorkerDied) as exc:
            raise GraphStoreError(f"{self.backend}: internal query failed: {exc}") from None
        if not response["ok"]:
            raise GraphStoreError(f"{self.backend}: internal query failed: {response['error']}")
        return response["rows"]

    def checksum(self) -> str:
        nodes = self._trusted("MATCH (n) RETURN n")
        edges = self._trusted(
            "MATCH (a)-[r]->(b) RETURN label(r), a.nodeSymbol, b.nodeSymbol, r"
        )
        tables = self._trusted("CALL show_tables() RETURN name, type")
        return content_hash(nodes, edges, sorted(map(tuple, tables)))

    def schema_facts(self) -> SchemaFacts:
        counts = self.counts()
        tables = self._trusted("CALL show_tables() WHERE type = 'NODE' RETURN name")
        properties = {
            label: [(name, kind) for name, kind in self._trusted(
                f"CALL table_info('{label}') RETURN name, type")]
            for (label,) in tables
        }
        endpoints: dict[str, list[tuple[str, str, int]]] = {}
        for edge_type, src, dst, n in self._trusted(
            "MATCH (a)-[r]->(b) RETURN label(r), label(a), label(b), count(*)"
        ):
            endpoints.setdefault(edge_type, []).append((src, dst, n))
        classes: dict[str, list[str]] = {}
        for label, class_name in self._trusted(
            "MATCH (n) WHERE n.class IS NOT NULL AND n.class <> '' "
            "RETURN DISTINCT label(n), n.class"
        ):
            classes.setdefault(label, []).append(class_name)
        return SchemaFacts(
            node_counts={label: counts.get(label, 0) for label in properties},
            properties=properties,
            edge_endpoints={t: sorted(v) for t, v in endpoints.items()},
            classes={label: sorted(v) for label, v in classes.items()},
            hop_limits=self.hop_limits(),
        )

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()


def _death(exc: WorkerDied, memory_limit_mb: int) -> str:
    """Why a query worker died: a signal other than SIGKILL is the engine crashing on the
    query (`dialect`, the engine's failure); SIGKILL or an exit is most likely the memory cap
    (`memory`)."""
    code = exc.returncode
    if code is not None and code < 0 and -code != signal.SIGKILL:
        return f"query worker died: the engine crashed ({signal.Signals(-code).name})"
    return f"query worker died (memory limit of {memory_limit_mb} MB?): {exc}"


def _marker(graph: SceneGraph, backend: str) -> dict[str, Any]:
    """What a complete load is of: the graph, the engine and its version (a database another
    engine or version wrote is rebuilt, never opened), and the layout."""
    return {"fingerprint": graph.fingerprint(), "backend": backend,
            "engine_version": engine_version(backend), "layout": LAYOUT_VERSION}


def file_digest(path: Path) -> str:
    """sha256 of a database file (read in 1 MB pieces; ~10 ms for the example graph's)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for piece in iter(lambda: handle.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def _max_db_size(file_bytes: int) -> int:
    """Kuzu maps `max_db_size` of address space up front and wants a power of two; keep it small
    (it counts against the workers' address-space cap) but well above the file."""
    size = 1 << 30
    while size < 4 * file_bytes:
        size <<= 1
    return size
