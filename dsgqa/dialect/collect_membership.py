"""`v IN COLLECT { MATCH .. RETURN x.k }`: a membership test, as EXISTS subqueries.

The engines have no COLLECT subquery, and `collect_subqueries.py` can only make one a list
where an OPTIONAL MATCH and collect() can stand in for it (a WITH's or RETURN's items). A test
of membership needs no list: Neo4j's `v IN list` (Cypher Manual, "Lists": IN with NULL) is
true when an element equals v; otherwise NULL when v is NULL or an element is NULL (and the
list is not empty: `NULL IN []` is false); otherwise false. For the list of a COLLECT body
`MATCH P WHERE w RETURN e` that is, in three-valued logic,

    EXISTS { MATCH P WHERE (w) AND e = v }
        OR (EXISTS { MATCH P WHERE (w) AND (v IS NULL OR e IS NULL) } AND NULL)

(`X AND NULL` is NULL when X is true and false when X is false). Neo4j's IN compares elements
as `=` does, and `=` only differs from IN on lists and maps holding a NULL (`[1, null] = [1,
null]` is NULL, which IN reports as NULL, the form above as false), so the returned value must
be a property (`o.class`): no property of Heracles' layout holds a list or a map. The `=` of
two types is Neo4j's (`cross_types.py` rewrites it later, on the annotated types).

`isEmpty(COLLECT { MATCH P WHERE w RETURN e })` is `NOT EXISTS { MATCH P WHERE w }` for any e
without an aggregate: the list has one element per match.

Only this shape: one non-optional MATCH, an optional WHERE, a RETURN of one property with no
ORDER BY, SKIP or LIMIT (DISTINCT does not change membership), and a v without a subquery or a
random function (it is read three times) that reads no name only the body declares (Neo4j:
not defined; inside the EXISTS it would read the body's variable). An outer variable the body
names again is the same one (the body joins on it), in v as in the body. Any other COLLECT is
left to `collect_subqueries.py`.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    BINDERS,
    CALLS,
    child_of,
    clone,
    declared_names,
    function_name,
    names_outside,
    reads,
    tree,
    var,
)

REWRITE = "v IN COLLECT { .. }->EXISTS { .. }"
_RANDOM = frozenset({"rand", "randomuuid"})


def _is_property(node: object) -> bool:
    """`x.k` or `x.k.f` of a variable x."""
    while isinstance(node, Tree) and node.data == "prop":
        node = node.children[0]
        if isinstance(node, Tree) and node.data == "var":
            return True
    return False


def _body(subquery: Tree, any_value: bool = False) -> tuple[Tree, Tree] | None:
    """The MATCH and the returned value of a COLLECT of the shape above (with `any_value`,
    of any value without an aggregate), or None."""
    if function_name(subquery.children[0]).lower() != "collect":
        return None
    body = subquery.children[1]
    if not (isinstance(body, Tree) and body.data == "query"):
        return None
    parts = [c for c in body.children if isinstance(c, Tree)]
    if len(parts) != 1 or parts[0].data != "single_query":
        return None
    clauses = parts[0].children
    if len(clauses) != 2 or clauses[0].data != "match" or clauses[1].data != "return_clause" \
            or any(not isinstance(c, Tree) for c in clauses[0].children):   # OPTIONAL
        return None
    projection = clauses[1].children[0]
    if any(isinstance(c, Tree) and c.data != "proj_items" for c in projection.children):
        return None   # ORDER BY, SKIP, LIMIT
    items = child_of(projection, "proj_items").children
    if len(items) != 1 or not isinstance(items[0], Tree):
        return None
    value = items[0].children[0]
    if not (_is_property(value) or (any_value and not has_aggregate(value))):
        return None
    return clauses[0], items[0].children[0]


def _plain(value: Tree) -> bool:
    """Whether `value` may be read more than once: no subquery, no random function."""
    return not any(sub.data == "subquery" or (sub.data in CALLS and function_name(
        sub.children[0]).lower() in _RANDOM) for sub in value.iter_subtrees())


def _exists(match: Tree, test: Tree) -> Tree:
    """`EXISTS { MATCH .. WHERE (w) AND test }` of a copy of `match`."""
    made: Tree = clone(match)  # type: ignore[assignment]
    where = child_of(made, "where")
    if where is None:
        made.children.append(tree("where", test))
    else:
        where.children[0] = tree("and_", tree("paren", where.children[0]), test)
    return tree("subquery", var("EXISTS"), tree("query", tree("single_query", made)))


def _membership(value: Tree, match: Tree, element: Tree) -> Tree:
    equal = tree("compare", clone(element), Token("EQ", "="), clone(value))
    some_null = tree("paren", tree("or_", tree("is_null", clone(value)),
                                   tree("is_null", clone(element))))
    unknown = tree("paren", tree("and_", _exists(match, some_null), tree("null_lit")))
    return tree("paren", tree("or_", _exists(match, equal), unknown))


def _empty_test(node: Tree) -> bool:
    """Rewrite `isEmpty(COLLECT { .. })` in place; whether it was one."""
    if node.data != "call" or len(node.children) != 2 \
            or function_name(node.children[0]).lower() != "isempty" \
            or not (isinstance(node.children[1], Tree) and node.children[1].data == "subquery"):
        return False
    shape = _body(node.children[1], any_value=True)
    if shape is None:
        return False
    made = tree("paren", tree("not_", tree("subquery", var("EXISTS"), tree(
        "query", tree("single_query", shape[0])))))
    node.data, node.children = made.data, made.children
    return True


def expand_collect_memberships(root: Tree) -> bool:
    """Rewrite each `v IN COLLECT { .. }` of the shape above in place; whether one changed.
    A comprehension's `x IN COLLECT { .. }` binds x and is left alone."""
    binding = {id(sub.children[0]) for sub in root.iter_subtrees()
               if sub.data in BINDERS and sub.children}
    changed = False
    for sub in list(root.iter_subtrees()):   # bottom-up: an inner COLLECT first
        if _empty_test(sub):
            changed = True
            continue
        if sub.data != "in_" or id(sub) in binding or len(sub.children) != 2:
            continue
        value, right = sub.children
        if not (isinstance(right, Tree) and right.data == "subquery"
                and isinstance(value, Tree) and _plain(value)):
            continue
        shape = _body(right)
        if shape is None:
            continue
        if reads(value) & (declared_names(shape[0]) - names_outside(root, right)):
            continue   # v would read the body's own variable (Neo4j: not defined)
        made = _membership(value, *shape)
        sub.data, sub.children = made.data, made.children
        changed = True
    return changed
