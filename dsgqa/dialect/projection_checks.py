"""Projections Neo4j 5 rejects when it compiles a query; the engines run them.

- Implicit grouping keys (removed in Neo4j 5.0): in a WITH or RETURN that aggregates, an
  expression holding an aggregate may read, outside its aggregates, only literals, parameters,
  variables that are themselves projected items, and properties of a variable that are
  projected items (or of such a variable); a lambda's own variables in its body; in a
  subquery's body, the names it sees from outside (`check_grouping`, on the query as
  written). `WITH count(*) AS total MATCH (o) RETURN o.class, count(*) * 1.0 / total`
  fails in Neo4j ("Aggregation column contains implicit grouping expressions"); the engines
  fail with an internal error, or group by the hidden key and answer.
- Two result columns of one name (`RETURN n.class, n.class`), and an expression a WITH passes
  on without a name (`WITH n.class`): errors in Neo4j; the engines answer.
- An aggregate in a WHERE (`MATCH (n) WHERE count(n) > 1`), or in the ORDER BY of a projection
  that does not aggregate (`RETURN o.class ORDER BY count(*)`): an error in Neo4j; the engines
  fail with an internal error, which would be charged to the engine.
- The parts of a UNION must return the same column names: Neo4j refuses `RETURN 1 AS a UNION
  RETURN 1 AS b`, which the engines answer. Parts naming the same columns in another order are
  valid in Neo4j, which matches them by name; the engines match them by position, so such a
  part's items are put in the first part's order.

A model's query that fails on Heracles' Neo4j fails here with `syntax`, so it scores the same.
The checks never flag what they cannot tell: a read inside a subquery or a pattern of an
aggregating column is taken as allowed (Neo4j flags an outer variable read there), as is a
name a comprehension binds.
"""

from __future__ import annotations

from collections.abc import Iterator

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import CALLS, binds, child_of, names_outside, shape, text_of

_NOT_READ = frozenset({"subquery", "pattern_predicate", "param", "int_lit", "float_lit",
                       "str_lit", "true_lit", "false_lit", "null_lit"})


def _items(projection: Tree) -> list[Tree | Token]:
    return list(child_of(projection, "proj_items").children)


def _column(item: Tree) -> str | None:
    """The column's name: the alias, the variable, or a RETURN item's own text."""
    if len(item.children) > 1:
        return plain_name(item.children[1])
    if item.children[0].data == "var":
        return plain_name(item.children[0].children[0])
    return getattr(item, "original_text", None)


def _grouping_keys(items: list[Tree]) -> tuple[set[str], set[object]]:
    """Neo4j's grouping keys an aggregating column may read (`ReturnItems.
    checkAmbiguousGrouping`): the items that are a variable, and those that are a property of
    a variable (`r.class`, not `r.center.x` nor `size(r.class)`). An index `r['class']` counts
    too here (Neo4j's does not), so as never to charge the model for a valid query."""
    key_vars: set[str] = set()
    key_props: set[object] = set()
    for item in items:
        value = item.children[0]
        if value.data == "var":
            key_vars.add(plain_name(value.children[0]))
        elif value.data in ("prop", "index") and isinstance(value.children[0], Tree) \
                and value.children[0].data == "var":
            key_props.add(shape(value))
    return key_vars, key_props


def _hidden_key(node: object, key_vars: set[str], key_props: set[object],
                bound: frozenset[str]) -> str | None:
    """The first expression `node` reads outside an aggregate that is no grouping key
    (`AmbiguousAggregation.ambiguousExpressions`): a variable that is no key, or a property of
    one. A lambda's own variables are in scope in its body (a `ScopeExpression`); subqueries
    and patterns are not walked (Neo4j does, but what they declare is not told here)."""
    if not isinstance(node, Tree) or node.data in _NOT_READ:
        return None
    if node.data in CALLS:
        if is_aggregate_call(node):
            return None
        args = node.children[1:]
    else:
        args = node.children
    if node.data in ("prop", "index") and shape(node) in key_props:
        return None
    if node.data == "var":
        name = plain_name(node.children[0])
        return None if name in key_vars or name in bound else name
    inner = bound | binds(node)
    for child in args:
        found = _hidden_key(child, key_vars, key_props, inner)
        if found is not None:
            return text_of(node) if node.data in ("prop", "index") \
                and isinstance(node.children[0], Tree) and node.children[0].data == "var" \
                else found
    return None


def _check_grouping(items: list[Tree | Token], outer: frozenset[str]) -> None:
    """`outer`: the names a subquery's body sees from outside (`CALL (r) { .. }`, or EXISTS /
    COUNT / COLLECT), which Neo4j takes as constant there: `CALL (r) { MATCH (r)-->(m) RETURN
    r.class + count(m) AS x }` is valid, while the importing WITH of `CALL { WITH r .. }`
    makes `r` the body's own (Neo4j's language server reports the implicit grouping key)."""
    if any(isinstance(item, Token) for item in items):  # `*`: every variable is a key
        return
    trees = [item for item in items if isinstance(item, Tree)]
    aggregating = [item for item in trees if has_aggregate(item.children[0])]
    if not aggregating:
        return
    key_vars, key_props = _grouping_keys([item for item in trees if item not in aggregating])
    for item in aggregating:
        value = item.children[0]
        hidden = _hidden_key(value, key_vars | outer, key_props, frozenset())
        if hidden is not None:
            written = getattr(item, "original_text", None)
            column = f"'{written}' reads" if written else "an aggregating column reads"
            raise CypherSyntaxError(
                f"Aggregation column contains implicit grouping expressions: "
                f"{column} '{hidden}', which is not a projected item "
                "(Neo4j 5 requires it to be one, or moved into a preceding WITH)")


