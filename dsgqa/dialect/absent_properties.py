"""A property the layout stores on other labels only, read from a node that cannot have it.

Heracles stores `bbox_center` and `bbox_dim` on objects only. Neo4j answers `r.bbox_center`
of a room with NULL (so `WHERE r.bbox_center IS NULL` holds for every room, and
`count(m.bbox_dim)` over mesh places is 0); the engines refuse the query ("Cannot find property
bbox_center"), which charged the model with a query Neo4j answers. Where every label the
variable's patterns allow lacks the key, the read becomes a NULL of the property's type
(`CAST(NULL AS STRUCT(x DOUBLE, y DOUBLE, z DOUBLE))` for a point); its fields read NULL through
`null_struct.py`'s guard on Kuzu.

Only for a name that patterns alone bind (no WITH or UNWIND alias reuses it), so the labels its
patterns allow are the node's; each UNION part on its own. A key the layout has
nowhere stays the engines' `schema` error.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name, unquote_string
from dsgqa.dialect.trees import binds, call, child_of, name, tree
from dsgqa.dialect.types import NODE_KEYS, OBJECT_KEYS, POINT_PROPERTIES, UNKNOWN, ctype

REWRITE = "absent property->typed NULL"
POINT_STRUCT = "STRUCT(x DOUBLE, y DOUBLE, z DOUBLE)"


def _keys(label: str) -> tuple[str, ...]:
    return OBJECT_KEYS if label == "Object" else NODE_KEYS


def _aliases(root: Tree) -> set[str]:
    """Names a WITH or UNWIND gives to a value (which may be another node). A RETURN's alias is
    read by its ORDER BY only, where the annotator types it as what it holds."""
    names: set[str] = set()
    for sub in root.iter_subtrees_topdown():
        if sub.data == "with_clause":
            names.update(plain_name(item.children[1]) for item in sub.iter_subtrees_topdown()
                         if item.data == "proj_item" and len(item.children) > 1)
        elif sub.data == "unwind":
            names.add(plain_name(sub.children[1]))
    return names


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
                found = child_of(node, "node_labels") if named else None
                if found is not None:
                    allowed = frozenset(plain_name(t.children[0]) for t in found.children
                                        if isinstance(t, Tree) and t.data == "label_term")
                    key = plain_name(named[0])
                    labels[key] = labels.get(key, allowed) & allowed
    for sub in root.iter_subtrees_topdown():
        for bound in binds(sub):
            labels.pop(bound, None)
    return labels


def _read_key(node: Tree) -> str | None:
    if node.data == "prop":
        return plain_name(node.children[1])
    if node.data == "index" and isinstance(node.children[1], Tree) \
            and node.children[1].data == "str_lit":
        return unquote_string(str(node.children[1].children[0]))
    return None


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


def _null_in(part: Tree, own_labels: bool) -> bool:
    aliases: set[str] | None = None
    outer: dict[str, frozenset[str]] | None = None
    changed = False
    for sub in part.iter_subtrees_topdown():
        if sub.data not in ("prop", "index"):
            continue
        base = sub.children[0]
        key = _read_key(sub)
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
        if aliases is None:
            aliases = _aliases(part)
        if plain_name(base.children[0]) in aliases:
            continue
        kuzu_type = POINT_STRUCT if key in POINT_PROPERTIES else "STRING"
        null = call("CAST", tree("cast_arg", tree("null_lit"), name(kuzu_type)))
        sub.data, sub.children = "paren", [null]
        changed = True
    return changed
