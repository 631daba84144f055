"""Neo4j 5's newer path patterns, lowered to the classic forms the rest of the translation reads.

Neo4j 5.9 added quantified relationships (`-[:T]->{1,3}`) and quantified path patterns
(`((x:Room)-[:T]->(y) WHERE ..){1,3}`); 5.21 added path selectors (`SHORTEST 1`, `ANY
SHORTEST`, `ALL SHORTEST`, `SHORTEST k GROUPS`, `ANY k`, `ALL`). The grammar reads them
(`cypher.lark`); this pass, the translation's first, checks them as Neo4j's semantic analysis
does (`CypherSyntaxError`, Neo4j's message) and writes each as classic Cypher of the same
meaning, or refuses it (`DialectError`):

- A quantified relationship is a variable-length one: the Cypher Manual's table
  (patterns/reference.adoc, "Variable-length relationships") gives `-[:T]->{m,n}` as
  `-[:T*m..n]->`, `+` as `*1..`, `*` as `*0..`, `{n}` as `*n`, `{,n}` as `*0..n`. Its
  variable is a list of relationships in both (a group variable), so the variable-length
  translation (trail semantics, `hop_lists`, `uniqueness`) applies. Its properties and inline
  WHERE test each relationship: `all(e IN r WHERE ..)`.
- A quantified path pattern of one relationship is one too. Its inner nodes' labels,
  properties and WHEREs test every repetition's nodes: the left node's those of the path's
  nodes but the last, the right node's all but the first (`all(v IN nodes(p)[..-1] WHERE
  ..)`); a test of two of them tests each repetition in turn (`all(i IN range(0, length(p) -
  1) WHERE ..)`). The juxtaposed nodes are the first and the last repetition's (`(a) ((x)-->
  (y))+ (b)`: a is the first x, b the last y), one and the same node after no repetition.
  Group variables are the path's lists (x is `nodes(p)[..-1]`, y `nodes(p)[1..]`), read as
  such in the MATCH's WHERE and the clauses after it, until a WITH drops them. `p` is the
  pattern's own path, or that of a pattern split off in the same MATCH (relationship
  uniqueness spans the whole MATCH). A group variable read as one node or relationship
  (`y.class`, `x:Room`, `type(r)`, a later pattern) is Neo4j's type error. A repetition of two
  relationships or more has no such form: refused.
- A selective selector searches per pair of end nodes (the manual's "Partitions"): `SHORTEST
  1`, `ANY SHORTEST` and `ANY` (Neo4j's planner runs `ANY k` as `SHORTEST k`) are
  `shortestPath()`, `ALL SHORTEST` (`SHORTEST 1 GROUPS`) is `allShortestPaths()`, for one
  relationship between two end nodes that cannot be one node (Neo4j's selector finds a path
  from a node back to itself, the legacy functions and the engines do not). The pattern's own
  predicates filter before the selection ("Order of path selection"), as the legacy
  functions' WHERE does (`path_filter.py`): the inner nodes' tests become its filter of
  interior nodes (`path_filter.INTERIOR`) and tests of its end nodes, the relationships'
  tests its filter of relationships; a test of two elements at once is refused. The MATCH's
  own WHERE filters after the selection, as the engines' WHERE of a shortest path does: what
  of it reads more than the end nodes is marked (`after_selection`) for `path_filter` to
  leave where it is. `SHORTEST k` and `SHORTEST k GROUPS` for k > 1 have no engine form:
  refused. `ALL` selects nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.parser import inline_conditions
from dsgqa.dialect.path_filter import INTERIOR
from dsgqa.dialect.shortest_ends import ends_apart
from dsgqa.dialect.trees import (
    BINDERS,
    all_of,
    bare,
    binds,
    call,
    child_of,
    conjuncts,
    declared_outside_subqueries,
    function_name,
    int_lit,
    is_optional,
    mentions,
    name,
    outermost_subqueries,
    reads,
    rebuilt,
    rel_detail,
    scope_after,
    shape,
    tree,
    var,
)
from dsgqa.dialect.trees import clone as _clone
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "quantified or selective path pattern->classic pattern"
# Text a query using the syntax holds (the grammar's tokens for it): a quantifier after a
# relationship, a parenthesised path (`((`, `(p = (`), two juxtaposed parts (`) (`), a
# selector's words before a `(`.
SYNTAX = re.compile(r"(?:\]\s*->?|-->?|<--|<-->)\s*[{+*]|\(\s*\(|\(\s*[\w`]+\s*=\s*\("
                    r"|\)\s*\(|\b(?:ANY|ALL|SHORTEST)\b[\s\w]*\(", re.IGNORECASE)
# Text standing for what the lowered query holds that the model's did not (a variable-length
# relationship, a quantifier over a list; a shortest path): the other passes are gated on the
# query's text (`Rewriter.run` appends it).
WRITTEN = "\n-[*]-> all(v IN nodes(p) WHERE v)"
WRITTEN_SHORTEST = " shortestPath("
_NEW_SYNTAX = frozenset({"path_selector", "quantified_rel", "paren_path"})
_RELS = frozenset({"rel_left", "rel_right", "rel_undirected", "rel_both"})
_QUANTIFIERS = frozenset({"quant_exact", "quant_range", "quant_from", "quant_to", "quant_plus",
                          "quant_star"})
_SELECTOR = re.compile(r"(ANY\s+SHORTEST|ALL\s+SHORTEST|ANY|ALL|SHORTEST)(?:\s+(\d+))?"
                       r"(?:\s+PATHS?)?(?:\s+(GROUPS?))?", re.IGNORECASE)
_MIXING = ("Mixing variable-length relationships ('-[*]-') with quantified relationships "
           "('()-->*()') or quantified path patterns ('(()-->())*') is not allowed.")
_MULTIPLE = ("Multiple path patterns cannot be used in the same clause in combination with a "
             "selective path selector.")
_SELECTOR_AND_FUNCTION = (
    "Mixing shortestPath/allShortestPaths with path selectors (e.g. `ANY SHORTEST`), explicit "
    "match modes (e.g. `DIFFERENT RELATIONSHIPS`) or explicit path modes (e.g. `ACYCLIC`) is "
    "not allowed.")
# What Neo4j's type errors say a function expects where a group variable (a list) is given.
_ENTITY = "Node or Relationship"
_EXPECTED_BY_FUNCTION = {"id": _ENTITY, "elementid": _ENTITY, "labels": "Node",
                         "type": "Relationship", "startnode": "Relationship",
                         "endnode": "Relationship", "properties": "Map, Node or Relationship",
                         "keys": "Map, Node or Relationship"}
_PROPERTY_OWNERS = ("Map, Node, Relationship, Point, Duration, Date, Time, LocalTime, "
                    "LocalDateTime or DateTime")


@dataclass(frozen=True)
class Selector:
    """A path selector: `kind` is "all" (no selection), "shortest" (the k shortest paths per
    pair of end nodes) or "groups" (the paths of the k shortest lengths)."""

    kind: str
    k: int


@dataclass
class _Group:
    """A quantified path pattern or relationship, lowered: its variable-length relationship,
    its group variables and the tests of its repetitions (each reading the singletons)."""

    rel: Tree                        # the variable-length relationship pattern
    rel_name: str | None             # its variable: the group variable, or a made-up name
    left: str | None                 # the inner nodes' variables (made up for a test)
    right: str | None
    node_tests: list[tuple[str, Tree]] = field(default_factory=list)   # ("left"|"right", ..)
    rel_tests: list[Tree] = field(default_factory=list)
    pair_tests: list[Tree] = field(default_factory=list)   # of two of them, or of none

    @property
    def needs_path(self) -> bool:
        return bool(self.left or self.right or self.node_tests or self.pair_tests)


def parse_selector(text: str) -> Selector:
    """The selector a `PATH_SELECTOR` token spells, by Neo4j 5's grammar (`ANY SHORTEST`,
    `ALL SHORTEST`, `ANY [k]`, `ALL`, `SHORTEST k`, `SHORTEST [k] GROUP(S)`, each with an
    optional PATH or PATHS before GROUP(S)); Neo4j's syntax error for another combination."""
    found = _SELECTOR.fullmatch(" ".join(text.split()))
    if found is None:
        raise CypherSyntaxError(f"Invalid input '{text}': not a path selector")
    words, count, groups = found.groups()
    words = " ".join(words.upper().split())
    k = int(count) if count is not None else None
    if (k is not None and words in ("ANY SHORTEST", "ALL SHORTEST", "ALL")) \
            or (groups and words != "SHORTEST") \
            or (words == "SHORTEST" and k is None and not groups):
        raise CypherSyntaxError(f"Invalid input '{text}': not a path selector")
    if k == 0:
        raise CypherSyntaxError(f"The {'group' if groups else 'path'} count needs to be "
                                "greater than 0.")
    if words == "ALL":
        return Selector("all", 0)
    if words == "ALL SHORTEST" or groups:
        return Selector("groups", k or 1)
    return Selector("shortest", k or 1)


