"""Filters that read a node's or relationship's identity run after the pattern (Ladybug bug).

Ladybug 0.22.0 loses rows when a filter that reads an element's internal id (`id(b)`,
`label(b)`, `b = x`, `r1 <> r2`, even `id(b) IS NOT NULL`) runs early in a plan that then
extends from that element over relationships of several tables. Measured on the example
graph, where the filter is true on every row (Kuzu 0.11.3 and Neo4j: 25,683 rows each time):

    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z)                         RETURN count(*)  -- 25,683
    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z) WHERE id(b) IS NOT NULL RETURN count(*)  -- 18,183
    MATCH (y)-[r0]->(c)-[r1]->(b)-[r2]->(z) WHERE label(r1) <> 'X'  RETURN count(*)  -- 18,183

The planner pushes the filter to just after the scan that binds what it reads; the rows it
keeps are then extended wrongly. Property reads (`b.nodeSymbol IS NOT NULL`) are right, and so
is the same filter in a WITH's WHERE. The defect is not only a model's: the translator writes
such filters itself (relationship uniqueness `_rel1 <> _rel2`, `label(x) = 'Room'` for label
predicates, `id()` ties). Of 1,200 patterns of 3 and 4 relationships, with a filter that is
always true on one of their elements, in a MATCH, an OPTIONAL MATCH and a COUNT subquery, 384
counted other rows on Ladybug; none on Kuzu.

Two changes keep every row:
- in each MATCH (OPTIONAL too, and inside subqueries), the WHERE operands that read an element's
  identity become one `CASE WHEN v1 IS NULL OR ... THEN tests ELSE tests END` over every
  element the clause binds, and for a MATCH also the MATCHes before it that the planner joins
  with it (back to the last WITH or OPTIONAL MATCH): the same value on every row, which the
  planner can only evaluate once all of them are bound. Anonymous elements get generated names
  so the test can name them. An OPTIONAL MATCH's test reads only its own pattern's elements:
  an outer value its WHERE reads becomes a join key (`outer_values.py`);
- after such a MATCH, where a later clause matches again, a `WITH *`: the planner does not
  push a filter through it (a filter at the end of one MATCH still lost rows under the next).

On the same 1,200 patterns both forms gave Kuzu's counts on every one.
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

REWRITE = "identity filters after the pattern"


def defer_identity_filters(root: Tree, names: FreshNames,
                           expand_stars: Callable[[Tree], None]) -> bool:
    """Rewrite every MATCH of the translation (see the module docstring); True when one
    changed. Subquery bodies get the CASE form only (they have no room for a WITH)."""
    elements = _element_names(root)
    changed = False
    for body, subquery in _bodies(root, None):
        outer = names_outside(root, subquery) if subquery is not None else None
        if body.data == "subquery_pattern":   # `EXISTS { (a)-->(b) WHERE ... }`
            changed |= _tests_identity(body, elements) \
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
        if node.data in ("node_pattern", "rel_detail") and node.children \
                and isinstance(node.children[0], Tree) and node.children[0].data == "name":
            found.add(plain_name(node.children[0]))
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
        elif clause.data == "match" and _tests_identity(clause, elements):
            if outer is not None or is_optional(clause):
                joined = [clause]
                before = outer if outer is not None else {
                    n for c in clauses[:k] if isinstance(c, Tree) for n in declared_names(c)}
            else:
                joined = [c for c in clauses[start:k + 1]
                          if isinstance(c, Tree) and c.data == "match"]
                before = None
            if any(True for m in joined for _ in hops(child_of(m, "pattern_list"))):
                changed |= _test_after_pattern(joined, elements, names, before)
            if outer is None and _matches_later(clauses, k):
                clauses.insert(k + 1, star_with())
                changed = True
                start = k + 2
                k += 1
        if clause.data == "match" and is_optional(clause):
            start = k + 1
        k += 1
    return changed


def _tests_identity(match: Tree, elements: set[str]) -> bool:
    where = child_of(match, "where")
    return where is not None and any(_reads_identity(o, elements)
                                     for o in conjuncts(where.children[0]))


def _test_after_pattern(joined: list[Tree], elements: set[str], names: FreshNames,
                        before: set[str] | None) -> bool:
    """The identity tests of the last of `joined` (the MATCHes the planner joins) as one
    CASE that reads every element they bind. For an OPTIONAL MATCH or a subquery's MATCH,
    `before` holds the names bound before it: the CASE reads only the elements the clause
    binds itself, and tests that read an earlier element stay as they are. A CASE reading an
    outer element there lost matches (an EXISTS from an outer node found nothing), and an
    outer element is bound before the pattern is matched anyway. Whether one changed."""
    outside = before or set()
    named = {e for match in joined for e in _bound_elements(match)} - outside
    where = child_of(joined[-1], "where")
    operands = conjuncts(where.children[0])
    tests = [o for o in operands if _reads_identity(o, elements)
             and not (before is not None and (reads(o, into_subqueries=True) & elements) - named)]
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
    chains = [p.children[-1] for p in patterns.children
              if isinstance(p.children[-1], Tree) and p.children[-1].data == "chain"]
    for node in (n for chain in chains for n in chain.children):
        if node.data == "node_pattern" and not (
                node.children and isinstance(node.children[0], Tree)
                and node.children[0].data == "name"):
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
    return [plain_name(node.children[0]) for node in patterns.iter_subtrees_topdown()
            if node.data in ("node_pattern", "rel_detail") and node.children
            and isinstance(node.children[0], Tree) and node.children[0].data == "name"]


def _reads_identity(node: object, elements: set[str]) -> bool:
    """Whether an expression reads a node or relationship other than through a property
    (`b.nodeSymbol` is a property read; `b`, `id(b)`, `label(b)` read its identity). A
    subquery's own filters are rewritten where they stand."""
    if not isinstance(node, Tree):
        return False
    if node.data == "var":
        return plain_name(node.children[0]) in elements
    if node.data == "subquery":
        return False
    if node.data == "prop":
        base = node.children[0]
        return not (isinstance(base, Tree) and base.data == "var") \
            and _reads_identity(base, elements)
    children = node.children[1:] if node.data == "call" else node.children
    return any(_reads_identity(c, elements) for c in children)
