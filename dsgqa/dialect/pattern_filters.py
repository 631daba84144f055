"""A MATCH's filters run after its pattern is matched (Ladybug bug).

Ladybug 0.22.0 loses rows when a filter runs early in a plan that then extends over
relationships of several tables (an untyped or multi-typed relationship): the planner puts the
filter right after the scan that binds what it reads, and the rows it keeps are then extended
wrongly. Measured on the example graph against Kuzu 0.11.3 and a count in Python over the
engine's own edge list (Kuzu's and Python's figure first):

    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z)                         RETURN count(*)  -- 25,683
    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z) WHERE id(b) IS NOT NULL RETURN count(*)  -- 18,183
    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z) WHERE b.nodeSymbol <> 'X' ...            -- 18,179
    MATCH (y)-->(c)-->(b {nodeSymbol: 'P754'})-->(z) RETURN count(*)         -- 80, Ladybug 41
    MATCH (o)<--(p)--(q {nodeSymbol: 'R1'})-->(o2) RETURN count(*)       -- 4,002, Ladybug 3,886

Any filter: identity tests (`id(b)`, `label(r)`, `r1 <> r2`), property tests and a node's
property map alike; none of them on Kuzu. Of 1,200 patterns of 3 and 4 relationships with an
always-true identity test on one element, in a MATCH, an OPTIONAL MATCH and a COUNT subquery,
384 counted other rows on Ladybug. Patterns of two relationships were right in every case
tried, and so was the same filter in a WITH's WHERE. The translator writes such filters
itself too (relationship uniqueness `_rel1 <> _rel2`, `label(x) = 'Room'` for label
predicates, `id()` ties).

Three changes keep every row:
- a MATCH (not OPTIONAL, not in a subquery) whose pattern, with the MATCHes the planner joins
  with it, has three relationships or more: the tests that read one node it binds, and that
  node's labels and property map, go to a MATCH of their own before it, `MATCH (b:Label
  {nodeSymbol: 'P754'}) WHERE ... WITH *`. The node then starts the pattern already bound, as
  selective as before (an anchor keeps the plan small);
- in each MATCH of two relationships or more (OPTIONAL too, and inside subqueries), the other
  WHERE operands become one `CASE WHEN v1 IS NULL OR ... THEN tests ELSE tests END` over every
  element the clause binds, and for a MATCH also the MATCHes the planner joins with it (back
  to the last WITH or OPTIONAL MATCH): the same value on every row, which the planner can
  only evaluate once all of them are bound. Anonymous elements get generated names so the
  test can name them. An OPTIONAL MATCH's or a subquery's CASE reads only the elements the
  clause binds itself, and tests that read an outer element stay as they are: a CASE reading
  an outer element there lost matches (an EXISTS from an outer node found nothing), and the
  outer element is bound before the pattern anyway;
- after a MATCH that filters, where a later clause matches again, a `WITH *`: the planner
  does not push a filter through it (a filter at the end of one MATCH still lost rows under
  the next).

On those 1,200 patterns the CASE and the WITH forms gave Kuzu's counts on every one; the
anchored forms above give 80 and 4,002.
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    all_of,
    any_of,
    child_of,
    clone,
    conjuncts,
    declared_names,
    element_name,
    hops,
    is_optional,
    name,
    names_outside,
    reads,
    rel_detail,
    star_with,
    tree,
    var,
)
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "filters after the pattern"


def defer_pattern_filters(root: Tree, names: FreshNames,
                           expand_stars: Callable[[Tree], None]) -> bool:
    """Rewrite every MATCH of the translation (see the module docstring); True when one
    changed. Subquery bodies get the CASE form only (they have no room for a WITH)."""
    elements = _element_names(root)
    changed = False
    for body, subquery in _bodies(root, None):
        outer = names_outside(root, subquery) if subquery is not None else None
        if body.data == "subquery_pattern":   # `EXISTS { (a)-->(b) WHERE ... }`
            changed |= _hops([body]) >= 2 and child_of(body, "where") is not None \
                and _test_after_pattern([body], elements, names, outer)
        elif _defer_in(body, elements, names, outer):
            changed = True
            if subquery is None:
                expand_stars(body)
    return changed


def _bodies(node: Tree, subquery: Tree | None) -> list[tuple[Tree, Tree | None]]:
    """Every single query and bare subquery pattern under `node`, with the subquery whose
    body it is (None: none)."""
    found: list[tuple[Tree, Tree | None]] = []
    for child in node.children:
        if not isinstance(child, Tree):
            continue
        if child.data in ("single_query", "subquery_pattern"):
            found.append((child, subquery))
        found += _bodies(child, child if child.data == "subquery" else subquery)
    return found


def _element_names(root: Tree) -> set[str]:
    """Names a pattern binds to a node or relationship anywhere in the query (a name used for
    a value elsewhere too is taken for an element: a needless rewrite changes no row)."""
    found: set[str] = set()
    for node in root.iter_subtrees():
        if (named := element_name(node)) is not None:
            found.add(plain_name(named))
    return found


def _defer_in(single: Tree, elements: set[str], names: FreshNames,
              outer: set[str] | None) -> bool:
    """`outer`: for a subquery's body, the names bound outside it (None: not a subquery)."""
    clauses = single.children
    changed = False
    # The first MATCH the planner may join with the current one: after the last WITH or
    # OPTIONAL MATCH (an OPTIONAL MATCH is planned on its own, after what came before it).
    start = 0
    k = 0
    while k < len(clauses):
        clause = clauses[k]
        if not isinstance(clause, Tree):
            k += 1
            continue
        if clause.data == "with_clause":
            start = k + 1
        elif clause.data == "match":
            optional = is_optional(clause)
            if outer is None and not optional and _hops(_joined(clauses, start, k)) >= 3:
                anchors = _anchor_clause(clause, elements, names, _declared_before(clauses, k))
                if anchors is not None:   # the MATCH's one-node tests, first, on their own
                    clauses[k:k] = [anchors, star_with()]
                    k += 2
                    start = k
                    changed = True
            if outer is not None or optional:
                joined = [clause]
                before = outer if outer is not None else _declared_before(clauses, k)
            else:
                joined, before = _joined(clauses, start, k), None
            if _hops(joined) >= 2 and child_of(clause, "where") is not None:
                changed |= _test_after_pattern(joined, elements, names, before)
            if outer is None and _filters(clause) and _matches_later(clauses, k):
                clauses.insert(k + 1, star_with())
                changed = True
                start = k + 2
                k += 1
            if optional:
                start = k + 1
        k += 1
    return changed


def _declared_before(clauses: list, k: int) -> set[str]:
    return {n for c in clauses[:k] if isinstance(c, Tree) for n in declared_names(c)}


def _joined(clauses: list, start: int, k: int) -> list[Tree]:
    return [c for c in clauses[start:k + 1] if isinstance(c, Tree) and c.data == "match"]


def _hops(matches: list[Tree]) -> int:
    return sum(1 for m in matches for _ in hops(child_of(m, "pattern_list")))


def _filters(match: Tree) -> bool:
    """Whether a MATCH filters its rows: a WHERE, or a property map on one of its nodes."""
    patterns = child_of(match, "pattern_list")
    return child_of(match, "where") is not None or any(
        child_of(node, "map_literal") is not None
        for node in patterns.find_data("node_pattern"))


def _anchor_clause(match: Tree, elements: set[str], names: FreshNames,
                   declared: set[str]) -> Tree | None:
    """`MATCH (n:Label {map}), ... WHERE tests` of the tests (and property maps) of `match`
    that read one node it binds and no other of its elements, taken out of it; None when
    there are none. Matched first and passed on by a WITH, such a node starts the pattern
    without a filter inside its plan, and stays as selective as it was."""
    for chain in _chains(match):   # `(:Room {nodeSymbol: 'R1'})`: named, to be matched first
        for node in chain.children:
            if node.data == "node_pattern" and child_of(node, "map_literal") is not None \
                    and child_of(node, "name") is None:
                elements.add(made := names.fresh("_node"))
                node.children.insert(0, name(made))
    where = child_of(match, "where")
    operands = conjuncts(where.children[0]) if where is not None else []
    own = set(_bound_elements(match)) - declared
    occurrences: dict[str, list[Tree]] = {}
    for chain in _chains(match):
        for node in chain.children:
            if node.data == "node_pattern" and (named := element_name(node)) is not None:
                occurrences.setdefault(plain_name(named), []).append(node)
    moved: list[Tree] = []
    nodes: list[Tree] = []
    for node_name, found in occurrences.items():
        if node_name not in own:
            continue
        tests = [o for o in operands if (reads(o, into_subqueries=True) & (own | elements))
                 == {node_name}]
        decorated = [n for n in found if len(n.children) > 1]
        if len(decorated) > 1 or not (tests or any(child_of(n, "map_literal") is not None
                                                   for n in decorated)):
            continue
        anchor = tree("node_pattern", name(node_name))
        for holder in decorated:
            anchor.children += holder.children[1:]
            holder.children[1:] = []
        nodes.append(tree("pattern", tree("chain", anchor)))
        moved += tests
    if not nodes:
        return None
    rest = [o for o in operands if not any(o is m for m in moved)]
    if where is not None:
        if rest:
            where.children[0] = all_of(rest)
        else:
            match.children.remove(where)
    anchors = tree("match", tree("pattern_list", *nodes))
    if moved:
        anchors.children.append(tree("where", all_of(moved)))
    return anchors


