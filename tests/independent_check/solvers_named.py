"""Solvers for questions that name rooms and objects the way people do ("the lounge", "the
hallways", "the storage object nearest the bicycle") and compose steps across rooms. What the
names mean is read from the definitions the set's preamble states (`names`); each phrasing
lists the ones it relies on.
"""

from __future__ import annotations

from collections import Counter

from tests.independent_check.answers import Ambiguous, atom, conjunction, disjunction, sldp
from tests.independent_check.graph import SceneGraph
from tests.independent_check.names import (
    BBOX,
    EUCLIDEAN_DEF,
    IN_ROOM_DEF,
    NEAREST,
    OBJECT_NAMES,
    ROOM_NAMES,
    nearest_the,
    rooms_called,
    rooms_plural,
    the_object,
    the_room,
    volume,
)
from tests.independent_check.phrasings import ONE_ID, PDDL_NAMES, SET_OF_IDS, register
from tests.independent_check.relations import (
    distance,
    objects_in_room,
    objects_of_class,
    ranked,
    rooms_of,
)

W = r"([a-z]+(?: [a-z]+)*)"
SCOPE = r"(room [A-Z][0-9]+|the [a-z]+(?: [a-z]+)*|a [a-z]+(?: [a-z]+)*)"
SIDE = r"(room [A-Z][0-9]+|the [a-z]+(?: [a-z]+)*?(?: altogether)?)"
ROOMS = (IN_ROOM_DEF, ROOM_NAMES, OBJECT_NAMES)
NEAR = (OBJECT_NAMES, NEAREST, EUCLIDEAN_DEF)
CLASS_SET = r"Answer with a set of class names\."


def _in(graph: SceneGraph, rooms: list[str], label: str | None = None) -> set[str]:
    """Objects in any of the rooms (of one class, when given)."""
    found = set().union(*(objects_in_room(graph, r) for r in rooms))
    return found if label is None else found & objects_of_class(graph, label)


def _one_room(graph: SceneGraph, obj: str) -> str:
    rooms = sorted(rooms_of(graph, obj))
    if len(rooms) != 1:
        raise Ambiguous(f"{obj} is in {len(rooms)} rooms, not one")
    return rooms[0]


def _top(counts: dict[str, int], what: str) -> str:
    """The one key with the largest count; a tie, or nothing counted, has no answer."""
    order = sorted(counts, key=lambda k: -counts[k])
    if not order or counts[order[0]] == 0:
        raise Ambiguous(f"no {what} has any")
    if len(order) > 1 and counts[order[0]] == counts[order[1]]:
        raise Ambiguous(f"{order[0]} and {order[1]} tie with {counts[order[0]]}")
    return order[0]


# --- references -------------------------------------------------------------------------------


@register(rf"How many {W} objects are in the (?!room that )(?![a-z ]* altogether\?$){W}\?",
          needs=ROOMS)
def count_in_the_room(graph: SceneGraph, label: str, room: str) -> str:
    return sldp(len(_in(graph, [the_room(graph, room)], label)))


@register(rf"How many {W} objects are in the {W} altogether\?", needs=ROOMS)
def count_in_the_rooms(graph: SceneGraph, label: str, rooms: str) -> str:
    return sldp(len(_in(graph, rooms_plural(graph, rooms), label)))


@register(rf"How many {W} objects are in the room that holds the {W}\?",
          needs=(IN_ROOM_DEF, OBJECT_NAMES))
def count_beside(graph: SceneGraph, label: str, anchor: str) -> str:
    return sldp(len(_in(graph, [_one_room(graph, the_object(graph, anchor))], label)))


@register(rf"Which {W} object is nearest the {W}\? {ONE_ID}", needs=NEAR)
def nearest_named(graph: SceneGraph, label: str, anchor: str) -> str:
    return sldp(nearest_the(graph, label, anchor))


@register(rf"Which room is the {W} object nearest the {W} in\? {ONE_ID}",
          needs=(*NEAR, IN_ROOM_DEF))
def room_of_nearest(graph: SceneGraph, label: str, anchor: str) -> str:
    return sldp(_one_room(graph, nearest_the(graph, label, anchor)))


