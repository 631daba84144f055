"""The reference evaluator's view of a graph: Heracles' layout built from the spec by hand.

Kept apart from the product's `layout.stored_edges` on purpose: the expected rows must not
inherit a mistake of the code under test. CONTAINS points parent -> child; a same-layer pair
is stored once in each direction as `<LAYER>_CONNECTED`.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsgqa.scene_graph import CONNECTED_EDGE
from tests.cypher_fuzz.graphs import GraphSpec, NodeSpec
from tests.cypher_fuzz.values import Point


@dataclass(frozen=True)
class Rel:
    id: int
    type: str
    src: str
    dst: str


class RefGraph:
    """Nodes by symbol, relationships by id, adjacency both ways."""

    def __init__(self, spec: GraphSpec) -> None:
        self.nodes: dict[str, NodeSpec] = {n.symbol: n for n in spec.nodes}
        self.rels: list[Rel] = []
        for parent, child in spec.contains:
            self.rels.append(Rel(len(self.rels), "CONTAINS", parent, child))
        for a, b in spec.connected:
            kind = CONNECTED_EDGE[self.nodes[a].label]
            self.rels.append(Rel(len(self.rels), kind, a, b))
            self.rels.append(Rel(len(self.rels), kind, b, a))
        self.out: dict[str, list[Rel]] = {s: [] for s in self.nodes}
        self.inc: dict[str, list[Rel]] = {s: [] for s in self.nodes}
        for rel in self.rels:
            self.out[rel.src].append(rel)
            self.inc[rel.dst].append(rel)

    def properties(self, symbol: str) -> dict[str, object]:
        """The node's properties as Neo4j holds them: a NULL property is simply absent."""
        node = self.nodes[symbol]
        props: dict[str, object] = {"nodeSymbol": node.symbol, "class": node.cls,
                                    "name": node.name, "center": Point(*node.center)}
        if node.label == "Object":
            if node.bbox_center is not None:
                props["bbox_center"] = Point(*node.bbox_center)
            if node.bbox_dim is not None:
                props["bbox_dim"] = Point(*node.bbox_dim)
        return props
