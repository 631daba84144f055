"""A CASE or coalesce() whose results are integers and floats, with Neo4j's values.

Neo4j keeps each result's own type: `CASE WHEN size(objs) = 0 THEN -1 ELSE round(z, 2) END` is
-1 or 2.41. Kuzu 0.11.3 and Ladybug 0.22.0 give the whole expression the first result's type,
so an integer first turns every float into an integer without an error (2.41 came back as 2,
0.58 as 1; measured on both), and models write exactly that shape (`-1` or `0` for "none", then
a distance or an average).

So the integer results are written as floats (`toFloat(-1)`): every value equals Neo4j's, and an
integer comes back as the same number written as a float (-1.0), as it always did where a float
came first. Where the type itself shows, that is not Neo4j's answer: `toString()` and string
concatenation print -1.0 for -1, and `/` and `%` divide an integer as a float. The annotator
gives such an expression the type `number` (`types.py`), which follows it through arithmetic,
aliases and aggregates, and those readers refuse a `number` (`dialect`).

Lists of results get the same treatment, since the engines type a CASE of lists by its first
list too: `CASE WHEN .. THEN [1] ELSE [r.center.x] END` gave [10] for [9.5], and `[null]`
or `[]` first (an INT64[] to the engines) failed against a list of strings. Integer lists
beside float lists become DOUBLE[] (the type `list<number>`), and a literal list of nothing
but NULLs takes the other results' element type.

Read on the original tree before any rewrite (the annotator's types are on its nodes).
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Tree

from dsgqa.dialect.trees import call, name, nothing_but_nulls, tree
from dsgqa.dialect.types import KUZU_SCALAR_TYPES, ctype, element, result_positions, result_type

REWRITE = "integer and float results->toFloat"


def _wrap(node: Tree, position: int, wrap: Callable[[Tree], Tree]) -> None:
    child = node.children[position]
    if node.data == "case_expr" and isinstance(child, Tree) and child.data == "case_when":
        child.children[1] = wrap(child.children[1])
    else:
        node.children[position] = wrap(child)


def _result(node: Tree, position: int) -> object:
    child = node.children[position]
    if node.data == "case_expr" and isinstance(child, Tree) and child.data == "case_when":
        return child.children[1]
    return child


def _list_cast(kuzu_type: str) -> Callable[[Tree], Tree]:
    return lambda value: call("CAST", tree("cast_arg", value, name(f"{kuzu_type}[]")))


def _retype_lists(node: Tree) -> bool:
    """A CASE or coalesce() of lists: every result as the one list type (see above)."""
    kind = element(ctype(node))
    target = "DOUBLE" if kind == "number" else KUZU_SCALAR_TYPES.get(kind)
    if target is None:
        return False
    changed = False
    for position in result_positions(node):
        result_kind = element(result_type(node, position))
        if nothing_but_nulls(_result(node, position)) or (
                kind == "number" and result_kind in ("int", "number")):
            _wrap(node, position, _list_cast(target))
            changed = True
    return changed


def float_number_results(root: Tree) -> bool:
    """Write the integer results of CASEs and coalesce()s that also give floats as floats, in
    place; whether any were."""
    if not getattr(root, "has_numbers", True):
        return False
    changed = False
    seen: set[int] = set()
    for node in list(root.iter_subtrees_topdown()):
        if ctype(node).startswith("list<") and id(node) not in seen:
            seen.add(id(node))
            changed = _retype_lists(node) or changed
            continue
        if ctype(node) != "number" or id(node) in seen:
            continue
        seen.add(id(node))
        kinds = {position: result_type(node, position) for position in result_positions(node)}
        for position, kind in kinds.items():
            if kind in ("int", "number"):   # a nested CASE of both holds floats already
                _wrap(node, position, lambda value: call("toFloat", value))
                changed = True
    return changed
