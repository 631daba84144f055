"""`CALL { }` subqueries written as the clauses they stand for.

Kuzu and Ladybug have no CALL subquery; models write one for a per-row aggregate or an
independent total. Three shapes have a faithful form in plain clauses:

1. A subquery before anything else runs once: its clauses, then its RETURN as a WITH (with
   its DISTINCT, ORDER BY, SKIP and LIMIT). An uncorrelated subquery after MATCH and UNWIND
   clauses only is moved before them: every outer row meets every row it returns either way.

       CALL { MATCH (o:Object) RETURN count(o) AS total } MATCH (r:Room) RETURN r, total
    -> MATCH (o:Object) WITH count(o) AS total MATCH (r:Room) RETURN r, total

2. A subquery that returns rows without aggregating: its clauses run for each outer row and
   an outer row it returns nothing for is dropped, which is what the same clauses inline do.
   A WITH then keeps the outer variables and the returned values, and drops its own.

       MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(m) RETURN m.nodeSymbol AS s }
    -> MATCH (r:Room) MATCH (r)-[:CONTAINS]->(m) WITH r, m.nodeSymbol AS s

3. A subquery that aggregates is one group per outer row: grouping by every outer variable
   gives the same groups only where no two outer rows are equal, which holds where every
   clause before is a MATCH whose nodes and relationships all have names. Aggregates without a
   grouping key return one row even when the subquery matched nothing (`count` 0), so its one
   MATCH becomes an OPTIONAL MATCH, and no aggregate may see the row it leaves empty:
   `count(*)` counts one of the pattern's own nodes, and a value that is not NULL there
   (`sum(CASE WHEN .. THEN 1 ELSE 0 END)`) is read as NULL where that node is.

       MATCH (r:Room) CALL { WITH r MATCH (r)-[:CONTAINS]->(o:Object) RETURN count(*) AS n }
    -> MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(o:Object) WITH r, count(o) AS n

4. ORDER BY / SKIP / LIMIT per outer row (the nearest place per object): the rows sorted,
   collected per outer row in order, sliced and unwound (`_first_rows`). A WITH inside a
   subquery run per outer row passes every outer variable on (`_carry_outer`); one that groups
   does so per outer row, under the condition of 3. A UNION inside is each part's rows
   collected as maps and joined (`_inline_union`).

5. `OPTIONAL CALL { }` (Neo4j 5.24) keeps an outer row the body returns no row for, with NULL
   in every returned column (`_optional_call`). A body that returns a row for every outer
   row (its RETURN aggregates without a grouping key, or every clause, if any, is an
   OPTIONAL MATCH) is a CALL as above; a body of one MATCH and a RETURN of values is the same
   clauses with the MATCH made OPTIONAL, each returned value that is not NULL on the row it
   leaves empty read as NULL there (`CASE WHEN m IS NULL THEN NULL ELSE 1 END`); any other
   is refused.

       MATCH (r:Room) OPTIONAL CALL (r) { MATCH (r)-[:CONTAINS]->(m) RETURN m.class AS c }
    -> MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(m) WITH r, m.class AS c

A subquery's variables are its own: one that reads an outer name it does not import (Neo4j's
new variable of that name), returns a name the outer query has, holds another CALL, or skips or
limits rows in a WITH per outer row, stays refused (`dialect`). Imports are `CALL (a, b) { }`,
`CALL (*) { }` or a first `WITH a, b` / `WITH *`.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import (
    BINDING_PARENTS,
    CALLS,
    NON_NULL_LITERALS,
    Splice,
    all_named,
    call,
    child_of,
    declared_names,
    function_name,
    hops,
    is_distinct,
    is_optional,
    item_name,
    name,
    name_elements,
    null_when_null,
    own_node,
    projected_names,
    reads,
    scope_after,
    shape,
    splice_clauses,
    tree,
    var,
    window,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "CALL { } subquery->inline clauses"
# Functions that give NULL for a NULL argument (the aggregate of them skips the empty row).
_NULL_IN_NULL_OUT = frozenset({
    "abs", "ceil", "floor", "round", "sign", "sqrt", "exp", "log", "log10", "sin", "cos", "tan",
    "tostring", "tointeger", "tofloat", "toupper", "tolower", "trim", "ltrim", "rtrim", "size",
    "left", "right", "substring", "replace", "point.distance", "distance", "labels", "type",
})


def _refuse(why: str) -> DialectError:
    return DialectError(f"CALL {{ }} subquery {why}")


def _imports(subquery: Tree, body: list[Tree], outer: list[str]) -> tuple[set[str], list[Tree]]:
    """The outer names the subquery imports, and its clauses after an importing WITH."""
    scope = child_of(subquery, "call_scope")
    if scope is not None:
        if any(isinstance(c, Token) for c in scope.children):   # CALL (*)
            return set(outer), body
        return {plain_name(c) for c in scope.children}, body
    first = body[0]
    if first.data != "with_clause":
        return set(), body
    projection = first.children[0]
    items = child_of(projection, "proj_items")
    plain = all(isinstance(c, Token) or (c.children[0].data == "var" and (
        len(c.children) == 1 or item_name(c) == plain_name(c.children[0].children[0])))
        for c in items.children)
    if len(first.children) > 1 or len(projection.children) > 1 or not plain:
        raise _refuse("whose first WITH does more than import variables")
    return projected_names(items, outer), body[1:]


def _null_when_empty(node: object, new: set[str]) -> bool:
    """Whether `node` is NULL where every variable of `new` is NULL."""
    if not isinstance(node, Tree):
        return False
    if node.data == "var":
        return plain_name(node.children[0]) in new
    if node.data in ("prop", "paren", "unary"):
        return _null_when_empty(node.children[-1] if node.data == "unary" else node.children[0],
                                new)
    if node.data in ("arith", "compare"):
        return _null_when_empty(node.children[0], new) or _null_when_empty(node.children[2], new)
    if node.data == "call" and function_name(node.children[0]).lower() in _NULL_IN_NULL_OUT:
        return any(_null_when_empty(arg, new) for arg in node.children[1:])
    if node.data == "case_expr" and node.children and all(
            isinstance(c, Tree) and c.data == "case_when" for c in node.children):
        # `CASE WHEN cond THEN v END` without ELSE: NULL where no condition holds
        return all(_never_true_when_empty(c.children[0], new) for c in node.children)
    return False


def _never_true_when_empty(condition: object, new: set[str]) -> bool:
    """Whether a condition is false or NULL where every variable of `new` is NULL: a value
    NULL there, or `x IS NOT NULL` of one (a subquery from a NULL node is left out: the engines
    misread NULL outer nodes in subqueries, `null_anchors.py`)."""
    if not isinstance(condition, Tree):
        return False
    if condition.data == "is_not_null":
        return _null_when_empty(condition.children[0], new)
    if condition.data == "and_":
        return any(_never_true_when_empty(c, new) for c in condition.children)
    return _null_when_empty(condition, new)


def _aggregate_arguments(node: object) -> list[Tree]:
    """Every aggregate call under `node`."""
    if not isinstance(node, Tree):
        return []
    if is_aggregate_call(node):
        return [node]
    return [found for child in node.children for found in _aggregate_arguments(child)]


def _counted_node(match: Tree, new: set[str], names: FreshNames) -> str:
    """A node variable the MATCH binds and no outer clause does (one is named if need be)."""
    found = own_node(match, new, names, "_called")
    if found is None:
        raise _refuse("counting rows of a pattern that binds no node of its own")
    return found


def _optional(match: Tree, items: Tree, new: set[str], names: FreshNames) -> None:
    """Turn the subquery's MATCH into an OPTIONAL MATCH whose empty row no aggregate sees."""
    for aggregate in _aggregate_arguments(items):
        if aggregate.data == "call_star":   # count(*): a node of the pattern, never NULL
            counted = _counted_node(match, new, names)
            aggregate.data = "call"
            aggregate.children = [aggregate.children[0], var(counted)]
            continue
        values = [c for c in aggregate.children[1:] if isinstance(c, Tree)]
        if not values:
            raise _refuse("an aggregate of no value")
        if not _null_when_empty(values[0], new):
            # `sum(CASE WHEN .. THEN 1 ELSE 0 END)`: the empty row's value is kept out.
            witness = _counted_node(match, new, names)
            index = aggregate.children.index(values[0])
            aggregate.children[index] = null_when_null(var(witness), values[0])
    match.children.insert(0, Token("OPTIONAL", "OPTIONAL"))


