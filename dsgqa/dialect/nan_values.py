"""Floats that may be NaN: compared, grouped, sorted as Neo4j does, or refused.

`<`, `<=`, `>`, `>=` with a float that may be NaN: false in Neo4j, true in the engines.

The Cypher Manual (equality, ordering and comparison of values): every comparison with NaN is
false, `1 > b` and `1 < b` alike. Kuzu 0.11.3 and Ladybug 0.22.0 answer `NaN < 1` and
`NaN <= 1` true (and `1 < NaN` true), so a ratio over an empty group (`toFloat(n) /
toFloat(count(o))` is NaN in Neo4j when nothing matched; over the integer count it raises)
passed `WHERE share < 0.5` on every empty mesh place: 81 rows where Neo4j gives 19. `=` and
`<>` are right (`x <> x` holds for NaN alone).

Such a comparison becomes

    CASE WHEN a <> a OR b <> b THEN CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE false END
         ELSE a < b END

(NULL stays NULL: `NaN < NULL` is NULL). Only where an operand may be NaN: a float division or
modulo (but by a non-zero literal), a power (but to an integer literal), `sqrt`, `log`,
`log10`, `acos`, `asin`, `toFloat` (of 'NaN'), an expression over one of those, or a name a
WITH, UNWIND or lambda bound to one (`nan_names`); a stored property, a literal and a distance
never are. An operand holding a list comprehension, quantifier or pattern is left alone
(copying it would make two lambdas over one list, which both engines compute wrong).

Neo4j also orders NaN above every number and below NULL; the engines put NaN anywhere (`ORDER
BY x` over [3.0, NaN, 1.0, 2.0] began with NaN), so an ORDER BY key that may be NaN gets a key
before it ranking numbers, NaN and NULL (`sort_nan_last`). Neo4j groups every NaN together
(DISTINCT, grouping keys, `collect(DISTINCT ..)`) where the engines keep each NaN row apart, and
`min`, `max` and the percentiles order their values as Java's `Double.compare` does (NaN
above every number: `max` is NaN if any value is, `min` only if every one is): a float that may be
NaN there is computed by a function over `collect()` in that order, and any other value that
may be NaN is refused (`refuse_nan_keys`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import has_aggregate, is_aggregate_call
from dsgqa.dialect.trees import child_of, clone, function_name, int_lit, is_distinct, tree
from dsgqa.dialect.types import NUMBERS, UNKNOWN, ctype, typed

REWRITE = "comparison of a float that may be NaN->false for NaN"
ORDER_REWRITE = "ORDER BY a float that may be NaN->NaN after numbers"
AGGREGATE_REWRITE = "min/max of a float that may be NaN->neo4j_min/max_float(collect)"
_ORDERING = frozenset({"<", "<=", ">", ">="})
_NAN_FUNCTIONS = frozenset({"sqrt", "log", "log10", "acos", "asin", "tofloat",
                            "tofloatornull"})
_NUMBERS = NUMBERS   # a float sum (`float_sums.py`) and a number of either kind too
# Text a query that can make a NaN holds (the pass is skipped without it).
NAN_SOURCES = re.compile(r"[/%^]|\b(?:sqrt|log|log10|acos|asin|tofloat\w*)\s*\(", re.IGNORECASE)
# Aggregates that order their values (NaN is the greatest number in Neo4j).
_ORDERING_AGGREGATES = frozenset({"min", "max", "percentilecont", "percentiledisc"})
_LAMBDAS = frozenset({"list_comp", "list_comp_map", "where_arg", "pipe_arg", "lambda_",
                      "pattern_predicate", "subquery"})


def may_be_nan(node: object, names: Collection[str]) -> bool:
    """Whether an expression of the Neo4j query may be NaN (module docstring); `names`: the
    variables that may hold one (`nan_names`)."""
    if not isinstance(node, Tree) or ctype(node) in ("int", "str", "bool"):
        return False
    kind = node.data
    if kind == "var":
        return plain_name(node.children[0]) in names
    if kind == "prop":   # a stored property never is; a field of a map a WITH built may be
        return ctype(node.children[0]) not in ("node", "rel", "point", "point2d") \
            and may_be_nan(node.children[0], names)
    if kind in ("int_lit", "float_lit"):
        return False
    if kind == "arith" and ctype(node) == "float" and _makes_nan(str(node.children[1]),
                                                                 node.children[2]) \
            and not _nonzero_over_integer(node):
        return True
    if kind == "call" and function_name(node.children[0]).lower() in _NAN_FUNCTIONS:
        return True
    return any(may_be_nan(child, names) for child in node.children[1 if kind == "call" else 0:])


def _nonzero_over_integer(node: Tree) -> bool:
    """`1.0 / size(xs)`: a non-zero literal divided by an integer is a number or an infinity,
    never NaN (an integer is never NaN nor infinite)."""
    left, op, right = node.children
    literal = left.children[0] if isinstance(left, Tree) and left.data == "paren" else left
    if str(op) != "/" or ctype(right) != "int" or not isinstance(literal, Tree) \
            or literal.data not in ("int_lit", "float_lit"):
        return False
    text = str(literal.children[0])
    try:
        return (int(text, 0) if literal.data == "int_lit" else float(text)) != 0
    except ValueError:   # a spelling Python reads otherwise: may be zero
        return False


def _makes_nan(op: str, right: object) -> bool:
    """Whether `x op right` may be NaN for a number x: a division or modulo by anything but a
    non-zero literal (0.0 / 0.0), a power but by an integer literal ((-8.0) ^ 0.5)."""
    literal = right.children[0] if isinstance(right, Tree) and right.data == "paren" else right
    is_literal = isinstance(literal, Tree) and literal.data in ("int_lit", "float_lit")
    if op in ("/", "%"):
        return not is_literal or float(str(literal.children[0])) == 0  # type: ignore[union-attr]
    return op == "^" and not (is_literal and literal.data == "int_lit")  # type: ignore[union-attr]


def nan_names(root: Tree) -> frozenset[str]:
    """Names a WITH or RETURN alias, an UNWIND or a lambda's `x IN list` binds to a value that
    may be NaN (or a list that may hold one), wherever in the query (a name used twice counts
    if either use may be NaN)."""
    names: set[str] = set()
    for _ in range(3):   # a name read before the clause that binds it, in a later part
        before = len(names)
        for node in root.iter_subtrees_topdown():
            binds = (node.data == "proj_item" and len(node.children) == 2) \
                or node.data == "unwind"
            if binds and may_be_nan(node.children[0], names):
                names.add(plain_name(node.children[1]))
            elif node.data == "in_" and isinstance(node.children[0], Tree) \
                    and node.children[0].data == "var" and may_be_nan(node.children[1], names):
                names.add(plain_name(node.children[0].children[0]))
        if len(names) == before:
            break
    return frozenset(names)


def sort_nan_last(root: Tree, names: Collection[str]) -> bool:
    """Each ORDER BY key that may be NaN gets a key before it, in its direction, that ranks
    numbers 0, NaN 1 and NULL 2: Neo4j's order (NaN above every number, NULL above all; DESC
    reverses both). Whether one did."""
    changed = False
    for order in root.iter_subtrees():
        if order.data != "order":
            continue
        keys: list[Tree] = []
        for item in order.children:
            value = item.children[0]
            if may_be_nan(value, names) and not _holds_lambda(value):
                rank = tree("case_expr",
                            tree("case_when", tree("is_null", _key_copy(value)), int_lit(2)),
                            tree("case_when", tree("compare", _key_copy(value),
                                                   Token("COMP_OP", "<>"), _key_copy(value)),
                                 int_lit(1)),
                            int_lit(0))
                keys.append(tree("sort_item", typed(rank, "int"), *item.children[1:]))
                changed = True
            elif may_be_nan(value, names):
                raise DialectError("ORDER BY a value that may be NaN, computed by a lambda "
                                   "(Neo4j sorts NaN above every number; the engines anywhere)")
            keys.append(item)
        order.children = keys
    return changed


def _key_copy(value: Tree) -> Tree:
    """A copy of a whole sort key, marked so that `order_by.py` resolves it as the key itself:
    Neo4j replaces a whole ORDER BY key equal to a projected expression by its alias before
    anything else reads it (`aliasExpression`, even where the key reads a variable an alias
    shadows), so the rank reads that column too, never an aggregate the engines would have
    to compute again after the projection."""
    copy = clone(value)
    copy.whole_sort_key = True  # type: ignore[attr-defined]
    return copy


def refuse_nan_keys(root: Tree, names: Collection[str]) -> None:
    """Refuse a value that may be NaN where Neo4j groups or orders it (module docstring)."""
    for node in root.iter_subtrees():
        if node.data == "projection":
            items = child_of(node, "proj_items")
            grouping = is_distinct(node) or has_aggregate(items)
            for item in items.children:
                if isinstance(item, Tree) and grouping and not has_aggregate(item.children[0]) \
                        and may_be_nan(item.children[0], names):
                    raise DialectError("a value that may be NaN as a DISTINCT or grouping key "
                                       "(Neo4j groups NaN with NaN; the engines keep each apart)")
        elif node.data == "call_distinct" and any(may_be_nan(c, names)
                                                  for c in node.children[2:]):
            raise DialectError("a DISTINCT aggregate of a value that may be NaN (Neo4j counts "
                               "NaN once; the engines each apart)")
        elif is_aggregate_call(node) and function_name(node.children[0]).lower() \
                in _ORDERING_AGGREGATES and any(may_be_nan(c, names)
                                                 for c in node.children[1:2]):
            if ctype(node.children[1]) != "float":
                raise DialectError(f"{function_name(node.children[0])}() of a value that may "
                                   "be NaN (Neo4j orders NaN above every number; the engines "
                                   "anywhere)")
            # Computed over collect() in Java's order (`functions.py`); the percentiles are so
            # already.
            node.nan_order = True  # type: ignore[attr-defined]


def _holds_lambda(node: object) -> bool:
    return isinstance(node, Tree) and any(sub.data in _LAMBDAS for sub in node.iter_subtrees())


def mark_nan_comparison(node: Tree, names: Collection[str]) -> None:
    """On the Neo4j `compare` node: mark it when it orders numbers of which one may be NaN."""
    if len(node.children) != 3 or str(node.children[1]) not in _ORDERING:
        return
    left, _, right = node.children
    # Both numbers, or one of them and a value the annotator does not know (a map's field): for
    # a value of another kind the added test (`x <> x`) is never true, so nothing changes.
    sides = {ctype(left), ctype(right)}
    if not sides <= _NUMBERS | {UNKNOWN} or not sides & _NUMBERS:
        return
    if (may_be_nan(left, names) or may_be_nan(right, names)) \
            and not (_holds_lambda(left) or _holds_lambda(right)):
        node.nan = True  # type: ignore[attr-defined]


def false_for_nan(node: Tree) -> Tree:
    """The rewritten (engine) comparison, false where an operand is NaN."""
    left, op, right = node.children

    def nan(value: object) -> Tree:
        return tree("compare", clone(value), Token("COMP_OP", "<>"), clone(value))
    either_null = tree("or_", tree("is_null", clone(left)), tree("is_null", clone(right)))
    on_nan = tree("case_expr", tree("case_when", either_null, tree("null_lit")),
                  tree("false_lit"))
    return tree("case_expr", tree("case_when", tree("or_", nan(left), nan(right)), on_nan),
                tree("compare", left, op, right))
