"""Hop limits for variable-length patterns, derived from the relationships the database holds.

The schema text asks models to bound their variable-length patterns. A fixed bound (`*..10`)
silently makes every question whose shortest path is longer unanswerable for a model that obeys:
the pattern just returns no rows. So each relationship type's limit is the longest shortest path
over that type in this graph (its subgraph's diameter, taken both undirected and along the
relationships' direction, whichever is longer), plus a margin so the text does not state the
diameter itself, capped where the engine refuses larger bounds.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Mapping

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
        undirected = max(_eccentricity(adjacency, node) for node in adjacency)
        directed = max(_eccentricity(forward[edge_type], node) for node in out[edge_type])
        longest[edge_type] = max(undirected, directed)
    return dict(sorted(longest.items()))


def hop_limit(longest: int, engine_max: int | None = None) -> int:
    """The bound a schema text may state for a type whose longest shortest path is `longest`."""
    limit = longest + max(MIN_MARGIN, round(longest * MARGIN_SHARE))
    return limit if engine_max is None else min(limit, engine_max)


def hop_limits(edges: Iterable[tuple[str, str, str] | list[str]],
               engine_max: int | None = None) -> dict[str, int]:
    """`hop_limit` of every relationship type that has edges."""
    return {t: hop_limit(n, engine_max) for t, n in longest_shortest_paths(edges).items()}


def _eccentricity(adjacency: Mapping[str, set[str]], start: str) -> int:
    """Hops from `start` to the farthest node it reaches (breadth first)."""
    seen = {start: 0}
    queue = deque([start])
    farthest = 0
    while queue:
        here = queue.popleft()
        for there in adjacency.get(here, ()):
            if there not in seen:
                seen[there] = farthest = seen[here] + 1
                queue.append(there)
    return farthest
