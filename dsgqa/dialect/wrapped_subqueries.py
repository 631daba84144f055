"""Kuzu only: a WITH's value built around an EXISTS { } or COUNT { } subquery that reads an
outer value passed as a one-element list.

The outer-value pass (`outer_values.py`) hands a subquery an outer value that may be NULL as
`list_extract(_outerN, 1)`. Kuzu 0.11.3 reads such a subquery's value right on its own and in
the final RETURN, but where a WITH wraps it in a larger expression (a CASE over it, `[EXISTS {
... }]`, `EXISTS { ... } AND true`) and a later operator reads the WITH's value, the rows whose
list holds NULL are lost, put in extra groups or take another row's value (measured, O2 and O3
without a box):

    MATCH (n:Object) WITH n, CASE WHEN EXISTS { MATCH (n)<-[:CONTAINS]-(m:MeshPlace)
        WHERE n.bbox_dim.x > -1.0 } THEN 1 END AS v
    OPTIONAL MATCH (n)<-[:CONTAINS]-(p:Place) RETURN p, v, count(*)   -- NULL v in two groups
    RETURN v, n.nodeSymbol AS s ORDER BY v, s                           -- O3 lost
    WITH n, v WHERE v IS NULL RETURN n.nodeSymbol                      -- O2 lost
    WITH n, v ORDER BY n.nodeSymbol RETURN v                            -- 1, 1: O1's twice
    WITH n, v SKIP 0 RETURN v                                           -- 1, 1, NULL
    WITH n, v WHERE n.center.x > 2 RETURN n.nodeSymbol, v               -- O2 lost
    MATCH (n)--(z) RETURN DISTINCT v                                    -- NULL lost

(grouping without the OPTIONAL MATCH crashed Kuzu's worker, a visible error). The same
subquery as the WITH's whole value (`EXISTS { ... } AS e`, then grouped, sorted, filtered), in
a WHERE, or in a RETURN's items (with DISTINCT, ORDER BY or an aggregate beside it) was read
right. So on Kuzu such a WITH value (and what later WITHs pass on or compute from it) may only
be read as a column of a final RETURN without DISTINCT, aggregates, ORDER BY or SKIP, or be
carried by WITHs that neither filter, sort, skip, group nor drop repeated rows at all (a later
MATCH's WHERE and a LIMIT were read right); anywhere else it is refused (`dialect`). Ladybug
0.22.0 answers every form above as Neo4j does.

Computed first, in a WITH of its own, and read back through an UNWIND (`subquery_values.py`,
which runs before this check), such a subquery is read right on Kuzu in every form above, so
this refuses only what that pass leaves in place.
"""

from __future__ import annotations

from collections.abc import Collection

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import child_of, is_distinct, mentions, passed_on

OUTER_PREFIX = "_outer"  # the names `outer_values` makes (`FreshNames.fresh`)


def _wraps_outer_subquery(value: Tree, outer: Collection[str]) -> bool:
    """Whether `value` holds, below its top, a subquery that reads one of `outer`."""
    if value.data == "subquery":
        return False
    return any(sub.data == "subquery" and mentions(sub, outer)
               for sub in value.iter_subtrees_topdown())


def _refuse() -> None:
    raise DialectError("a WITH value built around an EXISTS/COUNT subquery that reads an "
                       "outer value which may be NULL (a CASE over it), filtered, sorted, skipped, "
                       "grouped or made DISTINCT later, on Kuzu (it loses or splits the rows "
                       "where that value is NULL; Ladybug runs it)")


def _items(clause: Tree) -> list[object]:
    return list(child_of(clause.children[0], "proj_items").children)


def _check_reads(clause: Tree, wrapped: set[str], made: bool = False) -> None:
    """Refuse where `clause` reads a name of `wrapped` other than by carrying it on; `made`:
    the clause is a WITH that makes such a value (and groups or drops repeated rows by it
    when it aggregates or is DISTINCT)."""
    if not wrapped:
        return
    if clause.data not in ("with_clause", "return_clause"):
        if mentions(clause, wrapped):
            _refuse()
        return
    projection = clause.children[0]
    where = child_of(clause, "where")
    order = child_of(projection, "order")
    # WHERE and ORDER BY may name the value by the alias this clause gives it.
    named = wrapped | {plain_name(item.children[1]) for item in _items(clause)
                       if isinstance(item, Tree) and len(item.children) > 1
                       and mentions(item.children[0], wrapped)}
    if mentions(where, named) or mentions(order, named):
        _refuse()
    carried = made or any(isinstance(c, Token) for c in _items(clause)) \
        or mentions(child_of(projection, "proj_items"), wrapped)
    distinct = is_distinct(projection)
    # Filtered or sorted by another column, or skipped over, the value went wrong too (`WITH
    # n, v WHERE n.center.x > 0`, `WITH n, v ORDER BY n.nodeSymbol`, `WITH n, v SKIP 0`); a
    # LIMIT alone, and a later MATCH's WHERE, were read right.
    skip = child_of(projection, "skip")
    if carried and (where is not None or order is not None or skip is not None or distinct
                    or has_aggregate(projection)):
        _refuse()


def _passed_on(clause: Tree, wrapped: set[str], outer: Collection[str]) -> set[str]:
    return passed_on(clause, wrapped, lambda item: mentions(item.children[0], wrapped)
                     or _wraps_outer_subquery(item.children[0], outer))


def _check_single_query(single_query: Tree, outer: Collection[str]) -> None:
    wrapped: set[str] = set()
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        _check_reads(clause, wrapped)
        if clause.data == "with_clause":
            made = any(isinstance(item, Tree) and _wraps_outer_subquery(item.children[0], outer)
                       for item in _items(clause))
            wrapped = _passed_on(clause, wrapped, outer)
            if made:  # the WITH that makes such a value may not filter or sort by it either
                _check_reads(clause, wrapped, made=True)


def refuse_wrapped_outer_subqueries(root: Tree, generated: Collection[str]) -> None:
    """Raise `DialectError` where Kuzu would read such a value wrong (see the module);
    `generated` holds the names the translator made."""
    outer = {n for n in generated if n.startswith(OUTER_PREFIX)}
    if not outer:
        return
    query = root.children[0] if root.data == "start" else root
    for part in query.children:
        if isinstance(part, Tree) and part.data == "single_query":
            _check_single_query(part, outer)
