"""Opening the QA track's database from a run config: what a run needs to know about its graph.

The fingerprint and the generated schema text go into stage cache keys; the store answers the
model's queries.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from benchcore.item_cache import source_version
from benchcore.run_config import QAConfig
from dsgqa.graphstore import GraphStore, hop_limits, open_graph_store, schema_description
from dsgqa.scene_graph import load_scene_graph

# The kept schema text is named by the code that writes it, the hop limits included.
_SCHEMA_CODE = source_version(schema_description, hop_limits)


@dataclass(frozen=True)
class GraphInfo:
    """What prompts and cache keys need to know about a loaded graph (picklable)."""

    backend: str
    fingerprint: str
    schema: str


@dataclass(frozen=True)
class GraphHandle:
    store: GraphStore
    fingerprint: str
    schema: str

    @property
    def backend(self) -> str:
        return self.store.backend

    def info(self) -> GraphInfo:
        return GraphInfo(backend=self.backend, fingerprint=self.fingerprint, schema=self.schema)


def open_graph(qa: QAConfig) -> GraphHandle:
    """Load the scene graph (reusing an already-loaded database) and open it read-only."""
    graph = load_scene_graph(qa.scene_graph)
    store = open_graph_store(
        qa.backend,
        graph,
        db_root=Path(qa.db_root),
        neo4j_uri=qa.neo4j_uri or os.environ.get("NEO4J_URI"),
        neo4j_user=qa.neo4j_user or os.environ.get("NEO4J_USERNAME"),
        neo4j_password=os.environ.get(qa.neo4j_password_env),
        memory_limit_mb=qa.memory_limit_mb,
    )
    schema = _schema_text(store, Path(qa.db_root), graph.fingerprint())
    return GraphHandle(store=store, fingerprint=graph.fingerprint(), schema=schema)


def _schema_text(store: GraphStore, db_root: Path, fingerprint: str) -> str:
    """The generated schema, kept beside an embedded database (which never changes after its
    load): a rerun whose queries are all cached then needs no query worker at all."""
    if store.backend == "neo4j":
        return store.schema_description()
    build = getattr(store, "build_id", None) or "unbuilt"  # a rebuilt database, a new text
    path = db_root / f"{fingerprint[:16]}-{store.backend}-{build}-{_SCHEMA_CODE}.schema.txt"
    kept = _read_kept_schema(path)
    if kept is not None:
        return kept
    text = store.schema_description()
    # Written aside and renamed: a Dask worker opening the same graph at this moment must read
    # the whole text or none of it, never the empty file `write_text` starts with.
    scratch = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}")
    scratch.write_text(f"{_SCHEMA_DIGEST_PREFIX}{_digest(text)}\n{text}", encoding="utf-8")
    os.replace(scratch, path)
    return text


_SCHEMA_DIGEST_PREFIX = "sha256:"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read_kept_schema(path: Path) -> str | None:
    """The kept schema text, or None when there is none or it is damaged.

    The schema text goes into every prompt and every cache key, so a file that was cut,
    overwritten or filled with garbage must never reach a model: its first line carries the
    digest of the rest, and anything that does not match (or does not decode) is regenerated.
    """
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    header, sep, body = raw.partition(b"\n")
    try:
        header_text, text = header.decode("ascii"), body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not sep or header_text != f"{_SCHEMA_DIGEST_PREFIX}{_digest(text)}":
        return None
    return text


_SHARED: dict[str, GraphHandle] = {}
_SHARED_LOCK = threading.Lock()


def shared_graph(qa: QAConfig) -> GraphHandle:
    """The process's open handle for this config (opened once; the load itself is reused
    across processes through the on-disk database)."""
    slot = qa.model_dump_json()
    with _SHARED_LOCK:
        if slot not in _SHARED:
            _SHARED[slot] = open_graph(qa)
        return _SHARED[slot]


def close_shared_graphs() -> None:
    """Close every store this process opened (their query worker processes included)."""
    with _SHARED_LOCK:
        for handle in _SHARED.values():
            handle.store.close()
        _SHARED.clear()
