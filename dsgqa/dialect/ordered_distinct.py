"""A DISTINCT projection over rows an ORDER BY sorted (Kuzu and Ladybug bug).

Neo4j's DISTINCT passes rows on as they come and drops repeats, so after an ORDER BY it keeps
the sorted order of each value's first row: `MATCH (o:Object) WITH o ORDER BY o.center.z DESC
WITH DISTINCT o.class AS cls LIMIT 5` keeps the five classes whose highest object is highest.
Both engines drop repeats through a hash table and pass the rows on in its order, so the
LIMIT kept five other classes and `RETURN DISTINCT` came out alphabetical (the fifteenth
held-out round). The same holds for `collect(DISTINCT x)` (`rewrite.py` reads it as
`list_distinct(collect(x))`).

Where the rows a DISTINCT projection (without an ORDER BY of its own) reads were sorted by an
earlier WITH of the same query part (or are a list's elements, `UNWIND [..] AS x` first), with
nothing but WITHs that keep rows as they are and UNWINDs in between, and every item is a
string, number or boolean, the projection becomes

    WITH list_distinct(collect({_v0: coalesce(e0, ''), _n0: e0 IS NULL, ..})) AS _d1
    UNWIND _d1 AS _r1
    WITH CASE WHEN _r1._n0 = true THEN NULL ELSE _r1._v0 END AS a, ..
    [WHERE ...] [SKIP ...] [LIMIT ...]

`collect()` keeps the rows' order (after the Ladybug barrier, `order_barrier.py`) and
`list_distinct` each value's first occurrence, measured on both engines; a NULL is a flag
beside a value of its type (a struct with a NULL field equals no other, so `list_distinct`
kept each). Only where the order can show: a SKIP or LIMIT, there
or later, or a later aggregate (a final result in no order of its own is put in one canonical
order on every backend). Items of other types (nodes, points, lists) are refused there.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import groups, has_aggregate
from dsgqa.dialect.trees import (
    call,
    child_of,
    clone,
    column_name,
    int_lit,
    is_distinct,
    item_name,
    name,
    tree,
    var,
)
from dsgqa.dialect.types import ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "DISTINCT after ORDER BY->first occurrences in order"
_SCALARS = frozenset({"str", "int", "float", "number", "bool"})
# A value of each scalar type, for a NULL item's field (its flag says it is NULL).
_DEFAULTS = {
    "str": lambda: tree("str_lit", Token("STRING", "''")),
    "int": lambda: int_lit(0),
    "float": lambda: tree("float_lit", Token("FLOAT", "0.0")),
    "number": lambda: tree("float_lit", Token("FLOAT", "0.0")),
    "bool": lambda: tree("false_lit"),
}
# Clauses that may reorder or multiply rows: the order an earlier ORDER BY gave is not
# followed further.
_REORDERING = frozenset({"match", "call_subquery", "call_procedure"})


def keep_ordered_distinct(root: Tree, names: FreshNames) -> bool:
    """Rewrite (or refuse) every such projection under `root`; True when one changed."""
    changed = False
    for single in [s for s in root.iter_subtrees_topdown() if s.data == "single_query"]:
        changed |= _in_part(single, names)
    return changed


def _in_part(single: Tree, names: FreshNames) -> bool:
    out: list[object] = []
    ordered = False
    changed = False
    clauses = single.children
    for k, clause in enumerate(clauses):
        if not isinstance(clause, Tree):
            out.append(clause)
            continue
        if clause.data in ("with_clause", "return_clause"):
            projection = clause.children[0]
            own_order = child_of(projection, "order") is not None
            items = child_of(projection, "proj_items")
            if ordered and is_distinct(projection) and not own_order \
                    and not has_aggregate(items) and _order_shows(clause, clauses[k + 1:]):
                if _scalar_items(items):
                    out += _first_occurrences(clause, names)
                    changed = True
                    continue   # its rows keep the sorted order
                raise DialectError("a DISTINCT of nodes, points or lists over sorted rows "
                                   "where the order shows (the engines drop repeats in "
                                   "another order)")
            ordered = own_order or (ordered and not groups(projection))
        elif clause.data == "unwind":   # a list's elements in order, for each row in order
            ordered = ordered or k == 0
        elif clause.data in _REORDERING:
            ordered = False
        out.append(clause)
    single.children = out
    return changed


def _scalar_items(items: Tree) -> bool:
    return all(isinstance(item, Tree) and ctype(item.children[0]) in _SCALARS
               for item in items.children)


def _limited(projection: Tree) -> bool:
    return any(isinstance(c, Tree) and c.data in ("skip", "limit") for c in projection.children)


def _order_shows(clause: Tree, later: list[object]) -> bool:
    """Whether the order of the DISTINCT's rows can change an answer: it or a later projection
    cuts rows (SKIP, LIMIT), or a later one aggregates (a collected list). A final result in
    no order of its own is not: its rows are put in one canonical order on every backend
    (`dsgqa.canonical_rows`), Neo4j's included."""
    return _limited(clause.children[0]) or any(
        isinstance(c, Tree) and c.data in ("with_clause", "return_clause")
        and (has_aggregate(child_of(c.children[0], "proj_items")) or _limited(c.children[0]))
        for c in later)


def _first_occurrences(clause: Tree, names: FreshNames) -> list[Tree]:
    """The clauses that take the place of `clause` (module docstring)."""
    projection = clause.children[0]
    items = [item for item in child_of(projection, "proj_items").children
             if isinstance(item, Tree)]
    rows, row = names.fresh("_d"), names.fresh("_r")
    fields = [f"_v{i}" for i in range(len(items))]
    entries = []
    for i, (field, item) in enumerate(zip(fields, items, strict=True)):
        # A NULL field makes two structs unequal, so `list_distinct` kept every row of NULLs
        # (fuzz seed 3737): the field holds a value of its type, and a flag the NULL.
        value = item.children[0]
        entries += [tree("map_entry", name(field), call("coalesce", clone(value),
                                                          _DEFAULTS[ctype(value)]())),
                    tree("map_entry", name(f"_n{i}"), tree("is_null", clone(value)))]
    collected = call("list_distinct", call("collect", tree("map_literal", *entries)))
    gather = tree("with_clause", tree("projection", tree("proj_items", tree(
        "proj_item", collected, name(rows)))))
    unwind = tree("unwind", var(rows), name(row))
    read = []
    for field, item in zip(fields, items, strict=True):
        column = item_name(item)
        alias = name(column) if column is not None \
            else column_name(getattr(item, "original_text", field))
        flag = field.replace("_v", "_n")
        # `= true`: a struct's boolean field as a WHEN failed "bad_function_call" on Ladybug
        flagged = tree("compare", tree("prop", var(row), name(flag)), Token("EQ", "="),
                       tree("true_lit"))
        read.append(tree("proj_item", tree("case_expr", tree("case_when", flagged, tree(
            "null_lit")), tree("prop", var(row), name(field))), alias))
    projection.children = [tree("proj_items", *read)] + [
        c for c in projection.children if isinstance(c, Tree) and c.data != "proj_items"]
    return [gather, unwind, clause]
