"""Position: centers as POINTs, nearest object to a point or to another object (among all
objects, or among a room's), highest and lowest objects, distances between two objects.

Rankings whose top two scores lie within `NEAR_TIE` and distances at the tolerance edge are
flagged, so the check drops them instead of asking a question a rounding decides.
"""

from __future__ import annotations

import math
from random import Random

from dsgqa.question_gen.candidate import (
    Candidate,
    at_tolerance_edge,
    near_tie,
    point,
    q,
)
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import room_objects_match, sample
from dsgqa.question_gen.view import GraphView

CATEGORY = "position"
_POINT = "Answer with a POINT(x y z)."


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    objects = view.label("Object")
    for room in view.label("Room"):
        out.append(Candidate(
            CATEGORY, "room_center", f"center_of_{room.symbol}",
            f"Where is the center of room {room.symbol}? {_POINT}",
            f"MATCH (r:Room {{nodeSymbol: '{room.symbol}'}}) RETURN r.center AS center",
            point(room.center), ("points",), fact=("center", room.symbol), needs=Needs()))
    for obj in sample(rng, objects, 12):
        out.append(Candidate(
            CATEGORY, "object_center", f"center_of_{obj.symbol}",
            f"Where is the center of object {obj.symbol}? {_POINT}",
            f"MATCH (o:Object {{nodeSymbol: '{obj.symbol}'}}) "
            "RETURN o.center.x AS x, o.center.y AS y, o.center.z AS z",
            point(obj.center), ("points",), fact=("center", obj.symbol), needs=Needs()))
    if len(objects) >= 3:
        for obj in sample(rng, objects, 20):
            others = [o for o in objects if o.symbol != obj.symbol]
            ds = {o.symbol: math.dist(o.center, obj.center) for o in others}
            best = min(ds, key=lambda s: (ds[s], s))
            out.append(Candidate(
                CATEGORY, "nearest_to_object", f"nearest_to_{obj.symbol}",
                f"Which object is nearest to object {obj.symbol}, not counting {obj.symbol} "
                "itself? Answer with its nodeSymbol.",
                f"MATCH (a:Object {{nodeSymbol: '{obj.symbol}'}}), (o:Object) WHERE o <> a "
                "RETURN o.nodeSymbol AS object ORDER BY point.distance(o.center, a.center) "
                "LIMIT 1",
                best, ("distance",), near_tie(sorted(ds.values())[:2], "the two nearest"),
                fact=("nearest_object", obj.symbol), needs=Needs(distance=True, order=True),
                defines=("distance",)))
        xs = [o.center[0] for o in objects]
        ys = [o.center[1] for o in objects]
        for _ in range(12):
            here = (round(rng.uniform(min(xs), max(xs)), 1),
                    round(rng.uniform(min(ys), max(ys)), 1), 0.0)
            ds = {o.symbol: math.dist(o.center, here) for o in objects}
            best = min(ds, key=lambda s: (ds[s], s))
            text = f"({here[0]}, {here[1]}, {here[2]})"
            out.append(Candidate(
                CATEGORY, "nearest_to_point", f"nearest_to_{here[0]}_{here[1]}",
                f"Which object is nearest to the point (x, y, z) = {text}? Answer with its "
                "nodeSymbol.",
                "MATCH (o:Object) RETURN o.nodeSymbol AS object ORDER BY point.distance("
                f"o.center, point({{x: {here[0]}, y: {here[1]}, z: {here[2]}}})) LIMIT 1",
                best, ("distance",), near_tie(sorted(ds.values())[:2], "the two nearest"),
                fact=("nearest_to_point", str(here[0]), str(here[1])),
                needs=Needs(distance=True, order=True), defines=("distance",)))
        for a, b in _pairs(rng, [o.symbol for o in objects], 15):
            d = math.dist(view.nodes[a].center, view.nodes[b].center)
            out.append(Candidate(
                CATEGORY, "distance_between", f"distance_{a}_{b}",
                f"How far apart are objects {a} and {b}?",
                f"MATCH (a:Object {{nodeSymbol: '{a}'}}), (b:Object {{nodeSymbol: '{b}'}}) "
                "RETURN point.distance(a.center, b.center) AS metres",
                d, ("distance",), at_tolerance_edge(d), fact=("distance", a, b),
                needs=Needs(distance=True), defines=("distance",)))
    for cls in view.classes("Object"):
        members = view.label("Object", cls)
        if len(members) < 2:
            continue
        for word, sign, order in (("highest", -1, "DESC"), ("lowest", 1, "ASC")):
            best = min(members, key=lambda o, s=sign: (s * o.center[2], o.symbol))
            out.append(Candidate(
                CATEGORY, f"{word}_of_class", f"{word}_{cls}",
                f"Which object of class '{cls}' is {word}, by the z coordinate of its center? "
                "Answer with its nodeSymbol.",
                f"MATCH (o:Object {{class: {q(cls)}}}) RETURN o.nodeSymbol AS object "
                f"ORDER BY o.center.z {order} LIMIT 1",
                best.symbol, ("height",),
                near_tie(sorted(sign * o.center[2] for o in members)[:2], "the top two heights"),
                fact=(f"{word}_of_class", cls), needs=Needs(order=True)))
    for room in view.label("Room"):
        inside = [view.nodes[o] for o in sorted(view.objects_in_room(room.symbol))]
        if len(inside) >= 2:
            best = max(inside, key=lambda o: (o.center[2], o.symbol))
            out.append(Candidate(
                CATEGORY, "highest_in_room", f"highest_in_{room.symbol}",
                f"Which object in room {room.symbol} is highest, by the z coordinate of its "
                "center? Answer with its nodeSymbol.",
                f"{room_objects_match(room.symbol)} WITH DISTINCT o ORDER BY o.center.z DESC "
                "LIMIT 1 RETURN o.nodeSymbol AS object",
                best.symbol, ("height",),
                near_tie(sorted(-o.center[2] for o in inside)[:2], "the top two heights"),
                fact=("highest_in_room", room.symbol), needs=Needs(hops=2, order=True),
                defines=("in_room",)))
    out += _nearest_in_room(view, rng)
    return out


