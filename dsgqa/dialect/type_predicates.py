"""Neo4j 5's tests of a value's type, folded where the query's types decide them.

Neo4j 5.9 tests a value's type (`x IS :: STRING`, `x IS NOT :: INTEGER | FLOAT`, `x :: POINT
NOT NULL`, `x IS TYPED LIST<STRING>`), 5.13 names it (`valueType(x)`, "STRING NOT NULL") and
5.17 tests a string's Unicode normal form (`s IS NFC NORMALIZED`). The engines have none of
them, and are statically typed: the annotator (`types.py`) knows the type of most expressions
of Heracles' layout, so each test becomes what it is for a value of that type, with NULL read
as Neo4j reads it (the Cypher Manual, "Type predicate expressions", and functions/scalar,
valueType()):

- `x IS :: T` is true for NULL unless T is `NOT NULL`; `IS NOT ::` is its negation (false for
  NULL); `x IS :: STRING` of a string is `x IS NULL OR x IS NOT NULL` (x is still evaluated,
  so an error in it is raised as Neo4j raises it), of an integer `x IS NULL`;
- a closed dynamic union (`INTEGER | FLOAT`) holds where one of its types does, and its types
  are all `NOT NULL` or none is (else Neo4j's syntax error); `ANY` holds every value,
  `PROPERTY VALUE` those a property can store;
- a list type holds a list whose every element has the inner type (an empty list has them
  all): decided only where the elements' type holds it (`LIST<ANY>` holds every list);
- `valueType(x)` is `CASE WHEN x IS NULL THEN 'NULL' ELSE 'INTEGER NOT NULL' END` for an
  integer (a list's names its elements' types: refused);
- `s IS [NOT] NF NORMALIZED` is `normalize(s, NF) = s` (`<>`) of a string, NULL of any other
  value (the Cypher Manual, syntax/operators).

A test whose answer depends on a type the annotator does not know (a value of several kinds,
`number`, or of none it knows) is refused (`dialect`); `NOTHING` too, whose NULL the Manual
leaves unsaid.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import call, clone, function_name, replace_bottom_up, tree
from dsgqa.dialect.types import (
    FLOAT_SUM,
    POINT_2D,
    UNKNOWN,
    ctype,
    element,
    result_positions,
    result_type,
    typed,
)

REWRITE = "type predicate->NULL test"
# Text a query holding one of these tests has.
GATE = re.compile(r"::|\bTYPED\b|\bNORMALIZED\b|\bvalueType\s*\(", re.IGNORECASE)

# The annotator's types -> the Neo4j types one of its values may have (NULL aside).
_KINDS: dict[str, frozenset[str]] = {
    "str": frozenset({"STRING"}), "int": frozenset({"INTEGER"}),
    "float": frozenset({"FLOAT"}), "number": frozenset({"INTEGER", "FLOAT"}),
    FLOAT_SUM: frozenset({"INTEGER", "FLOAT"}), "bool": frozenset({"BOOLEAN"}),
    "point": frozenset({"POINT"}), POINT_2D: frozenset({"POINT"}),
    "node": frozenset({"NODE"}), "rel": frozenset({"RELATIONSHIP"}),
    "path": frozenset({"PATH"}), "map": frozenset({"MAP"}),
}
# Neo4j's type names and synonyms (the Cypher Manual, "Types and their synonyms").
_SYNONYMS = {
    "BOOL": "BOOLEAN", "VARCHAR": "STRING", "INT": "INTEGER", "SIGNED INTEGER": "INTEGER",
    "TIME WITHOUT TIME ZONE": "LOCAL TIME", "TIME WITHOUT TIMEZONE": "LOCAL TIME",
    "TIME WITH TIME ZONE": "ZONED TIME", "TIME WITH TIMEZONE": "ZONED TIME",
    "TIMESTAMP WITHOUT TIME ZONE": "LOCAL DATETIME", "TIMESTAMP WITHOUT TIMEZONE":
    "LOCAL DATETIME", "TIMESTAMP WITH TIME ZONE": "ZONED DATETIME",
    "TIMESTAMP WITH TIMEZONE": "ZONED DATETIME", "ANY NODE": "NODE", "VERTEX": "NODE",
    "ANY VERTEX": "NODE", "EDGE": "RELATIONSHIP", "ANY RELATIONSHIP": "RELATIONSHIP",
    "ANY EDGE": "RELATIONSHIP", "ANY MAP": "MAP", "PATHS": "PATH",
    "ANY PROPERTY VALUE": "PROPERTY VALUE", "ANY VALUE": "ANY",
}
# The value kinds a property can store (lists of them aside).
_PROPERTY_KINDS = frozenset({"BOOLEAN", "STRING", "INTEGER", "FLOAT", "DATE", "LOCAL TIME",
                             "ZONED TIME", "LOCAL DATETIME", "ZONED DATETIME", "DURATION",
                             "POINT"})
_UNION_NULLABILITY = ("All types in a Closed Dynamic Union must be nullable, or be appended "
                      "with `NOT NULL`")


class _Undecided(Exception):
    """The test's answer depends on what the annotator does not know."""


