"""`shortestPath` whose start and end are one node: Neo4j's error, kept.

Neo4j 5 (its default `dbms.cypher.forbid_shortestpath_common_nodes = true`) raises "The
shortest path algorithm does not work when the start and end nodes are the same" for a row
whose two end nodes are one node, unless the pattern may have length 0 (`*0..`); written with
one variable at both ends, `shortestPath((a)-[*]-(a))`, the query is rejected outright. A model
that asks the distance from R1 to every room, `MATCH p = shortestPath((a:Room {nodeSymbol:
'R1'})-[*]-(b:Room))`, gets that error on Heracles' server. Kuzu 0.11.3 and Ladybug 0.22.0
drop the row instead, so the model scored where Neo4j fails the query.

So before the path's MATCH, every row meets `neo4j_shortest_path_ends(id(a) = id(b) AND ..)`,
a UDF that raises Neo4j's error for one node at both ends (`WITH * WHERE ..`, which keeps every
other row). Which rows Neo4j searches is its planner's: the search is planned as soon as both
ends are bound (`ShortestPathDecorator`, `planShortestRelationships`), after every predicate
whose variables are bound by then, and the search drops a row whose end fails a node predicate
of the path (`all()` / `none()` over `nodes(p)`, `extractShortestPathPredicates`) before its
same-node test (`ShortestPathSlottedPipe`: `filterNode` of both ends, then `DisallowSameNode`).
So the check holds those conditions too (`..` above): a condition of the MATCH's WHERE that
reads the ends and variables bound before its query graph (consecutive MATCH clauses are one;
a WITH, UNWIND or OPTIONAL MATCH ends one), an end's labels and properties written in the
path, and a node predicate of the path read at the end. Any other condition that reads the
path is part of the search, after the test. A condition that reads a variable its own query
graph binds may be applied before the search or after it, as the planner's costs choose: a row
with one node at both ends that such a condition rejects is refused
(`neo4j_shortest_path_refused`, `dialect`), one it keeps gets Neo4j's error. An OPTIONAL MATCH
keeps its rows: the check only raises.

    MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) MATCH p = shortestPath((a)-[*]-(b))
    WHERE b.class = 'hallway'
    -> MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room)
       WITH * WHERE neo4j_shortest_path_ends(id(a) = id(b) AND b.class = 'hallway')
       MATCH p = shortestPath((a)-[*]-(b)) WHERE b.class = 'hallway'

Where the ends are bound by the same MATCH, the MATCH is split: the node patterns that bind
them, with the conditions of its WHERE that read nothing of the path, first (Neo4j filters
those rows before it searches), then the check, then the path with the rest:

    MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room), p = shortestPath((a)-[*]-(b)) WHERE a <> b
    -> MATCH (a:Room {nodeSymbol: 'R1'}), (b:Room) WHERE a <> b
       WITH * WHERE neo4j_shortest_path_ends(id(a) = id(b))
       MATCH p = shortestPath((a)-[*]-(b))

Ends that cannot be one node (two different literal values of one key, disjoint labels) need
no check. A shape this cannot split (an end bound by a pattern with relationships beside the
path, an OPTIONAL MATCH binding its ends, an anonymous end) is refused (`dialect`).

`*0..`: Neo4j's search may then have length 0 (`allowZeroLength`): one node at both ends gives
the zero-length path and no error; between two nodes it is the search from 1. The engines
refuse a lower bound 0 ("Lower bound of shortest/all_shortest path must be 1"), so the bound
becomes 1 and a row with one node at both ends that Neo4j searches is refused instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name, unquote_string
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import (
    all_of,
    bare,
    call,
    child_of,
    clone,
    comprehension_pattern,
    conjuncts,
    declared_names,
    declared_outside_subqueries,
    function_name,
    is_optional,
    name,
    pattern_labels,
    reads,
    scope_after,
    substitute,
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


# Why a row is refused (`neo4j_shortest_path_refused`).
_ZERO_LENGTH = "a zero-length shortest path (*0..) from a node to itself"
_PLANNED = ("a shortest path whose two ends are one node, on a row a condition rejects that "
            "the Neo4j planner may apply before or after the search")
# (no quote in either: each is written as a string literal)


def neo4j_shortest_path_ends(same: bool | None) -> bool:
    """True, or Neo4j's error where the two ends of a shortest path are one node."""
    if same:
        raise ValueError(SAME_ENDS)
    return True


def neo4j_shortest_path_refused(refused: bool | None, why: str | None) -> bool:
    """True, or a refusal of a row the translation cannot answer as Neo4j would (a message
    Neo4j never gives: `dialect`, the engines' shortfall)."""
    if refused:
        raise ValueError(f"no engine equivalent: {why}")
    return True


def _shortest(pattern: Tree) -> Tree | None:
    """The chain of a `shortestPath(..)` / `allShortestPaths(..)` pattern (None: another)."""
    path = pattern.children[-1]
    if isinstance(path, Tree) and path.data == "path_function":
        return path.children[1]
    return None


def from_zero(chain: Tree) -> bool:
    """Whether the path may have length 0 (`*0..`), which Neo4j allows at one node."""
    for sub in chain.iter_subtrees():
        if sub.data in ("range_span", "range_exact") and sub.children \
                and isinstance(sub.children[0], Token) and sub.children[0].type == "INT" \
                and int(str(sub.children[0]), 0) == 0:
            return True
    return False


def _lift_zero(chain: Tree) -> None:
    """`*0..m` -> `*1..m` (see the module); a path of length 0 only is refused."""
    for sub in chain.iter_subtrees():
        if sub.data == "range_exact":
            raise DialectError("a shortest path of length 0 only (*0)")
        if sub.data == "range_span":
            upper = [c for c in sub.children[1:] if isinstance(c, Token) and c.type == "INT"]
            if upper and int(str(upper[0]), 0) < 1:
                raise DialectError("a shortest path of length 0 only (*0..0)")
            sub.children[0] = Token("INT", "1")


def _end_name(node_pattern: Tree) -> str | None:
    first = node_pattern.children[0] if node_pattern.children else None
    return plain_name(first) if isinstance(first, Tree) and first.data == "name" else None


def _literal_value(value: Tree) -> tuple[str, str] | None:
    """A string or integer literal's value (`'R1'` and `"R1"` are one value; the parser writes
    every integer in decimal), or None for another expression."""
    if value.data in ("str_lit", "int_lit"):
        text = str(value.children[0])
        return (value.data, unquote_string(text) if value.data == "str_lit" else text)
    return None


def _facts(match: Tree, end: Tree) -> tuple[frozenset[str] | None, dict[str, tuple[str, str]]]:
    """The labels and literal property values the MATCH's node patterns give an end (the
    end's own pattern, and every other of its variable)."""
    labels: frozenset[str] | None = None
    values: dict[str, tuple[str, str]] = {}
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
            literal = _literal_value(value) if isinstance(value, Tree) else None
            if literal is not None:
                values[plain_name(entry.children[0])] = literal
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


def _path_names(pattern: Tree, chain: Tree) -> set[str]:
    """The path's own variables: its name and its relationship's."""
    named = {plain_name(pattern.children[0])} if len(pattern.children) == 3 else set()
    return named | {plain_name(c) for sub in chain.iter_subtrees() if sub.data == "rel_detail"
                    for c in sub.children if isinstance(c, Tree) and c.data == "name"}


def _free_reads(condition: object, outer: set[str]) -> set[str]:
    """The variables a condition reads, in its subqueries and pattern comprehensions too
    (`EXISTS { (b)-->(:X) }` reads b), not those they declare (a name of `outer`, in scope
    there, is the outer one)."""
    if not isinstance(condition, Tree):
        return set()
    inner: set[str] = set()
    for sub in condition.iter_subtrees():
        pattern = comprehension_pattern(sub)
        if sub.data == "subquery":
            inner |= declared_names(sub)
        elif pattern is not None:   # its nodes are parenthesised variables
            inner |= {plain_name(v.children[0]) for v in pattern.find_data("var")}
    return reads(condition, into_subqueries=True) - (inner - outer)


