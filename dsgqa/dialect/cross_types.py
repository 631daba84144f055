"""Operators over values of two different types: Neo4j's answers where Kuzu converts.

Neo4j never converts a value to compare or search it (Cypher Manual, "Equality and comparison
of values", "String operators"): values of two different types are never equal (`=` false, `<>`
true, NULL when either side is NULL); `<`, `<=`, `>`, `>=` across types are NULL; STARTS WITH,
ENDS WITH, CONTAINS and `=~` with an operand that is not a string are NULL; a string function
given a number raises a type error; `a < b < c` means `a < b AND b < c`. Kuzu 0.11.3 and
Ladybug 0.22.0 convert instead, and answer without an error (measured on both):

    MATCH (n:Room) WHERE n.center.x = '10'              -- R2 kept (10.0 = '10'); Neo4j none
    ... WHERE n.center.x <> '10'                         -- R2 dropped; Neo4j keeps every room
    ... WHERE size(n.nodeSymbol) = '2'                   -- every room; Neo4j none
    ... WHERE n.center.x STARTS WITH '1'                 -- R2 ('10.000000'); Neo4j none
    RETURN toUpper(n.center.x)                           -- '10.000000'; Neo4j: a type error
    RETURN CASE WHEN n.center.x > 5 THEN n.nodeSymbol ELSE n.center.x END   -- '0.000000'
    RETURN n.nodeSymbol = true                           -- an engine error; Neo4j false

Where the annotated types (`types.py`, read before any rewrite) show two different kinds of
value, the translation writes Neo4j's answer, or refuses (`dialect`) where Neo4j's answer is an
error or a value of mixed types the engines cannot hold. A type nobody knows is left alone:
the engines' binder refuses most such mixes, and the fuzzer measures the rest. A chain of
comparisons becomes the AND Neo4j defines (both engines refuse `a < b < c` outright).
"""

from __future__ import annotations

from collections.abc import Collection

from lark import Token, Tree

from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.nan_values import may_be_nan
from dsgqa.dialect.trees import (
    NON_NULL_LITERALS,
    all_of,
    call,
    clone,
    function_name,
    name,
    tree,
)
from dsgqa.dialect.types import (
    NULL_FREE_LISTS,
    NUMBERS,
    UNKNOWN,
    element,
    result_positions,
    result_type,
)

REWRITE = "comparison across types->Neo4j's value"
CHAIN_REWRITE = "a < b < c->a < b AND b < c"

# The kinds of value that never equal one another (an int equals a float of the same value).
_KINDS = frozenset({"str", "bool", "point", "point2d", "node", "rel", "path", "map"})
_EQUALITY = frozenset({"=", "<>", "!="})
_ORDERING = frozenset({"<", "<=", ">", ">="})
# Functions that need a string where Neo4j raises a type error for anything else (NULL gives
# NULL): the argument positions that must be text.
_TEXT_ARGUMENTS: dict[str, tuple[int, ...]] = {
    "tolower": (0,), "toupper": (0,), "lower": (0,), "upper": (0,),
    "trim": (0, 1), "ltrim": (0, 1), "rtrim": (0, 1), "btrim": (0, 1), "replace": (0, 1, 2),
    "substring": (0,), "left": (0,), "right": (0,), "split": (0,),
}
# Functions of a string or a list: anything else raises in Neo4j.
_TEXT_OR_LIST = frozenset({"size", "reverse"})


def kind(ctype: str) -> str | None:
    """The kind of value a type holds, for equality across kinds; None: not known."""
    if ctype in NUMBERS:
        return "number"
    if ctype.startswith("list<"):
        return "list"
    return ctype if ctype in _KINDS else None


def differ(left: str, right: str) -> bool:
    """Whether two annotated types are known kinds of value that never equal each other."""
    a, b = kind(left), kind(right)
    return a is not None and b is not None and a != b


def _elements_differ(left: str, right: str) -> bool:
    """Two list types whose elements (at any depth) are known kinds that differ."""
    while left.startswith("list<") and right.startswith("list<"):
        left, right = element(left), element(right)
        if differ(left, right):
            return True
    return False


_NULL_FREE_LISTS = NULL_FREE_LISTS | {"tail"}


def null_free_value(node: object) -> bool:
    """Whether a list or map value can be seen to hold no NULL: literals of literals, and the
    results of functions that never make one."""
    if not isinstance(node, Tree):
        return False
    if node.data in NON_NULL_LITERALS:
        return True
    if node.data == "paren":
        return null_free_value(node.children[0])
    if node.data == "var":   # a WITH's collect() and the like (`types.py`)
        return getattr(node, "null_free", False)
    if node.data == "list_literal":
        return all(null_free_value(child) for child in node.children)
    if node.data == "map_literal":
        return all(null_free_value(entry.children[1]) for entry in node.children)
    if node.data in ("call", "call_distinct") and isinstance(node.children[0], Tree):
        fname = function_name(node.children[0]).lower()
        # collect() of lists skips no NULL inside them (`collect([o.name])`).
        return fname in _NULL_FREE_LISTS \
            and (fname != "tail" or null_free_value(node.children[1])) \
            and kind(element(getattr(node, "ctype", UNKNOWN))) not in ("list", "map")
    return False


def note_null_free_operands(node: Tree) -> None:
    """Before the operands are rewritten (`labels(n)` becomes Kuzu's list of `label(n)`):
    whether each can be seen to hold no NULL, for `compare_across_types`."""
    if len(node.children) == 3:
        node.null_free = (null_free_value(node.children[0]),  # type: ignore[attr-defined]
                          null_free_value(node.children[2]))
        left, right = node.children[0], node.children[2]
        if isinstance(left, Tree) and isinstance(right, Tree) \
                and left.data == right.data == "list_literal":
            # each pair's kinds, read before the elements are rewritten (`r.bbox_dim.z` of a
            # room becomes a CAST of NULL, which carries no annotation)
            node.pair_kinds = [_pair_kind(a, b) for a, b in zip(  # type: ignore[attr-defined]
                left.children, right.children, strict=False)]


def note_null_free_members(node: Tree) -> None:
    """`x IN list`, before its operands are rewritten: whether x and every element of the list
    can be seen to hold no NULL, for `refuse_container_members`."""
    value, items = node.children
    node.null_free = (  # type: ignore[attr-defined]
        null_free_value(value),
        isinstance(items, Tree) and items.data == "list_literal"
        and all(null_free_value(child) for child in items.children))


def refuse_container_members(node: Tree) -> None:
    """`x IN list` of lists or maps: Neo4j compares them as `=` does, so `[1, NULL] IN [[1,
    NULL]]` is NULL where the engines say true; refused unless neither side may hold NULL."""
    value_type, items_type = node.child_types[0], node.child_types[1]
    containers = {kind(value_type), kind(element(items_type))} & {"list", "map"}
    if containers and not all(getattr(node, "null_free", (False, False))):
        raise DialectError("IN over lists or maps that may hold NULL (Neo4j answers NULL where "
                           "the engines say true)")


def _containers(left: str, right: str) -> bool:
    """Both operands are lists, or both maps."""
    return kind(left) == kind(right) and kind(left) in ("list", "map")


def element_kind_differs(value: str, items: str) -> bool:
    """`x IN list` where no element can equal x: a list of another kind of value. A list
    searched for in a list of lists of other elements is refused (see `compare_across_types`)."""
    if not items.startswith("list<"):
        return False
    if _elements_differ(value, element(items)):
        raise DialectError("IN over lists whose elements are of different types")
    return differ(value, element(items))


def bool_null() -> Tree:
    """A NULL of type BOOL: a bare NULL has type ANY, which some operators refuse."""
    return call("CAST", tree("cast_arg", tree("null_lit"), name("BOOL")))


def _null_when_either_is(left: object, right: object, answer: Tree) -> Tree:
    """`answer`, or NULL where an operand that may be NULL is."""
    tests = [tree("is_null", clone(side)) for side in (left, right)
             if not (isinstance(side, Tree) and side.data in NON_NULL_LITERALS)]
    if not tests:
        return answer
    test = tests[0] if len(tests) == 1 else tree("or_", *tests)
    return tree("case_expr", tree("case_when", test, tree("null_lit")), answer)


