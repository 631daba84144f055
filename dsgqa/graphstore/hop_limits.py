"""Hop limits for variable-length patterns, derived from the relationships the database holds.

The schema text asks models to bound their variable-length patterns. A fixed bound (`*..10`)
silently makes every question whose shortest path is longer unanswerable for a model that obeys:
the pattern just returns no rows. So each relationship type's limit is the longest shortest path
over that type in this graph (its subgraph's diameter, taken both undirected and along the
relationships' direction, whichever is longer), plus a margin so the text does not state the
diameter itself, capped where the engine refuses larger bounds.

The exact diameter costs a breadth-first search per node; above `EXACT_NODES` nodes a type gets
a cheap bound that is never below it instead (twice one node's eccentricity per component, and
along the direction the longest chain when the type has no cycle), so a large graph's schema
text stays quick to write and still never states a limit a path exceeds.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Mapping

#: Subgraphs up to this many nodes get their exact diameter; larger ones a safe upper bound.
EXACT_NODES = 1500
#: Margin above the longest shortest path: a quarter of it, at least `MIN_MARGIN` hops.
MARGIN_SHARE = 0.25
MIN_MARGIN = 2


def longest_shortest_paths(edges: Iterable[tuple[str, str, str] | list[str]]) -> dict[str, int]:
    """Per relationship type, the most hops a shortest path over that type alone takes between
    two nodes it joins at all; `edges` are (type, source symbol, target symbol) rows."""
    out: dict[str, set[str]] = defaultdict(set)
    both: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    forward: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for edge_type, source, target in edges:
        if source == target:
            continue
        forward[edge_type][source].add(target)
        both[edge_type][source].add(target)
        both[edge_type][target].add(source)
        out[edge_type].add(source)
    longest = {}
    for edge_type, adjacency in both.items():
        if len(adjacency) <= EXACT_NODES:
            undirected = max(_eccentricity(adjacency, node) for node in adjacency)
            directed = max(_eccentricity(forward[edge_type], node) for node in out[edge_type])
        else:
            undirected = _undirected_bound(adjacency)
            directed = _directed_bound(forward[edge_type], adjacency, undirected)
        longest[edge_type] = max(undirected, directed)
    return dict(sorted(longest.items()))


def _undirected_bound(adjacency: Mapping[str, set[str]]) -> int:
    """At least the diameter: no two nodes of a component are further apart than twice one
    node's eccentricity (through that node)."""
    bound, seen = 0, set()
    for node in sorted(adjacency):
        if node not in seen:
            reach = _distances(adjacency, node)
            seen.update(reach)
            bound = max(bound, 2 * max(reach.values()))
    return bound


def _directed_bound(forward: Mapping[str, set[str]], adjacency: Mapping[str, set[str]],
                    undirected: int) -> int:
    """At least the longest shortest path along the direction: the undirected bound when every
    relationship has its reverse (the *_CONNECTED layout), else the longest chain of an acyclic
    type, else (a large cyclic directed type) the exact search."""
    if all(source in forward.get(target, ()) for source, targets in forward.items()
           for target in targets):
        return undirected
    chain = _longest_chain(forward, adjacency)
    if chain is not None:
        return chain
    return max(_eccentricity(forward, node) for node in forward)


def _longest_chain(forward: Mapping[str, set[str]],
                   adjacency: Mapping[str, set[str]]) -> int | None:
    """Hops of the longest directed path, or None when the relationships form a cycle."""
    indegree = dict.fromkeys(adjacency, 0)
    for targets in forward.values():
        for target in targets:
            indegree[target] += 1
    queue = deque(n for n, d in indegree.items() if d == 0)
    depth = dict.fromkeys(adjacency, 0)
    done = 0
    while queue:
        here = queue.popleft()
        done += 1
        for there in forward.get(here, ()):
            depth[there] = max(depth[there], depth[here] + 1)
            indegree[there] -= 1
            if indegree[there] == 0:
                queue.append(there)
    return max(depth.values(), default=0) if done == len(adjacency) else None


def hop_limit(longest: int, engine_max: int | None = None) -> int:
    """The bound a schema text may state for a type whose longest shortest path is `longest`."""
    limit = longest + max(MIN_MARGIN, round(longest * MARGIN_SHARE))
    return limit if engine_max is None else min(limit, engine_max)


def hop_limits(edges: Iterable[tuple[str, str, str] | list[str]],
               engine_max: int | None = None) -> dict[str, int]:
    """`hop_limit` of every relationship type that has edges."""
    return {t: hop_limit(n, engine_max) for t, n in longest_shortest_paths(edges).items()}


def _eccentricity(adjacency: Mapping[str, set[str]], start: str) -> int:
    """Hops from `start` to the farthest node it reaches."""
    return max(_distances(adjacency, start).values())


def _distances(adjacency: Mapping[str, set[str]], start: str) -> dict[str, int]:
    """Breadth-first hop counts from `start` to every node it reaches (itself at 0)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in adjacency.get(here, ()):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen
