"""Gold answers for the fidelity question set, computed from the scene-graph JSON in plain Python.

The fidelity set (questions/fidelity/example_questions.yaml) checks that a Cypher query written
for Heracles' Neo4j layout gets the same answer on our engines. Its solutions must therefore not
come from any Cypher engine, ours or another: this module reads the spark_dsg JSON with `json`
alone, rebuilds the Heracles view (labels, `class`, `center`, bounding boxes, CONTAINS from parent
to child, same-layer edges in both directions) and answers each question with ordinary Python.

It lives under tests/ (not dsgqa/) so it shares no code with the loader it checks.
`python -m tests.fidelity_gold` rewrites the YAML's `solution:` lines from these functions;
tests/test_fidelity_gold.py asserts the committed YAML still matches.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchcore.external_data import EXAMPLE_DSG, path_or_fetched
from dsgqa.sldp import Point, SLDPDict, SLDPList, SLDPSet, format_sldp

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = path_or_fetched(EXAMPLE_DSG)   # needs `tests.external.needs(EXAMPLE_DSG)`
QUESTIONS = ROOT / "questions/fidelity/example_questions.yaml"

# spark_dsg layer names -> Heracles labels (heracles constants).
_LAYER_LABELS = {"OBJECTS": "Object", "PLACES": "Place", "MESH_PLACES": "MeshPlace",
                 "ROOMS": "Room", "BUILDINGS": "Building"}
# Height in the hierarchy; of two nodes joined by a cross-layer edge the higher is the parent.
_RANK = {"Object": 0, "Place": 1, "MeshPlace": 1, "Room": 2, "Building": 3}
_DIGITS = 4  # solutions are rounded to this many decimals (SLDP's tolerance is 0.01)

Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Node:
    """One node as Heracles stores it."""

    symbol: str
    label: str
    cls: str
    center: Vec
    bbox_center: Vec | None = None
    bbox_dim: Vec | None = None
    name: str = ""


@dataclass
class Graph:
    """Nodes by symbol, CONTAINS as parent -> children, and same-layer neighbours (undirected)."""

    nodes: dict[str, Node]
    children: dict[str, set[str]] = field(default_factory=dict)
    parents: dict[str, set[str]] = field(default_factory=dict)
    neighbours: dict[str, set[str]] = field(default_factory=dict)

    def of(self, label: str, cls: str | None = None) -> list[Node]:
        """Nodes of one label (and class), sorted by symbol."""
        return sorted((n for n in self.nodes.values()
                       if n.label == label and (cls is None or n.cls == cls)),
                      key=lambda n: n.symbol)

    def objects_in_room(self, room: str) -> set[str]:
        """Objects under any place or mesh place of the room."""
        return {o for p in self.children.get(room, ()) for o in self.children.get(p, ())}

    def rooms_of(self, symbol: str) -> set[str]:
        """Rooms above a place/mesh place, or above the places holding an object."""
        node = self.nodes[symbol]
        if node.label in ("Place", "MeshPlace"):
            places = {symbol}
        else:
            places = self.parents.get(symbol, set())
        return {r for p in places for r in self.parents.get(p, ())
                if self.nodes[r].label == "Room"}

    def hops(self, start: str) -> dict[str, int]:
        """Breadth-first hop counts over same-layer edges from `start`."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in sorted(self.neighbours.get(here, ())):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def shortest_paths(self, start: str, goal: str) -> list[list[str]]:
        """Every shortest node sequence from start to goal over same-layer edges."""
        dist = self.hops(start)
        if goal not in dist:
            return []

        def back(node: str) -> list[list[str]]:
            if node == start:
                return [[start]]
            return [[*path, node] for prev in sorted(self.neighbours[node])
                    if dist.get(prev) == dist[node] - 1 for path in back(prev)]

        return back(goal)

    def stored_edges(self, edge_type: str) -> int:
        """How many relationships of a type Heracles stores (same-layer edges twice)."""
        if edge_type == "CONTAINS":
            return sum(len(c) for c in self.children.values())
        label = {"OBJECT_CONNECTED": "Object", "PLACE_CONNECTED": "Place",
                 "MESH_PLACE_CONNECTED": "MeshPlace", "ROOM_CONNECTED": "Room",
                 "BUILDING_CONNECTED": "Building"}[edge_type]
        return sum(len(self.neighbours.get(n.symbol, ())) for n in self.of(label))


def symbol(node_id: int) -> str:
    """spark_dsg's NodeSymbol text: the top byte is a letter, the rest the index (O12, R3)."""
    return f"{chr(node_id >> 56)}{node_id & ((1 << 56) - 1)}"


def load_graph(path: Path = EXAMPLE) -> Graph:
    """The Heracles view of a spark_dsg 1.1 JSON file."""
    data = json.loads(Path(path).read_text())
    key_label = {(k["layer"], k["partition"]): _LAYER_LABELS[name]
                 for name, k in data["layer_names"].items() if name in _LAYER_LABELS}
    spaces = {key: dict(pairs) for key, pairs in data["metadata"]["labelspaces"].items()}
    objects_space = spaces.get("_l2p0", {})
    nodes: dict[str, Node] = {}
    label_of: dict[int, str] = {}
    for raw in data["nodes"]:
        label = key_label.get((raw["layer"], raw["partition"]))
        if label is None:
            continue
        attrs = raw["attributes"]
        space = spaces.get(f"_l{raw['layer']}p{raw['partition']}") or objects_space
        box = attrs.get("bounding_box") if label == "Object" else None
        nodes[symbol(raw["id"])] = Node(
            symbol=symbol(raw["id"]),
            label=label,
            cls=space.get(attrs.get("semantic_label"), "unknown"),
            center=_vec(attrs["position"]),
            bbox_center=_vec(box["world_P_center"]) if box else None,
            bbox_dim=_vec(box["dimensions"]) if box else None,
            name=str(attrs.get("name") or ""),
        )
        label_of[raw["id"]] = label
    graph = Graph(nodes)
    for edge in data["edges"]:
        a, b = edge["source"], edge["target"]
        if a not in label_of or b not in label_of:
            continue
        sa, sb = symbol(a), symbol(b)
        if label_of[a] == label_of[b]:
            graph.neighbours.setdefault(sa, set()).add(sb)
            graph.neighbours.setdefault(sb, set()).add(sa)
            continue
        parent, child = (sa, sb) if _RANK[label_of[a]] > _RANK[label_of[b]] else (sb, sa)
        graph.children.setdefault(parent, set()).add(child)
        graph.parents.setdefault(child, set()).add(parent)
    return graph


def _vec(values: Iterable[float]) -> Vec:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def dist(a: Vec, b: Vec) -> float:
    return math.dist(a, b)


# ----------------------------------------------------------------------------- answer values


def point(vec: Vec) -> Point:
    return Point(tuple(vec))


def as_set(items: Iterable[Any]) -> set[Any] | SLDPSet:
    """A set of values; points and lists are not hashable as Python sets, so SLDPSet them."""
    return SLDPSet(tuple(items))


def sldp_text(value: Any) -> str:
    """Canonical SLDP text: floats rounded, set items and dict keys sorted by their text."""
    return format_sldp(_canonical(value))