def _parts(type_expr: Tree) -> list[tuple[Tree, bool]]:
    """The union's types, each with whether NULL has it (no `NOT NULL` on it); Neo4j rejects a
    union whose types differ in that."""
    parts = []
    for part in type_expr.children:
        node, *rest = part.children
        nullable = not any(c.data == "type_not_null" for c in rest)
        for suffix in (c for c in rest if c.data == "type_list_suffix"):
            # `INTEGER NOT NULL LIST NOT NULL`: a list of the type before, the NOT NULL after
            # it the list's own
            node = Tree("type_list_of", [node])
            node.inner_nullable = nullable  # type: ignore[attr-defined]
            nullable = len(suffix.children) == 1
        parts.append((node, nullable))
    if len({nullable for _, nullable in parts}) > 1:
        raise CypherSyntaxError(_UNION_NULLABILITY)
    return parts


def _type_name(node: Tree) -> str:
    """The canonical name of a `type_name` (`VARCHAR` is `STRING`)."""
    text = " ".join(str(node.children[0]).upper().split())
    return _SYNONYMS.get(text, text)


def _holds(kind: str, value_type: str, part: Tree) -> bool:
    """Whether a non-NULL value of the Neo4j kind `kind` (annotated `value_type`) has the type
    `part`; `_Undecided` where that depends on the value."""
    data = part.data
    if data == "type_null":
        return False
    if data == "type_any":
        return any(_holds(kind, value_type, inner) for inner, _ in _parts(part.children[1]))
    if data in ("type_list", "type_list_of"):
        if kind != "LIST":
            return False
        inner = _parts(part.children[1]) if data == "type_list" \
            else [(part.children[0], part.inner_nullable)]
        return _list_holds(element(value_type), inner)
    name = _type_name(part)
    if name == "ANY":
        return True
    if name == "NOTHING":
        raise _Undecided
    if name == "PROPERTY VALUE":
        if kind == "LIST":
            raise _Undecided
        return kind in _PROPERTY_KINDS
    if name == "MAP" and kind in ("NODE", "RELATIONSHIP", "PATH"):
        raise _Undecided   # whether an entity is a MAP the Manual leaves unsaid
    return kind == name


def _list_holds(element_type: str, inner: list[tuple[Tree, bool]]) -> bool:
    """Whether every element of a list (elements annotated `element_type`, any of which may be
    NULL) has one of the `inner` types: true where each of its kinds does and NULL does."""
    if all(nullable for _, nullable in inner) and any(
            p.data == "type_name" and _type_name(p) == "ANY" for p, _ in inner):
        return True
    kinds = _kinds(element_type)
    if all(nullable for _, nullable in inner) and all(
            any(_holds(kind, element_type, p) for p, _ in inner) for kind in kinds):
        return True
    raise _Undecided   # an empty list holds any type: the answer depends on the list


def _kinds(value_type: str) -> frozenset[str]:
    """The Neo4j kinds a non-NULL value annotated `value_type` may have."""
    if value_type.startswith("list<"):
        return frozenset({"LIST"})
    if value_type not in _KINDS:
        raise _Undecided
    return _KINDS[value_type]


def _verdicts(value_type: str, type_expr: Tree) -> tuple[bool | None, bool]:
    """`x IS :: T` for a value of `x`'s type that is not NULL (None: x is always NULL), and
    for NULL."""
    parts = _parts(type_expr)
    for_null = parts[0][1] or any(p.data == "type_null" for p, _ in parts)
    if value_type == "null":
        return None, for_null
    answers = {any(_holds(kind, value_type, p) for p, _ in parts)
               for kind in _kinds(value_type)}
    if len(answers) > 1:
        raise _Undecided
    return answers.pop(), for_null


