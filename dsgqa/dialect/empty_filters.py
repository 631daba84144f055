"""A `list_filter` over an empty computed list whose test reads the row (Kuzu and Ladybug bug).

Both engines give `list_filter(S, x -> test)` the previous row's result where S is an empty
list computed in place (`range(..)`, a slice, `list_concat`, another lambda's list) and the
test reads a variable of the row. Measured on both:

    UNWIND [3, 0, 2, 0] AS n WITH n, range(1, n) AS xs
    RETURN n, list_filter(range(0, size(xs) - 1), k -> xs[k + 1] > 0)
        -- [0, 1, 2], [0, 1, 2], [0, 1], [0, 1]: rows 2 and 4 should be []

so Neo4j's `[k IN range(0, size(xs) - 1) WHERE xs[k] > 0]` kept a room's positions for the
next, empty room (a pairwise count over rooms failed on that, or counted the room before).
A list held in a variable, `list_transform`, `list_reduce` and the quantifiers are right, and
so is the filter for every non-empty list.

So where the list reads only variables of the row (no lambda's, no aggregate, no pattern) and
the filter is in a WITH's or RETURN's items, the list is computed in a `WITH *, S AS _listN`
before the clause and the filter reads the variable (every copy of S in the items, which a
walk by position makes several of, reads it). Anywhere else such a filter is taken only where
its list has elements, the empty list itself otherwise (which has the element type the filter
would give): `CASE WHEN size(S) = 0 THEN S ELSE list_filter(S, ..) END`; a NULL list still
gives NULL. That repeats S three times, and a filter over such a filter nine: a filtered range
read by position grew to 35 KB and ran out of memory, which the WITH avoids. Read once every
pass has run, before the lambdas over a CASE are distributed (`lambda_sources.py`).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.captures import positions_of
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    Splice,
    bare,
    call,
    child_of,
    clone,
    function_name,
    int_lit,
    name,
    reads,
    replace_bottom_up,
    shape,
    splice_clauses,
    star_with,
    substitute,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = ("filter over a computed list reading the row->its list in a WITH, or taken only "
           "where it has elements")
# Trees that hold patterns or subqueries: a WITH cannot compute them for the clause.
_PATTERNS = frozenset({"pattern_predicate", "subquery", "anon_node", "pattern_list"})


def _filter_parts(node: Tree) -> tuple[object, Tree] | None:
    """(list, lambda) of a `list_filter` call, or None for anything else."""
    if node.data != "call" or not isinstance(node.children[0], Tree) or len(node.children) != 3:
        return None
    if function_name(node.children[0]).lower() != "list_filter":
        return None
    source, lam = node.children[1], node.children[2]
    if not (isinstance(lam, Tree) and lam.data == "lambda_"):
        return None
    return source, lam


def _needs_guard(source: object, lam: Tree) -> bool:
    """A computed list and a test that reads more than its own element."""
    held = bare(source)
    if isinstance(held, Tree) and (held.data == "var" or (
            held.data == "list_literal" and held.children)):   # never an empty computed list
        return False
    params = {plain_name(p) for p in lam.children[:-1]}
    return bool(reads(lam.children[-1], params))


def _guarded(node: Tree, source: object) -> Tree:
    empty = tree("compare", call("size", clone(source)), Token("EQ", "="), int_lit(0))
    return tree("case_expr", tree("case_when", empty, clone(source)), node)


def _guarded_filter(node: Tree) -> Tree | None:
    parts = _filter_parts(node)
    return _guarded(node, parts[0]) if parts is not None and _needs_guard(*parts) else None


_LAMBDA_CALLS = frozenset({"list_filter", "list_transform"})


def _lambda_call(node: Tree) -> bool:
    return node.data == "call" and isinstance(node.children[0], Tree) \
        and function_name(node.children[0]).lower() in _LAMBDA_CALLS


def _hoistable(node: Tree, scope: set[str]) -> bool:
    """A lambda call a WITH before the clause can compute: it reads only names in scope there,
    holds no other lambda call, no aggregate and no pattern."""
    return _lambda_call(node) and reads(node) <= scope and not has_aggregate(node) \
        and not any(sub is not node and (_lambda_call(sub) or sub.data in _PATTERNS)
                    for sub in node.iter_subtrees())


def _replaced(node: object, key: object, name_: str) -> object:
    """`node` with every subtree of shape `key` read from the variable `name_`."""
    if not isinstance(node, Tree):
        return node
    if shape(node) == key:
        return var(name_)
    node.children = [_replaced(child, key, name_) for child in node.children]
    return node


def _needs_hoisting(items: Tree) -> bool:
    return any((parts := _filter_parts(sub)) is not None and _needs_guard(*parts)
               and any(_lambda_call(inner) for inner in parts[0].iter_subtrees())
               for sub in items.iter_subtrees())


def _hoisted_lists(root: Tree, names: FreshNames) -> bool:
    """Where a filter's list is made by another lambda (a filtered range read by position),
    each innermost lambda call that reads only the row is computed in a WITH of its own
    before the WITH or RETURN, innermost first (a WITH's items cannot read one another)."""
    def levels_before(clauses: list[Tree], k: int) -> Splice | None:
        if clauses[k].data not in ("with_clause", "return_clause"):
            return None
        projection = clauses[k].children[0]
        scope = set(getattr(projection, "scope_before", None) or ())
        items = child_of(projection, "proj_items")
        if not scope or any(isinstance(c, Token) for c in items.children) \
                or not _needs_hoisting(items):
            return None
        levels: list[Tree] = []
        held_lists: set[str] = set()
        while True:
            found = [sub for sub in items.iter_subtrees() if _hoistable(sub, scope)]
            if not found:
                break
            level = []
            for call_ in found:
                key = shape(call_)
                if any(shape(item.children[0]) == key for item in level):
                    continue
                held = names.fresh("_list")
                held_lists.add(held)
                level.append(tree("proj_item", clone(call_), name(held)))
                items.children = [_replaced(item, key, held) for item in items.children]
            scope |= held_lists
            levels.append(star_with(level))
        if not levels:
            return None
        for tree_ in [*levels, items]:
            replace_bottom_up(tree_, lambda node: _by_position(node, held_lists, names))
        return k, levels, True
    return splice_clauses(root, levels_before)


def _by_position(node: Tree, held: set[str], names: FreshNames) -> Tree | None:
    """A lambda call over one of the lists a WITH now holds, walking its positions: with
    several lambdas over WITH-passed lists in one query both engines read another row's
    elements (`list_transform(_list3, x -> neo4j_to_upper(x))` gave every row the first row's
    split; fuzz seed 7373), and a walk by position reads them right (`captures.py`)."""
    if not _lambda_call(node) or len(node.children) != 3:
        return None
    source, lam = node.children[1], node.children[2]
    if not (isinstance(source, Tree) and source.data == "var"
            and plain_name(source.children[0]) in held
            and isinstance(lam, Tree) and lam.data == "lambda_"):
        return None
    position = names.fresh("_i")
    element = tree("index", clone(source), tree("arith", var(position), Token("ADD_OP", "+"),
                                                int_lit(1)))
    bound = plain_name(lam.children[0])
    body = substitute(clone(lam.children[1]), {bound: element})
    positions = positions_of(source)
    if function_name(node.children[0]).lower() == "list_transform":
        return call("list_transform", positions, tree("lambda_", name(position), body))
    kept = call("list_filter", positions, tree("lambda_", name(position), body))
    return call("list_transform", kept, tree("lambda_", name(position), clone(element)))


def guard_empty_filters(root: Tree, names: FreshNames) -> bool:
    """Apply the pass to the whole query, in place; whether it changed something."""
    hoisted = _hoisted_lists(root, names)
    return replace_bottom_up(root, _guarded_filter) or hoisted