def _keyless(items: Tree) -> bool:
    """Every item is an aggregate or arithmetic of aggregates and literals (no grouping key:
    an item without an aggregate, `2 AS k`, is one, and groups nothing into no row)."""
    def only_aggregates(node: object) -> bool:
        if not isinstance(node, Tree) or is_aggregate_call(node) or node.data in NON_NULL_LITERALS:
            return True
        if node.data == "var":
            return False
        return all(only_aggregates(c) for c in (
            node.children[1:] if node.data in CALLS else node.children))
    return all(has_aggregate(item.children[0]) and only_aggregates(item.children[0])
               for item in items.children)


def _as_with(ret: Tree, carried: list[str], keep_order: bool) -> Tree:
    projection = ret.children[0]
    items = child_of(projection, "proj_items")
    items.children[:0] = [tree("proj_item", var(n)) for n in carried]
    if not keep_order:
        projection.children = [c for c in projection.children
                               if isinstance(c, Token) or c.data == "proj_items"]
    return tree("with_clause", projection)


def _body(subquery: Tree, part: Tree, outer: list[str],
          names: FreshNames) -> tuple[set[str], list[Tree], Tree]:
    """One part of the subquery: the names it imports, its clauses before the RETURN, and the
    RETURN; refused where it is no shape this module writes. A variable it declares named like
    an outer one it does not import is Neo4j's new variable (`CALL (r) { MATCH (r)-->(m) .. }`
    beside an outer m): it gets a fresh name, as the inlined clauses share the outer scope
    (in any case: the engines compare names so)."""
    imported, body = _imports(subquery, list(part.children), outer)
    if not body or body[-1].data != "return_clause":
        raise _refuse("that returns nothing")
    clauses, ret = body[:-1], body[-1]
    if any(c.data not in ("match", "unwind", "with_clause") for c in clauses):
        raise _refuse("with another CALL inside")
    items = child_of(ret.children[0], "proj_items")
    if any(isinstance(c, Token) for c in items.children):
        raise _refuse("returning *")
    returned = [item_name(item) for item in items.children]
    if None in returned:
        raise _refuse("returning a value without a name (AS)")
    outer_names = {n.lower() for n in outer}
    for own_name in set().union(*(declared_names(c) for c in body)) - imported - set(returned):
        if own_name.lower() in outer_names:
            fresh = names.fresh("_inner")
            for clause in body:
                _rename_variable(clause, own_name, fresh)
    own = set().union(*(reads(c) | declared_names(c) for c in body))
    if (own - imported) & set(outer) or set(returned) & set(outer):
        raise _refuse("sharing a variable name with the outer query it does not import")
    return imported, clauses, ret


def _rename_variable(node: Tree, old: str, new: str) -> None:
    """Every declaration and read of the variable `old` under `node` named `new`, in place:
    names are alpha-renamed, so a comprehension below binding `old` again gets `new` too,
    which leaves its meaning alone."""
    for sub in node.iter_subtrees():
        if sub.data in BINDING_PARENTS or sub.data in ("var", "proj_var"):
            for i, child in enumerate(sub.children):
                if isinstance(child, Tree) and child.data == "name" \
                        and plain_name(child) == old:
                    sub.children[i] = name(new)


def _holds_paths(match: Tree) -> bool:
    """Whether a MATCH names a path or has a variable-length relationship."""
    patterns = child_of(match, "pattern_list")
    return any(len(pattern.children) == 3 for pattern in patterns.children) \
        or any("var_length" in parts for _left, _rel, _right, parts in hops(patterns))


def _distinct_from(before: list[Tree]) -> int | None:
    """Where the outer rows start to be distinct bindings: the index after the last WITH that
    makes distinct rows (DISTINCT, or aggregating: one row per group), 0 for none; each later
    clause must be a MATCH (its elements named, rows stay distinct) or a WITH passing every
    variable on. None: two outer rows may be equal (an UNWIND, a WITH dropping a variable)."""
    start = 0
    for i, clause in enumerate(before):
        if clause.data == "with_clause":
            projection = clause.children[0]
            items = child_of(projection, "proj_items")
            scope = scope_after(before[:i])
            if is_distinct(projection) or has_aggregate(items):
                start = i + 1
            elif not set(scope) <= projected_names(items, scope):
                return None
        elif clause.data != "match":
            return None
    return start


def _distinct_outer(before: list[Tree], names: FreshNames, later_star: bool) -> list[str]:
    """The outer variables to group by, where grouping keeps each outer row (see
    `_distinct_from`; anonymous elements of the MATCHes after it are named)."""
    start = _distinct_from(before) if before else None
    if start is None:
        raise _refuse("aggregating per outer row where two outer rows may be equal")
    matches = [c for c in before[start:] if c.data == "match"]
    if any(_holds_paths(match) for match in before if match.data == "match"):
        # Grouping by a path or a variable-length relationship split one outer row into two
        # groups on Ladybug once an OPTIONAL MATCH had multiplied the rows (fuzz seed 21).
        raise _refuse("aggregating per outer row of a path or variable-length relationship")
    if not all(all_named(c) for c in matches):
        if later_star:
            raise _refuse("aggregating per outer row before a projection of *")
        for match in matches:
            name_elements(match, names, "_outer")
    return scope_after(before)


def _inline(subquery: Tree, before: list[Tree], names: FreshNames,
            later_star: bool) -> tuple[list[Tree], int]:
    """The clauses that stand for `subquery` after the clauses `before`, and where they go:
    the index in `before` they are inserted at. `later_star`: a later projection is `*`."""
    query = subquery.children[-1]
    parts = [c for c in query.children if isinstance(c, Tree) and c.data == "single_query"]
    outer = scope_after(before)
    if len(parts) > 1:
        if getattr(subquery, "optional", False):
            raise DialectError("OPTIONAL CALL { } of a UNION")
        return _inline_union(subquery, query, parts, before, outer, names, later_star)
    imported, clauses, ret = _body(subquery, parts[0], outer, names)
    if getattr(subquery, "optional", False):
        _optional_call(clauses, ret, imported, outer, names)
    items = child_of(ret.children[0], "proj_items")
    projection = ret.children[0]
    aggregating = has_aggregate(items) or is_distinct(projection)
    if not imported and all(c.data in ("match", "unwind") for c in before):
        return [*clauses, _as_with(ret, [], keep_order=True)], 0
    if len(clauses) == 2 and _cuts(clauses[1]):
        return _top_rows_aggregated(clauses, ret, imported, before, names, later_star), \
            len(before)
    if any(c.data == "with_clause" for c in clauses):
        _carry_outer(clauses, outer, before, names, later_star)
    if len(projection.children) > 2 or (len(projection.children) == 2
                                         and not is_distinct(projection)):
        if has_aggregate(items) and (_keyless(items) or is_distinct(projection)):
            raise _refuse("ordering or limiting aggregated rows of each outer row")
        outer = _distinct_outer(before, names, later_star)
        if has_aggregate(items):
            clauses, ret = _groups_first(clauses, ret, outer)
        elif is_distinct(projection):
            clauses, ret = _distinct_first(clauses, ret, outer)
        return [*clauses, *_first_rows(ret, clauses, imported, outer, names)], len(before)
    if aggregating:
        outer = _distinct_outer(before, names, later_star)
        if _keyless(items) and not is_distinct(projection):
            # One MATCH, then OPTIONAL MATCHes only: those keep each of its rows (and add
            # none where it found nothing), so the MATCH made OPTIONAL is the whole change.
            if clauses[0].data != "match" or not all(
                    c.data == "match" and is_optional(c) for c in clauses[1:]):
                raise _refuse("aggregating over anything but a MATCH and OPTIONAL MATCHes")
            if not is_optional(clauses[0]):
                new = declared_names(clauses[0]) - imported - set(outer)
                _optional(clauses[0], items, new, names)
    return [*clauses, _as_with(ret, outer, keep_order=False)], len(before)