def quantifier_bounds(node: Tree) -> tuple[int, int | None]:
    """(lower, upper) of a quantifier (upper None: none), checked as Neo4j does; the Manual's
    "Quantifiers" table: `+` is {1,}, `*` and `{,}` {0,}, `{n}` {n,n}, `{,n}` {0,n}."""
    numbers = [int(str(c), 0) for c in node.children if isinstance(c, Token) and c.type == "INT"]
    low, high = {
        "quant_exact": lambda: (numbers[0], numbers[0]),
        "quant_range": lambda: (numbers[0], numbers[1]),
        "quant_from": lambda: (numbers[0], None),
        "quant_to": lambda: (0, numbers[0]),
        "quant_plus": lambda: (1, None),
        "quant_star": lambda: (0, None),
    }[str(node.data)]()
    if node.data == "quant_plus" and str(node.children[0]) != "+":
        raise CypherSyntaxError(f"Invalid input '{node.children[0]}': expected '('")
    if high == 0:
        raise CypherSyntaxError("A quantifier for a path pattern must not be limited by 0.")
    if high is not None and low > high:
        raise CypherSyntaxError(
            "A quantifier for a path pattern must not have a lower bound which exceeds its "
            f"upper bound. In this case, the lower bound {low} is greater than the upper bound "
            f"{high}.")
    return low, high


# ------------------------------------------------------------------ small tree helpers
def _named(element: Tree) -> str | None:
    """The variable of a node pattern or relationship pattern (or its detail), or None."""
    holder = element if element.data in ("node_pattern", "rel_detail") else rel_detail(element)
    first = holder.children[0] if holder is not None and holder.children else None
    return plain_name(first) if isinstance(first, Tree) and first.data == "name" else None


def _var_length(low: int, high: int | None) -> Tree:
    """`*low..high` (`*low..` without an upper bound) as the grammar's tree."""
    bounds = [Token("INT", str(low)), Token("DOTDOT", "..")]
    if high is not None:
        bounds.append(Token("INT", str(high)))
    return tree("var_length", Token("STAR", "*"), tree("range_span", *bounds))


def _substituted(node: object, values: dict[str, Tree]) -> object:
    """A copy of `node` with each read of a name in `values` replaced by a copy of its value,
    except below a comprehension or quantifier binding the name again; a subquery reading one
    is refused (its scope is not walked)."""
    if not isinstance(node, Tree) or not values:
        return node
    if node.data == "var" and plain_name(node.children[0]) in values:
        return _clone(values[plain_name(node.children[0])])
    if node.data in ("subquery", "call_subquery") \
            and reads(node, into_subqueries=True) & set(values):
        raise DialectError("a subquery reading a group variable of a quantified path pattern")
    rebound = binds(node) & set(values)
    if not rebound:
        return rebuilt(node, [_substituted(child, values) for child in node.children])
    inner = {k: v for k, v in values.items() if k not in rebound}
    if node.data in BINDERS:   # `x IN list`: the list is read outside the binding
        head = node.children[0]
        source = tree("in_", head.children[0], _substituted(head.children[1], values))
        return rebuilt(node, [source, *[_substituted(c, inner) for c in node.children[1:]]])
    return rebuilt(node, [_substituted(child, inner) for child in node.children])


def _every(bound: str, source: Tree, test: Tree) -> Tree:
    """`all(bound IN source WHERE test)`."""
    return call("all", tree("where_arg", tree("in_", var(bound), source), test))


def _plus(left: Tree, step: int) -> Tree:
    return tree("arith", left, Token("ADD_OP", "+" if step >= 0 else "-"), int_lit(abs(step)))


def _text(node: Tree, source: str) -> str:
    """The source text of a parsed tree, for a message."""
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return " ".join(source[meta.start_pos:meta.end_pos].split())
    return str(node.data)


def _quantifier_of(paren: Tree) -> Tree | None:
    last = paren.children[-1]
    return last if isinstance(last, Tree) and last.data in _QUANTIFIERS else None


