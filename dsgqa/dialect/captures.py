"""List comprehensions over nodes that read a variable of the row (Kuzu and Ladybug bug).

In both engines a lambda over a list of nodes or structs (`collect(o)`, collected maps or points)
that reads a variable of the row, such as

    WITH r, collect(o) AS objects RETURN [o IN objects | o.center.z - r.center.z]

reads the elements from the start of the *first* row's data in every row (measured on Kuzu
0.11.3 and Ladybug 0.22.0: R2's three objects came out as R1's two and the next one, each minus
R2's height; `any(...)` and list filters likewise). A lambda over a list of numbers or strings
held by a variable is right, and so is one that reads the elements by position. So the
comprehension walks the positions instead, reading each element with an index:

    [o IN objects WHERE p(o) | f(o)]  ->  [_i IN range(0, size(objects) - 1) WHERE
                                            p(objects[_i]) | f(objects[_i])]

(and `objects[_i]` as the result when there was no `| f`); `any/all/none/single` the same. The
same holds for a list of numbers or strings a WITH passed on, once the body reads the row
(see `affected`). A computed source is computed again for each element (the same list each
time); one holding an aggregate, `rand()` or a subquery is a `dialect` error, as is `reduce()`
over such a list.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.order_barrier import AGGREGATES
from dsgqa.dialect.trees import (
    bare,
    call,
    clone,
    function_name,
    int_lit,
    name,
    reads,
    substitute,
    tree,
    var,
)
from dsgqa.dialect.types import ctype, element, typed
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "comprehension over nodes->over positions"
# Lists of values the engines hold as structs: a lambda over one held by a variable (a list a
# WITH passed on) read another row's elements even when its body read nothing else (measured on
# the example graph, both engines: `WITH r, collect(m) AS ms RETURN [x IN ms | x.nodeSymbol]`
# gave R4 R1's first mesh place).
_STRUCT_LISTS = frozenset({"list<node>", "list<rel>", "list<map>", "list<point>", "list<point2d>",
                           "list<path>"})
# Neo4j functions the translator computes with a Python UDF (`functions.py`), and `=~`: in a
# lambda over a list a row holds, both engines passed the UDF another row's elements once a
# clause after the list dropped, skipped or joined rows (`[x IN xs | toLower(x)]` gave R2
# `['r1']` after `WITH r, [r.nodeSymbol] AS xs WHERE r.nodeSymbol <> 'R1'`).
_UDF_CALLS = frozenset({"toupper", "upper", "tolower", "lower", "tostring", "tostringornull",
                        "split", "replace", "trim", "ltrim", "rtrim", "btrim", "round",
                        "tofloat", "tofloatornull", "tointeger", "tointegerornull",
                        "toboolean", "tobooleanornull", "exp", "isnan", "left", "right",
                        "substring"})
_SAFE_LISTS = frozenset({"list<str>", "list<int>", "list<float>", "list<number>", "list<bool>",
                         "list<null>"})


def _free_names(node: object, bound: str) -> set[str]:
    """Variable names `node` reads besides `bound` (names bound by nested comprehensions count
    too: over-approximating only makes the rewrite fire where it is harmless)."""
    if not isinstance(node, Tree):
        return set()
    if node.data == "var":
        text = plain_name(node.children[0])
        return set() if text == bound else {text}
    children = node.children[1:] if node.data == "call" else node.children
    found: set[str] = set()
    for child in children:
        found |= _free_names(child, bound)
    return found


def _lambda_source(node: Tree) -> Tree | None:
    """The list a comprehension or a quantifier walks, where it is a variable."""
    binding = node.children[0] if node.data in ("list_comp", "list_comp_map") else (
        node.children[1] if node.data == "call" and len(node.children) == 2 else None)
    if isinstance(binding, Tree) and binding.data == "where_arg":
        binding = binding.children[0]
    if isinstance(binding, Tree) and binding.data == "in_" \
            and isinstance(binding.children[1], Tree) and binding.children[1].data == "var":
        return binding.children[1]
    return None


def mark_shared_sources(root: Tree) -> None:
    """Mark the list variable of every lambda when the query has two lambdas over list
    variables: both engines then computed all but one of them wrong, whatever their bodies
    read, even across clauses (`RETURN [x IN xs | abs(x - 1.0)] AS a, [x IN xs | x + 3] AS b`
    gave a as [0.0, 0.0] for xs = [0.5, 1.5]; `WITH k, xs WHERE any(x IN xs WHERE abs(x - 1.0)
    > 0.7) RETURN [x IN xs | x + 3]` lost the row; also coalesce(), sign(), UDFs, lists and
    maps built in the body, and an alias of the same list). Walking positions, each lambda
    over its own `range()`, is right (measured with four lambdas)."""
    sources = [source for sub in root.iter_subtrees_topdown()
               if sub.data in ("list_comp", "list_comp_map", "call")
               for source in [_lambda_source(sub)] if source is not None]
    if len(sources) > 1:
        for source in sources:
            source.shared = True  # type: ignore[attr-defined]


def mark_shortest_paths(root: Tree) -> None:
    """Mark each read of a path a `shortestPath()` / `allShortestPaths()` binds (`shortest`),
    which `affected` leaves to the engines' own walk."""
    bound = {plain_name(pattern.children[0]) for pattern in root.iter_subtrees()
             if pattern.data == "pattern" and len(pattern.children) > 1
             and isinstance(pattern.children[-1], Tree)
             and pattern.children[-1].data == "path_function"}
    for node in root.iter_subtrees():
        if node.data == "var" and plain_name(node.children[0]) in bound:
            node.shortest = True  # type: ignore[attr-defined]


