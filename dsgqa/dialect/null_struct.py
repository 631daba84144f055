"""Kuzu only: a field of a NULL point reads NULL, as in Neo4j.

Kuzu 0.11.3 returns a value left over from another row for a field of a NULL struct: after an
OPTIONAL MATCH that found nothing, `t.center IS NULL` is true but `t.center.x` is a real-looking
number (and so is every `point.distance(r.center, t.center)`, which reads the fields). Ladybug
0.22.0 returns NULL there. So on Kuzu a read of a point's field that may be NULL (all but the
`center` of a node a MATCH bound: every node has one) becomes

    CASE WHEN t.center IS NULL THEN NULL ELSE t.center.x END

which is the same value wherever the struct is not NULL. A node a WITH computed (`coalesce(s,
s) AS top`, `[s][0] AS top`, `CASE .. THEN s END AS top`) reads another row's properties where
it is NULL, so there `top.nodeSymbol` is read as `CASE WHEN top IS NULL THEN NULL ELSE
top.nodeSymbol END` too, and so is a node a lambda takes out of a list (`[x IN [t] |
x.nodeSymbol]` read '' or another row's symbol for an OPTIONAL MATCH's NULL t).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.neo4j_functions import NEO4J_5_FUNCTIONS
from dsgqa.dialect.trees import clone, tree
from dsgqa.dialect.types import POINT_FIELDS, UNKNOWN, ctype

REWRITE = "point field->NULL-safe CASE"
# The first part of a dotted function name (`point.distance(..)` reads like a field of `point`).
_NAMESPACES = frozenset({name.split(".")[0] for name in NEO4J_5_FUNCTIONS if "." in name}
                        | {"apoc", "gds"})


def needs_guard(field: Tree) -> bool:
    """Whether `field` (a `prop` node) reads a field of a value that may be a NULL struct: all
    but the `center` of a node a MATCH (not an OPTIONAL MATCH) bound, which every node has; and
    a property of a node taken out of a list (`last([]).nodeSymbol` is '' on Kuzu)."""
    base = field.children[0]
    if plain_name(field.children[1]) not in POINT_FIELDS:
        return isinstance(base, Tree) and (base.data in ("index", "case_expr") or (
            base.data == "var" and (getattr(base, "computed", False)
                                    or getattr(base, "null_element", False))
            and ctype(base) in ("node", "rel")) or (
            # a map a WITH holds may be NULL (`CASE .. THEN {..} END`, `p {.class}` of an
            # OPTIONAL MATCH's p): Kuzu read '' and 0 for its fields
            base.data == "var" and ctype(base) in ("map", UNKNOWN)
            and plain_name(base.children[0]).lower() not in _NAMESPACES))
    if ctype(base) in ("node", "rel") or (isinstance(base, Tree) and base.data == "map_literal"):
        return False
    if isinstance(base, Tree) and base.data == "prop" and plain_name(base.children[1]) == "center":
        owner = base.children[0]
        if isinstance(owner, Tree) and owner.data == "var" and ctype(owner) == "node" \
                and not getattr(owner, "nullable", True) \
                and not getattr(owner, "null_element", False):
            return False
    return True


def guarded(field: Tree) -> Tree:
    """`CASE WHEN base IS NULL THEN NULL ELSE base.f END` for the `prop` node `base.f`."""
    # A copy: later passes rewrite trees in place, and must not meet one subtree twice.
    return tree("case_expr", tree("case_when", tree("is_null", clone(field.children[0])),
                                  tree("null_lit")), field)
