"""Outer values a correlated part reads, passed as one-element lists (Kuzu and Ladybug bug).

Both engines run an OPTIONAL MATCH's WHERE, and an EXISTS { } or COUNT { } subquery, as a hash
join of the outer rows with the part's own matches, keyed on every outer value the part reads
(EXPLAIN shows `HASH_JOIN ... Keys: v, o._ID`). A NULL key joins nothing, so wherever an outer
value the part reads is NULL the part finds nothing, whatever its WHERE says:

    MATCH (o:Object) OPTIONAL MATCH (o)<-[:CONTAINS]-(p) WHERE o.bbox_dim IS NULL
    MATCH (o:Object) RETURN EXISTS { MATCH (o)<-[:CONTAINS]-(p) WHERE o.bbox_dim IS NULL } AS e
    ... WITH *, CASE ... THEN NULL ... END AS v OPTIONAL MATCH (o)-->(p) WHERE v IS NULL OR ...

find no parent (false, 0) for an object without a box or a row whose v is NULL; Neo4j finds
them. A test that is NULL there anyway (`v > 1`) gives the same rows, which is why it hides; an
earlier node that is NULL (`q IS NOT NULL`) is read wrong too.

A one-element list holding the value is never NULL, and both engines read it back right. So
every largest part of a correlated expression that reads only outer values, one of which may be
NULL, is computed just before the clause, `WITH *, [part] AS _outerN`, and read as
`list_extract(_outerN, 1)`; the part depends on those values only, so its value is the same.
A part whose reads are never NULL stays (variables of a MATCH, and the properties every node has:
`nodeSymbol`, `class`, `name`, `center`), so most queries are unchanged, unless a lambda reads
it: there both engines read another outer row's value where the outer rows repeat a node (`[y
IN split(q.nodeSymbol, 'P') WHERE y < p.nodeSymbol]` in an OPTIONAL MATCH's WHERE lost p's
matches; fuzz seed 7373), so it moves too. Where the WITH goes:

- an OPTIONAL MATCH's WHERE: before it (the parts read only variables bound before it);
- a subquery in a MATCH's WHERE: that WHERE moves to a `WITH *, ... WHERE` after the MATCH (a
  MATCH's WHERE only filters its rows), so parts reading the MATCH's own variables move too;
- a subquery in a WITH's or RETURN's items, or in the ORDER BY of one that neither aggregates
  nor is DISTINCT (it sees the names in scope before the clause): before the clause; in a
  WITH's WHERE: that WHERE moves to a `WITH *, ... WHERE` after it.

A value of an OPTIONAL MATCH's own variables that may be NULL (a box), read by a subquery in
its WHERE, cannot move and is refused (`dialect`). Kuzu reads a field of a NULL struct held in
a list wrong (stale values), so there a box or map that would move whole is refused too. The
generated names are spelled out of any later `RETURN *` / `WITH *` (`Uniqueness.expand_stars`).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    binds,
    call,
    child_of,
    declared_names,
    declared_outside_subqueries,
    int_lit,
    is_distinct,
    is_optional,
    projected_names,
    star_with,
    tree,
    var,
)
from dsgqa.dialect.types import ALWAYS_SET, POINT_FIELDS, POINT_PROPERTIES, ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "outer value of a correlated part->one-element list"
# Parts that can never move: they match patterns, aggregate or read what a WITH cannot carry.
_FIXED = frozenset({"subquery", "pattern_predicate", "anon_node", "empty_node", "param",
                    "call_star", "call_distinct"})
# Trees that are pieces of an expression, not a value of their own.
_NOT_VALUES = frozenset({"where", "lambda_", "where_arg", "pipe_arg", "cast_arg", "case_when",
                         "map_entry", "sort_item", "proj_item", "name"})


def _free(node: object) -> set[str] | None:
    """The variables `node` reads and does not bind itself, or None when it holds a part that
    cannot move."""
    if not isinstance(node, Tree):
        return set()
    if node.data in _FIXED:
        return None
    if node.data == "var":
        return {plain_name(node.children[0])}
    found: set[str] = set()
    for child in node.children[1:] if node.data == "call" else node.children:
        names = _free(child)
        if names is None:
            return None
        found |= names
    return found - binds(node)


def _anchors(subquery: Tree) -> set[str]:
    """The names of a subquery's pattern nodes."""
    return {plain_name(node.children[0]) for node in subquery.iter_subtrees_topdown()
            if node.data == "node_pattern" and node.children
            and isinstance(node.children[0], Tree) and node.children[0].data == "name"}


