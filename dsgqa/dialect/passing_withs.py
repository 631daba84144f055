"""A WITH inside a subquery that only passes names on, dropped.

Models close a subquery's MATCH with a WITH before its RETURN, or filter there:

    COLLECT { MATCH (r)-[:CONTAINS]->(m:MeshPlace) WITH m RETURN m.nodeSymbol }
    EXISTS { MATCH (r)-->(m) WITH m WHERE m.class = 'floor' RETURN m }

The engines take a subquery of one MATCH (with its WHERE) only, and the other passes read that
shape. A WITH whose items are names as they are (no DISTINCT, aggregate, ORDER BY, SKIP or
LIMIT) keeps every row and changes no value: right after a MATCH that is not OPTIONAL it can
go, its WHERE joining the MATCH's (a MATCH's WHERE filters the same rows). Only where every
name after it is one it kept, or a new one declared there that no other part of the query
uses: a name it dropped would be a new variable there.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    all_of,
    child_of,
    declared_names,
    declared_outside_subqueries,
    is_optional,
    names_outside,
    reads,
    tree,
)

REWRITE = "WITH passing names on in a subquery->dropped"


def _passes_names(clause: Tree) -> set[str] | None:
    """The names a WITH passes on when it only passes names as they are, else None."""
    projection = clause.children[0]
    if any(not isinstance(c, Tree) or c.data != "proj_items" for c in projection.children):
        return None   # DISTINCT, ORDER BY, SKIP, LIMIT
    kept: set[str] = set()
    for item in child_of(projection, "proj_items").children:
        if not isinstance(item, Tree) or item.children[0].data != "var" or (
                len(item.children) == 2 and plain_name(item.children[1])
                != plain_name(item.children[0].children[0])):
            return None
        kept.add(plain_name(item.children[0].children[0]))
    return kept


def _named_after(clauses: list[Tree]) -> set[str]:
    """Every variable the clauses read or declare (inside their subqueries too)."""
    return {n for clause in clauses
            for n in reads(clause, into_subqueries=True) | declared_names(clause)}


def _simplify(single: Tree, elsewhere: set[str]) -> bool:
    """`elsewhere`: the names the query uses outside this subquery."""
    changed = False
    clauses = single.children
    k = 1
    while k < len(clauses):
        clause, previous = clauses[k], clauses[k - 1]
        kept = _passes_names(clause) if isinstance(clause, Tree) \
            and clause.data == "with_clause" else None
        if kept is None or not (isinstance(previous, Tree) and previous.data == "match"
                                and not is_optional(previous)):
            k += 1
            continue
        later = clauses[k + 1:]
        fresh = {n for c in later for n in declared_outside_subqueries(c)} - elsewhere \
            - _named_after(clauses[:k])
        if not _named_after(later) <= kept | fresh:
            k += 1
            continue
        where = child_of(clause, "where")
        if where is not None:
            own = child_of(previous, "where")
            if own is None:
                previous.children.append(where)
            else:
                own.children[0] = all_of([tree("paren", own.children[0]),
                                          tree("paren", where.children[0])])
        del clauses[k]
        changed = True
    return changed


def drop_passing_withs(root: Tree) -> bool:
    """Drop such WITHs in every subquery body under `root`; True when one was."""
    changed = False
    for sub in root.iter_subtrees():
        if sub.data != "subquery" or not isinstance(sub.children[1], Tree) \
                or sub.children[1].data != "query":
            continue
        elsewhere = names_outside(root, sub, reads=True)
        for single in sub.children[1].children:
            if isinstance(single, Tree) and single.data == "single_query":
                changed |= _simplify(single, elsewhere)
    return changed

