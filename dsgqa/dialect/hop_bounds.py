"""Variable-length upper bounds against the engines' largest one.

Kuzu and Ladybug refuse an upper bound above their `var_length_extend_max_depth` (30 unless
set), and a pattern without one stops there. Neo4j has no such bound: models write `*..50`
"to be safe", which Neo4j answers, and a shortest path of a large scene may be longer than 30
hops. So a translation says how deep it needs the engine to go (`needed_hops`), and the query
worker raises the setting for that query only (`dsgqa.graphstore.query_worker`).

The engines walk every level up to the bound, even where nothing is left to find: an unbounded
trail over the example graph's five rooms took 0.3 s at 30 levels and over 10 s at 1,000. So a
trail without an upper bound keeps the engines' 30 (`bound_trail`; a longer trail is not
found), while a shortest path, whose search stops at the first level that reaches its end,
may go to `LONGEST` (the example graph's 19-hop mesh-place path took 0.04 s either way).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import range_bounds

#: The engines' own default bound, which an unbounded trail keeps.
UNBOUNDED_TRAIL_HOPS = 30
#: The deepest a query may make the engine go; a larger bound is refused by the engine.
LONGEST = 1000

_SHORTEST_MODES = frozenset({"SHORTEST", "ALL SHORTEST"})


def bound_trail(var_length: Tree) -> None:
    """`*` / `*2..` -> `*1..30` / `*2..30` for a trail (a lower bound above 30 keeps none)."""
    span = _span(var_length)
    if span is None:
        var_length.children.append(tree_span("1", str(UNBOUNDED_TRAIL_HOPS)))
    elif span.data == "range_span":
        low, high = range_bounds(span)
        if high is None and (low or 1) <= UNBOUNDED_TRAIL_HOPS:
            span.children.append(Token("INT", str(UNBOUNDED_TRAIL_HOPS)))


def needed_hops(root: Tree) -> int | None:
    """How deep the translation needs the engine to go, where that is beyond its default:
    the largest upper bound written, and `LONGEST` for a shortest path without one (capped
    at `LONGEST`: the engine refuses a larger bound, as `dialect`); None when 30 will do."""
    need = UNBOUNDED_TRAIL_HOPS
    for var_length in root.find_data("var_length"):
        span = _span(var_length)
        high = None
        if span is not None:
            high = range_bounds(span)[1] if span.data == "range_span" \
                else int(str(span.children[0]), 0)
        if high is None and _mode(var_length) in _SHORTEST_MODES:
            high = LONGEST
        if high is not None:
            need = max(need, min(high, LONGEST))
    return need if need > UNBOUNDED_TRAIL_HOPS else None


def tree_span(low: str, high: str) -> Tree:
    return Tree("range_span", [Token("INT", low), Token("DOTDOT", ".."), Token("INT", high)])


def _span(var_length: Tree) -> Tree | None:
    return next((c for c in var_length.children
                 if isinstance(c, Tree) and c.data in ("range_span", "range_exact")), None)


def _mode(var_length: Tree) -> str:
    mode = next((c for c in var_length.children
                 if isinstance(c, Tree) and c.data == "recursion_mode"), None)
    return " ".join(str(mode.children[0]).upper().split()) if mode is not None else "WALK"
