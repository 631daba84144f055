"""An aggregate a lambda walks, as in `WITH r, [x IN collect(o) WHERE .. | ..] AS high`.

Models write the grouped list straight into a comprehension, a quantifier or `reduce()`. Neo4j
aggregates first and then evaluates the lambda on each group's list. The engines cannot hold an
aggregate inside a lambda, and the comprehension over a computed list is refused
(`captures.py`). So the projection becomes two, which is what Neo4j's reading of it is:

    WITH r, [x IN collect(o) WHERE p(x, r) | f(x)] AS high, count(*) AS n ORDER BY n
 -> WITH r, collect(o) AS _agg1, count(*) AS _agg2
    WITH r, [x IN _agg1 WHERE p(x, r) | f(x)] AS high, _agg2 AS n ORDER BY n

Every aggregate of the projection (its ORDER BY's too) moves to the first, grouped by the same
keys; the ORDER BY, SKIP, LIMIT and WHERE stay on the second. Only where the grouping keys are
variables or aliased and every item holding an aggregate is aliased (a RETURN's column names
stay), and the projection is not DISTINCT.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import BINDERS, child_of, clone, name, tree, var
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "aggregate a lambda walks->WITH of its own"


def _walks_aggregate(items: Tree) -> bool:
    return any(sub.data in BINDERS and isinstance(sub.children[0], Tree)
               and sub.children[0].data == "in_" and has_aggregate(sub.children[0].children[1])
               for sub in items.iter_subtrees())


def _key(item: Tree) -> Tree | None:
    """The name a grouping item passes on under (`r`, `x AS k`), or None."""
    if len(item.children) == 2:
        return item.children[1]
    expr = item.children[0]
    return expr.children[0] if expr.data == "var" else None


def _replace_aggregates(node: object, found: list[tuple[str, Tree]],
                        names: FreshNames) -> object:
    if not isinstance(node, Tree) or node.data == "subquery":   # a subquery aggregates its own
        return node
    if is_aggregate_call(node):
        fresh = names.fresh("_agg")
        found.append((fresh, node))
        return var(fresh)
    node.children = [_replace_aggregates(c, found, names) for c in node.children]
    return node


def _split(clause: Tree, names: FreshNames) -> list[Tree] | None:
    projection = clause.children[0]
    if any(isinstance(c, Token) for c in projection.children):   # DISTINCT
        return None
    items = child_of(projection, "proj_items")
    if any(not isinstance(i, Tree) for i in items.children) or not _walks_aggregate(items):
        return None   # `*`, or nothing to do
    keys = [i for i in items.children if not has_aggregate(i.children[0])]
    if any(_key(k) is None for k in keys) \
            or any(len(i.children) != 2 for i in items.children if i not in keys):
        return None
    found: list[tuple[str, Tree]] = []
    second_items = []
    for item in items.children:
        if item in keys:
            second_items.append(tree("proj_item", var(clone(_key(item)))))
        else:
            second_items.append(tree("proj_item", _replace_aggregates(item.children[0], found,
                                                                      names),
                                     item.children[1]))
    rest = [_replace_aggregates(c, found, names) for c in projection.children
            if isinstance(c, Tree) and c.data != "proj_items"]
    first = tree("with_clause", tree("projection", tree(
        "proj_items", *(clone(k) for k in keys),
        *(tree("proj_item", call_tree, name(fresh)) for fresh, call_tree in found))))
    second = tree(clause.data, tree("projection", tree("proj_items", *second_items), *rest),
                  *clause.children[1:])
    return [first, second]


def hoist_lambda_aggregates(root: Tree, names: FreshNames) -> bool:
    """Split each such projection (module docstring) in place; whether one was."""
    changed = False
    for single in list(root.iter_subtrees()):
        if single.data != "single_query":
            continue
        out: list[object] = []
        for clause in single.children:
            made = _split(clause, names) if isinstance(clause, Tree) \
                and clause.data in ("with_clause", "return_clause") else None
            if made is None:
                out.append(clause)
            else:
                out += made
                changed = True
        single.children = out
    return changed

