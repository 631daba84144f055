"""Counting: objects by class, by room, by class in a room or in the rooms adjacent to one,
distinct classes, mesh places.

A count restates the set it counts, so each count carries the fact key of that set (the one
`hierarchy` and `pddl` use for listing it)."""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import (
    adjacent_room_objects_match,
    room_objects_match,
    sample,
)
from dsgqa.question_gen.view import GraphView

CATEGORY = "counting"
#: The definitions (`definitions.py`) a count of the objects in a room relies on.
_IN_ROOM = ("in_room",)


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    rooms = [r.symbol for r in view.label("Room")]
    classes = view.classes("Object")
    for cls in classes:
        out.append(Candidate(
            CATEGORY, "count_by_class", f"count_{cls}",
            f"How many objects of class '{cls}' are in the scene graph?",
            f"MATCH (o:Object {{class: {q(cls)}}}) RETURN count(o) AS objects",
            len(view.label("Object", cls)), ("by_class",), fact=("objects_of_class", cls),
            needs=Needs(aggregate=True)))
    for room in rooms:
        inside = view.objects_in_room(room)
        out.append(Candidate(
            CATEGORY, "count_by_room", f"count_in_{room}",
            f"How many different objects are in room {room}?",
            f"{room_objects_match(room)} RETURN count(DISTINCT o) AS objects",
            len(inside), ("by_room",), fact=("objects_in_room", room),
            needs=Needs(hops=2, aggregate=True), defines=_IN_ROOM))
        out.append(Candidate(
            CATEGORY, "count_distinct_classes_in_room", f"count_classes_in_{room}",
            f"How many distinct object classes occur among the objects in room {room}?",
            f"{room_objects_match(room)} RETURN count(DISTINCT o.class) AS classes",
            len({view.nodes[o].class_name for o in inside}), ("distinct", "by_room"),
            fact=("classes_in_room", room), needs=Needs(hops=2, aggregate=True),
            defines=_IN_ROOM))
        places = view.places_of_room(room)
        out.append(Candidate(
            CATEGORY, "count_places_in_room", f"count_places_in_{room}",
            f"How many places and mesh places does room {room} CONTAIN?",
            f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:CONTAINS]->(p) "
            "WHERE p:Place OR p:MeshPlace RETURN count(DISTINCT p) AS places",
            len(places), ("by_room",), fact=("places_in_room", room),
            needs=Needs(hops=1, aggregate=True)))
    pairs = [(room, cls) for room in rooms for cls in classes]
    for room, cls in sample(rng, pairs, 40):
        n = sum(view.nodes[o].class_name == cls for o in view.objects_in_room(room))
        out.append(Candidate(
            CATEGORY, "count_class_in_room", f"count_{cls}_in_{room}",
            f"How many objects of class '{cls}' are in room {room}?",
            f"{room_objects_match(room, extra=f' {{class: {q(cls)}}}')} "
            "RETURN count(DISTINCT o) AS objects",
            n, ("by_class", "by_room") + (("empty",) if n == 0 else ()),
            fact=("class_in_room", room, cls), needs=Needs(hops=2, aggregate=True),
            defines=_IN_ROOM))
    out.append(Candidate(
        CATEGORY, "count_distinct_classes", "count_object_classes",
        "How many distinct object classes occur in the scene graph?",
        "MATCH (o:Object) RETURN count(DISTINCT o.class) AS classes",
        len(classes), ("distinct",), fact=("object_classes",), needs=Needs(aggregate=True)))
    outside = [o.symbol for o in view.label("Object") if not view.rooms_of(o.symbol)]
    out.append(Candidate(
        CATEGORY, "count_outside_rooms", "count_objects_outside_rooms",
        "How many objects are in no room at all?",
        "MATCH (o:Object) WHERE NOT EXISTS { "
        "MATCH (:Room)-[:CONTAINS]->()-[:CONTAINS]->(o) } RETURN count(o) AS objects",
        len(outside), ("by_room",), fact=("objects_outside_rooms",),
        needs=Needs(hops=2, aggregate=True, steps=("negation",)), defines=_IN_ROOM))
    near = {room: view.objects_in_adjacent_rooms(room) for room in rooms}
    near_pairs = [(room, cls) for room in rooms
                  for cls in sorted({view.nodes[o].class_name for o in near[room]})]
    for room, cls in sample(rng, near_pairs, 20):
        n = sum(view.nodes[o].class_name == cls for o in near[room])
        out.append(Candidate(
            CATEGORY, "count_class_in_adjacent_rooms", f"count_{cls}_next_to_{room}",
            f"How many different objects of class '{cls}' are in the rooms adjacent to room "
            f"{room}?",
            f"{adjacent_room_objects_match(room, extra=f' {{class: {q(cls)}}}')} "
            "RETURN count(DISTINCT o) AS objects",
            n, ("by_class", "by_room", "adjacency"), fact=("class_in_adjacent_rooms", room, cls),
            needs=Needs(hops=3, aggregate=True), defines=(*_IN_ROOM, "adjacent")))
    return out
