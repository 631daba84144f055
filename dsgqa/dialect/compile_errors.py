"""Queries Neo4j 5 rejects when it compiles them: a syntax error here too.

The grammar reads more than Neo4j accepts, and the engines refuse some of it with binder
messages that also fire on valid Neo4j (Kuzu's "nested aggregation" does for a quantifier over a
collected list), so the engine's refusal could only be `dialect`: the model went uncharged for
its own error. Each check here is Neo4j's semantic analysis of the query as written:

- an aggregate inside an aggregate (`max(count(m))`): "Can't use aggregate functions inside
  of aggregate functions.";
- an aggregate inside what a comprehension, a quantifier, `reduce()` or a pattern
  comprehension evaluates per element (`any(x IN collect(m) WHERE count(m) > 3)`); the list
  walked may be one (`[x IN collect(m) | x.a]`);
- a query, or a CALL { } body, that does not end in RETURN (`MATCH (r) WITH r`) or ends in a
  CALL { } that returns rows: "Query cannot conclude with ..."; a RETURN before another clause;
- one relationship variable for two relationships of one MATCH (`(a)-[e]->(b)-[e]->(c)`);
- `RETURN *` where no variable is in scope (`MATCH (:Room)-->(:MeshPlace) RETURN *`);
- a UNION, in a subquery too, that mixes UNION and UNION ALL or whose parts name their
  columns differently (a part that ends in FINISH has none);
- a SKIP or LIMIT that reads a variable (`LIMIT rooms`): "It is not allowed to refer to
  variables in LIMIT" (`ASTSlicingPhrase.containsNoVariables`);
- a `shortestPath(..)` / `allShortestPaths(..)`, in a MATCH or as an expression, whose
  pattern has other than one relationship, a property map on it, or a minimal length other
  than 0 or 1 (`SemanticPatternCheck`'s `checkContainsSingle` and `checkLength`: "...
  requires a pattern containing a single relationship", "... does not support a minimal
  length different from 0 or 1"); the engines refuse the last with a binder error of their
  own ("Lower bound of shortest/all_shortest path must be 1"), which would leave the model
  uncharged;
- FINISH before another clause: "FINISH can only be used at the end of the query.";
- a COLLECT { } whose RETURN has more than one column: "A Collect Expression must end with a
  single return column." (`CollectExpression`'s semantic check);
- the scope errors of `scope_errors.py` (names declared twice, of two kinds, or not at all).
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError
from dsgqa.dialect.order_barrier import AGGREGATES, is_aggregate_call
from dsgqa.dialect.scope_errors import refuse_scope_errors
from dsgqa.dialect.trees import (
    BINDERS,
    child_of,
    comprehension_pattern,
    declared_outside_subqueries,
    function_name,
    reads,
    rel_detail,
    text_of,
    union_parts,
)

_CONCLUDING = {"with_clause": "WITH", "match": "MATCH", "unwind": "UNWIND"}
_AGGREGATE_CALL = re.compile(r"\b(?:collect|count|sum|avg|min|max|stdevp?|percentile\w*)\s*\(",
                             re.IGNORECASE)
_UNION = re.compile(r"\bUNION\b", re.IGNORECASE)
_IN = re.compile(r"\bIN\b", re.IGNORECASE)
_RETURN = re.compile(r"\bRETURN\b", re.IGNORECASE)
_CALL = re.compile(r"\bCALL\b", re.IGNORECASE)
# A SKIP or LIMIT of anything but a number written out.
_COMPUTED_SLICE = re.compile(r"\b(?:SKIP|OFFSET|LIMIT)\s+[^\s\d]", re.IGNORECASE)
_SHORTEST = re.compile(r"shortestpaths?\s*\(", re.IGNORECASE)
# Neo4j's names of the two functions, as its messages spell them.
_SHORTEST_NAMES = {"shortestpath": "shortestPath", "allshortestpaths": "allShortestPaths"}
_FINISH = re.compile(r"\bFINISH\b", re.IGNORECASE)
_COLLECT_BRACE = re.compile(r"\bCOLLECT\s*\{", re.IGNORECASE)
# `\u` without four hexadecimal digits after it (and its u's), where no backslash escapes it:
# Neo4j reads `\uXXXX` anywhere in the query before it lexes (`CypherInputStream`) and raises
# "Invalid input 'x': expected four hexadecimal digits specifying a unicode character".
_BAD_UNICODE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u(?!u*[0-9a-fA-F]{4})")
# Neo4j's own spelling of the aggregating functions its message names.
_AGGREGATE_SPELLING = {"stdev": "stDev", "stdevp": "stDevP", "percentilecont": "percentileCont",
                       "percentiledisc": "percentileDisc"}


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


def _per_element(node: Tree) -> list[Tree]:
    """What a comprehension, a quantifier, `reduce()`'s step or a pattern comprehension
    evaluates once per element (its WHERE, its `|` expression), not the list it walks; []
    for any other tree."""
    if node.data not in BINDERS or not node.children or not isinstance(node.children[0], Tree):
        return []
    if node.children[0].data == "in_" or comprehension_pattern(node) is not None:
        return [c for c in node.children[1:] if isinstance(c, Tree)]
    return []


def _outside_subqueries(node: Tree) -> list[Tree]:
    """`node` and the trees below it, in order, those of a COUNT / COLLECT / EXISTS subquery
    left out (its RETURN aggregates its own rows)."""
    found, stack = [], [node]
    while stack:
        sub = stack.pop()
        if sub.data == "subquery":
            continue
        found.append(sub)
        stack.extend(reversed([c for c in sub.children if isinstance(c, Tree)]))
    return found


def _lambda_aggregates(root: Tree) -> None:
    """Neo4j checks what a lambda evaluates per element in its simple expression context
    (`SemanticExpressionCheck`: `FilteringExpressions.checkInnerPredicate`,
    `checkInnerListComprehension`, `ReduceExpression`, `PatternComprehension`), where an
    aggregating function is an error (`SemanticFunctionCheck`: "Invalid use of aggregating
    function count(...) in this context"), raised first; `count(*)` is no function call, and
    only `failIfAggregating` of a comprehension, a quantifier or reduce() rejects it. The
    engines cannot hold either, and `lambda_aggregates.py` would lift it out of the lambda:
    rows where Neo4j has none."""
    for node in root.iter_subtrees_topdown():
        inside = [sub for part in _per_element(node) for sub in _outside_subqueries(part)
                  if is_aggregate_call(sub)]
        called = next((sub for sub in inside if sub.data != "call_star"), None)
        if called is not None:
            written = function_name(called.children[0]).lower()
            raise CypherSyntaxError(
                f"Invalid use of aggregating function "
                f"{_AGGREGATE_SPELLING.get(written, written)}(...) in this context")
        if inside and comprehension_pattern(node) is None:
            raise CypherSyntaxError("Can't use aggregating expressions inside of expressions "
                                    "executing over lists")


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
    parts = [p for p in query.children if isinstance(p, Tree) and p.data == "single_query"]
    finished = {_clauses(p)[-1].data == "finish" for p in parts}
    if len(finished) > 1:   # FINISH returns no column, a RETURN some
        raise CypherSyntaxError("All sub queries in an UNION must have the same return column "
                                "names")
    names = [_column_names(p) for p in parts]
    # by name, in any order: Neo4j lines the columns up by name (`projection_checks.py`)
    if None not in names and len({frozenset(n) for n in names if n is not None}) > 1:
        raise CypherSyntaxError("All sub queries in an UNION must have the same return column "
                                "names")


def _clauses(part: Tree) -> list[Tree]:
    return [c for c in part.children if isinstance(c, Tree)]


def _conclusion(part: Tree) -> None:
    """Neo4j's `SingleQuery.checkOrder` of a query or a CALL { } body: it ends in RETURN (a
    read query), or in a CALL { } whose body returns nothing (a unit subquery), not in a
    WITH, MATCH, UNWIND or a CALL { } that returns rows."""
    last = _clauses(part)[-1]
    if last.data == "call_subquery" and any(
            _clauses(p)[-1].data == "return_clause" for p in union_parts(last.children[-1])):
        concluding = "CALL"
    else:   # a standalone ORDER BY / SKIP / LIMIT is a WITH * (`parser.py`), named as written
        concluding = getattr(last, "standalone", None) or _CONCLUDING.get(last.data, "")
    if concluding:
        raise CypherSyntaxError(f"Query cannot conclude with {concluding} (must be a RETURN "
                                "clause, a FINISH clause, an update clause, a unit subquery "
                                "call, or a procedure call with no YIELD)")


def _finish_before_the_end(root: Tree) -> None:
    """`checkOrder`: "FINISH can only be used at the end of the query" (`MATCH (n) FINISH
    RETURN n`)."""
    for part in root.iter_subtrees():
        if part.data == "single_query" and any(
                c.data == "finish" for c in _clauses(part)[:-1]):
            raise CypherSyntaxError("FINISH can only be used at the end of the query.")


def _collect_columns(root: Tree) -> None:
    """Neo4j's `CollectExpression` check: every part of a COLLECT { } body returns one column
    (`COLLECT { MATCH .. RETURN m.a, m.b }`, a `RETURN *` beside another item)."""
    for node in root.iter_subtrees():
        if node.data != "subquery" or function_name(node.children[0]).lower() != "collect" \
                or node.children[1].data != "query":
            continue
        for part in union_parts(node.children[1]):
            last = _clauses(part)[-1]
            if last.data == "return_clause" \
                    and len(child_of(last.children[0], "proj_items").children) > 1:
                raise CypherSyntaxError("A Collect Expression must end with a single return "
                                        "column.")


def _return_before_the_end(root: Tree) -> None:
    """`checkOrder` of every query, a subquery's too: "RETURN can only be used at the end of
    the query" (`MATCH (r) RETURN r MATCH (m) RETURN m`)."""
    for part in root.iter_subtrees():
        if part.data == "single_query" and any(
                c.data == "return_clause" for c in _clauses(part)[:-1]):
            raise CypherSyntaxError("RETURN can only be used at the end of the query")


def _static_slices(root: Tree) -> None:
    """A SKIP or LIMIT must be computable before any row: no variable in it."""
    for node in root.iter_subtrees():
        if node.data in ("skip", "limit") and reads(node.children[0], into_subqueries=True):
            clause = node.data.upper()
            raise CypherSyntaxError(f"It is not allowed to refer to variables in {clause}, so "
                                    f"that the value for {clause} can be statically "
                                    "calculated.")


def _shortest_pattern(node: Tree) -> tuple[str, list[Tree]] | None:
    """Neo4j's name of the function and the relationships of its pattern, for a
    `shortestPath(..)` / `allShortestPaths(..)` of a MATCH (`path_function`) or an expression
    (a call of one pattern, or of a lone node); None for any other tree."""
    if node.data == "path_function":
        fname = plain_name(node.children[0]).lower()
        parts = node.children[1].children
    elif node.data == "call" and isinstance(node.children[0], Tree) and len(node.children) == 2:
        fname = function_name(node.children[0]).lower()
        argument = node.children[1]
        if not isinstance(argument, Tree) or argument.data not in (
                "pattern_predicate", "paren", "anon_node", "empty_node"):
            return None
        tail = child_of(argument, "pattern_tail")
        parts = [*argument.children, *(tail.children if tail is not None else ())]
    else:
        return None
    if fname not in _SHORTEST_NAMES:
        return None
    return _SHORTEST_NAMES[fname], [p for p in parts if isinstance(p, Tree)
                                    and p.data.startswith("rel_") and p.data != "rel_detail"]


