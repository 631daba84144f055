"""Whether a query orders its result, read from its parse tree: an ORDER BY in the RETURN that
ends the query. One decision for everything that asks (execution accuracy compares an ordered
reference's rows as a sequence; the run-query stage keeps an ordered query's rows in the
engine's order and puts the rows of any other query in the canonical order).

An ORDER BY in a WITH (before an aggregation, say) orders what the next clause sees, not the
rows, unless nothing after it but projections that neither aggregate nor drop duplicates (and
their WHERE) reads the rows: `WITH o.class AS c, avg(o.center.z) AS z ORDER BY z DESC LIMIT 3
RETURN c` comes out in that order from Neo4j (its plan keeps the sort's order through such
projections, and Heracles shows the model the rows in it) and from the engines, so such a
result is ordered too. After a UNION no order is defined.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import groups
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
    order = _order(projection)
    if order is not None:
        return ResultOrder(_key_columns(projection, order))
    return _carried_order(parts[-1], projection)


def _order(projection: Tree) -> Tree | None:
    return next((c for c in projection.children if isinstance(c, Tree) and c.data == "order"),
                None)


def _keeps_order(projection: Tree) -> bool:
    """Whether a projection passes its rows on in their order: no aggregate, no DISTINCT."""
    return not groups(projection)


def _carried_order(single_query: Tree, returned: Tree) -> ResultOrder | None:
    """The order of an ordering WITH that only order-keeping projections follow (see the
    module); its sort keys are columns where the RETURN right after it returns them."""
    clauses = [c for c in single_query.children if isinstance(c, Tree)]
    if not _keeps_order(returned):
        return None
    for following, clause in enumerate(reversed(clauses[:-1])):
        if clause.data != "with_clause":
            return None
        projection = clause.children[0]
        order = _order(projection)
        if order is not None:
            return ResultOrder(_passed_keys(order, returned) if following == 0 else None)
        if not _keeps_order(projection):
            return None
    return None


def _passed_keys(order: Tree, returned: Tree) -> tuple[int, ...] | None:
    """The RETURN's columns that are the WITH's sort keys passed on by name, or None."""
    items = child_of(returned, "proj_items")
    if any(not isinstance(c, Tree) for c in items.children):  # RETURN *
        return None
    keys = []
    for sort_item in order.children:
        expr = sort_item.children[0]
        if expr.data != "var":
            return None
        found = next((i for i, item in enumerate(items.children)
                      if item.children[0].data == "var"
                      and plain_name(item.children[0].children[0])
                      == plain_name(expr.children[0])), None)
        if found is None:
            return None
        keys.append(found)
    return tuple(keys)


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
