"""A 3D scene graph as plain, immutable Python data (the Heracles view of a spark_dsg file).

Everything downstream (graph stores, prompts, fingerprints) works on `SceneGraph`, never on
spark_dsg objects, so the C++ bindings are touched in exactly one place: `load_scene_graph`.

Mapping from spark_dsg to the Heracles schema:
- layers are found by *name* in the file (`OBJECTS`, `PLACES`, `MESH_PLACES`, `ROOMS`,
  `BUILDINGS`), so files that put mesh places at 3[1] (spark_dsg 1.1) or at layer 20 (older Hydra)
  both work; nodes in other layers (agents, traversability, ...) are skipped;
- `class` is the labelspace name of the node's semantic label. spark_dsg 1.1 stores one
  labelspace per layer in the metadata (`labelspaces: {"_l2p0": [[id, name], ...]}`); mesh places
  and places without a labelspace of their own are labelled in the objects' labelspace (Hydra
  segments them with the same 2D semantics); older Heracles files keep a flat `labelspace` /
  `room_labelspace` dict, which is the last fallback;
- an edge is `CONTAINS` (parent -> child) when spark_dsg lists one end as the other's parent, else
  `<LAYER>_CONNECTED` between two nodes of the same layer. A node may have several parents or none.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from dsgqa.json_depth import MAX_JSON_DEPTH, json_depth

Vec3 = tuple[float, float, float]

# Labels from the bottom of the hierarchy to the top.
LABELS: tuple[str, ...] = ("Object", "Place", "MeshPlace", "Room", "Building")
CONTAINS = "CONTAINS"
CONNECTED_EDGE: dict[str, str] = {
    "Object": "OBJECT_CONNECTED",
    "Place": "PLACE_CONNECTED",
    "MeshPlace": "MESH_PLACE_CONNECTED",
    "Room": "ROOM_CONNECTED",
    "Building": "BUILDING_CONNECTED",
}
EDGE_TYPES: tuple[str, ...] = (CONTAINS, *CONNECTED_EDGE.values())

# spark_dsg layer name -> Heracles label, with the (layer, partition) used when a file has no name.
LAYER_LABELS: dict[str, str] = {
    "OBJECTS": "Object",
    "PLACES": "Place",
    "MESH_PLACES": "MeshPlace",
    "ROOMS": "Room",
    "BUILDINGS": "Building",
}
DEFAULT_LAYER_KEYS: dict[str, tuple[int, int]] = {
    "OBJECTS": (2, 0),
    "PLACES": (3, 0),
    "MESH_PLACES": (3, 1),
    "ROOMS": (4, 0),
    "BUILDINGS": (5, 0),
}
UNKNOWN_CLASS = "unknown"


class SceneGraphError(ValueError):
    """A scene-graph file that cannot be read; the message is one line naming the file."""


@dataclass(frozen=True)
class SceneNode:
    """One node; `symbol` is spark_dsg's compact symbol string (O12, P59110, R1, B0)."""

    symbol: str
    label: str
    class_name: str
    name: str
    center: Vec3
    bbox_center: Vec3 | None = None
    bbox_size: Vec3 | None = None


@dataclass(frozen=True)
class SceneEdge:
    """A directed edge by node symbols; `CONTAINS` points from parent to child."""

    source: str
    target: str
    type: str


