"""Opening the QA track's database from a run config: what a run needs to know about its graph.

The fingerprint and the generated schema text go into stage cache keys; the store answers the
model's queries.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dsgqa.config import QAConfig
from dsgqa.graphstore import GraphStore, open_graph_store
from dsgqa.scene_graph import load_scene_graph


@dataclass(frozen=True)
class GraphHandle:
    store: GraphStore
    fingerprint: str
    schema: str

    @property
    def backend(self) -> str:
        return self.store.backend


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
    schema = store.schema_description()
    return GraphHandle(store=store, fingerprint=graph.fingerprint(), schema=schema)
