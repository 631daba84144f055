"""A comprehension's, quantifier's or reduce's own variable named like another variable.

Neo4j declares the variable of `[x IN list | ..]`, `all(x IN list WHERE ..)` and `reduce(acc =
init, x IN list | ..)` in a scope of its own (`withScopedState`), so it may shadow a variable of
the query, or of an enclosing comprehension:

    MATCH (n:Room) WITH collect(n) AS objs, 2 AS n RETURN reduce(n = 0.0, o IN objs | n + 1) / n
    MATCH p = (a)-[r:ROOM_CONNECTED*1..2]->(b) RETURN [r IN relationships(p) | type(r)]

Kuzu 0.11.3 and Ladybug 0.22.0 refuse a lambda parameter named like a variable in scope, in
any case ("Variable n already exists"), and the variable-length relationship `r` is read as a
list (`hop_lists`), its shadow too. So such a variable gets a fresh name, everywhere it is read
in its own scope (not in the list it runs over, nor in reduce's initial value, which see the outer
one; not inside a comprehension below that binds the name again). Where the scope holds a
subquery, a pattern or a map projection naming it, which this pass does not walk, the variable
keeps its name (and the engines refuse the query as before).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import BINDERS, declared_names, function_name, var
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "comprehension variable named like another->fresh name"
# Trees whose names this pass does not rename: a scope holding one that names the variable
# keeps its name.
_OPAQUE = frozenset({"subquery", "pattern_predicate", "map_projection"})


Scope = list[tuple[Tree, int]]   # (parent, index of a child the variable is in scope in)


def _binding(node: Tree) -> tuple[Tree, Scope] | None:
    """The `var` a binder declares and where it is in scope, or None for no binder: a
    comprehension's or quantifier's `x` (all but its `x IN list`), reduce's element variable and
    its accumulator (both in its step only: not the initial value, nor the list)."""
    if node.data in BINDERS and node.children and isinstance(node.children[0], Tree) \
            and node.children[0].data == "in_" and isinstance(node.children[0].children[0], Tree) \
            and node.children[0].children[0].data == "var":
        return node.children[0].children[0], [(node, i) for i in range(1, len(node.children))]
    if node.data == "call" and isinstance(node.children[0], Tree) \
            and function_name(node.children[0]).lower() == "reduce" and len(node.children) == 3:
        init, step = node.children[1], node.children[2]
        if isinstance(init, Tree) and init.data == "compare" and init.children[0].data == "var" \
                and isinstance(step, Tree) and step.data == "pipe_arg":
            return init.children[0], [(step, i) for i in range(1, len(step.children))]
    return None


def _named(node: object, variable: str) -> bool:
    """Whether a name `variable` occurs anywhere under `node` (a read, a pattern's node, ...)."""
    return isinstance(node, Tree) and any(
        isinstance(t, Token) and t.type in ("NAME", "QUOTED_NAME") and plain_name(t) == variable
        for t in node.scan_values(lambda v: isinstance(v, Token)))


def _renamable(node: object, variable: str) -> bool:
    """Whether every use of `variable` under `node` is one `_rename` rewrites."""
    if not isinstance(node, Tree):
        return True
    if node.data in _OPAQUE or (node.data in ("list_comp", "list_comp_map")
                                and node.children[0].data == "pattern_predicate"):
        return not _named(node, variable)
    return all(_renamable(child, variable) for child in node.children)


def _rename(node: object, old: str, new: str, blocked: frozenset[int]) -> object:
    """`node` with each read of `old` read as `new` (in place below), except in `blocked`
    subtrees and where a comprehension below binds `old` again."""
    if not isinstance(node, Tree) or id(node) in blocked:
        return node
    if node.data == "var":
        return var(new) if plain_name(node.children[0]) == old else node
    binding = _binding(node)
    if binding is not None and plain_name(binding[0].children[0]) == old:
        # rebound here: only the list it runs over (and reduce's initial value) see ours
        blocked = blocked | {id(binding[0])} | {id(p.children[i]) for p, i in binding[1]}
    start = 1 if node.data in ("call", "call_star", "call_distinct") else 0   # the callee
    for i in range(start, len(node.children)):
        node.children[i] = _rename(node.children[i], old, new, blocked)
    return node


def fresh_lambda_names(root: Tree, names: FreshNames) -> bool:
    """Rename in place (see the module); whether anything changed."""
    return _walk(root, {n.lower() for n in declared_names(root)}, frozenset(), names)


def _walk(node: Tree, outer: set[str], enclosing: frozenset[str], names: FreshNames) -> bool:
    """Rename each binder's variable named like one of the query (`outer`) or of an enclosing
    binder, outermost first; in any case, as the engines' binders compare names."""
    changed = False
    binding = _binding(node)
    if binding is not None:
        declared, scope = binding
        old = plain_name(declared.children[0])
        if (old.lower() in outer or old.lower() in enclosing) \
                and all(_renamable(parent.children[i], old) for parent, i in scope):
            new = names.fresh("_each")
            declared.children[0] = var(new).children[0]
            for parent, i in scope:
                parent.children[i] = _rename(parent.children[i], old, new, frozenset())
            changed, old = True, new
        enclosing = enclosing | {old.lower()}
    for child in node.children:
        if isinstance(child, Tree):
            changed |= _walk(child, outer, enclosing, names)
    return changed