@dataclass(frozen=True)
class SceneGraph:
    """Nodes and edges of one scene graph; `source` says where it came from (not hashed)."""

    nodes: tuple[SceneNode, ...]
    edges: tuple[SceneEdge, ...]
    source: str = ""
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "nodes", tuple(self.nodes))
        object.__setattr__(self, "edges", tuple(self.edges))
        _validate(self)

    def fingerprint(self) -> str:
        """sha256 of the canonical content, so caches and DB directories key on the data itself."""
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        nodes = sorted(
            [n.symbol, n.label, n.class_name, n.name, _canon(n.center),
             _canon(n.bbox_center), _canon(n.bbox_size)]
            for n in self.nodes
        )
        edges = sorted([e.source, e.target, e.type] for e in self.edges)
        text = json.dumps({"nodes": nodes, "edges": edges}, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def counts(self) -> dict[str, int]:
        """Nodes per label and edges per type, with a zero for every label and type."""
        counts = dict.fromkeys((*LABELS, *EDGE_TYPES), 0)
        counts.update(Counter(n.label for n in self.nodes))
        counts.update(Counter(e.type for e in self.edges))
        return counts

    def labels_by_symbol(self) -> dict[str, str]:
        """symbol -> label, for typing edge endpoints."""
        return {n.symbol: n.label for n in self.nodes}


def _canon(vec: Vec3 | None) -> list[str] | None:
    # repr() round-trips floats exactly, so the hash never depends on print precision.
    return None if vec is None else [repr(float(v)) for v in vec]


def _validate(graph: SceneGraph) -> None:
    """Reject what a database could not hold: unknown labels, duplicate symbols, dangling edges."""
    labels: dict[str, str] = {}
    for node in graph.nodes:
        if node.label not in LABELS:
            raise SceneGraphError(
                f"{graph.source}: node {node.symbol}: unknown label {node.label!r}"
            )
        if node.symbol in labels:
            raise SceneGraphError(f"{graph.source}: duplicate node symbol {node.symbol}")
        if not all(math.isfinite(v) for v in node.center):
            raise SceneGraphError(f"{graph.source}: node {node.symbol}: non-finite position")
        labels[node.symbol] = node.label
    for edge in graph.edges:
        if edge.type not in EDGE_TYPES:
            raise SceneGraphError(f"{graph.source}: edge {edge.source}->{edge.target}: "
                                  f"unknown type {edge.type!r}")
        for end in (edge.source, edge.target):
            if end not in labels:
                raise SceneGraphError(f"{graph.source}: edge {edge.source}->{edge.target}: "
                                      f"no node {end}")


def load_scene_graph(path: str | Path) -> SceneGraph:
    """Read a spark_dsg JSON file; any problem becomes a one-line `SceneGraphError`."""
    path = Path(path)
    if not path.is_file():
        raise SceneGraphError(f"{path}: no such scene-graph file")
    _check_depth(path)
    import spark_dsg  # the C++ bindings are only needed here

    try:
        dsg = spark_dsg.DynamicSceneGraph.load(str(path))
    except Exception as exc:  # the bindings raise RuntimeError with the JSON parser's text
        raise SceneGraphError(f"{path}: not a spark_dsg scene graph: {_one_line(exc)}") from exc
    try:
        return from_spark_dsg(dsg, source=str(path))
    except SceneGraphError:
        raise
    except Exception as exc:
        raise SceneGraphError(f"{path}: unreadable scene graph: {_one_line(exc)}") from exc


def _check_depth(path: Path) -> None:
    """Refuse a file nested deeper than `MAX_JSON_DEPTH` before spark_dsg reads it: its
    parser would crash the process (SIGSEGV) on a deep enough one."""
    try:
        depth = json_depth(path.read_bytes())
    except OSError as exc:
        raise SceneGraphError(f"{path}: cannot read: {exc.strerror}") from None
    if depth > MAX_JSON_DEPTH:
        raise SceneGraphError(f"{path}: JSON nested {depth:,} levels deep (at most "
                              f"{MAX_JSON_DEPTH} accepted); not a scene graph")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__


def from_spark_dsg(dsg: Any, *, source: str = "") -> SceneGraph:
    """Convert a loaded `spark_dsg.DynamicSceneGraph` into a `SceneGraph`."""
    key_labels = _layer_key_labels(dsg)
    labelspaces = _Labelspaces(dsg, key_labels)
    nodes: list[SceneNode] = []
    kept: dict[int, str] = {}  # spark node id -> label
    skipped_nodes = 0
    for node in dsg.nodes:
        label = key_labels.get((node.layer.layer, node.layer.partition))
        if label is None:
            skipped_nodes += 1
            continue
        nodes.append(_scene_node(node, label, labelspaces.class_name(node, label)))
        kept[node.id.value] = label
    edges, skipped_edges = _scene_edges(dsg, kept)
    notes = []
    if skipped_nodes:
        notes.append(f"skipped {skipped_nodes} nodes outside the Heracles layers")
    for (a, b), n in sorted(skipped_edges.items()):
        notes.append(f"skipped {n} edges between {a} and {b} (no schema edge type)")
    return SceneGraph(tuple(nodes), tuple(edges), source, tuple(notes))


def _layer_key_labels(dsg: Any) -> dict[tuple[int, int], str]:
    """(layer, partition) -> label, from the layer names the file declares."""
    declared = {name: (key.layer, key.partition) for name, key in dsg.layer_names.items()}
    return {
        declared.get(name, DEFAULT_LAYER_KEYS[name]): label for name, label in LAYER_LABELS.items()
    }


class _Labelspaces:
    """Finds the class name of a node's semantic label (see the module docstring for the order)."""

    def __init__(self, dsg: Any, key_labels: dict[tuple[int, int], str]) -> None:
        self._by_label: dict[str, dict[int, str]] = {}
        for (layer, partition), label in key_labels.items():
            names = dict(dsg.get_labelspace(layer, partition).labels_to_names)
            self._by_label[label] = {int(k): str(v) for k, v in names.items()}
        objects = self._by_label.get("Object", {})
        for label in ("MeshPlace", "Place"):
            if not self._by_label.get(label):
                self._by_label[label] = objects
        metadata = dsg.metadata.get() or {}
        self._legacy = _legacy_labelspace(metadata.get("labelspace"))
        self._legacy_rooms = _legacy_labelspace(metadata.get("room_labelspace"))

    def class_name(self, node: Any, label: str) -> str:
        semantic = getattr(node.attributes, "semantic_label", None)
        if semantic is None:
            return UNKNOWN_CLASS
        semantic = int(semantic)
        legacy = self._legacy_rooms if label == "Room" else self._legacy
        for table in (self._by_label.get(label, {}), legacy):
            if semantic in table:
                return table[semantic]
        return UNKNOWN_CLASS


def _legacy_labelspace(raw: Any) -> dict[int, str]:
    if not isinstance(raw, dict):
        return {}
    out = {}
    for key, value in raw.items():
        try:
            out[int(key)] = str(value)
        except (TypeError, ValueError):
            continue
    return out


def _vec(values: Any) -> Vec3:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def _scene_node(node: Any, label: str, class_name: str) -> SceneNode:
    attrs = node.attributes
    bbox_center = bbox_size = None
    if label == "Object":
        bbox = attrs.bounding_box
        if bbox.type.name != "INVALID":
            bbox_center, bbox_size = _vec(bbox.world_P_center), _vec(bbox.dimensions)
            if not all(math.isfinite(v) for v in (*bbox_center, *bbox_size)):
                bbox_center = bbox_size = None  # garbage from an unset box: treat as no box
    return SceneNode(
        symbol=node.id.str(True),
        label=label,
        class_name=class_name,
        name=str(getattr(attrs, "name", "") or ""),
        center=_vec(attrs.position),
        bbox_center=bbox_center,
        bbox_size=bbox_size,
    )


def _scene_edges(dsg: Any, kept: dict[int, str]) -> tuple[list[SceneEdge], Counter]:
    """Type every edge between kept nodes; count the ones the schema has no type for."""
    import spark_dsg

    def symbol(node_id: int) -> str:
        return spark_dsg.NodeSymbol(node_id).str(True)

    edges: list[SceneEdge] = []
    skipped: Counter = Counter()
    for edge in dsg.edges:
        src, dst = edge.source, edge.target
        if src not in kept or dst not in kept:
            continue
        if src in set(dsg.get_node(dst).parents()):
            edges.append(SceneEdge(symbol(src), symbol(dst), CONTAINS))
        elif dst in set(dsg.get_node(src).parents()):
            edges.append(SceneEdge(symbol(dst), symbol(src), CONTAINS))
        elif kept[src] == kept[dst]:
            edges.append(SceneEdge(symbol(src), symbol(dst), CONNECTED_EDGE[kept[src]]))
        else:
            skipped[tuple(sorted((kept[src], kept[dst])))] += 1
    return edges, skipped