def _paren_parts(paren: Tree) -> tuple[str | None, Tree, Tree | None]:
    """(subpath variable, inner chain, WHERE condition) of a parenthesised path."""
    children = [c for c in paren.children if not (isinstance(c, Tree) and c.data in _QUANTIFIERS)]
    subpath = None
    if isinstance(children[0], Tree) and children[0].data == "name":
        subpath = plain_name(children[0])
        children = children[2:]   # the name and its `=`
    where = child_of(paren, "pattern_where")
    return subpath, children[0], where.children[0] if where is not None else None


def _walk(node: Tree, skip: frozenset[str] = frozenset({"subquery"})) -> list[Tree]:
    """Every subtree of `node`, not below one whose kind is in `skip`."""
    found, stack = [], [node]
    while stack:
        sub = stack.pop()
        found.append(sub)
        if sub.data not in skip or sub is node:
            stack += [c for c in sub.children if isinstance(c, Tree)]
    return found


# ------------------------------------------------------------------ checks
def _check_body(body: Tree, paren: Tree, source: str) -> list[Tree]:
    """The elements of a quantified path pattern's inner path, checked as Neo4j does."""
    for element in body.children:
        if element.data == "quantified_rel" or (element.data == "paren_path"
                                                and _quantifier_of(element) is not None):
            raise CypherSyntaxError("Quantified path patterns are not allowed to be nested.")
        if element.data == "paren_path":
            raise DialectError("a parenthesised path beside others inside a quantified path "
                               "pattern")
    if not any(element.data in _RELS for element in body.children):
        raise CypherSyntaxError(
            "A quantified path pattern needs to have at least one relationship. In this case, "
            f"the quantified path pattern {_text(paren, source)} consists of only one node.")
    return list(body.children)


def _check_juxtaposed(elements: list[Tree], source: str) -> None:
    """Two node patterns or parenthesised paths side by side need a quantified path pattern
    among them (Neo4j: "Juxtaposition is currently only supported for quantified path
    patterns")."""
    for left, right in pairwise(elements):
        factors = all(e.data in ("node_pattern", "paren_path") for e in (left, right))
        if factors and not any(e.data == "paren_path" and _quantifier_of(e) is not None
                               for e in (left, right)):
            raise CypherSyntaxError(
                "Juxtaposition is currently only supported for quantified path patterns. In "
                f"this case, {_text(left, source)} and {_text(right, source)} are side by "
                "side, and neither is a quantified path pattern.")


def _check_mixing(patterns: Tree) -> None:
    """A MATCH holding a variable-length relationship and a quantified relationship or path
    pattern: Neo4j's error."""
    kinds = {sub.data for sub in _walk(patterns)}
    quantified = "quantified_rel" in kinds or any(
        sub.data == "paren_path" and _quantifier_of(sub) is not None for sub in _walk(patterns))
    if quantified and "var_length" in kinds:
        raise CypherSyntaxError(_MIXING)


def _check_shortest_function(function: Tree, source: str) -> None:
    """`shortestPath()` / `allShortestPaths()` of a quantified pattern: Neo4j's error."""
    _check_juxtaposed(function.children[1].children, source)
    if any(sub.data in ("quantified_rel", "paren_path") for sub in function.iter_subtrees()):
        raise CypherSyntaxError(f"{plain_name(function.children[0])}(...) requires a pattern "
                                "containing a single relationship")


