"""A pattern comprehension used as a list: `[(r)-[:ROOM_CONNECTED]->(n:Room) | n.nodeSymbol]`.

Kuzu and Ladybug have no list-valued subquery, but where the rows before the projection are
each a distinct binding of named variables, the list is what an OPTIONAL MATCH and a collect()
grouped by those variables give:

    MATCH (r:Room {nodeSymbol: 'R2'}) RETURN [(r)-[:ROOM_CONNECTED]->(n:Room) | n.nodeSymbol] AS ns
 -> MATCH (r:Room {nodeSymbol: 'R2'}) OPTIONAL MATCH (r)-[:ROOM_CONNECTED]->(n:Room)
    WITH r, collect(n.nodeSymbol) AS _pc1 RETURN _pc1 AS ns

That is faithful only when (checked here, else the comprehension is left to be refused):
- every clause before the projection is a MATCH whose nodes and relationships all have names,
  from the start or from a WITH that aggregates or is DISTINCT (so no two rows are equal and
  grouping by the variables in scope keeps every row);
- the projection neither aggregates nor spells a `*`;
- the mapped value is never NULL (collect() skips NULLs, a comprehension keeps them): a node of
  the pattern, or its nodeSymbol, class, name or center (or a field of the center), which every
  node has, a literal, or a list or map (a value even when it holds NULLs).

A value that is not NULL where the pattern matched nothing (a literal, a list or map, a node in
scope before it) is collected as `CASE WHEN m IS NULL THEN NULL ELSE value END` on a node `m`
the pattern binds (an anonymous one is named), so a row without a match collects nothing.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import groups, has_aggregate
from dsgqa.dialect.trees import (
    NON_NULL_LITERALS,
    Splice,
    all_named,
    call,
    child_of,
    clone,
    function_name,
    hops,
    is_optional,
    name,
    name_elements,
    null_when_null,
    own_node,
    splice_clauses,
    substitute,
    tree,
    var,
    window,
)
from dsgqa.dialect.types import ALWAYS_SET, POINT_FIELDS, UNKNOWN
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "pattern comprehension->OPTIONAL MATCH + collect"


def _comprehensions(node: object, found: list[tuple[Tree, int]]) -> None:
    """(parent, index) of each pattern comprehension under `node`, not inside size() (which
    counts matches) unless it is a COUNT's DISTINCT or cut rows (`collect_subqueries.py`)."""
    if not isinstance(node, Tree) or node.data == "subquery":
        return
    for i, child in enumerate(node.children):
        if not isinstance(child, Tree):
            continue
        if child.data in ("list_comp", "list_comp_map") and isinstance(child.children[0], Tree) \
                and child.children[0].data == "pattern_predicate":
            is_size = node.data == "call" and function_name(node.children[0]).lower() == "size"
            if not is_size or getattr(child, "ranked", None):   # a COUNT's distinct rows
                found.append((node, i))
            continue
        _comprehensions(child, found)


def _never_null(mapping: object, pattern_nodes: set[str], pattern_rels: set[str]) -> bool:
    if not isinstance(mapping, Tree):
        return False
    if mapping.data == "call" and function_name(mapping.children[0]).lower() == "elementid":
        # a UNION's rows counted (`collect_subqueries.py`): an element of the pattern's own
        return len(mapping.children) == 2 and mapping.children[1].data == "var" \
            and plain_name(mapping.children[1].children[0]) in pattern_nodes | pattern_rels
    if mapping.data == "var":
        return plain_name(mapping.children[0]) in pattern_nodes
    if mapping.data == "prop" and mapping.children[0].data == "var":
        return plain_name(mapping.children[0].children[0]) in pattern_nodes \
            and plain_name(mapping.children[1]) in ALWAYS_SET
    if mapping.data == "prop" and _never_null(mapping.children[0], pattern_nodes, set()) \
            and plain_name(mapping.children[0].children[1]) == "center":
        return plain_name(mapping.children[1]) in POINT_FIELDS   # `m.center.z`
    # A list or map is a value even when it holds NULLs (`[m.nodeSymbol, m.name]`).
    return mapping.data in ("list_literal", "map_literal", "map_projection", *NON_NULL_LITERALS)


def _null_when_unmatched(mapping: Tree, new_nodes: set[str]) -> bool:
    """Whether `mapping` is a node the pattern binds or a property (of a property) of one,
    which is NULL on the row of an OPTIONAL MATCH that matched nothing."""
    while mapping.data == "prop":
        mapping = mapping.children[0]
    return mapping.data == "var" and plain_name(mapping.children[0]) in new_nodes


