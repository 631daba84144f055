"""Hierarchy: objects in a room, rooms of an object, classes in a room, empty rooms, the
objects sharing a room with an object, the rooms and objects of a building.

Each set carries the fact key `counting` uses for its count, so a set asks it once."""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import MAX_ITEMS, room_objects_match, sample
from dsgqa.question_gen.view import GraphView

CATEGORY = "hierarchy"
_SET = "Answer with a set of nodeSymbols."
#: The definition (`definitions.py`) the questions about the objects in a room rely on.
_IN_ROOM = ("in_room",)


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    rooms = [r.symbol for r in view.label("Room")]
    objects = [o.symbol for o in view.label("Object")]
    for room in rooms:
        inside = view.objects_in_room(room)
        if len(inside) <= MAX_ITEMS:
            out.append(Candidate(
                CATEGORY, "objects_in_room", f"objects_in_{room}",
                f"Which objects are in room {room}? {_SET}",
                f"{room_objects_match(room)} RETURN DISTINCT o.nodeSymbol AS object",
                inside, ("sets",) + (("empty",) if not inside else ()),
                fact=("objects_in_room", room), needs=Needs(hops=2), defines=_IN_ROOM))
        out.append(Candidate(
            CATEGORY, "classes_in_room", f"classes_in_{room}",
            f"Which object classes occur in room {room}? Answer with a set of class names.",
            f"{room_objects_match(room)} RETURN collect(DISTINCT o.class) AS classes",
            {view.nodes[o].class_name for o in inside}, ("sets",),
            fact=("classes_in_room", room), needs=Needs(hops=2), defines=_IN_ROOM))
    for obj in sample(rng, objects, 30):
        out.append(Candidate(
            CATEGORY, "rooms_of_object", f"rooms_of_{obj}",
            f"Which rooms is object {obj} in? {_SET} (an empty set if none)",
            "MATCH (r:Room)-[:CONTAINS]->()-[:CONTAINS]->"
            f"(:Object {{nodeSymbol: '{obj}'}}) RETURN DISTINCT r.nodeSymbol AS room",
            view.rooms_of(obj), ("sets",) + (("empty",) if not view.rooms_of(obj) else ()),
            fact=("rooms_of_object", obj), needs=Needs(hops=2), defines=_IN_ROOM))
    for obj in sample(rng, objects, 15):
        holders = {p for p in view.parents.get(obj, ())
                   if view.nodes[p].label in ("Place", "MeshPlace")}
        out.append(Candidate(
            CATEGORY, "places_of_object", f"places_of_{obj}",
            f"Which places or mesh places CONTAIN object {obj}? {_SET}",
            f"MATCH (p)-[:CONTAINS]->(:Object {{nodeSymbol: '{obj}'}}) "
            "WHERE p:Place OR p:MeshPlace RETURN p.nodeSymbol AS place",
            holders, ("sets",), fact=("places_of_object", obj), needs=Needs(hops=1)))
    empty = {r for r in rooms if not view.objects_in_room(r)}
    out.append(Candidate(
        CATEGORY, "empty_rooms", "empty_rooms",
        f"Which rooms hold no object at all? {_SET} (an empty set if none)",
        "MATCH (r:Room) WHERE NOT EXISTS { MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(:Object) } "
        "RETURN r.nodeSymbol AS room",
        empty, ("sets", "empty"), fact=("empty_rooms",),
        needs=Needs(hops=2, steps=("negation",)), defines=_IN_ROOM))
    classes = view.classes("Object")
    for room, cls in sample(rng, [(r, c) for r in rooms for c in classes], 20):
        found = {o for o in view.objects_in_room(room) if view.nodes[o].class_name == cls}
        if found:
            out.append(Candidate(
                CATEGORY, "class_in_room", f"{cls}_in_{room}",
                f"Which objects of class '{cls}' are in room {room}? {_SET}",
                f"{room_objects_match(room, extra=f' {{class: {q(cls)}}}')} "
                "RETURN DISTINCT o.nodeSymbol AS object",
                found, ("sets",), fact=("class_in_room", room, cls), needs=Needs(hops=2),
                defines=_IN_ROOM))
    sharing = {obj: {o for r in view.rooms_of(obj) for o in view.objects_in_room(r)} - {obj}
               for obj in objects}
    for obj in sample(rng, [o for o in objects if 0 < len(sharing[o]) <= MAX_ITEMS], 15):
        out.append(Candidate(
            CATEGORY, "objects_sharing_room", f"objects_sharing_a_room_with_{obj}",
            f"Which other objects are in a room that object {obj} is in? {_SET}",
            # Two MATCH clauses: in one pattern, an object in the same place would need the
            # room's CONTAINS relationship to that place twice, which Cypher never matches.
            f"MATCH (:Object {{nodeSymbol: '{obj}'}})<-[:CONTAINS]-()<-[:CONTAINS]-(r:Room) "
            "MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
            f"WHERE o.nodeSymbol <> '{obj}' RETURN DISTINCT o.nodeSymbol AS object",
            sharing[obj], ("sets",), fact=("objects_sharing_room", obj),
            # up to the object's rooms, then down to their objects
            needs=Needs(hops=4, steps=("lookup",)), defines=_IN_ROOM))
    return out + _buildings(view)


def _buildings(view: GraphView) -> list[Candidate]:
    """The rooms a building CONTAINS, and the objects in them (graphs with a Building layer)."""
    out = []
    for building in view.label("Building"):
        b = building.symbol
        rooms = {r for r in view.children.get(b, ()) if view.nodes[r].label == "Room"}
        out.append(Candidate(
            CATEGORY, "rooms_of_building", f"rooms_of_{b}",
            f"Which rooms does building {b} CONTAIN? {_SET}",
            f"MATCH (:Building {{nodeSymbol: '{b}'}})-[:CONTAINS]->(r:Room) "
            "RETURN DISTINCT r.nodeSymbol AS room",
            rooms, ("sets", "buildings"), fact=("rooms_of_building", b), needs=Needs(hops=1)))
        inside = {o for r in rooms for o in view.objects_in_room(r)}
        out.append(Candidate(
            CATEGORY, "count_in_building", f"count_in_{b}",
            f"How many different objects are in building {b}?",
            f"MATCH (:Building {{nodeSymbol: '{b}'}})-[:CONTAINS]->(:Room)-[:CONTAINS]->()"
            "-[:CONTAINS]->(o:Object) RETURN count(DISTINCT o) AS objects",
            len(inside), ("buildings",), fact=("objects_in_building", b),
            needs=Needs(hops=3, aggregate=True), defines=("in_building", *_IN_ROOM)))
    return out