def _packs_element(bodies: list[object], bound: str) -> bool:
    """Whether a map or list built in the bodies holds the bare element: both engines then
    repeat the first element (`[x IN [0.5, 1.5] | {v: x}]` gave [{v: 0.5}, {v: 0.5}])."""
    def is_element(value: object) -> bool:
        value = bare(value)
        return isinstance(value, Tree) and value.data == "var" \
            and plain_name(value.children[0]) == bound
    for body in bodies:
        for sub in body.iter_subtrees_topdown() if isinstance(body, Tree) else ():
            if sub.data == "map_literal" and any(
                    is_element(entry.children[1]) for entry in sub.children
                    if isinstance(entry, Tree) and entry.data == "map_entry"):
                return True
            if sub.data == "list_literal" and any(is_element(c) for c in sub.children):
                return True
    return False


def position_range(last: Tree) -> Tree:
    """`range(0, last)`: positions a lambda walks, marked so that no pass walks them again."""
    positions = typed(call("range", int_lit(0), last), "list<int>")
    positions.positions = True  # type: ignore[attr-defined]
    return positions


def positions_of(source: Tree) -> Tree:
    """The positions of `source`'s elements, `range(0, size(source) - 1)` (see
    `position_range`)."""
    return position_range(tree("arith", call("size", clone(source)), Token("ADD_OP", "-"),
                               int_lit(1)))


def walked(source: object) -> bool:
    """Whether `source` is the `range()` of positions a walk already put in (not walked again)."""
    return isinstance(source, Tree) and getattr(source, "positions", False)


def affected(bound: str, source: object, bodies: list[object], written: bool = False) -> bool:
    """Whether one of the engines' lambda bugs can change `[bound IN source ...bodies]` (each
    measured on both engines; each reads another row's list or variables, so none where every
    row holds the one list and the body reads nothing else of the row):
    - a variable holding nodes, relationships or structs, or a function of one, whatever the
      body reads;
    - a list variable one of several lambdas walks (`mark_shared_sources`);
    - a body building a map or list of the bare element (`_packs_element`);
    - a list variable, or a function of one, and a body testing for NULL (`IS NULL`,
      `coalesce()`) or calling a UDF (`toLower`, `round(x, 1)`, `=~`, ...);
    - a list variable, or a function of one, and a body reading the row;
    - a list that may hold nodes or structs, and a body reading the row.
    `written`: the bodies are the translator's (a `reduce()` step after its rewrites), whose own
    NULL guards are no NULL test of the model's."""
    if walked(source):
        return False
    if isinstance(source, Tree) and source.data == "var" and getattr(source, "uniform", False) \
            and not getattr(source, "shared", False) and not _packs_element(bodies, bound) \
            and not any(reads(b, {bound}) or _holds_subquery(b) for b in bodies):
        # One list on every row (`WITH collect(..) AS boxes`, `WITH [{k: 1}, {k: 2}] AS ms`),
        # a body reading nothing of the row (its own lambdas' variables are no read of it):
        # another row's list, read by mistake, is the same list. (A subquery from the
        # element fails an engine assertion either way: `by_position` refuses it.)
        return False
    if isinstance(source, Tree) and source.data == "var" and (
            ctype(source) in _STRUCT_LISTS or getattr(source, "shared", False)):
        return True
    if isinstance(source, Tree) and ctype(source) in _STRUCT_LISTS \
            and source.data not in ("list_literal", "slice") and any(
                sub.data == "var" and ctype(sub) in _STRUCT_LISTS
                for sub in source.iter_subtrees_topdown()):
        # a function of such a variable, whatever the body reads: `[x IN reverse(xs) |
        # x.nodeSymbol]` read another row's node on Ladybug after a WITH that walked xs
        return True
    if isinstance(source, Tree) and ctype(source) in _STRUCT_LISTS and source.data != \
            "list_literal" and any(sub.data == "var" and ctype(sub) == "path"
                                   and not getattr(sub, "shortest", False)
                                   for sub in source.iter_subtrees_topdown()):
        # the nodes or relationships of a path (a slice of them too), whatever the body
        # reads: `all(n IN nodes(p) WHERE n.class = 'floor')` in the MATCH's WHERE kept 558
        # of 769 four-hop paths on Ladybug once the start expanded to about a thousand paths
        # (Kuzu crashed), and after `WITH p` `none(n IN nodes(p) WHERE ..)` gave every row
        # of a variable-length path one answer (both engines). Not a shortest path's: one path
        # per pair of ends, whose none()/all() in its WHERE `path_filter.py` makes the
        # search's own filter
        return True
    if _packs_element(bodies, bound):
        return True
    if _row_list(source) and ((not written and _tests_null(bodies)) or _calls_udf(bodies)):
        # `[x IN ps WHERE x IS NOT NULL | ..]` over a list a row holds was [] for R2 after
        # `WITH r, [r.center.x, r.center.y] AS ps WHERE r.nodeSymbol <> 'R1'` (both engines;
        # `coalesce(x, 0)` and the UDFs read the dropped row's list), whatever else the body
        # reads
        return True
    reads_row = any(_free_names(b, bound) for b in bodies)
    if reads_row and _row_list(source):
        # Any list a WITH passed on, of scalars too: a body reading the row read another
        # row's elements once it passed the element to coalesce(), a UDF (round(x, 1),
        # toString, replace) or a CASE (`[x IN xs | coalesce(x, k)]` gave the first row's list
        # in the second; `CASE WHEN x > k THEN 1 ELSE 0 END` read the first row's k); a
        # function of such a list (`reverse(xs)`) the same.
        return True
    return ctype(source) not in _SAFE_LISTS and reads_row