def _optional_call(clauses: list[Tree], ret: Tree, imported: set[str], outer: list[str],
                   names: FreshNames) -> None:
    """`OPTIONAL CALL { }`'s body, in place, as a body that returns one row of NULLs where the
    optional call's returns none (the Cypher Manual, "Optional subquery calls"): nothing to do
    where it returns a row for every outer row; one MATCH made OPTIONAL, its returned values
    guarded (see the module); else refused."""
    projection = ret.children[0]
    items = child_of(projection, "proj_items")
    cut = child_of(projection, "skip") is not None or child_of(projection, "limit") is not None
    if not cut and (_keyless(items) or all(c.data == "match" and is_optional(c)
                                           for c in clauses)):
        return   # one row per outer row at least: the call keeps each as it is
    if len(clauses) != 1 or clauses[0].data != "match" or has_aggregate(items) or cut \
            or len(projection.children) > 1:
        raise DialectError("OPTIONAL CALL { } whose body may return no row for an outer row, "
                           "other than one MATCH and a RETURN of values")
    match = clauses[0]
    new = declared_names(match) - imported - set(outer)
    witness = own_node(match, new, names, "_called")
    if witness is None:
        raise DialectError("OPTIONAL CALL { } of a pattern that binds no node of its own")
    for item in items.children:
        if not _null_when_empty(item.children[0], new):
            item.children[0] = null_when_null(var(witness), item.children[0])
    match.children.insert(0, Token("OPTIONAL", "OPTIONAL"))


def _cuts(clause: Tree) -> bool:
    """A WITH that skips or limits its rows."""
    return clause.data == "with_clause" and (child_of(clause.children[0], "skip") is not None
                                            or child_of(clause.children[0], "limit") is not None)


def _top_rows_aggregated(clauses: list[Tree], ret: Tree, imported: set[str],
                         before: list[Tree], names: FreshNames, later_star: bool) -> list[Tree]:
    """`MATCH .. WITH [DISTINCT] items ORDER BY .. LIMIT k RETURN aggregates` per outer row (the
    two bulkiest objects of each room, collected): the WITH's rows per outer row as a RETURN
    of them would be (`_first_rows`), then the aggregates grouped per outer row. The MATCH is
    made OPTIONAL, so an outer row it finds nothing for keeps one row of NULLs, which every
    aggregate must skip (`collect(o.class)` is [] there, as in Neo4j); a `count(*)` or a value
    that is not NULL there is refused."""
    match, cut = clauses
    items = child_of(ret.children[0], "proj_items")
    cut_items = child_of(cut.children[0], "proj_items")
    if match.data != "match" or is_optional(match) or not _keyless(items) \
            or has_aggregate(cut_items) or is_distinct(ret.children[0]) \
            or any(isinstance(i, Token) for i in cut_items.children):
        raise _refuse("with a WITH that skips or limits rows inside, run per outer row")
    projected = {item_name(i) for i in cut_items.children}
    if None in projected:
        raise _refuse("returning a value without a name (AS)")
    for aggregate in _aggregate_arguments(items):
        values = [c for c in aggregate.children[1:] if isinstance(c, Tree)]
        if aggregate.data == "call_star" or not values \
                or not _null_when_empty(values[0], projected):   # type: ignore[arg-type]
            raise _refuse("aggregating a value that is not NULL on an outer row's empty row, "
                          "after a WITH that limits rows")
    outer = _distinct_outer(before, names, later_star)
    match.children.insert(0, Token("OPTIONAL", "OPTIONAL"))
    as_return = tree("return_clause", cut.children[0])
    body = [match]
    if is_distinct(cut.children[0]):
        body, as_return = _distinct_first(body, as_return, outer)
    return [*body, *_first_rows(as_return, body, imported, outer, names),
            _as_with(ret, outer, keep_order=False)]


