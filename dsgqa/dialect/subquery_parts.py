"""EXISTS { } and COUNT { } subqueries with a RETURN, or parts joined by UNION.

The engines take an EXISTS or COUNT subquery of one MATCH (with its WHERE) only. The Cypher
Manual lets the body be a whole query; a few such bodies say the same as that form:

- a part `MATCH .. [WHERE ..] RETURN <items>` whose RETURN neither aggregates nor limits (no
  SKIP or LIMIT) has a row for each match, so the RETURN can go: EXISTS asks whether there is a
  row, COUNT counts them (DISTINCT aside: a COUNT over `RETURN DISTINCT` stays refused);
- `EXISTS { A UNION [ALL] B }` is `EXISTS { A } OR EXISTS { B }`: a union has a row exactly
  when a part has one;
- `COUNT { A UNION ALL B }` is `COUNT { A } + COUNT { B }`. (`UNION` drops repeated rows, which
  the counts cannot see: refused.)

A RETURN that aggregates always has one row (`RETURN count(*)` of nothing is 0), so it would
make EXISTS true: such parts stay refused.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import child_of, function_name, is_distinct, item_name, tree, var

REWRITE = "EXISTS/COUNT { .. RETURN / UNION .. }->subqueries of one MATCH"


def _match_only(part: Tree, keyword: str) -> Tree | None:
    """The part as a single query of its MATCH (and WHERE), or None when it says more."""
    clauses = [c for c in part.children if isinstance(c, Tree)]
    if not clauses or clauses[0].data != "match" \
            or any(isinstance(c, Token) for c in clauses[0].children):   # OPTIONAL
        return None
    if len(clauses) == 1:
        return part
    if len(clauses) != 2 or clauses[1].data != "return_clause":
        return None
    projection = clauses[1].children[0]
    if has_aggregate(child_of(projection, "proj_items")) \
            or any(isinstance(c, Tree) and c.data in ("skip", "limit")
                   for c in projection.children) \
            or (keyword == "count" and is_distinct(projection)):
        return None
    return tree("single_query", clauses[0])


def _columns(part: Tree) -> tuple[str | None, ...]:
    """The column names a part's RETURN gives (an item's alias, or its variable's name; None
    for an expression without one)."""
    returns = [c for c in part.children if isinstance(c, Tree) and c.data == "return_clause"]
    if not returns:
        return ()
    items = child_of(returns[0].children[0], "proj_items").children
    return tuple(item_name(i) for i in items if isinstance(i, Tree))


def _split(node: Tree) -> Tree | None:
    keyword = function_name(node.children[0]).lower()
    body = node.children[1]
    if keyword not in ("exists", "count") or not (isinstance(body, Tree)
                                                  and body.data == "query"):
        return None
    parts = [c for c in body.children if isinstance(c, Tree) and c.data == "single_query"]
    unions = [c for c in body.children if isinstance(c, Tree) and c.data == "union"]
    if len(parts) == 1 and len([c for c in parts[0].children if isinstance(c, Tree)]) == 1:
        return None   # already one MATCH
    if keyword == "count" and any(not u.children for u in unions):
        return None   # UNION (not ALL) drops repeats a sum of counts would count
    if len(parts) > 1 and len({_columns(part) for part in parts}) > 1:
        return None   # Neo4j raises: the parts of a UNION must name the same columns
    simple = [_match_only(part, keyword) for part in parts]
    if any(s is None for s in simple):
        return None
    subqueries = [tree("subquery", var(function_name(node.children[0])), tree("query", s))
                  for s in simple]
    combined = subqueries[0]
    for other in subqueries[1:]:
        combined = tree("or_", combined, other) if keyword == "exists" \
            else tree("arith", combined, Token("ADD_OP", "+"), other)
    return tree("paren", combined) if len(subqueries) > 1 else combined


def split_subquery_parts(root: Tree) -> bool:
    """Rewrite each such subquery in place (module docstring); whether one changed."""
    changed = False
    for node in list(root.iter_subtrees()):   # bottom-up: an inner subquery first
        if node.data != "subquery":
            continue
        made = _split(node)
        if made is not None:
            node.data, node.children = made.data, made.children
            changed = True
    return changed
