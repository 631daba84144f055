"""A node a query computed, named again in a pattern, found by its internal id.

Neo4j lets a pattern name any node the row holds, however it was made:

    WITH collect(r) AS rs UNWIND rs AS r MATCH (r)-[:CONTAINS]->(m)
    UNWIND nodes(p) AS n MATCH (n)-[:CONTAINS]->(m)
    WITH a, head(collect(b)) AS nearest ... EXISTS { (a)-[:ROOM_CONNECTED]->(nearest) }

Kuzu 0.11.3 and Ladybug 0.22.0 bind a pattern's node to a node of the graph only where the
value still is one (a MATCH's variable, or an UNWIND of a collected list as written). The
translation guards lists and picks against NULL (`coalesce(collect(r), [])`, a CASE for
`head()`), and after that the engines refuse the pattern: "Cannot bind nearest as node
pattern" (`dialect`), for idioms models write.

So in a MATCH (or a subquery's MATCH) a node whose variable an UNWIND or a WITH computed gets a
new variable, and the MATCH's WHERE keeps the node with the same internal id:

    UNWIND rs AS r MATCH (r)-[:CONTAINS]->(m)
    -> UNWIND rs AS r MATCH (_node1)-[:CONTAINS]->(m) WHERE id(_node1) = id(r)

which matches exactly the graph node the value is (a NULL value has no id and matches nothing,
as in Neo4j; an OPTIONAL MATCH keeps its row). Labels and properties stay on the pattern. Read
on the translation, after every pass.
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    add_conditions,
    call,
    child_of,
    compared_with_true,
    name,
    outermost_subqueries,
    passed_on,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "computed node in a pattern->id() equality"


def _after_with(clause: Tree, computed: set[str]) -> set[str]:
    """The computed names a WITH passes on: computed values, and computed names renamed."""
    return passed_on(clause, computed, lambda item: item.children[0].data != "var"
                     or plain_name(item.children[0].children[0]) in computed)


def _rebind(match: Tree, computed: set[str], names: FreshNames) -> bool:
    """Give the MATCH's nodes of `computed` variables new ones tied by id (see the module)."""
    renamed: dict[str, str] = {}
    for node in child_of(match, "pattern_list").iter_subtrees_topdown():
        if node.data != "node_pattern" or not node.children \
                or not isinstance(node.children[0], Tree) or node.children[0].data != "name":
            continue
        old = plain_name(node.children[0])
        if old in computed:
            renamed.setdefault(old, names.fresh("_node"))
            node.children[0] = name(renamed[old])
    if not renamed:
        return False
    tie_by_id(match, renamed)
    return True


def tie_by_id(holder: Tree, renamed: dict[str, str], with_true: bool = False) -> None:
    """Add `id(new) = id(old)` for each renamed node to the WHERE of `holder` (a MATCH or a
    subquery's pattern), after the conditions it has; `with_true`: compared with true, which the
    engines do not take for a join key in a subquery (`outer_anchors.py`)."""
    ties = [tree("compare", call("id", var(new)), Token("EQ", "="), call("id", var(old)))
            for old, new in renamed.items()]
    if with_true:
        ties = [compared_with_true(tie) for tie in ties]
        for tie in ties:
            tie.id_tie = True  # type: ignore[attr-defined]   # `count_keys.py` leaves it
    add_conditions(holder, ties)


def _single_query(single_query: Tree, computed: set[str], names: FreshNames) -> bool:
    computed = set(computed)
    changed = False
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        after = _after_with(clause, computed) if clause.data == "with_clause" else computed
        for part in clause.children:
            # A WITH's WHERE reads the names the WITH binds (`WITH head(collect(s)) AS low
            # WHERE EXISTS { (low)<--() }`); its items read those before it.
            seen = after if isinstance(part, Tree) and part.data == "where" else computed
            for subquery in outermost_subqueries(part):
                changed |= _subquery(subquery, seen, names)
        if clause.data == "match":
            changed |= _rebind(clause, computed, names) if computed else False
        elif clause.data == "unwind":
            computed.add(plain_name(clause.children[1]))
        elif clause.data == "with_clause":
            computed = after
    return changed


def _subquery(subquery: Tree, computed: set[str], names: FreshNames) -> bool:
    body = subquery.children[1]
    if isinstance(body, Tree) and body.data == "query":
        return _query(body, set(computed), names)
    if isinstance(body, Tree) and body.data == "subquery_pattern" and computed:
        return _rebind(body, computed, names)   # `EXISTS { (a)-->(n) }`
    return False


def _query(query: Tree, computed: set[str], names: FreshNames) -> bool:
    changed = False
    for part in query.children:
        if isinstance(part, Tree) and part.data == "single_query":
            changed |= _single_query(part, computed, names)
    return changed


def rebind_computed_nodes(root: Tree, names: FreshNames,
                          expand_stars: Callable[[Tree], None]) -> bool:
    """Rewrite in place (see the module); whether anything changed. `expand_stars` keeps the
    new variables out of a later `RETURN *` / `WITH *`."""
    query = root.children[0] if root.data == "start" else root
    if not _query(query, set(), names):
        return False
    for part in query.children:
        if isinstance(part, Tree) and part.data == "single_query":
            expand_stars(part)
    return True
