"""Queries Neo4j 5 rejects when it compiles them: a syntax error here too.

The grammar reads more than Neo4j accepts, and the engines refuse some of it with binder
messages that also fire on valid Neo4j (Kuzu's "nested aggregation" does for a quantifier over a
collected list), so the engine's refusal could only be `dialect`: the model went uncharged for
its own error. Each check here is Neo4j's semantic analysis of the query as written:

- an aggregate inside an aggregate (`max(count(m))`): "Can't use aggregate functions inside
  of aggregate functions.";
- a query that does not end in RETURN (`MATCH (r) WITH r`): "Query cannot conclude with ...";
- one relationship variable for two relationships of one MATCH (`(a)-[e]->(b)-[e]->(c)`);
- `RETURN *` where no variable is in scope (`MATCH (:Room)-->(:MeshPlace) RETURN *`);
- a UNION, in a subquery too, that mixes UNION and UNION ALL or whose parts name their
  columns differently.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.order_barrier import AGGREGATES
from dsgqa.dialect.trees import (
    child_of,
    declared_outside_subqueries,
    function_name,
    rel_detail,
)

_CONCLUDING = {"with_clause": "WITH", "match": "MATCH", "unwind": "UNWIND"}
_AGGREGATE_CALL = re.compile(r"\b(?:collect|count|sum|avg|min|max|stdevp?|percentile\w*)\s*\(",
                             re.IGNORECASE)
_NAMED_RELATIONSHIP = re.compile(r"\[\s*`?\w")
_UNION = re.compile(r"\bUNION\b", re.IGNORECASE)


def _aggregate(node: Tree) -> str | None:
    """The name of the aggregate `node` calls, or None."""
    if node.data in ("call", "call_distinct", "call_star") and isinstance(node.children[0], Tree):
        fname = function_name(node.children[0]).lower()
        return fname if fname in AGGREGATES else None
    return None


def _nested_aggregates(node: Tree, inside: bool) -> None:
    if node.data == "subquery":   # COUNT { } / COLLECT { } aggregate their own rows
        return
    is_aggregate = _aggregate(node) is not None
    if is_aggregate and inside:
        raise CypherSyntaxError("Can't use aggregate functions inside of aggregate functions.")
    for child in node.children:
        if isinstance(child, Tree):
            _nested_aggregates(child, inside or is_aggregate)


def _repeated_relationships(match: Tree) -> None:
    """Within the MATCH's own patterns (a subquery or a WHERE may read the same relationship
    again: that is the one the MATCH bound)."""
    seen: set[str] = set()
    stack = [child_of(match, "pattern_list")]
    while stack:
        sub = stack.pop()
        if sub is None or sub.data in ("subquery", "map_literal", "where"):
            continue
        stack.extend(reversed([c for c in sub.children if isinstance(c, Tree)]))
        if sub.data.startswith("rel_") and sub.data != "rel_detail":
            detail = rel_detail(sub)
            named = next((c for c in detail.children if isinstance(c, Tree)
                          and c.data == "name"), None) if detail is not None else None
            if named is None:
                continue
            name = plain_name(named)
            if name in seen:
                raise CypherSyntaxError(f"Cannot use the same relationship variable '{name}' "
                                        "for multiple relationships")
            seen.add(name)


def _column_names(part: Tree) -> tuple[str, ...] | None:
    """The names of the columns a UNION part returns (aliases and bare variables), or None
    where one is an expression without an alias or a `*` (its name is its text)."""
    last = part.children[-1] if part.children else None
    if not (isinstance(last, Tree) and last.data == "return_clause"):
        return None
    names = []
    for item in child_of(last.children[0], "proj_items").children:
        if not isinstance(item, Tree):
            return None
        if len(item.children) == 2:
            names.append(plain_name(item.children[1]))
        elif item.children[0].data == "var":
            names.append(plain_name(item.children[0].children[0]))
        else:
            return None
    return tuple(names)


def _union_errors(query: Tree) -> None:
    """Neo4j's two checks of a UNION, on every query of the tree (a subquery's too)."""
    unions = [c for c in query.children if isinstance(c, Tree) and c.data == "union"]
    if not unions:
        return
    if len({len(u.children) for u in unions}) > 1:
        raise CypherSyntaxError("Invalid combination of UNION and UNION ALL")
    names = [_column_names(p) for p in query.children
             if isinstance(p, Tree) and p.data == "single_query"]
    # by name, in any order: Neo4j lines the columns up by name (`projection_checks.py`)
    if None not in names and len({frozenset(n) for n in names if n is not None}) > 1:
        raise CypherSyntaxError("All sub queries in an UNION must have the same return column "
                                "names")


def _top_level_parts(root: Tree) -> list[Tree]:
    query = root.children[0] if root.data == "start" else root
    return [p for p in query.children if isinstance(p, Tree) and p.data == "single_query"]


def refuse_compile_errors(root: Tree, text: str) -> None:
    """Raise Neo4j's `CypherSyntaxError` for the first such error in the parsed query; `text`,
    the query's, says which checks can find one (each walk costs time on every query)."""
    if len(_AGGREGATE_CALL.findall(text)) > 1:
        _nested_aggregates(root, False)
    if _UNION.search(text):
        for query in root.iter_subtrees():
            if query.data == "query":
                _union_errors(query)
    if _NAMED_RELATIONSHIP.search(text):
        for match in root.iter_subtrees():
            if match.data == "match":
                _repeated_relationships(match)
    for part in _top_level_parts(root):
        clauses = [c for c in part.children if isinstance(c, Tree)]
        if clauses and clauses[-1].data in _CONCLUDING:
            raise CypherSyntaxError(f"Query cannot conclude with {_CONCLUDING[clauses[-1].data]}"
                                    " (must be a RETURN clause, a FINISH clause, an update "
                                    "clause, a unit subquery call, or a procedure call with no "
                                    "YIELD)")
        declared: set[str] = set()
        for clause in clauses if "*" in text else ():
            if clause.data.startswith("call"):
                break   # a CALL { } returns names its body declares
            if clause.data == "return_clause" and not declared and any(
                    isinstance(c, Token) for c in child_of(clause.children[0],
                                                           "proj_items").children):
                raise CypherSyntaxError("RETURN * is not allowed when there are no variables "
                                        "in scope")
            declared |= declared_outside_subqueries(clause)
