"""ORDER BY a written list: its elements as sort keys, in order (the engines cannot sort lists).

Models sort by a tuple, `ORDER BY [r.class, m.nodeSymbol]`; both engines refuse a list as a
sort key ("Order by STRING[] is not supported", "Cannot order by STRUCT_PACK(..)"). Neo4j
orders lists element by element (the Cypher Manual's orderability: the first element that
differs decides, a shorter list first), and a written list has the same length on every row,
so sorting by it is sorting by its elements in turn, each in the key's direction, NULL last
ascending as for any key:

    ORDER BY [r.class, m.nodeSymbol] DESC  ->  ORDER BY r.class DESC, m.nodeSymbol DESC

A key naming a written list the projection aliases (`RETURN [r.class, m.class] AS pair,
count(*) AS n ORDER BY n DESC, pair`) is sorted the same way: by the elements themselves where
the projection neither aggregates nor is DISTINCT (its ORDER BY sees the rows before it; not
where an alias of the projection renames a variable an element reads), else by hidden items
the projection adds for them (grouping by an element beside the list keeps the groups, and
DISTINCT the rows), which a RETURN then leaves out:

    RETURN [r.class, m.class] AS pair, count(*) AS n ORDER BY n DESC, pair
 -> WITH [r.class, m.class] AS pair, count(*) AS n, r.class AS _key1, m.class AS _key2
    ORDER BY n DESC, _key1, _key2 SKIP 0 RETURN pair, n

A list or map element stays a list or map key (which the engines refuse as before).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import groups
from dsgqa.dialect.trees import (
    child_of,
    clone,
    item_name,
    name,
    read_back,
    reads,
    return_through_with,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "ORDER BY a written list->its elements"


def _written_list(key: object) -> Tree | None:
    """The list literal a sort key is (through parentheses), or None."""
    while isinstance(key, Tree) and key.data == "paren":
        key = key.children[0]
    return key if isinstance(key, Tree) and key.data == "list_literal" and key.children \
        else None


def _aliased_lists(projection: Tree) -> dict[str, Tree]:
    """The written lists a projection names (alias -> list literal)."""
    items = child_of(projection, "proj_items")
    return {item_name(item): written for item in items.children
            if isinstance(item, Tree) and len(item.children) == 2
            and (written := _written_list(item.children[0])) is not None}


def _renamed(projection: Tree) -> set[str]:
    """The aliases of a projection that name something other than the variable of that name."""
    items = child_of(projection, "proj_items")
    return {item_name(item) for item in items.children
            if isinstance(item, Tree) and len(item.children) == 2
            and not (item.children[0].data == "var"
                     and plain_name(item.children[0].children[0]) == item_name(item))}


def _sort_elements(elements: list[Tree], item: Tree) -> list[Tree]:
    return [tree("sort_item", element, *(clone(c) for c in item.children[1:]))
            for element in elements]


def expand_list_sort_keys(root: Tree, names: FreshNames) -> bool:
    """Replace each ORDER BY key that is, or names, a written list by its elements (module
    docstring); True when one was."""
    changed = False
    for part in list(root.iter_subtrees()):
        if part.data != "single_query":
            continue
        for clause in list(part.children):
            if isinstance(clause, Tree) and clause.data in ("with_clause", "return_clause") \
                    and child_of(clause.children[0], "order") is not None:
                changed |= _expand(part, clause, names)
    return changed


def _expand(part: Tree, clause: Tree, names: FreshNames) -> bool:
    """Expand the list keys of one projection's ORDER BY; whether it did."""
    projection = clause.children[0]
    order = child_of(projection, "order")
    items = child_of(projection, "proj_items")
    named = all(isinstance(i, Tree) and item_name(i) is not None for i in items.children)
    aliased = _aliased_lists(projection)
    hidden: list[Tree] = []
    keys: list[object] = []
    for item in order.children:
        written = _written_list(item.children[0])
        alias = plain_name(item.children[0].children[0]) \
            if item.children[0].data == "var" else None
        if written is not None:
            keys += _sort_elements(written.children, item)
        elif alias in aliased and not groups(projection) and not any(
                reads(element) & _renamed(projection) for element in aliased[alias].children):
            keys += _sort_elements([clone(e) for e in aliased[alias].children], item)
        elif alias in aliased and groups(projection) and named:
            fresh = [names.fresh("_key") for _ in aliased[alias].children]
            hidden += [tree("proj_item", clone(e), name(k))
                       for e, k in zip(aliased[alias].children, fresh, strict=True)]
            keys += _sort_elements([var(k) for k in fresh], item)
        else:
            keys.append(item)
    if len(keys) == len(order.children) and not hidden:
        return False
    order.children = keys
    if hidden:
        shown = [read_back(item) for item in items.children]
        items.children.extend(hidden)
        if clause.data == "return_clause":   # the hidden columns are not the query's
            return_through_with(part, clause, shown)
    return True
