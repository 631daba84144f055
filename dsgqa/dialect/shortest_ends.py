"""`shortestPath` whose start and end are one node: Neo4j's error, kept.

Neo4j 5 (its default `dbms.cypher.forbid_shortestpath_common_nodes = true`) raises "The
shortest path algorithm does not work when the start and end nodes are the same" for a row
whose two end nodes are one node, unless the pattern may have length 0 (`*0..`); written with
one variable at both ends, `shortestPath((a)-[*]-(a))`, the query is rejected outright. A model
that asks the distance from R1 to every room, `MATCH p = shortestPath((a:Room {nodeSymbol:
'R1'})-[*]-(b:Room))`, gets that error on Heracles' server. Kuzu 0.11.3 and Ladybug 0.22.0
drop the row instead, so the model scored where Neo4j fails the query.

So before the path's MATCH, every row meets `neo4j_shortest_path_ends(id(a) = id(b))`, a UDF
that raises Neo4j's error for one node at both ends (`WITH * WHERE ..`, which keeps every
other row). Where the ends are bound by the same MATCH, the MATCH is split: the node patterns
that bind them, with the conditions of its WHERE that read nothing of the path, first (Neo4j
filters those rows before it searches), then the check, then the path with the rest:

    MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room), p = shortestPath((a)-[*]-(b)) WHERE a <> b
    -> MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) WHERE a <> b
       WITH * WHERE neo4j_shortest_path_ends(id(a) = id(b))
       MATCH p = shortestPath((a)-[*]-(b))

Ends that cannot be one node (two different literal values of one key, disjoint labels) need
no check. A shape this cannot split (an end bound by a pattern with relationships beside the
path, an OPTIONAL MATCH binding its ends, an anonymous end) is refused (`dialect`).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import (
    all_of,
    bare,
    call,
    child_of,
    clone,
    conjuncts,
    declared_outside_subqueries,
    function_name,
    is_optional,
    pattern_labels,
    reads,
    scope_after,
    tree,
    var,
)

REWRITE = "shortestPath->Neo4j's error for one node at both ends"
COALESCE_REWRITE = "coalesce of a test beside a shortest path->CASE"
# Tests: the nodes whose value is a boolean (a coalesce() of one is what the engines mishandle).
_TESTS = frozenset({"compare", "and_", "or_", "xor_", "not_", "is_null", "is_not_null", "in_",
                    "starts_with", "ends_with", "contains", "regex", "true_lit", "false_lit"})
# The message of Neo4j's ShortestPathCommonEndNodesForbiddenException (its first sentence).
SAME_ENDS = ("The shortest path algorithm does not work when the start and end nodes are the "
             "same")


def neo4j_shortest_path_ends(same: bool | None) -> bool:
    """True, or Neo4j's error where the two ends of a shortest path are one node."""
    if same:
        raise ValueError(SAME_ENDS)
    return True


def _shortest(pattern: Tree) -> Tree | None:
    """The chain of a `shortestPath(..)` / `allShortestPaths(..)` pattern (None: another)."""
    path = pattern.children[-1]
    if isinstance(path, Tree) and path.data == "path_function":
        return path.children[1]
    return None


def _from_zero(chain: Tree) -> bool:
    """Whether the path may have length 0 (`*0..`), which Neo4j allows at one node."""
    for sub in chain.iter_subtrees():
        if sub.data in ("range_span", "range_exact") and sub.children \
                and isinstance(sub.children[0], Token) and sub.children[0].type == "INT" \
                and int(str(sub.children[0]), 0) == 0:
            return True
    return False


def _end_name(node_pattern: Tree) -> str | None:
    first = node_pattern.children[0] if node_pattern.children else None
    return plain_name(first) if isinstance(first, Tree) and first.data == "name" else None


def _facts(match: Tree, end: Tree) -> tuple[frozenset[str] | None, dict[str, str]]:
    """The labels and literal property values the MATCH's node patterns give an end (the
    end's own pattern, and every other of its variable)."""
    labels: frozenset[str] | None = None
    values: dict[str, str] = {}
    name = _end_name(end)
    for node in child_of(match, "pattern_list").iter_subtrees():
        if node.data != "node_pattern" or (node is not end and (
                name is None or _end_name(node) != name)):
            continue
        written = pattern_labels(node)
        if written is not None:
            labels = written if labels is None else labels & written
        props = child_of(node, "map_literal")
        for entry in props.children if props is not None else ():
            value = entry.children[1]
            if isinstance(value, Tree) and value.data in ("str_lit", "int_lit"):
                values[plain_name(entry.children[0])] = str(value.children[0])
    return labels, values


def ends_apart(match: Tree, first: Tree, second: Tree) -> bool:
    """Whether the MATCH keeps the two ends apart: disjoint labels, one key's two different
    literal values, or a condition of its WHERE comparing the two as unequal (`a <> b`,
    `id(a) < id(b)`, `a.nodeSymbol <> b.nodeSymbol`), which Neo4j applies before the search."""
    labels_a, values_a = _facts(match, first)
    labels_b, values_b = _facts(match, second)
    if labels_a is not None and labels_b is not None and not labels_a & labels_b:
        return True
    if any(key in values_b and values_b[key] != value for key, value in values_a.items()):
        return True
    names = {_end_name(first), _end_name(second)}
    where = child_of(match, "where")
    return None not in names and where is not None and any(
        _apart(c, names) for c in conjuncts(where.children[0]))  # type: ignore[arg-type]


def _apart(condition: object, names: set[str]) -> bool:
    """`a <> b`, `a < b` or `>` of the two ends, of their ids or of one key of both."""
    condition = bare(condition)
    if not (isinstance(condition, Tree) and condition.data == "compare"
            and len(condition.children) == 3 and str(condition.children[1]) in ("<>", "<", ">")):
        return False

    def operand(node: object) -> tuple[str, str] | None:
        node = bare(node)
        if not isinstance(node, Tree):
            return None
        if node.data == "var":
            return ("", plain_name(node.children[0]))
        if node.data == "prop" and isinstance(node.children[0], Tree) \
                and node.children[0].data == "var":
            return (plain_name(node.children[1]), plain_name(node.children[0].children[0]))
        if node.data == "call" and len(node.children) == 2 and isinstance(node.children[1], Tree) \
                and node.children[1].data == "var" \
                and function_name(node.children[0]).lower() in ("id", "elementid"):
            return ("()", plain_name(node.children[1].children[0]))
        return None
    left, right = operand(condition.children[0]), operand(condition.children[2])
    return left is not None and right is not None and left[0] == right[0] \
        and {left[1], right[1]} == names


def _check(first: str, second: str) -> Tree:
    same = tree("compare", call("id", var(first)), Token("EQ", "="), call("id", var(second)))
    projection = tree("projection", tree("proj_items", Token("STAR", "*")))
    return tree("with_clause", projection,
                tree("where", call("neo4j_shortest_path_ends", same)))


def _split(match: Tree, bound: set[str]) -> list[Tree] | None:
    """The clauses that stand for `match` with the check (see the module); None: no check
    is needed."""
    patterns = child_of(match, "pattern_list")
    shortest = [(p, _shortest(p)) for p in patterns.children]
    checks = []
    for _pattern, chain in shortest:
        if chain is None or _from_zero(chain):
            continue
        first, second = _end_name(chain.children[0]), _end_name(chain.children[-1])
        if first is not None and first == second:
            raise CypherSyntaxError(f"{SAME_ENDS} (one variable, {first}, at both ends)")
        if ends_apart(match, chain.children[0], chain.children[-1]):
            continue
        if first is None or second is None:
            raise DialectError("shortestPath() with an end node without a variable, which may "
                               "be the other end (Neo4j raises there)")
        checks.append((first, second))
    if not checks:
        return None
    if len(checks) > 1:
        raise DialectError("two shortestPath() patterns in one MATCH whose ends may be one node")
    first, second = checks[0]
    if {first, second} <= bound:
        return [_check(first, second), match]
    others = [p for p, chain in shortest if chain is None]
    if is_optional(match) or any(
            any(sub.data.startswith("rel_") for sub in p.iter_subtrees()) for p in others):
        raise DialectError("shortestPath() whose ends a pattern with relationships or an "
                           "OPTIONAL MATCH binds, and may be one node (Neo4j raises there)")
    declared = bound.union(*(declared_outside_subqueries(p) for p in others))
    ends = [clone(c) for p, chain in shortest if chain is not None
            for c in (chain.children[0], chain.children[-1])
            if _end_name(c) in {first, second} - declared]
    binding = [*others, *[tree("pattern", end) for end in ends]]
    named = bound.union(*(declared_outside_subqueries(p) for p in binding))
    where = child_of(match, "where")
    before, after = [], []
    for condition in conjuncts(where.children[0]) if where is not None else []:
        (before if reads(condition) <= named else after).append(condition)
    first_match = tree("match", tree("pattern_list", *binding),
                       *([tree("where", all_of(before))] if before else []))
    path_match = tree("match", tree("pattern_list", *[p for p, chain in shortest
                                                      if chain is not None]),
                      *([tree("where", all_of(after))] if after else []))
    return [first_match, _check(first, second), path_match]


def check_shortest_ends(root: Tree) -> bool:
    """Rewrite in place (see the module); whether anything changed."""
    changed = False
    for single in root.iter_subtrees():
        if single.data != "single_query":
            continue
        written = [c for c in single.children if isinstance(c, Tree)]
        clauses: list[Tree] = []
        for at, clause in enumerate(written):
            replaced = _split(clause, set(scope_after(written[:at]))) \
                if clause.data == "match" else None
            changed |= replaced is not None
            clauses += replaced if replaced is not None else [clause]
        single.children = clauses
    return changed


def case_for_test_coalesce(root: Tree) -> bool:
    """On the translation of a query with a shortest path: every `coalesce(test, ..)` as
    `CASE WHEN test IS NULL THEN .. ELSE test END`. Kuzu 0.11.3 and Ladybug 0.22.0 lose the
    start node of a `SHORTEST` pattern whose start a WITH passed on where a WHERE before or on
    it holds `coalesce(a.x <> 'v', false)` (the start read '' or another node, the path had 2
    hops where there are 15), which the translation writes for `none(n IN nodes(p) WHERE ..)`;
    a CASE of the same test reads right. Whether any was rewritten."""
    changed = False
    for node in root.iter_subtrees():
        for i, child in enumerate(node.children):
            if isinstance(child, Tree) and child.data == "call" \
                    and function_name(child.children[0]).lower() == "coalesce" \
                    and len(child.children) >= 3 and isinstance(child.children[1], Tree) \
                    and bare(child.children[1]).data in _TESTS:  # type: ignore[union-attr]
                node.children[i] = _as_case(child.children[1:])
                changed = True
    return changed


def _as_case(values: list) -> Tree:
    if len(values) == 1:
        return values[0]
    first = tree("paren", values[0])
    return tree("case_expr", tree("case_when", tree("is_null", clone(first)), _as_case(values[1:])),
                first)
