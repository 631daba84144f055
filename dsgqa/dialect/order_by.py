"""ORDER BY after a projection, with Neo4j's name resolution on Kuzu's binder.

Neo4j resolves an ORDER BY that follows `RETURN`/`WITH` against the projection first: an
expression equal to a projected one (`RETURN o.class, count(*) AS n ORDER BY count(*) DESC`) is
that column, and a name the projection defines shadows the variable it replaces (`RETURN
r.nodeSymbol AS r, n ORDER BY r`: the string, not the node). Kuzu 0.11.3 refuses an aggregate in
ORDER BY ("Cannot evaluate expression with type AGGREGATE_FUNCTION") and cannot see `o.class`
after an aggregation; in a projection without aggregation it binds a shadowing name to the old
variable (a node: "Order by NODE is not supported", or a silently different order for a
value). Two rewrites, both keeping the rows and their order:

- a sort expression (or part of one) equal to a projected expression becomes that column's name
  (an unaliased RETURN item gets its own text as alias, Neo4j's column name anyway), by
  Neo4j's `aliasExpression` (`NormalizeWithAndReturnClauses`, as `with_where_aliases.py`): a
  part reading an alias that redefines a name stays (`potentiallyRedefined`: after `o.class
  AS o`, `size(o.class)` reads the string's `.class`, which raises), and pattern
  comprehensions and subqueries are not entered. In a projection that neither aggregates nor
  is DISTINCT only a whole sort key equal to an aliased item is replaced (`RETURN o.class AS
  o ORDER BY o.class` sorts by the alias). Neo4j
  compares the expressions as written, so this runs first on the original tree
  (`order_by_columns`, before any rewrite: a rewrite may write the two differently, e.g. `n.name
  + x` in the items beside a sort key where a shadowing alias hides `n`'s type), and again on
  the rewritten one;
- in a projection that neither aggregates nor is DISTINCT, a sort key naming an alias that
  shadows an earlier variable becomes the aliased expression (Kuzu sees the earlier variables
  there); where the projection aggregates, Kuzu already resolves the alias as Neo4j does.

Two expressions are equal as Neo4j's AST compares them (`with_where_aliases.alias_key`:
function names in any case, string literals by value): `RETURN COUNT(o) AS n ORDER BY
count(o)` sorts by `n`.

After that rewrite Neo4j 5 rejects an ORDER BY of an aggregating projection that still holds
an aggregate (`OrderBy.checkIllegalOrdering`: "Illegal aggregation expression(s) in order
by"): one no item equals (`RETURN o.class, count(o) AS n ORDER BY max(o.x)`), and one equal
to an item that reads a variable an alias shadows, in a part of the key (`RETURN
n.nodeSymbol AS n, max(size(n.nodeSymbol)) AS m ORDER BY max(size(n.nodeSymbol)) + 1`: in the
ORDER BY `n` is the alias, so the two differ), which Neo4j's own front end reports
(`@neo4j-cypher/language-support`, `CYPHER 5`). The engines fail on them, some with an error
charged to the engine ("Cannot evaluate expression with type AGGREGATE_FUNCTION", a STRING
where a node was expected); `check_order_aggregates` raises Neo4j's error, on the query as
written.

A rank key another pass puts before a sort key (`nan_values.sort_nan_last`) copies the whole
key: its copies are resolved as the whole key is, so they read the column too.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.order_barrier import groups, has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import child_of, clone, rebuilt, text_of, tree, var
from dsgqa.dialect.types import ctype
from dsgqa.dialect.with_where_aliases import (
    alias_key,
    is_pattern_comprehension,
    potentially_redefined,
    redefining_aliases,
)

REWRITE_COLUMN = "ORDER BY projected expression->column"
REWRITE_SHADOW = "ORDER BY shadowing alias->expression"


def _items(projection: Tree) -> list[Tree]:
    items = child_of(projection, "proj_items")
    return [c for c in items.children if isinstance(c, Tree)]


def _alias(item: Tree, is_return: bool) -> str | None:
    """The column name of a projection item, giving an unaliased RETURN expression its text."""
    if len(item.children) > 1:
        return plain_name(item.children[1])
    expr = item.children[0]
    if expr.data == "var":
        return plain_name(expr.children[0])
    original = getattr(item, "original_text", None)
    if not is_return or original is None:
        return None
    text = " ".join(original.split())
    item.children.append(tree("name", Token("QUOTED_NAME", "`" + text.replace("`", "``") + "`")))
    return text


def _column(name: str) -> Tree:
    return var(tree("name", Token("QUOTED_NAME", "`" + name.replace("`", "``") + "`")))


def _order(projection: Tree) -> Tree | None:
    return next((c for c in projection.children if isinstance(c, Tree) and c.data == "order"),
                None)


def order_by_columns(projection: Tree, is_return: bool) -> bool:
    """Replace the sort expressions equal to a projected one by its column, in place; whether
    any was."""
    order = _order(projection)
    if order is None:
        return False
    columns = _Columns(_items(projection), is_return, groups(projection))
    for sort_item in order.children:
        sort_item.children[0] = columns.replace(sort_item.children[0], whole=True)
    return columns.used


def fix_order_by(projection: Tree, is_return: bool) -> list[str]:
    """Rewrite the projection's ORDER BY in place; the names of the rewrites that fired."""
    order = _order(projection)
    if order is None:
        return []
    applied = [REWRITE_COLUMN] if order_by_columns(projection, is_return) else []
    if groups(projection):
        return applied
    items = _items(projection)
    shadowing = _shadowing(items, getattr(projection, "scope_before", {}))
    if shadowing:
        used: list[bool] = []
        for sort_item in order.children:
            sort_item.children[0] = _expand(sort_item.children[0], shadowing, used)
        if used:
            applied.append(REWRITE_SHADOW)
    return applied


