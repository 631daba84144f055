"""Cypher that Neo4j 5 no longer accepts: a syntax error there, so a syntax error here.

Heracles runs Neo4j 5.25 (its docker-compose), which rejects at compile time what older Cypher
allowed and models still write from older examples; Kuzu and Ladybug answer some of it (`rels(p)`,
`length('abc')`) and the translator once rewrote the rest. A query that fails on Heracles'
graph must fail here, or a model scores here for what Heracles marks wrong:

- `exists(n.prop)`: removed in Neo4j 5.0 (`n.prop IS NOT NULL`); exists() takes one pattern;
- `size((a)-->(b))`, a pattern expression anywhere but a boolean place (a WHERE, NOT, AND/OR,
  a CASE's WHEN, `exists(...)`): removed in 5.0 (`COUNT { (a)-->(b) }`, a pattern
  comprehension); the error text is Neo4j's own;
- `length()` of a string or a list: 5.0 keeps it for paths (`size()`);
- `toInt()`, `rels()`, `filter()`, `extract()`: removed in 4.0 (`toInteger()`,
  `relationships()`, list comprehensions);
- a type mismatch Neo4j's semantic analysis finds on a path or a list of nodes, relationships
  or paths (`SemanticExpressionCheck`, `SemanticFunctionCheck`): `type(r)`, `startNode(r)` or
  `endNode(r)` of a variable-length relationship list ("Type mismatch: expected Relationship
  but was List<Relationship>"), `p.length` of a path or `rs.x` of a list ("expected Map,
  Node, Relationship, Point, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but
  was Path"), `p['x']` of a path. The engines refuse them with binder errors of their own,
  which would leave the model uncharged.

Read on the original tree, before any rewrite, so the translator's own calls (it writes Kuzu's
`rels()`) are never mistaken for the model's.
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.neo4j_functions import NEO4J_5_FUNCTIONS, PLUGIN_PREFIXES
from dsgqa.dialect.trees import function_name
from dsgqa.dialect.types import UNKNOWN

_REMOVED_FUNCTIONS = {
    "toint": "toInteger()", "rels": "relationships()", "distance": "point.distance()",
    "filter": "a list comprehension [x IN list WHERE ...]",
    "extract": "a list comprehension [x IN list | ...]",
}
# Where a pattern expression is a test of existence (Neo4j 5 allows it only there).
_BOOLEAN_PLACES = frozenset({"where", "not_", "and_", "or_", "xor_", "case_when", "where_arg"})
_SIZE_MESSAGE = ("A pattern expression should only be used in order to test the existence of a "
                 "pattern. It can no longer be used inside the function size(), an alternative "
                 "is to replace size() with COUNT {}.")
# The static types (`types.py`) whose values Neo4j types as these, for its messages; only
# the ones a pattern or a path function gives (a list literal's may be wider to Neo4j).
_NEO4J_TYPES = {"path": "Path", "list<rel>": "List<Relationship>", "list<node>": "List<Node>",
                "list<path>": "List<Path>"}
_RELATIONSHIP_FUNCTIONS = frozenset({"type", "startnode", "endnode"})
_PROPERTY_HOLDERS = ("Map, Node, Relationship, Point, Duration, Date, Time, LocalTime, "
                     "LocalDateTime or DateTime")
_PATTERN_MESSAGE = ("A pattern expression should only be used in order to test the existence of "
                    "a pattern (in a WHERE, or inside exists()); use a pattern comprehension or "
                    "COUNT {} for anything else.")


# A name before `(`: a function's, or a keyword's (`WHERE (`, `EXISTS (`, `shortestPath(`).
_CALLED = re.compile(r"(?<![\w.$`])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(")
_QUOTED_CALL = re.compile(r"`[^`]*`\s*\(")   # `pow`(2, 3) is a call of pow
_NOT_CALLS = frozenset({
    "match", "where", "and", "or", "xor", "not", "in", "call", "exists", "count", "collect",
    "return", "with", "unwind", "as", "when", "then", "else", "case", "is", "optional",
    "shortestpath", "allshortestpaths", "distinct", "by", "union", "all", "skip", "limit",
    "order", "yield", "desc", "asc", "descending", "ascending",
})   # not `contains`: `contains(a, b)` is no Neo4j function, and the tree tells it from the
#      operator (`x CONTAINS ('a')`)


def may_call_unknown_functions(text: str) -> bool:
    """Whether the text names, before a `(`, a word that is neither a Neo4j function nor a
    keyword (the tree decides: the word may sit in a string)."""
    return _QUOTED_CALL.search(text) is not None or any(
        word.lower() not in NEO4J_5_FUNCTIONS and word.lower() not in _NOT_CALLS
        for word in (re.sub(r"\s+", "", m) for m in _CALLED.findall(text)))


def refuse_unknown_functions(root: Tree) -> None:
    """Neo4j's "Unknown function" for a call of a name Neo4j 5 does not have (`syntax`, the
    model's fault, as on Neo4j: `neo4j_functions.py`); a plugin's is refused elsewhere."""
    for node in root.iter_subtrees():
        if node.data in ("call", "call_distinct", "call_star"):
            fname = _callee(node)
            if fname and fname not in NEO4J_5_FUNCTIONS and fname not in _REMOVED_FUNCTIONS \
                    and not fname.startswith(PLUGIN_PREFIXES):
                raise CypherSyntaxError(f"Unknown function '{function_name(node.children[0])}'"
                                        " (not a Neo4j 5 function)")


def refuse_bang_equals(root: Tree) -> None:
    """`!=`, which Neo4j 5 rejects ("Unknown operation '!=' (you probably meant to use '<>',
    which is the operator for inequality testing)"); the engines take it for `<>`."""
    for node in root.iter_subtrees():
        if node.data == "compare" and any(str(c) == "!=" for c in node.children[1::2]):
            raise CypherSyntaxError("Unknown operation '!=' (you probably meant to use '<>', "
                                    "which is the operator for inequality testing)")


def _callee(node: Tree) -> str:
    return function_name(node.children[0]).lower() if isinstance(node.children[0], Tree) else ""


def _check_call(node: Tree) -> None:
    fname = _callee(node)
    args = [c for c in node.children[1:] if isinstance(c, Tree)]
    if fname in _REMOVED_FUNCTIONS:
        raise CypherSyntaxError(f"Unknown function '{fname}': removed from Cypher (Neo4j 5 "
                                f"has {_REMOVED_FUNCTIONS[fname]})")
    if fname == "exists" and (len(args) != 1 or args[0].data != "pattern_predicate"):
        raise CypherSyntaxError("exists() takes one pattern in Neo4j 5 (of a property it is no "
                                "longer supported: use `n.prop IS NOT NULL`)")
    if fname in _RELATIONSHIP_FUNCTIONS and len(args) == 1 \
            and getattr(args[0], "ctype", UNKNOWN) in _NEO4J_TYPES:
        raise CypherSyntaxError(f"Type mismatch: expected Relationship but was "
                                f"{_NEO4J_TYPES[args[0].ctype]}")
    if fname == "length" and len(args) == 1:
        kind = getattr(args[0], "ctype", UNKNOWN)
        if kind == "str" or kind.startswith("list<"):
            raise CypherSyntaxError(f"Type mismatch: length() takes a path in Neo4j 5, not a "
                                    f"{'string' if kind == 'str' else 'list'} (use size())")


def _check_key_access(node: Tree) -> None:
    """`x.key` or `x['key']` of a path or a list (Neo4j's type check of a property read)."""
    kind = getattr(node.children[0], "ctype", UNKNOWN)
    if kind not in _NEO4J_TYPES:
        return
    if node.data == "prop":
        raise CypherSyntaxError(f"Type mismatch: expected {_PROPERTY_HOLDERS} but was "
                                f"{_NEO4J_TYPES[kind]}")
    key = node.children[1]
    if kind == "path" and isinstance(key, Tree) and key.data == "str_lit":
        raise CypherSyntaxError("Type mismatch: expected Map, Node or Relationship but was Path")


def _check(node: Tree, parent: Tree | None) -> None:
    if node.data == "paren":  # `WHERE ((a)-->())` is where its parent is
        for child in node.children:
            if isinstance(child, Tree):
                _check(child, parent)
        return
    if node.data in ("list_comp", "list_comp_map") and isinstance(node.children[0], Tree) \
            and node.children[0].data == "compare" \
            and isinstance(node.children[0].children[-1], Tree) \
            and node.children[0].children[-1].data == "pattern_predicate":
        # `[p = (a)-->(b) | length(p)]`: valid Neo4j, a path the comprehension names
        raise DialectError("a pattern comprehension naming its path (`[p = (a)-->(b) | ...]`)")
    if node.data == "call":
        _check_call(node)
    elif node.data in ("prop", "index") and not (
            parent is not None and parent.data in ("call", "call_star", "call_distinct")
            and parent.children[0] is node):   # `point.distance(..)` names a function
        _check_key_access(node)
    elif node.data == "pattern_predicate" and parent is not None:
        if parent.data == "call" and _callee(parent) == "size":
            raise CypherSyntaxError(_SIZE_MESSAGE)
        if parent.data not in _BOOLEAN_PLACES and not (
                parent.data == "call" and _callee(parent) == "exists") \
                and parent.data not in ("list_comp", "list_comp_map"):
            raise CypherSyntaxError(_PATTERN_MESSAGE)
    for child in node.children:
        if isinstance(child, Tree):
            _check(child, node)


def refuse_removed_syntax(root: Tree) -> None:
    """Raise `CypherSyntaxError` for Cypher Neo4j 5 rejects (see the module)."""
    _check(root, None)
