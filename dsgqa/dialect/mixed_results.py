"""A returned CASE or coalesce() whose results are of different kinds, held as a struct.

Neo4j returns each row's own value: `coalesce(d, 'none')` is a float in some rows and the text
'none' in others, and models write that shape for "or none if there is none". Kuzu 0.11.3 and
Ladybug 0.22.0 give a CASE one type and convert every result to it (0.03 came back as
'0.030000'), so such a value is refused (`cross_types.refuse_mixed_result`) anywhere a later
operator would read it. As a whole column of the final RETURN, nothing reads it but the rows:
there each result becomes a struct with one field per kind of result, the others NULL of their
type, and the rows turn such a struct back into its one value (`functions.mixed_value`):

    RETURN coalesce(d, 'none') AS v
    -> RETURN CASE WHEN d IS NOT NULL THEN {_neo4j_value_float: d,
                                            _neo4j_value_str: CAST(NULL AS STRING)}
                   ELSE {_neo4j_value_float: CAST(NULL AS DOUBLE), _neo4j_value_str: 'none'}
              END AS v

Only integers, floats, text and booleans of known type qualify, and not a column the RETURN
sorts by (the engines would sort the structs, not Neo4j's order across kinds).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.cross_types import kind
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.functions import MIXED_VALUE_KEY
from dsgqa.dialect.trees import bare, call, child_of, clone, mentions, name, tree
from dsgqa.dialect.types import KUZU_SCALAR_TYPES, result_positions, result_type

REWRITE = "returned value of several kinds->struct"



def mark_mixed_columns(root: Tree) -> list[tuple[Tree, dict[int, str]]]:
    """On the original tree: the final RETURNs' whole-column CASEs and coalesce()s whose
    results are of several kinds, each with its results' types by position; marked so the
    refusal lets them through."""
    query = root.children[0] if root.data == "start" else root
    marked: list[tuple[Tree, dict[int, str]]] = []
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        last = part.children[-1]
        if not (isinstance(last, Tree) and last.data == "return_clause"):
            continue
        projection = last.children[0]
        order = child_of(projection, "order")
        for item in child_of(projection, "proj_items").children:
            if not isinstance(item, Tree):
                continue
            value = bare(item.children[0])
            kinds = {p: result_type(value, p) for p in result_positions(value)}
            known = {k for k in kinds.values() if k != "null"}
            if not known or not known <= KUZU_SCALAR_TYPES.keys() \
                    or len({kind(k) for k in known}) < 2:
                continue
            alias = plain_name(item.children[1]) if len(item.children) > 1 else None
            if order is not None and (alias is None or mentions(order, {alias})):
                continue
            value.mixed_column = True  # type: ignore[attr-defined]
            marked.append((value, kinds))
    return marked


def _struct(value: object, value_type: str, fields: list[str]) -> Tree:
    return tree("map_literal", *[
        tree("map_entry", name(f"{MIXED_VALUE_KEY}{field}"),
             value if field == value_type
             else call("CAST", tree("cast_arg", tree("null_lit"), name(KUZU_SCALAR_TYPES[field]))))
        for field in fields])


def hold_mixed_columns(root: Tree, marked: list[tuple[Tree, dict[int, str]]]) -> bool:
    """On the translation: write each marked column as structs (see the module). Raises
    `DialectError` where a pass rebuilt one beyond recognition."""
    if not marked:
        return False
    present = {id(node) for node in root.iter_subtrees_topdown()}
    for node, kinds in marked:
        if id(node) not in present or sorted(result_positions(node)) != sorted(kinds):
            raise DialectError("a returned CASE or coalesce() whose results are of different "
                               "types, in a form the translation changed")
        fields = sorted({k for k in kinds.values() if k != "null"})
        if node.data == "case_expr":
            for position, value_type in kinds.items():
                if value_type == "null":
                    continue
                child = node.children[position]
                if isinstance(child, Tree) and child.data == "case_when":
                    child.children[1] = _struct(child.children[1], value_type, fields)
                else:
                    node.children[position] = _struct(child, value_type, fields)
            continue
        args = node.children[1:]   # coalesce(a, b, ...): the first that is not NULL
        whens = [tree("case_when", tree("is_not_null", clone(arg)),
                      _struct(arg, kinds[i + 1], fields))
                 for i, arg in enumerate(args) if kinds[i + 1] != "null"]
        node.data = "case_expr"
        node.children = whens
    return True