def _canonical(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        raise TypeError(f"no gold answer is {value!r}")
    if isinstance(value, float):
        rounded = round(value, _DIGITS)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, int | str):
        return value
    if isinstance(value, Point):
        return Point(tuple(_canonical(float(c)) for c in value.coords))
    if isinstance(value, list | tuple | SLDPList):
        return SLDPList(tuple(_canonical(v) for v in value))
    if isinstance(value, set | frozenset | SLDPSet):
        return SLDPSet(tuple(sorted((_canonical(v) for v in value), key=format_sldp)))
    if isinstance(value, dict):
        pairs = ((_canonical(k), _canonical(v)) for k, v in value.items())
        return SLDPDict(tuple(sorted(pairs, key=lambda kv: format_sldp(kv[0]))))
    if isinstance(value, SLDPDict):
        return _canonical(dict(value.items))
    raise TypeError(f"not an answer value: {type(value).__name__}")


# ----------------------------------------------------------------------------- the answers

GOLD: dict[str, Callable[[Graph], Any]] = {}


def gold(uid: str) -> Callable[[Callable[[Graph], Any]], Callable[[Graph], Any]]:
    """Register the function answering question `uid`."""

    def register(function: Callable[[Graph], Any]) -> Callable[[Graph], Any]:
        if uid in GOLD:
            raise ValueError(f"two gold answers for {uid}")
        GOLD[uid] = function
        return function

    return register


def _clear(value: float, threshold: float, margin: float = 1e-3) -> float:
    """`value`, after checking it is not so close to a threshold that rounding could flip it."""
    if abs(value - threshold) < margin:
        raise ValueError(f"{value} is too close to the threshold {threshold} for a fair question")
    return value


def _room_objects(g: Graph) -> dict[str, set[str]]:
    return {r.symbol: g.objects_in_room(r.symbol) for r in g.of("Room")}


def _degree(g: Graph, symbol: str) -> int:
    return len(g.neighbours.get(symbol, ()))


def _volume(node: Node) -> float:
    assert node.bbox_dim is not None
    x, y, z = node.bbox_dim
    return x * y * z


def _ranked(scores: dict[str, float], *, descending: bool) -> list[str]:
    """Symbols by score, ties broken by symbol (ascending), as ORDER BY score, symbol does."""
    sign = -1 if descending else 1
    return sorted(scores, key=lambda s: (sign * scores[s], s))


def _the(g: Graph, label: str, cls: str) -> Node:
    (node,) = g.of(label, cls)
    return node


@gold("fid01")
def _count_objects(g: Graph) -> Any:
    return len(g.of("Object"))


@gold("fid02")
def _nodes_per_label(g: Graph) -> Any:
    return dict(Counter(n.label for n in g.nodes.values()))


@gold("fid03")
def _stored_relationships_per_type(g: Graph) -> Any:
    types = ("CONTAINS", "OBJECT_CONNECTED", "PLACE_CONNECTED", "MESH_PLACE_CONNECTED",
             "ROOM_CONNECTED", "BUILDING_CONNECTED")
    return {t: g.stored_edges(t) for t in types if g.stored_edges(t)}


@gold("fid04")
def _adjacent_room_pairs(g: Graph) -> Any:
    rooms = g.of("Room")
    return len({frozenset((r.symbol, n)) for r in rooms for n in g.neighbours.get(r.symbol, ())})


@gold("fid05")
def _incoming_room_edges_r2(g: Graph) -> Any:
    return _degree(g, "R2")


@gold("fid06")
def _neighbours_of_r2(g: Graph) -> Any:
    return set(g.neighbours["R2"])


@gold("fid07")
def _room_degrees(g: Graph) -> Any:
    return {r.symbol: _degree(g, r.symbol) for r in g.of("Room") if _degree(g, r.symbol)}


@gold("fid08")
def _room_fewest_neighbours(g: Graph) -> Any:
    return _ranked({r.symbol: _degree(g, r.symbol) for r in g.of("Room")}, descending=False)[0]


@gold("fid09")
def _rooms_by_degree(g: Graph) -> Any:
    degrees = {r.symbol: _degree(g, r.symbol) for r in g.of("Room") if _degree(g, r.symbol)}
    return _ranked(degrees, descending=True)


@gold("fid10")
def _objects_in_r3(g: Graph) -> Any:
    return g.objects_in_room("R3")


