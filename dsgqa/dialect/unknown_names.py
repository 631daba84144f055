"""Labels, relationship types and property keys the layout does not have, as Neo4j reads them.

Neo4j runs a query naming a label, type or key no node has (it warns, it does not fail): `(o:Chair)`
and `[:NEXT_TO]` match nothing, `o.color` is NULL. So `MATCH (o:Object) WHERE o.color = 'red'
RETURN count(o)` is 0 and `WHERE NOT (r)-[:NEXT_TO]-()` keeps every room, answers a model can
score with. The engines refuse such names ("Table Chair does not exist", "Cannot find property
color"), which charged the model (`schema`) for a query Neo4j answers. Names are case-sensitive in
Neo4j: `(r:room)` and `o.Class` are unknown names too (the engines would read them as `Room` and
`class`).

- A node pattern whose labels allow no layout label (`:Chair`, `:room`, `:Room&Place`), or a
  relationship pattern whose types allow no layout type, matches nothing: its labels or types
  go (the engines then accept the pattern) and the clause gets a false condition. A MATCH or
  OPTIONAL MATCH gets `WHERE false AND ..` (no row; NULLs for an OPTIONAL MATCH), an EXISTS or
  COUNT pattern the same (false; 0), a pattern predicate becomes false. Alternatives the layout
  lacks are dropped from a list that has others (`:Room|Chair` is `:Room`).
- A key read from a node (`n.key`, `n['key']`, `n {.key}`, `properties(n)['key']`) that no label
  has is NULL, and so is any key of a relationship (Heracles' relationships have no
  properties); a pattern's property map naming one matches nothing.

A pattern comprehension over such a pattern stays refused (it would be an empty list where the
outer node is not NULL).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.absent_properties import POINT_STRUCT
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.label_expressions import allowed_labels, alternation
from dsgqa.dialect.trees import call, child_of, function_name, name, read_key, tree
from dsgqa.dialect.types import LAYOUT_KEYS, POINT_PROPERTIES, WrittenMap, ctype
from dsgqa.scene_graph import EDGE_TYPES, LABELS

REWRITE = "unknown label, type or key->matches nothing / NULL"


def _names(expression: Tree) -> set[str]:
    return {plain_name(t.children[0] if t.data == "label_term" else t)
            for t in expression.iter_subtrees() if t.data in ("label_term", "name")}


def _plain(expression: Tree) -> bool:
    """One name, or alternatives of names (`:A|B`), as the engines read them."""
    return expression.data in ("label_term", "name") or (
        expression.data == "label_or" and all(_plain(c) for c in expression.children))


def _prune_labels(node: Tree) -> bool:
    """Drop what the layout lacks from a node pattern's labels; True when none is left."""
    labels = child_of(node, "node_labels")
    if labels is None:
        return False
    allowed = allowed_labels(labels)
    if not allowed:
        node.children.remove(labels)
        return True
    if len(labels.children) == 1 and _plain(labels.children[0]) \
            and not _names(labels) <= set(LABELS):   # `:Room|Chair`
        labels.children = alternation(allowed).children
    return False


def _prune_types(detail: Tree) -> bool:
    """Drop what the layout lacks from a relationship pattern's types; True when none is
    left."""
    types = child_of(detail, "rel_types")
    if types is None:
        return False
    expression = types.children[0]
    allowed = allowed_labels(expression, EDGE_TYPES)
    if not allowed:
        detail.children.remove(types)
        return True
    if _plain(expression) and not _names(expression) <= set(EDGE_TYPES):   # `[:CONTAINS|HAS]`
        kept = [tree("name", Token("NAME", t)) for t in EDGE_TYPES if t in allowed]
        types.children = [kept[0] if len(kept) == 1 else tree("label_or", *kept)]
    return False


def _prune_keys(element: Tree, rel: bool) -> bool:
    """Drop the keys no node (any key, for a relationship) has from a pattern's property map
    (`(o:Object {color: 'red'})`: NULL equals nothing); True when one was there."""
    properties = child_of(element, "map_literal")
    if properties is None:
        return False
    unknown = [e for e in properties.children if isinstance(e, Tree) and e.data == "map_entry"
               and (rel or plain_name(e.children[0]) not in LAYOUT_KEYS)]
    if not unknown:
        return False
    properties.children = [e for e in properties.children if e not in unknown]
    if not properties.children:
        element.children.remove(properties)
    return True


