"""A relationship variable named twice in one MATCH's patterns matches nothing.

Neo4j 5 (since 5.5) no longer rejects `MATCH (a)-[e]->(b), (b)-[e]->(a)`: a relationship
can occur once in a match (relationship uniqueness), so the pattern has no solutions, and
Neo4j warns ("A relationship is referenced more than once in the query, which leads to no
results", `RepeatedRelationshipReference`; its own linter gives the warning and no error).
Both engines reject the variable bound twice. So every later occurrence gets a new name and
the MATCH (or the subquery's pattern) `WHERE false`: no rows, or for an OPTIONAL MATCH one
row of NULLs, as in Neo4j. A subquery or WHERE may read the variable again: that is the one
the MATCH bound, and is left alone.
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of, name, rel_detail
from dsgqa.dialect.uniqueness import FreshNames
from dsgqa.dialect.unknown_names import add_false

REWRITE = "relationship variable named twice in a MATCH->no rows"
# Text in which some relationship variable may be named twice.
MAY_REPEAT = re.compile(r"\[\s*(`?\w+)\b.*\[\s*\1\b", re.DOTALL)


def _rename_repeats(pattern_list: Tree, names: FreshNames) -> bool:
    """Rename every later occurrence of a relationship variable of the same kind (one
    relationship, or a variable-length list): one of each kind is Neo4j's type mismatch,
    which `scope_errors.py` reports."""
    seen: dict[str, bool] = {}
    renamed = False
    stack = [pattern_list]
    while stack:
        sub = stack.pop()
        if sub.data in ("subquery", "map_literal", "where"):
            continue
        stack.extend(reversed([c for c in sub.children if isinstance(c, Tree)]))
        if not sub.data.startswith("rel_") or sub.data == "rel_detail":
            continue
        detail = rel_detail(sub)
        named = child_of(detail, "name") if detail is not None else None
        if named is None:
            continue
        many = child_of(detail, "var_length") is not None
        if seen.get(plain_name(named), not many) == many:
            detail.children[detail.children.index(named)] = name(names.fresh("_rel"))
            renamed = True
        else:
            seen.setdefault(plain_name(named), many)
    return renamed


def match_nothing_for_repeated_relationships(root: Tree, names: FreshNames) -> bool:
    """Rewrite in place (see the module); whether a pattern changed."""
    changed = False
    for holder in [n for n in root.iter_subtrees_topdown()
                   if n.data in ("match", "subquery_pattern")]:
        pattern_list = child_of(holder, "pattern_list")
        if pattern_list is not None and _rename_repeats(pattern_list, names):
            add_false(holder)
            changed = True
    return changed
