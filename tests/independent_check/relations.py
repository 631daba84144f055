"""The relations the questions define in words, implemented from those words:

* "An object is in a room when the room CONTAINS a place or mesh place that CONTAINS the
  object" (`objects_in_room`, `rooms_of`);
* "Two rooms are adjacent when a ROOM_CONNECTED relationship joins them" (`adjacent`);
* "Between rooms [mesh places], a path follows ROOM_CONNECTED [MESH_PLACE_CONNECTED]
  relationships in either direction; its hop count is their number" (`hop_count`,
  `shortest_routes`), "and a room is within k hops of another when a path of at most k hops
  joins them (a room is never within k hops of itself)" (`within_hops`);
* "Distances are Euclidean, between the nodes' `center` points" (`distance`);
* rankings, with a tie reported rather than broken silently (`ranked`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from itertools import pairwise

from tests.independent_check.answers import Ambiguous
from tests.independent_check.graph import Node, SceneGraph

PLACE_KINDS = ("place", "mesh place")
# Two measures closer than this are a tie: no ordering of them is the text's.
TIE = 1e-9


def objects_in_room(graph: SceneGraph, room: str) -> set[str]:
    graph.node(room, "room")
    return {
        child
        for place in graph.children.get(room, ())
        if graph.nodes[place].kind in PLACE_KINDS
        for child in graph.children.get(place, ())
        if graph.nodes[child].kind == "object"
    }


def rooms_of(graph: SceneGraph, obj: str) -> set[str]:
    graph.node(obj, "object")
    return {
        room
        for place in graph.parents.get(obj, ())
        if graph.nodes[place].kind in PLACE_KINDS
        for room in graph.parents.get(place, ())
        if graph.nodes[room].kind == "room"
    }


def adjacent(graph: SceneGraph, room: str) -> set[str]:
    graph.node(room, "room")
    return set(graph.neighbours["ROOM_CONNECTED"].get(room, ()))


def objects_of_class(graph: SceneGraph, label: str) -> set[str]:
    return {n.symbol for n in graph.of_kind("object") if n.label == label}


def _distances(graph: SceneGraph, relation: str, start: str) -> dict[str, int]:
    """Breadth-first hop counts from `start` over `relation`, either direction."""
    joins = graph.neighbours[relation]
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in joins.get(here, ()):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def within_hops(graph: SceneGraph, relation: str, start: str, k: int) -> set[str]:
    return {n for n, hops in _distances(graph, relation, start).items() if 0 < hops <= k}


def hop_count(graph: SceneGraph, relation: str, a: str, b: str) -> int:
    hops = _distances(graph, relation, a).get(b)
    if hops is None:
        raise Ambiguous(f"no chain of {relation} relationships joins {a} and {b}")
    return hops


def shortest_routes(graph: SceneGraph, relation: str, a: str, b: str) -> list[list[str]]:
    """Every shortest route from a to b (both ends included)."""
    from_a = _distances(graph, relation, a)
    if b not in from_a:
        return []
    joins = graph.neighbours[relation]

    def back(node: str) -> list[list[str]]:
        if node == a:
            return [[a]]
        return [[*route, node] for prev in sorted(joins.get(node, ()))
                if from_a.get(prev) == from_a[node] - 1 for route in back(prev)]

    return back(b)


def distance(p: tuple[float, ...], q: tuple[float, ...]) -> float:
    return math.sqrt(sum((u - v) ** 2 for u, v in zip(p, q, strict=True)))


def ranked(items: Iterable[Node], measure: Callable[[Node], float], what: str,
           descending: bool = False, needed: int | None = None) -> list[Node]:
    """Nodes ordered by `measure`; raises Ambiguous when two of the first `needed` (all when
    None), or the last needed one and the next, have the same measure."""
    order = sorted(items, key=measure, reverse=descending)
    count = len(order) if needed is None else min(needed + 1, len(order))
    for first, second in pairwise(order[:count]):
        if abs(measure(first) - measure(second)) <= TIE:
            raise Ambiguous(f"{first.symbol} and {second.symbol} tie on {what} "
                            f"({measure(first):.6f})")
    return order
