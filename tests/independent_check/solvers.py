"""One solver per phrasing: the question's words, computed over the JSON graph.

Each solver's pattern is the question as an outsider reads it; the computation follows the
definitions the question states (`relations`). Where the words leave the answer open on this
graph (a tie, a false premise, a notion the file has no meaning for), the solver raises
`Ambiguous` with the reason instead of choosing.
"""

from __future__ import annotations

from collections import Counter

from tests.independent_check.answers import (
    Ambiguous,
    Point,
    atom,
    conjunction,
    disjunction,
    sldp,
)
from tests.independent_check.graph import SceneGraph
from tests.independent_check.phrasings import (
    A_POINT,
    ADJACENT,
    CLASS,
    EUCLIDEAN,
    ID,
    IN_BUILDING,
    IN_ROOM,
    LIST_OF_IDS,
    MESH_CONNECTED,
    MESH_HOPS,
    NUMBER,
    ONE_ID,
    PDDL_NAMES,
    PLACE_CONNECTED,
    ROOM_HOPS,
    SET_OF_IDS,
    register,
)
from tests.independent_check.relations import (
    adjacent,
    distance,
    hop_count,
    objects_in_room,
    objects_of_class,
    ranked,
    rooms_of,
    shortest_routes,
    within_hops,
)

# --- counting ---------------------------------------------------------------------------------


@register(rf"How many objects of class {CLASS} are in the scene graph\?")
def count_of_class(graph: SceneGraph, label: str) -> str:
    return sldp(len(objects_of_class(graph, label)))


@register(rf"How many different objects are in room {ID}\?", needs=(IN_ROOM,))
def count_in_room(graph: SceneGraph, room: str) -> str:
    return sldp(len(objects_in_room(graph, room)))


@register(rf"How many different objects of class {CLASS} are in the rooms adjacent to room {ID}\?",
          needs=(IN_ROOM, ADJACENT))
def count_of_class_next_door(graph: SceneGraph, label: str, room: str) -> str:
    found = set().union(*(objects_in_room(graph, r) for r in adjacent(graph, room)))
    return sldp(len(found & objects_of_class(graph, label)))


@register(rf"How many objects of class {CLASS} are in room {ID}\?", needs=(IN_ROOM,))
def count_of_class_in_room(graph: SceneGraph, label: str, room: str) -> str:
    return sldp(len(objects_in_room(graph, room) & objects_of_class(graph, label)))


@register(r"How many distinct object classes occur in the scene graph\?")
def count_classes(graph: SceneGraph) -> str:
    return sldp(len({n.label for n in graph.of_kind("object")}))


@register(rf"How many distinct object classes occur among the objects in room {ID}\?",
          needs=(IN_ROOM,))
def count_classes_in_room(graph: SceneGraph, room: str) -> str:
    return sldp(len({graph.nodes[o].label for o in objects_in_room(graph, room)}))


@register(r"How many objects are in no room at all\?", needs=(IN_ROOM,))
def count_roomless(graph: SceneGraph) -> str:
    return sldp(sum(1 for n in graph.of_kind("object") if not rooms_of(graph, n.symbol)))


@register(rf"How many places and mesh places does room {ID} CONTAIN\?")
def count_places(graph: SceneGraph, room: str) -> str:
    graph.node(room, "room")
    kinds = ("place", "mesh place")
    return sldp(sum(1 for c in graph.children.get(room, ()) if graph.nodes[c].kind in kinds))


# --- hierarchy --------------------------------------------------------------------------------


@register(rf"Which objects of class {CLASS} are in room {ID}\? {SET_OF_IDS}", needs=(IN_ROOM,))
def of_class_in_room(graph: SceneGraph, label: str, room: str) -> str:
    return sldp(frozenset(objects_in_room(graph, room) & objects_of_class(graph, label)))


@register(rf"Which rooms hold no object at all\? {SET_OF_IDS}", needs=(IN_ROOM,))
def empty_rooms(graph: SceneGraph) -> str:
    return sldp(frozenset(r.symbol for r in graph.of_kind("room")
                          if not objects_in_room(graph, r.symbol)))


@register(rf"Which other objects are in a room that object {ID} is in\? {SET_OF_IDS}",
          needs=(IN_ROOM,))
def sharing_a_room(graph: SceneGraph, obj: str) -> str:
    found = set().union(*(objects_in_room(graph, r) for r in rooms_of(graph, obj)))
    return sldp(frozenset(found - {obj}))


@register(rf"Which places or mesh places CONTAIN object {ID}\? {SET_OF_IDS}")
def places_of(graph: SceneGraph, obj: str) -> str:
    graph.node(obj, "object")
    return sldp(frozenset(p for p in graph.parents.get(obj, ())
                          if graph.nodes[p].kind in ("place", "mesh place")))


@register(rf"Which rooms is object {ID} in\? {SET_OF_IDS}", needs=(IN_ROOM,))
def rooms_of_object(graph: SceneGraph, obj: str) -> str:
    return sldp(frozenset(rooms_of(graph, obj)))


@register(rf"Which object classes occur in room {ID}\? Answer with a set of class names\.",
          needs=(IN_ROOM,))
def classes_in_room(graph: SceneGraph, room: str) -> str:
    return sldp(frozenset(graph.nodes[o].label for o in objects_in_room(graph, room)))


# --- adjacency --------------------------------------------------------------------------------


@register(rf"Which rooms are adjacent to room {ID}\? {SET_OF_IDS}", needs=(ADJACENT,))
def adjacent_rooms(graph: SceneGraph, room: str) -> str:
    return sldp(frozenset(adjacent(graph, room)))


@register(rf"How many rooms are adjacent to room {ID}\?", needs=(ADJACENT,))
def room_degree(graph: SceneGraph, room: str) -> str:
    return sldp(len(adjacent(graph, room)))


@register(rf"How many mesh places are connected to mesh place {ID}\?", needs=(MESH_CONNECTED,))
def mesh_place_degree(graph: SceneGraph, place: str) -> str:
    graph.node(place, "mesh place")
    return sldp(len(graph.neighbours["MESH_PLACE_CONNECTED"].get(place, ())))


def _within(graph: SceneGraph, kind: str, k: str, start: str, relation: str) -> str:
    graph.node(start, kind)
    found = within_hops(graph, relation, start, int(k))
    return sldp(frozenset(n for n in found if graph.nodes[n].kind == kind))


@register(rf"Which mesh places are within ([0-9]+) hops? of mesh place {ID}\? {SET_OF_IDS}",
          needs=(MESH_HOPS,))
def mesh_places_within(graph: SceneGraph, k: str, start: str) -> str:
    return _within(graph, "mesh place", k, start, "MESH_PLACE_CONNECTED")


@register(rf"Which rooms are within ([0-9]+) hops? of room {ID}\? {SET_OF_IDS}",
          needs=(ROOM_HOPS,))
def rooms_within(graph: SceneGraph, k: str, start: str) -> str:
    return _within(graph, "room", k, start, "ROOM_CONNECTED")


# --- position ---------------------------------------------------------------------------------


def _center(graph: SceneGraph, symbol: str) -> tuple[float, float, float]:
    return graph.nodes[symbol].center


@register(rf"How far apart are objects {ID} and {ID}\?", needs=(EUCLIDEAN,))
def apart(graph: SceneGraph, a: str, b: str) -> str:
    return sldp(distance(graph.node(a, "object").center, graph.node(b, "object").center))


def _extreme_z(graph: SceneGraph, candidates: set[str], highest: bool) -> str:
    nodes = [graph.nodes[s] for s in candidates]
    if not nodes:
        raise Ambiguous("there is no such object")
    return ranked(nodes, lambda n: n.center[2], "z", descending=highest, needed=1)[0].symbol


@register(rf"Which object in room {ID} is highest, by the z coordinate of its center\?"
          rf" {ONE_ID}", needs=(IN_ROOM,))
def highest_in_room(graph: SceneGraph, room: str) -> str:
    return _extreme_z(graph, objects_in_room(graph, room), highest=True)


@register(rf"Which object of class {CLASS} is (highest|lowest), by the z coordinate of its"
          rf" center\? {ONE_ID}")
def extreme_of_class(graph: SceneGraph, label: str, which: str) -> str:
    return _extreme_z(graph, objects_of_class(graph, label), highest=which == "highest")


def _nearest(graph: SceneGraph, candidates: set[str], to: tuple[float, ...]) -> str:
    nodes = [graph.nodes[s] for s in candidates]
    if not nodes:
        raise Ambiguous("there is no candidate object")
    return ranked(nodes, lambda n: distance(n.center, to), "distance", needed=1)[0].symbol


def _not_counting(anchor: str, excluded: str) -> None:
    if anchor != excluded:
        raise Ambiguous(f"the question leaves out {excluded}, not the object it measures from")


@register(rf"Which object in room {ID} is nearest to object {ID}, not counting {ID} itself\?"
          rf" {ONE_ID}", needs=(IN_ROOM, EUCLIDEAN))
def nearest_in_room(graph: SceneGraph, room: str, anchor: str, excluded: str) -> str:
    _not_counting(anchor, excluded)
    to = graph.node(anchor, "object").center
    return _nearest(graph, objects_in_room(graph, room) - {anchor}, to)


@register(rf"Which object is nearest to object {ID}, not counting {ID} itself\? {ONE_ID}",
          needs=(EUCLIDEAN,))
def nearest_object(graph: SceneGraph, anchor: str, excluded: str) -> str:
    _not_counting(anchor, excluded)
    to = graph.node(anchor, "object").center
    return _nearest(graph, {n.symbol for n in graph.of_kind("object")} - {anchor}, to)


@register(rf"Which object is nearest to the point \(x, y, z\) = \({NUMBER}, {NUMBER}, {NUMBER}\)\?"
          rf" {ONE_ID}", needs=(EUCLIDEAN,))
def nearest_to_point(graph: SceneGraph, x: str, y: str, z: str) -> str:
    to = (float(x), float(y), float(z))
    return _nearest(graph, {n.symbol for n in graph.of_kind("object")}, to)


@register(rf"Where is the center of (object|room) {ID}\? {A_POINT}")
def center_of(graph: SceneGraph, kind: str, symbol: str) -> str:
    return sldp(Point(*graph.node(symbol, kind).center))


# --- sets and dicts ---------------------------------------------------------------------------


@register(rf"For each room adjacent to room {ID}, how many different objects does it hold\?"
          r" Answer with a dict from room nodeSymbol to count, with 0 for a room without"
          r" objects\.", needs=(IN_ROOM, ADJACENT))
def counts_next_door(graph: SceneGraph, room: str) -> str:
    return sldp({r: len(objects_in_room(graph, r)) for r in adjacent(graph, room)})


@register(r"How many objects are there of each class\? Answer with a dict from class name to"
          r" count\.")
def counts_by_class(graph: SceneGraph) -> str:
    return sldp(dict(Counter(n.label for n in graph.of_kind("object"))))


@register(rf"For room {ID}, how many objects of each class are in it\? Answer with a dict from"
          r" class name to count, leaving out classes without objects there\.", needs=(IN_ROOM,))
def counts_by_class_in_room(graph: SceneGraph, room: str) -> str:
    return sldp(dict(Counter(graph.nodes[o].label for o in objects_in_room(graph, room))))


@register(rf"For each object of class {CLASS}, which room is it in\? Answer with a dict from"
          r" object nodeSymbol to room nodeSymbol, using 'none' for an object in no room\.",
          needs=(IN_ROOM,))
def room_of_each(graph: SceneGraph, label: str) -> str:
    answer: dict[str, str] = {}
    for obj in sorted(objects_of_class(graph, label)):
        rooms = sorted(rooms_of(graph, obj))
        if len(rooms) > 1:
            raise Ambiguous(f"{obj} is in {len(rooms)} rooms ({', '.join(rooms)}); 'which room' "
                            "asks for one")
        answer[obj] = rooms[0] if rooms else "none"
    return sldp(answer)


@register(rf"Where is each object of class {CLASS}\? Answer with a dict from object nodeSymbol to"
          r" its center as a POINT\(x y z\)\.")
def centers_of_class(graph: SceneGraph, label: str) -> str:
    return sldp({o: Point(*_center(graph, o)) for o in objects_of_class(graph, label)})


@register(r"How many different objects does each room hold\? Answer with a dict from room"
          r" nodeSymbol to count, leaving out rooms without objects\.", needs=(IN_ROOM,))
def counts_by_room(graph: SceneGraph) -> str:
    counts = {r.symbol: len(objects_in_room(graph, r.symbol)) for r in graph.of_kind("room")}
    return sldp({room: count for room, count in counts.items() if count})


# --- ordered lists ----------------------------------------------------------------------------


@register(r"List the object classes from most to fewest objects; break ties by class name,"
          r" ascending\. Answer with a list of class names\.")
def classes_by_count(graph: SceneGraph) -> str:
    counts = Counter(n.label for n in graph.of_kind("object"))
    return sldp(sorted(counts, key=lambda label: (-counts[label], label)))


@register(rf"List the ([0-9]+) objects nearest to object {ID} \(not counting it\), nearest first\."
          rf" {LIST_OF_IDS}", needs=(EUCLIDEAN,))
def k_nearest(graph: SceneGraph, k: str, anchor: str) -> str:
    to = graph.node(anchor, "object").center
    others = [n for n in graph.of_kind("object") if n.symbol != anchor]
    order = ranked(others, lambda n: distance(n.center, to), "distance", needed=int(k))
    return sldp([n.symbol for n in order[: int(k)]])


