"""PDDL goals over objects and rooms named by description, with `not` and an `or` inside an
`and`: hold the X nearest the Y without visiting the lounge, move the X nearest the Y into a
room, inspect every X in one place but none in another, inspect some and hold any one of
others. Part of the `pddl` category (`pddl_goals.candidates` adds these).

The reference Cypher returns one row per part of the goal: `[predicate, args...]` for an atom,
`['not', predicate, args...]` for a negated one, `['any', predicate, args...]` for the atoms of
the one disjunction (`dsgqa.rows_to_pddl` reads these forms).
"""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate, Goal, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import (
    is_word,
    plural,
    rooms_by_class,
    rooms_of_class_match,
    sample,
    unique_objects,
)
from dsgqa.question_gen.templates.references import nearest_of
from dsgqa.question_gen.view import GraphView

CATEGORY = "pddl"
MAX_ATOMS = 12
_SYMBOLS = "Use nodeSymbols as the PDDL objects."
_NEAR = ("MATCH (a:Object {{class: {anchor}}}), (o:Object {{class: {cls}}}) WHERE o <> a "
         "WITH o ORDER BY point.distance(o.center, a.center) LIMIT 1 ")
_DEFS = ("in_room", "room_names", "object_names")


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    groups = rooms_by_class(view)
    named_rooms = {n: r[0] for n, r in groups.items() if len(r) == 1}
    scopes = [(f"the {n}", r, n) for n, r in groups.items() if len(r) == 1]
    scopes += [(f"the {plural(n)}", r, n) for n, r in groups.items() if len(r) >= 2]
    out += _described(view, rng, named_rooms)
    classes = [c for c in view.classes("Object") if is_word(c)]
    members = {(where, cls): sorted(o for r in rooms for o in view.objects_in_room(r)
                                    if view.nodes[o].class_name == cls)
               for where, rooms, _ in scopes for cls in classes}
    filled = [k for k, v in members.items() if 1 <= len(v) <= MAX_ATOMS // 2]
    for (wa, ca), (wb, cb) in sample(rng, [(a, b) for a in filled for b in filled
                                           if a[0] != b[0]], 10):
        room_a = next(s for s in scopes if s[0] == wa)[2]
        room_b = next(s for s in scopes if s[0] == wb)[2]
        match_a = rooms_of_class_match(room_a, extra=f" {{class: {q(ca)}}}")
        match_b = rooms_of_class_match(room_b, extra=f" {{class: {q(cb)}}}")
        if ca == cb:
            out.append(Candidate(
                CATEGORY, "inspect_here_not_there", f"inspect_{ca}_in_{wa}_not_{wb}",
                f"Write a PDDL goal in which every {ca} object in {wa} has been inspected and "
                f"no {ca} object in {wb} has been. Use the predicate (safe ?object). "
                f"{_SYMBOLS}",
                f"{match_a} RETURN DISTINCT 'safe' AS p, o.nodeSymbol AS object, '' AS x "
                f"UNION {match_b} RETURN DISTINCT 'not' AS p, 'safe' AS object, "
                "o.nodeSymbol AS x",
                Goal("and", tuple(("safe", o) for o in members[wa, ca])
                     + tuple(("not", ("safe", o)) for o in members[wb, cb])),
                ("and", "not", "room_name"), fact=("inspect_not", wa, wb, ca),
                needs=Needs(hops=2, steps=("goal", "negation")), defines=_DEFS))
        else:
            any_of = Goal("or", tuple(("holding", o) for o in members[wb, cb]))
            out.append(Candidate(
                CATEGORY, "inspect_and_hold_any", f"inspect_{ca}_in_{wa}_hold_{cb}_in_{wb}",
                f"Write a PDDL goal in which every {ca} object in {wa} has been inspected and "
                f"the robot is holding any one {cb} object in {wb}. Use the predicates "
                f"(safe ?object) and (holding ?object). {_SYMBOLS}",
                f"{match_a} RETURN DISTINCT 'safe' AS p, o.nodeSymbol AS object, '' AS x "
                f"UNION {match_b} RETURN DISTINCT 'any' AS p, 'holding' AS object, "
                "o.nodeSymbol AS x",
                Goal("and", (*tuple(("safe", o) for o in members[wa, ca]), any_of)),
                ("and", "or", "room_name"), fact=("inspect_and_hold", wa, ca, wb, cb),
                needs=Needs(hops=2, steps=("goal", "goal")), defines=_DEFS))
    return out


def _described(view: GraphView, rng: Random, named_rooms: dict[str, str]) -> list[Candidate]:
    out = []
    named = unique_objects(view)
    classes = [c for c in view.classes("Object")
               if is_word(c) and len(view.label("Object", c)) >= 2]
    pairs = [(c, a) for a in sorted(named) for c in classes]
    defines = ("object_names", "nearest", "distance", "room_names")
    for cls, anchor in sample(rng, pairs, 6):
        best, tie = nearest_of(view, cls, named[anchor])
        near = _NEAR.format(anchor=q(anchor), cls=q(cls))
        for room_class, room in sorted(named_rooms.items()):
            out.append(Candidate(
                CATEGORY, "hold_described_avoid_room", f"hold_{cls}_near_{anchor}_not_{room}",
                f"Write a PDDL goal in which the robot is holding the {cls} object nearest the "
                f"{anchor} and has not visited the {room_class}. Use the predicates "
                f"(holding ?object) and (visited-room ?room). {_SYMBOLS}",
                f"{near}MATCH (r:Room {{class: {q(room_class)}}}) "
                "RETURN 'holding' AS p, o.nodeSymbol AS a, '' AS b "
                "UNION MATCH (r:Room {class: " + q(room_class) + "}) "
                "RETURN 'not' AS p, 'visited-room' AS a, r.nodeSymbol AS b",
                Goal("and", (("holding", best), ("not", ("visited-room", room)))),
                ("and", "not", "description"), tie,
                fact=("hold_described_avoid", cls, anchor, room),
                needs=Needs(distance=True, order=True, steps=("goal", "negation")),
                defines=defines))
            if room not in view.rooms_of(best):
                out.append(Candidate(
                    CATEGORY, "move_described", f"move_{cls}_near_{anchor}_to_{room}",
                    f"Write a PDDL goal in which the {cls} object nearest the {anchor} is in "
                    f"the {room_class}. Use the predicate (object-in-room ?object ?room). "
                    f"{_SYMBOLS}",
                    f"{near}MATCH (r:Room {{class: {q(room_class)}}}) "
                    "RETURN o.nodeSymbol AS object, r.nodeSymbol AS room",
                    Goal("and", (("object-in-room", best, room),)),
                    ("and", "description"), tie, fact=("move_described", cls, anchor, room),
                    needs=Needs(distance=True, order=True, steps=("goal",)), defines=defines))
    return out
