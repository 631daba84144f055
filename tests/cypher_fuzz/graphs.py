"""Random small scene graphs in Heracles' layout, written as spark_dsg JSON.

Each graph is drawn as a plain spec (`GraphSpec`), saved through spark_dsg (the format the
product reads) and loaded back with the product's own `load_scene_graph`, so the databases the
engines query are built exactly as a benchmark run builds them. The reference evaluator reads
the spec, never the loader's output, and `check_loaded` makes sure the two agree.

The draws favour the corners that break translations: empty rooms, a label holding exactly one
node (often), objects in no room, objects with two parents, objects without a bounding box
(NULL `bbox_center`/`bbox_dim`), empty names, repeated classes and coordinates on a 0.5 m grid
(exact ties in distances and sorts).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from dsgqa.scene_graph import CONNECTED_EDGE, SceneGraph, load_scene_graph

Vec3 = tuple[float, float, float]
OBJECT_CLASSES = ("chair", "table", "lamp", "box", "trash", "floor")
ROOM_CLASSES = ("kitchen", "office", "hallway")
BUILDING_CLASSES = ("apartment",)
OBJECT_NAMES = ("", "", "red chair", "old lamp", "box", "a,b")
_LAYER = {"Object": (2, 0), "Place": (3, 0), "MeshPlace": (3, 1), "Room": (4, 0),
          "Building": (5, 0)}
_PREFIX = {"Object": "O", "Place": "p", "MeshPlace": "P", "Room": "R", "Building": "B"}


@dataclass(frozen=True)
class NodeSpec:
    """One node as Heracles stores it; `bbox_*` only on objects, None when it has no box."""

    symbol: str
    label: str
    cls: str
    name: str
    center: Vec3
    bbox_center: Vec3 | None = None
    bbox_dim: Vec3 | None = None


@dataclass(frozen=True)
class GraphSpec:
    """Nodes, CONTAINS pairs (parent, child) and same-layer pairs (stored both ways)."""

    nodes: tuple[NodeSpec, ...]
    contains: tuple[tuple[str, str], ...]
    connected: tuple[tuple[str, str], ...]


def _coord(rng: random.Random) -> float:
    return rng.randint(-6, 6) / 2


def _vec(rng: random.Random) -> Vec3:
    return (_coord(rng), _coord(rng), rng.randint(0, 4) / 2)


def random_graph(rng: random.Random) -> GraphSpec:
    """A graph of up to ~25 nodes; every layer may be empty."""
    counts = {"Building": rng.randint(0, 1), "Room": rng.randint(0, 4),
              "Place": rng.randint(0, 3), "MeshPlace": rng.randint(0, 4),
              "Object": rng.randint(0, 8)}
    if rng.random() < 0.4:
        # a label holding exactly one node: Kuzu filtered a scan over several labels wrong
        # where one of them held a single node (`MATCH (n) WHERE n.nodeSymbol IN ['R0']`)
        counts[rng.choice(("Building", "Room", "Room", "Place", "MeshPlace", "Object"))] = 1
    nodes: list[NodeSpec] = []
    by_label: dict[str, list[str]] = {}
    for label, count in counts.items():
        start = rng.randint(0, 3) * 10
        symbols = [f"{_PREFIX[label]}{start + i}" for i in range(count)]
        by_label[label] = symbols
        for symbol in symbols:
            nodes.append(_node(rng, label, symbol))
    contains: list[tuple[str, str]] = []

    def attach(children: list[str], parents: list[str], p_none: float) -> None:
        for child in children:
            if not parents or rng.random() < p_none:
                continue
            for parent in rng.sample(parents, k=min(len(parents), rng.choice((1, 1, 1, 2)))):
                contains.append((parent, child))

    attach(by_label["Room"], by_label["Building"], 0.2)
    attach(by_label["Place"] + by_label["MeshPlace"], by_label["Room"], 0.25)
    attach(by_label["Object"], by_label["Place"] + by_label["MeshPlace"], 0.2)
    connected: list[tuple[str, str]] = []
    for label in CONNECTED_EDGE:
        layer = by_label[label]
        pairs = [(a, b) for i, a in enumerate(layer) for b in layer[i + 1:]]
        connected += [pair for pair in pairs if rng.random() < 0.4]
    return GraphSpec(tuple(nodes), tuple(contains), tuple(connected))


def _node(rng: random.Random, label: str, symbol: str) -> NodeSpec:
    center = _vec(rng)
    if label == "Object":
        boxed = rng.random() < 0.75
        return NodeSpec(symbol, label, rng.choice(OBJECT_CLASSES), rng.choice(OBJECT_NAMES),
                        center, center if boxed else None,
                        (rng.randint(1, 4) / 2, 0.5, rng.randint(1, 3) / 2) if boxed else None)
    cls = {"Room": rng.choice(ROOM_CLASSES), "Building": BUILDING_CLASSES[0],
           "MeshPlace": "floor", "Place": "unknown"}[label]
    name = rng.choice(("", symbol.lower())) if label != "Place" else ""
    return NodeSpec(symbol, label, cls, name, center)


def write_spark_dsg(spec: GraphSpec, path: Path) -> Path:
    """Save `spec` as spark_dsg JSON, built with spark_dsg's own API as Hydra files are."""
    import spark_dsg as sd

    graph = sd.DynamicSceneGraph()
    graph.add_layer(3, 1, "MESH_PLACES")
    graph.set_labelspace(sd.Labelspace(dict(enumerate(OBJECT_CLASSES))), 2, 0)
    graph.set_labelspace(sd.Labelspace(dict(enumerate(ROOM_CLASSES))), 4, 0)
    graph.set_labelspace(sd.Labelspace(dict(enumerate(BUILDING_CLASSES))), 5, 0)
    kinds = {"Object": sd.ObjectNodeAttributes, "Place": sd.PlaceNodeAttributes,
             "MeshPlace": sd.Place2dNodeAttributes, "Room": sd.RoomNodeAttributes,
             "Building": sd.SemanticNodeAttributes}
    for node in spec.nodes:
        attrs = kinds[node.label]()
        attrs.position = list(node.center)
        attrs.name = node.name
        if node.label in ("Object", "MeshPlace"):
            attrs.semantic_label = OBJECT_CLASSES.index(node.cls)
        elif node.label == "Room":
            attrs.semantic_label = ROOM_CLASSES.index(node.cls)
        elif node.label == "Building":
            attrs.semantic_label = 0
        if node.label == "MeshPlace":  # left uninitialised by spark_dsg otherwise
            attrs.ellipse_centroid = list(node.center)
            attrs.ellipse_matrix_compress = [[1.0, 0.0], [0.0, 1.0]]
            attrs.ellipse_matrix_expand = [[1.0, 0.0], [0.0, 1.0]]
        if node.label == "Object" and node.bbox_center is not None:
            attrs.bounding_box = sd.BoundingBox(list(node.bbox_dim), list(node.bbox_center))
        layer, partition = _LAYER[node.label]
        graph.add_node(layer, _symbol(sd, node.symbol), attrs, partition)
    for parent, child in spec.contains:
        graph.insert_edge(_symbol(sd, parent), _symbol(sd, child))
    for a, b in spec.connected:
        graph.insert_edge(_symbol(sd, a), _symbol(sd, b))
    path.parent.mkdir(parents=True, exist_ok=True)
    graph.save(str(path), include_mesh=False)
    return path


