"""Ladybug only: keep `WITH ... ORDER BY ... SKIP/LIMIT` ordered when an aggregation follows.

Ladybug 0.22.0's optimizer (RemoveUnnecessaryOrderByOptimizer) drops an ORDER BY that sits below
an aggregation without grouping keys, reasoning that `count(*)` does not care about order. It
walks down through projections, filters and the LIMIT to find it, and removes the sort but keeps
the LIMIT. So on Ladybug

    MATCH (o:Object) WITH o ORDER BY o.x DESC LIMIT 3 RETURN collect(o.nodeSymbol)

collects three arbitrary objects in scan order (Kuzu 0.11.3 and Neo4j: the three largest, largest
first), and `head(collect(..))` after `ORDER BY ... SKIP 0` gives the first row scanned.

The walk stops at an UNWIND. So right after such a WITH this pass adds

    UNWIND [0] AS _order1

which gives each row exactly one row back, in the order it came, and binds a generated name that
nothing reads and `RETURN *` / `WITH *` never show (the star is spelled out, as for the other
generated names). Rows, their order, SKIP and LIMIT are untouched: only the plan changes, and
the sort is no longer below the aggregation with nothing but projections and filters between.

The barrier goes after every ordered WITH that a later WITH or RETURN of the same query part
aggregates over (an aggregate anywhere in its items, grouped or not: the grouped form is not
affected in 0.22.0, but one rule is easier to trust than one that follows an optimizer's
heuristics). Kuzu never gets it.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import int_lit, is_distinct, name, tree
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "WITH ORDER BY->UNWIND barrier"
# Aggregating functions of Neo4j and of Kuzu's dialect (count(*) is a `call_star`).
AGGREGATES = frozenset({"count", "collect", "sum", "avg", "min", "max", "stdev", "stdevp",
                        "percentilecont", "percentiledisc"})


def _projection(clause: Tree) -> Tree:
    return clause.children[0]


def _is_ordered_with(clause: object) -> bool:
    return isinstance(clause, Tree) and clause.data == "with_clause" and any(
        isinstance(c, Tree) and c.data == "order" for c in _projection(clause).children)


def _aggregates(clause: object) -> bool:
    """Whether a WITH or RETURN aggregates in its items (subquery bodies excluded: an aggregate
    there runs over the subquery's own rows)."""
    if not (isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause")):
        return False
    items = next(c for c in _projection(clause).children
                 if isinstance(c, Tree) and c.data == "proj_items")
    return has_aggregate(items)


def is_aggregate_call(node: Tree) -> bool:
    """Whether `node` is a call of an aggregate function (`count(*)`, `sum(DISTINCT x)`)."""
    if node.data not in ("call", "call_star", "call_distinct"):
        return False
    callee = node.children[0]
    return isinstance(callee, Tree) and callee.data == "var" \
        and plain_name(callee.children[0]).lower() in AGGREGATES


def has_aggregate(node: object) -> bool:
    if not isinstance(node, Tree) or node.data == "subquery":
        return False
    return is_aggregate_call(node) or any(has_aggregate(child) for child in node.children)


def groups(projection: Tree) -> bool:
    """Whether a projection makes rows of its own (it aggregates or is DISTINCT): what came
    before it, its row order and its variables, is not what comes after."""
    return is_distinct(projection) or has_aggregate(projection)


def _barrier(variable: str) -> Tree:
    return tree("unwind", tree("list_literal", int_lit(0)), name(variable))


def add_order_barriers(single_query: Tree, names: FreshNames) -> bool:
    """Insert the barrier after each ordered WITH that a later clause aggregates over; True
    when the query changed."""
    clauses = single_query.children
    changed = False
    i = 0
    while i < len(clauses):
        if _is_ordered_with(clauses[i]) and any(_aggregates(c) for c in clauses[i + 1:]):
            clauses.insert(i + 1, _barrier(names.fresh("_order")))
            changed = True
            i += 1
        i += 1
    return changed
