"""Whether a Neo4j database already holds exactly a scene graph, in Heracles' layout.

A Neo4j database is shared: every process of a run (each Dask worker, the oracle, `check-engine`)
opens the same one. Loading replaces its content, so a process that reloaded it while another
was running the model's queries would give that one rows of a half-loaded graph, silently, and
they would be cached. So a store loads only when the database does not hold the graph already:
its nodes (label and every property, points as `{x, y, z}`) and its relationships (type and
endpoints' nodeSymbol, with their multiplicity) are read and compared with what the loader
writes for the graph. Both sides become one digest of the sorted rows: the order the server
returns them in means nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from dsgqa.graphstore.layout import POINT_PROPERTIES, node_values, stored_edges
from dsgqa.scene_graph import SceneGraph, SceneNode

NODES_QUERY = "MATCH (n) RETURN labels(n), properties(n)"
EDGES_QUERY = "MATCH (a)-[r]->(b) RETURN type(r), a.nodeSymbol, b.nodeSymbol"


def _point(value: tuple[float, float, float] | None) -> dict[str, float] | None:
    return None if value is None else {"x": value[0], "y": value[1], "z": value[2]}


def node_row(node: SceneNode) -> dict[str, Any]:
    """A node's properties as the loader sends them (points as `{x, y, z}` maps, which the
    load query turns into Neo4j points)."""
    return {name: _point(value) if name in POINT_PROPERTIES else value
            for name, value in node_values(node).items()}


def written_rows(graph: SceneGraph) -> tuple[list[list[Any]], list[list[Any]]]:
    """The node and relationship rows the content queries return once the loader wrote
    `graph`: a property set to null is not stored (Neo4j drops it)."""
    nodes = [[[node.label], {k: v for k, v in node_row(node).items() if v is not None}]
             for node in graph.nodes]
    edges = [[edge.type, edge.source, edge.target] for edge in stored_edges(graph)]
    return nodes, edges


def content_digest(nodes: Iterable[Sequence[Any]], edges: Iterable[Sequence[Any]]) -> str:
    """One digest of the rows, whatever their order."""
    rows = (sorted(json.dumps([sorted(labels), _plain(props)], sort_keys=True)
                   for labels, props in nodes),
            sorted(json.dumps(list(edge)) for edge in edges))
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def _plain(props: dict[str, Any]) -> dict[str, Any]:
    """Numbers as floats where the loader wrote floats and the server may give either."""
    return {name: ({k: float(v) for k, v in value.items()} if isinstance(value, dict)
                   else value) for name, value in props.items() if value is not None}


def expected_digest(graph: SceneGraph) -> str:
    return content_digest(*written_rows(graph))