def _imported(call: Tree, root: Tree) -> frozenset[str]:
    """What a CALL { } body sees from outside: the names of its scope clause (all of them for
    `CALL (*)`); none without one, the importing WITH's names being the body's own."""
    scope = child_of(call, "call_scope")
    if scope is None:
        return frozenset()
    if any(isinstance(child, Token) for child in scope.children):   # `*`
        return frozenset(names_outside(root, call))
    return frozenset(plain_name(child) for child in scope.children if isinstance(child, Tree))


def _projections(node: Tree, outer: frozenset[str],
                 root: Tree) -> Iterator[tuple[Tree, frozenset[str]]]:
    """Every WITH and RETURN under `node`, with the names it sees from outside its body."""
    for child in node.children:
        if not isinstance(child, Tree):
            continue
        if child.data in ("with_clause", "return_clause"):
            yield child, outer
        if child.data == "call_subquery":
            body = child_of(child, "query")
            if body is not None:
                yield from _projections(body, _imported(child, root), root)
        elif child.data == "subquery":
            yield from _projections(child, outer | names_outside(root, child), root)
        else:
            yield from _projections(child, outer, root)


def check_grouping(root: Tree, text: str) -> None:
    """Raise Neo4j's error for an implicit grouping key (see the module), in every WITH and
    RETURN, a subquery's too (`text`, the query's, tells whether it has any); on the query as
    written: a rewrite (`lambda_aggregates.py`) moves aggregates out of their projection."""
    if "{" not in text:
        query = root.children[0] if root.data == "start" else root
        for part in query.children:
            if isinstance(part, Tree) and part.data == "single_query":
                for clause in part.children:
                    if isinstance(clause, Tree) \
                            and clause.data in ("with_clause", "return_clause"):
                        _check_grouping(_items(clause.children[0]), frozenset())
        return
    for clause, outer in _projections(root, frozenset(), root):
        _check_grouping(_items(clause.children[0]), outer)


def _check_projection(clause: Tree) -> list[str | None]:
    items = _items(clause.children[0])
    names: list[str | None] = []
    for item in items:
        if isinstance(item, Token):
            continue
        name = _column(item)
        if clause.data == "with_clause" and len(item.children) == 1 \
                and item.children[0].data != "var":
            raise CypherSyntaxError("Expression in WITH must be aliased (use AS)")
        if name is not None and name in names:
            raise CypherSyntaxError(f"Multiple result columns with the same name '{name}' are "
                                    "not supported")
        names.append(name)
    order = child_of(clause.children[0], "order")
    if order is not None and has_aggregate(order) \
            and not any(isinstance(item, Tree) and has_aggregate(item) for item in items):
        raise CypherSyntaxError("Cannot use aggregation in ORDER BY if there are no aggregate "
                                "expressions in the preceding RETURN or WITH")
    return names


def _check_union(columns: list[list[str | None]], returns: list[Tree | None]) -> None:
    """The parts must name the same columns; a part naming them in another order (Neo4j
    matches the parts by name, the engines by position) gets its items put in the first
    part's order, which changes nothing in Neo4j."""
    first = columns[0]
    for other, clause in zip(columns[1:], returns[1:], strict=True):
        if None in first or None in other:
            continue
        if set(other) != set(first):
            raise CypherSyntaxError("All sub queries in an UNION must have the same return "
                                    "column names")
        if other != first and clause is not None:
            items = child_of(clause.children[0], "proj_items")
            by_name = {_column(item): item for item in items.children
                       if isinstance(item, Tree)}
            items.children = [by_name[name] for name in first]


def _check_where(clause: Tree) -> None:
    where = child_of(clause, "where")
    if where is not None and has_aggregate(where):
        raise CypherSyntaxError("Invalid use of an aggregating function in a WHERE (aggregate "
                                "in a WITH, then filter)")


def check_projections(root: Tree) -> None:
    """Raise `CypherSyntaxError` for what Neo4j rejects (see the module)."""
    for clause in root.iter_subtrees_topdown():
        if clause.data in ("match", "with_clause"):
            _check_where(clause)
    query = root.children[0] if root.data == "start" else root
    returned: list[list[str | None]] = []
    returns: list[Tree | None] = []
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        last: list[str | None] = []
        final: Tree | None = None
        for clause in part.children:
            if isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause"):
                last = _check_projection(clause)
                final = clause if clause.data == "return_clause" else None
        returned.append(last)
        returns.append(final)
    if len(returned) > 1:
        _check_union(returned, returns)
