"""The spark_dsg JSON file, read with the `json` module and nothing of the project's loader.

What a question's words refer to, and where each is in the file:

* a node's *nodeSymbol* (`O70`, `P27795`, `R5`) is its 64-bit `id` read as spark_dsg's
  NodeSymbol: the top 8 bits are a character, the low 56 bits an index;
* its kind (object, place, mesh place, room, building) is its `layer` and `partition`, named by
  the file's `layer_names`;
* an object's *class* is its `semantic_label` looked up in the file's labelspace for its layer
  and partition (`metadata.labelspaces["_l2p0"]`);
* its *center* is the `position` attribute; an object's bounding box (`bbox_dim`) is its
  `bounding_box.dimensions`, its extent along x, y and z;
* an edge between two layers is a CONTAINS relationship from the higher layer's node (the
  parent) to the lower one's; an edge inside one layer and partition is a `<KIND>_CONNECTED`
  relationship (`ROOM_CONNECTED`, `MESH_PLACE_CONNECTED`). The file's graph is undirected
  (`"directed": false`), and so is every connection the questions ask about.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# The file's layer names -> the kind the questions say ("mesh place") and the relationship
# type that joins two nodes of that kind.
KINDS = {
    "OBJECTS": ("object", "OBJECT_CONNECTED"),
    "PLACES": ("place", "PLACE_CONNECTED"),
    "MESH_PLACES": ("mesh place", "MESH_PLACE_CONNECTED"),
    "ROOMS": ("room", "ROOM_CONNECTED"),
    "BUILDINGS": ("building", "BUILDING_CONNECTED"),
}
# spark_dsg's defaults, for a file without `layer_names`.
DEFAULT_LAYERS = {
    "OBJECTS": (2, 0), "PLACES": (3, 0), "MESH_PLACES": (3, 1), "ROOMS": (4, 0),
    "BUILDINGS": (5, 0),
}
INDEX_BITS = 56


class UnknownNode(LookupError):
    """A question names a node the graph does not have (or not of the kind it says)."""


@dataclass(frozen=True)
class Node:
    """One node as the questions name it."""

    symbol: str
    kind: str
    layer: int
    label: str          # the class name from the labelspace ("" when there is none)
    center: tuple[float, float, float]
    size: tuple[float, float, float] | None = None   # an object's bounding-box dimensions


@dataclass
class SceneGraph:
    """Nodes by nodeSymbol, CONTAINS as parent -> children, and each connection type as an
    undirected neighbour map."""

    nodes: dict[str, Node] = field(default_factory=dict)
    children: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    parents: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    neighbours: dict[str, dict[str, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set)))

    def of_kind(self, kind: str) -> list[Node]:
        return [node for node in self.nodes.values() if node.kind == kind]

    def node(self, symbol: str, kind: str) -> Node:
        """The node, checked to be of the kind the question says it is."""
        found = self.nodes.get(symbol)
        if found is None or found.kind != kind:
            raise UnknownNode(f"no {kind} {symbol} in the scene graph")
        return found


def node_symbol(node_id: int) -> str:
    return chr(node_id >> INDEX_BITS) + str(node_id & ((1 << INDEX_BITS) - 1))


def _layer_kinds(data: dict) -> dict[tuple[int, int], tuple[str, str]]:
    names = data.get("layer_names") or {
        name: {"layer": layer, "partition": part} for name, (layer, part) in DEFAULT_LAYERS.items()
    }
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for name, where in names.items():
        if name in KINDS:  # other names (AGENTS) share a key with OBJECTS in Hydra's files
            found[(int(where["layer"]), int(where.get("partition", 0)))] = KINDS[name]
    return found


def _labels(data: dict) -> dict[tuple[int, int], dict[int, str]]:
    spaces = (data.get("metadata") or {}).get("labelspaces") or {}
    found: dict[tuple[int, int], dict[int, str]] = {}
    for key, pairs in spaces.items():  # "_l2p0": [[0, "unknown"], ...]
        layer, _, part = key.removeprefix("_l").partition("p")
        found[(int(layer), int(part))] = {int(number): str(name) for number, name in pairs}
    return found


def load(path: str | Path) -> SceneGraph:
    """Read the file; nodes of layers the questions never name are left out."""
    data = json.loads(Path(path).read_text())
    kinds, labels = _layer_kinds(data), _labels(data)
    graph = SceneGraph()
    by_id: dict[int, Node] = {}
    for raw in data["nodes"]:
        where = (int(raw["layer"]), int(raw.get("partition", 0)))
        if where not in kinds:
            continue
        attributes = raw["attributes"]
        x, y, z = (float(v) for v in attributes["position"])
        label = labels.get(where, {}).get(int(attributes.get("semantic_label", -1)), "")
        box = (attributes.get("bounding_box") or {}).get("dimensions")
        kind = kinds[where][0]
        size = tuple(float(v) for v in box) if box and kind == "object" else None
        node = Node(node_symbol(int(raw["id"])), kind, where[0], label, (x, y, z), size)
        by_id[int(raw["id"])] = graph.nodes[node.symbol] = node
    relation = {kind: rel for kind, rel in kinds.values()}
    for edge in data["edges"]:
        a, b = by_id.get(int(edge["source"])), by_id.get(int(edge["target"]))
        if a is None or b is None:
            continue
        if a.layer != b.layer:
            parent, child = (a, b) if a.layer > b.layer else (b, a)
            graph.children[parent.symbol].add(child.symbol)
            graph.parents[child.symbol].add(parent.symbol)
        elif a.kind == b.kind:
            joins = graph.neighbours[relation[a.kind]]
            joins[a.symbol].add(b.symbol)
            joins[b.symbol].add(a.symbol)
    return graph