# ------------------------------------------------------------------ one MATCH
class _Lowering:
    """One MATCH's (or pattern subquery's) patterns, lowered in place: the tests it adds to
    the WHERE, the group variables' lists, the patterns split off."""

    def __init__(self, names: FreshNames, source: str, scope: set[str], patterns: Tree,
                 live: set[str]) -> None:
        self.names = names
        self.source = source
        self.scope = scope                 # names bound by earlier clauses
        self.live = live                   # group variables of earlier MATCHes, still read
        self.declared = declared_outside_subqueries(patterns)
        self.outside = {n for sub in _walk(patterns, frozenset({"subquery", "paren_path",
                                                               "quantified_rel"}))
                        if sub.data in ("node_pattern", "rel_detail", "pattern")
                        and (n := _binding(sub)) is not None}
        self.conditions: list[Tree] = []   # for the WHERE
        self.groups: dict[str, Tree] = {}  # group variable -> its list
        self.extra: list[Tree] = []        # patterns split off
        self.lowered: list[_Group] = []

    def chain(self, pattern: Tree, selective: bool) -> None:
        """Lower `pattern`'s chain in place (its groups' tests written unless `selective`:
        `_selective` writes them as the selection's filters)."""
        self._unwrap(pattern, selective)
        chain = pattern.children[-1]
        elements = list(chain.children)
        _check_juxtaposed(elements, self.source)
        if not any(e.data == "node_pattern" for e in elements) and all(
                _quantifier_of(e) is not None and quantifier_bounds(_quantifier_of(e))[0] == 0
                for e in elements):   # type: ignore[arg-type]
            raise CypherSyntaxError(
                "A top-level path pattern in a `MATCH` clause must be written such that it "
                "always evaluates to at least one node pattern.")
        lowered: list[Tree] = []
        groups: list[_Group] = []
        for element in elements:
            if element.data == "paren_path":
                if not lowered or lowered[-1].data != "node_pattern":
                    lowered.append(tree("node_pattern"))
                group = self._path_group(element)
            elif element.data == "quantified_rel":
                group = self._relationship_group(element)
            else:
                lowered.append(element)
                continue
            groups.append(group)
            lowered.append(group.rel)
        if lowered[-1].data != "node_pattern":
            lowered.append(tree("node_pattern"))
        chain.children = lowered
        self.lowered += groups
        if not selective:
            self._attach(pattern, groups)

    def _unwrap(self, pattern: Tree, selective: bool) -> None:
        """A path that is one parenthesised path without a quantifier, `((a)-->(b) WHERE ..)`:
        its inner path, its WHERE one of the pattern's (before any selection: refused where
        it reads more than the end nodes of a selective pattern)."""
        chain = pattern.children[-1]
        while len(chain.children) == 1 and chain.children[0].data == "paren_path" \
                and _quantifier_of(chain.children[0]) is None:
            subpath, inner, where = _paren_parts(chain.children[0])
            if subpath is not None:
                if not selective:
                    raise CypherSyntaxError("Sub-path assignment is currently not supported.")
                raise DialectError("a path variable inside a selective path pattern")
            # its own WHERE and its elements' (the parser leaves a parenthesised path's)
            tests = ([where] if where is not None else []) + inline_conditions(inner)
            ends = {_named(inner.children[0]), _named(inner.children[-1])}
            for test in tests:
                if selective and not reads(test) <= ends | self.scope:
                    raise DialectError("a selective path pattern's own WHERE reading more than "
                                       "its end nodes (a filter before the selection)")
                self.conditions.append(tree("paren", test))
            pattern.children[-1] = chain = inner

    # ---------------------------------------------------------------- groups
    def _relationship_group(self, quantified: Tree) -> _Group:
        """`-[r:T {..} WHERE ..]->{m,n}` as `-[r:T*m..n]->`, its properties and WHERE tests of
        every r."""
        rel, quantifier = quantified.children
        low, high = quantifier_bounds(quantifier)
        parts = list(rel_detail(rel).children) if rel_detail(rel) is not None else []
        rel_name = _named(rel)
        if rel_name is not None:
            self._declare(rel_name)
        elif _tested(parts):
            rel_name = self.names.fresh("_rel")
        group = _Group(self._variable_length(rel, rel_name, parts, low, high), rel_name, None,
                       None)
        group.rel_tests = [self._test(t, {rel_name})   # type: ignore[arg-type]
                           for t in _own_tests(parts, rel_name)]
        return group

    def _path_group(self, paren: Tree) -> _Group:
        """A quantified path pattern of one relationship as its variable-length relationship
        and the tests of its repetitions."""
        subpath, body, where = _paren_parts(paren)
        if subpath is not None:
            raise CypherSyntaxError(
                "Assigning a path in a quantified path pattern is not yet supported.")
        wheres = [where] if where is not None else []
        while len(body.children) == 1 and body.children[0].data == "paren_path" \
                and _quantifier_of(body.children[0]) is None:   # `(((x)-->(y)))+`
            subpath, body, inner = _paren_parts(body.children[0])
            if subpath is not None:
                raise DialectError("a path variable inside a quantified path pattern")
            wheres += [inner] if inner is not None else []
        where = all_of([tree("paren", w) for w in wheres]) if wheres else None
        elements = _check_body(body, paren, self.source)
        low, high = quantifier_bounds(_quantifier_of(paren))   # type: ignore[arg-type]
        if len(elements) != 3:
            raise DialectError("a quantified path pattern of more than one relationship (no "
                               "variable-length relationship repeats it)")
        left, rel, right = elements
        written = [n for n in (_named(left), _named(rel), _named(right)) if n is not None]
        if len(set(written)) != len(written):
            raise DialectError("a quantified path pattern naming one variable twice")
        for group_name in written:
            self._declare(group_name)
        left_tests, right_tests = self._node_tests(left), self._node_tests(right)
        parts = list(rel_detail(rel).children) if rel_detail(rel) is not None else []
        rel_name = _named(rel)
        if rel_name is None and _tested(parts):
            rel_name = self.names.fresh("_rel")
        rel_tests = _own_tests(parts, rel_name)
        group = _Group(self._variable_length(rel, rel_name, parts, low, high), rel_name,
                       _named(left), _named(right))
        singletons = {n for n in (group.left, group.right, group.rel_name) if n is not None}
        for side, tests in (("left", left_tests), ("right", right_tests)):
            group.node_tests += [(side, self._test(t, singletons)) for t in tests]
        group.rel_tests = [self._test(t, singletons) for t in rel_tests]
        if where is not None:
            group.pair_tests.append(self._test(where, singletons))
        self._sort_tests(group, singletons)
        return group

    def _sort_tests(self, group: _Group, singletons: set[str]) -> None:
        """Each test under the one element it reads (a node's test of its node, ...); a test
        of several, or of none, tests each repetition."""
        tests = [t for _, t in group.node_tests] + group.rel_tests + group.pair_tests
        group.node_tests, group.rel_tests, group.pair_tests = [], [], []
        for test in tests:
            read = reads(test) & singletons
            if read == {group.left}:
                group.node_tests.append(("left", test))
            elif read == {group.right}:
                group.node_tests.append(("right", test))
            elif read == {group.rel_name}:
                group.rel_tests.append(test)
            else:
                group.pair_tests.append(test)

    def _variable_length(self, rel: Tree, rel_name: str | None, parts: list[Tree], low: int,
                         high: int | None) -> Tree:
        """The relationship pattern `rel` with `rel_name`, its types and `*low..high`."""
        types = [p for p in parts if p.data == "rel_types"]
        detail = tree("rel_detail", *([name(rel_name)] if rel_name else []), *types,
                      _var_length(low, high))
        tokens = [c for c in rel.children if isinstance(c, Token)]
        return tree(str(rel.data), tokens[0], detail, *tokens[1:])

    def _node_tests(self, node: Tree) -> list[Tree]:
        """The tests a node pattern inside a quantified path pattern makes of its node
        (labels, properties, WHERE), reading its variable (made up where it has none)."""
        parts = [c for c in node.children if isinstance(c, Tree) and c.data != "name"]
        holder = _named(node)
        if parts and holder is None:
            holder = self.names.fresh("_node")
            node.children.insert(0, name(holder))
        tests = []
        for part in parts:
            if part.data == "node_labels":
                tests += _label_tests(holder, part)   # type: ignore[arg-type]
            elif part.data == "map_literal":
                tests += [_equals(holder, entry) for entry in part.children]  # type: ignore
            elif part.data == "pattern_where":
                tests.append(tree("paren", part.children[0]))
        return tests

    def _test(self, test: Tree, singletons: set[str]) -> Tree:
        """A repetition's test may read its own variables and those of earlier clauses; one
        of a variable declared beside it in the same MATCH Neo4j 5 rejects ("From within a
        quantified path pattern, one may only reference variables, that are already bound in
        a previous `MATCH` clause"), later versions read: refused either way."""
        beside = (reads(test) - singletons) & (self.declared | set(self.groups)) - self.scope
        if beside:
            raise DialectError("a quantified path pattern's test reading a variable of its own "
                               f"MATCH ({', '.join(sorted(beside))})")
        return test

    def _declare(self, group_name: str) -> None:
        """A group variable: Neo4j's error where the query binds the name otherwise."""
        if group_name in self.scope:
            raise CypherSyntaxError(f"Variable `{group_name}` already declared")
        if group_name in self.groups or group_name in self.outside or group_name in self.live:
            raise CypherSyntaxError(f"Type mismatch: {group_name} defined with conflicting "
                                    "type List<Node> (expected Node)")
        self.groups[group_name] = var(group_name)   # a relationship's stays its own list

    # ---------------------------------------------------------------- paths and tests
    def _attach(self, pattern: Tree, groups: list[_Group]) -> None:
        """Give each group that reads its nodes a path, and write its tests and lists."""
        needing = [g for g in groups if g.needs_path]
        for group in groups:
            if not group.needs_path:
                self.write(group, None)
        if not needing:
            return
        chain = pattern.children[-1]
        if len(chain.children) == 3:
            self.write(needing[0], path_of(pattern, self.names))
            return
        if len(pattern.children) == 3:
            raise DialectError("a named path holding a quantified path pattern beside other "
                               "relationships")
        for group, path in zip(needing, self._split(chain, needing), strict=True):
            self.write(group, path)

    def _split(self, chain: Tree, groups: list[_Group]) -> list[str]:
        """Move each group's relationship, with its two nodes, to a pattern of its own in the
        same MATCH, `_pathN = (a)-[..]->(b)`, and the parts of the chain between them to
        patterns of their own; the nodes keep their tests where they were, named where they
        were not. The new paths' names, in the groups' order."""
        elements = chain.children
        cuts = [next(i for i, e in enumerate(elements) if e is g.rel) for g in groups]
        for at in cuts:
            for node in (elements[at - 1], elements[at + 1]):
                if _named(node) is None:
                    node.children.insert(0, name(self.names.fresh("_node")))
        paths, pieces, start = [], [], 0
        for at in cuts:
            pieces.append(elements[start:at])
            paths.append(self.names.fresh("_path"))
            ends = [tree("node_pattern", name(_named(elements[side])))  # type: ignore[arg-type]
                    for side in (at - 1, at + 1)]
            self.extra.append(tree("pattern", name(paths[-1]), Token("EQ", "="),
                                   tree("chain", ends[0], elements[at], ends[1])))
            start = at + 1
        pieces.append(elements[start:])
        chain.children = pieces[0]
        self.extra += [tree("pattern", tree("chain", *piece)) for piece in pieces[1:]
                       if len(piece) > 1 or piece[0].children[1:]]
        return paths

    def write(self, group: _Group, path: str | None, tests: bool = True) -> None:
        """The group's tests as conditions of the MATCH (with `tests`), its group variables
        as lists of `path`'s nodes."""
        nodes = call("nodes", var(path)) if path is not None else None
        lists = {"left": tree("slice", nodes, Token("DOTDOT", ".."), int_lit(-1)),
                 "right": tree("slice", _clone(nodes), int_lit(1), Token("DOTDOT", ".."))} \
            if nodes is not None else {}
        for side in ("left", "right"):
            if getattr(group, side) in self.groups:
                self.groups[getattr(group, side)] = lists[side]
        if not tests:
            return
        for side, test in group.node_tests:
            # by position (the left nodes are the path's 0 .. length - 1, the right ones 1 ..
            # length): a lambda over the nodes of a path lost paths once a start expanded to
            # about a thousand of them (`captures.py`), and a walk over a slice would compute
            # the slice again for each node
            at = self.names.fresh("_i")
            own = getattr(group, side)
            low, high = (int_lit(0), _plus(call("length", var(path)), -1)) if side == "left" \
                else (int_lit(1), call("length", var(path)))
            node = tree("index", call("nodes", var(path)), var(at))
            self.conditions.append(_every(at, call("range", low, high),
                                          _substituted(test, {own: node})))
        for test in group.rel_tests:
            bound = self.names.fresh("_e")
            self.conditions.append(_every(bound, var(group.rel_name),   # type: ignore[arg-type]
                                          _substituted(test, {group.rel_name: var(bound)})))
        if group.pair_tests:
            at = self.names.fresh("_i")
            values: dict[str, Tree] = {}
            if group.left is not None:
                values[group.left] = tree("index", call("nodes", var(path)), var(at))
            if group.right is not None:
                values[group.right] = tree("index", call("nodes", var(path)),
                                           _plus(var(at), 1))
            if group.rel_name is not None:
                values[group.rel_name] = tree("index", var(group.rel_name), var(at))
            steps = call("range", int_lit(0), _plus(call("length", var(path)), -1))
            self.conditions.append(_every(at, steps, all_of(
                [tree("paren", _substituted(t, values)) for t in group.pair_tests])))


