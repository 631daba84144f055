"""References: rooms and objects named the way people name them, not by nodeSymbol.

"The lounge" is the only room of class 'lounge' and "the hallways" all rooms of class
'hallway'; "the bicycle" is the only object of its class, and "the storage object nearest the
bicycle" picks one object by description. A description is used only where it picks out exactly
one node: a room or object class with one member, a nearest object with no other within
`NEAR_TIE`, an object in exactly one room. Bounding boxes (`bbox_dim`) give sizes, volumes and
"the largest" (a volume or height under ten tolerances is not asked: `0` would come close).
The words' meanings are stated once, in the set's preamble (`definitions.py`).
"""

from __future__ import annotations

import math
from random import Random

from dsgqa.question_gen.candidate import Candidate, at_tolerance_edge, near_tie, near_zero, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import (
    is_word,
    plural,
    room_objects_match,
    rooms_by_class,
    rooms_of_class_match,
    sample,
    unique_objects,
)
from dsgqa.question_gen.view import GraphView

CATEGORY = "references"
_ID = "Answer with its nodeSymbol."
_ROOMS = ("in_room", "room_names", "object_names")
#: Counts of a class in a named room or group of rooms proposed at most (a graph with many
#: room classes has hundreds; each is checked on the database).
MAX_ROOM_COUNTS = 16
_NEAREST = ("object_names", "nearest", "distance")


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    groups = rooms_by_class(view)
    classes = [c for c in view.classes("Object") if is_word(c)]
    named: list[Candidate] = []
    for room_class, members in groups.items():
        if len(members) == 1:
            named += _named_room(view, room_class, members[0], classes)
        else:
            named += _room_group(view, room_class, members, classes)
    out += sample(rng, named, MAX_ROOM_COUNTS)
    out += _described(view, rng)
    out += _sizes(view, rng, groups)
    return out


def _named_room(view: GraphView, name: str, room: str, classes: list[str]) -> list[Candidate]:
    """Counts of a class in the only room of a class ("the lounge")."""
    out = []
    inside = view.objects_in_room(room)
    for cls in classes:
        n = sum(view.nodes[o].class_name == cls for o in inside)
        out.append(Candidate(
            CATEGORY, "count_in_named_room", f"count_{cls}_in_the_{name}",
            f"How many {cls} objects are in the {name}?",
            f"{rooms_of_class_match(name, extra=f' {{class: {q(cls)}}}')} "
            "RETURN count(DISTINCT o) AS objects",
            n, ("by_class", "by_room", "room_name"), fact=("class_in_room", room, cls),
            needs=Needs(hops=2, aggregate=True), defines=_ROOMS))
    return out


def _room_group(view: GraphView, name: str, rooms: list[str],
                classes: list[str]) -> list[Candidate]:
    """A class counted over all rooms of a room class."""
    out = []
    words = plural(name)
    for cls in classes:
        found = {o for r in rooms for o in view.objects_in_room(r)
                 if view.nodes[o].class_name == cls}
        match = rooms_of_class_match(name, extra=f" {{class: {q(cls)}}}")
        out.append(Candidate(
            CATEGORY, "count_in_room_group", f"count_{cls}_in_all_{name}",
            f"How many {cls} objects are in the {words} altogether?",
            f"{match} RETURN count(DISTINCT o) AS objects",
            len(found), ("by_class", "by_room", "room_name"),
            fact=("class_in_room_class", name, cls),
            needs=Needs(hops=2, aggregate=True), defines=_ROOMS))
    return out


def nearest_of(view: GraphView, cls: str, anchor: str) -> tuple[str, str]:
    """The object of class `cls` nearest `anchor` (not itself), and why it is not clear-cut
    ('' when it is)."""
    here = view.nodes[anchor].center
    ds = {o.symbol: math.dist(o.center, here) for o in view.label("Object", cls)
          if o.symbol != anchor}
    best = min(ds, key=lambda s: (ds[s], s))
    return best, near_tie(sorted(ds.values())[:2], "the two nearest")