def _node_predicate(condition: object, path: set[str]) -> tuple[str, Tree, bool] | None:
    """`all(x IN nodes(p) WHERE f)` / `none(..)` of the path, `f` reading nothing of it:
    (x, f, whether all); None for any other condition."""
    condition = bare(condition)
    if not (isinstance(condition, Tree) and condition.data == "call"
            and len(condition.children) == 2):
        return None
    quantifier = function_name(condition.children[0]).lower()
    scope = condition.children[1]
    if quantifier not in ("all", "none") or not isinstance(scope, Tree) \
            or scope.data != "where_arg" or scope.children[0].data != "in_":
        return None
    element, source = scope.children[0].children
    if not (element.data == "var" and isinstance(source, Tree) and source.data == "call"
            and function_name(source.children[0]).lower() == "nodes"
            and len(source.children) == 2 and source.children[1].data == "var"
            and plain_name(source.children[1].children[0]) in path):
        return None
    test = scope.children[1]
    if reads(test) & path:
        return None
    return plain_name(element.children[0]), test, quantifier == "all"


def _pattern_tests(node_pattern: Tree, end: str) -> list[Tree]:
    """The labels and properties an end's pattern writes, as conditions on `end`."""
    tests: list[Tree] = []
    labels = pattern_labels(node_pattern)
    if labels is not None:
        tests.append(tree("paren", tree("or_", *[
            tree("has_label", var(end), tree("label_term", name(label)))
            for label in sorted(labels)])) if len(labels) > 1 else tree(
            "has_label", var(end), tree("label_term", name(next(iter(labels)))))
            if labels else tree("false_lit"))
    props = child_of(node_pattern, "map_literal")
    for entry in props.children if props is not None else ():
        tests.append(tree("compare", tree("prop", var(end), clone(entry.children[0])),
                          Token("EQ", "="), clone(entry.children[1])))
    return tests


@dataclass
class _Ends:
    """What the check of one shortest path reads (see the module)."""

    first: str
    second: str
    refusal: str | None   # why a row with one node at both ends is refused, not raised
    sure: list[Tree] = field(default_factory=list)     # applied before the search
    planned: list[Tree] = field(default_factory=list)  # before or after, as planned

    def read(self, conditions: list, path: set[str], known: set[str], outer: set[str]) -> None:
        """Sort conditions of the path's MATCH by when Neo4j applies them; `known`: the
        variables bound before the search in every plan; `outer`: every variable in scope
        there."""
        for condition in conditions:
            node = _node_predicate(condition, path)
            if node is not None:
                element, test, every = node
                at_end = substitute(clone(test), {element: var(self.first)})
                test_at_end = tree("paren", at_end) if every \
                    else tree("not_", tree("paren", at_end))
                before = _free_reads(test, outer) - {element} <= known
            elif _free_reads(condition, outer) & path:
                continue   # part of the search, after its test of the ends
            else:
                test_at_end, before = clone(condition), _free_reads(condition, outer) <= known
            (self.sure if before else self.planned).append(test_at_end)

    def check(self) -> Tree:
        """`WITH * WHERE ..` with the UDFs that raise for a row with one node at both ends."""
        same = tree("compare", call("id", var(self.first)), Token("EQ", "="),
                    call("id", var(self.second)))
        same = all_of([same, *[tree("paren", c) for c in self.sure]])
        tests = []
        if self.refusal is not None:
            tests.append(self._refused(same, self.refusal))
        elif self.planned:
            kept = all_of([tree("paren", c) for c in self.planned])
            tests.append(call("neo4j_shortest_path_ends",
                              tree("and_", clone(same), tree("paren", clone(kept)))))
            rejected = tree("case_expr", tree("case_when", kept, tree("false_lit")),
                            tree("true_lit"))
            tests.append(self._refused(tree("and_", same, rejected), _PLANNED))
        else:
            tests.append(call("neo4j_shortest_path_ends", same))
        projection = tree("projection", tree("proj_items", Token("STAR", "*")))
        return tree("with_clause", projection, tree("where", all_of(tests)))

    @staticmethod
    def _refused(condition: Tree, why: str) -> Tree:
        return call("neo4j_shortest_path_refused", condition,
                    tree("str_lit", Token("STRING", f"'{why}'")))