def _tested(parts: list[Tree]) -> bool:
    """Whether a relationship pattern's detail tests its relationship (properties, WHERE)."""
    return any(p.data in ("map_literal", "pattern_where") for p in parts)


def _own_tests(parts: list[Tree], rel_name: str | None) -> list[Tree]:
    """A relationship pattern's property map and WHERE, as tests of `rel_name`."""
    tests: list[Tree] = []
    for part in parts:
        if part.data == "map_literal":
            tests += [_equals(rel_name, entry) for entry in part.children]
        elif part.data == "pattern_where":
            tests.append(tree("paren", part.children[0]))
    return tests


def _binding(sub: Tree) -> str | None:
    """The name a node pattern, relationship detail or named pattern binds."""
    first = sub.children[0] if sub.children else None
    return plain_name(first) if isinstance(first, Tree) and first.data == "name" else None


def _label_tests(holder: str, labels: Tree) -> list[Tree]:
    """A node pattern's labels as label predicates of `holder`: one for each `:`-part (Neo4j
    4's `:A:B` is both labels), its label expression as written (`:A|B`, `:!A`)."""
    return [tree("has_label", var(holder), _clone(part)) for part in labels.children
            if isinstance(part, Tree)]


def _equals(holder: str | None, entry: Tree) -> Tree:
    """A property map's `key: value` as `holder.key = value` (Neo4j's pattern property test:
    NULL matches nothing, as `=` of NULL)."""
    key, value = entry.children
    return tree("compare", tree("prop", var(holder), key), Token("EQ", "="), value)  # type: ignore


def path_of(pattern: Tree, names: FreshNames) -> str:
    """The pattern's path variable, made up (and written) where it has none."""
    if len(pattern.children) == 3:
        return plain_name(pattern.children[0])
    path = names.fresh("_path")
    pattern.children[:0] = [name(path), Token("EQ", "=")]
    return path


# ------------------------------------------------------------------ selective patterns
def _bound_before(match: Tree, before: list[Tree]) -> Tree:
    """`match` with the patterns and WHERE of the MATCHes just before it (since the last
    clause of another kind, none OPTIONAL) beside its own: what they say of its end nodes
    holds where it runs (a node they bind keeps its labels and properties)."""
    earlier: list[Tree] = []
    for clause in reversed(before):
        if clause.data != "match" or is_optional(clause):
            break
        earlier.insert(0, clause)
    if not earlier:
        return match
    patterns = [p for c in earlier for p in child_of(c, "pattern_list").children]
    wheres = [child_of(c, "where") for c in [*earlier, match]]
    tests = [w.children[0] for w in wheres if w is not None]
    return tree("match", tree("pattern_list", *patterns,
                              *child_of(match, "pattern_list").children),
                *([tree("where", all_of(tests))] if tests else []))


