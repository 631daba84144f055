"""Projections Neo4j 5 rejects when it compiles a query; the engines run them.

- Implicit grouping keys (removed in Neo4j 5.0): in a WITH or RETURN that aggregates, an
  expression holding an aggregate may read, outside its aggregates, only literals, parameters,
  variables that are themselves projected items, and properties that are projected items (or
  of such a variable). `WITH count(*) AS total MATCH (o) RETURN o.class, count(*) * 1.0 / total`
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
The checks read the original tree (before any rewrite) and never flag what they cannot tell:
anything inside a subquery or a pattern, a name a comprehension binds, and a subquery's own
projections are taken as allowed.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import CALLS, binds, child_of, declared_names, shape, text_of

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


def _local_names(node: Tree) -> set[str]:
    """Names bound inside an expression (comprehensions, quantifiers, reduce, patterns)."""
    return declared_names(node).union(
        *(binds(sub) for sub in node.iter_subtrees_topdown()))


def _hidden_key(node: object, keys: set[object], key_vars: set[str],
                local: set[str]) -> str | None:
    """The first expression `node` reads outside an aggregate that is no grouping key."""
    if not isinstance(node, Tree) or node.data in _NOT_READ:
        return None
    if node.data in CALLS:
        if is_aggregate_call(node):
            return None
        args = node.children[1:]
    else:
        args = node.children
    if node.data in ("prop", "index", "var") and shape(node) in keys:
        return None
    if node.data == "var":
        name = plain_name(node.children[0])
        return None if name in key_vars or name in local else name
    for child in args:
        found = _hidden_key(child, keys, key_vars, local)
        if found is not None:
            return text_of(node) if node.data in ("prop", "index") else found
    return None


def _check_grouping(items: list[Tree | Token]) -> None:
    if any(isinstance(item, Token) for item in items):  # `*`: every variable is a key
        return
    trees = [item for item in items if isinstance(item, Tree)]
    aggregating = [item for item in trees if has_aggregate(item.children[0])]
    if not aggregating:
        return
    grouping = [item.children[0] for item in trees if item not in aggregating]
    keys = {shape(value) for value in grouping}
    key_vars = {plain_name(value.children[0]) for value in grouping if value.data == "var"}
    for item in aggregating:
        value = item.children[0]
        hidden = _hidden_key(value, keys, key_vars, _local_names(value))
        if hidden is not None:
            written = getattr(item, "original_text", None) or text_of(value)
            raise CypherSyntaxError(
                f"Aggregation column contains implicit grouping expressions: "
                f"'{written}' reads '{hidden}', which is not a projected item "
                "(Neo4j 5 requires it to be one, or moved into a preceding WITH)")


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
    _check_grouping(items)
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