def _split(match: Tree, bound: set[str], arguments: set[str]) -> list[Tree] | None:
    """The clauses that stand for `match` with the check (see the module); None: no check
    is needed. `bound`: the variables in scope before it; `arguments`: those its query graph
    has from before it (bound before its last WITH, UNWIND or OPTIONAL MATCH)."""
    if getattr(match, "shortest_checked", False):   # a check before its subquery
        return None
    patterns = child_of(match, "pattern_list")
    shortest = [(p, _shortest(p)) for p in patterns.children]
    checks = []
    for pattern, chain in shortest:
        if chain is None:
            continue
        zero = from_zero(chain)
        if zero:
            _lift_zero(chain)
        first, second = _end_name(chain.children[0]), _end_name(chain.children[-1])
        if first is not None and first == second:
            raise CypherSyntaxError(f"{SAME_ENDS} (one variable, {first}, at both ends)")
        if ends_apart(match, chain.children[0], chain.children[-1]):
            continue
        if first is None or second is None:
            raise DialectError("shortestPath() with an end node without a variable, which may "
                               "be the other end (Neo4j raises there)")
        checks.append((pattern, chain, first, second, zero))
    if not checks:
        return None
    if len(checks) > 1:
        raise DialectError("two shortestPath() patterns in one MATCH whose ends may be one node")
    pattern, chain, first, second, zero = checks[0]
    path = _path_names(pattern, chain)
    # (an expression Neo4j may not evaluate on every row, `shortest_expressions.py`)
    ends = _Ends(first, second, _ZERO_LENGTH if zero
                 else getattr(match, "shortest_refusal", None))
    where = child_of(match, "where")
    conditions = conjuncts(where.children[0]) if where is not None else []
    if {first, second} <= bound:
        known = bound if is_optional(match) else arguments | {first, second}
        ends.read([*conditions, *_pattern_tests(chain.children[0], first),
                   *_pattern_tests(chain.children[-1], second)], path, known,
                  bound | declared_outside_subqueries(match))
        return [ends.check(), match]
    others = [p for p, chain in shortest if chain is None]
    if is_optional(match) or any(
            any(sub.data.startswith("rel_") for sub in p.iter_subtrees()) for p in others):
        raise DialectError("shortestPath() whose ends a pattern with relationships or an "
                           "OPTIONAL MATCH binds, and may be one node (Neo4j raises there)")
    declared = bound.union(*(declared_outside_subqueries(p) for p in others))
    ends_bound = [clone(c) for p, chain in shortest if chain is not None
                  for c in (chain.children[0], chain.children[-1])
                  if _end_name(c) in {first, second} - declared]
    binding = [*others, *[tree("pattern", end) for end in ends_bound]]
    named = bound.union(*(declared_outside_subqueries(p) for p in binding))
    before, after = [], []
    for condition in conditions:
        (before if reads(condition) <= named else after).append(condition)
    ends.read(after, path, named, named)   # the node predicates of the path
    first_match = tree("match", tree("pattern_list", *binding),
                       *([tree("where", all_of(before))] if before else []))
    path_match = tree("match", tree("pattern_list", *[p for p, chain in shortest
                                                      if chain is not None]),
                      *([tree("where", all_of(after))] if after else []))
    return [first_match, ends.check(), path_match]


def _arguments(clauses: list[Tree]) -> set[str]:
    """The variables a MATCH after `clauses` has from before its query graph: those in scope
    after the last clause that ends one (anything but a MATCH: Neo4j plans consecutive MATCH
    clauses as one graph, and puts a WITH after an OPTIONAL MATCH that a MATCH follows)."""
    last = max((i for i, c in enumerate(clauses)
                if c.data != "match" or is_optional(c)), default=-1)
    return set(scope_after(clauses[:last + 1]))


def check_shortest_ends(root: Tree) -> bool:
    """Rewrite in place (see the module); whether anything changed."""
    changed = False
    for single in root.iter_subtrees():
        if single.data != "single_query":
            continue
        written = [c for c in single.children if isinstance(c, Tree)]
        clauses: list[Tree] = []
        for at, clause in enumerate(written):
            replaced = _split(clause, set(scope_after(written[:at])),
                              _arguments(written[:at])) if clause.data == "match" else None
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
