"""Ordered lists with explicit tie-breaking: by height, by object count, by distance."""

from __future__ import annotations

import math
from collections import Counter
from random import Random

from dsgqa.question_gen.candidate import (
    BY_SYMBOL,
    Candidate,
    near_tie,
    q,
)
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import MAX_ITEMS, room_objects_match, sample
from dsgqa.question_gen.view import GraphView

CATEGORY = "ordered_lists"
_LIST = "Answer with a list of nodeSymbols."


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    objects = view.label("Object")
    for cls in view.classes("Object"):
        members = view.label("Object", cls)
        if 2 <= len(members) <= MAX_ITEMS:
            ranked = sorted(members, key=lambda o: (-o.center[2], o.symbol))
            out.append(Candidate(
                CATEGORY, "class_by_height", f"{cls}_by_height",
                f"List the objects of class '{cls}' from highest to lowest by the z coordinate "
                f"of their centers. {_LIST}",
                f"MATCH (o:Object {{class: {q(cls)}}}) WITH o ORDER BY o.center.z DESC "
                "RETURN collect(o.nodeSymbol) AS objects",
                [o.symbol for o in ranked], ("height",),
                near_tie([o.center[2] for o in members], "two heights"),
                fact=("class_by_height", cls), needs=Needs(order=True)))
    rooms = view.label("Room")
    if len(rooms) >= 2:
        counts = {r.symbol: len(view.objects_in_room(r.symbol)) for r in rooms}
        for word, sign, order in (("most", -1, "DESC"), ("fewest", 1, "ASC")):
            ranked = sorted(counts, key=lambda r, s=sign: (s * counts[r], r))
            out.append(Candidate(
                CATEGORY, "rooms_by_object_count", f"rooms_{word}_objects_first",
                f"List all rooms from {word} to {'fewest' if word == 'most' else 'most'} objects. "
                "Count each object once per room; a room without objects counts 0. "
                f"{BY_SYMBOL} {_LIST}",
                "MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->()-[:CONTAINS]->(o:Object) "
                f"WITH r, count(DISTINCT o) AS objects ORDER BY objects {order}, r.nodeSymbol "
                "RETURN collect(r.nodeSymbol) AS rooms",
                ranked, ("ties", "counting"), fact=("rooms_by_object_count",),
                needs=Needs(hops=2, aggregate=True, order=True, steps=("outer_join",)),
                defines=("in_room",)))
        ranked = sorted(rooms, key=lambda r: (r.center[0], r.symbol))
        out.append(Candidate(
            CATEGORY, "rooms_west_to_east", "rooms_by_x",
            f"List all rooms by increasing x coordinate of their centers. {_LIST}",
            "MATCH (r:Room) WITH r ORDER BY r.center.x RETURN collect(r.nodeSymbol) AS rooms",
            [r.symbol for r in ranked], ("points",),
            near_tie([r.center[0] for r in rooms], "two x coordinates"), fact=("rooms_by_x",),
            needs=Needs(order=True)))
    k = 3
    if len(objects) > k + 1:
        for obj in sample(rng, objects, 25):
            ds = {o.symbol: math.dist(o.center, obj.center) for o in objects if o != obj}
            ranked = sorted(ds, key=lambda s: (ds[s], s))
            out.append(Candidate(
                CATEGORY, "k_nearest", f"{k}_nearest_to_{obj.symbol}",
                f"List the {k} objects nearest to object {obj.symbol} (not counting it), nearest "
                f"first. {_LIST}",
                f"MATCH (a:Object {{nodeSymbol: '{obj.symbol}'}}), (o:Object) WHERE o <> a "
                "WITH o, point.distance(o.center, a.center) AS d ORDER BY d LIMIT 3 "
                "RETURN collect(o.nodeSymbol) AS objects",
                ranked[:k], ("distance",),
                near_tie([ds[s] for s in ranked[:k + 1]], "two of the nearest distances"),
                fact=("nearest_objects", obj.symbol), needs=Needs(distance=True, order=True),
                defines=("distance",)))
    out.extend(_more(view, rng))
    for room in rooms:
        inside = [view.nodes[o] for o in sorted(view.objects_in_room(room.symbol))]
        if 2 <= len(inside) <= 10:
            ds = {o.symbol: math.dist(o.center, room.center) for o in inside}
            ranked = sorted(ds, key=lambda s: (ds[s], s))
            out.append(Candidate(
                CATEGORY, "room_objects_by_distance", f"{room.symbol}_objects_by_distance",
                f"List the objects in room {room.symbol} by increasing distance from the room's "
                f"center. {_LIST}",
                f"{room_objects_match(room.symbol, 'o')} MATCH (r:Room {{nodeSymbol: "
                f"'{room.symbol}'}}) WITH DISTINCT o, r ORDER BY point.distance(o.center, "
                "r.center) RETURN collect(o.nodeSymbol) AS objects",
                ranked, ("distance",), near_tie(list(ds.values()), "two distances"),
                fact=("room_objects_by_distance", room.symbol),
                needs=Needs(hops=2, distance=True, order=True), defines=("in_room", "distance")))
    return out