def compare_across_types(node: Tree) -> Tree | None:
    """Neo4j's value of a comparison between two kinds of value, or None when the operand
    types do not show two kinds."""
    if len(node.children) != 3:
        return None
    left, op, right = node.children
    if _elements_differ(node.child_types[0], node.child_types[2]):
        # Neo4j compares element by element ([1, 2] = ['1', '2'] is false, [] = [] true,
        # NULL elements make it NULL); the engines convert the elements ([1, 2] = ['1', '2']
        # true on both).
        raise DialectError("a comparison of lists whose elements are of different types")
    if str(op) in _EQUALITY and _containers(node.child_types[0], node.child_types[2]) \
            and not all(getattr(node, "null_free", (False, False))):
        # Neo4j: [1, NULL] = [1, NULL] and {a: NULL} = {a: NULL} are NULL; the engines: true.
        raise DialectError("= or <> of lists or maps that may hold NULL (Neo4j answers NULL "
                           "where the engines say true)")
    if str(op) in _ORDERING and kind(node.child_types[0]) == kind(node.child_types[2]) == "list" \
            and not all(getattr(node, "null_free", (False, False))):
        # Neo4j: [1, NULL] < [1, 2] is NULL (the comparison reaches the NULL); the engines
        # order NULL after every value: false.
        raise DialectError("<, <=, > or >= of lists that may hold NULL (Neo4j answers NULL where "
                           "the comparison reaches one; the engines order it last)")
    if not differ(node.child_types[0], node.child_types[2]):
        return None
    if str(op) not in _EQUALITY:
        return bool_null()
    return _null_when_either_is(left, right, tree("false_lit") if str(op) == "="
                                else tree("true_lit"))


_SCALAR_KINDS = frozenset({"str", "bool", "number"})


def _element_by_element(node: Tree, left: object, op: str, right: object) -> Tree | None:
    """`[a, b] = [c, d]` of two written lists of scalars, as Neo4j defines it: false for other
    lengths, else `a = c AND b = d` in three-valued logic (`[r.class, NULL] = [r.class, NULL]`
    is NULL, `[1, NULL] = [2, NULL]` false); `<>` its negation. None: not such a comparison
    (the elements' kinds must be one known scalar kind, or NULL, pair by pair)."""
    if not (isinstance(left, Tree) and isinstance(right, Tree)
            and left.data == right.data == "list_literal"):
        return None
    if len(left.children) != len(right.children):
        return tree("false_lit" if op == "=" else "true_lit")
    pairs = _pairs(node, left, right)
    if pairs is None:
        return None
    tests = [tree("paren", tree("compare", a, Token("EQ", "="), b)) for a, b in pairs]
    if not tests:
        return tree("true_lit" if op == "=" else "false_lit")
    test = all_of(tests)
    return test if op == "=" else tree("not_", tree("paren", test))


def compare_written_lists(node: Tree, nan_names: Collection[str] | None) -> Tree | None:
    """`=`, `<>`, `<`, `<=`, `>` or `>=` of two written lists that may hold NULL, element by
    element as Neo4j compares them (`_element_by_element`, `_lexicographic`); None for any
    other comparison, and where an element may be NaN (how Neo4j orders NaN inside a list is
    not settled here; `nan_names` as `nan_values.nan_names` gives them). On the tree as
    parsed (after `note_null_free_operands`): a list of two kinds of value is a struct once
    rewritten."""
    if len(node.children) != 3 or all(getattr(node, "null_free", (True, True))):
        return None
    left, op, right = node.children
    if nan_names is not None and any(
            isinstance(side, Tree) and side.data == "list_literal"
            and any(may_be_nan(e, nan_names) for e in side.children) for side in (left, right)):
        return None
    if str(op) in _EQUALITY:
        return _element_by_element(node, left, str(op), right)
    if str(op) in _ORDERING:
        return _lexicographic(node, left, str(op), right)
    return None


def _pair_kind(a: object, b: object) -> bool:
    """Whether two elements are of one known scalar kind, or NULL."""
    kinds = {kind(getattr(side, "ctype", UNKNOWN)) for side in (a, b)
             if not (isinstance(side, Tree) and side.data == "null_lit")
             and getattr(side, "ctype", UNKNOWN) != "null"}
    return len(kinds) <= 1 and kinds <= _SCALAR_KINDS


def _pairs(node: Tree, left: Tree, right: Tree) -> list[tuple[object, object]] | None:
    """The element pairs of two written lists up to the shorter one's length, each of one known
    scalar kind or NULL (as `note_null_free_operands` read them); None otherwise."""
    pairs = list(zip(left.children, right.children, strict=False))
    if not all(getattr(node, "pair_kinds", [False])) or len(node.pair_kinds) != len(pairs):
        return None
    return pairs


