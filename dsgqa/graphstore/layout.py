"""Heracles' graph layout, shared by every loader (Kuzu, Ladybug, Neo4j).

Heracles' loader (`graph_interface.py`, `add_edges_from_dsg`) creates one `<LAYER>_CONNECTED`
relationship per `n.siblings()` of every node, so each same-layer edge exists in *both*
directions, and one `CONTAINS` relationship from parent to child. Objects carry their box as
`bbox_center` and `bbox_dim`. docs/graph_layout.md describes the layout and the example graph's
counts; tests/test_graph_layout.py pins them.
"""

from __future__ import annotations

from dsgqa.scene_graph import CONTAINS, SceneEdge, SceneGraph, SceneNode

# Property names as Heracles stores them, per label; `center`, `bbox_center` and `bbox_dim` are
# points (Neo4j) or {x, y, z} structs (Kuzu, Ladybug). `class` and `name` are kept on every
# label (Heracles sets them on some only; see docs/graph_layout.md).
COMMON_PROPERTIES: tuple[str, ...] = ("nodeSymbol", "class", "name", "center")
OBJECT_BOX_PROPERTIES: tuple[str, ...] = ("bbox_center", "bbox_dim")
POINT_PROPERTIES: frozenset[str] = frozenset({"center", "bbox_center", "bbox_dim"})


def node_properties(label: str) -> tuple[str, ...]:
    """The properties a node of `label` has, in storage order."""
    return COMMON_PROPERTIES + (OBJECT_BOX_PROPERTIES if label == "Object" else ())


def box_points(node: SceneNode) -> dict[str, tuple[float, float, float] | None]:
    """An object's box as Heracles names it."""
    return {"bbox_center": node.bbox_center, "bbox_dim": node.bbox_size}


def node_values(node: SceneNode) -> dict[str, object]:
    """A node's properties as Heracles names them, in storage order (`node_properties`);
    points as (x, y, z) tuples, which each loader writes in its engine's point form. Every
    loader takes its names from here, so a rename is one edit."""
    values: dict[str, object] = {"nodeSymbol": node.symbol, "class": node.class_name,
                                 "name": node.name, "center": node.center}
    if node.label == "Object":
        values.update(box_points(node))
    return values


def stored_edges(graph: SceneGraph) -> list[SceneEdge]:
    """The relationships a Heracles database holds for `graph`: CONTAINS as parent -> child,
    every same-layer edge once in each direction (no duplicates, no self-loops doubled)."""
    out: list[SceneEdge] = []
    seen: set[tuple[str, str, str]] = set()
    for edge in graph.edges:
        ends = [(edge.source, edge.target)]
        if edge.type != CONTAINS:
            ends.append((edge.target, edge.source))
        for source, target in ends:
            key = (edge.type, source, target)
            if key not in seen:
                seen.add(key)
                out.append(SceneEdge(source, target, edge.type))
    return out
