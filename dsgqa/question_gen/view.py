"""The Python side of the gold answers: the scene graph as plain dicts, no database.

Deliberately independent of the Cypher side (`gold.py` never calls this module): a question is
kept only when an answer computed here agrees with the reference query's rows, so a bug on either
side shows up as a dropped question instead of a wrong solution.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from dsgqa.scene_graph import CONTAINS, SceneGraph, SceneNode

PLACE_LABELS = ("Place", "MeshPlace")


@dataclass
class GraphView:
    """Nodes by symbol and label, CONTAINS both ways, same-layer neighbours (undirected)."""

    nodes: dict[str, SceneNode]
    children: dict[str, set[str]] = field(default_factory=dict)
    parents: dict[str, set[str]] = field(default_factory=dict)
    neighbours: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, graph: SceneGraph) -> GraphView:
        view = cls({n.symbol: n for n in graph.nodes})
        for edge in graph.edges:
            if edge.source == edge.target:
                continue
            if edge.type == CONTAINS:
                view.children.setdefault(edge.source, set()).add(edge.target)
                view.parents.setdefault(edge.target, set()).add(edge.source)
            else:
                view.neighbours.setdefault(edge.source, set()).add(edge.target)
                view.neighbours.setdefault(edge.target, set()).add(edge.source)
        return view

    def label(self, label: str, class_name: str | None = None) -> list[SceneNode]:
        """Nodes of one label (and class), sorted by symbol."""
        return sorted((n for n in self.nodes.values() if n.label == label
                       and (class_name is None or n.class_name == class_name)),
                      key=lambda n: n.symbol)

    def classes(self, label: str) -> list[str]:
        return sorted({n.class_name for n in self.label(label)})

    def places_of_room(self, room: str) -> set[str]:
        return {c for c in self.children.get(room, ()) if self.nodes[c].label in PLACE_LABELS}

    def objects_in_room(self, room: str) -> set[str]:
        """Objects some place or mesh place of the room CONTAINS."""
        return {o for p in self.places_of_room(room) for o in self.children.get(p, ())
                if self.nodes[o].label == "Object"}

    def objects_in_adjacent_rooms(self, room: str) -> set[str]:
        """Objects in the rooms a ROOM_CONNECTED relationship joins to `room`."""
        return {o for near in self.same_layer(room) for o in self.objects_in_room(near)}

    def rooms_of(self, obj: str) -> set[str]:
        return {r for p in self.parents.get(obj, ()) if self.nodes[p].label in PLACE_LABELS
                for r in self.parents.get(p, ()) if self.nodes[r].label == "Room"}

    def mesh_places_of(self, obj: str) -> set[str]:
        return {p for p in self.parents.get(obj, ()) if self.nodes[p].label == "MeshPlace"}

    def same_layer(self, symbol: str) -> set[str]:
        """Neighbours over the node's own `<LAYER>_CONNECTED` edges."""
        label = self.nodes[symbol].label
        return {n for n in self.neighbours.get(symbol, ()) if self.nodes[n].label == label}

    def hops(self, start: str) -> dict[str, int]:
        """Breadth-first hop counts from `start` over same-layer edges."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in sorted(self.same_layer(here)):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen
