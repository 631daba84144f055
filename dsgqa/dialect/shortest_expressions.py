"""`shortestPath(..)` as an expression: an OPTIONAL MATCH of the path before its clause.

Neo4j 5 takes `shortestPath((a)-[*]-(b))` and `allShortestPaths(..)` as expressions where both
ends are bound variables (`SemanticPatternCheck.checkKnownEnds` rejects only an unnamed end: "A
shortestPath(...) requires bound nodes when not part of a MATCH clause."), as in `RETURN
length(shortestPath((a)-[*]-(b)))`. It is no pattern expression (the 5.0 rule that limits those
to tests of existence), and its value per row (`commands.expressions.ShortestPathExpression`) is
the shortest path, or NULL where there is none or an end is NULL; one node at both ends raises
Neo4j's same-node error (`disallowSameNode`, `shortest_ends.py`) unless the pattern may have
length 0. The engines have no such expression, so the path becomes a variable:

    MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R4'})
    RETURN length(shortestPath((a)-[:ROOM_CONNECTED*]-(b))) AS hops
    -> MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room {nodeSymbol: 'R4'})
       OPTIONAL MATCH _sp1 = shortestPath((a)-[:ROOM_CONNECTED*]-(b))
       RETURN length(_sp1) AS hops

An OPTIONAL MATCH of a shortest path between two bound nodes keeps each row once, with the path
or NULL, and `shortest_ends.py` puts the same-node check before it. A WITH or RETURN item that is
the path itself under a new name names the path (`WITH shortestPath(..) AS p` ->
`OPTIONAL MATCH p = .. WITH p`), so later path functions read a path variable.

`allShortestPaths(..)` is a list of paths, which no clause of the engines makes per row without
grouping the rows; its size is a count of the paths, `size(allShortestPaths((a)-[*]-(b)))` ->
`CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE COUNT { MATCH _sp1 = allShortestPaths(..) }
END` after the same check (size() of the NULL list where an end is NULL).

Neo4j evaluates the expression on every row of a WITH or RETURN item, an UNWIND list, or the
list a comprehension walks; in a CASE branch, an AND/OR operand, a coalesce() argument, what a
lambda evaluates per element, or an item a SKIP / LIMIT may leave unprojected, it may not, so a
row with one node at both ends is refused there (`dialect`) rather than raised. Elsewhere (a
WHERE, an ORDER BY, a subquery), and `allShortestPaths(..)` other than in size(), it is
refused.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.order_barrier import groups
from dsgqa.dialect.shortest_ends import SAME_ENDS, from_zero
from dsgqa.dialect.trees import (
    BINDERS,
    binds,
    call,
    child_of,
    clone,
    column_name,
    function_name,
    item_name,
    name,
    scope_after,
    star_with,
    tree,
    union_parts,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "shortestPath() expression->OPTIONAL MATCH"
_FUNCTIONS = {"shortestpath": "shortestPath", "allshortestpaths": "allShortestPaths"}
# Trees whose operands Neo4j may leave unevaluated on a row (short-circuit, a branch).
_LAZY = frozenset({"case_expr", "case_when", "and_", "or_", "xor_", "subquery"})
_LAZY_CALLS = frozenset({"coalesce", "reduce"})
# A row with one node at both ends that Neo4j may not evaluate the expression on.
_MAYBE_UNEVALUATED = ("a shortestPath() expression Neo4j may leave unevaluated on a row whose "
                      "two ends are one node")


def _shortest_call(node: object) -> str | None:
    """Neo4j's name of the function a `shortestPath(..)` expression calls; None for another
    tree."""
    if isinstance(node, Tree) and node.data == "call" and isinstance(node.children[0], Tree):
        return _FUNCTIONS.get(function_name(node.children[0]).lower())
    return None


def _strict_child(node: Tree, at: int) -> bool:
    """Whether Neo4j evaluates `node`'s child `at` on every row it evaluates `node` on."""
    if node.data in _LAZY:
        return False
    if node.data == "call":
        return function_name(node.children[0]).lower() not in _LAZY_CALLS
    if node.data in BINDERS:   # the list a comprehension or quantifier walks, not its body
        return at == 0
    return True


def _counted(node: Tree) -> bool:
    """Whether `node` is `size(allShortestPaths(..))`."""
    return node.data == "call" and function_name(node.children[0]).lower() == "size" \
        and len(node.children) == 2 and _shortest_call(node.children[1]) == "allShortestPaths"


def _find(node: Tree, strict: bool, found: list[tuple[Tree, Tree, bool]],
          parent: Tree | None = None) -> None:
    """Collect (parent, expression, evaluated on every row) for each expression below `node`
    (`size(allShortestPaths(..))` as one)."""
    if parent is not None and (_shortest_call(node) is not None or _counted(node)):
        found.append((parent, node, strict))
        return
    if node.data in BINDERS and any(
            _shortest_call(sub) is not None and _end_names(sub) & binds(node)
            for sub in node.iter_subtrees()):
        # an end is the comprehension's own variable, bound per element
        raise DialectError("shortestPath() / allShortestPaths() as an expression inside a "
                           "comprehension, quantifier or reduce(), from its own variable")
    for at, child in enumerate(node.children):
        if isinstance(child, Tree):
            _find(child, strict and _strict_child(node, at), found, node)


def _end_names(call: Tree) -> set[str]:
    """The variables a shortest-path expression's pattern names."""
    return {plain_name(sub.children[0]) for sub in call.iter_subtrees() if sub.data == "var"}


def _expressions(clause: Tree) -> list[tuple[Tree, Tree, bool]]:
    """The expressions a WITH's or RETURN's items or an UNWIND's list hold."""
    found: list[tuple[Tree, Tree, bool]] = []
    if clause.data in ("with_clause", "return_clause"):
        projection = clause.children[0]
        # SKIP / LIMIT: Neo4j may project an item after it cuts the rows (unless the
        # projection makes rows of its own, from every row before it).
        cut = (child_of(projection, "skip") or child_of(projection, "limit")) is not None \
            and not groups(projection)
        for item in child_of(projection, "proj_items").children:
            if isinstance(item, Tree):
                _find(item, not cut, found)
    elif clause.data == "unwind":
        _find(tree("holder", clause.children[0]), True, found)
    return found


def _end(atom: object, fname: str, scope: set[str], checked: bool) -> str:
    """The variable an end of the pattern names; Neo4j's errors for an unnamed or unbound
    one (`checked`: `scope` is known to hold every bound name)."""
    if isinstance(atom, Tree) and atom.data == "paren" and len(atom.children) == 1 \
            and isinstance(atom.children[0], Tree) and atom.children[0].data == "var":
        end = plain_name(atom.children[0].children[0])
        if end in scope:
            return end
        if checked:
            raise CypherSyntaxError(f"Variable `{end}` not defined")
        raise DialectError(f"{fname}() as an expression from {end}, which a clause this "
                           "translation does not read may bind")
    if isinstance(atom, Tree) and atom.data in ("anon_node", "empty_node"):
        raise CypherSyntaxError(f"A {fname}(...) requires bound nodes when not part of a MATCH "
                                "clause.")
    raise DialectError(f"{fname}() as an expression with labels or properties on an end")


def _chain(call: Tree, fname: str, scope: set[str], checked: bool) -> Tree:
    """The pattern of the expression as a MATCH's chain (its ends bound variables)."""
    pattern = call.children[1] if len(call.children) == 2 else None
    if not (isinstance(pattern, Tree) and pattern.data == "pattern_predicate"):
        raise CypherSyntaxError(f"{fname}(...) requires a pattern containing a single "
                                "relationship")
    tail = child_of(pattern, "pattern_tail")
    rel = pattern.children[1]
    detail = child_of(rel, "rel_detail")
    named = child_of(detail, "name") if detail is not None else None
    if named is not None:   # the expression binds no variable (Neo4j's semantic analysis)
        raise CypherSyntaxError(f"Variable `{plain_name(named)}` not defined")
    first = _end(pattern.children[0], fname, scope, checked)
    second = _end(tail.children[0] if tail is not None else None, fname, scope, checked)
    return tree("chain", tree("node_pattern", name(first)), clone(rel),
                tree("node_pattern", name(second)))


def _hoist(clause: Tree, scope: set[str], checked: bool, names: FreshNames) -> list[Tree]:
    """The clauses that bind the clause's expressions, which become their values in place."""
    added = []
    for parent, found, strict in _expressions(clause):
        if _counted(found):
            added += _count_paths(parent, found, strict, scope, checked, names)
            continue
        fname = _shortest_call(found)
        if fname != "shortestPath":
            raise DialectError(f"{fname}() as an expression other than in size() (a list of "
                               "paths)")
        chain = _chain(found, fname, scope, checked)
        alias = item_name(parent) if parent.data == "proj_item" and len(parent.children) == 2 \
            else None
        path = alias if alias is not None and alias not in scope else names.fresh("_sp")
        if path == alias:   # `shortestPath(..) AS p`: the path is p
            parent.children = [var(path)]
        else:
            _replace(parent, found, var(path))
        match = tree("match", Token("OPTIONAL", "OPTIONAL"), _path_pattern(path, fname, chain))
        if not strict:
            match.shortest_refusal = _MAYBE_UNEVALUATED   # read by `shortest_ends.py`
        added.append(match)
    return added


def _path_pattern(path: str, fname: str, chain: Tree) -> Tree:
    return tree("pattern_list", tree("pattern", name(path), Token("EQ", "="),
                                     tree("path_function", name(fname), chain)))


def _replace(parent: Tree, found: Tree, value: Tree) -> None:
    """`found` below `parent` becomes `value`; an unaliased RETURN item keeps its text as its
    column's name."""
    parent.children = [value if child is found else child for child in parent.children]
    if parent.data == "proj_item" and len(parent.children) == 1 \
            and getattr(parent, "original_text", None) is not None:
        parent.children.append(column_name(parent.original_text))


def _count_paths(parent: Tree, counted: Tree, strict: bool, scope: set[str], checked: bool,
                 names: FreshNames) -> list[Tree]:
    """`size(allShortestPaths(..))` -> a COUNT of the paths, after the same-node check (see
    the module)."""
    chain = _chain(counted.children[1], "allShortestPaths", scope, checked)
    if from_zero(chain):
        raise DialectError("size(allShortestPaths()) of a pattern from 0 hops")
    first, second = (plain_name(chain.children[i].children[0]) for i in (0, -1))
    if first == second:
        raise CypherSyntaxError(f"{SAME_ENDS} (one variable, {first}, at both ends)")
    match = tree("match", _path_pattern(names.fresh("_sp"), "allShortestPaths", chain))
    match.shortest_checked = True   # here, outside the subquery (`shortest_ends.py`)
    count = tree("subquery", var("COUNT"), tree("query", tree("single_query", match)))
    either_null = tree("paren", tree("or_", tree("is_null", var(first)),
                                     tree("is_null", var(second))))
    _replace(parent, counted, tree("case_expr", tree("case_when", either_null, tree("null_lit")),
                                   count))
    same = tree("compare", call("id", var(first)), Token("EQ", "="), call("id", var(second)))
    test = call("neo4j_shortest_path_ends", same) if strict else call(
        "neo4j_shortest_path_refused", same,
        tree("str_lit", Token("STRING", f"'{_MAYBE_UNEVALUATED}'")))
    return [star_with(where=tree("where", test))]


def hoist_shortest_expressions(root: Tree, names: FreshNames) -> bool:
    """Rewrite in place (see the module); whether anything changed. Refuses the expressions
    it leaves (in a WHERE, an ORDER BY, a subquery)."""
    changed = False
    for part in union_parts(root):
        clauses = [c for c in part.children if isinstance(c, Tree)]
        rewritten: list[Tree] = []
        for at, clause in enumerate(clauses):
            before = clauses[:at]
            checked = all(c.data in ("match", "unwind", "with_clause") for c in before)
            hoisted = _hoist(clause, set(scope_after(before)), checked, names)
            changed |= bool(hoisted)
            rewritten += [*hoisted, clause]
        part.children = rewritten
    for node in root.iter_subtrees():
        fname = _shortest_call(node)
        if fname is not None:
            raise DialectError(f"{fname}() as an expression in a WHERE, an ORDER BY or a "
                               "subquery")
    return changed