@register(rf"List the objects in room {ID} by increasing distance from the room's center\."
          rf" {LIST_OF_IDS}", needs=(IN_ROOM, EUCLIDEAN))
def room_objects_by_distance(graph: SceneGraph, room: str) -> str:
    to = graph.node(room, "room").center
    nodes = [graph.nodes[o] for o in objects_in_room(graph, room)]
    return sldp([n.symbol for n in ranked(nodes, lambda n: distance(n.center, to), "distance")])


@register(rf"List all rooms from most to fewest adjacent rooms \(a room joined to no other room"
          rf" counts 0\)\. Break ties by nodeSymbol, ascending\. {LIST_OF_IDS}", needs=(ADJACENT,))
def rooms_by_degree(graph: SceneGraph) -> str:
    rooms = sorted(r.symbol for r in graph.of_kind("room"))
    return sldp(sorted(rooms, key=lambda r: (-len(adjacent(graph, r)), r)))


@register(rf"List all rooms by increasing distance of their centers from object {ID}\."
          rf" {LIST_OF_IDS}", needs=(EUCLIDEAN,))
def rooms_by_distance(graph: SceneGraph, anchor: str) -> str:
    to = graph.node(anchor, "object").center
    order = ranked(graph.of_kind("room"), lambda n: distance(n.center, to), "distance")
    return sldp([n.symbol for n in order])


@register(r"List all rooms from (most to fewest|fewest to most) objects\. Count each object once"
          r" per room; a room without objects counts 0\. Break ties by nodeSymbol, ascending\."
          rf" {LIST_OF_IDS}", needs=(IN_ROOM,))
def rooms_by_object_count(graph: SceneGraph, order: str) -> str:
    rooms = sorted(r.symbol for r in graph.of_kind("room"))
    sign = -1 if order == "most to fewest" else 1
    return sldp(sorted(rooms, key=lambda r: (sign * len(objects_in_room(graph, r)), r)))


@register(rf"List all rooms by increasing x coordinate of their centers\. {LIST_OF_IDS}")
def rooms_by_x(graph: SceneGraph) -> str:
    return sldp([n.symbol for n in ranked(graph.of_kind("room"), lambda n: n.center[0], "x")])


@register(rf"List the objects of class {CLASS} from highest to lowest by the z coordinate of their"
          rf" centers\. {LIST_OF_IDS}")
def class_by_height(graph: SceneGraph, label: str) -> str:
    nodes = [graph.nodes[o] for o in objects_of_class(graph, label)]
    return sldp([n.symbol for n in ranked(nodes, lambda n: n.center[2], "z", descending=True)])


# --- paths ------------------------------------------------------------------------------------


@register(rf"How many hops does the shortest path from mesh place {ID} to mesh place {ID} take\?",
          needs=(MESH_HOPS,))
def mesh_place_hops(graph: SceneGraph, a: str, b: str) -> str:
    graph.node(a, "mesh place"), graph.node(b, "mesh place")
    return sldp(hop_count(graph, "MESH_PLACE_CONNECTED", a, b))


@register(rf"Objects {ID} and {ID} are each CONTAINED in one mesh place\. How many hops does the"
          r" shortest path between those two mesh places take\?", needs=(MESH_HOPS,))
def object_hops(graph: SceneGraph, a: str, b: str) -> str:
    ends = []
    for obj in (a, b):
        graph.node(obj, "object")
        places = sorted(p for p in graph.parents.get(obj, ())
                        if graph.nodes[p].kind == "mesh place")
        if len(places) != 1:
            raise Ambiguous(f"{obj} is CONTAINED in {len(places)} mesh places, not one")
        ends.append(places[0])
    return sldp(hop_count(graph, "MESH_PLACE_CONNECTED", *ends))


@register(rf"How many hops does the shortest path from room {ID} to room {ID} take\?",
          needs=(ROOM_HOPS,))
def room_hops(graph: SceneGraph, a: str, b: str) -> str:
    graph.node(a, "room"), graph.node(b, "room")
    return sldp(hop_count(graph, "ROOM_CONNECTED", a, b))


@register(rf"List the rooms along the shortest path from room {ID} to room {ID}, both ends"
          rf" included, in order\. {LIST_OF_IDS}", needs=(ROOM_HOPS,))
