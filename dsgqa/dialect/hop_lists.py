"""A variable-length relationship variable read as the list of relationships it is in Neo4j.

In `MATCH (a)-[rs:ROOM_CONNECTED*1..3]->(b)`, Neo4j binds `rs` to a list of relationships, so
`size(rs)`, `rs[0]`, `last(rs)` and `[r IN rs | type(r)]` are list operations. The engines bind
a recursive relationship, which no list function takes ("Function SIZE did not receive correct
arguments: Actual: (RECURSIVE_REL)", held-out hl57); `rels(rs)` is its list. So every read of
such a variable outside a pattern becomes `relationships(rs)` (which the translation spells
`rels(rs)`), except a WITH item passing it on under its
own name (it stays the engines' recursive relationship, and later reads are rewritten the same
way); under another name (`WITH rs AS hops`) the list is what is passed on.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import call, child_of, hops, var

REWRITE = "variable-length relationship variable->rels()"
# Trees that bind names or spell patterns: their variables are no reads.
_NOT_READS = frozenset({"pattern_list", "pattern_predicate", "subquery"})


def _hop_variables(root: Tree) -> set[str]:
    names: set[str] = set()
    for match in root.iter_subtrees_topdown():
        if match.data == "match":
            for _left, _rel, _right, parts in hops(child_of(match, "pattern_list")):
                if "var_length" in parts and "name" in parts:
                    names.add(plain_name(parts["name"]))
    return names


def _as_lists(node: Tree, hop_names: set[str]) -> bool:
    changed = False
    for i, child in enumerate(node.children):
        if not isinstance(child, Tree) or child.data in _NOT_READS:
            continue
        if child.data == "var" and plain_name(child.children[0]) in hop_names:
            passed_on = node.data == "proj_item" and (
                len(node.children) == 1 or plain_name(node.children[1]) in hop_names)
            if not passed_on:
                node.children[i] = call("relationships", var(plain_name(child.children[0])))
                changed = True
        else:
            changed |= _as_lists(child, hop_names)
    return changed


def read_hops_as_lists(root: Tree) -> bool:
    """Rewrite the reads in place (before the types are annotated); True when one changed."""
    hop_names = _hop_variables(root)
    return bool(hop_names) and _as_lists(root, hop_names)