def _carry_outer(clauses: list[Tree], outer: list[str], before: list[Tree], names: FreshNames,
                 later_star: bool) -> None:
    """A WITH inside a subquery run per outer row passes every outer variable on, in place:
    `WITH m, point.distance(m.center, o.center) AS d` becomes `WITH o, m, ... AS d`. One that
    aggregates or is DISTINCT then groups per outer row, which is faithful only where no two
    outer rows are equal (checked as for aggregates), and one that aggregates without a grouping
    key keeps the outer rows its single MATCH finds nothing for (made OPTIONAL, as for such a
    RETURN); one that skips or limits would cut across outer rows, and is refused."""
    for at, clause in enumerate(clauses):
        if clause.data != "with_clause":
            continue
        projection = clause.children[0]
        if child_of(projection, "skip") is not None or child_of(projection, "limit") is not None:
            raise _refuse("with a WITH that skips or limits rows inside, run per outer row")
        items = child_of(projection, "proj_items")
        if has_aggregate(items) or is_distinct(projection):
            _distinct_outer(before, names, later_star)
        if has_aggregate(items) and _keyless(items) and not is_distinct(projection):
            # One row per outer row even where nothing matched (`WITH count(o) AS n` is 0
            # there): as for a RETURN that aggregates, its one MATCH becomes OPTIONAL.
            if at != 1 or clauses[0].data != "match":
                raise _refuse("aggregating without a grouping key in a WITH after anything but "
                              "a single MATCH")
            if not is_optional(clauses[0]):
                _optional(clauses[0], items, declared_names(clauses[0]) - set(outer), names)
        if any(isinstance(c, Token) for c in items.children):   # WITH *: passes them on
            continue
        passed = {item_name(item) for item in items.children}
        items.children[:0] = [tree("proj_item", var(n)) for n in outer if n not in passed]


def _distinct_first(clauses: list[Tree], ret: Tree, outer: list[str]
                    ) -> tuple[list[Tree], Tree]:
    """`RETURN DISTINCT items ORDER BY .. LIMIT k` per outer row: the distinct rows first, per
    outer row (`WITH DISTINCT outer, items`, faithful where no two outer rows are equal, which
    the caller checked), then the RETURN of their names, sorted and cut."""
    projection = ret.children[0]
    items = child_of(projection, "proj_items")
    if any(item_name(item) is None for item in items.children):
        raise _refuse("returning a value without a name (AS)")
    distinct = tree("with_clause", tree("projection", Token("DISTINCT", "DISTINCT"), tree(
        "proj_items", *[tree("proj_item", var(n)) for n in outer
                        if n not in {item_name(i) for i in items.children}],
        *items.children)))
    rest = [c for c in projection.children if isinstance(c, Tree) and c.data != "proj_items"]
    plain = tree("return_clause", tree("projection", tree(
        "proj_items", *[tree("proj_item", var(item_name(i))) for i in items.children]), *rest))
    return [*clauses, distinct], plain


def _groups_first(clauses: list[Tree], ret: Tree, outer: list[str]
                  ) -> tuple[list[Tree], Tree]:
    """`RETURN k, count(*) AS n ORDER BY n DESC LIMIT 1` per outer row (the most common class
    of each room): the groups first, per outer row (`WITH outer, k, count(*) AS n`, faithful
    where no two outer rows are equal, which the caller checked), then the RETURN of their
    names, sorted and cut. A sort key must be a returned column, by its name or its
    expression (`ORDER BY count(*)`): after the grouping WITH nothing else is in scope."""
    projection = ret.children[0]
    items = child_of(projection, "proj_items")
    columns = {shape(item.children[0]): item_name(item) for item in items.children}
    if any(name is None for name in columns.values()):
        raise _refuse("returning a value without a name (AS)")
    order = child_of(projection, "order")
    for sort_item in order.children if order is not None else ():
        key = sort_item.children[0]
        if key.data == "var" and plain_name(key.children[0]) in columns.values():
            continue
        if shape(key) not in columns:
            raise _refuse("ordering aggregated rows of each outer row by a value not returned")
        sort_item.children[0] = var(columns[shape(key)])
    grouped = tree("with_clause", tree("projection", tree(
        "proj_items", *[tree("proj_item", var(n)) for n in outer
                        if n not in columns.values()], *items.children)))
    rest = [c for c in projection.children if isinstance(c, Tree) and c.data != "proj_items"]
    plain = tree("return_clause", tree("projection", tree(
        "proj_items", *[tree("proj_item", var(n)) for n in columns.values()]), *rest))
    return [*clauses, grouped], plain


