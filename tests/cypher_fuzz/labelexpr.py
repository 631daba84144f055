"""Neo4j 5 label and type expressions for the fuzzer: draw, print, and the labels one allows.

An expression is a nested tuple: `("term", "Room")`, `("any",)` (`%`), `("not", e)`,
`("and", a, b)`, `("or", a, b)`. Every node of the layout has one label and every relationship
one type, so an expression allows exactly the names that satisfy it on their own (the Cypher
Manual's label expressions, evaluated per node).
"""

from __future__ import annotations

import random

LabelExpr = tuple
LABELS = ("Object", "Place", "MeshPlace", "Room", "Building")
REL_TYPES = ("CONTAINS", "OBJECT_CONNECTED", "PLACE_CONNECTED", "MESH_PLACE_CONNECTED",
             "ROOM_CONNECTED", "BUILDING_CONNECTED")


def allowed(e: LabelExpr, universe: tuple[str, ...]) -> frozenset[str]:
    """The names of `universe` that satisfy `e`."""
    kind = e[0]
    if kind == "term":
        return frozenset({e[1]}) & frozenset(universe)
    if kind == "any":
        return frozenset(universe)
    if kind == "not":
        return frozenset(universe) - allowed(e[1], universe)
    left, right = allowed(e[1], universe), allowed(e[2], universe)
    return left & right if kind == "and" else left | right


def render(e: LabelExpr) -> str:
    """Neo4j text; binary operands in parentheses unless they are terms, `%` or negations, so
    `|` and `&` never mix without them."""
    kind = e[0]
    if kind == "term":
        return e[1]
    if kind == "any":
        return "%"
    if kind == "not":
        inner = render(e[1])
        return "!" + (f"({inner})" if e[1][0] in ("and", "or") else inner)
    sep = "&" if kind == "and" else "|"
    parts = [render(x) if x[0] not in ("and", "or") else f"({render(x)})" for x in e[1:]]
    return sep.join(parts)


def draw(rng: random.Random, universe: tuple[str, ...], depth: int = 2) -> LabelExpr:
    """A random expression (it may allow no name at all)."""
    if depth <= 0 or rng.random() < 0.35:
        return ("any",) if rng.random() < 0.1 else ("term", rng.choice(universe))
    kind = rng.choice(("not", "not", "and", "or", "or"))
    if kind == "not":
        return ("not", draw(rng, universe, depth - 1))
    return (kind, draw(rng, universe, depth - 1), draw(rng, universe, depth - 1))


def equivalent(rng: random.Random, names: tuple[str, ...], universe: tuple[str, ...]
               ) -> LabelExpr:
    """An expression allowing exactly `names` (all of `universe` when empty), spelled one of
    several ways: the negation of the others, an alternation narrowed by `&!`, or `%`."""
    wanted = [n for n in universe if n in names] or list(universe)
    others = [n for n in universe if n not in wanted]
    alternation: LabelExpr = ("term", wanted[0])
    for name in wanted[1:]:
        alternation = ("or", alternation, ("term", name))
    if not others:
        return ("any",) if rng.random() < 0.5 else alternation
    choice = rng.randrange(3)
    if choice == 0:
        negated: LabelExpr = ("term", others[0])
        for name in others[1:]:
            negated = ("or", negated, ("term", name))
        return ("not", negated)
    if choice == 1:
        extra = rng.choice(others)
        return ("and", ("or", alternation, ("term", extra)), ("not", ("term", extra)))
    return ("and", alternation, ("any",))
