"""A WITH of constants only that is DISTINCT, skips or limits (Kuzu and Ladybug bug).

Both engines ignore the DISTINCT, SKIP and LIMIT of a WITH whose items read no variable
(measured on both: `MATCH (r:Room) WITH 0 AS x LIMIT 2 RETURN count(*)` gave 5 where Neo4j
gives 2, `WITH DISTINCT 0 AS x` kept every row, `WITH 0 AS x SKIP 3` skipped none). Neo4j's
WITH keeps one row per distinct value and cuts the rows as written. So:

    WITH DISTINCT 0 AS x        ->  WITH 0 AS x, count(*) AS _distinct1 WITH x
    WITH 0 AS x SKIP 1 LIMIT 2  ->  WITH * SKIP 1 LIMIT 2 WITH 0 AS x

(grouping by the constants keeps one row, none where no row came; a `WITH *` cuts the rows
the engines do count). An ORDER BY with them is left as it is: the engines cut sorted rows.
The WITH's WHERE stays on the WITH that names the items, after the cut, as Neo4j applies it.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    child_of,
    item_name,
    name,
    read_back,
    reads,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "WITH of constants with DISTINCT, SKIP or LIMIT->two WITHs"


def _constant_items(items: Tree) -> bool:
    """Whether every item of a projection reads no variable and aggregates nothing."""
    return all(isinstance(item, Tree) and not reads(item, into_subqueries=True)
               and not has_aggregate(item) for item in items.children)


def _split(clause: Tree, names: FreshNames) -> list[Tree]:
    """The WITHs that stand for `clause` (module docstring)."""
    projection = clause.children[0]
    items = child_of(projection, "proj_items")
    passed = tree("projection", tree("proj_items", *(read_back(item) for item in items.children)))
    distinct = any(isinstance(c, Token) and c.type == "DISTINCT" for c in projection.children)
    if distinct:   # group by the constants: one row, or none
        projection.children = [c for c in projection.children if isinstance(c, Tree)]
        counted = tree("call_star", var("count"), Token("STAR", "*"))
        items.children.append(tree("proj_item", counted, name(names.fresh("_distinct"))))
        return [tree("with_clause", projection), tree("with_clause", passed, *clause.children[1:])]
    cut = [c for c in projection.children if isinstance(c, Tree) and c.data in ("skip", "limit")]
    projection.children = [c for c in projection.children if c not in cut]
    every = tree("projection", tree("proj_items", Token("STAR", "*")), *cut)
    return [tree("with_clause", every), clause]


def cut_constant_projections(root: Tree, names: FreshNames) -> bool:
    """Rewrite each such WITH in place; True when one changed."""
    changed = False
    for part in root.iter_subtrees():
        if part.data != "single_query":
            continue
        clauses: list[object] = []
        for i, clause in enumerate(part.children):
            if i == 0 or not (isinstance(clause, Tree) and clause.data == "with_clause"):
                clauses.append(clause)
                continue
            projection = clause.children[0]
            items = child_of(projection, "proj_items")
            kinds = {c.data if isinstance(c, Tree) else c.type for c in projection.children}
            if items is None or any(isinstance(c, Token) for c in items.children) \
                    or "order" in kinds or not kinds & {"DISTINCT", "skip", "limit"} \
                    or None in (item_name(c) for c in items.children) \
                    or not _constant_items(items):
                clauses.append(clause)
                continue
            clauses.extend(_split(clause, names))
            changed = True
        part.children = clauses
    return changed