def _refuse_renamed_own(columns: list[str], own: list[str], items: list[Tree]) -> None:
    """Sorting in a WITH that carries the body's own variables beside the returned columns: a
    column named like one of them, for another value, would shadow it there."""
    if set(columns) & set(own) - {plain_name(i.children[0].children[0]) for i in items
                                  if i.children[0].data == "var"}:
        raise _refuse("returning a value under the name of one of its own variables")


def _first_rows(ret: Tree, clauses: list[Tree], imported: set[str], outer: list[str],
                names: FreshNames) -> list[Tree]:
    """`RETURN items ORDER BY keys [SKIP s] [LIMIT k]` per outer row: the rows sorted, collected
    per outer row as maps (the order barrier keeps the order into collect()), sliced, unwound
    and read back:

        WITH outer, own, items ORDER BY keys WITH outer, collect({items}) AS _ranked
        UNWIND _ranked[s..s + k] AS _row WITH outer, _row.item AS item
    """
    projection = ret.children[0]
    items = child_of(projection, "proj_items")
    columns = [item_name(item) for item in items.children]
    own = sorted(set(scope_after(clauses)) - imported - set(outer))
    _refuse_renamed_own(columns, own, items.children)
    order = child_of(projection, "order")
    skip = child_of(projection, "skip")
    limit = child_of(projection, "limit")
    carried = [tree("proj_item", var(n)) for n in [*outer, *own] if n not in columns]
    sorted_rows = tree("with_clause", tree("projection", tree(
        "proj_items", *carried, *items.children), *([order] if order is not None else [])))
    ranked = names.fresh("_ranked")
    row = tree("map_literal", *[tree("map_entry", name(c), var(c)) for c in columns])
    collected = tree("with_clause", tree("projection", tree(
        "proj_items", *[tree("proj_item", var(n)) for n in outer],
        tree("proj_item", call("collect", row), name(ranked)))))
    unwound = names.fresh("_row")
    first = window(var(ranked), [c for c in (skip, limit) if c is not None])
    read_back = tree("with_clause", tree("projection", tree(
        "proj_items", *[tree("proj_item", var(n)) for n in outer],
        *[tree("proj_item", tree("prop", var(unwound), name(c)), name(c)) for c in columns])))
    return [sorted_rows, collected, tree("unwind", first, name(unwound)), read_back]


