"""A WITH's WHERE reading a projected expression as written: Neo4j reads the alias.

Before its semantic analysis Neo4j 5 rewrites the WHERE of every WITH (the preparatory rewriter
`NormalizeWithAndReturnClauses`, `aliasWhere`, which Cypher 5 runs): an expression, or a part
of one, equal to an aliased item of that WITH becomes the alias. So after an aggregating or
DISTINCT WITH, which leaves only its own names in scope,

    MATCH (o:Object) WITH o.class AS kind, count(*) AS n WHERE o.class <> 'seating' AND n > 2

is valid and reads `kind <> 'seating'` (and `size(o.class)` reads `size(kind)`, `count(*) > 2`
reads `n > 2`). Kuzu 0.11.3 and Ladybug 0.22.0 see only the projected names there ("Variable o
is not in scope"), which was charged to the model. This pass makes the same rewrite on the query
as written, before any other pass reads it, by Neo4j's rule (`aliasExpression`):

- only explicitly aliased items count (`WITH o, count(*) AS n` gives `count(*)` only), compared
  as trees (parentheses dropped, names unquoted, function names in any case);
- the whole WHERE is replaced unless it is itself a variable named like an alias;
- a part of it is replaced unless it is a variable named like an alias, or reads a variable
  named like an alias that is no plain `x AS x` (`potentiallyRedefined`: in `WITH o.class AS o,
  count(*) AS n WHERE o.class = 'x'` the `o` is the string, so `o.class` stays);
- the walk does not enter EXISTS / COUNT / COLLECT subqueries, pattern comprehensions or pattern
  predicates (Neo4j's language server rejects `WHERE COUNT { .. o.class .. } > 1` and
  `[(a)-->(x) | o.class]` after `WITH o.class AS kind, count(*) AS n`), but enters list
  comprehensions, quantifiers and reduce (it accepts `[x IN xs | o.class]` and `all(x IN xs
  WHERE o.class = 'a')` there, `o.name` not).

A part that a comprehension inside the WHERE binds a variable of (`any(o IN objs WHERE o.class
= kind)`) is refused: which `o` Neo4j takes there is not settled by its sources.

What still reads an earlier variable after an aggregating or DISTINCT WITH (`WHERE o.center.z >
0`) is Neo4j's compile error: "In a WITH/RETURN with DISTINCT or an aggregation, it is not
possible to access variables declared before the WITH/RETURN".
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name, unquote_string
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.order_barrier import groups
from dsgqa.dialect.trees import (
    CALLS,
    binds,
    child_of,
    clone,
    declared_names,
    item_name,
    rebuilt,
    var,
)

REWRITE = "WITH ... WHERE projected expression->alias"
# Neo4j's rewrite does not enter these (ScopeExpression / subquery): their names stay as written.
_BARRIERS = frozenset({"subquery", "pattern_predicate"})


def alias_key(node: object) -> object:
    """A hashable key equal for two expressions Neo4j's AST takes for equal: parentheses
    dropped, names unquoted, string literals by value, function names and DISTINCT in any
    case (`FunctionName.equals` ignores case). Neo4j replaces a WHERE's or an ORDER BY's
    expression equal to a projected one by its alias (`aliasExpression`); `order_by.py` too."""
    if isinstance(node, Token):
        if node.type in ("NAME", "QUOTED_NAME"):
            return plain_name(node)
        return str(node).upper() if node.type == "DISTINCT" else str(node)
    if not isinstance(node, Tree):
        return node
    if node.data == "paren" and len(node.children) == 1:
        return alias_key(node.children[0])
    if node.data == "str_lit":
        return ("str_lit", unquote_string(str(node.children[0])))
    if node.data in CALLS and isinstance(node.children[0], Tree) \
            and node.children[0].data == "var":
        callee = plain_name(node.children[0].children[0]).lower()
        return (str(node.data), callee, *(alias_key(child) for child in node.children[1:]))
    return (str(node.data), *(alias_key(child) for child in node.children))


def _variables(node: object) -> set[str]:
    """Every variable under `node`, bound inside it or not (Neo4j's `findAllByClass[
    LogicalVariable]`), callee names aside."""
    if not isinstance(node, Tree):
        return set()
    if node.data == "var":
        return {plain_name(node.children[0])}
    children = node.children[1:] if node.data in CALLS else node.children
    return set().union(*(_variables(child) for child in children))


def is_pattern_comprehension(node: Tree) -> bool:
    """`[(a)-->(x) | ..]`: Neo4j's alias rewrite does not enter it (a `ScopeExpression`)."""
    return node.data in ("list_comp", "list_comp_map") and isinstance(node.children[0], Tree) \
        and node.children[0].data == "pattern_predicate"


def redefining_aliases(items: list[Tree]) -> set[str]:
    """The aliases of a projection that are no plain `x AS x`: a part of a WHERE or an ORDER
    BY reading one of them is never replaced by an alias (`potentiallyRedefined`)."""
    return {plain_name(item.children[1]) for item in items if len(item.children) > 1
            and not (item.children[0].data == "var"
                     and plain_name(item.children[0].children[0])
                     == plain_name(item.children[1]))}


def potentially_redefined(node: object, redefining: set[str]) -> bool:
    """Neo4j's `potentiallyRedefined` for a part of a WHERE or an ORDER BY: it reads a variable
    named like a redefining alias (`o.class` after `o.class AS o`, where `o` is the string)."""
    return bool(_variables(node) & redefining)


class _Aliases:
    """The aliased items of one WITH and Neo4j's substitution of them into its WHERE."""

    def __init__(self, items: list[Tree]) -> None:
        self.by_key: dict[object, Tree] = {}   # expression -> the alias's `name` node
        self.names: set[str] = set()           # every alias
        self.redefining = redefining_aliases(items)
        for item in items:
            if len(item.children) < 2:
                continue
            value, alias = item.children[0], item.children[1]
            self.by_key[alias_key(value)] = alias   # a later equal item wins, as in Neo4j's map
            self.names.add(plain_name(alias))
        self.used = False

    def _alias_of(self, node: Tree, whole: bool) -> Tree | None:
        alias = self.by_key.get(alias_key(node))
        if alias is None:
            return None
        if node.data == "var" and plain_name(node.children[0]) in self.names:
            return None
        if not whole and potentially_redefined(node, self.redefining):
            return None
        return alias

    def replace(self, node: object, bound: frozenset[str], whole: bool = False) -> object:
        if not isinstance(node, Tree) or node.data in _BARRIERS \
                or is_pattern_comprehension(node):
            return node
        alias = self._alias_of(node, whole)
        if alias is not None:
            if _variables(node) & bound:
                raise DialectError("a WITH's WHERE with a comprehension that rebinds a variable "
                                   "of a projected expression it reads (which one Neo4j reads "
                                   "there is unsettled)")
            self.used = True
            return var(clone(alias))
        inner = bound | binds(node)
        start = 1 if node.data in CALLS else 0   # the callee names a function
        children = node.children[:start] + [self.replace(child, inner)
                                            for child in node.children[start:]]
        if all(new is old for new, old in zip(children, node.children, strict=True)):
            return node
        return rebuilt(node, children)


def _reads(node: object, bound: frozenset[str]) -> set[str]:
    """The variables `node` reads that neither `bound` nor it declares: a subquery's or a
    pattern comprehension's own names (its patterns may declare new ones) are no reads."""
    if not isinstance(node, Tree):
        return set()
    if node.data == "var":
        read = plain_name(node.children[0])
        return set() if read in bound else {read}
    if node.data == "subquery":
        return set().union(*(_reads(child, bound) for child in node.children[1:])) \
            - declared_names(node)
    if is_pattern_comprehension(node):
        return set().union(*(_reads(child, bound) for child in node.children[1:])) \
            - _variables(node.children[0]) - declared_names(node)
    inner = bound | binds(node)
    children = node.children[1:] if node.data in CALLS else node.children
    return set().union(*(_reads(child, inner) for child in children))


def _check_scope(where: Tree, items: list[Tree]) -> None:
    """After an aggregating or DISTINCT WITH only its own names are in scope of its WHERE."""
    outside = sorted(_reads(where.children[0], frozenset())
                     - {item_name(item) for item in items})
    if outside:
        raise CypherSyntaxError("In a WITH/RETURN with DISTINCT or an aggregation, it is not "
                                "possible to access variables declared before the "
                                f"WITH/RETURN: {outside[0]}")


def _top_level_withs(root: Tree) -> set[int]:
    """The WITHs of the query's own parts (a subquery's body may see the outer names)."""
    query = root.children[0] if root.data == "start" else root
    return {id(clause) for part in query.children
            if isinstance(part, Tree) and part.data == "single_query"
            for clause in part.children
            if isinstance(clause, Tree) and clause.data == "with_clause"}


def alias_with_wheres(root: Tree) -> bool:
    """Rewrite every WITH's WHERE in place (see the module); whether anything changed. Raises
    `CypherSyntaxError` for a WHERE of an aggregating or DISTINCT WITH of the query's own parts
    that still reads an earlier variable."""
    changed = False
    top_level = _top_level_withs(root)
    for clause in root.iter_subtrees_topdown():
        if clause.data != "with_clause":
            continue
        where = child_of(clause, "where")
        if where is None:
            continue
        projection = clause.children[0]
        items = [item for item in child_of(projection, "proj_items").children
                 if isinstance(item, Tree)]
        aliases = _Aliases(items)
        if aliases.by_key:
            where.children[0] = aliases.replace(where.children[0], frozenset(), whole=True)
            changed |= aliases.used
        star = len(items) != len(child_of(projection, "proj_items").children)
        if id(clause) in top_level and not star and groups(projection):
            _check_scope(where, items)
    return changed