def _selective(match: Tree, selector: Selector, lowering: _Lowering,
               before: list[Tree]) -> list[Tree]:
    """A MATCH of one selective pattern as a `shortestPath()` / `allShortestPaths()` MATCH
    and, for what of its WHERE filters after the selection, a `WITH * WHERE` after it."""
    if selector.k > 1:
        raise DialectError(("SHORTEST k GROUPS" if selector.kind == "groups" else "SHORTEST k")
                           + " with k > 1: no engine form keeps more than the shortest paths")
    pattern = child_of(match, "pattern_list").children[0]
    chain = pattern.children[-1]
    if len(chain.children) != 3:
        raise DialectError("a path selector over a pattern of more than one relationship")
    start, rel, end = chain.children
    _from_one(rel)
    for node in (start, end):
        if _named(node) is None:
            node.children.insert(0, name(lowering.names.fresh("_node")))
    if not ends_apart(_bound_before(match, before), start, end):
        raise DialectError("a selective path pattern whose two end nodes may be one node (Neo4j "
                           "finds a path from the node back to itself; the engines do not)")
    group = next((g for g in lowering.lowered if g.rel is rel), None)
    before: list[Tree] = []
    if group is not None:
        if group.pair_tests:
            raise DialectError("a selective path pattern testing two of its elements together "
                               "(the engines' shortest paths filter one element at a time)")
        if group.needs_path or group.rel_tests:
            path = path_of(pattern, lowering.names)
            lowering.write(group, path, tests=False)   # the group variables' lists
            before = _prefilters(group, path, start, end, lowering.names)
    ends = {_named(start), _named(end)}
    where = child_of(match, "where")
    kept: list[Tree] = []
    after: list[Tree] = []
    for condition in conjuncts(where.children[0]) if where is not None else []:
        (kept if reads(condition) <= ends | lowering.scope else after).append(condition)
    if after and is_optional(match):
        raise DialectError("an OPTIONAL MATCH with a path selector and a WHERE reading the path "
                           "(a filter after the selection, part of the optional pattern)")
    fname = "shortestPath" if selector.kind == "shortest" else "allShortestPaths"
    pattern.children[-1] = tree("path_function", name(fname), chain)
    match.children = [c for c in match.children if c is not where]
    for condition in after:   # the engines' WHERE of a shortest path filters after it
        marked = tree("paren", condition)
        marked.after_selection = True   # type: ignore[attr-defined]
        kept.append(marked)
    if kept or before:
        match.children.append(tree("where", all_of(kept + before)))
    return [match]


def _from_one(rel: Tree) -> None:
    """A selective relationship's lower bound as the engines' shortest paths take it: 0 (no
    path of length 0 joins two different nodes) as 1; more than 1 refused."""
    detail = rel_detail(rel)
    length = child_of(detail, "var_length") if detail is not None else None
    span = next((c for c in length.children if isinstance(c, Tree)
                 and c.data.startswith("range")), None) if length is not None else None
    if span is None:
        return
    first = span.children[0]
    low = int(str(first), 0) if isinstance(first, Token) and first.type == "INT" else 1
    if span.data == "range_exact" and low != 1:
        raise DialectError("a shortest path of a fixed length other than 1")
    if low > 1:
        raise DialectError("a shortest path of at least two relationships (the engines' "
                           "shortest paths start at one)")
    if low == 0:
        span.children[0] = Token("INT", "1")


def _prefilters(group: _Group, path: str, start: Tree, end: Tree,
                names: FreshNames) -> list[Tree]:
    """A selective pattern's repetition tests, as the legacy shortest path's WHERE filters
    (`path_filter.py`): a node test of the interior nodes (`INTERIOR`) and of the end node
    it tests there (the left node's of the start, the right node's of the end); a
    relationship test of every relationship."""
    tests: list[Tree] = []
    interior: list[Tree] = []
    bound = names.fresh(INTERIOR)
    for side, test in group.node_tests:
        own = getattr(group, side)
        at_end, far_end = (start, end) if side == "left" else (end, start)
        other = [t for s, t in group.node_tests if s != side]
        if not _holds_at(test, own, far_end, getattr(group, "right" if side == "left"
                                                     else "left"), other):
            raise DialectError("a selective path pattern whose inner nodes' tests may fail at "
                               "the end node the other side's test does not (the engines' "
                               "shortest-path filter may test that end too)")
        tests.append(tree("paren", _substituted(test, {own: var(_named(at_end))})))  # type: ignore
        interior.append(tree("paren", _substituted(test, {own: var(bound)})))
    if interior:
        tests.append(_every(bound, call("nodes", var(path)), all_of(interior)))
    for test in group.rel_tests:
        each = names.fresh("_e")
        tests.append(_every(each, call("relationships", var(path)),
                            _substituted(test, {group.rel_name: var(each)})))  # type: ignore
    return tests


_SELF = "\x00"   # the tested node, in a test's shape (no variable is named so)


def _holds_at(test: Tree, own: str, node: Tree, other: str | None,
              required: list[Tree]) -> bool:
    """Whether a selective pattern's inner node test (of `own`) holds at the end node `node`
    wherever that node meets what Neo4j asks of it there: the other side's tests
    (`required`, of `other`), its own labels and properties. Ladybug's shortest path tests
    the end it reaches with the interior filter (Kuzu's does not), so the filter is exact
    only where every interior test holds at both ends anyway."""
    def shaped(t: Tree, variable: str | None) -> object:
        return shape(_substituted(t, {variable: var(_SELF)})) if variable else shape(t)
    known = {shaped(t, other) for t in required}
    labels = child_of(node, "node_labels")
    if labels is not None:
        known |= {shape(t) for t in _label_tests(_SELF, labels)}
    properties = child_of(node, "map_literal")
    entries = properties.children if properties is not None else []
    known |= {shape(_equals(_SELF, entry)) for entry in entries}
    mine = bare(_substituted(test, {own: var(_SELF)}))
    return shape(mine) in known or _other_value(mine, entries)


