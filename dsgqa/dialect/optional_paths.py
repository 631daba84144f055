"""A path an OPTIONAL MATCH did not find is NULL, as in Neo4j.

On Kuzu 0.11.3 and Ladybug 0.22.0 the path variable of an OPTIONAL MATCH that found nothing is
not NULL: `p IS NULL` is false, `length(p)` of a one-hop pattern is 1 and `nodes(p)` holds the
bound end and a NULL (measured: `MATCH (r:Room) OPTIONAL MATCH p = (r)-[:CONTAINS]->(m) WHERE
m.nodeSymbol = 'P2' RETURN length(p)` is 1 for every room; Neo4j: NULL but for the one room).
The pattern's relationship variable is NULL there, so after such a MATCH every function of the
path (`length(p)`, `nodes(p)`, ...) becomes

    CASE WHEN _w1 IS NULL THEN NULL ELSE length(p) END

with `_w1` the pattern's first relationship (named if it was anonymous), and so does any other
use of `p` itself (the engines cannot pass a path through a CASE into a path function, hence the
CASE around the call). An aggregate of the path (`count(p)`, `collect(p)`) takes the CASE as its
argument, `count(CASE WHEN _w1 IS NULL THEN NULL ELSE p END)`: a CASE around the aggregate would
read `_w1` of no row beside it, which both engines refuse ("Cannot evaluate expression with
type PATTERN"), and NULL is what the aggregate skips, as Neo4j's does. A WITH that carries the
path carries `_w1` beside it (a function of the path, so grouping does not change).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import is_aggregate_call
from dsgqa.dialect.trees import (
    child_of,
    column_name,
    is_optional,
    item_name,
    mentions,
    name,
    rel_detail,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "OPTIONAL MATCH path->NULL when unmatched"
# Subtrees that are patterns, not expressions: a path name there is a binding, not a use.
_PATTERNS = frozenset({"pattern_list", "node_pattern", "rel_detail", "chain"})


def _witness(chain: Tree, names: FreshNames) -> str | None:
    """The name of the chain's first relationship, named now if it had none."""
    rels = [c for c in chain.children if isinstance(c, Tree) and c.data.startswith("rel_")]
    if not rels:
        return None
    detail = rel_detail(rels[0])
    if detail is None:
        detail = tree("rel_detail")
        rels[0].children.insert(1, detail)
    named = [c for c in detail.children if c.data == "name"]
    if named:
        return plain_name(named[0])
    fresh = names.fresh("_w")
    detail.children.insert(0, name(fresh))
    return fresh


def _replace_outside(clause: Tree, carried: dict[str, str], paths: dict[str, str]) -> bool:
    """`_replace` on the clause, leaving alone the bare items of a WITH that carries a path."""
    if not carried:
        return _replace(clause, paths)
    changed = False
    projection = clause.children[0]
    for part in clause.children[1:]:
        if isinstance(part, Tree):
            changed |= _replace(tree("holder", part), paths)
    for part in projection.children:
        if not isinstance(part, Tree):
            continue
        if part.data != "proj_items":
            changed |= _replace(tree("holder", part), paths)
            continue
        for item in part.children:
            bare = isinstance(item, Tree) and len(item.children) == 1 \
                and item.children[0].data == "var" \
                and plain_name(item.children[0].children[0]) in carried
            if isinstance(item, Tree) and not bare:
                changed |= _replace(item, paths)
    return changed


def _path_argument(node: Tree, paths: dict[str, str]) -> str | None:
    """The path a function call takes as a direct argument, if any (an aggregate's is guarded
    inside it, see the module)."""
    if node.data != "call" or is_aggregate_call(node):
        return None
    for arg in node.children[1:]:
        if isinstance(arg, Tree) and arg.data == "var" and plain_name(arg.children[0]) in paths:
            return plain_name(arg.children[0])
    return None


def _guard(node: Tree, witness: str) -> Tree:
    return tree("case_expr", tree("case_when", tree("is_null", var(witness)),
                                  tree("null_lit")), node)


def _replace(node: Tree, paths: dict[str, str]) -> bool:
    changed = False
    for i, child in enumerate(node.children):
        if not isinstance(child, Tree) or child.data in _PATTERNS:
            continue
        path = _path_argument(child, paths)
        if path is not None:
            node.children[i] = _guard(child, paths[path])
            changed = True
        elif child.data == "var" and plain_name(child.children[0]) in paths:
            node.children[i] = _guard(child, paths[plain_name(child.children[0])])
            changed = True
        else:
            changed |= _replace(child, paths)
    return changed