def _symbol(sd: object, text: str) -> object:
    return sd.NodeSymbol(text[0], int(text[1:]))  # type: ignore[attr-defined]


def load(path: Path, spec: GraphSpec) -> SceneGraph:
    """The product's reading of the file, checked against the spec it was written from."""
    graph = load_scene_graph(path)
    check_loaded(graph, spec)
    return graph


def check_loaded(graph: SceneGraph, spec: GraphSpec) -> None:
    """Raise when the loader reads the file differently from the spec: the fuzzer's graph
    writer would then be at fault, and every comparison on that graph would be meaningless."""
    got = {(n.symbol, n.label, n.class_name, n.name, n.center, n.bbox_center, n.bbox_size)
           for n in graph.nodes}
    want = {(n.symbol, n.label, n.cls, n.name, n.center, n.bbox_center, n.bbox_dim)
            for n in spec.nodes}
    if got != want:
        raise AssertionError(f"loader read other nodes: {sorted(got ^ want)}")
    contains = {(e.source, e.target) for e in graph.edges if e.type == "CONTAINS"}
    same = {frozenset((e.source, e.target)) for e in graph.edges if e.type != "CONTAINS"}
    if contains != set(spec.contains) or same != {frozenset(p) for p in spec.connected}:
        raise AssertionError("loader read other edges")


def spec_json(spec: GraphSpec) -> str:
    """The spec as one JSON line, for a report that must let someone rebuild the graph."""
    return json.dumps({"nodes": [n.__dict__ for n in spec.nodes],
                       "contains": spec.contains, "connected": spec.connected})