def room_route(graph: SceneGraph, a: str, b: str) -> str:
    graph.node(a, "room"), graph.node(b, "room")
    routes = shortest_routes(graph, "ROOM_CONNECTED", a, b)
    if len(routes) != 1:
        shown = "; ".join(" ".join(r) for r in routes) or "none"
        raise Ambiguous(f"{len(routes)} shortest routes ({shown})",
                        answer=sldp(routes[0]) if routes else None)
    return sldp(routes[0])


# --- PDDL goals -------------------------------------------------------------------------------


def _of_class_in(graph: SceneGraph, label: str, rooms: set[str]) -> set[str]:
    found = set().union(*(objects_in_room(graph, r) for r in rooms))
    return found & objects_of_class(graph, label)


@register(rf"Write a PDDL goal that holds when the robot is holding any one of the objects of"
          rf" class {CLASS} in room {ID}\. Use the predicate \(holding \?object\)\."
          rf" {PDDL_NAMES}", kind="PDDL", needs=(IN_ROOM,))
def grab_any(graph: SceneGraph, label: str, room: str) -> str:
    return disjunction(atom("holding", o) for o in _of_class_in(graph, label, {room}))


@register(rf"Write a PDDL goal in which every object of class {CLASS} in the rooms adjacent to"
          rf" room {ID} has been inspected\. Use the predicate \(safe \?object\)\. {PDDL_NAMES}",
          kind="PDDL", needs=(IN_ROOM, ADJACENT))
def inspect_next_door(graph: SceneGraph, label: str, room: str) -> str:
    return conjunction(atom("safe", o) for o in _of_class_in(graph, label, adjacent(graph, room)))


@register(rf"Write a PDDL goal in which every object of class {CLASS} that is now in room {ID} is"
          rf" in room {ID}\. Use the predicate \(object-in-room \?object \?room\)\."
          rf" {PDDL_NAMES}", kind="PDDL", needs=(IN_ROOM,))
def move_all(graph: SceneGraph, label: str, now: str, to: str) -> str:
    graph.node(to, "room")
    return conjunction(atom("object-in-room", o, to) for o in _of_class_in(graph, label, {now}))


@register(rf"Write a PDDL goal in which every object of class {CLASS} in room {ID} has been"
          rf" inspected\. Use the predicate \(safe \?object\)\. {PDDL_NAMES}",
          kind="PDDL", needs=(IN_ROOM,))
def inspect_room(graph: SceneGraph, label: str, room: str) -> str:
    return conjunction(atom("safe", o) for o in _of_class_in(graph, label, {room}))


@register(rf"Write a PDDL goal that holds once the robot has visited any one object of class"
          rf" {CLASS}\. Use the predicate \(visited-object \?object\)\. {PDDL_NAMES}", kind="PDDL")
def visit_any(graph: SceneGraph, label: str) -> str:
    return disjunction(atom("visited-object", o) for o in objects_of_class(graph, label))


@register(rf"Write a PDDL goal in which the robot has visited every room adjacent to room {ID}\."
          rf" Use the predicate \(visited-room \?room\)\. {PDDL_NAMES}", kind="PDDL",
          needs=(ADJACENT,))
def visit_next_door(graph: SceneGraph, room: str) -> str:
    return conjunction(atom("visited-room", r) for r in adjacent(graph, room))


@register(rf"Which objects are in room {ID}\? {SET_OF_IDS}", needs=(IN_ROOM,))
def objects_in(graph: SceneGraph, room: str) -> str:
    return sldp(frozenset(objects_in_room(graph, room)))


@register(r"Which object classes occur in the scene graph\? Answer with a set of class names\.")
def classes_used(graph: SceneGraph) -> str:
    return sldp(frozenset(n.label for n in graph.of_kind("object")))


@register(r"How many places are connected to place ([A-Za-z][0-9]+)\?",
          needs=(PLACE_CONNECTED,))
def place_degree(graph: SceneGraph, place: str) -> str:
    graph.node(place, "place")
    return sldp(len(graph.neighbours["PLACE_CONNECTED"].get(place, ())))


def _building_rooms(graph: SceneGraph, building: str) -> set[str]:
    graph.node(building, "building")
    return {r for r in graph.children.get(building, ()) if graph.nodes[r].kind == "room"}


@register(rf"Which rooms does building {ID} CONTAIN\? {SET_OF_IDS}")
def rooms_of_building(graph: SceneGraph, building: str) -> str:
    return sldp(frozenset(_building_rooms(graph, building)))


@register(rf"How many different objects are in building {ID}\?", needs=(IN_BUILDING, IN_ROOM))
def count_in_building(graph: SceneGraph, building: str) -> str:
    rooms = _building_rooms(graph, building)
    return sldp(len(set().union(*(objects_in_room(graph, r) for r in rooms))))