def _holds_subquery(body: object) -> bool:
    """Whether a lambda's body holds a subquery or a pattern."""
    return isinstance(body, Tree) and any(sub.data in ("subquery", "pattern_predicate")
                                          for sub in body.iter_subtrees())


def _row_list(source: object) -> bool:
    """A list variable (one a row holds), or a function of one (`reverse(xs)`)."""
    return isinstance(source, Tree) and (
        source.data == "var" or (source.data not in ("slice", "list_literal")
                                 and function_name(source.children[0]).lower() != "range"
                                 and any(sub.data == "var" and ctype(sub).startswith("list<")
                                         for sub in source.iter_subtrees_topdown())))


def _calls_udf(bodies: list[object]) -> bool:
    """Whether a body calls a function the translator computes with a UDF, or `=~`."""
    return any(isinstance(body, Tree) and any(
        sub.data == "regex"
        or (sub.data == "call" and (function_name(sub.children[0]).lower() in _UDF_CALLS
                                    or function_name(sub.children[0]).startswith("neo4j_")))
        for sub in body.iter_subtrees()) for body in bodies)


def _tests_null(bodies: list[object]) -> bool:
    """Whether a body tests for NULL: `IS NULL`, `IS NOT NULL` or `coalesce()`."""
    return any(isinstance(body, Tree) and any(
        sub.data in ("is_null", "is_not_null")
        or (sub.data == "call" and function_name(sub.children[0]).lower() == "coalesce")
        for sub in body.iter_subtrees()) for body in bodies)


def recomputes_badly(source: Tree) -> bool:
    """Whether reading `source[_i]` once per element would not give the same list each time:
    an aggregate (which cannot sit in a lambda), `rand()`, or a subquery or pattern. Any other
    source is computed again for each element: the same list, at a cost the lists of a scene
    graph question allow."""
    return any((sub.data in ("call", "call_star", "call_distinct")
                and function_name(sub.children[0]).lower() in AGGREGATES | {"rand"})
               or sub.data in ("subquery", "pattern_predicate")
               for sub in source.iter_subtrees_topdown())


def by_position(binding: Tree, bodies: list[Tree], names: FreshNames,
                whole_result: bool) -> list[Tree]:
    """Rewrite `binding` (`x IN source`) to walk positions; the bodies with `x` replaced by
    `source[_i]` (plus that element as the mapping when `whole_result`). Raises `DialectError`
    when the source is not a variable."""
    source = binding.children[1]
    if not (isinstance(source, Tree) and (source.data in ("var", "list_literal")
                                          or not recomputes_badly(source))):
        raise DialectError("a comprehension over a computed list that the engines would read "
                           "wrong (another row's values, or the first element repeated) and "
                           "that cannot be walked by position")
    bound = plain_name(binding.children[0].children[0])
    if any(isinstance(body, Tree) and any(
            node.data == "node_pattern" and node.children and isinstance(node.children[0], Tree)
            and node.children[0].data == "name" and plain_name(node.children[0]) == bound
            for node in body.iter_subtrees_topdown()) for body in bodies):
        # `[x IN rs WHERE EXISTS { (x)-->() }]`: a pattern cannot start at `rs[_i]`
        raise DialectError("a subquery pattern from the element of a comprehension over nodes "
                           "(the element is read by position)")
    position = names.fresh("_i")
    element_of = tree("index", clone(source), var(position))
    element_of.ctype = element(ctype(source))  # type: ignore[attr-defined]
    element_of.by_position = True  # type: ignore[attr-defined]  # no node of a pattern
    binding.children[0] = var(name(position))
    binding.children[1] = positions_of(source)
    out = [substitute(body, {bound: element_of}) for body in bodies]  # type: ignore[misc]
    if whole_result:
        out.append(clone(element_of))
    return out  # type: ignore[return-value]