def _own_hop(chain: Tree, names: FreshNames) -> str | None:
    """A relationship of `chain` that no earlier clause binds, an anonymous one named for it;
    None where every one is named (and so may be bound before) or has a length range."""
    for rel in chain.children[1::2]:
        detail = child_of(rel, "rel_detail")
        if detail is None:
            detail = tree("rel_detail")
            rel.children.insert(1, detail)
        if child_of(detail, "var_length") is not None:
            continue
        if not (detail.children and isinstance(detail.children[0], Tree)
                and detail.children[0].data == "name"):
            made = names.fresh("_pr")
            detail.children.insert(0, name(made))
            return made
    return None


def _matched_only(mapping: Tree, chain: Tree, new_nodes: set[str],
                  names: FreshNames) -> Tree | None:
    """`mapping`, NULL where the OPTIONAL MATCH matched nothing: tested on a node the pattern
    binds, an anonymous one named for it, else on one of its fixed-length relationships
    (`[(r)-[:T]->(n) | 1]` with r and n both bound before). None where it has neither, so the
    unmatched row cannot be told apart."""
    witness = own_node(chain, new_nodes, names, "_pn") or _own_hop(chain, names)
    return None if witness is None else null_when_null(var(witness), mapping)


def _sorted(ranked: list[Tree], scope: list[str], mapping: Tree, names: FreshNames,
            alias: tuple[str, Tree] | None) -> tuple[list[Tree], Tree]:
    """A COLLECT's ORDER BY: the matches sorted in a WITH before the collect() (the order
    barrier keeps the order into it); the WITH and the value's name in it. A sort key naming
    the RETURN's alias reads the returned value."""
    order = next((c for c in ranked if c.data == "order"), None)
    if order is None:
        return [], mapping
    value = names.fresh("_pv")
    keys = []
    items = [tree("proj_item", var(v)) for v in scope] + [tree("proj_item", mapping, name(value))]
    for sort_item in order.children:
        key = names.fresh("_pk")
        sort_key = sort_item.children[0]
        if alias is not None:
            sort_key = substitute(clone(sort_key), {alias[0]: alias[1]})
        items.append(tree("proj_item", sort_key, name(key)))
        keys.append(tree("sort_item", var(key), *sort_item.children[1:]))
    return [tree("with_clause", tree("projection", tree("proj_items", *items),
                                     tree("order", *keys)))], var(value)


def _carries_scope(clause: Tree) -> bool:
    """A WITH that neither groups nor drops a name: `*`, or every name in scope as it is."""
    projection = clause.children[0]
    if groups(projection):
        return False
    items = child_of(projection, "proj_items").children
    if any(isinstance(item, Token) for item in items):   # WITH *
        return True
    kept = {plain_name(item.children[0].children[0]) for item in items
            if isinstance(item, Tree) and item.children[0].data == "var"
            and (len(item.children) == 1 or plain_name(item.children[1])
                 == plain_name(item.children[0].children[0]))}
    return set(getattr(projection, "scope_before", {None: None})) <= kept


def _one_row(projection: Tree) -> bool:
    """Whether a projection keeps one row at most (`LIMIT 1`), which has no order to lose."""
    limit = child_of(projection, "limit")
    return limit is not None and limit.children[0].data == "int_lit" \
        and int(str(limit.children[0].children[0])) <= 1


def _distinct_rows(before: list[Tree]) -> bool:
    """Whether the rows `before` gives are each a distinct binding of the names in scope, and
    in no order a later projection keeps: MATCHes with every element named, from the start or
    from a WITH that groups (aggregates or is DISTINCT: its rows differ in their keys, which
    it keeps in scope); a WITH that keeps every name (and may filter, sort and cut) keeps them
    distinct. An ORDER BY in the last WITH must have a MATCH after it, which leaves the order
    open (`result_order.py`), or keep one row: the OPTIONAL MATCH and collect() would lose it."""
    distinct, ordered = True, False
    for clause in before:
        if not isinstance(clause, Tree):
            return False
        if clause.data == "match":
            distinct, ordered = distinct and all_named(clause), False
        elif clause.data == "with_clause" and (groups(clause.children[0])
                                               or (distinct and _carries_scope(clause))):
            projection = clause.children[0]
            distinct = True
            ordered = child_of(projection, "order") is not None and not _one_row(projection)
        else:
            return False
    return bool(before) and distinct and not ordered


