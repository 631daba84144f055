"""A variable-length relationship variable read as the list of relationships it is in Neo4j.

In `MATCH (a)-[rs:ROOM_CONNECTED*1..3]->(b)`, Neo4j binds `rs` to a list of relationships, so
`size(rs)`, `rs[0]`, `last(rs)` and `[r IN rs | type(r)]` are list operations. The engines bind
a recursive relationship, which no list function takes ("Function SIZE did not receive correct
arguments: Actual: (RECURSIVE_REL)", held-out hl57); `rels(rs)` is its list. So every read of
such a variable outside a pattern becomes `relationships(rs)` (which the translation spells
`rels(rs)`), except a WITH item passing it on under its
own name (it stays the engines' recursive relationship, and later reads are rewritten the same
way); under another name (`WITH rs AS hops`) the list is what is passed on. Only where the
name is that relationship: in its own UNION part, until a WITH drops it.

On Kuzu 0.11.3 `rels()` of the NULL an OPTIONAL MATCH that found nothing binds is `[]`, not
NULL (measured: `MATCH (r:Room) OPTIONAL MATCH (r)-[e:CONTAINS*1..2]->(x:Object {class:
'nothing'}) RETURN size(rels(e)), rels(e) IS NULL` is `0, false` on every room; `e IS NULL` is
true there, and Ladybug 0.22.0's `rels()` is NULL). Neo4j binds NULL, so `size(e)` is NULL and
`e IS NULL` true. On Kuzu the list of such a variable is read as `CASE WHEN e IS NULL THEN NULL
ELSE rels(e) END`.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    call,
    child_of,
    hops,
    is_optional,
    item_name,
    null_when_null,
    union_parts,
    var,
)

REWRITE = "variable-length relationship variable->rels()"
# Trees that bind names or spell patterns: their variables are no reads.
_NOT_READS = frozenset({"pattern_list", "pattern_predicate", "subquery"})


def _hop_variables(match: Tree) -> set[str]:
    """The variable-length relationships a MATCH names, a `shortestPath()`'s too (a list of
    relationships in Neo4j as well)."""
    patterns = child_of(match, "pattern_list")
    found = {plain_name(parts["name"]) for _left, _rel, _right, parts in hops(patterns)
             if "var_length" in parts and "name" in parts}
    for pattern in patterns.children:
        if pattern.children[-1].data == "path_function":
            found |= {plain_name(detail.children[0])
                      for detail in pattern.children[-1].iter_subtrees()
                      if detail.data == "rel_detail" and child_of(detail, "var_length")
                      and isinstance(detail.children[0], Tree)
                      and detail.children[0].data == "name"}
    return found


def _passed_on(clause: Tree, live: set[str]) -> set[str]:
    """The variable-length relationships a WITH or RETURN passes on under their own names."""
    kept: set[str] = set()
    for item in child_of(clause.children[0], "proj_items").children:
        if not isinstance(item, Tree):   # `*`
            kept |= live
        elif item.children[0].data == "var" and item_name(item) in live \
                and plain_name(item.children[0].children[0]) == item_name(item):
            kept.add(item_name(item))   # type: ignore[arg-type]
    return kept


def _as_lists(node: Tree, hop_names: set[str], nullable: set[str]) -> bool:
    """Rewrite the reads under `node`; those of a name in `nullable` keep its NULL."""
    changed = False
    for i, child in enumerate(node.children):
        if not isinstance(child, Tree) or child.data in _NOT_READS:
            continue
        if child.data == "var" and plain_name(child.children[0]) in hop_names:
            passed_on = node.data == "proj_item" and (
                len(node.children) == 1 or plain_name(node.children[1]) in hop_names)
            if not passed_on:
                hop = plain_name(child.children[0])
                node.children[i] = call("relationships", var(hop))
                if hop in nullable:
                    node.children[i] = null_when_null(var(hop), node.children[i], always=True)
                changed = True
        else:
            changed |= _as_lists(child, hop_names, nullable)
    return changed


def read_hops_as_lists(root: Tree, target: str = "kuzu") -> bool:
    """Rewrite the reads in place (before the types are annotated); True when one changed.
    Each UNION part on its own, clause by clause: a name is such a relationship from its MATCH
    until a WITH or RETURN drops it (a later part or clause may use it for another value).
    On Kuzu (`target`) the list of a name an OPTIONAL MATCH bound keeps its NULL."""
    changed = False
    for part in union_parts(root):
        live: set[str] = set()
        optional: set[str] = set()
        for clause in part.children:
            if not isinstance(clause, Tree):
                continue
            if clause.data == "match":
                found = _hop_variables(clause)
                live |= found
                if target == "kuzu" and is_optional(clause):
                    optional |= found
            if live:
                changed |= _as_lists(clause, live, optional)
            if clause.data in ("with_clause", "return_clause"):
                live = _passed_on(clause, live)
                optional &= live
    return changed
