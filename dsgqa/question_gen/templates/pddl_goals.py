"""PDDL-goal questions in Heracles' goal vocabulary: pick up any X in a room, inspect every X
in a room or in the rooms adjacent to one, visit every room adjacent to a room, move every X
from one room into another.

The question names the predicates to use; the reference Cypher returns the facts (one row of
arguments per atom) and the goal is their conjunction or disjunction. Grabbing any, inspecting
every and moving every X in a room all ask for the same set of objects, so they share its fact
key (the one `hierarchy` and `counting` use), as visiting the rooms adjacent to a room shares
that room's neighbourhood with `adjacency`, and inspecting every X next to a room shares the
fact of counting them (`counting`). Goals over objects and rooms named by description, with
`not` and an `or` inside an `and`, come from `pddl_described`.
"""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate, Goal, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates import pddl_described
from dsgqa.question_gen.templates._common import (
    adjacent_room_objects_match,
    room_objects_match,
    sample,
    set_fact,
)
from dsgqa.question_gen.view import GraphView

CATEGORY = "pddl"
#: Goals with more atoms are unwieldy to write and slow to compare.
MAX_ATOMS = 12
_SYMBOLS = "Use nodeSymbols as the PDDL objects."


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    rooms = [r.symbol for r in view.label("Room")]
    pairs = [(r, c) for r in rooms
             for c in sorted({view.nodes[o].class_name for o in view.objects_in_room(r)})]
    for room, cls in sample(rng, pairs, 40):
        found = sorted(o for o in view.objects_in_room(room) if view.nodes[o].class_name == cls)
        if not 1 <= len(found) <= MAX_ATOMS:
            continue
        match = room_objects_match(room, extra=f" {{class: {q(cls)}}}")
        fact = ("class_in_room", room, cls)
        needs = Needs(hops=2, steps=("goal",))
        out.append(Candidate(
            CATEGORY, "grab_any", f"grab_any_{cls}_in_{room}",
            f"Write a PDDL goal that holds when the robot is holding any one of the objects of "
            f"class '{cls}' in room {room}. Use the predicate (holding ?object). "
            f"{_SYMBOLS}",
            f"{match} RETURN DISTINCT o.nodeSymbol AS object",
            Goal("or", tuple(("holding", o) for o in found)), ("or",), fact=fact, needs=needs,
            defines=("in_room",)))
        out.append(Candidate(
            CATEGORY, "inspect_all", f"inspect_all_{cls}_in_{room}",
            f"Write a PDDL goal in which every object of class '{cls}' in room {room} has been "
            f"inspected. Use the predicate (safe ?object). {_SYMBOLS}",
            f"{match} RETURN DISTINCT o.nodeSymbol AS object",
            Goal("and", tuple(("safe", o) for o in found)), ("and",), fact=fact, needs=needs,
            defines=("in_room",)))
        others = [r for r in rooms if r != room]
        if others:
            target = rng.choice(others)
            out.append(Candidate(
                CATEGORY, "move_all", f"move_{cls}_from_{room}_to_{target}",
                f"Write a PDDL goal in which every object of class '{cls}' that is now in room "
                f"{room} is in room {target}. Use the predicate "
                f"(object-in-room ?object ?room). {_SYMBOLS}",
                f"{match} RETURN DISTINCT o.nodeSymbol AS object, '{target}' AS room",
                Goal("and", tuple(("object-in-room", o, target) for o in found)), ("and",),
                fact=fact, needs=needs, defines=("in_room",)))
    for room in rooms:
        near = sorted(view.same_layer(room))
        if 1 <= len(near) <= MAX_ATOMS:
            out.append(Candidate(
                CATEGORY, "visit_adjacent", f"visit_rooms_adjacent_to_{room}",
                f"Write a PDDL goal in which the robot has visited every room adjacent to room "
                f"{room}. Use the predicate (visited-room ?room). {_SYMBOLS}",
                f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED]-(n:Room) "
                "RETURN DISTINCT n.nodeSymbol AS room",
                Goal("and", tuple(("visited-room", r) for r in near)), ("and",),
                fact=set_fact("rooms_within", room, near), needs=Needs(hops=1, steps=("goal",)),
                defines=("adjacent",)))
    for cls in view.classes("Object"):
        members = [o.symbol for o in view.label("Object", cls)]
        if 2 <= len(members) <= MAX_ATOMS:
            out.append(Candidate(
                CATEGORY, "visit_any", f"visit_any_{cls}",
                f"Write a PDDL goal that holds once the robot has visited any one object of "
                f"class '{cls}'. Use the predicate (visited-object ?object). {_SYMBOLS}",
                f"MATCH (o:Object {{class: {q(cls)}}}) RETURN o.nodeSymbol AS object",
                Goal("or", tuple(("visited-object", o) for o in members)), ("or",),
                fact=("objects_of_class", cls), needs=Needs(steps=("goal",))))
    near_pairs = [(r, c) for r in rooms for c in sorted(
        {view.nodes[o].class_name for o in view.objects_in_adjacent_rooms(r)})]
    for room, cls in sample(rng, near_pairs, 20):
        found = sorted(o for o in view.objects_in_adjacent_rooms(room)
                       if view.nodes[o].class_name == cls)
        if len(found) <= MAX_ATOMS:
            out.append(Candidate(
                CATEGORY, "inspect_adjacent", f"inspect_all_{cls}_next_to_{room}",
                f"Write a PDDL goal in which every object of class '{cls}' in the rooms "
                f"adjacent to room {room} has been inspected. Use the predicate (safe ?object). "
                f"{_SYMBOLS}",
                f"{adjacent_room_objects_match(room, extra=f' {{class: {q(cls)}}}')} "
                "RETURN DISTINCT o.nodeSymbol AS object",
                Goal("and", tuple(("safe", o) for o in found)), ("and",),
                fact=("class_in_adjacent_rooms", room, cls),
                needs=Needs(hops=3, steps=("goal",)), defines=("in_room", "adjacent")))
    return out + pddl_described.candidates(view, rng)