def _node_names(pattern_list: Tree) -> set[str]:
    return {plain_name(child) for node in pattern_list.iter_subtrees_topdown()
            if node.data == "node_pattern"
            for child in node.children if isinstance(child, Tree) and child.data == "name"}


def _never_null(read: Tree, present: dict[str, bool]) -> bool:
    """Whether a variable or property read can never be NULL, `present` being the variables
    that are never NULL (-> whether each is a node). Only what the layout guarantees counts:
    every node has `nodeSymbol`, `class`, `name` and `center`; anything else may be missing."""
    if read.data == "var":
        return plain_name(read.children[0]) in present
    if read.data != "prop":
        return False
    base, key = read.children[0], plain_name(read.children[1])
    if base.data == "var":
        return key in ALWAYS_SET and present.get(plain_name(base.children[0])) is True
    return key in POINT_FIELDS and base.data == "prop" \
        and plain_name(base.children[1]) == "center" and _never_null(base, present)


def _reads_present(node: object, present: dict[str, bool]) -> bool:
    """Whether every variable and property `node` reads is never NULL: the join keys the
    engines make of them then always join."""
    if not isinstance(node, Tree):
        return True
    if node.data in ("var", "prop"):
        return _never_null(node, present)
    children = node.children[1:] if node.data == "call" else node.children
    return all(_reads_present(child, present) for child in children)


def _may_be_struct(node: Tree) -> bool:
    inner = node
    while inner.data == "paren" and isinstance(inner.children[0], Tree):
        inner = inner.children[0]
    if ctype(inner) in ("point", "point2d", "map") or inner.data == "map_literal":
        return True
    if inner.data == "prop" and plain_name(inner.children[1]) in POINT_PROPERTIES:
        return True
    return inner.data == "case_expr" and any(
        isinstance(c, Tree) and _may_be_struct(c.children[-1] if c.data == "case_when" else c)
        for c in inner.children)