def _named_matches(before: list[Tree], projection: Tree, names: FreshNames) -> bool:
    """Where only MATCHes come before a projection holding a pattern comprehension and some
    of their nodes or relationships have no name: name them (their rows are then distinct
    bindings) and add them to the projection's scope; whether it did. Not where an anonymous
    relationship has a variable length (its name would be a list to the passes before)."""
    found: list[tuple[Tree, int]] = []
    _comprehensions(child_of(projection, "proj_items"), found)
    if not found or not before or any(c.data != "match" or is_optional(c) for c in before) \
            or any("var_length" in parts and "name" not in parts for match in before
                   for _left, _rel, _right, parts in hops(child_of(match, "pattern_list"))) \
            or any(len(p.children) == 3 for m in before
                   for p in child_of(m, "pattern_list").children):   # a named path
        return False
    given: dict[str, str] = {}
    for match in before:
        given |= name_elements(match, names, "_row")
    projection.scope_before = {  # type: ignore[attr-defined]
        **getattr(projection, "scope_before", {}), **given}
    return _distinct_rows(before)


def refuse_ranked_leftovers(root: Tree) -> None:
    """A COLLECT with ORDER BY, SKIP or LIMIT this module could not rewrite: its order would
    be lost, so it is refused."""
    if any(getattr(node, "ranked", None) for node in root.iter_subtrees()):
        raise DialectError("COLLECT { } with DISTINCT, ORDER BY, SKIP or LIMIT outside a "
                           "projection whose earlier clauses are MATCHes with every element "
                           "named")


def collect_pattern_comprehensions(root: Tree, names: FreshNames,
                                   chain_of: object) -> bool:
    """Rewrite the comprehensions that qualify, in place; True when one did. `chain_of` turns a
    `pattern_predicate` into a `chain` (the rewriter's own node reader)."""
    def matched_first(clauses: list[Tree], k: int) -> Splice | None:
        clause = clauses[k]
        if clause.data not in ("with_clause", "return_clause"):
            return None
        projection = clause.children[0]
        if not _distinct_rows(clauses[:k]) and not _named_matches(clauses[:k], projection, names):
            return None
        items = child_of(projection, "proj_items")
        if any(isinstance(c, Token) for c in items.children) or has_aggregate(items):
            return None
        found: list[tuple[Tree, int]] = []
        _comprehensions(items, found)
        known = dict(getattr(projection, "scope_before", {}))
        scope = list(known)
        new_clauses: list[Tree] = []
        for parent, index in found:
            comprehension = parent.children[index]
            chain = chain_of(comprehension.children[0])  # type: ignore[operator]
            pattern_nodes = {plain_name(c.children[0]) for c in chain.children
                             if c.data == "node_pattern" and c.children
                             and isinstance(c.children[0], Tree)
                             and c.children[0].data == "name"}
            mapping = comprehension.children[-1]
            where = comprehension.children[1] if comprehension.data == "list_comp" \
                and len(comprehension.children) == 3 else None
            if comprehension.data == "list_comp" and len(comprehension.children) == 2:
                continue  # [(a)-->(b) WHERE p]: a list of paths, left to be refused
            pattern_rels = {plain_name(d.children[0]) for d in chain.iter_subtrees()
                            if d.data == "rel_detail" and d.children
                            and isinstance(d.children[0], Tree) and d.children[0].data == "name"}
            if not _never_null(mapping, pattern_nodes, pattern_rels):
                continue
            new_nodes = pattern_nodes - set(scope)
            if not _null_when_unmatched(mapping, new_nodes):
                # A value that is not NULL where nothing matched (a literal, a list or map, an
                # outer node's property): the unmatched row's would be collected.
                mapping = _matched_only(mapping, chain, new_nodes, names)
                if mapping is None:
                    continue
            column = names.fresh("_pc")
            match = tree("match", Token("OPTIONAL", "OPTIONAL"),
                         tree("pattern_list", tree("pattern", chain)))
            # the names before it, as the annotator leaves them on a written clause: later
            # passes read them (`outer_values.py` moves an outer value its WHERE reads)
            match.scope_before = {v: known.get(v, UNKNOWN) for v in scope}  # type: ignore[attr-defined]
            if where is not None:
                match.children.append(tree("where", where))
            carried = [tree("proj_item", var(v)) for v in scope]
            ranked = getattr(comprehension, "ranked", None)
            sorted_rows: list[Tree] = []
            if ranked is not None:
                sorted_rows, mapping = _sorted(ranked, scope, mapping, names,
                                               getattr(comprehension, "ranked_alias", None))
            collect = tree("call_distinct", var("collect"), Token("DISTINCT", "DISTINCT"),
                           mapping) if any(c.data == "distinct" for c in ranked or ()) \
                else call("collect", mapping)
            collected = tree("proj_item", window(collect, ranked or ()), name(column))
            new_clauses += [match, *sorted_rows, tree("with_clause", tree(
                "projection", tree("proj_items", *carried, collected)))]
            scope.append(column)
            parent.children[index] = var(column)
        return (k, new_clauses, True) if new_clauses else None
    return splice_clauses(root, matched_first)
