"""Tests of an earlier node's box inside an OPTIONAL MATCH's WHERE (Kuzu and Ladybug bug).

In both engines a box property (`bbox_center`, `bbox_dim`) of a node bound before an OPTIONAL
MATCH reads as present inside that OPTIONAL MATCH's WHERE even when the node has no box:

    MATCH (o:Object) OPTIONAL MATCH (o)<-[:CONTAINS]-(p) WHERE o.bbox_dim IS NULL

finds no parent for the box-less objects (Neo4j finds theirs), and `x OR o.bbox_dim.x > 1`
drops rows the first operand keeps. A plain MATCH reads the same test right, and so do the
engines when the test is computed before the OPTIONAL MATCH. So every largest part of the
WHERE that reads only earlier variables, reads a box, and is a plain value (a boolean, number
or string, not the box itself) is computed in a `WITH *, <part> AS _boxN` just before the
OPTIONAL MATCH, and the WHERE reads `_boxN`; the part depends on earlier variables only, so
its value is the same. A box read this cannot move (the box itself passed to a function with
the OPTIONAL MATCH's own variables) stays as it is: the regression case
`missing_box_of_an_earlier_node_in_an_optional_where` shows the bug for it. Only graphs with
objects without a box are affected (every object of the example Hydra graph has one). Skipped
when a later `RETURN *` / `WITH *` would show the extra column.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of, name, tree, var
from dsgqa.dialect.types import ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "OPTIONAL MATCH WHERE box test->computed before it"
_BOX_FIELDS = frozenset({"bbox_center", "bbox_dim"})
# Parts that bind variables of their own, or read what no WITH can carry: never moved.
_UNMOVABLE = frozenset({"lambda_", "where_arg", "pipe_arg", "list_comp", "list_comp_map",
                        "subquery", "subquery_pattern", "pattern_predicate", "anon_node",
                        "empty_node", "param", "call_star", "call_distinct"})
_CALLS = frozenset({"call"})
_BOOLEAN_KINDS = frozenset({"compare", "is_null", "is_not_null", "and_", "or_", "xor_", "not_",
                            "in_", "starts_with", "ends_with", "contains", "regex", "true_lit",
                            "false_lit"})
_PLAIN_TYPES = frozenset({"bool", "int", "float", "str"})


def _is_optional(match: Tree) -> bool:
    return any(isinstance(c, Token) and c.type == "OPTIONAL" for c in match.children)


def _reads_box(node: object) -> bool:
    if not isinstance(node, Tree):
        return False
    if node.data == "prop" and plain_name(node.children[1]) in _BOX_FIELDS:
        return True
    return any(_reads_box(c) for c in node.children)


def _free_names(node: Tree) -> set[str] | None:
    """The variables `node` reads, or None when it has a part that cannot be moved."""
    if node.data in _UNMOVABLE:
        return None
    if node.data == "var":
        return {plain_name(node.children[0])}
    found: set[str] = set()
    children = node.children[1:] if node.data in _CALLS else node.children
    for child in children:
        if isinstance(child, Tree):
            names = _free_names(child)
            if names is None:
                return None
            found |= names
    return found


def _plain_value(node: Tree) -> bool:
    inner = node
    while inner.data == "paren" and isinstance(inner.children[0], Tree):
        inner = inner.children[0]
    return inner.data in _BOOLEAN_KINDS or ctype(inner) in _PLAIN_TYPES


class _Hoister:
    def __init__(self, earlier: set[str], names: FreshNames) -> None:
        self.earlier, self.names = earlier, names
        self.moved: list[tuple[str, Tree]] = []

    def visit(self, node: object) -> object:
        if not isinstance(node, Tree) or node.data in _UNMOVABLE:
            return node
        if _reads_box(node):
            free = _free_names(node)
            if free is not None and free <= self.earlier and _plain_value(node):
                alias = self.names.fresh("_box")
                self.moved.append((alias, node))
                return var(alias)
        start = 1 if node.data in _CALLS else 0
        node.children[start:] = [self.visit(c) for c in node.children[start:]]
        return node


def _later_star(clauses: list[object], index: int) -> bool:
    for clause in clauses[index + 1:]:
        if isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause"):
            items = child_of(clause.children[0], "proj_items")
            if items is not None and items.children and isinstance(items.children[0], Token):
                return True
    return False


def hoist_box_tests(single_query: Tree, names: FreshNames) -> bool:
    """Move the box tests of every OPTIONAL MATCH's WHERE in `single_query`; True if one
    moved."""
    changed = False
    index = 0
    while index < len(single_query.children):
        clause = single_query.children[index]
        where = child_of(clause, "where") if isinstance(clause, Tree) and \
            clause.data == "match" and _is_optional(clause) else None
        earlier = getattr(clause, "scope_before", None)
        if where is None or earlier is None or not _reads_box(where) \
                or _later_star(single_query.children, index):
            index += 1
            continue
        hoister = _Hoister(set(earlier), names)
        where.children[0] = hoister.visit(where.children[0])
        if hoister.moved:
            items = tree("proj_items", Token("STAR", "*"),
                         *[tree("proj_item", part, name(alias)) for alias, part in hoister.moved])
            single_query.children.insert(index, tree("with_clause", tree("projection", items)))
            changed = True
            index += 1
        index += 1
    return changed