class _Columns:
    """Replaces sort expressions equal to a projected one by its column (only where Kuzu needs
    it: after an aggregation or DISTINCT, or for an aggregate itself)."""

    def __init__(self, items: list[Tree], is_return: bool, grouped: bool) -> None:
        self.by_key = {alias_key(item.children[0]): item for item in items
                       if item.children[0].data != "var"}
        self.redefining = redefining_aliases(items)
        self.is_return = is_return
        self.grouped = grouped
        self.used = False

    def replace(self, node: object, whole: bool = False) -> object:
        """Neo4j's `aliasExpression`: the whole sort key, or a part of it that reads no
        redefining alias (`potentiallyRedefined`), outside pattern comprehensions and
        subqueries."""
        if not isinstance(node, Tree) or node.data in ("var", "subquery", "pattern_predicate") \
                or is_pattern_comprehension(node):
            return node
        # a copy of the whole key a rank before it reads (`nan_values.sort_nan_last`)
        whole = whole or getattr(node, "whole_sort_key", False)
        item = self.by_key.get(alias_key(node))
        if item is not None and not self.grouped and not has_aggregate(node) \
                and not (whole and len(item.children) > 1):
            item = None   # Kuzu reads it as written (a whole key equal to an aliased item is
            # the alias in Neo4j, which `_expand` writes back where the alias shadows a name)
        if whole or not potentially_redefined(node, self.redefining):
            alias = _alias(item, self.is_return) if item is not None else None
            if alias is not None:
                self.used = True
                column = _column(alias)
                column.ctype = ctype(item.children[0])  # read by later type-directed rewrites
                return column
        children = [self.replace(c) for c in node.children]
        if all(new is old for new, old in zip(children, node.children, strict=True)):
            return node   # untouched, with the annotations later rewrites read (`ctype`)
        return rebuilt(node, children)   # not an edit in place: rewritten trees share subtrees


def check_order_aggregates(root: Tree) -> None:
    """Raise Neo4j's error for an aggregate an aggregating projection's ORDER BY holds that no
    item stands for (see the module), in every WITH and RETURN; on the query as written."""
    for projection in root.iter_subtrees():
        if projection.data != "projection" or _order(projection) is None:
            continue
        items = child_of(projection, "proj_items").children
        if any(isinstance(item, Token) for item in items):
            continue   # `WITH *, ..`: Neo4j does not check it (`includeExisting`)
        aggregating = {alias_key(item.children[0]) for item in items
                       if has_aggregate(item.children[0])}
        if not aggregating:
            continue   # no aggregate item: `projection_checks.py` raises Neo4j's other error
        redefining = redefining_aliases(items)
        illegal = [found for sort_item in _order(projection).children
                   for found in _illegal(sort_item.children[0], aggregating, redefining, True)]
        if illegal:
            raise CypherSyntaxError(
                "Illegal aggregation expression(s) in order by: "
                f"{', '.join(text_of(node) for node in illegal)}. If an aggregation expression "
                "is used in order by, it also needs to be a projection item on it's own.")


def _illegal(node: object, aggregating: set[object], redefining: set[str],
             whole: bool = False) -> list[Tree]:
    """The aggregates under a sort key that Neo4j's rewrite leaves (as `_Columns.replace`
    takes the key: whole, or a part that reads no redefining alias, equal to an aggregating
    item); subqueries and pattern comprehensions are not read (never flag what we cannot
    tell)."""
    if not isinstance(node, Tree) or node.data in ("var", "subquery", "pattern_predicate") \
            or is_pattern_comprehension(node):
        return []
    if alias_key(node) in aggregating and (whole or not potentially_redefined(node, redefining)):
        return []
    if is_aggregate_call(node):
        return [node]
    return [found for child in node.children
            for found in _illegal(child, aggregating, redefining)]


def _shadowing(items: list[Tree], before: dict[str, str]) -> dict[str, Tree]:
    """Aliases that reuse the name of an earlier variable for another value: alias -> value."""
    out = {}
    for item in items:
        if len(item.children) > 1:
            alias = plain_name(item.children[1])
            expr = item.children[0]
            if alias in before and not (expr.data == "var"
                                        and plain_name(expr.children[0]) == alias):
                out[alias] = expr
    return out


def _expand(node: object, shadowing: dict[str, Tree], used: list[bool]) -> object:
    if not isinstance(node, Tree) or node.data == "subquery":
        return node
    if node.data == "var" and plain_name(node.children[0]) in shadowing:
        used.append(True)
        return tree("paren", clone(shadowing[plain_name(node.children[0])]))
    return Tree(node.data, [_expand(c, shadowing, used) for c in node.children])
