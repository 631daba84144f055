"""The scene graph as prompt text, for the in-context pipeline (no database: the model reads
the graph itself).

Two documented variants, both deterministic (nodes sorted by symbol, numbers rounded to
`DECIMALS`), so a prompt is a stable cache key and two runs see the same text:

- `compact`, as heracles_agents' first in-context variant: one line per object (symbol, class,
  position, the room it is in) and one per room (symbol, class). An object is in a room when the
  room CONTAINS a mesh place (or place) that CONTAINS the object.
- `full`: every layer. One line per node (symbol, label, class, name, center, and for objects
  the bounding box), then the containment hierarchy (`parent > child, child, ...`) and the
  same-layer connections (`a -- b`, each undirected edge once).

Positions are `(x, y, z)` rounded to two decimals (a centimetre), which keeps answers that
depend on distances decidable while keeping the text short.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal

from dsgqa.scene_graph import CONTAINS, SceneGraph, SceneNode, Vec3, load_scene_graph

Variant = Literal["compact", "full"]
VARIANTS: tuple[Variant, ...] = ("compact", "full")
DECIMALS = 2
# A rough tokens-per-character ratio for English-and-numbers text with common tokenizers
# (cl100k/o200k give 3.2-4 characters a token on this kind of listing).
CHARS_PER_TOKEN = 3.5


def serialize(graph: SceneGraph, variant: Variant = "compact") -> str:
    """The graph as prompt text in the chosen variant."""
    if variant == "compact":
        return _compact(graph)
    if variant == "full":
        return _full(graph)
    raise ValueError(f"unknown in-context variant {variant!r}: choose compact or full")


@lru_cache(maxsize=8)
def scene_text(path: str, variant: Variant = "compact") -> str:
    """The scene graph file's prompt text, serialized once per process."""
    return serialize(load_scene_graph(path), variant)


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate, recorded per prompt and checked against a context limit."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


def _compact(graph: SceneGraph) -> str:
    rooms = _room_of_objects(graph)
    objects = [n for n in _sorted(graph.nodes) if n.label == "Object"]
    room_nodes = [n for n in _sorted(graph.nodes) if n.label == "Room"]
    lines = ["<scene graph>", "Objects:"]
    lines += [f"- (id={n.symbol}, class={n.class_name}, pos={_vec(n.center)}, "
              f"room={', '.join(rooms.get(n.symbol, ())) or 'none'})" for n in objects]
    lines.append("Rooms:")
    lines += [f"- (id={n.symbol}, class={n.class_name})" for n in room_nodes]
    lines.append("</scene graph>")
    return "\n".join(lines)


def _full(graph: SceneGraph) -> str:
    lines = ["<scene graph>", "Nodes:"]
    for node in _sorted(graph.nodes):
        fields = [f"id={node.symbol}", f"label={node.label}", f"class={node.class_name}"]
        if node.name:
            fields.append(f"name={node.name}")
        fields.append(f"center={_vec(node.center)}")
        if node.bbox_center is not None and node.bbox_size is not None:
            fields += [f"bbox_center={_vec(node.bbox_center)}", f"bbox_dim={_vec(node.bbox_size)}"]
        lines.append(f"- ({', '.join(fields)})")
    children: dict[str, list[str]] = defaultdict(list)
    connected: set[tuple[str, str]] = set()
    for edge in graph.edges:
        if edge.type == CONTAINS:
            children[edge.source].append(edge.target)
        else:
            ends = sorted((edge.source, edge.target), key=_symbol_key)
            connected.add((ends[0], ends[1]))
    lines.append("Contains (parent > children):")
    lines += [f"- {parent} > {', '.join(sorted(kids, key=_symbol_key))}"
              for parent, kids in sorted(children.items(), key=lambda i: _symbol_key(i[0]))]
    lines.append("Connected (same layer, undirected):")
    pairs = sorted(connected, key=lambda p: (_symbol_key(p[0]), _symbol_key(p[1])))
    lines += [f"- {a} -- {b}" for a, b in pairs]
    lines.append("</scene graph>")
    return "\n".join(lines)


def _room_of_objects(graph: SceneGraph) -> dict[str, tuple[str, ...]]:
    """Object -> the rooms that contain a (mesh) place containing it."""
    label = graph.labels_by_symbol()
    parents: dict[str, list[str]] = defaultdict(list)
    for edge in graph.edges:
        if edge.type == CONTAINS:
            parents[edge.target].append(edge.source)
    rooms: dict[str, tuple[str, ...]] = {}
    for symbol, kind in label.items():
        if kind != "Object":
            continue
        found = {room for place in parents.get(symbol, ())
                 if label.get(place) in ("Place", "MeshPlace")
                 for room in parents.get(place, ()) if label.get(room) == "Room"}
        rooms[symbol] = tuple(sorted(found))
    return rooms


def _sorted(nodes: Iterable[SceneNode]) -> list[SceneNode]:
    return sorted(nodes, key=lambda n: (n.label, _symbol_key(n.symbol)))


def _symbol_key(symbol: str) -> tuple[str, int, str]:
    """O2 before O10: the letter prefix, then the number."""
    head = symbol.rstrip("0123456789")
    tail = symbol[len(head):]
    return (head, int(tail) if tail else -1, symbol)


def _vec(vec: Vec3) -> str:
    return "(" + ", ".join(f"{round(v, DECIMALS):.{DECIMALS}f}" for v in vec) + ")"
