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
- a part of consecutive plain MATCH clauses, `MATCH A [WHERE p] MATCH B [WHERE q]`, is one MATCH
  of the pattern list `A, B` and `WHERE p AND q`: each MATCH only filters the rows the earlier
  ones bound (a later WHERE may read their variables, which stay bound). Neo4j's relationship
  uniqueness holds within one MATCH clause only (Cypher Manual, "Paths with unique
  relationships": the same relationship is not traversed "more than once in a given MATCH
  result"; the Uniqueness GraphGist spreads a pattern over two MATCH clauses to retrace one), so
  each pattern keeps the index of the clause it came from (`clause_group`) and `uniqueness.py`
  pairs only relationships of one clause. Refused (left as written): an OPTIONAL MATCH, a
  relationship or path variable named in two clauses (a join across clauses; one pattern list
  would match nothing), and a WHERE that reads a name only a later clause binds (Neo4j's scope
  error).

A RETURN that aggregates always has one row (`RETURN count(*)` of nothing is 0), so it would
make EXISTS true: such parts stay refused.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    all_of,
    child_of,
    function_name,
    is_distinct,
    item_name,
    reads,
    tree,
    var,
)

REWRITE = "EXISTS/COUNT { .. RETURN / UNION .. }->subqueries of one MATCH"


def _element_names(match: Tree) -> tuple[set[str], set[str]]:
    """The names a MATCH's patterns declare: (nodes, relationships and paths)."""
    nodes: set[str] = set()
    others: set[str] = set()
    for sub in child_of(match, "pattern_list").iter_subtrees():
        if sub.data == "subquery":
            continue
        named = child_of(sub, "name")
        if named is None:
            continue
        if sub.data == "node_pattern":
            nodes.add(plain_name(named))
        elif sub.data in ("rel_detail", "pattern"):
            others.add(plain_name(named))
    return nodes, others


def _merged(matches: list[Tree]) -> Tree | None:
    """Consecutive plain MATCH clauses as one (module docstring), or None where that would
    not be faithful. Each pattern is marked with its clause's index for `uniqueness.py`."""
    if any(isinstance(c, Token) for m in matches for c in m.children):   # OPTIONAL
        return None
    declared = [_element_names(m) for m in matches]
    for i, (_, others) in enumerate(declared):
        if any(others & later for _, later in declared[i + 1:]):
            return None   # one relationship or path joined across clauses
    conditions = []
    for i, match in enumerate(matches):
        where = child_of(match, "where")
        if where is None:
            continue
        known = set().union(*(n | o for n, o in declared[:i + 1]))
        later = set().union(*(n | o for n, o in declared[i + 1:])) - known
        if reads(where, into_subqueries=True) & later:
            return None   # Neo4j: the name is not defined yet
        conditions.append(tree("paren", where.children[0]))
    patterns = []
    for i, match in enumerate(matches):
        for pattern in child_of(match, "pattern_list").children:
            pattern.clause_group = i  # type: ignore[attr-defined]
            patterns.append(pattern)
    merged = tree("match", tree("pattern_list", *patterns))
    if conditions:
        merged.children.append(tree("where", all_of(conditions)))
    return merged


def _match_only(part: Tree, keyword: str) -> Tree | None:
    """The part as a single query of its MATCH (and WHERE), or None when it says more."""
    clauses = [c for c in part.children if isinstance(c, Tree)]
    if not clauses or clauses[0].data != "match" \
            or any(isinstance(c, Token) for c in clauses[0].children):   # OPTIONAL
        return None
    matches = 1
    while matches < len(clauses) and clauses[matches].data == "match":
        matches += 1
    if matches > 1:
        merged = _merged(clauses[:matches])
        if merged is None:
            return None
        clauses = [merged, *clauses[matches:]]
    if len(clauses) == 1:
        return tree("single_query", clauses[0])
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
