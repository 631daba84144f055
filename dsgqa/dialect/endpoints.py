"""`startNode(r)` / `endNode(r)`: the relationship's stored start and end, as in Neo4j.

Kuzu's `start_node(r)` is bound to the pattern's left node, so on an undirected match
`(x)-[r]-(y)` it gives the traversal's start, not the stored one (Heracles stores every same-layer
edge both ways, so the two differ on every other row). The stored start is visible as the
relationship's internal `_src` id: `struct_extract(r, '_src')`. So, for a relationship bound by
an undirected single hop whose endpoint variables are still in scope:

    startNode(r).key  ->  CASE WHEN id(x) = struct_extract(r, '_src') THEN x.key ELSE y.key END
    startNode(r)      ->  CASE WHEN id(x) = struct_extract(r, '_src') THEN x ELSE y END
                          (only as a whole RETURN/WITH item: Kuzu 0.11.3 crashes on a node-valued
                          CASE inside label() or a comparison)

and `endNode` the other way round. On a directed single hop Kuzu's `start_node`/`end_node` are
already right.

A relationship a comprehension or quantifier takes from `relationships(p)` of a path matched in
one direction (every hop `->`, or every hop `<-`, shortestPath too) was traversed as stored, so
its ends are the path's nodes around it. The lambda walks the positions instead:

    [r IN relationships(p) | startNode(r).key]  ->
        [_e IN range(0, size(relationships(p)) - 1) | nodes(p)[_e].key]      (`->`; `<-`: _e + 1)

Anything else (a relationship from another list, from a variable-length segment, from an
undirected path, or whose endpoints a WITH dropped) is a `DialectError` naming the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lark import Token, Tree

from dsgqa.dialect.captures import positions_of
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import (
    call,
    child_of,
    clone,
    hops,
    int_lit,
    name,
    null_when_null,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

DIRECTED = "startNode->start_node"
UNDIRECTED = "startNode->CASE on _src"
PATH_POSITIONS = "startNode over relationships(p)->the path's nodes by position"
_KUZU = {"startnode": "start_node", "endnode": "end_node"}
_NEO4J = {"startnode": "startNode", "endnode": "endNode"}


@dataclass
class _Binding:
    directed: bool
    ends: tuple[Tree, Tree]  # node_pattern trees (left, right)
    alive: bool = True  # both endpoints still in scope


def _node_name(node: Tree) -> Tree | None:
    return next((c for c in node.children if isinstance(c, Tree) and c.data == "name"), None)


def _endpoint_call(node: object) -> tuple[str, str] | None:
    """('startnode' | 'endnode', relationship variable) for `startNode(r)`, else None."""
    if not (isinstance(node, Tree) and node.data == "call"):
        return None
    callee, *args = node.children
    if not (isinstance(callee, Tree) and callee.data == "var"):
        return None
    fname = plain_name(callee.children[0]).lower()
    if fname not in _KUZU:
        return None
    if len(args) != 1 or not (isinstance(args[0], Tree) and args[0].data == "var"):
        raise DialectError(f"{_NEO4J[fname]}() of anything but a relationship variable")
    return fname, plain_name(args[0].children[0])


class Endpoints:
    """Rewrites startNode/endNode for one query, naming anonymous endpoints from `names`."""

    def __init__(self, names: FreshNames, note: Callable[[str], None]) -> None:
        self.names = names
        self.note = note

    def run(self, root: Tree) -> None:
        if not any(_endpoint_call(c) for c in root.iter_subtrees_topdown()):
            return
        for single in [s for s in root.iter_subtrees_topdown() if s.data == "single_query"]:
            self._single_query(single)

    def _single_query(self, single: Tree) -> None:
        bindings: dict[str, _Binding] = {}
        self.paths: dict[str, str] = {}   # path variable -> 'right' / 'left' (one direction)
        for clause in single.children:
            if not isinstance(clause, Tree):
                continue
            if clause.data == "match":
                self._bind(clause, bindings)
                self.paths.update(_directed_paths(clause))
            self._rewrite_in(clause, bindings)
            if clause.data == "with_clause":
                _after_with(clause, bindings, self.names.generated)

    @staticmethod
    def _bind(match: Tree, bindings: dict[str, _Binding]) -> None:
        pattern_list = next(c for c in match.children
                            if isinstance(c, Tree) and c.data == "pattern_list")
        for left, rel, right, parts in hops(pattern_list):
            if "name" not in parts or "var_length" in parts:
                continue
            bindings[plain_name(parts["name"])] = _Binding(
                directed=rel.data in ("rel_left", "rel_right"), ends=(left, right))

    def _rewrite_in(self, node: Tree, bindings: dict[str, _Binding]) -> None:
        for i, child in enumerate(node.children):
            if not isinstance(child, Tree) or child.data == "subquery":
                continue
            walked = self._walk_path_relationships(child)
            if walked is not None:
                node.children[i] = child = walked
            if child.data == "prop" and _endpoint_call(child.children[0]):
                node.children[i] = self._replace(child.children[0], bindings,
                                                 key=child.children[1])
            elif _endpoint_call(child):
                node.children[i] = self._replace(child, bindings, key=None,
                                                 whole_item=node.data == "proj_item")
            else:
                self._rewrite_in(child, bindings)

    def _replace(self, endpoint_call: Tree, bindings: dict[str, _Binding], *,
                 key: Tree | None, whole_item: bool = False) -> Tree:
        found = _endpoint_call(endpoint_call)
        assert found is not None
        fname, rel = found
        shown = f"{_NEO4J[fname]}({rel})"
        binding = bindings.get(rel)
        if binding is None:
            raise DialectError(f"{shown}: {rel} is not a relationship bound by a single "
                               "hop in scope, so its stored direction is unknown on Kuzu")
        relationship = endpoint_call.children[1]
        may_be_null = getattr(relationship, "nullable", True)
        if key is None and may_be_null and not whole_item:
            raise DialectError(f"{shown} of a relationship an OPTIONAL MATCH may leave NULL, "
                               f"other than as {shown}.property or a whole RETURN/WITH item")
        if binding.directed:
            self.note(DIRECTED)
            kuzu = call(_KUZU[fname], var(rel))
            # The engines give an unmatched relationship's start node (`start_node` of NULL is
            # the row's other end); a property read is guarded, not the node (Kuzu reads a
            # property of a NULL node a CASE gives as another value).
            value = kuzu if key is None else tree("prop", kuzu, key)
            return null_when_null(relationship, value)
        if not binding.alive:
            raise DialectError(f"{shown} of an undirected match after a WITH that "
                               "dropped its endpoints: the stored direction is unknown on Kuzu")
        if key is None and not whole_item:
            raise DialectError(f"{shown} of an undirected match other than as "
                               f"{shown}.property or a whole RETURN/WITH item")
        x, y = (self._name(end) for end in binding.ends)
        first, second = (x, y) if fname == "startnode" else (y, x)
        is_src = tree("compare", call("id", var(x)), Token("EQ", "="),
                      call("struct_extract", var(rel), tree("str_lit", Token("STRING", "'_src'"))))
        pick: list[Tree] = [var(first), var(second)]
        if key is not None:
            pick = [tree("prop", p, key) for p in pick]
        self.note(UNDIRECTED)
        return null_when_null(relationship,
                              tree("case_expr", tree("case_when", is_src, pick[0]), pick[1]))

    def _walk_path_relationships(self, lam: Tree) -> Tree | None:
        """`[r IN relationships(p) ...]` (or a quantifier) whose body asks for r's ends, over the
        positions of a path matched in one direction; None for any other tree."""
        binding = lam.children[0] if lam.data in ("list_comp", "list_comp_map") else (
            lam.children[1].children[0] if lam.data == "call" and len(lam.children) == 2
            and isinstance(lam.children[1], Tree) and lam.children[1].data == "where_arg"
            else None)
        if not (isinstance(binding, Tree) and binding.data == "in_"
                and binding.children[0].data == "var"):
            return None
        source = binding.children[1]
        if not (isinstance(source, Tree) and source.data == "call"
                and plain_name(source.children[0].children[0]).lower()
                in ("relationships", "rels") and len(source.children) == 2
                and source.children[1].data == "var"):
            return None
        rel = plain_name(binding.children[0].children[0])
        bodies = lam.children[1:] if lam.data != "call" else lam.children[1].children[1:]
        asked = any(found[1] == rel for body in bodies if isinstance(body, Tree)
                    for found in map(_endpoint_call, body.iter_subtrees()) if found)
        direction = self.paths.get(plain_name(source.children[1].children[0]))
        if not asked or direction is None:
            return None
        self.note(PATH_POSITIONS)
        path = source.children[1]
        position = self.names.fresh("_e")
        binding.children = [var(position), positions_of(source)]
        here = var(position)
        after = tree("arith", var(position), Token("ADD_OP", "+"), int_lit(1))
        start, end = (here, after) if direction == "right" else (after, here)
        ends = {"startnode": start, "endnode": end}

        def positional(node: object) -> object:
            if not isinstance(node, Tree):
                return node
            found = _endpoint_call(node)
            if found is not None and found[1] == rel:
                return tree("index", call("nodes", clone(path)), clone(ends[found[0]]))
            if node.data == "var" and plain_name(node.children[0]) == rel:
                return tree("index", clone(source), var(position))
            node.children = [positional(c) for c in node.children]
            return node

        holder = lam if lam.data != "call" else lam.children[1]
        holder.children[1:] = [positional(c) for c in holder.children[1:]]
        return lam

    def _name(self, node: Tree) -> Tree:
        found = _node_name(node)
        if found is None:
            found = name(self.names.fresh("_node"))
            node.children.insert(0, found)
        return found


def _directed_paths(match: Tree) -> dict[str, str]:
    """path name -> 'right' or 'left', for a MATCH's named paths whose every hop has that
    direction (shortestPath's included)."""
    found = {}
    for pattern in child_of(match, "pattern_list").children:
        if len(pattern.children) != 3:
            continue
        chain = pattern.children[-1]
        if isinstance(chain, Tree) and chain.data == "path_function":
            chain = chain.children[1]
        if not (isinstance(chain, Tree) and chain.data == "chain"):
            continue
        kinds = {item.data for item in chain.children if item.data.startswith("rel_")}
        if kinds in ({"rel_right"}, {"rel_left"}):
            found[plain_name(pattern.children[0])] = "right" if kinds == {"rel_right"} else "left"
    return found


def _after_with(clause: Tree, bindings: dict[str, _Binding], generated: set[str]) -> None:
    """Which bindings survive a WITH: the relationship and (for undirected ones) both endpoint
    variables must pass through under their own names; anonymous endpoints never do (a star is
    spelled out without generated names)."""
    items = child_of(clause.children[0], "proj_items")
    star = bool(items.children) and isinstance(items.children[0], Token)
    kept: set[str] = set()
    for item in items.children:
        if not isinstance(item, Tree):
            continue
        expr = item.children[0]
        if expr.data == "var" and (len(item.children) == 1 or plain_name(
                item.children[1]) == plain_name(expr.children[0])):
            kept.add(plain_name(expr.children[0]))
    for rel in list(bindings):
        binding = bindings[rel]
        if not star and rel not in kept:
            del bindings[rel]
            continue
        names = [_node_name(end) for end in binding.ends]
        dropped = not star and any(plain_name(n) not in kept for n in names if n is not None)
        if dropped or any(n is None or plain_name(n).lower() in generated for n in names):
            binding.alive = False
