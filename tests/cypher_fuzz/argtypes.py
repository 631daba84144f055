"""The argument types of the functions that take strings, and when a wrong one is an error.

Neo4j checks a call twice. When the query is compiled, an argument whose type is known from the
text (a literal, or the result of a function with a fixed result type: `size()` is an INTEGER)
and is none of the types the function accepts is a type mismatch, whatever rows there are
(`toLower(size(n.name))`, `split(n.name, 1)`). An argument whose type is not known then (a
property: `n.center.x`) is checked when the call runs, on each row that reaches it
(`toUpper(n.center.x)` raises on the first node it is evaluated for).

`check` is the compile-time check. `may_raise` says, from the schema alone, whether a call in an
expression might raise when it runs, so the evaluator knows where to look for an error Neo4j
may meet before the whole pattern is matched.
"""

from __future__ import annotations

from tests.cypher_fuzz import ast as A
from tests.cypher_fuzz.values import CypherError

STRING = frozenset({"String"})
INTEGER = frozenset({"Integer"})
STRING_OR_LIST = frozenset({"String", "List<T>"})

# name -> the types each argument may have (Neo4j 5's function signatures)
SIGNATURES: dict[str, tuple[frozenset[str], ...]] = {
    "toUpper": (STRING,), "toLower": (STRING,), "trim": (STRING,), "ltrim": (STRING,),
    "rtrim": (STRING,), "replace": (STRING, STRING, STRING),
    "substring": (STRING, INTEGER, INTEGER), "left": (STRING, INTEGER),
    "right": (STRING, INTEGER), "split": (STRING, STRING_OR_LIST),
    "size": (STRING_OR_LIST,), "reverse": (STRING_OR_LIST,),
}

# functions whose result type is fixed, whatever their arguments
RESULT_TYPES: dict[str, str] = {
    **dict.fromkeys(("toUpper", "toLower", "trim", "ltrim", "rtrim", "replace", "substring",
                     "left", "right", "toString", "type", "elementId"), "String"),
    **dict.fromkeys(("size", "length", "toInteger", "sign"), "Integer"),
    **dict.fromkeys(("toFloat", "round", "ceil", "floor", "sqrt", "point.distance", "log",
                     "log10", "exp", "haversin", "atan2", "sin", "cos", "e", "pi"), "Float"),
    **dict.fromkeys(("split", "keys", "labels", "nodes", "relationships", "range", "tail"),
                    "List<T>"),
    "point": "Point", "properties": "Map",
}
_COMPARISONS = ("=", "<>", "<", "<=", ">", ">=", "IN", "STARTS WITH", "ENDS WITH",
                "CONTAINS", "=~", "AND", "OR", "XOR")


def static_type(e: A.Expr) -> frozenset[str] | None:
    """The type Neo4j's compiler gives `e`, or None where it is not known before the query
    runs (a property, a variable, a CASE, arithmetic: left to the run-time check here)."""
    if isinstance(e, A.Lit):
        v = e.value
        if v is None:
            return None
        if isinstance(v, bool):
            return frozenset({"Boolean"})
        return frozenset({{int: "Integer", float: "Float", str: "String"}[type(v)]})
    if isinstance(e, (A.ListLit, A.ListComp, A.PatternComp, A.Slice)):
        return frozenset({"List<T>"})
    if isinstance(e, A.MapLit):
        return frozenset({"Map"})
    if isinstance(e, A.Func):
        if e.name == "reverse":
            inner = static_type(e.args[0])
            return inner if inner in (STRING, frozenset({"List<T>"})) else None
        fixed = RESULT_TYPES.get(e.name)
        return frozenset({fixed}) if fixed else None
    if isinstance(e, A.Agg):
        return {"count": INTEGER, "collect": frozenset({"List<T>"})}.get(e.name)
    if isinstance(e, (A.Not, A.IsNull, A.Quant)):
        return frozenset({"Boolean"})
    if isinstance(e, A.BinOp) and e.op in _COMPARISONS:
        return frozenset({"Boolean"})
    if isinstance(e, A.Subquery):
        return frozenset({"Boolean"}) if e.kind == "EXISTS" else INTEGER
    return None


def check(query: A.Query) -> None:
    """Raise `CypherError` where Neo4j's compiler finds an argument of a type the function does
    not accept (before any row is read: the query fails on an empty graph too)."""
    for node in A.walk(query):
        if isinstance(node, A.Func) and node.name in SIGNATURES:
            for arg, accepted in zip(node.args, SIGNATURES[node.name], strict=False):
                found = static_type(arg)
                if found is not None and not found & accepted:
                    raise CypherError(f"Type mismatch: {node.name}() expected "
                                      f"{' or '.join(sorted(accepted))} but was "
                                      f"{' or '.join(sorted(found))}")


def _runtime_kind(e: A.Expr) -> str:
    """What a value of `e` is on Heracles' schema: 'str', 'num', 'list', or '?' (anything)."""
    if isinstance(e, A.Lit):
        v = e.value
        if isinstance(v, str):
            return "str"
        return "num" if isinstance(v, (int, float)) and not isinstance(v, bool) else "?"
    if isinstance(e, A.Prop):
        if e.key in ("nodeSymbol", "class", "name"):
            return "str"
        return "num" if e.key in ("x", "y", "z") else "?"
    if isinstance(e, A.Func):
        if e.name == "reverse":
            return _runtime_kind(e.args[0])
        fixed = RESULT_TYPES.get(e.name)
        return {"String": "str", "Integer": "num", "Float": "num", "List<T>": "list"}.get(
            fixed or "", "?")
    if isinstance(e, (A.ListLit, A.ListComp, A.PatternComp)):
        return "list"
    return "?"


def may_raise(e: object) -> bool:
    """Whether a string function under `e` may raise when it runs: an argument that is not
    surely of an accepted type, or a length that is not a non-negative literal."""
    for node in A.walk(e):
        if not isinstance(node, A.Func) or node.name not in SIGNATURES:
            continue
        first = _runtime_kind(node.args[0])
        if first == "?" or (first == "num") or (first == "list" and node.name not in (
                "size", "reverse")):
            return True
        if node.name in ("substring", "left", "right") and not all(
                isinstance(a, A.Lit) and isinstance(a.value, int) and a.value >= 0
                for a in node.args[1:]):
            return True
        if node.name == "split" and _runtime_kind(node.args[1]) != "str":
            return True
    return False
