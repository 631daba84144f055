"""A typed variable-length pattern from 0 hops at a node outside the type's tables (Ladybug bug).

Neo4j binds both ends of a zero-length path to the same node whatever the relationship type
says. Ladybug has a zero-length path only from a node of a table the type connects:

    MATCH (o:Object) OPTIONAL MATCH (o)-[:ROOM_CONNECTED*0..1]-(b) RETURN o, b

gives b NULL for every object (Neo4j: b is o). Untyped patterns span every table and are right,
and so is a same-layer type at an end known to be of its one label (`(m:MeshPlace)` with
`MESH_PLACE_CONNECTED`, as a variable labelled anywhere in the query). Anything else (CONTAINS,
which joins several tables, or ends of unknown label) is refused as `dialect` on Ladybug (Kuzu
refuses every pattern from 0 hops, `rewrite.r_var_length`).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import child_of, rel_detail

# Same-layer relationship types and the one node table each connects (docs/graph_layout.md).
CONNECTION_LABEL = {"ROOM_CONNECTED": "Room", "PLACE_CONNECTED": "Place",
                    "MESH_PLACE_CONNECTED": "MeshPlace", "OBJECT_CONNECTED": "Object"}


def _own_labels(node: Tree) -> set[str]:
    labels = child_of(node, "node_labels")
    if labels is None:
        return set()
    return {plain_name(n) for n in labels.iter_subtrees_topdown() if n.data == "name"}


def _node_var(node: Tree) -> str | None:
    found = child_of(node, "name")
    return plain_name(found) if found is not None else None


def _from_zero(var_length: Tree) -> bool:
    return any(isinstance(c, Tree) and c.data.startswith("range") and
               str(c.children[0]) in ("0", "0x0") for c in var_length.children)


def refuse_zero_hops_off_tables(root: Tree) -> None:
    """Raise `DialectError` for a typed pattern from 0 hops Ladybug may answer wrongly."""
    node_patterns: list[Tree] = []
    chains: list[Tree] = []
    for node in root.iter_subtrees_topdown():
        if node.data == "node_pattern":
            node_patterns.append(node)
        elif node.data == "chain":
            chains.append(node)
    if not any(isinstance(c, Tree) and c.data == "var_length" and _from_zero(c)
               for chain in chains for rel in chain.children[1::2] if isinstance(rel, Tree)
               for detail in rel.children if isinstance(detail, Tree)
               for c in detail.children):
        return   # no pattern from 0 hops
    declared: dict[str, set[str]] = {}
    for node in node_patterns:
        variable = _node_var(node)
        if variable is not None:
            declared.setdefault(variable, set()).update(_own_labels(node))
    for chain in chains:
        items = chain.children
        for i in range(1, len(items) - 1, 2):
            detail = rel_detail(items[i])
            length = child_of(detail, "var_length") if detail is not None else None
            types_node = child_of(detail, "rel_types") if detail is not None else None
            if length is None or types_node is None or not _from_zero(length):
                continue
            types = {plain_name(n) for n in types_node.iter_subtrees_topdown() if n.data == "name"}
            tables = {CONNECTION_LABEL.get(t) for t in types}
            ends = (items[i - 1], items[i + 1])
            if len(tables) == 1 and None not in tables and any(
                    (_own_labels(end) | declared.get(_node_var(end) or "", set())) == tables
                    for end in ends if isinstance(end, Tree)):
                continue
            raise DialectError("a variable-length pattern of a relationship type from 0 hops "
                               "on Ladybug at a node that may lie outside the type's tables "
                               "(it has no zero-length path there)")