def _impossible(pattern: Tree) -> bool:
    """Prune every node and relationship pattern under `pattern`; whether one matches
    nothing."""
    found = False
    for sub in list(pattern.iter_subtrees()):
        if sub.data in ("node_pattern", "anon_node"):
            found |= _prune_labels(sub) | _prune_keys(sub, rel=False)
        elif sub.data == "rel_detail":
            found |= _prune_types(sub) | _prune_keys(sub, rel=True)
        elif sub.data == "has_label" and pattern.data == "pattern_predicate":
            found |= not allowed_labels(sub.children[1])   # `(a:Chair)-->()`
    return found


def add_false(clause: Tree) -> None:
    """`WHERE false AND <its condition>` on a MATCH or a subquery pattern."""
    where = child_of(clause, "where")
    if where is None:
        clause.children.append(tree("where", tree("false_lit")))
    else:
        where.children[0] = tree("and_", tree("false_lit"), tree("paren", where.children[0]))


def match_nothing(root: Tree) -> bool:
    """Rewrite the patterns of `root` (module docstring); whether one changed."""
    changed = False
    for sub in list(root.iter_subtrees_topdown()):
        if sub.data in ("match", "subquery_pattern"):
            if _impossible(child_of(sub, "pattern_list")):
                add_false(sub)
                changed = True
        elif sub.data in ("list_comp", "list_comp_map") and isinstance(sub.children[0], Tree) \
                and sub.children[0].data == "pattern_predicate" and _impossible(sub.children[0]):
            raise DialectError("a pattern comprehension over a label or relationship type "
                               "the graph does not have")
    for parent in list(root.iter_subtrees()):
        for i, child in enumerate(parent.children):
            if isinstance(child, Tree) and child.data == "pattern_predicate" \
                    and not (i == 0 and parent.data in ("list_comp", "list_comp_map")) \
                    and _impossible(child):   # (a pattern comprehension's own is above)
                parent.children[i] = tree("false_lit")
                changed = True
    return changed


def _typed_null(key: str | None = None) -> Tree:
    """A NULL of a type, for the engines (a bare NULL has none, and `count()`, `collect()` or
    `+` of it fail: "vector with ANY type"); text, the kind most keys hold; a point for a key
    the layout stores points under (`properties(r)` of a room held in `m`: `m.bbox_dim.x`)."""
    kuzu_type = POINT_STRUCT if key in POINT_PROPERTIES else "STRING"
    return call("CAST", tree("cast_arg", tree("null_lit"), name(kuzu_type)))


def _base_type(base: object) -> str:
    """The type a key is read from; `properties(n)` reads n's keys."""
    if isinstance(base, Tree) and base.data == "call" \
            and function_name(base.children[0]).lower() == "properties" and len(base.children) == 2:
        return ctype(base.children[1])
    return ctype(base)


def _unknown(base: str, key: str) -> bool:
    """Whether no node (or, for a relationship, no relationship: Heracles' have no properties)
    has the key, or a map the query writes does not (`WITH {a: 1} AS m RETURN m.b`)."""
    return base == "rel" or (base == "node" and key not in LAYOUT_KEYS) or (
        isinstance(base, WrittenMap) and key not in base.fields)


def null_unknown_keys(root: Tree) -> bool:
    """A key no label has, read from a node or relationship, as NULL (after the types are
    annotated); whether one was."""
    changed = False
    for parent in list(root.iter_subtrees()):
        for i, child in enumerate(parent.children):
            if not isinstance(child, Tree) \
                    or child.data not in ("prop", "index", "map_projection"):
                continue
            key = read_key(child)
            if key is not None and _unknown(_base_type(child.children[0]), key):
                parent.children[i] = _typed_null(key)
                changed = True
            elif child.data == "map_projection" and ctype(child.children[0]) in ("node", "rel"):
                base = ctype(child.children[0])
                for j, item in enumerate(child.children[1:], start=1):
                    if item.data == "proj_prop" and isinstance(item.children[0], Tree) \
                            and _unknown(base, plain_name(item.children[0])):
                        child.children[j] = tree("proj_key", item.children[0], _typed_null())
                        changed = True
    return changed
