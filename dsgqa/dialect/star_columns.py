"""`RETURN *` with its columns in Neo4j's order: the variables in scope sorted by name.

Neo4j expands `*` to the variables in scope sorted by name (its `expandStar` rewriter), then
the items listed after it: the Cypher Manual's `MATCH p = (keanu)-[r]->(m) RETURN *` has the
columns keanu, m, p, r. Kuzu 0.11.3 and Ladybug 0.22.0 expand it in the order the names were
bound (r, m, p, keanu there), and the scorer keeps a result's column order, so a model's
`RETURN *` scored wrong for the engine's order.

So a query's own `RETURN *` (each part of a UNION) is written out, sorted, before any other
pass: `WITH 2 AS b, 1 AS a RETURN *` -> `RETURN a, b`. A `WITH *` or a subquery's `RETURN *`
names no result column and stays. Names compare as Java strings (UTF-16 code units, upper
case before lower case), which for names of the Basic Multilingual Plane is Python's order.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of, clone, item_name_node, query_parts, tree

REWRITE = "RETURN *->its columns sorted by name"
# Text a query with a `RETURN *` holds (the pass is skipped without it).
STAR_RETURN = re.compile(r"\bRETURN\s+(?:DISTINCT\s+)?\*", re.IGNORECASE)


def _bound_by_match(match: Tree) -> list[Tree]:
    """The name nodes a MATCH's patterns bind: paths, nodes and relationships (not those of a
    subquery in a property map)."""
    names: list[Tree] = []
    for pattern in child_of(match, "pattern_list").children:
        if len(pattern.children) == 3:   # p = ...
            names.append(pattern.children[0])
        stack = [pattern.children[-1]]
        while stack:
            node = stack.pop()
            if node.data in ("node_pattern", "rel_detail") and node.children \
                    and isinstance(node.children[0], Tree) and node.children[0].data == "name":
                names.append(node.children[0])
            stack += [c for c in node.children if isinstance(c, Tree)
                      and c.data not in ("map_literal", "where")]
    return names


def _returned(query: Tree) -> list[Tree] | None:
    """The name nodes a subquery's RETURN gives the outer query (None: not known)."""
    part = next(c for c in query.children if isinstance(c, Tree) and c.data == "single_query")
    last = part.children[-1]
    if not (isinstance(last, Tree) and last.data == "return_clause"):
        return []   # a unit subquery returns nothing
    items = child_of(last.children[0], "proj_items").children
    if any(isinstance(item, Token) for item in items):
        return None
    return _named(items)


def _named(items: list) -> list[Tree] | None:
    """The name nodes projection items are known by (None: an item without one)."""
    names = [item_name_node(item) for item in items if isinstance(item, Tree)]
    return None if None in names else names  # type: ignore[return-value]


def _sort_in(single_query: Tree) -> bool:
    scope: list[Tree] = []
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        if clause.data == "match":
            scope += _bound_by_match(clause)
        elif clause.data == "unwind":
            scope.append(clause.children[1])
        elif clause.data == "call_subquery":
            returned = _returned(next(c for c in clause.children
                                      if isinstance(c, Tree) and c.data == "query"))
            if returned is None:
                return False
            scope += returned
        elif clause.data == "call_procedure":
            return False   # its YIELD's names are the procedure's; no such query is answered
        elif clause.data in ("with_clause", "return_clause"):
            items = child_of(clause.children[0], "proj_items")
            starred = bool(items.children) and isinstance(items.children[0], Token)
            if clause.data == "return_clause":
                if not starred or not scope:   # `RETURN *` of nothing: Neo4j's error stays
                    return False
                # one column a name, as written (backquotes kept: `a-b` is no subtraction)
                by_name = {plain_name(n): n for n in scope}
                columns = [tree("proj_item", tree("var", clone(by_name[n])))
                           for n in sorted(by_name)]
                items.children = columns + items.children[1:]
                return True
            named = _named(items.children)
            if named is None:
                return False
            scope = (scope if starred else []) + named
    return False


def sort_star_columns(root: Tree) -> bool:
    """Write out the query's own `RETURN *` (see the module); whether one was."""
    changed = False
    for part in query_parts(root):
        changed |= _sort_in(part)
    return changed
