"""ORDER BY a written list: its elements as sort keys, in order (the engines cannot sort lists).

Models sort by a tuple, `ORDER BY [r.class, m.nodeSymbol]`; both engines refuse a list as a
sort key ("Order by STRING[] is not supported", "Cannot order by STRUCT_PACK(..)"). Neo4j
orders lists element by element (the Cypher Manual's orderability: the first element that
differs decides, a shorter list first), and a written list has the same length on every row,
so sorting by it is sorting by its elements in turn, each in the key's direction, NULL last
ascending as for any key:

    ORDER BY [r.class, m.nodeSymbol] DESC  ->  ORDER BY r.class DESC, m.nodeSymbol DESC

A list or map element stays a list or map key (which the engines refuse as before).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.trees import clone, tree

REWRITE = "ORDER BY a written list->its elements"


def _written_list(key: object) -> Tree | None:
    """The list literal a sort key is (through parentheses), or None."""
    while isinstance(key, Tree) and key.data == "paren":
        key = key.children[0]
    return key if isinstance(key, Tree) and key.data == "list_literal" and key.children \
        else None


def expand_list_sort_keys(root: Tree) -> bool:
    """Replace each ORDER BY key that is a written list by its elements; True when one was."""
    changed = False
    for order in root.iter_subtrees():
        if order.data != "order":
            continue
        keys: list[Tree] = []
        for item in order.children:
            if not isinstance(item, Tree) or item.data != "sort_item":
                keys.append(item)
                continue
            written = _written_list(item.children[0])
            if written is None:
                keys.append(item)
                continue
            keys += [tree("sort_item", element, *(clone(c) for c in item.children[1:]))
                     for element in written.children]
            changed = True
        order.children = keys
    return changed
