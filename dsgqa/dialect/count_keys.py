"""An equality between a COUNT subquery's own values and outer ones (Kuzu and Ladybug bug).

Both engines plan `COUNT { MATCH (r)-->(o) WHERE o.class = t.class }` as a join keyed on the
equality, and a row whose key meets nothing takes the count of the row before it instead of
0. Measured on the example graph, with trash only in R2:

    MATCH (t:Object {nodeSymbol: 'O19'}) MATCH (r:Room) WHERE r.nodeSymbol IN ['R2', 'R3']
    RETURN r.nodeSymbol, COUNT { (r)-[:CONTAINS]->(:MeshPlace)-[:CONTAINS]->(o:Object)
                                 WHERE o.class = t.class }
    -- Neo4j R2 2, R3 0; both engines R2 2, R3 2

The same holds for an outer value a WITH made a variable (`o.class = tc`), a node compared
with an outer node (`x = b`, `id(x) = id(b)`, which `outer_anchors.py` writes), a property map
of the subquery's pattern that reads an outer value (`(o:Object {class: t.class})`), and
`size()` of a pattern comprehension (which becomes such a COUNT). EXISTS, OPTIONAL MATCH and
CALL bodies are right, and so are `<`, `<>` and an equality inside an OR.

So in a COUNT subquery every equality that reads an outer value is compared with true,
`(o.class = t.class) = true`: the same value in every case (true, false or NULL), which the
engines no longer take for a join key (both then give Neo4j's counts), and a pattern map entry
that reads an outer value becomes such a test in the WHERE. An id() tie `outer_anchors.py`
wrote so already is left as it is.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.count_joins import is_count
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    add_conditions,
    child_of,
    compared_with_true,
    declared_names,
    name,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "equality with an outer value in COUNT { }->= true"


def _read_names(node: object) -> set[str]:
    """The variables `node` reads (a call's callee is no variable)."""
    if not isinstance(node, Tree):
        return set()
    if node.data == "var":
        return {plain_name(node.children[0])}
    children = node.children[1:] if node.data == "call" else node.children
    found: set[str] = set()
    for child in children:
        found |= _read_names(child)
    return found


def _is_equality(node: Tree) -> bool:
    return node.data == "compare" and len(node.children) == 3 \
        and str(node.children[1]) == "="


def _holders(body: Tree) -> list[Tree]:
    """The MATCHes of a subquery's body (its pattern, for the short form)."""
    if body.data == "subquery_pattern":
        return [body]
    return [node for node in body.iter_subtrees_topdown() if node.data == "match"]


def _map_tests(holder: Tree, own: set[str], names: FreshNames) -> list[Tree]:
    """Take the pattern map entries that read an outer value out of `holder`'s patterns (the
    element is named if it was not): the equality tests they were."""
    tests: list[Tree] = []
    for element in child_of(holder, "pattern_list").iter_subtrees_topdown():
        if element.data not in ("node_pattern", "rel_detail"):
            continue
        properties = child_of(element, "map_literal")
        if properties is None:
            continue
        outer = [entry for entry in properties.children if isinstance(entry, Tree)
                 and _read_names(entry.children[1]) - own]
        if not outer:
            continue
        named = child_of(element, "name")
        if named is None:
            named = name(names.fresh("_node" if element.data == "node_pattern" else "_rel"))
            element.children.insert(0, named)
        properties.children = [c for c in properties.children if c not in outer]
        if not properties.children:
            element.children.remove(properties)
        tests += [compared_with_true(tree("compare",
                                          tree("prop", var(plain_name(named)), entry.children[0]),
                                          Token("EQ", "="), entry.children[1]))
                  for entry in outer]
    return tests


def compare_count_keys_with_true(root: Tree, names: FreshNames) -> bool:
    """Rewrite in place (see the module); whether anything changed."""
    changed = False
    seen: set[int] = set()   # a rewritten tree may share a subtree: rewrite it once
    for subquery in [n for n in root.iter_subtrees_topdown() if is_count(n)]:
        body = subquery.children[1]
        own = declared_names(body)
        for node in list(body.iter_subtrees_topdown()):
            if id(node) in seen:
                continue
            seen.add(id(node))
            for i, child in enumerate(node.children):
                if getattr(child, "id_tie", False):   # compared with true already
                    seen.update((id(child), id(child.children[0].children[0])))
                elif isinstance(child, Tree) and _is_equality(child) \
                        and _read_names(child) - own and id(child) not in seen:
                    seen.add(id(child))
                    node.children[i] = compared_with_true(child)
                    changed = True
        for holder in _holders(body):
            tests = _map_tests(holder, own, names)
            if tests:
                add_conditions(holder, tests)
                changed = True
    return changed