@register(rf"How far is the {W} object nearest the {W} from the {W}\?", needs=NEAR)
def how_far(graph: SceneGraph, label: str, anchor: str, other: str) -> str:
    found = nearest_the(graph, label, anchor)
    return sldp(distance(graph.nodes[found].center,
                         graph.nodes[the_object(graph, other)].center))


@register(rf"What is the bounding-box volume of the {W}, in cubic metres\?",
          needs=(OBJECT_NAMES, BBOX))
def volume_of(graph: SceneGraph, word: str) -> str:
    return sldp(volume(graph, the_object(graph, word)))


@register(rf"How tall is the bounding box of the {W}, in metres\?", needs=(OBJECT_NAMES, BBOX))
def height_of(graph: SceneGraph, word: str) -> str:
    size = graph.nodes[the_object(graph, word)].size
    if size is None:
        raise Ambiguous(f"the {word} has no bounding box")
    return sldp(size[2])


def _largest(graph: SceneGraph, symbols: set[str]) -> str:
    nodes = [graph.nodes[s] for s in symbols if graph.nodes[s].size is not None]
    if not nodes:
        raise Ambiguous("no such object has a bounding box")
    order = ranked(nodes, lambda n: volume(graph, n.symbol), "volume", descending=True,
                   needed=1)
    return sldp(order[0].symbol)


@register(rf"Which {W} object has the largest bounding-box volume\? {ONE_ID}",
          needs=(OBJECT_NAMES, BBOX))
def largest_of_class(graph: SceneGraph, label: str) -> str:
    return _largest(graph, objects_of_class(graph, label))


@register(rf"Which object in (the {W}|room [A-Z][0-9]+) has the largest bounding-box volume\?"
          rf" {ONE_ID}", needs=(IN_ROOM_DEF, BBOX))
def largest_in(graph: SceneGraph, where: str, _word: str | None) -> str:
    return _largest(graph, _in(graph, rooms_called(graph, where)))


# --- composition ------------------------------------------------------------------------------


@register(rf"Which {W} hold at least one {W} object\? {SET_OF_IDS}", needs=ROOMS)
def rooms_holding(graph: SceneGraph, rooms: str, label: str) -> str:
    return sldp(frozenset(r for r in rooms_plural(graph, rooms) if _in(graph, [r], label)))


def _rooms_in_scope(graph: SceneGraph, scope: str) -> list[str]:
    """'room' alone is every room; a class word is every room of that class."""
    if scope == "room":
        return sorted(n.symbol for n in graph.of_kind("room"))
    return rooms_called(graph, "a " + scope)


# Among every room, or among the rooms of a class ("which hallway"): only the second names a
# room by its class.
ANY_ROOM = (IN_ROOM_DEF, OBJECT_NAMES)
ROOM_CLASS = rf"((?!room ){W})"


def _room_with_most(graph: SceneGraph, scope: str, label: str) -> str:
    rooms = _rooms_in_scope(graph, scope)
    return sldp(_top({r: len(_in(graph, [r], label)) for r in rooms}, scope))


@register(rf"Which (room) holds the most {W} objects\? {ONE_ID}", needs=ANY_ROOM)
def room_with_most(graph: SceneGraph, scope: str, label: str) -> str:
    return _room_with_most(graph, scope, label)


@register(rf"Which {ROOM_CLASS} holds the most {W} objects\? {ONE_ID}", needs=ROOMS)
def room_of_class_with_most(graph: SceneGraph, scope: str, _word: str | None,
                            label: str) -> str:
    return _room_with_most(graph, scope, label)


def _objects_in_room_with_most(graph: SceneGraph, scope: str, label: str) -> str:
    rooms = _rooms_in_scope(graph, scope)
    best = _top({r: len(_in(graph, [r], label)) for r in rooms}, scope)
    return sldp(len(objects_in_room(graph, best)))


@register(rf"How many different objects, of any class, are in the (room) that holds the most {W}"
          r" objects\?", needs=ANY_ROOM)
def objects_in_room_with_most(graph: SceneGraph, scope: str, label: str) -> str:
    return _objects_in_room_with_most(graph, scope, label)


@register(rf"How many different objects, of any class, are in the {ROOM_CLASS} that holds the"
          rf" most {W} objects\?", needs=ROOMS)
def objects_in_room_of_class_with_most(graph: SceneGraph, scope: str, _word: str | None,
                                       label: str) -> str:
    return _objects_in_room_with_most(graph, scope, label)