def _described(view: GraphView, rng: Random) -> list[Candidate]:
    """Objects picked by description: the X nearest the (only) Y, its room, its distance to
    another named object, and the objects of a class in the room holding a named object."""
    out = []
    named = unique_objects(view)
    classes = [c for c in view.classes("Object")
               if is_word(c) and len(view.label("Object", c)) >= 2]
    pairs = [(cls, anchor) for anchor in sorted(named) for cls in classes]
    for cls, anchor in sample(rng, pairs, 14):
        best, tie = nearest_of(view, cls, named[anchor])
        near = (f"MATCH (a:Object {{class: {q(anchor)}}}), (o:Object {{class: {q(cls)}}}) "
                "WHERE o <> a WITH o ORDER BY point.distance(o.center, a.center) LIMIT 1")
        described = f"the {cls} object nearest the {anchor}"
        out.append(Candidate(
            CATEGORY, "nearest_described", f"{cls}_nearest_the_{anchor}",
            f"Which {cls} object is nearest the {anchor}? {_ID}",
            f"{near} RETURN o.nodeSymbol AS object",
            best, ("distance", "description"), tie, fact=("nearest_of_class", cls, anchor),
            needs=Needs(distance=True, order=True), defines=_NEAREST))
        rooms = view.rooms_of(best)
        if len(rooms) == 1:
            out.append(Candidate(
                CATEGORY, "room_of_described", f"room_of_{cls}_nearest_the_{anchor}",
                f"Which room is {described} in? {_ID}",
                f"{near} MATCH (r:Room)-[:CONTAINS]->()-[:CONTAINS]->(o) "
                "RETURN DISTINCT r.nodeSymbol AS room",
                next(iter(rooms)), ("description", "by_room"), tie,
                fact=("room_of_described", cls, anchor),
                needs=Needs(hops=2, distance=True, order=True, steps=("lookup",)),
                defines=(*_NEAREST, "in_room")))
        others = [o for o in sorted(named) if o != anchor and named[o] != best]
        if others:
            other = rng.choice(others)
            d = math.dist(view.nodes[best].center, view.nodes[named[other]].center)
            out.append(Candidate(
                CATEGORY, "distance_described", f"{cls}_nearest_the_{anchor}_to_{other}",
                f"How far is {described} from the {other}?",
                f"{near} MATCH (b:Object {{class: {q(other)}}}) "
                "RETURN point.distance(o.center, b.center) AS metres",
                d, ("distance", "description"), tie or at_tolerance_edge(d),
                fact=("distance_described", cls, anchor, other),
                needs=Needs(distance=True, order=True, steps=("lookup",)), defines=_NEAREST))
    placed = [(anchor, cls) for anchor, obj in sorted(named.items())
              if len(view.rooms_of(obj)) == 1 for cls in classes]
    for anchor, cls in sample(rng, placed, 8):
        (room,) = view.rooms_of(named[anchor])
        n = sum(view.nodes[o].class_name == cls for o in view.objects_in_room(room))
        out.append(Candidate(
            CATEGORY, "count_in_room_of_named", f"count_{cls}_with_the_{anchor}",
            f"How many {cls} objects are in the room that holds the {anchor}?",
            f"MATCH (:Object {{class: {q(anchor)}}})<-[:CONTAINS]-()<-[:CONTAINS]-(r:Room) "
            f"MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(o:Object {{class: {q(cls)}}}) "
            "RETURN count(DISTINCT o) AS objects",
            n, ("by_class", "by_room", "description"), fact=("class_in_room", room, cls),
            needs=Needs(hops=4, aggregate=True, steps=("lookup",)),
            defines=("in_room", "object_names")))
    return out


def volume(view: GraphView, symbol: str) -> float | None:
    size = view.nodes[symbol].bbox_size
    return None if size is None else size[0] * size[1] * size[2]


_VOLUME = "o.bbox_dim.x * o.bbox_dim.y * o.bbox_dim.z"


def _sizes(view: GraphView, rng: Random,
           groups: dict[str, list[str]]) -> list[Candidate]:
    """Bounding-box volumes and heights of named objects, and the largest object of a class or
    of a room."""
    out = []
    named = unique_objects(view)
    for cls, obj in sorted(named.items()):
        size = view.nodes[obj].bbox_size
        if size is None:
            continue
        v = size[0] * size[1] * size[2]
        out.append(Candidate(
            CATEGORY, "named_volume", f"volume_of_the_{cls}",
            f"What is the bounding-box volume of the {cls}, in cubic metres?",
            f"MATCH (o:Object {{class: {q(cls)}}}) RETURN {_VOLUME} AS volume",
            v, ("bbox", "description"), near_zero(v) or at_tolerance_edge(v), fact=("volume", obj),
            needs=Needs(), defines=("object_names", "bbox")))
        out.append(Candidate(
            CATEGORY, "named_height", f"height_of_the_{cls}",
            f"How tall is the bounding box of the {cls}, in metres?",
            f"MATCH (o:Object {{class: {q(cls)}}}) RETURN o.bbox_dim.z AS height",
            size[2], ("bbox", "description"), near_zero(size[2]) or at_tolerance_edge(size[2]),
            fact=("height", obj), needs=Needs(), defines=("object_names", "bbox")))
    for cls in view.classes("Object"):
        members = [o.symbol for o in view.label("Object", cls) if volume(view, o.symbol)]
        if is_word(cls) and len(members) >= 2:
            out.append(_largest(view, members, f"{cls}_objects", f"Which {cls} object",
                                f"MATCH (o:Object {{class: {q(cls)}}}) WITH o",
                                Needs(order=True), ("object_names", "bbox")))
    for name, rooms in groups.items():
        inside = sorted({o for r in rooms for o in view.objects_in_room(r) if volume(view, o)})
        where = f"the {name}" if len(rooms) == 1 else f"the {plural(name)}"
        if len(inside) >= 2:
            out.append(_largest(view, inside, f"in_{name}", f"Which object in {where}",
                                f"{rooms_of_class_match(name)} WITH DISTINCT o",
                                Needs(hops=2, order=True), ("in_room", "room_names", "bbox")))
    for room in sample(rng, view.label("Room"), 5):
        inside = sorted(o for o in view.objects_in_room(room.symbol) if volume(view, o))
        if len(inside) >= 2:
            out.append(_largest(view, inside, f"in_{room.symbol}",
                                f"Which object in room {room.symbol}",
                                f"{room_objects_match(room.symbol)} WITH DISTINCT o",
                                Needs(hops=2, order=True), ("in_room", "bbox")))
    return out


def _largest(view: GraphView, members: list[str], name: str, which: str, match: str,
             needs: Needs, defines: tuple[str, ...]) -> Candidate:
    volumes = {o: volume(view, o) or 0.0 for o in members}
    best = max(volumes, key=lambda s: (volumes[s], s))
    return Candidate(
        CATEGORY, "largest", f"largest_{name}",
        f"{which} has the largest bounding-box volume? {_ID}",
        f"{match} ORDER BY {_VOLUME} DESC LIMIT 1 RETURN o.nodeSymbol AS object",
        best, ("bbox", "description"),
        near_tie(sorted(-v for v in volumes.values())[:2], "the two largest volumes"),
        fact=("largest", *members), needs=needs, defines=defines)
