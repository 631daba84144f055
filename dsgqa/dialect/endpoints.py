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

A relationship at a literal position of a named path (`relationships(p)[i]`, `head()` or
`last()` of it) lies between the path's nodes at the positions around it (`nodes(p)[i]` and
`nodes(p)[i + 1]`; `nodes(p)[i - 1]` and `nodes(p)[i]` for a negative i). Its start is the one
the path leaves it from: on a path matched in one direction, that side's node; else the one
whose id is its `_src`. Out of range (or of a NULL path) it is NULL, as the relationship is:

    startNode(relationships(p)[-1]).key  ->  CASE WHEN relationships(p)[-1] IS NULL THEN NULL
                                             ELSE nodes(p)[-2].key END            (`->` path)

Anything else (a relationship from another list, from a variable-length segment, from an
undirected path's computed position, or whose endpoints a WITH dropped) is a `DialectError`
naming the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lark import Token, Tree

from dsgqa.dialect.captures import positions_of
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import (
    binds,
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


def _endpoint_function(node: object) -> str | None:
    """'startnode' or 'endnode' for a call of either, else None."""
    if not (isinstance(node, Tree) and node.data == "call"):
        return None
    callee = node.children[0]
    if not (isinstance(callee, Tree) and callee.data == "var"):
        return None
    fname = plain_name(callee.children[0]).lower()
    return fname if fname in _KUZU else None


def _path_position(relationship: object) -> tuple[str, int] | None:
    """(path, literal position) of `relationships(p)[i]`, `head(relationships(p))` or
    `last(relationships(p))`, else None."""
    def path_of(node: object) -> str | None:
        if isinstance(node, Tree) and node.data == "call" and len(node.children) == 2 \
                and node.children[0].data == "var" \
                and plain_name(node.children[0].children[0]).lower() in ("relationships", "rels") \
                and isinstance(node.children[1], Tree) and node.children[1].data == "var":
            return plain_name(node.children[1].children[0])
        return None
    if not isinstance(relationship, Tree):
        return None
    if relationship.data == "index":
        path, position = path_of(relationship.children[0]), relationship.children[1]
        sign = 1
        if position.data == "unary" and str(position.children[0]) == "-":
            sign, position = -1, position.children[1]
        if path is None or position.data != "int_lit":
            return None
        return path, sign * int(str(position.children[0]))
    if relationship.data == "call" and len(relationship.children) == 2 \
            and relationship.children[0].data == "var":
        fname = plain_name(relationship.children[0].children[0]).lower()
        path = path_of(relationship.children[1])
        if path is not None and fname in ("head", "last"):
            return path, 0 if fname == "head" else -1
    return None


def _endpoint_call(node: object) -> tuple[str, str] | None:
    """('startnode' | 'endnode', relationship variable) for `startNode(r)`, else None (and for
    a relationship at a literal position of a path, `Endpoints._path_end`)."""
    fname = _endpoint_function(node)
    if fname is None:
        return None
    args = node.children[1:]  # type: ignore[union-attr]
    if len(args) == 1 and _path_position(args[0]) is not None:
        return None
    if len(args) != 1 or not (isinstance(args[0], Tree) and args[0].data == "var"):
        raise DialectError(f"{_NEO4J[fname]}() of anything but a relationship variable or one "
                           "at a literal position of a path")
    return fname, plain_name(args[0].children[0])


def _path_endpoint(node: object) -> tuple[str, Tree, str, int] | None:
    """(function, the relationship, path, position) of `startNode(relationships(p)[i])`."""
    fname = _endpoint_function(node)
    if fname is None or len(node.children) != 2:  # type: ignore[union-attr]
        return None
    relationship = node.children[1]  # type: ignore[union-attr]
    found = _path_position(relationship)
    return None if found is None else (fname, relationship, *found)


class Endpoints:
    """Rewrites startNode/endNode for one query, naming anonymous endpoints from `names`."""

    def __init__(self, names: FreshNames, note: Callable[[str], None]) -> None:
        self.names = names
        self.note = note
        self.rebound: set[str] = set()   # names the clause being read binds again

    def run(self, root: Tree) -> None:
        if not any(_endpoint_function(c) for c in root.iter_subtrees_topdown()):
            return
        for single in [s for s in root.iter_subtrees_topdown() if s.data == "single_query"]:
            self._single_query(single)

    def _single_query(self, single: Tree) -> None:
        bindings: dict[str, _Binding] = {}
        self.paths: dict[str, str] = {}   # path variable -> 'right' / 'left' (one direction)
        self.path_names: set[str] = set()   # every named path of a MATCH
        for clause in single.children:
            if not isinstance(clause, Tree):
                continue
            if clause.data == "match":
                self._bind(clause, bindings)
                self.paths.update(_directed_paths(clause))
                self.path_names |= _named_paths(clause)
            # names a comprehension, quantifier or reduce() binds again in this clause: an
            # endpoint written as such a name would read the lambda's value
            self.rebound = {n for sub in clause.iter_subtrees() for n in binds(sub)}
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
            if child.data == "prop" and _path_endpoint(child.children[0]):
                node.children[i] = self._path_end(child.children[0], key=child.children[1])
            elif _path_endpoint(child):
                node.children[i] = self._path_end(child, key=None,
                                                  whole_item=node.data == "proj_item")
            elif child.data == "compare" and (compared := self._compared(child, bindings)):
                node.children[i] = compared
            elif child.data == "prop" and _endpoint_call(child.children[0]):
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
        if self._shadowed(rel, binding):
            raise DialectError(f"{shown} beside a comprehension that binds the name of the "
                               "relationship or of one of its ends again")
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
        is_src, first, second = self._stored_ends(fname, rel, binding)
        pick: list[Tree] = [var(first), var(second)]
        if key is not None:
            pick = [tree("prop", p, key) for p in pick]
        self.note(UNDIRECTED)
        return null_when_null(relationship,
                              tree("case_expr", tree("case_when", is_src, pick[0]), pick[1]))

    def _stored_ends(self, fname: str, rel: str, binding: _Binding) -> tuple[Tree, str, str]:
        """For `startNode(rel)` / `endNode(rel)` of an undirected hop: the test that its left
        end is the stored start (`_src`), and the names of the end the call gives where that
        holds and where it does not (anonymous ends are named)."""
        x, y = (self._name(end) for end in binding.ends)
        first, second = (x, y) if fname == "startnode" else (y, x)
        is_src = tree("compare", call("id", var(x)), Token("EQ", "="),
                      call("struct_extract", var(rel), tree("str_lit", Token("STRING", "'_src'"))))
        return is_src, first, second

    def _shadowed(self, rel: str, binding: _Binding) -> bool:
        """Whether the clause binds the relationship's name, or a named end's, again."""
        ends = {plain_name(n) for n in (_node_name(end) for end in binding.ends)
                if n is not None}
        return bool(({rel} | ends) & self.rebound)

    def _compared(self, compare: Tree, bindings: dict[str, _Binding]) -> Tree | None:
        """`startNode(e) = x` or `<>` of a relationship an undirected hop binds: the comparison
        made with the end that is its stored start (a node-valued CASE in a comparison stops
        Kuzu), NULL where the relationship is; None for any other comparison."""
        if len(compare.children) != 3 or str(compare.children[1]) not in ("=", "<>"):
            return None
        for side in (0, 2):
            found = _endpoint_call(compare.children[side])
            if found is None:
                continue
            fname, rel = found
            binding = bindings.get(rel)
            other = compare.children[2 - side]
            if binding is None or binding.directed or not binding.alive \
                    or self._shadowed(rel, binding) or (
                    isinstance(other, Tree) and any(_endpoint_function(sub) is not None
                                                    for sub in other.iter_subtrees())):
                return None
            is_src, first, second = self._stored_ends(fname, rel, binding)
            compared = []
            for end in (first, second):
                node = var(end)
                node.ctype = "node"  # type: ignore[attr-defined]
                pair = [node, clone(other)] if side == 0 else [clone(other), node]
                compared.append(tree("compare", pair[0], compare.children[1], pair[1]))
            self.note(UNDIRECTED)
            return null_when_null(compare.children[side].children[1], tree("paren", tree(
                "case_expr", tree("case_when", is_src, compared[0]), compared[1])))
        return None

    def _path_end(self, endpoint_call: Tree, *, key: Tree | None,
                  whole_item: bool = False) -> Tree:
        """startNode/endNode of a relationship at a literal position of a named path."""
        found = _path_endpoint(endpoint_call)
        assert found is not None
        fname, relationship, path, position = found
        shown = f"{_NEO4J[fname]}(relationships({path})[{position}])"
        if path not in self.path_names:
            raise DialectError(f"{shown}: {path} is not a path a MATCH of this query names")
        if key is None and not whole_item:
            raise DialectError(f"{shown} other than as {shown}.property or a whole RETURN/WITH "
                               "item (it may be NULL)")
        before, after = (position, position + 1) if position >= 0 else (position - 1, position)

        def node_at(index: int) -> Tree:
            at = tree("index", call("nodes", var(path)), int_lit(index) if index >= 0 else
                      tree("unary", Token("ADD_OP", "-"), int_lit(-index)))
            return at if key is None else tree("prop", at, clone(key))
        direction = self.paths.get(path)
        if direction is not None:
            starts_before = direction == "right"
            value = node_at(before if starts_before == (fname == "startnode") else after)
        else:
            if key is None:
                raise DialectError(f"{shown} of a path matched in both directions other than "
                                   f"as {shown}.property")
            leaves = tree("compare", call("id", tree("index", call("nodes", var(path)),
                                                    int_lit(before) if before >= 0 else tree(
                                                        "unary", Token("ADD_OP", "-"),
                                                        int_lit(-before)))),
                          Token("EQ", "="), call("struct_extract", clone(relationship),
                                                 tree("str_lit", Token("STRING", "'_src'"))))
            first, second = (before, after) if fname == "startnode" else (after, before)
            value = tree("case_expr", tree("case_when", leaves, node_at(first)),
                         node_at(second))
        self.note(PATH_POSITIONS)
        return null_when_null(relationship, value, always=True)

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


def _named_paths(match: Tree) -> set[str]:
    return {plain_name(pattern.children[0])
            for pattern in child_of(match, "pattern_list").children
            if len(pattern.children) == 3}


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
