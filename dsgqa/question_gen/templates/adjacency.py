"""Adjacency: adjacent rooms, connected mesh places and places, neighbours within k hops.

Every question asks about the scene (which nodes a connection joins), never about how a store
keeps an undirected edge (Heracles stores one relationship each way, so "relationships pointing
out of a node" would test that convention, not the scene). A count, the listing and "within k
hops" with no node added by the k-th hop restate one fact (the node's neighbourhood), so they
share a fact key. "Within k hops" is not asked once k
reaches the start's eccentricity (never at or beyond the diameter): the answer would be every
node the start reaches, whatever k.
"""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import MAX_ITEMS, sample, set_fact
from dsgqa.question_gen.view import GraphView

CATEGORY = "adjacency"


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    rooms = [r.symbol for r in view.label("Room")]
    for room in rooms:
        near = view.same_layer(room)
        fact = set_fact("rooms_within", room, near)
        everyone = _every_other_room(near, rooms)
        out.append(Candidate(
            CATEGORY, "adjacent_rooms", f"rooms_adjacent_to_{room}",
            f"Which rooms are adjacent to room {room}? Answer with a set of nodeSymbols (an "
            "empty set if none).",
            f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED]-(n:Room) "
            "RETURN collect(DISTINCT n.nodeSymbol) AS rooms",
            near, ("sets", "undirected"), fact=fact, needs=Needs(hops=1),
            defines=("adjacent",)))
        out.append(Candidate(
            CATEGORY, "room_degree", f"room_degree_{room}",
            f"How many rooms are adjacent to room {room}?",
            f"MATCH (:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED]-(n:Room) "
            "RETURN count(DISTINCT n) AS rooms",
            len(near), ("undirected",), fact=fact, degenerate=everyone,
            needs=Needs(hops=1, aggregate=True), defines=("adjacent",)))
        hops = view.hops(room)
        for k in (2, 3):
            if k >= max(hops.values()):
                continue
            within = {n for n, d in hops.items() if 0 < d <= k}
            out.append(Candidate(
                CATEGORY, "rooms_within_k", f"rooms_within_{k}_of_{room}",
                f"Which rooms are within {_hops(k)} of room {room}? Answer with a set of "
                "nodeSymbols.",
                f"MATCH (a:Room {{nodeSymbol: '{room}'}})-[:ROOM_CONNECTED*1..{k}]-(n:Room) "
                "WHERE n <> a RETURN DISTINCT n.nodeSymbol AS room",
                within, ("sets", "undirected", "k_hops"),
                fact=set_fact("rooms_within", room, within), needs=_within(k),
                defines=("room_hops",)))
    places = [p.symbol for p in view.label("MeshPlace")]
    for place in sample(rng, places, 25):
        near = view.same_layer(place)
        out.append(Candidate(
            CATEGORY, "mesh_place_neighbours", f"mesh_neighbours_of_{place}",
            f"How many mesh places are connected to mesh place {place}?",
            f"MATCH (:MeshPlace {{nodeSymbol: '{place}'}})-[:MESH_PLACE_CONNECTED]-(n:MeshPlace) "
            "RETURN count(DISTINCT n) AS places",
            len(near), ("undirected",), fact=set_fact("mesh_places_within", place, near),
            needs=Needs(hops=1, aggregate=True), defines=("mesh_connected",)))
        k = rng.choice((1, 2, 3))
        hops = view.hops(place)
        within = {n for n, d in hops.items() if 0 < d <= k}
        if 0 < len(within) <= MAX_ITEMS and k < max(hops.values()):
            out.append(Candidate(
                CATEGORY, "mesh_places_within_k", f"mesh_within_{k}_of_{place}",
                f"Which mesh places are within {_hops(k)} of mesh place {place}? Answer with a "
                "set of nodeSymbols.",
                f"MATCH (a:MeshPlace {{nodeSymbol: '{place}'}})"
                f"-[:MESH_PLACE_CONNECTED*1..{k}]-(n:MeshPlace) "
                "WHERE n <> a RETURN DISTINCT n.nodeSymbol AS place",
                within, ("sets", "undirected", "k_hops"),
                fact=set_fact("mesh_places_within", place, within), needs=_within(k),
                defines=("mesh_hops",)))
    for place in sample(rng, [p.symbol for p in view.label("Place")], 15):
        near = view.same_layer(place)
        out.append(Candidate(
            CATEGORY, "place_neighbours", f"place_neighbours_of_{place}",
            f"How many places are connected to place {place}?",
            f"MATCH (:Place {{nodeSymbol: '{place}'}})-[:PLACE_CONNECTED]-(n:Place) "
            "RETURN count(DISTINCT n) AS places",
            len(near), ("undirected", "places"), fact=set_fact("places_within", place, near),
            needs=Needs(hops=1, aggregate=True), defines=("place_connected",)))
    return out


def _within(k: int) -> Needs:
    """Within k hops: k hops, and beyond one hop the closure over every path length."""
    return Needs(hops=k, steps=("closure",) if k > 1 else ())


def _every_other_room(near: set[str], rooms: list[str]) -> str:
    """Why a neighbour count is degenerate: the room is adjacent to every other room."""
    return "every other room" if len(rooms) > 2 and len(near) == len(rooms) - 1 else ""


def _hops(k: int) -> str:
    """'1 hop', '2 hops'."""
    return f"{k} hop" if k == 1 else f"{k} hops"
