"""A property the layout stores on other labels only, read from a node that cannot have it.

Heracles stores `bbox_center` and `bbox_dim` on objects only. Neo4j answers `r.bbox_center`
of a room with NULL (so `WHERE r.bbox_center IS NULL` holds for every room, and
`count(m.bbox_dim)` over mesh places is 0); the engines refuse the query ("Cannot find property
bbox_center"), which charged the model with a query Neo4j answers. Where every label the
variable's patterns allow lacks the key, the read becomes a NULL of the property's type
(`CAST(NULL AS STRUCT(x DOUBLE, y DOUBLE, z DOUBLE))` for a point); its fields read NULL through
`null_struct.py`'s guard on Kuzu.

`properties(r).bbox_dim` and `properties(r)['bbox_dim']` read the same key of the same node.

Only for a name that stands for a node wherever it is read (`trees.node_names`: no WITH or UNWIND
alias gives it to something else), so the labels its patterns allow are the node's; each UNION
part on its own. A key the layout has nowhere stays the engines' `schema` error.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    binds,
    call,
    child_of,
    function_name,
    name,
    node_names,
    pattern_labels,
    read_key,
    tree,
)
from dsgqa.dialect.types import NODE_KEYS, OBJECT_KEYS, POINT_PROPERTIES, UNKNOWN, ctype

REWRITE = "absent property->typed NULL"
POINT_STRUCT = "STRUCT(x DOUBLE, y DOUBLE, z DOUBLE)"


def _keys(label: str) -> tuple[str, ...]:
    return OBJECT_KEYS if label == "Object" else NODE_KEYS


def _outer_labels(root: Tree) -> dict[str, frozenset[str]]:
    """The labels the query's own MATCH patterns (not a subquery's) allow each node name: what
    a subquery reading that name sees, where the annotator typed nothing. A name a lambda binds
    anywhere is left out."""
    labels: dict[str, frozenset[str]] = {}
    for single in root.iter_subtrees_topdown():
        if single.data != "single_query":
            continue
        for clause in single.children:
            if not (isinstance(clause, Tree) and clause.data == "match"):
                continue
            for node in child_of(clause, "pattern_list").iter_subtrees_topdown():
                named = [c for c in node.children if isinstance(c, Tree) and c.data == "name"] \
                    if node.data == "node_pattern" else []
                allowed = pattern_labels(node) if named else None
                if allowed is not None:
                    key = plain_name(named[0])
                    labels[key] = labels.get(key, allowed) & allowed
    for sub in root.iter_subtrees_topdown():
        for bound in binds(sub):
            labels.pop(bound, None)
    return labels


def null_absent_properties(root: Tree) -> bool:
    """Rewrite each such read in place (module docstring); whether there was one. Each part of
    a UNION is read on its own, with the labels of its own patterns (the annotator's labels are
    the whole query's)."""
    query = next(sub for sub in root.iter_subtrees_topdown() if sub.data == "query")
    parts = [c for c in query.children if isinstance(c, Tree) and c.data == "single_query"]
    changed = False
    for part in parts:
        changed |= _null_in(part, own_labels=len(parts) > 1)
    return changed


def _node_of(base: object) -> object:
    """The node whose property a key read reads: `n` of `n.k`, and of `properties(n).k` or
    `properties(n)['k']` (a missing map key is NULL in Neo4j as well)."""
    if isinstance(base, Tree) and base.data == "call" and len(base.children) == 2 \
            and isinstance(base.children[0], Tree) \
            and function_name(base.children[0]).lower() == "properties":
        return base.children[1]
    return base


def _null_in(part: Tree, own_labels: bool) -> bool:
    nodes: set[str] | None = None
    outer: dict[str, frozenset[str]] | None = None
    changed = False
    for sub in part.iter_subtrees_topdown():
        if sub.data not in ("prop", "index"):
            continue
        base = _node_of(sub.children[0])
        key = read_key(sub)
        if key is None or key not in OBJECT_KEYS or not isinstance(base, Tree) \
                or base.data != "var" or ctype(base) not in ("node", UNKNOWN):
            continue
        if ctype(base) == "node" and not own_labels:
            labels = getattr(base, "labels", None)
        else:   # in a subquery, or a UNION part: the part's MATCH's node of that name
            if outer is None:
                outer = _outer_labels(part)
            labels = outer.get(plain_name(base.children[0]))
        if not labels or any(key in _keys(label) for label in labels):
            continue
        if nodes is None:
            nodes = node_names(part)
        if plain_name(base.children[0]) not in nodes:
            continue
        kuzu_type = POINT_STRUCT if key in POINT_PROPERTIES else "STRING"
        null = call("CAST", tree("cast_arg", tree("null_lit"), name(kuzu_type)))
        sub.data, sub.children = "paren", [null]
        changed = True
    return changed
