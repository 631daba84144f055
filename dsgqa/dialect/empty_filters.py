"""A `list_filter` over an empty computed list whose test reads the row (Kuzu and Ladybug bug).

Both engines give `list_filter(S, x -> test)` the previous row's result where S is an empty
list computed in place (`range(..)`, a slice, `list_concat`, another lambda's list) and the
test reads a variable of the row. Measured on both:

    UNWIND [3, 0, 2, 0] AS n WITH n, range(1, n) AS xs
    RETURN n, list_filter(range(0, size(xs) - 1), k -> xs[k + 1] > 0)
        -- [0, 1, 2], [0, 1, 2], [0, 1], [0, 1]: rows 2 and 4 should be []

so Neo4j's `[k IN range(0, size(xs) - 1) WHERE xs[k] > 0]` kept a room's positions for the
next, empty room (a pairwise count over rooms failed on that, or counted the room before).
A list held in a variable, `list_transform`, `list_reduce` and the quantifiers are right, and
so is the filter for every non-empty list.

So such a filter is taken only where its list has elements, the empty list itself otherwise
(which has the element type the filter would give): `CASE WHEN size(S) = 0 THEN S ELSE
list_filter(S, ..) END`. A NULL list still gives NULL. Read once every pass has run, before
the lambdas over a CASE are distributed (`lambda_sources.py`).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import bare, call, clone, function_name, int_lit, reads, tree

REWRITE = "filter over a computed list reading the row->taken only where it has elements"


def _filter_parts(node: Tree) -> tuple[object, Tree] | None:
    """(list, lambda) of a `list_filter` call, or None for anything else."""
    if node.data != "call" or not isinstance(node.children[0], Tree) or len(node.children) != 3:
        return None
    if function_name(node.children[0]).lower() != "list_filter":
        return None
    source, lam = node.children[1], node.children[2]
    if not (isinstance(lam, Tree) and lam.data == "lambda_"):
        return None
    return source, lam


def _needs_guard(source: object, lam: Tree) -> bool:
    """A computed list and a test that reads more than its own element."""
    if isinstance(bare(source), Tree) and bare(source).data == "var":  # type: ignore[union-attr]
        return False
    params = {plain_name(p) for p in lam.children[:-1]}
    return bool(reads(lam.children[-1], params))


def _guarded(node: Tree, source: object) -> Tree:
    empty = tree("compare", call("size", clone(source)), Token("EQ", "="), int_lit(0))
    return tree("case_expr", tree("case_when", empty, clone(source)), node)


class _Guard:
    def __init__(self) -> None:
        self.changed = False

    def visit(self, node: object) -> object:
        if not isinstance(node, Tree):
            return node
        node.children = [self.visit(child) for child in node.children]
        parts = _filter_parts(node)
        if parts is None or not _needs_guard(*parts):
            return node
        self.changed = True
        return _guarded(node, parts[0])


def guard_empty_filters(root: Tree) -> bool:
    """Apply the pass to the whole query, in place; whether it changed something."""
    guard = _Guard()
    root.children = [guard.visit(child) for child in root.children]
    return guard.changed