def _lexicographic(node: Tree, left: object, op: str, right: object) -> Tree | None:
    """`[a, b] < [c, d]` of two written lists of scalars, as Neo4j orders lists: element by
    element, the first pair that differs decides, a NULL reached on the way makes it NULL, and
    where one list is the other's start the shorter is the smaller. None: not such a
    comparison."""
    if not (isinstance(left, Tree) and isinstance(right, Tree)
            and left.data == right.data == "list_literal"):
        return None
    pairs = _pairs(node, left, right)
    if pairs is None:
        return None
    strict = Token("COMP_OP", "<" if op in ("<", "<=") else ">")
    lengths = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[op](
        len(left.children), len(right.children))
    whens = []
    for a, b in pairs:
        whens += [tree("case_when", tree("or_", tree("is_null", clone(a)), tree("is_null",
                                                                               clone(b))),
                       tree("null_lit")),
                  tree("case_when", tree("compare", clone(a), Token("COMP_OP", "<>"), clone(b)),
                       tree("compare", clone(a), strict, clone(b)))]
    ends = tree("true_lit" if lengths else "false_lit")
    if not whens:
        return ends
    return tree("case_expr", *whens, ends)


def text_test_on_non_text(node: Tree) -> Tree | None:
    """STARTS WITH, ENDS WITH, CONTAINS and `=~` with an operand known not to be a string:
    NULL in Neo4j (the engines search the number's text)."""
    if any(kind(t) not in (None, "str") for t in node.child_types):
        return bool_null()
    return None


def refuse_type_errors(fname: str, node: Tree) -> None:
    """Refuse a call Neo4j answers with a type error (`toUpper(1.5)`, `size(2)`) and the
    engines answer with a value. (A negative length is checked while the query runs,
    `text_functions.py`.)"""
    types = node.child_types[1:]
    wrong = [i for i in _TEXT_ARGUMENTS.get(fname, ()) if i < len(types)
             and kind(types[i]) not in (None, "str")]
    if fname in _TEXT_OR_LIST and types and kind(types[0]) not in (None, "str", "list"):
        wrong.append(0)
    if fname == "split" and len(types) > 1 and kind(types[1]) not in (None, "str", "list"):
        wrong.append(1)  # the delimiter: a string (or, since Neo4j 5.x, a list of them)
    if wrong:
        raise DialectError(f"{fname}() of a {types[wrong[0]]} (Neo4j raises a type error; the "
                           "engines convert it to text)")


def refuse_mixed_result(node: Tree) -> None:
    """A CASE or coalesce() whose results are of two kinds (a string and a number): the
    engines make every result the same type (the float 0.0 comes back as '0.000000'). Read
    before the results are rewritten (their annotations are on the original nodes). A whole
    column of the final RETURN is let through (`mixed_results.py` holds it)."""
    if getattr(node, "mixed_column", False):
        return
    what = "a CASE" if node.data == "case_expr" else "a coalesce()"
    kinds = {kind(result_type(node, position)) for position in result_positions(node)} - {None}
    if len(kinds) > 1:
        raise DialectError(f"{what} whose results are of different types (the engines convert "
                           "them to one type)")


def chained_comparison(node: Tree) -> Tree | None:
    """`a < b < c` (a comparison whose left operand is a comparison written without
    parentheses) as `a < b AND b < c`; None for a single comparison."""
    parts: list[tuple[object, Token, object]] = []
    current: object = node
    while isinstance(current, Tree) and current.data == "compare" \
            and len(current.children) == 3:
        left, op, right = current.children
        parts.append((left, op, right))
        current = left
    if len(parts) < 2:
        return None
    parts.reverse()  # innermost first: (a < b), then (.. < c)
    first_left = parts[0][0]
    comparisons = [tree("compare", first_left, parts[0][1], parts[0][2])]
    for _, op, right in parts[1:]:
        comparisons.append(tree("compare", clone(comparisons[-1].children[2]), op, right))
    for comparison in comparisons:
        comparison.ctype = "bool"  # type: ignore[attr-defined]
    return tree("paren", tree("and_", *comparisons))