def _inline_union(subquery: Tree, query: Tree, parts: list[Tree], before: list[Tree],
                  outer: list[str], names: FreshNames,
                  later_star: bool) -> tuple[list[Tree], int]:
    """`CALL { part UNION [ALL] part ... }`: each part's rows collected as a list of maps (its
    one MATCH made OPTIONAL, the empty row left out), the lists joined and unwound, and the
    maps read back (`WITH DISTINCT` for UNION). Each part must be one MATCH and a RETURN of
    plain values, which may sort and cut its rows; per outer row, the outer rows must be
    distinct, as for aggregates."""
    kinds = {bool(u.children) for u in query.children if isinstance(u, Tree) and u.data == "union"}
    if len(kinds) != 1:
        raise _refuse("mixing UNION and UNION ALL")
    shaped = [_body(subquery, part, outer, names) for part in parts]
    columns = [item_name(i) for i in child_of(shaped[0][2].children[0], "proj_items").children]
    for _imported, clauses, ret in shaped:
        items = child_of(ret.children[0], "proj_items")
        if any(c.data == "with_clause" for c in clauses):
            raise _refuse("with a WITH inside a UNION part")
        if len(clauses) != 1 or clauses[0].data != "match" or has_aggregate(items) \
                or is_distinct(ret.children[0]):
            raise _refuse("with a UNION of parts that are more than one MATCH and a RETURN of "
                          "values")
        if [item_name(i) for i in items.children] != columns:
            raise _refuse("with a UNION of parts returning other columns")
    correlated = any(imported for imported, _, _ in shaped)
    if not correlated and all(c.data in ("match", "unwind") for c in before):
        carried, at = [], 0
    else:
        carried, at = _distinct_outer(before, names, later_star), len(before)
    out: list[Tree] = []
    lists: list[str] = []
    for imported, (match,), ret in shaped:
        projection = ret.children[0]
        items = child_of(projection, "proj_items").children
        ranked = [c for c in projection.children if c is not child_of(projection, "proj_items")]
        witness = None
        if not is_optional(match):   # the part's empty row is no row of it
            witness = _counted_node(match, declared_names(match) - imported - set(carried), names)
            match.children.insert(0, Token("OPTIONAL", "OPTIONAL"))
        sorted_rows: list[Tree] = []
        if ranked:
            # `RETURN .. ORDER BY .. LIMIT k` in the part: its rows sorted before collect()
            # (the order barrier keeps that order), the list cut after it, as `_first_rows`.
            own = [n for n in scope_after([match]) if n not in imported and n not in carried]
            _refuse_renamed_own(columns, own, items)
            sorted_rows = [tree("with_clause", tree("projection", tree(
                "proj_items", *[tree("proj_item", var(n)) for n in [*carried, *lists, *own]
                                if n not in columns], *items),
                *[c for c in ranked if c.data == "order"]))]
            values = [var(column) for column in columns]
        else:
            values = [item.children[0] for item in items]
        row: Tree = tree("map_literal", *[tree("map_entry", name(column), value)
                                           for column, value in zip(columns, values, strict=True)])
        if witness is not None:
            row = tree("case_expr", tree("case_when", tree("is_null", var(witness)),
                                         tree("null_lit")), row)
        collected = names.fresh("_part")
        out += [match, *sorted_rows, tree("with_clause", tree("projection", tree(
            "proj_items", *[tree("proj_item", var(n)) for n in [*carried, *lists]],
            tree("proj_item", call("collect", row), name(collected)))))]
        kept = window(var(collected), ranked)
        if kept.data == "slice":
            out.append(tree("with_clause", tree("projection", tree(
                "proj_items", *[tree("proj_item", var(n)) for n in [*carried, *lists]],
                tree("proj_item", kept, name(collected))))))
        lists.append(collected)
    joined: Tree = var(lists[0])
    for listed in lists[1:]:
        joined = call("list_concat", joined, var(listed))
    unwound = names.fresh("_row")
    read_back = [tree("proj_item", tree("prop", var(unwound), name(column)), name(column))
                 for column in columns]
    projection = tree("projection", tree("proj_items", *[tree("proj_item", var(n))
                                                         for n in carried], *read_back))
    if kinds == {False}:   # UNION: distinct rows
        projection.children.insert(0, Token("DISTINCT", "DISTINCT"))
    return [*out, tree("unwind", joined, name(unwound)), tree("with_clause", projection)], at


def _stars(clauses: list[Tree]) -> bool:
    """Whether a WITH or RETURN among `clauses` projects `*`."""
    return any(c.data in ("with_clause", "return_clause") and any(
        isinstance(t, Token) for t in child_of(c.children[0], "proj_items").children)
        for c in clauses if isinstance(c, Tree))


def inline_call_subqueries(root: Tree, names: FreshNames) -> bool:
    """Replace each CALL subquery by its clauses, in place; True when one was. Any CALL left
    is refused later."""
    def inlined(clauses: list[Tree], k: int) -> Splice | None:
        if clauses[k].data != "call_subquery":
            return None
        new, at = _inline(clauses[k], clauses[:k], names, _stars(clauses[k + 1:]))
        return at, new, False
    return splice_clauses(root, inlined)
