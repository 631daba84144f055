"""A WITH's aggregate of no variable, read back through an UNWIND (Kuzu and Ladybug bug).

Both engines carry a WITH's value into the clauses that read it as the expression that computed
it. For an aggregate whose arguments read no variable (`count(*)`, `sum(1)`, `avg(3 % 3)`, and
values computed from one: `count(*) AS a`, `a + 0.5`, `a < 0 AS f`, passed on by later WITHs)
that expression depends on no variable, and where an OPTIONAL MATCH's WHERE or an EXISTS { } /
COUNT { } subquery's WHERE reads it, measured, B1 holding R1 and R2:

    MATCH (b:Building)-[:CONTAINS]->(n) WITH n, count(*) AS a
    OPTIONAL MATCH (n)-->(m) WHERE a < m.center.x        -- both: "Cannot evaluate expression
    RETURN n, COUNT { MATCH (n)-->(m) WHERE a < m.center.x }    with type AGGREGATE_FUNCTION"
    OPTIONAL MATCH (n)-->(m) WHERE a < 0 RETURN n, m      -- Kuzu: every neighbour; Neo4j none
    RETURN n, EXISTS { MATCH (n)-->(m) WHERE a < 0 } AS e -- Kuzu: true
    WITH count(*) AS a MATCH (r:Room) OPTIONAL MATCH (r)-->(m) WHERE a < 0   -- Kuzu: every one

(also where the outer-value pass has moved the test into a list, `WITH *, [a < 0] AS _outer1`).
The engines get it right when the aggregate reads a variable (`count(b)`) and for a constant
(`1 AS a`). An UNWIND computes its values where it stands, so the WITH names the aggregate's
item with a generated name and an UNWIND of the one-element list gives it its own name back:

    WITH n, count(*) AS _aggregate1 UNWIND [_aggregate1] AS a OPTIONAL MATCH ...

which both engines answer as Neo4j does in every form above (an UNWIND of a one-element list
gives each row once, in order; the WITH's own WHERE and ORDER BY read the generated name). The
generated names are spelled out of later stars.

Kuzu carries any aggregate so, and fails where a later clause reads one twice (`MATCH
(r:Room)-->(x) WITH r, count(x) AS a RETURN a, a + 1`, `RETURN r.nodeSymbol, a, a + 1`,
`WITH m, count(n) AS a RETURN a, range(0, a), count(*)`: "Cannot evaluate expression with type
PROPERTY"; "COLLECT(a) contains nested aggregation" in other such shapes; `count(*)` ran). So
on Kuzu every aggregate a later clause reads is read back the same way, but for a collected
list: read back from the UNWIND, a list of nodes took other rows' values (`WITH k, collect(n)
AS xs RETURN [x IN xs | x.nodeSymbol]` gave one node twice).
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import is_aggregate_call
from dsgqa.dialect.trees import CALLS, child_of, mentions, name, tree, var
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "aggregate of no variable->UNWIND"


def _reads_a_variable(node: object) -> bool:
    """Whether `node` reads a variable (a function's name is no read)."""
    if not isinstance(node, Tree):
        return False
    if node.data == "var":
        return True
    children = node.children[1:] if node.data in CALLS else node.children
    return any(_reads_a_variable(child) for child in children)


def _has_free_aggregate(node: object, every: bool) -> bool:
    """Whether `node` holds an aggregate whose arguments read no variable (any aggregate when
    `every`; not counting the aggregates of a subquery's own rows)."""
    if not isinstance(node, Tree) or node.data == "subquery":
        return False
    if node.children and is_aggregate_call(node) and (every or not _reads_a_variable(node)):
        return True
    return any(_has_free_aggregate(child, every) for child in node.children)


def _collects(node: object) -> bool:
    """Whether `node` holds a list that collect() builds (not one a `neo4j_` function of ours
    reduces to a number: `neo4j_stdev(coalesce(collect(x), []))`)."""
    if not isinstance(node, Tree) or node.data == "subquery":
        return False
    callee = node.children[0] if node.children else None
    if node.data in CALLS and isinstance(callee, Tree) and callee.data == "var":
        function = plain_name(callee.children[0]).lower()
        if function.startswith("neo4j_"):
            return False
        if function == "collect":
            return True
    return any(_collects(child) for child in node.children)


def _rename_reads(node: object, old: str, new: str) -> None:
    """Make the reads of variable `old` under `node` read `new`."""
    if not isinstance(node, Tree):
        return
    if node.data == "var" and plain_name(node.children[0]) == old:
        node.children[0] = name(new)
        return
    for child in node.children:
        _rename_reads(child, old, new)


def _unwind_items(clause: Tree, names: FreshNames, later: list[Tree] | None) -> list[Tree]:
    """Rename a WITH's items that hold a free aggregate, and with `later` (Kuzu: the clauses
    after it) those holding any aggregate that a later clause reads; the UNWINDs that name
    them back."""
    projection = clause.children[0]
    items = child_of(projection, "proj_items")
    unwinds = []
    for item in items.children if items is not None else ():
        if not (isinstance(item, Tree) and len(item.children) > 1):
            continue
        if not _has_free_aggregate(item.children[0], False) and not (
                later is not None and _has_free_aggregate(item.children[0], True)
                and not _collects(item.children[0])
                and any(mentions(c, {plain_name(item.children[1])}) for c in later)):
            continue
        alias, made = plain_name(item.children[1]), names.fresh("_aggregate")
        item.children[1] = name(made)
        for reader in (child_of(clause, "where"), child_of(projection, "order")):
            _rename_reads(reader, alias, made)
        unwinds.append(tree("unwind", tree("list_literal", var(made)), name(alias)))
    return unwinds


def unwind_free_aggregates(root: Tree, names: FreshNames,
                           hide_names: Callable[[Tree], None], target: str) -> bool:
    """Apply the pass to each part of the query (on Kuzu to every aggregate); True when it
    changed something. `hide_names` spells generated names out of a part's stars
    (`Uniqueness.expand_stars`)."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        out: list[object] = []
        for at, clause in enumerate(part.children):
            out.append(clause)
            if isinstance(clause, Tree) and clause.data == "with_clause":
                later = [c for c in part.children[at + 1:] if isinstance(c, Tree)] \
                    if target == "kuzu" else None
                out.extend(_unwind_items(clause, names, later))
        if len(out) != len(part.children):
            part.children = out
            hide_names(part)
            changed = True
    return changed
