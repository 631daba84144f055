"""Kuzu only: an EXISTS { } or COUNT { } subquery that reads a node an OPTIONAL MATCH may have
left NULL.

Neo4j: a pattern from a NULL node matches nothing, so such an EXISTS is false and such a COUNT
0. Kuzu 0.11.3 joins the subquery's matches to the outer rows on that node, and wherever a
later operator reads the subquery's value (a DISTINCT or grouping key, a sort key, a WHERE,
even a WITH's WHERE on another column or a WITH's ORDER BY after it) the rows whose node is
NULL are lost, or take another row's value (measured, B1 holding R1 and R2 and R3 in no
building):

    MATCH (r:Room) OPTIONAL MATCH (r)<-[:CONTAINS]-(b)
    RETURN DISTINCT COUNT { MATCH (b)-->(m) } AS n                  -- [2]; Neo4j [2], [0]
    RETURN r.nodeSymbol AS r, EXISTS { MATCH (b)-->(m) } AS e ORDER BY e    -- R3 lost
    WITH r, b WHERE COUNT { MATCH (b)-->(m) } = 0 RETURN r.nodeSymbol        -- nothing
    WITH *, CASE WHEN b IS NULL THEN 0 ELSE COUNT { ... } END AS c
        WITH * WHERE r.nodeSymbol <> 'x' RETURN r.nodeSymbol, c            -- R1, R2, R2

Inside a larger expression it goes wrong even in the final RETURN, in no pattern one could
name (measured, same graph; Neo4j R1 2, R2 2, R3 0 and so on):

    RETURN r.nodeSymbol, 2 * COUNT { MATCH (b)-->(m) }       -- R3 2 (`COUNT { } * 2`: right)
    RETURN r.nodeSymbol, 0 + COUNT { ... }                     -- R3 1 (`COUNT { } + 0`: right)
    RETURN r.nodeSymbol, size(r.class) * COUNT { ... }         -- R3 lost
    RETURN r.nodeSymbol, r.class <> 'x' AND EXISTS { ... }     -- R3 lost
    RETURN sum(2 * COUNT { ... }), max(CASE WHEN EXISTS { ... } THEN ...)   -- wrong, or no row

No rewrite measured right in every such place (a CASE on `b IS NULL`, an UNWIND or list
barrier each fix some and not others). What Kuzu does get right is the subquery's own value
read straight into the rows of the final RETURN, and fed whole to an aggregate: so on Kuzu
such a subquery is left where it is a column's whole value (a RETURN that is not DISTINCT,
does not aggregate and does not sort by it) or an aggregate's whole argument, not DISTINCT
(`sum(COUNT { ... })`), and refused (`dialect`) anywhere else.
Ladybug 0.22.0 answers every form above as Neo4j does.

Kuzu's query worker also crashes (SIGSEGV) where one projection that groups reads two subqueries
from one such node and the OPTIONAL MATCH that bound it had a WHERE (`OPTIONAL MATCH (r)-->(n)
WHERE n.class = 'floor' RETURN r, sum(COUNT { MATCH (n)<--(m) }), count(EXISTS { ... })`): one
subquery, no grouping key or no WHERE ran right. That is refused too.

A node may be NULL from the OPTIONAL MATCH that first binds it until a MATCH (not optional)
names it in a pattern; a WITH passes that on under its own name or an alias, and so does an
UNWIND of a list that reads it. A node a WITH computes (`head(collect(b))`, `xs[2]`, a CASE)
may be NULL too.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import AGGREGATES, groups, has_aggregate
from dsgqa.dialect.trees import (
    bare,
    child_of,
    declared_names,
    function_name,
    is_optional,
    mentions,
    outermost_subqueries,
    passed_on,
    projected_names,
)


def _subqueries(node: object) -> list[Tree]:
    """The outermost subqueries under `node`, but for one that is an aggregate's whole argument
    (`sum(COUNT { ... })`, `collect(EXISTS { ... })`): Kuzu feeds an aggregate the subquery's
    right values (measured in a WITH and a RETURN, beside grouping keys, then filtered and
    sorted), but not a DISTINCT aggregate (`count(DISTINCT COUNT { ... })` miscounted), nor a
    value computed from it (`sum(2 * COUNT { ... })`)."""
    if not isinstance(node, Tree):
        return []
    if node.data == "subquery":
        return [node]
    if node.data == "call" and len(node.children) == 2 \
            and function_name(node.children[0]).lower() in AGGREGATES \
            and isinstance(node.children[1], Tree) and bare(node.children[1]).data == "subquery":
        return []
    return [found for child in node.children for found in _subqueries(child)]


def _reads(subquery: Tree, names: set[str]) -> bool:
    """Whether a subquery names one of `names`: as a node of its patterns or in an expression."""
    return any(node.data in ("var", "node_pattern") and node.children
               and isinstance(node.children[0], Tree) and node.children[0].data == "name"
               and plain_name(node.children[0]) in names
               for node in subquery.iter_subtrees_topdown())


def _refuse() -> None:
    raise DialectError("an EXISTS/COUNT subquery (or a pattern predicate, or size() of a "
                       "pattern) reading a node an OPTIONAL MATCH may leave NULL, used other "
                       "than as a whole column of the final RETURN or an aggregate's whole "
                       "argument, on Kuzu (it loses those rows or "
                       "gives them another row's value; Ladybug runs it)")


def _check_projection(clause: Tree, nullable: set[str], last: bool) -> None:
    projection = clause.children[0]
    items = [c for c in child_of(projection, "proj_items").children if isinstance(c, Tree)]
    order = child_of(projection, "order")
    where = child_of(clause, "where")
    for part in (order, where):
        if any(_reads(s, nullable) for s in _subqueries(part)):
            _refuse()
    reading = [item for item in items if any(_reads(s, nullable)
                                             for s in _subqueries(item.children[0]))]
    if not reading:
        return
    if any(bare(item.children[0]).data != "subquery" for item in reading):
        _refuse()   # a value computed from the subquery's (`2 * COUNT { ... }`)
    if not (last and clause.data == "return_clause") or groups(projection):
        _refuse()
    aliases = {plain_name(item.children[1]) for item in reading if len(item.children) > 1}
    if order is not None and mentions(order, aliases):
        _refuse()


def _refuse_crash(clause: Tree, filtered: set[str]) -> None:
    """Refuse two subqueries from one node of `filtered` in one projection that groups: Kuzu's
    worker crashes (SIGSEGV) on it (`MATCH (r:Room) OPTIONAL MATCH (r)-->(n) WHERE n.class =
    'floor' RETURN r, sum(COUNT { MATCH (n)<--(m) }) AS k, count(EXISTS { ... }) AS e`; one
    subquery, or no WHERE on the OPTIONAL MATCH, ran right)."""
    items = [c for c in child_of(clause.children[0], "proj_items").children
             if isinstance(c, Tree)]
    if not (any(has_aggregate(item) for item in items)
            and not all(has_aggregate(item) for item in items)):
        return
    subqueries = [s for item in items for s in outermost_subqueries(item.children[0])]
    if any(sum(_reads(s, {node}) for s in subqueries) > 1 for node in filtered):
        raise DialectError("two EXISTS/COUNT subqueries from one node an OPTIONAL MATCH with "
                           "a WHERE may leave NULL, in one grouping projection, on Kuzu (its "
                           "query worker crashes; Ladybug runs it)")


def _computed_node(item: Tree) -> bool:
    """Whether a projection item computes a value that may be a NULL node: anything but a
    variable whose type is a node or unknown (`head(collect(b))`, `xs[2]`, a CASE, ...)."""
    kinds = getattr(item, "child_types", None)  # none: an item the translator wrote
    return item.children[0].data != "var" and kinds is not None \
        and kinds[0] in ("node", "?")


def _passed_on(clause: Tree, nullable: set[str]) -> set[str]:
    """The names a WITH passes on that may hold a NULL node."""
    def holds(item: Tree) -> bool:
        value = item.children[0]
        return (value.data == "var" and plain_name(value.children[0]) in nullable) \
            or (len(item.children) > 1 and _computed_node(item))
    return passed_on(clause, nullable, holds)


def _projected(clause: Tree, bound: set[str]) -> set[str]:
    """The names a WITH leaves in scope."""
    return projected_names(child_of(clause.children[0], "proj_items"), bound)


def _check_single_query(single_query: Tree) -> None:
    clauses = [c for c in single_query.children if isinstance(c, Tree)]
    nullable: set[str] = set()
    filtered: set[str] = set()  # those of an OPTIONAL MATCH with a WHERE
    bound: set[str] = set()
    for index, clause in enumerate(clauses):
        if clause.data == "match":
            patterns = child_of(clause, "pattern_list")
            names = {plain_name(c) for node in patterns.iter_subtrees_topdown()
                     if node.data == "node_pattern"
                     for c in node.children if isinstance(c, Tree) and c.data == "name"}
            if not is_optional(clause):
                nullable -= names
                filtered -= names
            # A MATCH's WHERE, an OPTIONAL MATCH's too, sees the clause's own nodes matched.
            where = child_of(clause, "where")
            if nullable - names and any(_reads(s, nullable - names)
                                        for s in _subqueries(where)):
                _refuse()
            if is_optional(clause):
                nullable |= names - bound
                if where is not None:
                    filtered |= names - bound
            bound |= declared_names(clause)
        elif clause.data in ("with_clause", "return_clause"):
            if filtered:
                _refuse_crash(clause, filtered)
            if nullable:
                _check_projection(clause, nullable, index == len(clauses) - 1)
            if clause.data == "with_clause":
                nullable = _passed_on(clause, nullable)
                filtered = _passed_on(clause, filtered)
                bound = _projected(clause, bound)
        else:
            if clause.data == "unwind" and mentions(clause.children[0], nullable):
                nullable |= {plain_name(clause.children[1])}  # `UNWIND [b, c] AS n`
            bound |= declared_names(clause)


def refuse_null_anchored_subqueries(root: Tree) -> None:
    """Raise `DialectError` where Kuzu would read such a subquery wrong (see the module)."""
    query = root.children[0] if root.data == "start" else root
    for part in query.children:
        if isinstance(part, Tree) and part.data == "single_query":
            _check_single_query(part)
