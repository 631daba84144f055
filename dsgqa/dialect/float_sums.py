"""A sum of floats that summed no values: the integer 0 in Neo4j, 0.0 on the engines.

Neo4j's `sum()` starts from the integer 0 and adds each value (Cypher Manual, Aggregating
functions), so a sum of floats is a FLOAT where it added one and the INTEGER 0 where it added
none: a room an OPTIONAL MATCH found nothing in. The engines hold the column as a DOUBLE, 0.0.
The number is the same, but three readers tell an integer from a float:

    'trash z sum: ' + sum(t.center.z)       Neo4j 'trash z sum: 0'   engines '... 0.0'
    toString(sum(t.center.z))               Neo4j '0'                engines '0.0'
    sum(t.center.z) / count(t)              Neo4j raises / by zero   engines NaN

The annotator (`types.py`) gives such a value the type `float_sum` ("a float, or the integer
0"), which follows it through aliases, `*` and `/` by integers and unary minus. Its readers
here decide from the value: a sum that is not 0.0 added values and is a float. A sum of 0.0
is the integer 0 if it added none and the float 0.0 if its values cancelled; the engine's value
cannot tell which, so such a row is refused (`dialect`, raised while the query runs) instead
of printing one of the two. Rows with any other sum get Neo4j's answer. A sum written in
place (`toString(sum(x))`, `'total ' + sum(x)`) is decided by its own `count(x)` instead.
"""

from __future__ import annotations

import math

from lark import Token, Tree

from dsgqa.dialect.java_numbers import java_double_string
from dsgqa.dialect.trees import bare, call, clone, function_name, int_lit, tree
from dsgqa.dialect.types import FLOAT_SUM, ctype, typed

REWRITE = "toString(sum of floats)->'0' where count() is 0"
_UNDECIDED = ("a float sum of 0 (Neo4j's sum of no values is the integer 0; the engine holds "
              "it as 0.0, the same as values that cancel)")


def neo4j_sum_string(value: float) -> str:
    """toString() of a float sum."""
    if value == 0.0:
        raise ValueError(f"toString() of {_UNDECIDED}")
    return java_double_string(value)


def neo4j_sum_arith(left: float, right: float, op: str, integer_left: bool) -> float:
    """`left / right` or `left % right` where one side is a float sum and the other an integer,
    a float or a float sum (`integer_left`: the left side is an INTEGER). Java divides two
    integers (raising for a zero divisor) and otherwise doubles (a zero divisor gives Infinity
    or NaN), but Neo4j's `/` raises for the INTEGER 0 whatever the dividend
    (`lazy_divisors.py`): a sum of 0.0 as the divisor is undecided for `/`, and for `%` of an
    integer."""
    if right == 0.0:
        if op == "/" or integer_left or left == 0.0:
            raise ValueError(f"{op} by {_UNDECIDED} or of one" if not integer_left
                             else f"{op} by {_UNDECIDED}")
        return math.nan
    return left / right if op == "/" else math.fmod(left, right)


def _direct_sum(node: object) -> Tree | None:
    """`sum(x)` of floats written in place (not an alias), whose rows are at hand."""
    node = bare(node)
    if isinstance(node, Tree) and node.data == "call" and ctype(node) == FLOAT_SUM \
            and function_name(node.children[0]).lower() == "sum" and len(node.children) == 2:
        return node
    return None


def _decided_text(total: Tree) -> Tree:
    """The text of a float sum in place: '0' where it counted no values, else the float's."""
    counted = typed(call("count", clone(total.children[1])), "int")
    as_float = typed(tree("arith", total, Token("ADD_OP", "+"),
                           typed(tree("float_lit", Token("FLOAT", "0.0")), "float")), "float")
    return typed(tree("case_expr", tree(
        "case_when", tree("compare", counted, Token("EQ", "="), typed(int_lit(0), "int")),
        typed(tree("str_lit", Token("STRING", "'0'")), "str")),
        typed(call("toString", as_float), "str")), "str")


def decide_sums_in_place(root: Tree) -> bool:
    """`toString(sum(x))` and `'text' + sum(x)` where the sum is written in place: its own
    `count(x)` tells the integer 0 from the float, so no row needs refusing. In place, on the
    annotated tree; True when one changed."""
    changed = False
    for node in list(root.iter_subtrees()):
        if node.data == "call" and function_name(node.children[0]).lower() == "tostring" \
                and len(node.children) == 2 and (total := _direct_sum(node.children[1])):
            node.data, node.children = "paren", [_decided_text(total)]
            changed = True
        elif node.data == "arith" and ctype(node) == "str" and str(node.children[1]) == "+":
            for i in (0, 2):
                if (total := _direct_sum(node.children[i])) is not None:
                    node.children[i] = _decided_text(total)
                    changed = True
    return changed