def _other_value(test: object, entries: list[Tree]) -> bool:
    """`n.key <> 'a'` where the node's property map gives key another literal."""
    if not (isinstance(test, Tree) and test.data == "compare" and len(test.children) == 3
            and str(test.children[1]) in ("<>", "!=")):
        return False
    read, value = test.children[0], test.children[2]
    if not (isinstance(read, Tree) and read.data == "prop" and read.children[0].data == "var"
            and plain_name(read.children[0].children[0]) == _SELF
            and isinstance(value, Tree) and value.data in ("str_lit", "int_lit")):
        return False
    key = plain_name(read.children[1])
    return any(plain_name(e.children[0]) == key and isinstance(e.children[1], Tree)
               and e.children[1].data == value.data
               and str(e.children[1].children[0]) != str(value.children[0]) for e in entries)


# ------------------------------------------------------------------ the clauses
def _has_new_syntax(node: Tree) -> bool:
    """Whether `node` holds the newer syntax, or two node patterns side by side (Neo4j's
    juxtaposition error, which only this pass reports)."""
    return any(sub.data in _NEW_SYNTAX or (sub.data == "chain" and any(
        a.data == b.data == "node_pattern" for a, b in pairwise(sub.children)))
        for sub in node.iter_subtrees())


def _lower_match(match: Tree, names: FreshNames, source: str, scope: set[str],
                 live: set[str], before: list[Tree]) -> tuple[list[Tree], dict[str, Tree]]:
    """The clauses that stand for one MATCH (after the clauses `before`), and its group
    variables' lists."""
    patterns = child_of(match, "pattern_list")
    selectors: list[Selector | None] = []
    for pattern in patterns.children:
        found = child_of(pattern, "path_selector")
        selector = parse_selector(str(found.children[0])) if found is not None else None
        if found is not None:
            pattern.children.remove(found)
            if pattern.children[-1].data == "path_function":
                raise CypherSyntaxError(_SELECTOR_AND_FUNCTION)
        selectors.append(selector if selector is not None and selector.kind != "all" else None)
    if any(selectors) and len(patterns.children) > 1:
        raise CypherSyntaxError(_MULTIPLE)
    _check_mixing(patterns)
    lowering = _Lowering(names, source, scope, patterns, live)
    for pattern, selector in zip(list(patterns.children), selectors, strict=True):
        if pattern.children[-1].data == "path_function":
            _check_shortest_function(pattern.children[-1], source)
        else:
            lowering.chain(pattern, selector is not None)
    patterns.children += lowering.extra
    if lowering.conditions:
        where = child_of(match, "where")
        tests = ([tree("paren", where.children[0])] if where is not None else []) \
            + lowering.conditions
        match.children = [c for c in match.children if c is not where] + [
            tree("where", all_of(tests))]
    if selectors[0] is not None:
        return _selective(match, selectors[0], lowering, before), lowering.groups
    return [match], lowering.groups


class _Scoped:
    """One single query's clauses, lowered, with the live group variables read as their lists
    clause by clause; and what each name holding a group's list holds (`kinds`: Node or
    Relationship), for Neo4j's type errors, also after a WITH passed the list on."""

    def __init__(self, names: FreshNames, source: str,
                 outer: frozenset[str] = frozenset()) -> None:
        self.names = names
        self.source = source
        self.outer = outer   # the names around an EXISTS / COUNT / COLLECT body
        self.live: dict[str, Tree] = {}
        self.kinds: dict[str, str] = {}

    def query(self, single: Tree) -> bool:
        """Lower the query's clauses in place; whether it held the syntax."""
        changed = False
        written = [c for c in single.children if isinstance(c, Tree)]
        clauses: list[Tree] = []
        for at, clause in enumerate(written):
            if self.kinds and clause.data == "match":
                self._check_rebinding(clause)
            new = [clause]
            if clause.data == "match" and _has_new_syntax(child_of(clause, "pattern_list")):
                new, groups = _lower_match(clause, self.names, self.source,
                                           set(scope_after(written[:at])) | self.outer,
                                           set(self.kinds), clauses)
                self.live.update(groups)
                self.kinds.update({n: _kind(v) for n, v in groups.items()})
                changed = True
            for made in new:
                if self.kinds:
                    self.read(made)
            clauses += new
        single.children = clauses
        return changed

    def _check_rebinding(self, match: Tree) -> None:
        """A later pattern binding a group's list as one node or relationship: Neo4j's type
        error."""
        for sub in _walk(child_of(match, "pattern_list")):
            if sub.data in ("node_pattern", "rel_detail") and _binding(sub) in self.kinds:
                kind = self.kinds[_binding(sub)]   # type: ignore[index]
                expected = "Node" if sub.data == "node_pattern" else "Relationship"
                raise CypherSyntaxError(f"Type mismatch: {_binding(sub)} defined with "
                                        f"conflicting type List<{kind}> (expected {expected})")

    def read(self, clause: Tree) -> None:
        """Rewrite the reads of live group variables in `clause`. A WITH or RETURN ends them:
        one a WITH passes on passes its list on, a plain list from then on."""
        if clause.data in ("with_clause", "return_clause"):
            self._projection(clause)
            return
        if clause.data == "call_subquery" and (mentions(clause, set(self.live)) or any(
                s.data == "name" and plain_name(s) in self.live for s in clause.iter_subtrees())):
            raise DialectError("a CALL subquery reading a group variable of a quantified path "
                               "pattern")
        for i, child in enumerate(clause.children):
            if not isinstance(child, Tree):
                continue
            if child.data == "pattern_list":
                for sub in _walk(child):
                    if sub.data in ("map_literal", "pattern_where"):
                        sub.children = [self._expression(c) for c in sub.children]
            else:
                clause.children[i] = self._expression(child)

    def _projection(self, clause: Tree) -> None:
        projection = clause.children[0]
        items = child_of(projection, "proj_items")
        starred = any(isinstance(item, Token) for item in items.children)
        if starred and self.live:
            raise DialectError("a `*` projection beside a group variable of a quantified path "
                               "pattern (its columns would list the group variable)")
        aliases: set[str] = set()
        kinds = dict(self.kinds) if starred else {}
        for item in [i for i in items.children if isinstance(i, Tree)]:
            value = item.children[0]
            held = plain_name(value.children[0]) if value.data == "var" else None
            if clause.data == "with_clause" and len(item.children) == 1 and held in self.live:
                item.children.append(name(held))   # type: ignore[arg-type]
            if len(item.children) > 1:
                aliases.add(plain_name(item.children[1]))
                if held in self.kinds:
                    kinds[plain_name(item.children[1])] = self.kinds[held]   # type: ignore
            item.children[0] = self._expression(value)
        hidden = {k: v for k, v in self.live.items() if k not in aliases}
        projection.children = [self._expression(c, hidden) if isinstance(c, Tree)
                               and c.data != "proj_items" else c for c in projection.children]
        self.live, self.kinds = {}, kinds
        for child in clause.children[1:]:   # a WITH's WHERE reads what it passed on
            if isinstance(child, Tree) and kinds:
                _check_singletons(child, kinds)

    def _expression(self, node: object, live: dict[str, Tree] | None = None) -> object:
        live = self.live if live is None else live
        if not isinstance(node, Tree) or not mentions(node, set(self.kinds)):
            return node
        _check_singletons(node, {n: k for n, k in self.kinds.items()
                                 if n in live or n not in self.live})
        return _substituted(node, live)