def _minimal_length(detail: Tree | None) -> int | None:
    """The lower bound a relationship's `*n`, `*n..m` or `*n..` writes; None where it writes
    none (`*`, `*..m`, a single hop)."""
    length = child_of(detail, "var_length") if detail is not None else None
    bounds = next((c for c in length.children if isinstance(c, Tree)), None) \
        if length is not None else None
    if bounds is None or not bounds.children or not isinstance(bounds.children[0], Token) \
            or bounds.children[0].type != "INT":
        return None
    return int(str(bounds.children[0]), 0)


def _shortest_paths(root: Tree) -> None:
    """`SemanticPatternCheck` of every shortest path, in a MATCH or an expression: one
    relationship without properties, of minimal length 0 or 1."""
    for node in root.iter_subtrees_topdown():
        found = _shortest_pattern(node)
        if found is None:
            continue
        fname, rels = found
        if len(rels) != 1:
            raise CypherSyntaxError(f"{fname}(...) requires a pattern containing a single "
                                    "relationship")
        detail = rel_detail(rels[0])
        properties = child_of(detail, "map_literal") if detail is not None else None
        if properties is not None:
            raise CypherSyntaxError(f"{fname}(...) contains properties {text_of(properties)}. "
                                    "This is currently not supported.")
        minimal = _minimal_length(detail)
        if minimal is not None and minimal > 1:
            raise CypherSyntaxError(f"{fname}(...) does not support a minimal length different "
                                    "from 0 or 1")


def refuse_compile_errors(root: Tree, text: str) -> None:
    """Raise Neo4j's `CypherSyntaxError` for the first such error in the parsed query; `text`,
    the query's, says which checks can find one (each walk costs time on every query)."""
    if "\\u" in text and _BAD_UNICODE_ESCAPE.search(text):
        raise CypherSyntaxError("Invalid input: expected four hexadecimal digits specifying a "
                                "unicode character")
    if len(_AGGREGATE_CALL.findall(text)) > 1:
        _nested_aggregates(root, False)
    if _AGGREGATE_CALL.search(text) and (_IN.search(text) or "|" in text):
        _lambda_aggregates(root)
    if _UNION.search(text):
        for query in root.iter_subtrees():
            if query.data == "query":
                _union_errors(query)
    if len(_RETURN.findall(text)) > 1:
        _return_before_the_end(root)
    if _COMPUTED_SLICE.search(text):
        _static_slices(root)
    if _FINISH.search(text):
        _finish_before_the_end(root)
    if _COLLECT_BRACE.search(text):
        _collect_columns(root)
    for part in union_parts(root):
        _conclusion(part)
    if _CALL.search(text):
        for call in root.iter_subtrees():
            if call.data == "call_subquery":
                for part in union_parts(call.children[-1]):
                    _conclusion(part)
    if _SHORTEST.search(text):
        _shortest_paths(root)
    refuse_scope_errors(root, text)
    for part in union_parts(root) if "*" in text else ():
        declared: set[str] = set()
        for clause in _clauses(part):
            if clause.data.startswith("call"):
                break   # a CALL { } returns names its body declares
            if clause.data == "return_clause" and not declared and any(
                    isinstance(c, Token) for c in child_of(clause.children[0],
                                                           "proj_items").children):
                raise CypherSyntaxError("RETURN * is not allowed when there are no variables "
                                        "in scope")
            declared |= declared_outside_subqueries(clause)
