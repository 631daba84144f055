"""Patterns of one correlated match that start from two outer nodes (Kuzu and Ladybug bug).

Neo4j matches an OPTIONAL MATCH, and the MATCH of an EXISTS / COUNT / COLLECT subquery, once
per incoming row, with every outer variable its patterns name bound to that row's value. Both
engines get a pattern list wrong when two of its comma-separated patterns each start from a
different node bound before it. Measured on the example graph (Neo4j's counts from the JSON):

    MATCH (a:Room)-[:ROOM_CONNECTED]->(b:Room)
    OPTIONAL MATCH (a)-[:CONTAINS]->(x:MeshPlace), (b)-[:CONTAINS]->(y:MeshPlace)
    WHERE x.class = y.class RETURN count(*)             -- Neo4j 1832, Ladybug 12590

(Ladybug takes y from every room's mesh places), and

    MATCH (a:Room {nodeSymbol: 'R2'})-[:ROOM_CONNECTED]->(b:Room)
    RETURN b.nodeSymbol, COUNT { MATCH (a)-[:CONTAINS]->(x:MeshPlace),
                                       (b)-[:CONTAINS]->(y:MeshPlace)
                                 WHERE y.center.z > a.center.z }
    -- Neo4j R1 286, R3 132, R4 0; both engines three times that (R2's three outgoing rows)

A CALL body becomes such an OPTIONAL MATCH (`call_subqueries.py`), so it is wrong the same way.
A plain MATCH, one chain through both nodes, and patterns that all start from one outer node
are right. So in every later pattern, an outer node the first pattern with an outer node does
not name gets a new variable, tied to the outer one by id in the WHERE:

    (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) WHERE t
    ->  (a)-[:CONTAINS]->(x), (_node1)-[:CONTAINS]->(y) WHERE (t) AND id(_node1) = id(b)

which matches the same rows in Neo4j (the node with b's id is b; a NULL b has no id and
matches nothing, as a NULL outer node does). Both engines then give Neo4j's rows, except Kuzu
in an OPTIONAL MATCH: there `RETURN count(*)` after the tied form gave no row at all, and the
form as written lost rows (`[[null, 0]]` for two rooms) or counted 11754 for 1832 where the
WHERE reads an outer node. So on Kuzu such an OPTIONAL MATCH is refused (`dialect`).

In an EXISTS, COUNT or COLLECT subquery the tie is compared with true, `(id(_node1) = id(b)) =
true` (the same value): as a bare equality the engines plan it as a join key, which in a COUNT
gave a row another row's count (`count_keys.py`) and in an EXISTS fails on both engines
("unordered_map::at", so refused), as in

    MATCH (a:Room)-[:ROOM_CONNECTED]->(b) WHERE EXISTS { MATCH (a)-[:CONTAINS]->(x), (b)<--(y) }

Compared with true, both give Neo4j's rows on the example graph (EXISTS in WHERE, in RETURN,
under NOT, with a full body, inside a COUNT or a pattern comprehension's WHERE, from three
outer nodes, with b NULL). Read on the translation, after every pass.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.computed_nodes import tie_by_id
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import (
    child_of,
    declared_outside_subqueries,
    is_optional,
    name,
    named_node_patterns,
    outermost_subqueries,
    projected_names,
    query_parts,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "second outer node of a correlated pattern list->id() equality"


class _Anchors:
    """One translation's walk: the fresh names, and whether the engine is Kuzu."""

    def __init__(self, names: FreshNames, target: str) -> None:
        self.names, self.kuzu = names, target == "kuzu"


def anchor_outer_nodes(root: Tree, names: FreshNames, target: str) -> bool:
    """Rewrite in place (see the module); whether anything changed. Raises `DialectError` for
    such an OPTIONAL MATCH on Kuzu."""
    walk = _Anchors(names, target)
    changed = False
    for part in query_parts(root):
        changed |= _single_query(part, set(), walk, correlated=False)
    return changed


def _scope_before(node: Tree, tracked: set[str]) -> set[str]:
    """The names in scope before a clause: the annotator's, where it left them."""
    known = getattr(node, "scope_before", None)
    return set(known) if known is not None else tracked


def _single_query(part: Tree, outer: set[str], walk: _Anchors, correlated: bool) -> bool:
    """One part of a query (`correlated`: a subquery's body, run per outer row)."""
    scope = set(outer)
    changed = False
    for clause in part.children:
        if not isinstance(clause, Tree):
            continue
        if clause.data == "match":
            before = _scope_before(clause, scope)
            pattern_list = child_of(clause, "pattern_list")
            own = declared_outside_subqueries(pattern_list)
            changed |= _subqueries(child_of(clause, "where"), before | own, walk)
            if correlated or is_optional(clause):
                changed |= _anchor(clause, before, walk, in_subquery=correlated)
            scope = before | own
        elif clause.data in ("with_clause", "return_clause"):
            projection = clause.children[0]
            before = _scope_before(projection, scope)
            items = child_of(projection, "proj_items")
            after = projected_names(items, before) if items is not None else before
            changed |= _subqueries(projection, before | after, walk)
            changed |= _subqueries(child_of(clause, "where"), after, walk)
            scope = after
        elif clause.data == "unwind":
            changed |= _subqueries(clause.children[0], scope, walk)
            scope = scope | {plain_name(clause.children[1])}
        else:
            scope = scope | declared_outside_subqueries(clause)
    return changed


def _subqueries(node: Tree | None, outer: set[str], walk: _Anchors) -> bool:
    """The subqueries under `node` (not inside another), each seeing `outer`."""
    changed = False
    for subquery in outermost_subqueries(node) if node is not None else []:
        body = subquery.children[1]
        if body.data == "subquery_pattern":
            own = declared_outside_subqueries(child_of(body, "pattern_list"))
            changed |= _subqueries(child_of(body, "where"), outer | own, walk)
            changed |= _anchor(body, outer, walk, in_subquery=True)
        else:
            for part in query_parts(body):
                changed |= _single_query(part, outer, walk, correlated=True)
    return changed


def _anchor(holder: Tree, outer: set[str], walk: _Anchors, in_subquery: bool) -> bool:
    """Tie the later patterns' other outer nodes by id in `holder` (a MATCH, or a subquery's
    pattern; `in_subquery`: of an EXISTS, COUNT or COLLECT, where the tie is compared with
    true); whether one was."""
    patterns = child_of(holder, "pattern_list").children
    if len(patterns) < 2 or not outer:
        return False
    kept: set[str] | None = None
    renamed: dict[str, str] = {}
    for pattern in patterns:
        nodes = [n for n in named_node_patterns(pattern) if plain_name(n.children[0]) in outer]
        if kept is None:
            if nodes:
                kept = {plain_name(n.children[0]) for n in nodes}
            continue
        for node in nodes:
            old = plain_name(node.children[0])
            if old not in kept:
                renamed.setdefault(old, walk.names.fresh("_node"))
                node.children[0] = name(renamed[old])
    if not renamed:
        return False
    if walk.kuzu and holder.data == "match" and is_optional(holder):
        raise DialectError("an OPTIONAL MATCH (or CALL { } body) whose patterns start from two "
                           "nodes bound before it, on Kuzu (it matches them wrong)")
    tie_by_id(holder, renamed, with_true=in_subquery)
    return True
