"""Maps of different shapes where one value holds either: written alike, or refused.

Neo4j's maps are keyed by name and each value keeps its own type. Kuzu 0.11.3 and Ladybug
0.22.0 make a map a struct, and where one expression holds maps written apart (a CASE's
results, coalesce()'s arguments, a list's elements) they cast every map to one struct type,
field by field in order. The emitter writes every map's keys sorted (`emit.e_map_literal`),
so maps with the same keys line up; three more differences were silent:

- other keys: `CASE WHEN k = 1 THEN {a: 1} ELSE {b: 2} END.a` is NULL in Neo4j for k = 2, and
  2 on the engines (the struct `{b: 2}` cast to `{a}`): refused;
- a field that is NULL in one map: `CASE WHEN k = 1 THEN {d: null} ELSE {d: 0.5} END.d` read
  the text '0.500000' for k = 1 and NULL for k = 2 on Ladybug: refused;
- a field that is an integer in one map and a float in another: the struct takes the first
  map's field type, so `CASE WHEN d IS NULL THEN {dist: -1} ELSE {dist: round(d, 2)} END`
  gave 4 for 4.07. Models write that shape ("-1 for none", `number_results.py` answers it for
  plain values), so the integers are written as floats (`toFloat(-1)`): every value equals
  Neo4j's. Where the type itself would show (`/` and `%` divide an integer as a float) a field
  read of such a query is refused (`Rewriter.number_fields`); `toString()` of a field already is.

Maps are looked into where they are written in the expression (literals, and projections that
list their keys); a map a variable holds is not.
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import call, function_name
from dsgqa.dialect.types import FLOAT_SUM, ctype, result_positions, typed

# Text that a query holding a map literal or projection entry has (the pass is skipped without).
MAP_ENTRY = re.compile(r"\{\s*(?:`[^`]*`|\w+|\.\w+)\s*[:,}]")
REWRITE = "integer and float fields of maps->toFloat"
# A field's types that make the engines' struct truncate or widen an integer.
_FLOATS = frozenset({"float", "number", FLOAT_SUM})


def _shape(node: object) -> dict[str, str] | None:
    """A written map's keys and their values' types (None: not a map whose keys are written)."""
    if not isinstance(node, Tree):
        return None
    if node.data == "paren":
        return _shape(node.children[0])
    if node.data == "map_literal":
        return {plain_name(e.children[0]): ctype(e.children[1]) for e in node.children}
    if node.data == "map_projection":
        shape: dict[str, str] = {}
        for item in node.children[1:]:
            if item.data == "proj_all":
                return None
            shape[plain_name(item.children[0])] = \
                ctype(item.children[1]) if item.data == "proj_key" else "property"
        return shape
    return None


def _together(node: Tree) -> list[object]:
    """The values one expression holds either of: a CASE's results, coalesce()'s arguments, a
    list literal's elements."""
    if node.data == "list_literal":
        return list(node.children)
    positions = result_positions(node)
    values = [node.children[i] for i in positions]
    return [v.children[1] if isinstance(v, Tree) and v.data == "case_when" else v
            for v in values]


def _written(node: object) -> Tree | None:
    """The map literal a value is written as (None: another value)."""
    while isinstance(node, Tree) and node.data == "paren":
        node = node.children[0]
    return node if isinstance(node, Tree) and node.data == "map_literal" else None


def _as_floats(values: list[object], key: str) -> None:
    """The integer `key` fields of the written maps among `values`, as floats."""
    for value in values:
        literal = _written(value)
        if literal is None:
            raise DialectError(f"a map field ({key}) that is an integer in one map and a float "
                               "in another, in a map projection (the engines give every map "
                               "the first one's field type)")
        for entry in literal.children:
            if plain_name(entry.children[0]) == key and ctype(entry.children[1]) == "int":
                entry.children[1] = typed(call("toFloat", entry.children[1]), "float")


def align_maps(root: Tree) -> bool:
    """Refuse written maps of other keys, or of a field NULL in one, that one expression holds,
    and write a field's integers as floats beside its floats (see the module); whether any
    was. Reads the annotated types."""
    floats = False
    for node in root.iter_subtrees():
        if node.data not in ("case_expr", "list_literal") and not (
                node.data == "call" and function_name(node.children[0]).lower() == "coalesce"):
            continue
        shapes = [s for s in map(_shape, _together(node)) if s is not None]
        if len(shapes) < 2:
            continue
        if any(set(s) != set(shapes[0]) for s in shapes):
            raise DialectError("maps with different keys in one CASE, coalesce() or list (the "
                               "engines cast one to the other's fields by position)")
        for key in shapes[0]:
            kinds = {s[key] for s in shapes}
            if "null" in kinds and len(kinds) > 1:
                raise DialectError(f"a map field ({key}) that is NULL in one map and a value in "
                                   "another (the engines type it by the NULL)")
            if "int" in kinds and kinds & _FLOATS:
                _as_floats([v for v in _together(node) if _shape(v) is not None], key)
                floats = True
    return floats