def _nearest_in_room(view: GraphView, rng: Random) -> list[Candidate]:
    """The object of a room nearest to a given object (in that room or not)."""
    out = []
    pairs = [(room.symbol, obj.symbol) for room in view.label("Room")
             for obj in view.label("Object")
             if len(view.objects_in_room(room.symbol) - {obj.symbol}) >= 2]
    for room, obj in sample(rng, pairs, 15):
        here = view.nodes[obj].center
        ds = {o: math.dist(view.nodes[o].center, here)
              for o in view.objects_in_room(room) - {obj}}
        best = min(ds, key=lambda s: (ds[s], s))
        out.append(Candidate(
            CATEGORY, "nearest_in_room", f"nearest_in_{room}_to_{obj}",
            f"Which object in room {room} is nearest to object {obj}, not counting {obj} "
            "itself? Answer with its nodeSymbol.",
            f"{room_objects_match(room)} MATCH (a:Object {{nodeSymbol: '{obj}'}}) WHERE o <> a "
            "WITH DISTINCT o, a ORDER BY point.distance(o.center, a.center) LIMIT 1 "
            "RETURN o.nodeSymbol AS object",
            best, ("distance",), near_tie(sorted(ds.values())[:2], "the two nearest"),
            fact=("nearest_in_room", room, obj),
            needs=Needs(hops=2, distance=True, order=True), defines=("in_room", "distance")))
    return out


def _pairs(rng: Random, symbols: list[str], n: int) -> list[tuple[str, str]]:
    pairs = [(a, b) for a in symbols for b in symbols if a < b]
    return sample(rng, pairs, n)