def _test(value: Tree, for_value: bool | None, for_null: bool) -> Tree:
    """A test of `value` that is `for_value` where it is not NULL and `for_null` where it is,
    reading `value` (an error in it is raised as in Neo4j)."""
    if for_value is None or for_value == for_null:
        joined = "or_" if for_null else "and_"
        return tree("paren", tree(joined, tree("is_null", value),
                                  tree("is_not_null", clone(value))))
    return tree("is_not_null" if for_value else "is_null", value)


def _uncertain(value: object) -> bool:
    """Whether the annotated type of `value` was unified over an operand of unknown type: the
    annotator reads `coalesce(m.k, 1)` as an integer and `'a' + x` as text whatever m.k and x
    hold, which is a guess a type test must not answer by."""
    if not isinstance(value, Tree):
        return False
    if value.data == "paren":
        return _uncertain(value.children[0])
    if value.data == "arith":
        operands = (value.children[0], value.children[2])
    else:
        positions = result_positions(value)
        if any(result_type(value, at) == UNKNOWN for at in positions):
            return True
        operands = tuple(value.children[at] for at in positions)
        operands = tuple(o.children[1] if isinstance(o, Tree) and o.data == "case_when" else o
                         for o in operands)
    return any(ctype(o) == UNKNOWN or _uncertain(o) for o in operands)


def _known_type(value: Tree) -> str:
    """The annotated type of `value`, UNKNOWN where it was guessed (`_uncertain`)."""
    return UNKNOWN if _uncertain(value) else ctype(value)


def _type_test(node: Tree) -> Tree:
    value, type_expr = node.children
    try:
        for_value, for_null = _verdicts(_known_type(value), type_expr)
    except _Undecided:
        raise DialectError("a type predicate (IS ::) of a value whose type depends on the "
                           "row") from None
    if node.data == "is_not_typed":
        for_value = None if for_value is None else not for_value
        for_null = not for_null
    return typed(_test(value, for_value, for_null), "bool")


# valueType()'s names of the kinds (the Cypher Manual, functions/scalar).
_VALUE_TYPES = {"STRING": "STRING", "INTEGER": "INTEGER", "FLOAT": "FLOAT",
                "BOOLEAN": "BOOLEAN", "POINT": "POINT", "NODE": "NODE",
                "RELATIONSHIP": "RELATIONSHIP", "PATH": "PATH", "MAP": "MAP"}


def _value_type(node: Tree) -> Tree:
    args = [c for c in node.children[1:] if isinstance(c, Tree)]
    if len(args) != 1:
        raise CypherSyntaxError("valueType() takes one argument")
    value = args[0]
    value_type = _known_type(value)
    if value_type == "null":
        return typed(tree("str_lit", Token("STRING", "'NULL'")), "str")
    kinds = _KINDS.get(value_type, frozenset())
    if len(kinds) != 1:
        raise DialectError("valueType() of a value whose type the query does not fix (a list, "
                           "or a value of several types)")
    (kind,) = kinds
    named = tree("str_lit", Token("STRING", f"'{_VALUE_TYPES[kind]} NOT NULL'"))
    return typed(tree("case_expr", tree("case_when", tree("is_null", value),
                                        tree("str_lit", Token("STRING", "'NULL'"))), named),
                 "str")


def _normalized_test(node: Tree) -> Tree:
    value, form = node.children
    value_type = _known_type(value)
    if value_type == "str":
        normalized = typed(call("normalize", clone(value), form), "str")
        op = "=" if node.data == "is_normalized" else "<>"
        return typed(tree("paren", tree("compare", normalized, Token(
            "EQ" if op == "=" else "COMP_OP", op), value)), "bool")
    if value_type == "null" or value_type in _KINDS or value_type.startswith("list<"):
        return typed(tree("null_lit"), "null")   # NULL of any value but a string
    raise DialectError("IS NORMALIZED of a value whose type depends on the row")


def _folded(node: Tree) -> Tree | None:
    if node.data in ("is_typed", "is_not_typed"):
        return _type_test(node)
    if node.data in ("is_normalized", "is_not_normalized"):
        return _normalized_test(node)
    if node.data == "call" and isinstance(node.children[0], Tree) \
            and function_name(node.children[0]).lower() == "valuetype":
        return _value_type(node)
    return None


def fold_type_predicates(root: Tree) -> bool:
    """Replace each type predicate, IS NORMALIZED test and valueType() call of the annotated
    tree by the test it is for its operand's type (module docstring), in place; whether one
    was. One no type decides is refused (`DialectError`)."""
    return replace_bottom_up(root, _folded)


__all__ = ["GATE", "REWRITE", "UNKNOWN", "fold_type_predicates"]
