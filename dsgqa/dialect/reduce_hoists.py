"""reduce() whose step reads the row, over a list the engines' lambdas misread.

Both engines fold a list a WITH passed on (or a list of nodes or maps) wrong once the step reads
a variable of the row: `reduce(s = 0.0, z IN zs | s + abs(z - r.center.z))` after `WITH r,
collect(m.center.z) AS zs` gave R1 6.9 for 5.0 (Ladybug 0.22.0 and Kuzu 0.11.3, example graph),
and so did the fold over a positional walk written in place. What both got right, measured on
the example graph with two such folds and a third lambda in one query, is the step's values
computed by a positional walk in a WITH of their own, then folded where nothing else is read:

    WITH r, collect(m.center.z) AS zs RETURN reduce(s = 0.0, z IN zs | s + abs(z - r.center.z))
 -> WITH r, collect(m.center.z) AS zs WITH *, [z IN zs | abs(z - r.center.z)] AS _folded1
    RETURN reduce(s = 0.0, _y1 IN _folded1 | s + _y1)

A step qualifies where `reduce_folds` can take its values apart (`acc + g(x)`, `+`/`-` chains of
numbers, `*`; see there), the reduce sits in a WITH's or RETURN's items outside any other
lambda, and everything it reads is in scope before that clause. Others stay refused.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.captures import affected
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.reduce_folds import refold
from dsgqa.dialect.trees import (
    child_of,
    function_name,
    name,
    reads,
    tree,
    var,
    with_before_projections,
    without,
)
from dsgqa.dialect.types import ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "reduce() reading the row->its values in a WITH first"
# Trees whose body a lambda evaluates: a reduce inside one may read its variable.
_LAMBDAS = frozenset({"list_comp", "list_comp_map", "where_arg", "pipe_arg", "subquery"})


def _is_reduce(node: Tree) -> bool:
    return node.data == "call" and function_name(node.children[0]).lower() == "reduce" \
        and len(node.children) == 3 and isinstance(node.children[1], Tree) \
        and node.children[1].data == "compare" and node.children[1].children[0].data == "var" \
        and isinstance(node.children[2], Tree) and node.children[2].data == "pipe_arg" \
        and node.children[2].children[0].data == "in_" \
        and node.children[2].children[0].children[0].data == "var"


def _outer_reduces(node: object) -> list[Tree]:
    """The reduce() calls under `node` that no lambda holds."""
    if not isinstance(node, Tree) or node.data in _LAMBDAS:
        return []
    if _is_reduce(node):
        return [node]
    return [found for child in node.children for found in _outer_reduces(child)]


def _hoist(fold: Tree, scope: set[str], names: FreshNames) -> Tree | None:
    """The WITH item computing the fold's values, with the fold now reading them; None (the
    fold untouched) where it does not qualify."""
    accumulator = plain_name(fold.children[1].children[0].children[0])
    binding, step = fold.children[2].children
    bound, source = plain_name(binding.children[0].children[0]), binding.children[1]
    if not affected(bound, source, [without(step, accumulator)]) or has_aggregate(source) \
            or not reads(fold) <= scope or not refold(fold, names, always=True):
        return None
    values_binding = fold.children[2].children[0]
    values = values_binding.children[1]
    column = names.fresh("_folded")
    held = var(column)
    held.ctype = ctype(values)  # type: ignore[attr-defined]
    held.positions = True  # type: ignore[attr-defined]   # computed apart: walked already
    values_binding.children[1] = held
    return tree("proj_item", values, name(column))


def hoist_row_reading_folds(root: Tree, names: FreshNames) -> bool:
    """Insert the WITH for each qualifying reduce(), in place; True when one was."""
    def hoisted_in(projection: Tree, scope: set[str]) -> list[Tree]:
        return [hoisted for fold in _outer_reduces(child_of(projection, "proj_items"))
                if (hoisted := _hoist(fold, scope, names)) is not None]
    return with_before_projections(root, hoisted_in)