def _more(view: GraphView, rng: Random) -> list[Candidate]:
    """Classes by count, rooms by distance from an object, rooms by adjacency degree."""
    out: list[Candidate] = []
    counts = Counter(o.class_name for o in view.label("Object"))
    if 2 <= len(counts) <= MAX_ITEMS:
        out.append(Candidate(
            CATEGORY, "classes_by_count", "classes_by_count",
            "List the object classes from most to fewest objects; break ties by class name, "
            "ascending. Answer with a list of class names.",
            "MATCH (o:Object) WITH o.class AS class, count(o) AS objects "
            "ORDER BY objects DESC, class RETURN collect(class) AS classes",
            sorted(counts, key=lambda c: (-counts[c], c)), ("ties", "counting"),
            fact=("classes_by_count",), needs=Needs(aggregate=True, order=True)))
    rooms = view.label("Room")
    if 2 <= len(rooms) <= MAX_ITEMS:
        degree = {r.symbol: len(view.same_layer(r.symbol)) for r in rooms}
        out.append(Candidate(
            CATEGORY, "rooms_by_degree", "rooms_by_degree",
            "List all rooms from most to fewest adjacent rooms (a room joined to no other room "
            f"counts 0). {BY_SYMBOL} {_LIST}",
            "MATCH (r:Room) OPTIONAL MATCH (r)-[:ROOM_CONNECTED]-(n:Room) "
            "WITH r, count(DISTINCT n) AS degree ORDER BY degree DESC, r.nodeSymbol "
            "RETURN collect(r.nodeSymbol) AS rooms",
            sorted(degree, key=lambda r: (-degree[r], r)), ("ties", "adjacency"),
            fact=("rooms_by_degree",),
            needs=Needs(hops=1, aggregate=True, order=True, steps=("outer_join",)),
            defines=("adjacent",)))
        for obj in sample(rng, view.label("Object"), 25):
            ds = {r.symbol: math.dist(r.center, obj.center) for r in rooms}
            out.append(Candidate(
                CATEGORY, "rooms_by_distance", f"rooms_by_distance_from_{obj.symbol}",
                f"List all rooms by increasing distance of their centers from object "
                f"{obj.symbol}. {_LIST}",
                f"MATCH (o:Object {{nodeSymbol: '{obj.symbol}'}}), (r:Room) "
                "WITH r, point.distance(r.center, o.center) AS d ORDER BY d "
                "RETURN collect(r.nodeSymbol) AS rooms",
                sorted(ds, key=lambda s: (ds[s], s)), ("distance",),
                near_tie(list(ds.values()), "two distances"),
                fact=("rooms_by_distance", obj.symbol), needs=Needs(distance=True, order=True),
                defines=("distance",)))
    return out