@gold("fid11")
def _object_classes_in_lounge(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge").symbol
    return {g.nodes[o].cls for o in g.objects_in_room(lounge)}


@gold("fid12")
def _signs_in_lounge(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge").symbol
    return {o for o in g.objects_in_room(lounge) if g.nodes[o].cls == "sign"}


@gold("fid13")
def _objects_per_room(g: Graph) -> Any:
    return {r: len(objects) for r, objects in _room_objects(g).items() if objects}


@gold("fid14")
def _two_rooms_fewest_objects(g: Graph) -> Any:
    counts = {r: len(objects) for r, objects in _room_objects(g).items() if objects}
    return set(_ranked(counts, descending=False)[:2])


@gold("fid15")
def _objects_outside_every_place(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object") if not g.parents.get(o.symbol)}


@gold("fid16")
def _objects_outside_every_room(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object") if not g.rooms_of(o.symbol)}


@gold("fid17")
def _room_of_each_storage_object(g: Graph) -> Any:
    answer = {}
    for o in g.of("Object", "storage"):
        rooms = g.rooms_of(o.symbol)
        if len(rooms) > 1:
            raise ValueError(f"{o.symbol} lies in several rooms: a dict cannot say so")
        answer[o.symbol] = rooms.pop() if rooms else "none"
    return answer


@gold("fid18")
def _rooms_of_o95(g: Graph) -> Any:
    return g.rooms_of("O95")


@gold("fid19")
def _mesh_places_per_room(g: Graph) -> Any:
    return {r.symbol: sum(1 for c in g.children.get(r.symbol, ())
                          if g.nodes[c].label == "MeshPlace")
            for r in g.of("Room") if g.children.get(r.symbol)}


@gold("fid20")
def _mesh_places_outside_rooms(g: Graph) -> Any:
    return sum(1 for m in g.of("MeshPlace") if not g.rooms_of(m.symbol))


@gold("fid21")
def _mesh_place_classes(g: Graph) -> Any:
    return dict(Counter(m.cls for m in g.of("MeshPlace")))


@gold("fid22")
def _objects_in_several_mesh_places(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object")
            if sum(g.nodes[p].label == "MeshPlace" for p in g.parents.get(o.symbol, ())) > 1}


@gold("fid23")
def _fullest_mesh_place(g: Graph) -> Any:
    counts = {m.symbol: len(g.children.get(m.symbol, ())) for m in g.of("MeshPlace")}
    best = _ranked(counts, descending=True)[0]
    return [best, counts[best]]


@gold("fid24")
def _distinct_object_classes(g: Graph) -> Any:
    return len({o.cls for o in g.of("Object")})


@gold("fid25")
def _objects_per_class(g: Graph) -> Any:
    return dict(Counter(o.cls for o in g.of("Object")))


@gold("fid26")
def _labels_above_o95(g: Graph) -> Any:
    above = set(g.parents.get("O95", ()))
    above |= {r for p in above for r in g.parents.get(p, ())}
    return dict(Counter(g.nodes[n].label for n in above))


@gold("fid27")
def _relationships_touching_r2(g: Graph) -> Any:
    contains = len(g.children.get("R2", ())) + len(g.parents.get("R2", ()))
    return {"CONTAINS": contains, "ROOM_CONNECTED": 2 * _degree(g, "R2")}


@gold("fid28")
def _center_of_r1(g: Graph) -> Any:
    return point(g.nodes["R1"].center)


@gold("fid29")
def _bicycle_position(g: Graph) -> Any:
    return point(_the(g, "Object", "bicycle").center)


@gold("fid30")
def _trash_positions(g: Graph) -> Any:
    return as_set(point(o.center) for o in g.of("Object", "trash"))


@gold("fid31")
@gold("fid32")
def _room_centers(g: Graph) -> Any:
    return {r.symbol: point(r.center) for r in g.of("Room")}


@gold("fid33")
def _light_positions(g: Graph) -> Any:
    return as_set(point(o.center) for o in g.of("Object", "light"))


@gold("fid34")
def _room_centers_west_to_east(g: Graph) -> Any:
    return [point(r.center) for r in sorted(g.of("Room"), key=lambda r: r.center[0])]


@gold("fid35")
def _appliance_positions_by_x(g: Graph) -> Any:
    return [point(o.center) for o in sorted(g.of("Object", "appliance"), key=lambda o: o.center[0])]


@gold("fid36")
def _distance_r1_r5(g: Graph) -> Any:
    return dist(g.nodes["R1"].center, g.nodes["R5"].center)


@gold("fid37")
def _object_closest_to_bicycle(g: Graph) -> Any:
    bike = _the(g, "Object", "bicycle")
    others = {o.symbol: dist(o.center, bike.center) for o in g.of("Object") if o != bike}
    return _ranked(others, descending=False)[0]


@gold("fid38")
def _object_closest_to_origin(g: Graph) -> Any:
    return _ranked({o.symbol: dist(o.center, (0.0, 0.0, 0.0)) for o in g.of("Object")},
                   descending=False)[0]


@gold("fid39")
def _objects_near_point(g: Graph) -> Any:
    here = (-21.0, -21.0, 0.0)
    return {o.symbol for o in g.of("Object") if _clear(dist(o.center, here), 1.5) < 1.5}


@gold("fid40")
def _three_nearest_to_bag(g: Graph) -> Any:
    bag = _the(g, "Object", "bag")
    others = {o.symbol: dist(o.center, bag.center) for o in g.of("Object") if o != bag}
    return _ranked(others, descending=False)[:3]


@gold("fid41")
def _mean_seating_distance_to_lounge_center(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge")
    seats = [g.nodes[o] for o in g.objects_in_room(lounge.symbol)
             if g.nodes[o].cls == "seating"]
    return round(sum(dist(o.center, lounge.center) for o in seats) / len(seats), 2)


@gold("fid42")
def _farthest_room_pair(g: Graph) -> Any:
    rooms = g.of("Room")
    pairs = [(a, b) for a in rooms for b in rooms if a.symbol < b.symbol]
    a, b = max(pairs, key=lambda ab: dist(ab[0].center, ab[1].center))
    return [a.symbol, b.symbol]


@gold("fid43")
def _distances_from_r2(g: Graph) -> Any:
    here = g.nodes["R2"].center
    return {r.symbol: dist(r.center, here) for r in g.of("Room") if r.symbol != "R2"}


@gold("fid44")
def _largest_bounding_box(g: Graph) -> Any:
    return _ranked({o.symbol: _volume(o) for o in g.of("Object")}, descending=True)[0]


@gold("fid45")
def _tall_objects(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object") if o.bbox_dim and _clear(o.bbox_dim[2], 1.2) > 1.2}


@gold("fid46")
def _bbox_center_of_o82(g: Graph) -> Any:
    box = g.nodes["O82"].bbox_center
    assert box is not None
    return point(box)


@gold("fid47")
def _objects_per_whole_meter(g: Graph) -> Any:
    return dict(Counter(math.trunc(_clear(o.center[2], round(o.center[2]), 1e-6))
                        for o in g.of("Object")))


@gold("fid48")
def _room_summaries(g: Graph) -> Any:
    return {f"{r.symbol}:{r.cls}:{len(g.children[r.symbol])}"
            for r in g.of("Room") if g.children.get(r.symbol)}


@gold("fid49")
def _share_of_seating(g: Graph) -> Any:
    objects = g.of("Object")
    return sum(o.cls == "seating" for o in objects) / len(objects)


@gold("fid50")
def _objects_per_height_band(g: Graph) -> Any:
    def band(z: float) -> str:
        _clear(z, 0.0, 1e-6)
        _clear(z, 1.0, 1e-6)
        return "low" if z < 0 else "middle" if z < 1.0 else "high"

    return dict(Counter(band(o.center[2]) for o in g.of("Object")))


@gold("fid51")
def _mesh_places_in_r3(g: Graph) -> Any:
    return sum(g.nodes[c].label == "MeshPlace" for c in g.children.get("R3", ()))


@gold("fid52")
def _objects_in_r4_by_x(g: Graph) -> Any:
    return sorted(g.objects_in_room("R4"), key=lambda o: g.nodes[o].center[0])


@gold("fid53")
def _classes_in_r5_starting_with_s(g: Graph) -> Any:
    return {g.nodes[o].cls for o in g.objects_in_room("R5") if g.nodes[o].cls.startswith("s")}


@gold("fid54")
def _hops_r1_to_r5(g: Graph) -> Any:
    return g.hops("R1")["R5"]


@gold("fid55")
def _all_shortest_routes_r1_r5(g: Graph) -> Any:
    return as_set(SLDPList(tuple(path)) for path in g.shortest_paths("R1", "R5"))


@gold("fid56")
def _number_of_shortest_routes_r1_r5(g: Graph) -> Any:
    return len(g.shortest_paths("R1", "R5"))


@gold("fid57")
def _rooms_within_two_steps_of_r1(g: Graph) -> Any:
    return {r for r, hops in g.hops("R1").items() if 1 <= hops <= 2}


@gold("fid58")
def _hops_from_r1(g: Graph) -> Any:
    return {r: hops for r, hops in g.hops("R1").items() if r != "R1"}


def _holder(g: Graph, cls: str) -> str:
    (place,) = g.parents[_the(g, "Object", cls).symbol]
    return place


@gold("fid59")
def _mesh_hops_bicycle_to_bag(g: Graph) -> Any:
    return g.hops(_holder(g, "bicycle"))[_holder(g, "bag")]


@gold("fid60")
def _objects_near_bag_in_hops(g: Graph) -> Any:
    bag = _the(g, "Object", "bag").symbol
    near = [m for m, hops in g.hops(_holder(g, "bag")).items() if hops <= 3]
    return len({o for m in near for o in g.children.get(m, ())} - {bag})


@gold("fid61")
def _route_r1_to_r3(g: Graph) -> Any:
    (route,) = g.shortest_paths("R1", "R3")
    return route


@gold("fid62")
def _relationship_types_room_to_bicycle(g: Graph) -> Any:
    bike = _the(g, "Object", "bicycle").symbol
    (room,) = g.rooms_of(bike)
    (place,) = g.parents[bike]
    assert place in g.children[room]
    return ["CONTAINS", "CONTAINS"]


@gold("fid63")
def _mean_seating_height(g: Graph) -> Any:
    seats = g.of("Object", "seating")
    return sum(o.center[2] for o in seats) / len(seats)


@gold("fid64")
def _x_extent_of_objects(g: Graph) -> Any:
    xs = [o.center[0] for o in g.of("Object")]
    return [min(xs), max(xs)]


@gold("fid65")
def _storage_volume(g: Graph) -> Any:
    return round(sum(_volume(o) for o in g.of("Object", "storage")), 2)


@gold("fid66")
def _rooms_with_many_objects(g: Graph) -> Any:
    return {r for r, objects in _room_objects(g).items() if len(objects) > 10}


@gold("fid67")
def _commonest_class_per_room(g: Graph) -> Any:
    answer = {}
    for room, objects in _room_objects(g).items():
        if objects:
            counts = Counter(g.nodes[o].cls for o in objects)
            answer[room] = _ranked(dict(counts), descending=True)[0]
    return answer


@gold("fid68")
def _best_connected_mesh_places(g: Graph) -> Any:
    degrees = {m.symbol: _degree(g, m.symbol) for m in g.of("MeshPlace") if _degree(g, m.symbol)}
    return _ranked(degrees, descending=True)[:5]


@gold("fid69")
def _count_places(g: Graph) -> Any:
    return len(g.of("Place"))


@gold("fid70")
def _connected_objects(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object") if g.neighbours.get(o.symbol)}


@gold("fid71")
def _objects_in_r4(g: Graph) -> Any:
    return g.objects_in_room("R4")


@gold("fid72")
def _small_things_in_lounge(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge").symbol
    return {o for o in g.objects_in_room(lounge) if g.nodes[o].cls in ("bed", "bag", "box")}


@gold("fid73")
def _class_of_nearest_object_per_room(g: Graph) -> Any:
    answer = {}
    for room, objects in _room_objects(g).items():
        if objects:
            center = g.nodes[room].center
            nearest = min(objects, key=lambda o: dist(g.nodes[o].center, center))
            answer[room] = g.nodes[nearest].cls
    return answer


@gold("fid74")
def _objects_in_listed_rooms(g: Graph) -> Any:
    return {r: len(g.objects_in_room(r)) for r in ("R3", "R4")}


@gold("fid75")
def _rooms_with_two_or_more_neighbours(g: Graph) -> Any:
    return {r.symbol for r in g.of("Room") if _degree(g, r.symbol) >= 2}


@gold("fid76")
def _first_class_in_r2(g: Graph) -> Any:
    return min(g.nodes[o].cls for o in g.objects_in_room("R2"))


@gold("fid77")
def _sum_of_room_x(g: Graph) -> Any:
    return sum(r.center[0] for r in g.of("Room"))


@gold("fid78")
def _rooms_with_trash(g: Graph) -> Any:
    return {r for r, objects in _room_objects(g).items()
            if any(g.nodes[o].cls == "trash" for o in objects)}


@gold("fid79")
def _mesh_places_without_room(g: Graph) -> Any:
    return {m.symbol for m in g.of("MeshPlace") if not g.rooms_of(m.symbol)}


@gold("fid80")
def _horizontal_distance_r1_r5(g: Graph) -> Any:
    return dist(g.nodes["R1"].center[:2], g.nodes["R5"].center[:2])


@gold("fid81")
def _second_nearest_room_to_r1(g: Graph) -> Any:
    here = g.nodes["R1"].center
    others = {r.symbol: dist(r.center, here) for r in g.of("Room") if r.symbol != "R1"}
    return _ranked(others, descending=False)[1]


@gold("fid82")
def _rooms_above_o95(g: Graph) -> Any:
    return g.rooms_of("O95")


@gold("fid83")
def _closest_seat_to_trash(g: Graph) -> Any:
    return min(dist(s.center, t.center)
               for s in g.of("Object", "seating") for t in g.of("Object", "trash"))


@gold("fid84")
def _count_rooms(g: Graph) -> Any:
    return len(g.of("Room"))


@gold("fid85")
def _start_nodes_of_r1_adjacency(g: Graph) -> Any:
    # Heracles stores R1 -> n and n -> R1 for every neighbour n: both ends start one of them.
    return {"R1", *g.neighbours["R1"]}


@gold("fid86")
def _walks_out_and_back_from_r2(g: Graph) -> Any:
    # Neo4j's relationship isomorphism: out over one stored relationship, back over the other
    # one of the same pair (never the same one twice): two walks per neighbour.
    return 2 * len(g.neighbours["R2"])


@gold("fid87")
def _pairs_of_room_relationships(g: Graph) -> Any:
    # Comma-separated patterns of one MATCH never bind the same relationship either.
    stored = g.stored_edges("ROOM_CONNECTED")
    return stored * (stored - 1)


# ----------------------------------------------------------------------------- Neo4j 5 idioms
#
# The questions below use the Cypher idioms models write for Heracles' schema that map least
# directly onto Kuzu and Ladybug. Their answers follow Neo4j 5's definitions, spelled out in the
# helpers: how `string + float` prints the float, how round() breaks ties, what stDev and the
# percentile aggregates compute, which properties Heracles sets on a node.

# Properties Heracles' loader sets, per label (docs/graph_layout.md): `class` only on Object,
# MeshPlace and Room, `name` and the box only on Object. keys()/properties() see these, not our
# stores' extra empty `class`/`name` columns, so the gold answers use them.
_HERACLES_PROPERTIES = {
    "Object": ("nodeSymbol", "class", "name", "center", "bbox_center", "bbox_dim"),
    "MeshPlace": ("nodeSymbol", "class", "center"),
    "Room": ("nodeSymbol", "class", "center"),
    "Place": ("nodeSymbol", "center"),
    "Building": ("nodeSymbol", "center"),
}


def _properties(node: Node) -> dict[str, Any]:
    """`properties(n)` on Heracles' graph: points as points."""
    values: dict[str, Any] = {"nodeSymbol": node.symbol, "class": node.cls, "name": node.name,
                              "center": point(node.center)}
    if node.bbox_center is not None and node.bbox_dim is not None:
        values.update(bbox_center=point(node.bbox_center), bbox_dim=point(node.bbox_dim))
    return {key: values[key] for key in _HERACLES_PROPERTIES[node.label] if key in values}


def _half_up(value: float, digits: int) -> float:
    """Neo4j's `round(x, digits)`: HALF_UP on the decimal text of the double. Python's round()
    breaks ties differently, so a value that sits on a tie is refused rather than guessed."""
    scaled = abs(value) * 10**digits
    if abs(scaled - math.floor(scaled) - 0.5) < 1e-6:
        raise ValueError(f"{value} rounds on a tie at {digits} digits: not a fair question")
    return round(value, digits)


def _java_text(value: float) -> str:
    """How Neo4j prints a float in `string + float`: Java's Double.toString. Between 1e-3 and
    1e7 that is plain decimal notation with at least one fraction digit, the shortest text that
    reads back as the same double, which is what Python's repr prints for these values too
    (outside that range Java switches to `1.0E7` notation: refused)."""
    if not 1e-3 <= abs(value) < 1e7:
        raise ValueError(f"{value}: Java prints it in scientific notation")
    return repr(float(value))


def _percentile_cont(values: Iterable[float], percentile: float) -> float:
    """Neo4j's percentileCont: linear interpolation between the two nearest ranks."""
    ordered = sorted(values)
    index = percentile * (len(ordered) - 1)
    low, high = math.floor(index), math.ceil(index)
    return ordered[low] + (ordered[high] - ordered[low]) * (index - low)


def _percentile_disc(values: Iterable[Any], percentile: float) -> Any:
    """Neo4j's percentileDisc: the value at rank ceil(percentile * n), no interpolation."""
    ordered = sorted(values)
    if percentile == 1.0 or len(ordered) == 1:
        return ordered[-1]
    index = percentile * len(ordered)
    whole = int(index)
    return ordered[whole if index != whole or whole == 0 else whole - 1]


def _top(scores: dict[str, float], count: int, *, descending: bool = True) -> list[str]:
    """The first `count` keys by score, refusing ties anywhere up to the cut (the query breaks
    them by nothing, so Neo4j's order there would be arbitrary)."""
    ranked = sorted(scores, key=lambda key: scores[key], reverse=descending)
    head = [scores[key] for key in ranked[:count + 1]]
    if len(set(head)) != len(head):
        raise ValueError(f"a tie among the first {count + 1}: {head}")
    return ranked[:count]


def _routes(start: str, goal: str, step: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """Every shortest node sequence from start to goal, moving with `step` (which may leave
    nodes out: a shortestPath whose WHERE must hold on every node or relationship)."""
    depth = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in step(here):
            if there not in depth:
                depth[there] = depth[here] + 1
                queue.append(there)
    if goal not in depth:
        return []

    def back(node: str) -> list[list[str]]:
        if node == start:
            return [[start]]
        return [[*path, node] for prev in sorted(depth)
                if depth[prev] == depth[node] - 1 and node in step(prev) for path in back(prev)]

    return back(goal)


def _only(routes: list[list[str]]) -> list[str]:
    """The one shortest route; several would make a shortestPath answer arbitrary."""
    (route,) = routes
    return route


def _number(symbol: str, letter: str) -> int:
    """toInteger(split(symbol, letter)[1]): Neo4j's split keeps the empty piece before the
    letter, as Python's str.split does."""
    return int(symbol.split(letter)[1])


def _mesh_children(g: Graph, parent: str) -> list[str]:
    return sorted(c for c in g.children.get(parent, ()) if g.nodes[c].label == "MeshPlace")


def _contained_in_room(g: Graph, room: str, cls: str) -> list[str]:
    """Objects of a class reached by Room-[:CONTAINS]->(:MeshPlace)-[:CONTAINS]->(o), once per
    path (an object in two of the room's mesh places appears twice, as a MATCH gives it)."""
    return [o for m in _mesh_children(g, room) for o in sorted(g.children.get(m, ()))
            if g.nodes[o].cls == cls]


def _mesh_place_counts(g: Graph) -> dict[str, int]:
    return {r.symbol: len(_mesh_children(g, r.symbol)) for r in g.of("Room")
            if _mesh_children(g, r.symbol)}


@gold("fid88")
def _five_commonest_classes(g: Graph) -> Any:
    counts = dict(Counter(o.cls for o in g.of("Object")))
    return [[cls, counts[cls]] for cls in _top(counts, 5)]


@gold("fid89")
def _three_fullest_rooms(g: Graph) -> Any:
    counts = {r: len(objects) for r, objects in _room_objects(g).items() if objects}
    return [[r, counts[r]] for r in _ranked(counts, descending=True)[:3]]


@gold("fid90")
def _class_with_highest_mean_height(g: Graph) -> Any:
    heights: dict[str, list[float]] = {}
    for o in g.of("Object"):
        heights.setdefault(o.cls, []).append(o.center[2])
    means = {cls: sum(zs) / len(zs) for cls, zs in heights.items()}
    (best,) = _top(means, 1)
    return [best, means[best]]


@gold("fid91")
def _mesh_place_count_labels(g: Graph) -> Any:
    # `string + integer` prints the integer as Neo4j's toString does: no fraction.
    return {f"{room}:{n}" for room, n in _mesh_place_counts(g).items()}


@gold("fid92")
def _box_closest_to_bicycle_text(g: Graph) -> Any:
    bike = _the(g, "Object", "bicycle")
    meters = {b.symbol: dist(b.center, bike.center) for b in g.of("Object", "box")}
    (box,) = _top(meters, 1, descending=False)
    return f"{box} at {_java_text(_half_up(meters[box], 1))} m"


@gold("fid93")
def _trash_distance_labels(g: Graph) -> Any:
    return {f"{t.symbol}: {_java_text(_half_up(dist(t.center, g.nodes[r].center), 2))}"
            for t in g.of("Object", "trash") for r in g.rooms_of(t.symbol)}


@gold("fid94")
def _largest_object_number(g: Graph) -> Any:
    return max(_number(o.symbol, "O") for o in g.of("Object"))


@gold("fid95")
def _sign_with_smallest_number(g: Graph) -> Any:
    numbers = {o.symbol: _number(o.symbol, "O") for o in g.of("Object", "sign")}
    (first,) = _top(numbers, 1, descending=False)
    return first


@gold("fid96")
def _class_of_object_number_237(g: Graph) -> Any:
    (cls,) = [o.cls for o in g.of("Object") if o.symbol.split("O")[1] == "237"]
    return cls


@gold("fid97")
def _digit_five_in_object_symbols(g: Graph) -> Any:
    # size(split(s, '5')) - 1 counts the 5s only because split keeps the empty pieces
    # ('O55' -> ['O', '', '']).
    return sum(len(o.symbol.split("5")) - 1 for o in g.of("Object"))


@gold("fid98")
def _bicycle_symbol_split_at_o(g: Graph) -> Any:
    return _the(g, "Object", "bicycle").symbol.split("O")


@gold("fid99")
def _sign_heights_pairs(g: Graph) -> Any:
    return as_set(SLDPList((o.symbol, _half_up(o.center[2], 2))) for o in g.of("Object", "sign"))


@gold("fid100")
def _rooms_with_mesh_place_counts_ordered(g: Graph) -> Any:
    counts = _mesh_place_counts(g)
    return [[r, counts[r]] for r in _ranked(counts, descending=True)]


@gold("fid101")
def _sample_stdev_of_sign_heights(g: Graph) -> Any:
    # stDev is the sample deviation (n - 1); far enough from stDevP here to tell them apart.
    heights = [o.center[2] for o in g.of("Object", "sign")]
    sample, population = statistics.stdev(heights), statistics.pstdev(heights)
    _clear(sample, population, 0.05)
    return sample


@gold("fid102")
def _population_stdev_of_room_x(g: Graph) -> Any:
    xs = [r.center[0] for r in g.of("Room")]
    population, sample = statistics.pstdev(xs), statistics.stdev(xs)
    _clear(population, sample, 0.05)
    return population


@gold("fid103")
def _median_seating_x(g: Graph) -> Any:
    xs = [o.center[0] for o in g.of("Object", "seating")]
    assert len(xs) % 2 == 0, "an even count makes percentileCont interpolate"
    return _percentile_cont(xs, 0.5)


@gold("fid104")
def _median_mesh_place_degree(g: Graph) -> Any:
    return _percentile_disc((_degree(g, m.symbol) for m in g.of("MeshPlace")), 0.5)


@gold("fid105")
def _storage_box_height_75th_percentile(g: Graph) -> Any:
    heights = []
    for o in g.of("Object", "storage"):
        assert o.bbox_dim is not None
        heights.append(o.bbox_dim[2])
    return _percentile_disc(heights, 0.75)


@gold("fid106")
def _room_symbols_spelled_out(g: Graph) -> Any:
    return {r.symbol.replace("R", "Room ") for r in g.of("Room")}


@gold("fid107")
def _highest_mesh_place_number_in_r3(g: Graph) -> Any:
    return max(int(m.replace("P", "")) for m in _mesh_children(g, "R3"))


@gold("fid108")
def _property_names_of_bicycle(g: Graph) -> Any:
    return set(_properties(_the(g, "Object", "bicycle")))


@gold("fid109")
def _nodes_with_bounding_box(g: Graph) -> Any:
    return sum("bbox_dim" in _properties(n) for n in g.nodes.values())


@gold("fid110")
def _class_of_object_nearest_lounge_center(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge")
    meters = {o.symbol: dist(o.center, lounge.center) for o in g.of("Object")}
    (nearest,) = _top(meters, 1, descending=False)
    return _properties(g.nodes[nearest])["class"]


@gold("fid111")
def _light_positions_via_properties(g: Graph) -> Any:
    return {o.symbol: _properties(o)["center"] for o in g.of("Object", "light")}


@gold("fid112")
def _bicycle_properties(g: Graph) -> Any:
    return _properties(_the(g, "Object", "bicycle"))


def _close_pairs(g: Graph, cls: str, meters: float) -> list[tuple[str, str]]:
    """Unordered pairs of a class closer than `meters` (elementId(a) < elementId(b) keeps one
    order of each pair, whichever it is)."""
    objects = g.of("Object", cls)
    return [(a.symbol, b.symbol) for i, a in enumerate(objects) for b in objects[i + 1:]
            if _clear(dist(a.center, b.center), meters) < meters]


@gold("fid113")
def _close_seating_pairs(g: Graph) -> Any:
    return len(_close_pairs(g, "seating", 0.7))


@gold("fid114")
def _storage_with_close_storage(g: Graph) -> Any:
    return {s for pair in _close_pairs(g, "storage", 1.0) for s in pair}


@gold("fid115")
def _easternmost_object_in_r2(g: Graph) -> Any:
    xs = {o: g.nodes[o].center[0] for o in g.objects_in_room("R2")}
    (east,) = _top(xs, 1)
    return east


@gold("fid116")
def _two_highest_signs(g: Graph) -> Any:
    heights = {o.symbol: o.center[2] for o in g.of("Object", "sign")}
    return _top(heights, 2)[::-1]


@gold("fid117")
def _rooms_left_behind_r1_to_r3(g: Graph) -> Any:
    return _only(g.shortest_paths("R1", "R3"))[:-1]


@gold("fid118")
def _intermediate_mesh_places_bicycle_to_bag(g: Graph) -> Any:
    return g.hops(_holder(g, "bicycle"))[_holder(g, "bag")] - 1


@gold("fid119")
def _surface_mesh_places_per_room(g: Graph) -> Any:
    return {r.symbol: sum(g.nodes[m].cls == "surface" for m in _mesh_children(g, r.symbol))
            for r in g.of("Room")}


@gold("fid120")
def _neighbours_of_r2_by_comprehension(g: Graph) -> Any:
    return set(g.neighbours["R2"])


@gold("fid121")
def _lounge_seating_containments(g: Graph) -> Any:
    # A pattern comprehension has one element per path, like a MATCH: no DISTINCT.
    return len(_contained_in_room(g, _the(g, "Room", "lounge").symbol, "seating"))


@gold("fid122")
def _rooms_by_mesh_places_alias_order(g: Graph) -> Any:
    # ORDER BY n DESC, r DESC: `r` is the returned alias (the symbol), not the room node.
    counts = _mesh_place_counts(g)
    return [[r, counts[r]] for r in sorted(counts, key=lambda r: (counts[r], r), reverse=True)]


@gold("fid123")
def _decor_symbols_descending(g: Graph) -> Any:
    return sorted((o.symbol for o in g.of("Object", "decor")), reverse=True)


@gold("fid124")
def _object_nearest_each_room_center(g: Graph) -> Any:
    answer = {}
    for room, objects in _room_objects(g).items():
        if objects:
            center = g.nodes[room].center
            (answer[room],) = _top({o: dist(g.nodes[o].center, center) for o in objects}, 1,
                                   descending=False)
    return answer


@gold("fid125")
def _center_of_first_room_after_r1(g: Graph) -> Any:
    return point(g.nodes[_only(g.shortest_paths("R1", "R3"))[1]].center)


@gold("fid126")
def _hallway_farthest_from_lounge(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge")
    (farthest,) = _top({h.symbol: dist(h.center, lounge.center)
                        for h in g.of("Room", "hallway")}, 1)
    return farthest


@gold("fid127")
def _nearest_trash_distance_per_room(g: Graph) -> Any:
    # Rooms without a trash can: the OPTIONAL MATCH leaves t NULL, min() of nothing is NULL.
    return {r.symbol: min((dist(r.center, g.nodes[t].center)
                           for t in _contained_in_room(g, r.symbol, "trash")), default=-1)
            for r in g.of("Room")}


@gold("fid128")
def _light_x_per_room(g: Graph) -> Any:
    answer = {}
    for r in g.of("Room"):
        xs = [g.nodes[t].center[0] for t in _contained_in_room(g, r.symbol, "light")]
        assert len(xs) <= 1, "collect() order would be undefined"
        answer[r.symbol] = xs
    return answer


@gold("fid129")
def _highest_sign_per_room(g: Graph) -> Any:
    return {r.symbol: max((g.nodes[s].center[2] for s in _contained_in_room(g, r.symbol, "sign")),
                          default=-1)
            for r in g.of("Room")}


@gold("fid130")
def _mesh_hops_bicycle_to_bag_avoiding_p6397(g: Graph) -> Any:
    # Neo4j returns the shortest path that satisfies the WHERE, not the shortest path filtered.
    start, goal = _holder(g, "bicycle"), _holder(g, "bag")
    avoided = "P6397"
    assert all(avoided in route for route in g.shortest_paths(start, goal))
    routes = _routes(start, goal, lambda m: sorted(g.neighbours.get(m, set()) - {avoided}))
    return len(routes[0]) - 1


@gold("fid131")
def _r4_to_r5_over_containment_only(g: Graph) -> Any:
    def contains_either_way(node: str) -> list[str]:
        return sorted(g.children.get(node, set()) | g.parents.get(node, set()))

    assert "R5" in g.neighbours["R4"], "unfiltered, the shortest route is the direct edge"
    return _only(_routes("R4", "R5", contains_either_way))


@gold("fid132")
def _route_r3_to_r4_avoiding_r2(g: Graph) -> Any:
    assert any("R2" in route for route in g.shortest_paths("R3", "R4"))
    return _only(_routes("R3", "R4", lambda r: sorted(g.neighbours[r] - {"R2"})))


@gold("fid133")
def _rooms_with_objects_near_center_height(g: Graph) -> Any:
    return {r for r, objects in _room_objects(g).items() if len(objects) >= 2
            and all(_clear(abs(g.nodes[o].center[2] - g.nodes[r].center[2]), 1.5) < 1.5
                    for o in objects)}


@gold("fid134")
def _classes_kept_near_floor_level(g: Graph) -> Any:
    heights: dict[str, list[float]] = {}
    for o in g.of("Object"):
        heights.setdefault(o.cls, []).append(o.center[2])
    return {cls for cls, zs in heights.items()
            if len(zs) > 1 and all(_clear(abs(z), 0.5) < 0.5 for z in zs)}


@gold("fid135")
def _room_of_box_closest_to_bicycle(g: Graph) -> Any:
    bike = _the(g, "Object", "bicycle")
    (box,) = _top({b.symbol: dist(b.center, bike.center) for b in g.of("Object", "box")}, 1,
                  descending=False)
    (room,) = g.rooms_of(box)
    return room


@gold("fid136")
def _objects_sharing_mesh_place_with_bag(g: Graph) -> Any:
    # Relationship uniqueness: the path cannot come back to the bag over the same CONTAINS.
    bag = _the(g, "Object", "bag").symbol
    return {o for m in g.parents[bag] for o in g.children[m]} - {bag}


@gold("fid137")
def _nearest_trash_to_lounge_center(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge")
    return _half_up(min(dist(lounge.center, t.center) for t in g.of("Object", "trash")), 2)


@gold("fid138")
def _room_entered_r3_from(g: Graph) -> Any:
    return _only(g.shortest_paths("R1", "R3"))[-2]


@gold("fid139")
def _where_trash_and_bag_go(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge").symbol
    bag = _the(g, "Object", "bag").symbol
    (room,) = g.rooms_of(bag)
    return {(lounge, t.symbol) for t in g.of("Object", "trash")} | {(room, bag)}


@gold("fid140")
def _objects_between_heights(g: Graph) -> Any:
    return {o.symbol for o in g.of("Object") if 0.5 < o.center[2] < 1.5}


@gold("fid141")
def _objects_not_between_heights(g: Graph) -> Any:
    return sum(1 for o in g.of("Object") if not 0.2 <= o.center[2] < 1.0)


@gold("fid142")
def _mesh_places_per_room_by_call(g: Graph) -> Any:
    return _mesh_place_counts(g)


@gold("fid143")
def _signs_or_high_objects(g: Graph) -> Any:
    return len({o.symbol for o in g.of("Object") if o.cls == "sign" or o.center[2] > 2.0})


@gold("fid144")
def _highest_mesh_place_per_room(g: Graph) -> Any:
    answer = {}
    for r in g.of("Room"):
        heights = sorted(((g.nodes[m].center[2], m) for m in _mesh_children(g, r.symbol)),
                         reverse=True)
        if heights:
            assert len(heights) == 1 or heights[0][0] != heights[1][0], "a tie at the cut"
            answer[r.symbol] = heights[0][1]
    return answer


@gold("fid145")
def _mesh_height_spread_per_room(g: Graph) -> Any:
    answer = {}
    for r in g.of("Room"):
        zs = [g.nodes[m].center[2] for m in _mesh_children(g, r.symbol)]
        if zs:
            spread = sum(abs(z - r.center[2]) for z in zs)
            answer[r.symbol] = _java_round(spread, 2)
    return answer


@gold("fid146")
def _objects_near_another_per_room(g: Graph) -> Any:
    answer = {}
    for room, objects in _room_objects(g).items():
        if objects:
            answer[room] = sum(1 for a in objects if any(
                b != a and _clear(math.dist(g.nodes[a].center, g.nodes[b].center), 1.0) < 1.0
                for b in objects))
    return answer


@gold("fid147")
def _classes_not_starting_sign_or_seating(g: Graph) -> Any:
    return {o.cls for o in g.of("Object")
            if not (o.cls.startswith("sign") or o.cls.startswith("seating"))}


@gold("fid148")
def _nearest_mesh_place_per_sign(g: Graph) -> Any:
    answer = {}
    for sign in g.of("Object", "sign"):
        ranked = sorted((math.dist(m.center, sign.center), m.symbol) for m in g.of("MeshPlace"))
        assert ranked[0][0] != ranked[1][0], "a tie at the cut"
        answer[sign.symbol] = ranked[0][1]
    return answer


@gold("fid149")
def _distinct_classes_in_symbol_order(g: Graph) -> Any:
    answer = {}
    for room, objects in _room_objects(g).items():
        if objects:
            classes: list[str] = []
            for o in sorted(objects):
                if g.nodes[o].cls not in classes:
                    classes.append(g.nodes[o].cls)
            answer[room] = classes
    return answer


def _paths_to(g: Graph, room: str, cls: str) -> int:
    return len(_contained_in_room(g, room, cls))


@gold("fid150")
def _bed_paths_per_room(g: Graph) -> Any:
    return {r.symbol: _paths_to(g, r.symbol, "bed") for r in g.of("Room")}


@gold("fid151")
def _structure_places_per_room(g: Graph) -> Any:
    return {r.symbol: sum(1 for m in _mesh_children(g, r.symbol)
                          if g.nodes[m].cls == "structure") for r in g.of("Room")}


@gold("fid152")
def _links_to_lounges_per_room(g: Graph) -> Any:
    return {r.symbol: sum(1 for n in g.neighbours.get(r.symbol, ())
                          if g.nodes[n].label == "Room" and g.nodes[n].cls == "lounge")
            for r in g.of("Room")}


@gold("fid153")
def _first_sign_per_room(g: Graph) -> Any:
    return {r.symbol: min(_contained_in_room(g, r.symbol, "sign"), default="none")
            for r in g.of("Room")}


@gold("fid154")
def _room_labels_joined(g: Graph) -> Any:
    return SLDPSet([f"{r.symbol}:{r.cls}" for r in g.of("Room")])


def _objects_under(g: Graph, place: str) -> int:
    return sum(1 for o in g.children.get(place, ()) if g.nodes[o].label == "Object")


@gold("fid155")
def _three_commonest_classes(g: Graph) -> Any:
    counts = Counter(o.cls for o in g.of("Object"))
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    return {cls: n for cls, n in ranked}


@gold("fid156")
def _bicycle_map_projection(g: Graph) -> Any:
    return _properties(_the(g, "Object", "bicycle"))


@gold("fid157")
def _fullest_mesh_places(g: Graph) -> Any:
    ranked = sorted(g.of("MeshPlace"), key=lambda m: (-_objects_under(g, m.symbol), m.symbol))
    return SLDPList([m.symbol for m in ranked[:3]])


@gold("fid158")
def _first_and_last_mesh_place_per_hallway(g: Graph) -> Any:
    ends = {r.symbol: _mesh_children(g, r.symbol) for r in g.of("Room", "hallway")}
    return {room: SLDPList([places[0], places[-1]]) for room, places in ends.items() if places}


@gold("fid159")
def _rooms_ranked_by_symbol(g: Graph) -> Any:
    return {i + 1: r.symbol for i, r in enumerate(g.of("Room"))}


def _classes_from_the_top(g: Graph) -> list[str]:
    """Object classes in the order of each class's highest object, highest first (ties of
    height broken by symbol, as no question here depends on them)."""
    ordered = sorted(g.of("Object"), key=lambda o: (-o.center[2], o.symbol))
    return list(dict.fromkeys(o.cls for o in ordered))


@gold("fid160")
def _first_four_classes_from_the_top(g: Graph) -> Any:
    return SLDPList(_classes_from_the_top(g)[:4])


@gold("fid161")
def _five_classes_highest_up(g: Graph) -> Any:
    return SLDPSet(_classes_from_the_top(g)[:5])


@gold("fid162")
def _all_objects_counted(g: Graph) -> Any:
    return "all" if len(g.of("Object")) in (65, 66) else "some"


@gold("fid163")
def _rooms_near_the_lounge(g: Graph) -> Any:
    lounge = _the(g, "Room", "lounge")
    return SLDPSet([r.symbol for r in g.of("Room")
                    if r.symbol != lounge.symbol and dist(r.center, lounge.center) < 15.0])


def _room_mesh_object_paths(g: Graph) -> list[tuple[Node, Node, Node]]:
    return [(r, g.nodes[m], g.nodes[o]) for r in g.of("Room")
            for m in sorted(g.children.get(r.symbol, ())) if g.nodes[m].label == "MeshPlace"
            for o in sorted(g.children.get(m, ())) if g.nodes[o].label == "Object"]


@gold("fid164")
def _paths_with_no_tall_node(g: Graph) -> Any:
    """none() is NULL on a path with a node whose test is NULL (rooms and mesh places have no
    box) unless another node's test is true: then it is false. Either way the WHERE drops it."""
    def holds(path: tuple[Node, Node, Node]) -> bool:
        tests = [None if n.bbox_dim is None else n.bbox_dim[2] > 1.0 for n in path]
        return not any(t is True for t in tests) and all(t is not None for t in tests)
    return sum(holds(path) for path in _room_mesh_object_paths(g))


@gold("fid165")
def _rooms_with_a_tall_object_or_not(g: Graph) -> Any:
    """any() over the objects' heights with a boxless object: true with a tall one, else NULL
    (then coalesce's 'unknown'), false when every object has a box and none is tall."""
    out = {}
    for r in g.of("Room"):
        tests = [None if g.nodes[o].bbox_dim is None else g.nodes[o].bbox_dim[2] > 1.0
                 for o in g.objects_in_room(r.symbol)]
        out[r.symbol] = "yes" if any(t is True for t in tests) else (
            "unknown" if any(t is None for t in tests) else "no")
    return out


@gold("fid166")
def _seating_share_under_half(g: Graph) -> Any:
    """Mesh places holding objects whose seating share is under a half (an empty one's share is
    0.0 / 0.0, NaN, and NaN < 0.5 is false; over the integer count it would raise)."""
    count = 0
    for m in g.of("MeshPlace"):
        objects = [g.nodes[o] for o in g.children.get(m.symbol, ()) if g.nodes[o].label == "Object"]
        if objects and sum(o.cls == "seating" for o in objects) / len(objects) < 0.5:
            count += 1
    return count


@gold("fid167")
def _bicycle_or_room_position(g: Graph) -> Any:
    out = {}
    for r in g.of("Room"):
        bikes = sorted(o for o in g.objects_in_room(r.symbol) if g.nodes[o].cls == "bicycle")
        where = g.nodes[bikes[0]].center if bikes else r.center
        out[r.symbol] = point(where[:2])
    return out


@gold("fid168")
def _last_step_starts(g: Graph) -> Any:
    """Directed walks over stored ROOM_CONNECTED relationships (each edge both ways) from R1 in
    2 or 3 steps, never one relationship twice, ending elsewhere: where the last step starts."""
    starts = set()

    def walk(path: list[str], used: set[tuple[str, str]]) -> None:
        if 2 <= len(path) - 1 <= 3 and path[-1] != "R1":
            starts.add(path[-2])
        if len(path) - 1 == 3:
            return
        for nxt in sorted(g.neighbours.get(path[-1], ())):
            if g.nodes[nxt].label == "Room" and (path[-1], nxt) not in used:
                walk([*path, nxt], used | {(path[-1], nxt)})
    walk(["R1"], set())
    return starts


@gold("fid169")
def _classes_of_mesh_places_holding_objects(g: Graph) -> Any:
    out = {}
    for r in g.of("Room"):
        places = [g.nodes[m] for m in g.children.get(r.symbol, ())
                  if g.nodes[m].label == "MeshPlace"
                  and any(g.nodes[o].label == "Object" for o in g.children.get(m, ()))]
        out[r.symbol] = SLDPList(sorted({m.cls for m in places}, reverse=True))
    return out


def _java_round(value: float, places: int) -> float:
    """Neo4j's round(x, places): the decimal digits Java prints, rounded half up."""
    import decimal
    digits = decimal.Decimal(repr(value))
    return float(digits.quantize(decimal.Decimal(1).scaleb(-places),
                                 rounding=decimal.ROUND_HALF_UP))


def answers(graph: Graph | None = None) -> dict[str, str]:
    """uid -> canonical SLDP text of every gold answer."""
    graph = graph or load_graph()
    return {uid: sldp_text(function(graph)) for uid, function in GOLD.items()}


_SOLUTION = re.compile(r"^(\s*)solution:.*$")
_UID = re.compile(r"^\s*-\s*uid:\s*['\"]?([^'\"\s]+)")


def rewrite_solutions(text: str, solutions: dict[str, str]) -> str:
    """The YAML text with each question's `solution:` line set to its gold answer."""
    out, uid = [], None
    for line in text.splitlines():
        if match := _UID.match(line):
            uid = match.group(1)
        elif (match := _SOLUTION.match(line)) and uid in solutions:
            quoted = "'" + solutions[uid].replace("'", "''") + "'"
            line = f"{match.group(1)}solution: {quoted}"
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    """Rewrite the committed YAML's solutions from the gold functions."""
    text = QUESTIONS.read_text()
    QUESTIONS.write_text(rewrite_solutions(text, answers()))
    print(f"wrote {len(GOLD)} solutions into {QUESTIONS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