class _Mover:
    """Replaces, in one clause, the outer parts of its correlated expressions by list reads."""

    def __init__(self, names: FreshNames, movable: set[str], present: dict[str, bool],
                 target: str) -> None:
        """`movable`: the names a WITH before the clause holds; `present`: those of the
        names in scope that are never NULL."""
        self.names, self.movable, self.present, self.target = names, movable, present, target
        self.moved: list[tuple[str, Tree]] = []
        # Parts the moved ones read, computed in a WITH of their own before theirs.
        self.first: list[tuple[str, Tree]] = []
        self.depth = 0  # subqueries being visited
        self.in_lambda = 0  # lambda bodies being visited

    def clauses(self, where: Tree | None = None) -> list[Tree]:
        """The WITHs that compute the moved parts (`where` goes on the last)."""
        stages = [stage for stage in (self.first, self.moved) if stage]
        return [star_with([tree("proj_item", tree("list_literal", part),
                                tree("name", Token("NAME", alias))) for alias, part in stage],
                          where if stage is stages[-1] else None)
                for stage in stages]

    def visit(self, node: object, outer: set[str], local: frozenset[str],
              correlated: bool) -> object:
        """`outer`: names from outside the correlated part being visited; `local`: names bound
        inside it (they shadow outer ones). Outside any correlated part only subqueries are."""
        if not isinstance(node, Tree):
            return node
        if node.data == "subquery" and correlated and not self.depth:
            if self._from_a_null_node(node, outer, local):
                return self._move_whole(node, outer | local)
            if any(name not in self.present for name in _anchors(node) & outer - local):
                raise DialectError("a subquery in an OPTIONAL MATCH's WHERE whose pattern "
                                   "starts from a node an earlier OPTIONAL MATCH may leave "
                                   "NULL and also reads the clause's own variables (the "
                                   "engines lose the rows where that node is NULL)")
        if node.data == "subquery":
            return self._subquery(node, outer | local)
        if correlated and node.data not in _NOT_VALUES:
            free = _free(node)
            if free and not free & local and free <= outer:
                if _reads_present(node, self.present):
                    # Never NULL, but read in a lambda: both engines read another outer
                    # row's value there when the outer rows repeat a node (`[y IN
                    # split(n4.nodeSymbol, '1') WHERE y < n3.nodeSymbol]` in an OPTIONAL
                    # MATCH's WHERE lost p10's match; fuzz seed 7373)
                    return self._move(node) if self.in_lambda and free <= self.movable \
                        else node
                return self._move(node) if free <= self.movable else self._stuck(node)
        inner = local | binds(node)
        start = 1 if node.data == "call" else 0
        lambda_body = node.data in ("lambda_", "where_arg")
        self.in_lambda += lambda_body
        node.children[start:] = [self.visit(c, outer, inner, correlated)
                                 for c in node.children[start:]]
        self.in_lambda -= lambda_body
        return node

    def _from_a_null_node(self, node: Tree, outer: set[str], local: frozenset[str]) -> bool:
        """Whether a subquery in an OPTIONAL MATCH's WHERE reads an outer value that may be
        NULL (a node an earlier OPTIONAL MATCH bound, as a node of its pattern too) and none of
        the clause's own variables: its value depends on outer values only, so it can be
        computed before the clause like any other such part."""
        reads = {plain_name(n.children[0]) for n in node.iter_subtrees_topdown()
                 if n.data in ("var", "node_pattern") and n.children
                 and isinstance(n.children[0], Tree) and n.children[0].data == "name"}
        reads &= outer | local
        return bool(reads) and not reads & local and reads <= self.movable \
            and any(name not in self.present for name in reads)

    def _subquery(self, node: Tree, outer: set[str]) -> Tree:
        body = node.children[1]
        # its own names, not those of a subquery inside it: an inner subquery's variables are
        # its own locals, never outer values read from here (a nested EXISTS's `o` read as
        # outer made its whole WHERE look like an outer part, and it was refused)
        local = frozenset(declared_outside_subqueries(body) - outer)
        self.depth += 1
        for holder, index in _expression_slots(body):
            holder.children[index] = self.visit(holder.children[index], outer, local, True)
        self.depth -= 1
        return node

    def _move_whole(self, subquery: Tree, outer: set[str]) -> Tree:
        """Move a subquery whole; the outer values it reads that may be NULL move first, as
        for any subquery (as a WITH's value it reads them as wrongly as in the WHERE)."""
        inner = _Mover(self.names, self.movable, self.present, self.target)
        inner._subquery(subquery, outer)
        self.first += inner.first + inner.moved
        return self._move(subquery)

    def _move(self, part: Tree) -> Tree:
        if self.target == "kuzu" and _may_be_struct(part):
            raise DialectError("a box or map read whole from outside an OPTIONAL MATCH's WHERE "
                               "or a subquery, on Kuzu (it reads a NULL one wrong there)")
        alias = self.names.fresh("_outer")
        self.moved.append((alias, part))
        return call("list_extract", var(alias), int_lit(1))

    def _stuck(self, part: Tree) -> Tree:
        raise DialectError("a value of an OPTIONAL MATCH's own variables that may be NULL (a "
                           "box), read by a subquery in its WHERE (the engines lose the rows "
                           "where it is NULL)")


def _expression_slots(body: Tree) -> list[tuple[Tree, int]]:
    """Where a subquery's body holds expressions, as (tree, child index): the WHEREs, the
    items of its WITHs and RETURN, its UNWIND lists; not its patterns."""
    if body.data == "subquery_pattern":
        where = child_of(body, "where")
        return [(where, 0)] if where is not None else []
    slots: list[tuple[Tree, int]] = []
    for single in body.children:
        if not (isinstance(single, Tree) and single.data == "single_query"):
            continue
        for clause in single.children:
            if not isinstance(clause, Tree):
                continue
            where = child_of(clause, "where")
            if where is not None:
                slots.append((where, 0))
            if clause.data == "unwind":
                slots.append((clause, 0))
            items = child_of(clause.children[0], "proj_items") \
                if clause.data in ("with_clause", "return_clause") else None
            if items is not None:
                slots += [(item, 0) for item in items.children if isinstance(item, Tree)]
    return slots


def _projected(projection: Tree) -> set[str] | None:
    """The names a WITH passes on, or None when unknown."""
    before = getattr(projection, "scope_before", None)
    items = child_of(projection, "proj_items")
    if before is None or items is None:
        return None
    return projected_names(items, before)


