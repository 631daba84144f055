"""An EXISTS { } or COUNT { } value computed in a WITH of its own and read back through an
UNWIND (Kuzu and Ladybug bug).

Both engines fail with "Cannot evaluate expression with type PROPERTY." (Ladybug, for a node
compared whole: "Cannot evaluate internal ID") where a subquery reads an outer value (`p.name`,
`m <> p`, a WITH's value; a property of its own start node beside its own variables too) and a
later aggregation, sort, DISTINCT, SKIP or OPTIONAL MATCH takes what it computes inside a larger
expression. Measured, p1 in R1:

    MATCH (p:Place)<-[:CONTAINS]-(r:Room)
    RETURN sum(COUNT { MATCH (r)-->(m:MeshPlace) WHERE p.name = '' }) AS s
    RETURN COUNT { ... } + 1 AS c, count(*) AS n
    RETURN r.nodeSymbol AS x, COUNT { ... } + 1 AS c ORDER BY x
    WITH p, r, CASE WHEN p.name = 'x' THEN COUNT { ... } END AS v RETURN v ORDER BY v
    WITH p, r, COUNT { ... } AS c RETURN sum(c)           -- the WITH's whole value, summed
    MATCH (r:Room) WITH r, CASE WHEN EXISTS { MATCH (r)<--(m) WHERE m.class = 'office' OR
    r.center.y = -2.0 } THEN 1 END AS v OPTIONAL MATCH (r)-->(n) WHERE v <> n.center.y

The engines carry a WITH's values into the clauses that read them as expressions, so neither
`WITH *, p.name AS k` first nor a list around the subquery helps. An UNWIND does: its values
are computed where it stands. So a subquery in a WITH's items, or in the items of a RETURN that
aggregates, sorts or is DISTINCT but for one that is the subquery alone (that one runs; so does
any in a RETURN without those), is computed just before the clause:

    WITH *, COUNT { ... } AS _subquery1 UNWIND [_subquery1] AS _value1 RETURN sum(_value1)

which both engines run. Neo4j's rows are the same: an UNWIND of a one-element list gives each
row once, in its order, and the subquery reads only what is in scope before the clause. An
UNWIND's own list never evaluates a subquery ("type SUBQUERY"), whatever it reads, so one there
moves too. A subquery that reads a name its item binds (`[x IN xs | COUNT { ... x ... }]`)
cannot move and stays. The generated names are spelled out of later stars. The pass runs
again once computed nodes are found by their id (`computed_nodes.py`): a subquery from such a
node reads it only then.
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Tree

from dsgqa.dialect.emit import Emitter
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    CALLS,
    binds,
    child_of,
    column_name,
    declared_names,
    declared_outside_subqueries,
    is_distinct,
    name,
    reads,
    star_with,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "subquery value->own WITH + UNWIND"
def _outer_reads(subquery: Tree, outside: set[str]) -> set[str]:
    """What a subquery reads of the variables outside it (`outside`, or any it does not
    declare), a property of a node of its own pattern included."""
    declared = declared_names(subquery.children[1])
    return {read for read in reads(subquery, into_subqueries=True)
            if read in outside or read not in declared}


class _Mover:
    """Replaces subqueries in one clause by the names of their values computed before it."""

    def __init__(self, names: FreshNames, outside: set[str]) -> None:
        self.names, self.outside = names, outside
        self.moved: list[tuple[str, str, Tree]] = []  # (WITH alias, UNWIND name, subquery)

    def visit(self, node: object, bound: frozenset[str], every: bool) -> object:
        """`bound`: names the enclosing expression binds; `every`: move each subquery, not
        only those that read an outer value."""
        if not isinstance(node, Tree):
            return node
        if node.data == "subquery":
            if getattr(node, "computed_first", False):
                return node   # moved by the first run, in its own WITH now
            outer = _outer_reads(node, self.outside)
            if (every or outer) and not outer & bound:
                return self._move(node)
            return node
        inner = bound | binds(node)
        start = 1 if node.data in CALLS or node.data == "subquery" else 0   # not the name
        node.children[start:] = [self.visit(child, inner, every)
                                 for child in node.children[start:]]
        return node

    def _move(self, subquery: Tree) -> Tree:
        subquery.computed_first = True  # type: ignore[attr-defined]
        computed, value = self.names.fresh("_subquery"), self.names.fresh("_value")
        self.moved.append((computed, value, subquery))
        return var(value)

    def clauses(self) -> list[Tree]:
        """The WITH computing the moved values and the UNWINDs reading them back."""
        if not self.moved:
            return []
        with_clause = star_with([tree("proj_item", subquery, name(computed))
                                 for computed, _, subquery in self.moved])
        return [with_clause, *(tree("unwind", tree("list_literal", var(computed)), name(value))
                               for computed, value, _ in self.moved)]


def _alone(value: Tree) -> bool:
    while value.data == "paren" and isinstance(value.children[0], Tree):
        value = value.children[0]
    return value.data == "subquery"


def _gathers(projection: Tree, items: Tree) -> bool:
    """Whether a RETURN aggregates, sorts or drops repeated rows."""
    return has_aggregate(items) or child_of(projection, "order") is not None \
        or is_distinct(projection)


def _keep_column_name(item: Tree, text: str) -> None:
    """An unaliased RETURN item keeps Neo4j's column name, its text, once its value changes."""
    item.children.append(column_name(text))


def _move_from(clause: Tree, names: FreshNames, outside: set[str]) -> list[Tree]:
    """Move the subqueries of one clause; the clauses to put before it."""
    if not any(node.data == "subquery" for node in clause.iter_subtrees_topdown()):
        return []
    mover = _Mover(names, outside)
    if clause.data == "unwind":
        clause.children[0] = mover.visit(clause.children[0], frozenset(), True)
        return mover.clauses()
    returns = clause.data == "return_clause"
    items = child_of(clause.children[0], "proj_items")
    if items is None or (returns and not _gathers(clause.children[0], items)):
        return []
    for item in items.children:
        if not isinstance(item, Tree) or (returns and _alone(item.children[0])):
            continue
        moved = len(mover.moved)
        unaliased = returns and len(item.children) == 1
        text = getattr(item, "original_text", None) if unaliased else None
        if unaliased and text is None:
            text = Emitter().emit(item.children[0])
        item.children[0] = mover.visit(item.children[0], frozenset(), False)
        if text is not None and len(mover.moved) > moved:
            _keep_column_name(item, text)
    return mover.clauses()


def compute_subqueries_first(root: Tree, names: FreshNames,
                             hide_names: Callable[[Tree], None]) -> bool:
    """Apply the pass to each part of the query; True when something moved. `hide_names`
    spells generated names out of a part's stars (`Uniqueness.expand_stars`)."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        outside = declared_outside_subqueries(part)
        out: list[object] = []
        for clause in part.children:
            if isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause",
                                                            "unwind"):
                out.extend(_move_from(clause, names, outside))
            out.append(clause)
        if len(out) != len(part.children):
            part.children = out
            hide_names(part)
            changed = True
    return changed
