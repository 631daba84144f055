"""A COLLECT { } subquery that is a pattern comprehension in other words.

`COLLECT { MATCH (r)-[:CONTAINS]->(m:MeshPlace) WHERE m.center.z > 0 RETURN m.nodeSymbol }` is
the list `[(r)-[:CONTAINS]->(m:MeshPlace) WHERE m.center.z > 0 | m.nodeSymbol]` (the Cypher
Manual defines both as the values of the matches, in match order, with the outer variables the
pattern names bound). The engines have neither, but the translator already answers pattern
comprehensions where it can be faithful (`pattern_lists.py`), so such a subquery becomes one
before any other pass reads the tree. Only that shape: one non-optional MATCH of one path
without a path variable, an optional WHERE, and a RETURN of one value without an aggregate; any
other COLLECT stays refused. A path of one node (`MATCH (x:Object) WHERE x <> o ..`) has no
pattern comprehension to spell it, but the OPTIONAL MATCH and collect() are the same.

A RETURN's DISTINCT, ORDER BY, SKIP and LIMIT ride on the comprehension (`ranked`, with the
returned alias an ORDER BY may name): `pattern_lists.py` sorts the matches, collects the
distinct values in that order (DISTINCT keeps each value's first arrival, and ORDER BY under
DISTINCT sorts by returned values only, so sorting first and then dropping repeats is sorting the
distinct values) and slices the list; where it cannot rewrite the comprehension (inside size(),
say) the COLLECT is refused. `COUNT { .. RETURN DISTINCT x }` (or one whose RETURN sorts and
cuts) is the size of that list: the number of its rows.

`COLLECT { A UNION B }` whose parts are each such a shape is the parts' lists joined: all of
them for UNION ALL, each value's first occurrence for UNION; `COUNT { A UNION B }` is its size.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import call, child_of, function_name, tree, var

REWRITE = "COLLECT subquery->pattern comprehension"


def _comprehension(body: Tree) -> Tree | None:
    """The pattern comprehension `body` (a COLLECT's query) says, or None."""
    singles = [c for c in body.children if isinstance(c, Tree)]
    if len(singles) != 1 or singles[0].data != "single_query":
        return None
    clauses = singles[0].children
    if len(clauses) != 2 or clauses[0].data != "match" or clauses[1].data != "return_clause":
        return None
    match, ret = clauses
    if any(not isinstance(c, Tree) for c in match.children):   # OPTIONAL
        return None
    patterns = child_of(match, "pattern_list").children
    if len(patterns) != 1 or len(patterns[0].children) != 1:    # one path, no `p =`
        return None
    chain = patterns[0].children[0]
    if not (isinstance(chain, Tree) and chain.data == "chain"):
        return None
    projection = ret.children[0]
    distinct = any(not isinstance(c, Tree) for c in projection.children)
    # ORDER BY, SKIP, LIMIT (and DISTINCT, as a tree of its own)
    ranked = [c for c in projection.children if isinstance(c, Tree) and c.data != "proj_items"]
    if distinct:
        ranked.append(tree("distinct"))
    items = child_of(projection, "proj_items").children
    if len(items) != 1 or not isinstance(items[0], Tree) or has_aggregate(items[0].children[0]):
        return None
    value = items[0].children[0]
    alias = items[0].children[1] if len(items[0].children) == 2 else None
    first, *rest = chain.children
    # A node-only pattern has no expression of its own (a pattern comprehension needs a
    # relationship); its predicate holds the node alone, read by `pattern_lists.py` as a chain.
    predicate = tree("pattern_predicate", first, rest[0], tree("pattern_tail", *rest[1:])) \
        if rest else tree("pattern_predicate", first)
    where = next((c for c in match.children if c.data == "where"), None)
    made = tree("list_comp_map", predicate, value) if where is None \
        else tree("list_comp", predicate, where.children[0], value)
    if ranked:   # only `pattern_lists.py` can keep the order; anything else refuses it
        made.ranked = ranked  # type: ignore[attr-defined]
        if alias is not None:   # `RETURN x.k AS k ORDER BY k`: the ORDER BY may name it
            made.ranked_alias = (plain_name(alias), value)  # type: ignore[attr-defined]
    return made


def _returned_name(part: Tree) -> str | None:
    """The name of the one column a UNION part returns (its alias, or its text's variable);
    None for a part that ends in no RETURN (inside COUNT or EXISTS)."""
    if part.children[-1].data != "return_clause":
        return None
    item = child_of(part.children[-1].children[0], "proj_items").children[0]
    if len(item.children) == 2:
        return plain_name(item.children[1])
    value = item.children[0]
    return plain_name(value.children[0]) if value.data == "var" else None


def _counted_elements(made: Tree) -> bool:
    """Make a comprehension that returns a node or relationship of its own pattern give its
    element id instead, for counting; whether its value may be joined at all. The engines
    crash joining lists of nodes from different patterns (each lays out its own tables),
    while rows of one element are one element id each. A variable from outside the pattern
    may be any value and is left alone (the COUNT stays refused)."""
    value = made.children[-1]
    if not (isinstance(value, Tree) and value.data == "var"):
        return True
    own = {plain_name(n.children[0]) for n in made.children[0].iter_subtrees()
           if n.data in ("node_pattern", "rel_detail") and n.children
           and isinstance(n.children[0], Tree) and n.children[0].data == "name"}
    if plain_name(value.children[0]) not in own:
        return False
    made.children[-1] = call("elementId", value)
    return True


def _united(body: Tree, counting: bool) -> Tree | None:
    """`A UNION B ..` whose parts are each such a comprehension, as one list: their
    concatenation (UNION ALL keeps every row), its distinct values for UNION (Neo4j's UNION is
    DISTINCT over the parts in turn, which `list_distinct`'s first occurrences keep); None
    for any other body. The parts must return one column of one name, as Neo4j requires.
    A COLLECT of nodes or relationships stays refused; a COUNT counts their element ids."""
    unions = [c for c in body.children if isinstance(c, Tree) and c.data == "union"]
    parts = [c for c in body.children if isinstance(c, Tree) and c.data == "single_query"]
    if not unions or len({len(u.children) for u in unions}) != 1:   # UNION and UNION ALL
        return None
    lists = [_comprehension(tree("query", part)) for part in parts]
    names = {_returned_name(part) for part in parts}
    if any(made is None for made in lists) or len(names) != 1 or None in names:
        return None
    if not all(_counted_elements(made) if counting else made.children[-1].data != "var"
               for made in lists):   # type: ignore[union-attr]
        return None
    joined: Tree = lists[0]  # type: ignore[assignment]
    for made in lists[1:]:
        made.from_collect = True  # type: ignore[union-attr]
        joined = tree("arith", joined, Token("ADD_OP", "+"), made)
    lists[0].from_collect = True  # type: ignore[union-attr]
    return joined if unions[0].children else call("list_distinct", joined)


def comprehend_collect_subqueries(root: Tree) -> bool:
    """Rewrite each such COLLECT in place (module docstring); whether there was one."""
    changed = False
    for sub in list(root.iter_subtrees()):   # bottom-up: an inner COLLECT first
        keyword = function_name(sub.children[0]).lower() if sub.data == "subquery" else ""
        if keyword not in ("collect", "count"):
            continue
        body = sub.children[1]
        if not (isinstance(body, Tree) and body.data == "query"):
            continue
        united = _united(body, keyword == "count")
        if united is not None:
            if keyword == "count":   # the number of rows the union gives
                sub.data, sub.children = "call", [var("size"), united]
            else:
                sub.data, sub.children = united.data, united.children
            changed = True
            continue
        comprehension = _comprehension(body)
        if keyword == "count":
            if comprehension is not None and getattr(comprehension, "ranked", None):
                # COUNT { .. RETURN DISTINCT x } (or one that sorts and cuts): the size of
                # the list COLLECT would give; a plain RETURN is `subquery_parts.py`'s.
                sub.data, sub.children = "call", [var("size"), comprehension]
                changed = True
            continue
        if comprehension is not None:
            sub.data, sub.children = comprehension.data, comprehension.children
            sub.from_collect = True  # type: ignore[attr-defined]  # a refusal names the COLLECT
            for mark in ("ranked", "ranked_alias"):
                if hasattr(comprehension, mark):
                    setattr(sub, mark, getattr(comprehension, mark))
            changed = True
    return changed