@register(rf"Which object class has the most objects in (all rooms|the {W}) altogether\?"
          r" Answer with the class name\.", needs=(IN_ROOM_DEF, OBJECT_NAMES))
def class_with_most(graph: SceneGraph, where: str, _word: str | None) -> str:
    rooms = (sorted(n.symbol for n in graph.of_kind("room")) if where == "all rooms"
             else rooms_called(graph, where))
    counts = Counter(graph.nodes[o].label for o in _in(graph, rooms))
    return sldp(_top(dict(counts), "class"))


def _classes(graph: SceneGraph, scope: str) -> set[str]:
    return {graph.nodes[o].label for o in _in(graph, rooms_called(graph, scope))}


@register(rf"Which object classes occur both in {SCOPE} and in {SCOPE}\? {CLASS_SET}",
          needs=ROOMS)
def classes_in_both(graph: SceneGraph, a: str, b: str) -> str:
    return sldp(frozenset(_classes(graph, a) & _classes(graph, b)))


@register(rf"Which object classes occur in {SCOPE} but not in {SCOPE}\? {CLASS_SET}",
          needs=ROOMS)
def classes_only_in(graph: SceneGraph, a: str, b: str) -> str:
    return sldp(frozenset(_classes(graph, a) - _classes(graph, b)))


@register(rf"How many more {W} objects are in {SIDE} than in {SIDE}\? Answer with a number,"
          r" negative if there are fewer\.", needs=ROOMS)
def how_many_more(graph: SceneGraph, label: str, a: str, b: str) -> str:
    sides = [rooms_called(graph, s.removesuffix(" altogether")) for s in (a, b)]
    return sldp(len(_in(graph, sides[0], label)) - len(_in(graph, sides[1], label)))


# --- PDDL goals -------------------------------------------------------------------------------


@register(rf"Write a PDDL goal in which the robot is holding the {W} object nearest the {W} and"
          rf" has not visited the {W}\. Use the predicates \(holding \?object\) and"
          rf" \(visited-room \?room\)\. {PDDL_NAMES}", kind="PDDL",
          needs=(*NEAR, ROOM_NAMES))
def hold_but_avoid(graph: SceneGraph, label: str, anchor: str, room: str) -> str:
    held = nearest_the(graph, label, anchor)
    return conjunction([atom("holding", held),
                        "(not " + atom("visited-room", the_room(graph, room)) + ")"])


@register(rf"Write a PDDL goal in which the {W} object nearest the {W} is in the {W}\. Use the"
          rf" predicate \(object-in-room \?object \?room\)\. {PDDL_NAMES}", kind="PDDL",
          needs=(*NEAR, ROOM_NAMES))
def move_nearest(graph: SceneGraph, label: str, anchor: str, room: str) -> str:
    return atom("object-in-room", nearest_the(graph, label, anchor), the_room(graph, room))


@register(rf"Write a PDDL goal in which every {W} object in (the {W}) has been inspected and no"
          rf" {W} object in (the {W}) has been\. Use the predicate \(safe \?object\)\."
          rf" {PDDL_NAMES}", kind="PDDL", needs=ROOMS)
def inspect_not(graph: SceneGraph, label_a: str, where_a: str, _a: str, label_b: str,
                where_b: str, _b: str) -> str:
    done = _in(graph, rooms_called(graph, where_a), label_a)
    left = _in(graph, rooms_called(graph, where_b), label_b)
    return conjunction([atom("safe", o) for o in done]
                       + ["(not " + atom("safe", o) + ")" for o in left])


@register(rf"Write a PDDL goal in which every {W} object in (the {W}) has been inspected and the"
          rf" robot is holding any one {W} object in (the {W})\. Use the predicates"
          rf" \(safe \?object\) and \(holding \?object\)\. {PDDL_NAMES}", kind="PDDL",
          needs=ROOMS)
def inspect_and_hold(graph: SceneGraph, label_a: str, where_a: str, _a: str, label_b: str,
                     where_b: str, _b: str) -> str:
    done = _in(graph, rooms_called(graph, where_a), label_a)
    held = _in(graph, rooms_called(graph, where_b), label_b)
    return conjunction([atom("safe", o) for o in done]
                       + [disjunction(atom("holding", o) for o in held)])
