"""Paths: hop counts of shortest paths between rooms, mesh places, and the mesh places of two
objects; the rooms along a shortest room path when it is the only one.

A hop count is symmetric, so its fact key names the two ends in sorted order: "from a to b" and
"from b to a", and the mesh places of two objects and those places themselves, are one fact.

Pairs more than `MAX_HOPS` apart are left out: Kuzu stops unbounded variable-length patterns at
30 hops, so such a question could not be checked on the embedded engine.
"""

from __future__ import annotations

from random import Random

from dsgqa.question_gen.candidate import Candidate
from dsgqa.question_gen.difficulty import Needs
from dsgqa.question_gen.templates._common import sample
from dsgqa.question_gen.view import GraphView

CATEGORY = "paths"
MAX_HOPS = 25


def candidates(view: GraphView, rng: Random) -> list[Candidate]:
    out: list[Candidate] = []
    rooms = [r.symbol for r in view.label("Room")]
    for a in rooms:
        hops = view.hops(a)
        for b in rooms:
            if a < b and 0 < hops.get(b, 0) <= MAX_HOPS:
                out.append(Candidate(
                    CATEGORY, "room_hops", f"room_hops_{a}_{b}",
                    f"How many hops does the shortest path from room {a} to room {b} take?",
                    f"MATCH p = shortestPath((a:Room {{nodeSymbol: '{a}'}})"
                    f"-[:ROOM_CONNECTED*]-(b:Room {{nodeSymbol: '{b}'}})) RETURN length(p) AS hops",
                    hops[b], ("hops",), fact=_distance("rooms", a, b),
                    needs=_search(hops[b]), defines=("room_hops",)))
                routes = _shortest_routes(view, a, b, hops)
                if len(routes) == 1 and hops[b] >= 2:
                    out.append(Candidate(
                        CATEGORY, "room_route", f"room_route_{a}_{b}",
                        f"List the rooms along the shortest path from room {a} to room {b}, "
                        "both ends included, in order. Answer with a list of nodeSymbols.",
                        f"MATCH p = shortestPath((a:Room {{nodeSymbol: '{a}'}})"
                        f"-[:ROOM_CONNECTED*]-(b:Room {{nodeSymbol: '{b}'}})) "
                        "RETURN [n IN nodes(p) | n.nodeSymbol] AS route",
                        routes[0], ("ordered_lists",), fact=("room_route", a, b),
                        needs=Needs(hops=hops[b], order=True, steps=("shortest_path",)),
                        defines=("room_hops",)))
    places = [p.symbol for p in view.label("MeshPlace")]
    for a in sample(rng, places, 20):
        hops = view.hops(a)
        reachable = sorted(p for p, d in hops.items() if 0 < d <= MAX_HOPS)
        if reachable:
            b = rng.choice(reachable)
            out.append(Candidate(
                CATEGORY, "mesh_place_hops", f"mesh_hops_{a}_{b}",
                f"How many hops does the shortest path from mesh place {a} to mesh place {b} "
                "take?",
                f"MATCH p = shortestPath((a:MeshPlace {{nodeSymbol: '{a}'}})"
                f"-[:MESH_PLACE_CONNECTED*]-(b:MeshPlace {{nodeSymbol: '{b}'}})) "
                "RETURN length(p) AS hops",
                hops[b], ("hops",), fact=_distance("mesh_places", a, b),
                needs=_search(hops[b]), defines=("mesh_hops",)))
    single = [o.symbol for o in view.label("Object") if len(view.mesh_places_of(o.symbol)) == 1]
    for a in sample(rng, single, 15):
        (pa,) = view.mesh_places_of(a)
        hops = view.hops(pa)
        others = sorted(o for o in single if o != a
                        and 0 < hops.get(next(iter(view.mesh_places_of(o))), 0) <= MAX_HOPS)
        if others:
            b = rng.choice(others)
            (pb,) = view.mesh_places_of(b)
            out.append(Candidate(
                CATEGORY, "object_hops", f"object_hops_{a}_{b}",
                f"Objects {a} and {b} are each CONTAINED in one mesh place. How many hops does "
                "the shortest path between those two mesh places take?",
                f"MATCH (pa:MeshPlace)-[:CONTAINS]->(:Object {{nodeSymbol: '{a}'}}), "
                f"(pb:MeshPlace)-[:CONTAINS]->(:Object {{nodeSymbol: '{b}'}}) "
                "MATCH p = shortestPath((pa)-[:MESH_PLACE_CONNECTED*]-(pb)) "
                "RETURN length(p) AS hops",
                hops[pb], ("hops",), fact=_distance("mesh_places", pa, pb),
                # the path, and one CONTAINS at each end to find its mesh places
                needs=Needs(hops=hops[pb] + 2, steps=("lookup", "shortest_path")),
                defines=("mesh_hops",)))
    return out


def _search(hops: int) -> Needs:
    """A shortest path's hop count: the search, and as many hops as the path is long."""
    return Needs(hops=hops, steps=("shortest_path",))


def _distance(kind: str, a: str, b: str) -> tuple[str, ...]:
    return (f"{kind}_hops", *sorted((a, b)))


def _shortest_routes(view: GraphView, start: str, goal: str,
                     dist: dict[str, int]) -> list[list[str]]:
    """Every shortest route from start to goal (a handful at most in a room graph); `dist` is
    every node's hop count from start (`view.hops(start)`)."""

    def back(node: str) -> list[list[str]]:
        if node == start:
            return [[start]]
        return [[*route, node] for prev in sorted(view.same_layer(node))
                if dist.get(prev) == dist[node] - 1 for route in back(prev)]

    return back(goal) if goal in dist else []
