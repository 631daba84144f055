"""Whether a query orders its result, read from its parse tree: an ORDER BY in the RETURN that
ends the query. One decision for everything that asks (execution accuracy compares an ordered
reference's rows as a sequence; the run-query stage keeps an ordered query's rows in the
engine's order and puts the rows of any other query in the canonical order).

An ORDER BY in a WITH (before an aggregation, say) orders what the next clause sees, not the
rows; after a UNION no order is defined.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of


@dataclass(frozen=True)
class ResultOrder:
    """How a query orders its rows. `keys`: the returned columns its sort keys are (by alias
    or by the same expression), so ties can be seen in the rows; None when a key is not
    returned (then ties cannot be told apart)."""

    keys: tuple[int, ...] | None


def final_order(root: Tree) -> ResultOrder | None:
    """The order of the result of the parsed query `root` (`parser.parse`), or None when the
    query does not order it."""
    query = root.children[0]
    parts = [c for c in query.children if isinstance(c, Tree)]
    if any(part.data == "union" for part in parts):
        return None
    last = parts[-1].children[-1]
    if not (isinstance(last, Tree) and last.data == "return_clause"):
        return None
    projection = last.children[0]
    order = next((c for c in projection.children if isinstance(c, Tree) and c.data == "order"),
                 None)
    if order is None:
        return None
    return ResultOrder(_key_columns(projection, order))


def _key_columns(projection: Tree, order: Tree) -> tuple[int, ...] | None:
    """The returned column each sort key is, or None when one is not returned (or `*` hides
    which columns there are)."""
    items = child_of(projection, "proj_items")
    if any(not isinstance(c, Tree) for c in items.children):  # RETURN *
        return None
    columns = [(item.children[0], plain_name(item.children[1]) if len(item.children) > 1
                else None) for item in items.children]
    keys = []
    for sort_item in order.children:
        expr = sort_item.children[0]
        alias = plain_name(expr.children[0]) if expr.data == "var" else None
        found = next((i for i, (column, name) in enumerate(columns)
                      if column == expr or (alias is not None and name == alias)), None)
        if found is None:
            return None
        keys.append(found)
    return tuple(keys)
