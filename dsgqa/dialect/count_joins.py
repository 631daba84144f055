"""A COUNT subquery read straight off a node scan (Kuzu and Ladybug bug).

Both engines join a correlated `COUNT { ... }` to the rows it is evaluated on by the node's
internal id, and their join-pruning optimizer drops that join when the outer side is nothing but
a node-table scan, keeping only the nodes the subquery counted at least once. So every row whose
count is 0 vanishes:

    MATCH (n:Room) RETURN COUNT { MATCH (n)-[:CONTAINS]->(m) } AS c
    MATCH (n:Room) WHERE COUNT { MATCH (n)-[:CONTAINS]->(m) } = 0 RETURN count(*) AS k

(measured on Kuzu 0.11.3 and Ladybug: rooms 2, 1, 0 came out as 2, 1; k was 0, Neo4j 1). The
same query with a property of `n` among the columns, or with `WITH n` first, is right: the outer
side is then more than a scan. `size([(n)-->(m) | ...])` becomes such a COUNT (`rewrite.py`).

The pass puts a projection between the reading clauses and the subquery, which changes nothing
in Neo4j:

- a WITH or RETURN that reads a COUNT subquery gets `WITH *` before it (unless a WITH is
  already there);
- a MATCH whose WHERE reads one keeps its pattern and passes the WHERE to a `WITH * WHERE ...`
  after it (a MATCH's WHERE only filters its rows; not done for OPTIONAL MATCH, whose WHERE
  decides which rows become NULL, and whose plan the engines get right);
- inside another subquery (`EXISTS { MATCH (a) WHERE COUNT { ... } > 0 }`) there is no room for
  a WITH, so one whose pattern is a lone node is refused (`DialectError`).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import child_of, declared_names, is_optional, query_parts, star_with

REWRITE = "COUNT subquery->after WITH *"


def is_count(node: Tree) -> bool:
    """Whether `node` is a COUNT { } subquery."""
    return node.data == "subquery" and isinstance(node.children[0], Tree) \
        and plain_name(node.children[0].children[0]).upper() == "COUNT"


def _counts(node: object, bound: set[str] | None = None, *, top: bool = True) -> bool:
    """Whether `node` reads a COUNT subquery outside any nested subquery (top) or anywhere;
    with `bound`, only one that reads one of those variables (the others are not joined)."""
    if not isinstance(node, Tree):
        return False
    if node.data == "subquery":
        if is_count(node) and (bound is None or _reads(node, bound)):
            return True
        if top:
            return False
    return any(_counts(child, bound, top=top) for child in node.children)


def _reads(subquery: Tree, bound: set[str]) -> bool:
    """Whether a subquery names one of `bound`: in an expression or as a node of its pattern
    (`COUNT { MATCH (n)-->() }` is joined on `n`)."""
    return any(node.data in ("var", "node_pattern") and node.children
               and isinstance(node.children[0], Tree)
               and node.children[0].data == "name" and plain_name(node.children[0]) in bound
               for node in subquery.iter_subtrees_topdown())


def _lone_node(pattern_list: Tree) -> bool:
    """Whether a pattern of the list is a single node (`(a)`, `(a:Room {...})`)."""
    for pattern in pattern_list.children:
        chain = pattern.children[-1]
        if isinstance(chain, Tree) and chain.data == "chain" and len(chain.children) == 1:
            return True
    return False


def _refuse_nested(root: Tree) -> None:
    for node in root.iter_subtrees_topdown():
        if node.data != "subquery":
            continue
        body = node.children[1]
        matches = ([body] if body.data == "subquery_pattern" else
                   [m for m in body.iter_subtrees_topdown() if m.data == "match"])
        for match in matches:
            where = child_of(match, "where")
            pattern_list = child_of(match, "pattern_list")
            if where is not None and pattern_list is not None and _lone_node(pattern_list) \
                    and _counts(where, top=False):
                raise DialectError("a COUNT subquery in the WHERE of a subquery that matches "
                                   "a lone node (the engines drop the nodes it counts 0 for)")


def _fix_single_query(single_query: Tree) -> bool:
    out: list[object] = []
    bound: set[str] = set()
    changed = False
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            out.append(clause)
            continue
        if clause.data in ("with_clause", "return_clause") and out and _counts(clause, bound):
            before = out[-1]
            if not (isinstance(before, Tree) and before.data == "with_clause"):
                out.append(star_with())
                changed = True
        out.append(clause)
        bound |= declared_names(clause)
        if clause.data == "match" and not is_optional(clause):
            where = child_of(clause, "where")
            if where is not None and _counts(where, bound):
                clause.children.remove(where)
                out.append(star_with(where=where))
                changed = True
    single_query.children = out
    return changed


def keep_count_joins(root: Tree) -> bool:
    """Apply the pass to each part of the query (a UNION's parts too); True when it changed
    something. Raises `DialectError` for a shape it cannot keep."""
    _refuse_nested(root)
    changed = False
    for part in query_parts(root):
        changed |= _fix_single_query(part)
    return changed
