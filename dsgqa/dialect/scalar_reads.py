"""A property read of a value that is no map: Neo4j's type error on the rows that reach it.

Neo4j reads `x.key` of a node, a relationship, a map, a point, a temporal or a duration, and
raises for anything else when it evaluates the read on a row (`CypherFunctions.propertyGet`:
"Type mismatch: expected a map but was String(\"R1\")", `CypherTypeException.expectedMap`,
GQL 22G03), NULL giving NULL. Where its semantic analysis knows the value is of another type
(`WITH 'a' AS s RETURN s.k`) the query fails when it compiles (`scope_errors.py`); a node's
property is of a storable type to it, which may be a point, so a model that shadows a node with
its property (`WITH r.nodeSymbol AS r .. RETURN r.class`), or reads a property's property
(`r.nodeSymbol.class`, `o.center.x.y`), gets the error at run time, on the rows that reach the
read: none, and there is no error.

The engines refuse such a read when they bind the query ("r has data type STRING but
(NODE,REL,STRUCT,ANY) was expected"), whatever the rows, which could only be `dialect`: the
model went uncharged. So a read of a value the types (`types.py`) know to be a string, a
number or a boolean becomes `neo4j_scalar_property(kind, value, mode)`, a UDF that raises
Neo4j's error where the value is not NULL, with `lazy_divisors.py`'s modes for the rows Neo4j
evaluates it on: 0 it does, 1 a CASE or coalesce() keeps it away (NULL, which nobody reads), 2
Neo4j may or may not reach it (refused, `dialect`). The value's text in the message is the
engines' (a float's is Java's).
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.lazy_divisors import RowGuard, row_mode
from dsgqa.dialect.trees import call, cast, clone, tree
from dsgqa.dialect.types import POINT_PROPERTIES, ctype, typed

REWRITE = "property read of a string or number->neo4j_scalar_property (Neo4j raises per row)"
# The types (`types.py`) of values the engines hold as scalars -> Neo4j's name of the value.
_KINDS = {"str": "String", "int": "Long", "float": "Double", "float_sum": "Double",
          "bool": "Boolean"}
_REACHED, _EXACT = 0, 1
_ALIAS = re.compile(r"\bAS\s+`?(\w+)", re.IGNORECASE)
_READ_OF_NAME = re.compile(r"(?<![\w.$`])`?(\w+)`?\s*\.\s*[A-Za-z_`]")
_READ_OF_VALUE = re.compile(r"[)\]]\s*\.\s*[A-Za-z_`]")
_CHAINED_KEY = re.compile(r"\.\s*`?(\w+)`?(?=\s*\.\s*[A-Za-z_`])")
# Where a lambda's body starts (its element's type is Neo4j's to check).
_LAMBDAS = frozenset({"list_comp", "list_comp_map", "where_arg", "pipe_arg", "lambda_"})


def _text(value: Tree, kind: str) -> Tree:
    """The engines' text of `value` for the message."""
    if kind == "str":
        return value
    if kind in ("float", "float_sum"):
        return call("neo4j_double_string", cast(value, "DOUBLE"))
    if kind == "bool":
        return call("neo4j_bool_string", value)
    return cast(value, "STRING")


class _ReadGuard(RowGuard):
    def __init__(self) -> None:
        super().__init__(mark_only=False)
        self.lambdas = 0   # lambdas around the node visited

    def visit(self, node: object, skips: list[tuple[int, Tree]]) -> None:
        if isinstance(node, Tree) and node.data == "order":
            # a sort key's names are the projection's aliases or the names before it, as
            # Neo4j's rules for the key decide (`order_by.py`): its types are not known here
            return
        inside = isinstance(node, Tree) and node.data in _LAMBDAS
        self.lambdas += inside
        try:
            super().visit(node, skips)
        finally:
            self.lambdas -= inside

    def guard(self, node: Tree, skips: list[tuple[int, Tree]]) -> None:
        if node.data != "prop" or self.lambdas:
            # (in a lambda, Neo4j types the element and may reject the read when it compiles,
            # whether or not a list has elements: left to the engines' refusal)
            return
        value = node.children[0]
        kind = ctype(value)
        if kind not in _KINDS or not any(sub.data == "var" for sub in value.iter_subtrees()):
            # (a read of constants alone: the engines would fold the call, and raise, before
            # any row; Neo4j's compiler rejects the ones it types)
            return
        made = call("neo4j_scalar_property", typed(tree("str_lit", Token(
            "STRING", f"'{_KINDS[kind]}'")), "str"), _text(clone(value), kind),
            row_mode(skips, _REACHED))
        node.data, node.children = made.data, made.children
        typed(node, "str")
        self.changed = True


def may_read_scalars(text: str) -> bool:
    """Whether the text may read a property of a scalar: of a property other than a point
    (`r.nodeSymbol.class`), of a call's or an index's value (`toString(x).k`), or of an alias
    bound before (`WITH r.nodeSymbol AS r .. r.class`)."""
    if _READ_OF_VALUE.search(text) or any(
            key.group(1) not in POINT_PROPERTIES for key in _CHAINED_KEY.finditer(text)):
        return True
    aliases: dict[str, int] = {}
    for alias in _ALIAS.finditer(text):
        aliases.setdefault(alias.group(1), alias.start())
    return bool(aliases) and any(aliases.get(read.group(1), len(text)) < read.start()
                                 for read in _READ_OF_NAME.finditer(text))


def guard_scalar_reads(root: Tree) -> bool:
    """Rewrite in place the property reads of scalars (module docstring), on the annotated
    tree; True when one changed."""
    if not any(node.data == "prop" and ctype(node.children[0]) in _KINDS
               for node in root.iter_subtrees()):
        return False
    guard = _ReadGuard()
    guard.visit(root, [])
    return guard.changed


def neo4j_scalar_property(kind: str, text: str, mode: int) -> str | None:
    """NULL, or Neo4j's error where it reads a property of the scalar `text` (a NULL value
    gives NULL without a call)."""
    if mode == _EXACT:
        return None
    if mode == _REACHED:
        shown = f'"{text}"' if kind == "String" else text
        raise ValueError(f"Type mismatch: expected a map but was {kind}({shown})")
    raise ValueError("no engine equivalent: a property read of a string or number that Neo4j "
                     "may not evaluate (an AND or OR, a quantifier that may stop before it, or "
                     "a lambda in a lazy branch)")
