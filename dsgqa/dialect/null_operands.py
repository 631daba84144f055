"""An operator with a NULL operand: `o = null`, `'a' + null`, `x < null`, `count(null)`.

Neo4j's comparisons and arithmetic are NULL when either operand is NULL (the Cypher Manual,
"Working with null"), so models write `WHERE o = null` (0 rows) and `r.nodeSymbol + null`. The
engines bind the NULL literal's type from the other side and fail where they cannot: `NODE is
neither an internal type nor a user defined type` for a node, no `+(STRING, ANY)` for text.
Such an operation is written as the NULL literal it is.

Only where neither operand can raise an error: Neo4j evaluates both sides first, so
`1 / 0 = null` raises; a variable, a property, a literal or a list or map of those cannot. A
list operand is left alone (`list + x` appends in Neo4j; whether it appends a NULL is not
settled here), as is an operand whose type is unknown. An aggregate of the NULL literal gets
a typed one.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.trees import cast, tree
from dsgqa.dialect.types import UNKNOWN, ctype

REWRITE = "operation on NULL->NULL"
_COMPARISONS = frozenset({"=", "<>", "<", ">", "<=", ">="})
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "^"})
_PLAIN = frozenset({"var", "name", "int_lit", "float_lit", "str_lit", "true_lit",
                    "false_lit", "null_lit", "param"})
# What `+ null` and the like keep the engines' type of: Neo4j raises on other operand types.
_ARITHMETIC_TYPES = {"str": "STRING", "int": "INT64", "float": "DOUBLE", "number": "DOUBLE",
                     "null": ""}


def _cannot_raise(node: object) -> bool:
    """Whether evaluating `node` can never raise: names, properties, literals, and lists, maps
    and NULL-valued operations of them."""
    if not isinstance(node, Tree):
        return True
    if node.data in _PLAIN:
        return True
    if node.data == "prop":
        return _cannot_raise(node.children[0])
    if node.data in ("list_literal", "map_literal", "map_entry"):
        return all(_cannot_raise(c) for c in node.children)
    if node.data in ("arith", "compare"):
        return is_null_operation(node)
    return False


def is_null_operation(node: Tree) -> bool:
    """Whether `node` (`compare` or `arith`, as parsed and typed) is NULL for every row."""
    if len(node.children) != 3:
        return False
    left, op, right = node.children
    types = (ctype(left), ctype(right))
    if "null" not in types or UNKNOWN in types:
        return False
    if node.data == "compare":
        fits = str(op) in _COMPARISONS and not any(t.startswith("list<") for t in types)
    else:   # text has `+` only: Neo4j refuses `'a' - null` as a type error
        fits = str(op) in _ARITHMETIC and all(t in _ARITHMETIC_TYPES for t in types) \
            and (str(op) == "+" or "str" not in types)
    return fits and _cannot_raise(left) and _cannot_raise(right)


def null_of_operation(node: Tree) -> Tree:
    """The typed NULL an operation `is_null_operation` holds for is (the engines read a bare
    NULL's type from where it stands, and `count(NULL)` stops Ladybug)."""
    if node.data == "compare":
        return cast(tree("null_lit"), "BOOL")
    kinds = {_ARITHMETIC_TYPES[ctype(c)] for c in node.children[::2]} - {""}
    return cast(tree("null_lit"), kinds.pop()) if len(kinds) == 1 else tree("null_lit")


def type_null_arguments(call_node: Tree) -> bool:
    """Give an aggregate's bare NULL argument a type (`count(null)`, `count(DISTINCT null)`:
    Ladybug stops on an assertion); True when one was."""
    typed = False
    for i, child in enumerate(call_node.children):
        if i and isinstance(child, Tree) and child.data == "null_lit":
            call_node.children[i] = cast(child, "INT64")
            typed = True
    return typed
