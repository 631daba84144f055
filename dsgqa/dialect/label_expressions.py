"""Neo4j 5 label expressions, as the alternation of the layout's labels they allow.

Neo4j 5 writes which labels a node may have as an expression: `(n:Room|Place)`, `(n:!Object)`,
`(n:(Room|Place)&!Room)`, `(n:%)` (any label), and Neo4j 4's `(n:A:B)` (both labels); in a
WHERE, `n:!Object` and `n:(Room|Place)`. Kuzu and Ladybug only know a list of alternatives
(`(n:Room:Place)` is either table). In Heracles' layout every node has exactly one label (its
layer) and every relationship one type, so an expression allows exactly the set of labels that
satisfy it on their own: `!Object` is `Place|MeshPlace|Room|Building`, `Room&Place` is none.
Evaluated over the layout's labels (`dsgqa.scene_graph.LABELS`), a pattern's expression becomes
that alternation and a predicate's becomes `label(n) = 'A' OR label(n) = 'B'`. A relationship
pattern's type expression (`[:!CONTAINS]`) becomes the list of the layout's types it allows.

A pattern no label satisfies (`:Room&Place`, `:!%`, a label the layout lacks or spells in
another case) matches nothing (`unknown_names.py` writes that before this pass). A plain label
or list of alternatives is left as written.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.scene_graph import EDGE_TYPES, LABELS

REWRITE = "label expression->alternation"


def allowed_labels(expression: Tree, universe: tuple[str, ...] = LABELS) -> frozenset[str]:
    """The labels of `universe` a node with only that label satisfies `expression` with.
    A name outside the universe allows no node (Neo4j: no node has that label)."""
    kind = expression.data
    if kind in ("label_term", "name"):   # a relationship type is a bare `name`
        name = plain_name(expression if kind == "name" else expression.children[0])
        return frozenset({name}) & frozenset(universe)
    if kind == "label_any":
        return frozenset(universe)
    if kind == "label_not":
        return frozenset(universe) - allowed_labels(expression.children[0], universe)
    parts = [allowed_labels(child, universe) for child in expression.children]
    if kind == "label_or":
        return frozenset().union(*parts)
    if kind in ("label_and", "node_labels"):   # node_labels: Neo4j 4's `:A:B`, both labels
        return frozenset.intersection(*parts)
    raise DialectError(f"cannot read the label expression {kind}")


def is_plain(node_labels: Tree) -> bool:
    """One label, or alternatives the engines read as written (`:A|B`)."""
    return len(node_labels.children) == 1 and _alternatives(node_labels.children[0])


def _alternatives(expression: Tree) -> bool:
    return expression.data in ("label_term", "name") or (
        expression.data == "label_or" and all(_alternatives(c) for c in expression.children))


def alternation(labels: frozenset[str]) -> Tree:
    """`node_labels` listing `labels` in the layout's order, as the printer writes them."""
    return Tree("node_labels", _separated(
        [Tree("label_term", [Tree("name", [Token("NAME", label)])])
         for label in LABELS if label in labels], "label_sep"))


def resolve_node_labels(node_labels: Tree) -> bool:
    """Rewrite one pattern's `node_labels` in place as an alternation; whether it was an
    expression the engines could not read as written."""
    if is_plain(node_labels):   # as written: a label the layout lacks is the engines' error
        if len(node_labels.children) == 1 and node_labels.children[0].data == "label_or":
            node_labels.children = _flat_alternatives(node_labels.children[0])
        return False
    allowed = allowed_labels(node_labels)
    if not allowed:
        raise DialectError("a node pattern no node satisfies: every node of the layout has "
                           "one label (`:A&B`, `:A:B`, `:!%`)")
    node_labels.children = alternation(allowed).children
    return True


def _separated(items: list[Tree], separator: str) -> list[Tree]:
    """`items` with a `|` separator tree (`label_sep`, `rel_sep`) between each two, as the
    printer reads a list of alternatives."""
    children: list[Tree] = []
    for item in items:
        if children:
            children.append(Tree(separator, [Token("VBAR", "|")]))
        children.append(item)
    return children


def _flat_alternatives(expression: Tree) -> list[Tree]:
    """`A|B|C` (nested `label_or`) as the printer's list: terms and `|` separators."""
    return _separated([t for t in expression.iter_subtrees_topdown() if t.data == "label_term"],
                      "label_sep")


def resolve_rel_types(rel_types: Tree) -> bool:
    """Rewrite one relationship pattern's types in place as the list the printer writes
    (`name`s between `|` separators); whether it was an expression (`:!CONTAINS`)."""
    (expression,) = rel_types.children
    if expression.data == "name":   # one type: as the grammar gave it
        return False
    plain = _alternatives(expression)
    if plain:   # as written
        names = [t for t in expression.iter_subtrees_topdown() if t.data == "name"]
    else:
        allowed = allowed_labels(expression, EDGE_TYPES)
        if not allowed:
            raise DialectError("a relationship pattern no relationship satisfies: every "
                               "relationship has one type (`:A&B`, `:!%`)")
        names = [Tree("name", [Token("NAME", t)]) for t in EDGE_TYPES if t in allowed]
    rel_types.children = _separated(names, "rel_sep")
    return not plain


def resolve_label_expressions(root: Tree) -> bool:
    """Every node pattern's labels as an alternation and every relationship pattern's types as
    a list (module docstring); whether any was an expression."""
    changed = False
    for sub in list(root.iter_subtrees_topdown()):
        if sub.data == "node_labels":
            changed |= resolve_node_labels(sub)
        elif sub.data == "rel_types":
            changed |= resolve_rel_types(sub)
    return changed


def predicate_labels(expression: Tree, universe: tuple[str, ...]) -> list[str]:
    """The labels a WHERE's `n:<expression>` allows, in the universe's order."""
    allowed = allowed_labels(expression, universe)
    return [label for label in universe if label in allowed]


def needs_universe(expression: Tree) -> bool:
    """Whether the expression's meaning depends on which labels exist (`!`, `%`)."""
    return any(t.data in ("label_not", "label_any") for t in expression.iter_subtrees_topdown())

