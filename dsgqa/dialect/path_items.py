"""Kuzu only: a path a WITH passes on is named with AS.

Kuzu 0.11.3's binder refuses a WITH that passes a path on as it is, by name or in a star
("Expression in WITH must be aliased (use AS)": `MATCH p = (a)-->(b) WITH a, p ORDER BY
length(p) ...`, and every `WITH *` with a path in scope, the ones the translator adds included),
and runs the same WITH with `p AS p` (sorted, DISTINCT, grouped too). So such an item gets its
own name as alias, and a star with a path in scope is spelled out, every name in scope. Ladybug
0.22.0 runs both forms.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    child_of,
    declared_names,
    item_name,
    name,
    tree,
    union_parts,
    var,
)

REWRITE = "path passed on by WITH->p AS p"


def _bare(item: object, paths: set[str]) -> bool:
    return isinstance(item, Tree) and len(item.children) == 1 \
        and item.children[0].data == "var" and plain_name(item.children[0].children[0]) in paths


def _with(clause: Tree, scope: set[str], paths: set[str]) -> tuple[set[str], set[str], bool]:
    """Fix one WITH; (the names in scope after it, the paths among them, whether it changed)."""
    items = child_of(clause.children[0], "proj_items")
    star = bool(items.children) and isinstance(items.children[0], Token)
    changed = False
    if star and paths:
        items.children = [tree("proj_item", var(n)) for n in sorted(scope)] + items.children[1:]
        changed = True
    after, kept = (set(scope), set(paths)) if star else (set(), set())
    for item in items.children:
        if not isinstance(item, Tree):
            continue
        if _bare(item, paths):
            item.children.append(name(plain_name(item.children[0].children[0])))
            changed = True
        named = item_name(item)
        if named is None:
            continue
        after.add(named)
        value = item.children[0]
        if value.data == "var" and plain_name(value.children[0]) in paths:
            kept.add(named)
        else:
            kept.discard(named)
    return after, kept, changed


def alias_path_items(root: Tree) -> bool:
    """Apply the pass to each part of the query; True when something changed."""
    changed = False
    for part in union_parts(root):
        scope: set[str] = set()
        paths: set[str] = set()
        for clause in part.children:
            if not isinstance(clause, Tree):
                continue
            if clause.data == "match":
                patterns = child_of(clause, "pattern_list")
                scope |= declared_names(patterns)
                paths |= {plain_name(p.children[0]) for p in patterns.children
                          if len(p.children) == 3}
            elif clause.data == "unwind":
                scope.add(plain_name(clause.children[1]))
                paths.discard(plain_name(clause.children[1]))
            elif clause.data == "with_clause":
                scope, paths, fixed = _with(clause, scope, paths)
                changed |= fixed
    return changed