def _kind(value: Tree) -> str:
    """What a group variable's list holds: a relationship group stays its variable-length
    relationship's own variable, a node group is a slice of the path's nodes."""
    return "Relationship" if value.data == "var" else "Node"


def _check_singletons(node: Tree, kinds: dict[str, str]) -> None:
    """Neo4j's type error for a list of a group read as one node or relationship (`kinds`:
    the names holding one, and what it holds), not where a comprehension or quantifier binds
    the name again."""
    def held(child: object) -> str | None:
        if isinstance(child, Tree) and child.data == "var":
            return kinds.get(plain_name(child.children[0]))
        return None
    kind = held(node.children[0]) if node.children else None
    if kind and node.data == "prop":
        raise CypherSyntaxError(f"Type mismatch: expected {_PROPERTY_OWNERS} but was "
                                f"List<{kind}>")
    if kind and node.data == "has_label":
        raise CypherSyntaxError(f"Type mismatch: expected {_ENTITY} but was List<{kind}>")
    if kind and node.data == "index" and isinstance(node.children[1], Tree) \
            and node.children[1].data == "str_lit":
        raise CypherSyntaxError("Type mismatch: list index must be given as Integer, but was "
                                "String")
    if node.data == "call" and len(node.children) == 2 and held(node.children[1]):
        expected = _EXPECTED_BY_FUNCTION.get(function_name(node.children[0]).lower())
        if expected is not None:
            raise CypherSyntaxError(f"Type mismatch: expected {expected} but was "
                                    f"List<{held(node.children[1])}>")
    rebound = binds(node) & set(kinds)
    for at, child in enumerate(node.children):
        if not isinstance(child, Tree):
            continue
        if rebound and at == 0 and node.data in BINDERS:   # `x IN list`: the list is outside
            _check_singletons(child.children[1], kinds)
            continue
        scoped = {k: v for k, v in kinds.items() if k not in rebound} if rebound else kinds
        if scoped:
            _check_singletons(child, scoped)


def _lower_subquery_pattern(sub: Tree, names: FreshNames, source: str,
                            outer: frozenset[str]) -> None:
    """`EXISTS { pattern WHERE .. }` / `COUNT { .. }` in the newer syntax: lowered the same,
    its group variables read in its own WHERE; a selector there is refused."""
    patterns = sub.children[0]
    if any(child_of(p, "path_selector") is not None for p in patterns.children):
        raise DialectError("a path selector in a pattern subquery")
    match = tree("match", *sub.children)
    _clauses, groups = _lower_match(match, names, source, set(outer), set(), [])
    scoped = _Scoped(names, source)
    scoped.live = groups
    scoped.kinds = {n: _kind(v) for n, v in groups.items()}
    scoped.read(match)
    sub.children = match.children


def _subquery_scopes(root: Tree) -> dict[int, frozenset[str]]:
    """The names in scope around each EXISTS / COUNT / COLLECT body (its single queries and
    pattern bodies, by id). Neo4j declares a quantified path pattern's group variables in the
    body, where the outer names are visible: a group variable named like one is "already
    declared" (`MATCH (r:Room) RETURN COUNT { (a)((r)-->(b)){1,2}(c) }`; Neo4j's semantic
    analysis also calls it shadowing). A CALL { } body sees only what it imports: not read."""
    found: dict[int, frozenset[str]] = {}

    def enter(sub: Tree, visible: frozenset[str]) -> None:
        body = sub.children[-1]
        found[id(body)] = visible
        if body.data == "subquery_pattern":
            inner = visible | declared_outside_subqueries(body)
            for nested in outermost_subqueries(child_of(body, "where")):
                enter(nested, inner)
        else:
            walk(body, visible)

    def walk(query: Tree, inherited: frozenset[str]) -> None:
        for single in query.children:
            if not (isinstance(single, Tree) and single.data == "single_query"):
                continue
            found[id(single)] = inherited
            clauses = [c for c in single.children if isinstance(c, Tree)]
            for at, clause in enumerate(clauses):
                if clause.data in ("call_subquery", "optional_call_subquery"):
                    continue
                before = inherited | frozenset(scope_after(clauses[:at]))
                after = inherited | frozenset(scope_after(clauses[:at + 1]))
                filtered = child_of(clause, "where") if clause.data == "with_clause" else None
                late = {id(s) for s in outermost_subqueries(filtered)}
                for sub in outermost_subqueries(clause):
                    # a WITH's WHERE sees the names before the WITH too (Neo4j 5,
                    # `with_where_scope.py`)
                    enter(sub, before | after if id(sub) in late
                          else after if clause.data in ("match", "unwind") else before)

    walk(root.children[0] if root.data == "start" else root, frozenset())
    return found


def lower_path_patterns(root: Tree, names: FreshNames, source: str) -> str | None:
    """Lower the query's newer path patterns in place (see the module). None where it held
    none; else text standing for what the lowered query holds (`WRITTEN`), for the gates of
    the passes after."""
    if not _has_new_syntax(root):
        return None
    selective = any(sub.data == "path_selector" for sub in root.iter_subtrees())
    for function in [s for s in root.iter_subtrees() if s.data == "path_function"]:
        _check_shortest_function(function, source)
    outer = _subquery_scopes(root)
    for single in [s for s in root.iter_subtrees() if s.data == "single_query"]:
        _Scoped(names, source, outer.get(id(single), frozenset())).query(single)
    for sub in [s for s in root.iter_subtrees() if s.data == "subquery_pattern"]:
        if _has_new_syntax(sub.children[0]):
            _lower_subquery_pattern(sub, names, source, outer.get(id(sub), frozenset()))
    return WRITTEN + (WRITTEN_SHORTEST if selective else "")
