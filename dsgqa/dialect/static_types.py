"""The type Neo4j 5's semantic analysis gives a value before any row exists, where it is sure.

Neo4j types every expression when it compiles a query, and a pattern's node (or
relationship) named like a variable in scope must be of a type that may be a node
(`SemanticState.implicitVariable`'s `expectType`): `WITH {a: 1} AS row MATCH (row)-->(o)`
fails with "Type mismatch: row defined with conflicting type Map (expected Node)", a compile
error (`scope_errors.py` raises it). A value whose type Neo4j does not pin down (`Any`: a
map's key, a parameter, `r['k']`) may be a node and passes.

This is not `types.py`'s type, which knows Heracles' layout (`r.nodeSymbol` is a string
there): to Neo4j a node's or relationship's property is any storable value
(`StorableType.storableType`: never a node or a map), whatever the key, while a written
map's key is `Any`. Each form below was checked with Neo4j's own front end
(`@neo4j-cypher/language-support`, `lintCypherQuery("CYPHER 5 " + query)`); anything else is
None, unknown, and never a mismatch.

A type is Neo4j's name for it, as its messages print it: "Integer", "Map", "List<Node>",
`STORABLE` (the property types, listed).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import function_name

Types = dict[str, str | None]

INTEGER, FLOAT, STRING, BOOLEAN, MAP, POINT = (
    "Integer", "Float", "String", "Boolean", "Map", "Point")
NODE = "Node"
# `StorableType.storableType` of Neo4j 5, in the order its messages list a TypeSpec.
STORABLE = ("Boolean, Float, Integer, Number, Point, String, Duration, Date, Time, LocalTime, "
            "LocalDateTime, DateTime, List<Boolean>, List<Float>, List<Integer>, List<Number>, "
            "List<Point>, List<String>, List<Duration>, List<Date>, List<Time>, List<LocalTime>, "
            "List<LocalDateTime> or List<DateTime>")
_SCALARS = frozenset({INTEGER, FLOAT, STRING, BOOLEAN})
_LITERALS = {"int_lit": INTEGER, "float_lit": FLOAT, "str_lit": STRING,
             "true_lit": BOOLEAN, "false_lit": BOOLEAN}
# Predicates: Boolean whatever their operands.
_BOOLEAN_NODES = frozenset({
    "or_", "xor_", "and_", "not_", "compare", "is_null", "is_not_null", "starts_with",
    "ends_with", "contains", "in_", "regex",
})
# Functions of one result type, whatever their arguments (Neo4j's signatures).
_RESULTS = {
    "count": INTEGER, "size": INTEGER, "length": INTEGER, "id": INTEGER,
    "tointeger": INTEGER, "tofloat": FLOAT, "round": FLOAT, "floor": FLOAT, "ceil": FLOAT,
    "sqrt": FLOAT, "tostring": STRING, "toupper": STRING, "tolower": STRING, "trim": STRING,
    "substring": STRING, "replace": STRING, "type": STRING, "toboolean": BOOLEAN,
    "point": POINT, "point.distance": FLOAT, "properties": MAP, "labels": "List<String>",
    "keys": "List<String>", "split": "List<String>", "range": "List<Integer>",
    "nodes": "List<Node>",
}
# Types with no property to read: `x.key` of one is Neo4j's compile-time error
# (`SemanticExpressionCheck`'s check of a property read: "Type mismatch: expected Map, Node,
# Relationship, Point, Duration, Date, Time, LocalTime, LocalDateTime or DateTime but was
# String"); a storable value may be a point and is read, and fails, per row.
PROPERTY_HOLDERS = ("Map, Node, Relationship, Point, Duration, Date, Time, LocalTime, "
                    "LocalDateTime or DateTime")


def holds_no_property(kind: str | None) -> bool:
    """Whether a value of Neo4j's type `kind` has no property Neo4j would read."""
    return kind is not None and (kind in _SCALARS or kind.startswith("List<"))


# Element types a list built here may be named by (a list of relationships is left out: a
# variable-length relationship's name holds one).
_ELEMENTS = _SCALARS | {MAP, NODE, POINT}


def list_of(element: str | None) -> str | None:
    """The list of `element`s, where Neo4j names it so."""
    if element is None or not (element in _ELEMENTS or element.startswith("List<")):
        return None
    return f"List<{element}>"


def element_of(list_type: str | None) -> str | None:
    """The element type of a list type (None: not a list, or not known)."""
    if list_type is None or not list_type.startswith("List<"):
        return None
    return list_type[5:-1]


def _arith(left: str | None, op: str, right: str | None) -> str | None:
    if op in ("+", "-", "*", "/", "%") and {left, right} <= {INTEGER, FLOAT}:
        return INTEGER if left == right == INTEGER else FLOAT
    if op == "+" and STRING in (left, right) and {left, right} <= {STRING, INTEGER, FLOAT}:
        return STRING   # concatenation
    return None


def _call(node: Tree, seen: Types) -> str | None:
    if not isinstance(node.children[0], Tree):
        return None
    fname = function_name(node.children[0]).lower()
    args = [c for c in node.children[1:] if isinstance(c, Tree)]
    if fname in _RESULTS:
        return _RESULTS[fname]
    if fname == "collect" and len(args) == 1:
        return list_of(static_type(args[0], seen))
    if fname in ("head", "last") and len(args) == 1:
        return element_of(static_type(args[0], seen))
    return None


def _scalar_lists(kind: str | None) -> bool:
    """Whether `kind` is a scalar type, or a list (of lists ..) of one."""
    while kind is not None and kind.startswith("List<"):
        kind = element_of(kind)
    return kind in _SCALARS


def _list_literal(node: Tree, seen: Types) -> str | None:
    """A list literal of one scalar type (or lists of one): Neo4j types `[1, 'a']`, a list of
    maps and a list of lists of maps as lists whose elements may be anything or a node."""
    kinds = {static_type(child, seen) for child in node.children}
    if len(kinds) != 1:
        return None
    (kind,) = kinds
    return list_of(kind) if _scalar_lists(kind) else None


def _case(node: Tree, seen: Types) -> str | None:
    """A CASE whose results all have one type. A missing ELSE has no type, but a written NULL
    is `Any` to Neo4j (`CASE WHEN .. THEN null ELSE r END` may be a node)."""
    results = [child.children[-1] if child.data == "case_when" else child
               for child in node.children[1 if node.children[0].data != "case_when" else 0:]]
    kinds = {static_type(result, seen) for result in results}
    return kinds.pop() if len(kinds) == 1 else None


def _comprehension(node: Tree, seen: Types) -> str | None:
    """`[x IN list WHERE .. | value]`: a list of the value's type (x of the list's element
    type); without `| value`, the list's type."""
    binding, *rest = node.children
    if not (isinstance(binding, Tree) and binding.data == "in_"
            and binding.children[0].data == "var"):
        return None
    source = static_type(binding.children[1], seen)
    if node.data == "list_comp_map" or len(rest) == 2:
        inner = {**seen, plain_name(binding.children[0].children[0]): element_of(source)}
        return list_of(static_type(rest[-1], inner))
    return source


def static_type(node: object, seen: Types) -> str | None:
    """Neo4j's type of the expression `node` where this module knows it (the module's
    docstring), with `seen` the types of the names in scope; None where it does not."""
    if not isinstance(node, Tree):
        return None
    kind = node.data
    if kind in _LITERALS:
        return _LITERALS[kind]
    if kind in _BOOLEAN_NODES:
        return BOOLEAN
    if kind == "var":
        return seen.get(plain_name(node.children[0]))
    if kind == "paren":
        return static_type(node.children[0], seen)
    if kind in ("map_literal", "map_projection"):
        return MAP
    if kind == "prop":
        if node.children[0].data == "map_literal":   # `{a: 1}.a` is its key's value
            return next((static_type(entry.children[1], seen)
                         for entry in node.children[0].children
                         if plain_name(entry.children[0]) == plain_name(node.children[1])),
                        None)
        base = static_type(node.children[0], seen)
        return STORABLE if base in (NODE, "Relationship") else None
    if kind == "unary":
        operand = static_type(node.children[1], seen)
        return operand if operand in (INTEGER, FLOAT) else None
    if kind == "arith":
        return _arith(static_type(node.children[0], seen), str(node.children[1]),
                      static_type(node.children[2], seen))
    if kind == "index" and static_type(node.children[1], seen) == INTEGER:
        return element_of(static_type(node.children[0], seen))
    if kind == "list_literal":
        return _list_literal(node, seen)
    if kind == "case_expr":
        return _case(node, seen)
    if kind in ("call", "call_distinct", "call_star"):
        return _call(node, seen)
    if kind in ("list_comp", "list_comp_map"):
        return _comprehension(node, seen)
    if kind == "subquery" and isinstance(node.children[0], Tree):
        return {"count": INTEGER, "exists": BOOLEAN}.get(
            function_name(node.children[0]).lower())
    return None
