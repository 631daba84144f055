"""Kuzu only: an OPTIONAL MATCH's or a subquery's WHERE that tests only an aggregate of no
variable.

Kuzu 0.11.3 drops a condition of an OPTIONAL MATCH's WHERE, or of an EXISTS { } / COUNT { }
subquery's WHERE, that reads only values computed from aggregates whose arguments read no
variable (`count(*)`, `sum(1)`, `min(1)`; `count(*) AS a`, `a + 0.5`, `a < 0 AS f`, passed on
by later WITHs). It seems to inline such a value as its aggregate, which then depends on no
variable: `WHERE a < m.center.x` fails with "Cannot evaluate expression with type
AGGREGATE_FUNCTION". Measured, B1 holding R1 and R2:

    MATCH (b:Building)-[:CONTAINS]->(n) WITH n, count(*) AS a
    OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m           -- every neighbour; Neo4j none
    ... OPTIONAL MATCH (n)-->(m) WHERE a < 0 AND m.x = 'P1'    -- P1 found
    ... RETURN n, EXISTS { MATCH (n)-->(m) WHERE a < 0 } AS e  -- true
    WITH count(*) AS a MATCH (r:Room) OPTIONAL MATCH (r)-->(m) WHERE a < 0   -- every one

It holds as well when the outer-value pass has moved the test into a list (`WITH *, [a < 0] AS
_outer1 ... WHERE list_extract(_outer1, 1)`), which is why this check reads the translated
tree. Kuzu gets it right when the condition also reads a variable (`a + n.center.x < 0`, `a <
0 AND n.nodeSymbol <> ''` moved as one part), when the aggregate reads one (`count(b)`,
`min(b.center.x)`, `count(*) + count(b)`), for a constant (`1 AS a`), and straight in a
MATCH's or a WITH's WHERE (not in a subquery there: `MATCH (n)-->(m) WHERE EXISTS { MATCH
(m)-->() WHERE a < 0 }` kept every row). So on Kuzu a condition (a part of the WHERE's
top-level AND) that reads only such values is refused (`dialect`). Ladybug 0.22.0 answers every
form above as Neo4j does.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import AGGREGATES
from dsgqa.dialect.trees import child_of, is_optional, item_name

_CALLS = frozenset({"call", "call_star", "call_distinct"})


def _is_aggregate(node: Tree) -> bool:
    callee = node.children[0]
    return node.data in _CALLS and isinstance(callee, Tree) and callee.data == "var" \
        and plain_name(callee.children[0]).lower() in AGGREGATES


def _reads(node: object, free: set[str]) -> tuple[set[str], bool]:
    """(the variables `node` reads, whether it reads a value of `free` or an aggregate of no
    variable). A function's name is no read."""
    if not isinstance(node, Tree):
        return set(), False
    if node.data == "var":
        variable = plain_name(node.children[0])
        return {variable}, variable in free
    children = node.children[1:] if node.data in _CALLS else node.children
    names: set[str] = set()
    seen_free = False
    for child in children:
        read, child_free = _reads(child, free)
        names |= read
        seen_free = seen_free or child_free
    if node.data in _CALLS and _is_aggregate(node) and not names:
        seen_free = True
    return names, seen_free


def _only_free(node: object, free: set[str]) -> bool:
    """Whether `node` reads nothing but values of `free` and aggregates of no variable, and
    at least one of them."""
    names, seen_free = _reads(node, free)
    return seen_free and names <= free


def _conditions(node: object) -> list[object]:
    """The parts of a top-level AND."""
    if isinstance(node, Tree) and node.data == "and_":
        return [part for child in node.children for part in _conditions(child)]
    return [node]


def _refuse() -> None:
    raise DialectError("an OPTIONAL MATCH's or a subquery's WHERE testing only an aggregate "
                       "of no variable (count(*)) from an earlier WITH, on Kuzu (it drops "
                       "the test; Ladybug runs it)")


def _check_where(where: Tree | None, free: set[str]) -> None:
    if where is not None and free and any(_only_free(part, free)
                                          for part in _conditions(where.children[0])):
        _refuse()


def _check_subqueries(node: object, free: set[str]) -> None:
    if not isinstance(node, Tree) or not free:
        return
    if node.data == "subquery":
        for sub in node.children[1].iter_subtrees():
            if sub.data == "where":
                _check_where(sub, free)
    for child in node.children:
        _check_subqueries(child, free)


def _passed_on(clause: Tree, free: set[str]) -> set[str]:
    """The names a WITH passes on that hold values of `free` or of aggregates of no
    variable only."""
    items = child_of(clause.children[0], "proj_items")
    out = set(free) if any(isinstance(c, Token) for c in items.children) else set()
    for item in items.children:
        if not isinstance(item, Tree):
            continue
        alias = item_name(item)
        if alias is None:
            continue
        if _only_free(item.children[0], free):
            out.add(alias)
        else:
            out.discard(alias)
    return out


def _check_single_query(single_query: Tree) -> None:
    free: set[str] = set()
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        if clause.data == "with_clause":
            # Its WHERE reads the names it makes (`WITH *, [a < 0] AS _outer1 WHERE EXISTS {
            # ... list_extract(_outer1, 1) }`, a MATCH's WHERE the outer-value pass moved).
            passed = _passed_on(clause, free)
            _check_subqueries(clause, free | passed)
            free = passed
            continue
        _check_subqueries(clause, free)
        if clause.data == "match" and is_optional(clause):
            _check_where(child_of(clause, "where"), free)


def refuse_free_aggregate_tests(root: Tree) -> None:
    """Raise `DialectError` where Kuzu would drop such a test (see the module)."""
    query = root.children[0] if root.data == "start" else root
    for part in query.children:
        if isinstance(part, Tree) and part.data == "single_query":
            _check_single_query(part)
