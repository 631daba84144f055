"""A WITH's WHERE reading a variable the WITH does not pass on.

Neo4j lets the WHERE (and the ORDER BY) of a WITH that neither aggregates nor is DISTINCT read
the variables in scope before it, not only those it projects:

    MATCH (n:Room) WITH n.nodeSymbol AS s WHERE n.class = 'kitchen' RETURN s

Kuzu 0.11.3 and Ladybug 0.22.0 see only the projected names there ("Variable n is not in
scope"), which was charged to the model as a syntax error. So such a WITH passes the variables
its WHERE reads on as well, and a WITH right after it drops them again, leaving the names Neo4j
leaves:

    WITH n.nodeSymbol AS s, n WHERE n.class = 'kitchen' WITH s

Read on the translation, after every pass; a WITH with `*` already passes everything on.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.order_barrier import groups
from dsgqa.dialect.trees import child_of, declared_names, item_name, reads, tree, var

REWRITE = "WITH ... WHERE reading an earlier variable->passed on, then dropped"
def _projected(items: Tree) -> list[str] | None:
    """The names a WITH's items make, in order; None when one has no name (or for `*`)."""
    if any(not isinstance(item, Tree) for item in items.children):
        return None
    names = [item_name(item) for item in items.children]
    return None if None in names else names   # type: ignore[return-value]


def _widen(clause: Tree, earlier: set[str]) -> Tree | None:
    """The WITH dropping the extra names again, after widening `clause`; None if not needed."""
    projection = clause.children[0]
    where = child_of(clause, "where")
    if where is None or groups(projection):
        return None
    items = child_of(projection, "proj_items")
    names = _projected(items)
    if names is None:
        return None
    missing = sorted((reads(where.children[0]) & earlier) - set(names))
    if not missing:
        return None
    items.children.extend(tree("proj_item", var(name)) for name in missing)
    return tree("with_clause", tree("projection", tree("proj_items", *[
        tree("proj_item", var(name)) for name in names])))


def widen_with_wheres(root: Tree) -> bool:
    """Rewrite in place (see the module); whether anything changed."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query") or not any(
                isinstance(c, Tree) and c.data == "with_clause" and child_of(c, "where")
                is not None for c in part.children):
            continue   # no WITH ... WHERE: nothing to read the names for
        earlier: set[str] = set()
        at = 0
        while at < len(part.children):
            clause = part.children[at]
            if isinstance(clause, Tree) and clause.data == "with_clause":
                narrowing = _widen(clause, earlier)
                if narrowing is not None:
                    part.children.insert(at + 1, narrowing)
                    changed = True
            if isinstance(clause, Tree):
                earlier |= declared_names(clause)
            at += 1
    return changed