def _chains(match: Tree) -> list[Tree]:
    patterns = child_of(match, "pattern_list")
    return [p.children[-1] for p in patterns.children
            if isinstance(p.children[-1], Tree) and p.children[-1].data == "chain"]


def _test_after_pattern(joined: list[Tree], elements: set[str], names: FreshNames,
                        before: set[str] | None) -> bool:
    """The tests of the last of `joined` (the MATCHes the planner joins) that read an element,
    as one CASE that reads every element they bind. For an OPTIONAL MATCH or a subquery's MATCH,
    `before` holds the names bound before it: the CASE reads only the elements the clause
    binds itself, and tests that read an earlier element stay as they are. A CASE reading an
    outer element there lost matches (an EXISTS from an outer node found nothing), and an
    outer element is bound before the pattern is matched anyway. Whether one changed."""
    outside = before or set()
    named = {e for match in joined for e in _bound_elements(match)} - outside
    where = child_of(joined[-1], "where")
    operands = conjuncts(where.children[0])
    # (a test reading no element, `false` or an outer value, does not wait for the pattern)
    tests = [o for o in operands if (read := reads(o, into_subqueries=True) & elements)
             and not (before is not None and read - named)]
    if not tests:
        return False
    bound: list[str] = []
    for match in joined:
        elements.update(_name_elements(match, names))
        for element in _bound_elements(match):
            if element not in bound and element not in outside:
                bound.append(element)
    test = all_of(tests) if len(tests) == 1 else tree("paren", all_of(tests))
    unbound = any_of([tree("is_null", var(n)) for n in bound])
    deferred = tree("case_expr", tree("case_when", unbound, test), clone(test))
    where.children[0] = all_of([o for o in operands if o not in tests] + [deferred])
    return True


def _matches_later(clauses: list, k: int) -> bool:
    """Whether a clause after `k` matches again before a WITH or RETURN that does not (a
    correlated subquery in a projection counts)."""
    for clause in clauses[k + 1:]:
        if not isinstance(clause, Tree):
            continue
        if clause.data in ("with_clause", "return_clause"):
            return any(True for _ in clause.find_data("subquery"))
        if clause.data == "match" or any(True for _ in clause.find_data("subquery")):
            return True
    return False


def _name_elements(match: Tree, names: FreshNames) -> list[str]:
    """Name the anonymous nodes and fixed-length relationships of a MATCH's pattern list (not
    of the subqueries in its WHERE): the identity test depends on every one of them."""
    made: list[str] = []
    patterns = child_of(match, "pattern_list")
    if patterns is None:
        return made
    for node in (n for chain in _chains(match) for n in chain.children):
        if node.data == "node_pattern" and element_name(node) is None:
            made.append(fresh := names.fresh("_node"))
            node.children.insert(0, name(fresh))
    for _left, rel, _right, parts in hops(patterns):
        if "name" in parts or "var_length" in parts:
            continue   # a variable-length relationship's ends are named
        made.append(fresh := names.fresh("_rel"))
        detail = rel_detail(rel)
        if detail is None:
            rel.children.append(tree("rel_detail", name(fresh)))
        else:
            detail.children.insert(0, name(fresh))
    return made


def _bound_elements(match: Tree) -> list[str]:
    """The names a MATCH's pattern list binds to nodes and relationships, in order."""
    patterns = child_of(match, "pattern_list")
    if patterns is None:
        return []
    return [plain_name(named) for node in patterns.iter_subtrees_topdown()
            if (named := element_name(node)) is not None]
