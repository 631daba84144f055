"""Composition: two- and three-step questions that filter, aggregate and compare across rooms.

"Which hallways hold a sign?" filters rooms by what they contain; "which hallway holds the most
signs?" filters rooms by class, counts a class in each and picks
the largest count; "how many objects are in the hallway with the most signs?" uses that room in a
third step; "how many more signs are in the lounge than in the hallways?" and "which classes
occur in both rooms?" compare two rooms or groups. Rooms are named by class or nodeSymbol
(`references` says how); a "most" whose top two counts tie is skipped, not asked.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from random import Random

from dsgqa.question_gen.candidate import Candidate, q
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import (
    is_word,
    plural,
    rooms_by_class,
    rooms_of_class_match,
    sample,
)
from dsgqa.question_gen.view import GraphView

CATEGORY = "composition"
_ID = "Answer with its nodeSymbol."
_CLASSES = "Answer with a set of class names."
_DEFS = ("in_room", "room_names", "object_names")
#: Questions over each class in each group of rooms proposed at most (each is checked on the
#: database; a graph with many classes and room classes has hundreds).
MAX_PER_ROOM = 30


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    groups = rooms_by_class(view)
    classes = [c for c in view.classes("Object") if is_word(c)]
    all_rooms = [r.symbol for r in view.label("Room")]
    per_room: list[Candidate] = []
    for name, rooms in groups.items():
        if len(rooms) >= 2:
            per_room += _most(view, classes, rooms, f"hallway_{name}", f"Which {name}",
                              f"MATCH (r:Room {{class: {q(name)}}}) ", _DEFS, plural(name))
            per_room += _holding(view, name, rooms, classes)
    per_room += _most(view, classes, all_rooms, "room", "Which room", "MATCH (r:Room) ",
                      ("in_room", "object_names"), "rooms")
    out += sample(rng, per_room, MAX_PER_ROOM)
    out += _class_sets(view, rng, groups)
    out += _differences(view, rng, groups, classes)
    return out


def _holding(view: GraphView, name: str, rooms: list[str],
             classes: list[str]) -> list[Candidate]:
    """Which rooms of a room class hold a class: the rooms filtered by what they contain."""
    out = []
    for cls in classes:
        holding = {r for r in rooms if _count(view, r, cls)}
        out.append(Candidate(
            CATEGORY, "group_rooms_holding", f"{name}_holding_{cls}",
            f"Which {plural(name)} hold at least one {cls} object? Answer with a set of "
            "nodeSymbols.",
            f"{rooms_of_class_match(name, extra=f' {{class: {q(cls)}}}')} "
            "RETURN DISTINCT r.nodeSymbol AS room",
            holding, ("sets", "room_name"), fact=("rooms_of_class_holding", name, cls),
            needs=Needs(hops=2), defines=_DEFS))
    return out


def _count(view: GraphView, room: str, cls: str) -> int:
    return sum(view.nodes[o].class_name == cls for o in view.objects_in_room(room))


def _most(view: GraphView, classes: list[str], rooms: list[str], scope: str, which: str,
          match_rooms: str, defines: tuple[str, ...], words: str) -> list[Candidate]:
    """The room (of a class, or any) holding the most objects of a class, then the objects it
    holds, and the class with the most objects over those rooms."""
    out = []
    for cls in classes:
        counts = {r: _count(view, r, cls) for r in rooms}
        ranked = sorted(counts, key=lambda r: (-counts[r], r))
        if counts[ranked[0]] == 0 or (len(ranked) > 1 and
                                      counts[ranked[0]] == counts[ranked[1]]):
            continue
        best = ranked[0]
        most = (f"{match_rooms}MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(o:Object "
                f"{{class: {q(cls)}}}) WITH r, count(DISTINCT o) AS n ORDER BY n DESC LIMIT 1")
        out.append(Candidate(
            CATEGORY, "most_of_class", f"{scope}_with_most_{cls}",
            f"{which} holds the most {cls} objects? {_ID}",
            f"{most} RETURN r.nodeSymbol AS room",
            best, ("by_class", "by_room", "compare"), fact=("room_with_most", scope, cls),
            needs=Needs(hops=2, aggregate=True, order=True), defines=defines))
        out.append(Candidate(
            CATEGORY, "count_in_room_with_most", f"objects_in_{scope}_with_most_{cls}",
            f"How many different objects, of any class, are in the {which.split()[-1]} that "
            f"holds the most {cls} objects?",
            f"{most} MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(p:Object) "
            "RETURN count(DISTINCT p) AS objects",
            len(view.objects_in_room(best)), ("by_room", "compare"),
            fact=("objects_in_room_with_most", scope, cls),
            needs=Needs(hops=2, aggregate=True, order=True, steps=("lookup",)),
            defines=defines))
    inside = Counter(view.nodes[o].class_name
                     for o in {o for r in rooms for o in view.objects_in_room(r)})
    ranked = sorted(inside, key=lambda c: (-inside[c], c))
    if len(ranked) >= 2 and inside[ranked[0]] > inside[ranked[1]] and is_word(ranked[0]):
        where = "all rooms" if words == "rooms" else f"the {words}"
        out.append(Candidate(
            CATEGORY, "class_most_in", f"class_most_in_{scope}",
            f"Which object class has the most objects in {where} altogether? Answer with the "
            "class name.",
            f"{match_rooms}MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
            "WITH o.class AS class, count(DISTINCT o) AS n ORDER BY n DESC LIMIT 1 "
            "RETURN class",
            ranked[0], ("by_class", "compare"), fact=("class_most_in", *sorted(rooms)),
            needs=Needs(hops=2, aggregate=True, order=True), defines=defines))
    return out


def _classes_in(view: GraphView, rooms: list[str]) -> set[str]:
    return {view.nodes[o].class_name for r in rooms for o in view.objects_in_room(r)}


def _class_sets(view: GraphView, rng: Random,
                groups: dict[str, list[str]]) -> list[Candidate]:
    """Classes two rooms (or a room and a group of rooms) share, and those only one has."""
    out = []
    scopes: list[tuple[str, list[str], str]] = []   # (words, rooms, Cypher room pattern)
    for name, rooms in groups.items():
        words = f"the {name}" if len(rooms) == 1 else f"a {name}"
        scopes.append((words, rooms, f"(:Room {{class: {q(name)}}})"))
    for room in view.label("Room"):
        scopes.append((f"room {room.symbol}", [room.symbol],
                       f"(:Room {{nodeSymbol: '{room.symbol}'}})"))
    pairs = [(a, b) for a, b in combinations(scopes, 2) if not set(a[1]) & set(b[1])]
    for (wa, ra, pa), (wb, rb, pb) in sample(rng, pairs, 6):
        ca, cb = _classes_in(view, ra), _classes_in(view, rb)
        key = tuple(sorted((tuple(ra), tuple(rb))))
        out.append(Candidate(
            CATEGORY, "classes_in_both", f"classes_in_{wa}_and_{wb}".replace(" ", "_"),
            f"Which object classes occur both in {wa} and in {wb}? {_CLASSES}",
            f"MATCH {pa}-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
            f"MATCH {pb}-[:CONTAINS]->()-[:CONTAINS]->(p:Object) WHERE p.class = o.class "
            "RETURN DISTINCT o.class AS class",
            ca & cb, ("sets", "compare"), fact=("classes_in_both", *map(str, key)),
            needs=Needs(hops=2, steps=("compare",)), defines=_DEFS))
        out.append(Candidate(
            CATEGORY, "classes_only_in", f"classes_in_{wa}_not_{wb}".replace(" ", "_"),
            f"Which object classes occur in {wa} but not in {wb}? {_CLASSES}",
            f"OPTIONAL MATCH {pb}-[:CONTAINS]->()-[:CONTAINS]->(p:Object) "
            "WITH collect(DISTINCT p.class) AS there "
            f"MATCH {pa}-[:CONTAINS]->()-[:CONTAINS]->(o:Object) WHERE NOT o.class IN there "
            "RETURN DISTINCT o.class AS class",
            ca - cb, ("sets", "compare"), fact=("classes_only_in", str(ra), str(rb)),
            needs=Needs(hops=2, steps=("compare", "negation")), defines=_DEFS))
    return out


def _differences(view: GraphView, rng: Random, groups: dict[str, list[str]],
                 classes: list[str]) -> list[Candidate]:
    """How many more objects of a class one room holds than another (or than a group)."""
    out = []
    named = [(f"the {n}", r, f"(:Room {{class: {q(n)}}})") for n, r in groups.items()
             if len(r) == 1]
    group = [(f"the {plural(n)} altogether", r, f"(:Room {{class: {q(n)}}})")
             for n, r in groups.items() if len(r) >= 2]
    by_symbol = [(f"room {r.symbol}", [r.symbol], f"(:Room {{nodeSymbol: '{r.symbol}'}})")
                 for r in view.label("Room")]
    sides = [(a, b) for a in named + by_symbol for b in named + group + by_symbol
             if not set(a[1]) & set(b[1])]
    for ((wa, ra, pa), (wb, rb, pb)), cls in sample(
            rng, [(s, c) for s in sides for c in classes], 10):
        here = {o for r in ra for o in view.objects_in_room(r)
                if view.nodes[o].class_name == cls}
        there = {o for r in rb for o in view.objects_in_room(r)
                 if view.nodes[o].class_name == cls}
        if not here and not there:
            continue
        out.append(Candidate(
            CATEGORY, "difference", f"more_{cls}_in_{wa}_than_{wb}".replace(" ", "_"),
            f"How many more {cls} objects are in {wa} than in {wb}? Answer with a number, "
            "negative if there are fewer.",
            f"OPTIONAL MATCH {pa}-[:CONTAINS]->()-[:CONTAINS]->(o:Object {{class: {q(cls)}}}) "
            "WITH count(DISTINCT o) AS here "
            f"OPTIONAL MATCH {pb}-[:CONTAINS]->()-[:CONTAINS]->(p:Object {{class: {q(cls)}}}) "
            "WITH here, count(DISTINCT p) AS there RETURN here - there AS more",
            len(here) - len(there), ("by_class", "by_room", "compare"),
            fact=("difference", cls, *sorted((str(ra), str(rb)))),
            needs=Needs(hops=2, aggregate=True, steps=("compare",)), defines=_DEFS))
    return out
