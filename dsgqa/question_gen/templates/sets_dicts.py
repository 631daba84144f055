"""Sets and dicts: class -> count, object -> room, room -> count (of every room, or of the
rooms adjacent to one), positions by symbol."""

from __future__ import annotations

from collections import Counter
from random import Random

from dsgqa.question_gen.candidate import Candidate, point, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import MAX_ITEMS, room_objects_match, sample
from dsgqa.question_gen.view import GraphView

CATEGORY = "sets_dicts"


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    objects = view.label("Object")
    counts = Counter(o.class_name for o in objects)
    if len(counts) <= MAX_ITEMS:
        out.append(Candidate(
            CATEGORY, "class_counts", "objects_per_class",
            "How many objects are there of each class? Answer with a dict from class name to "
            "count.",
            "MATCH (o:Object) RETURN o.class AS class, count(o) AS objects",
            dict(counts), ("dicts", "counting"), fact=("objects_per_class",),
            needs=Needs(aggregate=True)))
    out.append(Candidate(
        CATEGORY, "object_classes", "object_classes",
        "Which object classes occur in the scene graph? Answer with a set of class names.",
        "MATCH (o:Object) RETURN DISTINCT o.class AS class",
        set(counts), ("sets",), fact=("object_classes",), needs=Needs()))
    for room in (r.symbol for r in view.label("Room")):
        inside = Counter(view.nodes[o].class_name for o in view.objects_in_room(room))
        if inside:
            out.append(Candidate(
                CATEGORY, "class_counts_in_room", f"class_counts_in_{room}",
                f"For room {room}, how many objects of each class are in it? Answer with a dict "
                "from class name to count, leaving out classes without objects there.",
                f"{room_objects_match(room)} RETURN o.class AS class, "
                "count(DISTINCT o) AS objects",
                dict(inside), ("dicts", "counting"), fact=("class_counts_in_room", room),
                needs=Needs(hops=2, aggregate=True), defines=("in_room",)))
    rooms = {r.symbol: view.objects_in_room(r.symbol) for r in view.label("Room")}
    per_room = {r: len(o) for r, o in rooms.items() if o}
    if per_room and len(per_room) <= MAX_ITEMS:
        out.append(Candidate(
            CATEGORY, "room_counts", "objects_per_room",
            "How many different objects does each room hold? Answer with a dict from room "
            "nodeSymbol to count, leaving out rooms without objects.",
            "MATCH (r:Room)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
            "RETURN r.nodeSymbol AS room, count(DISTINCT o) AS objects",
            per_room, ("dicts", "counting"), fact=("objects_per_room",),
            needs=Needs(hops=2, aggregate=True), defines=("in_room",)))
    for cls in sample(rng, sorted(counts), 15):
        members = view.label("Object", cls)
        if len(members) > MAX_ITEMS:
            continue
        placed = {o.symbol: view.rooms_of(o.symbol) for o in members}
        if all(len(r) <= 1 for r in placed.values()):
            out.append(Candidate(
                CATEGORY, "object_room", f"room_of_each_{cls}",
                f"For each object of class '{cls}', which room is it in? Answer with a dict from "
                "object nodeSymbol to room nodeSymbol, using 'none' for an object in no room.",
                f"MATCH (o:Object {{class: {q(cls)}}}) "
                "OPTIONAL MATCH (r:Room)-[:CONTAINS]->()-[:CONTAINS]->(o) "
                "RETURN DISTINCT o.nodeSymbol AS object, coalesce(r.nodeSymbol, 'none') AS room",
                {s: (next(iter(r)) if r else "none") for s, r in placed.items()}, ("dicts",),
                fact=("room_of_each", cls), needs=Needs(hops=2, steps=("outer_join",)),
                defines=("in_room",)))
        out.append(Candidate(
            CATEGORY, "positions_of_class", f"positions_of_{cls}",
            f"Where is each object of class '{cls}'? Answer with a dict from object nodeSymbol "
            "to its center as a POINT(x y z).",
            f"MATCH (o:Object {{class: {q(cls)}}}) RETURN o.nodeSymbol AS object, "
            "o.center AS center",
            {o.symbol: point(o.center) for o in members}, ("dicts", "points"),
            fact=("positions_of_class", cls), needs=Needs()))
    for room in (r.symbol for r in view.label("Room")):
        near = view.same_layer(room)
        if 0 < len(near) <= MAX_ITEMS:
            out.append(Candidate(
                CATEGORY, "adjacent_room_counts", f"objects_per_room_next_to_{room}",
                f"For each room adjacent to room {room}, how many different objects does it "
                "hold? Answer with a dict from room nodeSymbol to count, with 0 for a room "
                "without objects.",
                f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED]-(n:Room) "
                "OPTIONAL MATCH (n)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
                "RETURN n.nodeSymbol AS room, count(DISTINCT o) AS objects",
                {n: len(view.objects_in_room(n)) for n in near}, ("dicts", "counting"),
                fact=("objects_per_adjacent_room", room),
                needs=Needs(hops=3, aggregate=True, steps=("outer_join",)),
                defines=("in_room", "adjacent")))
    return out