class _Clauses:
    """Walks one part of a query clause by clause, knowing which variables are never NULL."""

    def __init__(self, names: FreshNames, target: str) -> None:
        self.names, self.target = names, target
        self.present: dict[str, bool] = {}

    def mover(self, movable: set[str], present: dict[str, bool]) -> _Mover:
        return _Mover(self.names, movable, present, self.target)

    def match(self, clause: Tree) -> tuple[list[Tree], list[Tree]]:
        """(clauses to put before, after) a MATCH or OPTIONAL MATCH."""
        where = child_of(clause, "where")
        before = getattr(clause, "scope_before", None)
        pattern_list = child_of(clause, "pattern_list")
        declared = declared_names(pattern_list)
        # Inside its WHERE, its own variables matched.
        present = {**self.present, **{n: False for n in declared if n not in self.present},
                   **{n: True for n in _node_names(pattern_list)}}
        if not is_optional(clause):
            self.present = present
        if where is None or before is None:
            return [], []
        own = declared - set(before)
        if is_optional(clause):
            mover = self.mover(set(before), present)
            where.children[0] = mover.visit(where.children[0], set(before), frozenset(own), True)
            return mover.clauses() if mover.moved else [], []
        mover = self.mover(set(before) | own, present)
        where.children[0] = mover.visit(where.children[0], mover.movable, frozenset(), False)
        if not mover.moved:
            return [], []
        clause.children.remove(where)
        return [], mover.clauses(where)

    def projection(self, clause: Tree) -> tuple[list[Tree], list[Tree]]:
        """(clauses to put before, after) a WITH or RETURN."""
        projection = clause.children[0]
        before = getattr(projection, "scope_before", None)
        items = child_of(projection, "proj_items")
        ahead: list[Tree] = []
        if before is not None and items is not None:
            mover = self.mover(set(before), self.present)
            for item in items.children:
                if isinstance(item, Tree):
                    item.children[0] = mover.visit(item.children[0], mover.movable,
                                                   frozenset(), False)
            for sort_item in _sort_items(projection, items):
                sort_item.children[0] = mover.visit(sort_item.children[0], mover.movable,
                                                    frozenset(), False)
            ahead = mover.clauses() if mover.moved else []
        self.present = _passed_on(items, self.present) if items is not None else {}
        where = child_of(clause, "where")
        passed = _projected(projection)
        if where is None or passed is None:
            return ahead, []
        mover = self.mover(passed, self.present)
        where.children[0] = mover.visit(where.children[0], passed, frozenset(), False)
        if not mover.moved:
            return ahead, []
        clause.children.remove(where)
        return ahead, mover.clauses(where)


def _sort_items(projection: Tree, items: Tree) -> list[Tree]:
    """The ORDER BY items of a projection that neither aggregates nor drops repeated rows:
    those see the names in scope before it, so their outer parts move like the items' (`WITH o
    ORDER BY COUNT { MATCH (o)--(m) WHERE o.bbox_dim IS NULL }` sorted as if no box had
    one)."""
    order = child_of(projection, "order")
    if order is None or has_aggregate(items) or is_distinct(projection):
        return []
    return [item for item in order.children if isinstance(item, Tree)]


def _passed_on(items: Tree, present: dict[str, bool]) -> dict[str, bool]:
    """The never-NULL variables after a projection: those passed on as they are."""
    kept: dict[str, bool] = {}
    for item in items.children:
        if isinstance(item, Token):
            kept.update(present)
        elif item.children[0].data == "var" and plain_name(item.children[0].children[0]) \
                in present:
            source = plain_name(item.children[0].children[0])
            kept[plain_name(item.children[-1]) if len(item.children) > 1 else source] = \
                present[source]
    return kept


def pass_outer_values(single_query: Tree, names: FreshNames, target: str) -> bool:
    """Apply the pass to one part of a query; True when something moved."""
    walk = _Clauses(names, target)
    out: list[object] = []
    for clause in single_query.children:
        ahead: list[Tree] = []
        after: list[Tree] = []
        if isinstance(clause, Tree) and clause.data == "match":
            ahead, after = walk.match(clause)
        elif isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause"):
            ahead, after = walk.projection(clause)
        out.extend([*ahead, clause, *after])
    changed = len(out) != len(single_query.children)
    single_query.children = out
    return changed