def _carry(clause: Tree, paths: dict[str, str]) -> dict[str, str]:
    """A WITH's bare path items stay paths and take their witness along; the paths carried.
    A `WITH *` carries every path, and their witnesses with them."""
    items = child_of(clause.children[0], "proj_items")
    if items.children and isinstance(items.children[0], Token):
        return dict(paths)
    carried: dict[str, str] = {}
    passed = {item_name(item) for item in items.children if isinstance(item, Tree)}
    for item in list(items.children):
        if isinstance(item, Tree) and len(item.children) == 1 \
                and item.children[0].data == "var" \
                and plain_name(item.children[0].children[0]) in paths:
            path = plain_name(item.children[0].children[0])
            carried[path] = paths[path]
            if paths[path] not in passed:   # a WITH that passes the witness by name already
                items.children.append(tree("proj_item", var(paths[path]), name(paths[path])))
                passed.add(paths[path])
    return carried


def _keep_column_names(clause: Tree, paths: dict[str, str]) -> None:
    """Unaliased items that use a path keep their column name once the path becomes a CASE:
    `WITH p` stays `p`, and a RETURN item its text, as Neo4j names the column."""
    items = child_of(clause.children[0], "proj_items")
    for item in items.children:
        if not (isinstance(item, Tree) and len(item.children) == 1
                and mentions(item.children[0], paths)):
            continue
        if item.children[0].data == "var":
            item.children.append(name(plain_name(item.children[0].children[0])))
            continue
        original = getattr(item, "original_text", None)
        if original is not None:
            item.children.append(column_name(original))


def _refuse_path_read_in_own_where(match: Tree, path: str) -> None:
    """Both engines find no match for an OPTIONAL MATCH whose WHERE reads its own path's
    nodes or relationships once an earlier clause bound its start (`MATCH (a)--(b) OPTIONAL
    MATCH p = (b)-->(c) WHERE type(relationships(p)[0]) <> 'X'` kept no c; Ladybug, fuzz seed
    2727; Kuzu crashes). `length(p)` reads right there."""
    where = child_of(match, "where")
    if where is None:
        return

    def reads_path(node: object) -> bool:
        if not isinstance(node, Tree):
            return False
        if node.data == "call" and isinstance(node.children[0], Tree) \
                and node.children[0].data == "var" \
                and plain_name(node.children[0].children[0]).lower() == "length":
            return False
        if node.data == "var" and plain_name(node.children[0]) == path:
            return True
        return any(reads_path(child) for child in node.children)
    if reads_path(where.children[0]):
        raise DialectError("a path's nodes or relationships read in the WHERE of the OPTIONAL "
                           "MATCH that binds it (the engines find no match there)")


def refuse_outer_label_tests(root: Tree) -> None:
    """A label test of a node bound before an OPTIONAL MATCH, in that MATCH's WHERE: both
    engines kept one match of four and NULL for the others on a small graph (`WITH DISTINCT n4
    OPTIONAL MATCH (n4)-->(n7) WHERE n4:Object`; fuzz seed 5656), while a property test there
    was right. Refused until it is understood; the label belongs in the pattern anyway."""
    for match in root.find_data("match"):
        where = child_of(match, "where")
        before = getattr(match, "scope_before", None)
        if not is_optional(match) or not before:
            continue
        for node in match.find_data("node_pattern"):
            # `OPTIONAL MATCH (n:Room)` of a bound n: Ladybug dropped the row where n is no
            # room (Neo4j keeps it, n bound as before)
            if node.children and isinstance(node.children[0], Tree) \
                    and node.children[0].data == "name" and child_of(node, "node_labels") \
                    and plain_name(node.children[0]) in before:
                raise DialectError("a label on a node bound before an OPTIONAL MATCH, in its "
                                   "pattern (Ladybug drops the row where the label fails)")
        if where is None:
            continue
        for test in where.find_data("has_label"):
            subject = test.children[0]
            if isinstance(subject, Tree) and subject.data == "var" \
                    and plain_name(subject.children[0]) in before:
                raise DialectError("a label test of a node bound before an OPTIONAL MATCH, in "
                                   "its WHERE (the engines lose matches there)")


def null_unmatched_paths(single_query: Tree, names: FreshNames) -> bool:
    """Rewrite the uses of optional paths in place; True when the query changed."""
    active: dict[str, str] = {}
    changed = False
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        if active:
            carried = _carry(clause, active) if clause.data == "with_clause" else {}
            if clause.data in ("with_clause", "return_clause"):
                _keep_column_names(clause, {p: w for p, w in active.items() if p not in carried})
            changed |= _replace_outside(clause, carried, active)
            if clause.data == "with_clause":
                active = carried
        if clause.data == "match" and is_optional(clause):
            patterns = next(c for c in clause.children
                            if isinstance(c, Tree) and c.data == "pattern_list")
            for pattern in patterns.children:
                if len(pattern.children) != 3:
                    continue
                _refuse_path_read_in_own_where(clause, plain_name(pattern.children[0]))
                witness = _witness(pattern.children[-1], names)
                if witness is not None:
                    active[plain_name(pattern.children[0])] = witness
    return changed
