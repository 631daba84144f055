"""A RETURN that groups by a whole node and reads that node's property beside an aggregate.

Neo4j allows a grouping variable's property inside an aggregating column when the variable is
projected on its own (`AmbiguousAggregation`: `RETURN n AS myNode, n.value + count(*)`), and
models write it to relate a group's extreme to its own node:

    MATCH (r:Room)-[:CONTAINS]->(:MeshPlace)-[:CONTAINS]->(o:Object)
    RETURN r AS room, round(max(o.center.z) - r.center.z, 3) AS rise

Both engines fail to bind that RETURN ("Cannot evaluate expression with type PROPERTY"), and
answer the same projection in a WITH. So such a RETURN becomes a WITH of its items, each named,
with its DISTINCT, ORDER BY, SKIP and LIMIT (`SKIP 0` after an ORDER BY alone, which the
engines' WITH requires), then a RETURN of the names; a plain RETURN keeps the WITH's row order
(`result_order.py`), and an unnamed item keeps its column name (its text).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import Emitter, plain_name
from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import (
    child_of,
    column_name,
    name,
    read_back,
    return_through_with,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "RETURN reading a grouped node's property beside an aggregate->WITH"


def _grouped_nodes(items: Tree, nodes: set[str]) -> set[str]:
    """The node variables projected on their own, as grouping keys."""
    return {plain_name(item.children[0].children[0]) for item in items.children
            if isinstance(item, Tree) and item.children[0].data == "var"
            and plain_name(item.children[0].children[0]) in nodes}


def _reads_property_of(node: object, grouped: set[str]) -> bool:
    """Whether `node` reads a property of a `grouped` node outside its aggregates."""
    if not isinstance(node, Tree) or node.data == "subquery" or is_aggregate_call(node):
        return False
    if node.data == "prop" and isinstance(node.children[0], Tree) \
            and node.children[0].data == "var" \
            and plain_name(node.children[0].children[0]) in grouped:
        return True
    return any(_reads_property_of(child, grouped) for child in node.children)


def _split(part: Tree, clause: Tree, names: FreshNames) -> None:
    """Turn the RETURN `clause` into the WITH it stands for, followed by a RETURN of names."""
    items = child_of(clause.children[0], "proj_items")
    returned = []
    for item in items.children:
        if len(item.children) == 2 or item.children[0].data == "var":
            returned.append(read_back(item))
        else:
            column = getattr(item, "original_text", None) or Emitter().emit(item.children[0])
            alias = names.fresh("_column")
            item.children.append(name(alias))
            returned.append(tree("proj_item", var(alias), column_name(column)))
    return_through_with(part, clause, returned)


def return_grouped_reads_via_with(root: Tree, names: FreshNames, nodes: set[str]) -> bool:
    """Apply the pass to each part's last RETURN (`nodes`: the names that hold nodes, as
    `trees.node_names` reads them); True when it changed one."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        clause = part.children[-1]
        if not (isinstance(clause, Tree) and clause.data == "return_clause"):
            continue
        items = child_of(clause.children[0], "proj_items")
        if items is None or any(isinstance(c, Token) for c in items.children):
            continue
        grouped = _grouped_nodes(items, nodes)
        if grouped and any(has_aggregate(item) and _reads_property_of(item, grouped)
                           for item in items.children):
            _split(part, clause, names)
            changed = True
    return changed
