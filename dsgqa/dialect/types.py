"""The static type of each expression of a query, as far as the query and Heracles' layout say.

Why: Neo4j is dynamically typed and Kuzu is not, and some Neo4j operators mean different things
by type. `'R' + 3` concatenates in Neo4j (Kuzu refuses STRING + INT64); `toString(2.5)` is
`'2.5'` but Kuzu's CAST prints `'2.500000'`, and `toString(true)` `'True'`. A rewrite that must
choose by type reads the annotations this pass leaves on the original tree before any rewrite:
`node.ctype` on every expression node and `node.scope_before` (names -> types) on every
projection and MATCH clause. A type nobody can know is `UNKNOWN`, and a rewrite that needs it
refuses (`dialect`) rather than guess.

Types are strings: `str`, `int`, `float`, `bool`, `point` (3-D: every point of the layout),
`point2d` (`point({x, y})`), `node`, `rel`, `path`, `map`, `null`, `?` (unknown), and `list<T>`
(`list<mixed>` for a list literal of several kinds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    child_of,
    function_name,
    is_optional,
    item_name,
    pattern_labels,
    reads,
)

UNKNOWN = "?"
# `number`: an integer in some rows and a float in others (a CASE or coalesce() of both; the
# engines hold it as a float, `number_results.py`), so no rewrite may take it for either.
# `float_sum`: a sum of floats, which is the integer 0 where it summed no values
# (`float_sums.py`).
FLOAT_SUM = "float_sum"
NUMBERS = frozenset({"int", "float", "number", FLOAT_SUM})


class WrittenMap(str):
    """The type `map` of a map the query writes (or a node's `properties()`), with its fields'
    types: `toString(w.x)` of `UNWIND [{x: 0, y: -10}, ..] AS w` is of an integer. Equal to
    "map" wherever a type is compared; a lambda's or a WITH's new meaning of a name replaces it
    as any type."""

    fields: dict[str, str]
    stored: bool   # a node's properties(): a key whose value is NULL is no key of it

    def __new__(cls, fields: dict[str, str], stored: bool = False) -> WrittenMap:
        made = super().__new__(cls, "map")
        made.fields = fields
        made.stored = stored
        return made

    @classmethod
    def together(cls, maps: list[WrittenMap]) -> str:
        """The type of one of several written maps (an UNWIND of their list): their fields
        where every map has the same keys, each field's types unified; else a plain map."""
        if any(set(m.fields) != set(maps[0].fields) for m in maps):
            return "map"
        return cls({key: unify_results([m.fields[key] for m in maps]) for key in maps[0].fields},
                   stored=all(m.stored for m in maps))
# A 2-D and a 3-D point are two kinds of value to Neo4j (never equal, no distance between
# them) and two struct types to the engines.
POINT_2D = "point2d"
POINTS = frozenset({"point", POINT_2D})
# Heracles' layout (docs/graph_layout.md): every label has these; points are {x, y, z}.
STRING_PROPERTIES = frozenset({"nodeSymbol", "class", "name"})
POINT_PROPERTIES = frozenset({"center", "bbox_center", "bbox_dim"})
POINT_FIELDS = frozenset({"x", "y", "z"})
# keys(n) in storage order (dsgqa.graphstore.layout.node_properties; a test keeps them equal).
NODE_KEYS: tuple[str, ...] = ("nodeSymbol", "class", "name", "center")
OBJECT_KEYS: tuple[str, ...] = (*NODE_KEYS, "bbox_center", "bbox_dim")
# Every key a node of the layout may have (an object's are a superset of the others').
LAYOUT_KEYS = frozenset(OBJECT_KEYS)
# The keys set on every node, never NULL (docs/graph_layout.md).
ALWAYS_SET = frozenset(NODE_KEYS)


def layout_keys(labels: frozenset[str] | None) -> tuple[str, ...] | None:
    """The property keys the layout gives a node its patterns allow these labels: an object's,
    or every other label's; None where both are possible (or the labels are not known)."""
    if labels is not None and labels and "Object" not in labels:
        return NODE_KEYS
    if labels == frozenset({"Object"}):
        return OBJECT_KEYS
    return None

_BOOL_NODES = frozenset({
    "or_", "xor_", "and_", "not_", "compare", "is_null", "is_not_null", "starts_with",
    "ends_with", "contains", "in_", "regex", "has_label", "true_lit", "false_lit",
    "is_typed", "is_not_typed", "is_normalized", "is_not_normalized",
})
_LITERALS = {"int_lit": "int", "float_lit": "float", "str_lit": "str", "null_lit": "null"}
_FIXED_RESULT = {
    "count": "int", "size": "int", "length": "int", "sign": "int", "id": "int",
    "avg": "float", "sqrt": "float", "exp": "float", "log": "float", "log10": "float",
    "sin": "float", "cos": "float", "tan": "float", "asin": "float", "acos": "float",
    "atan": "float", "atan2": "float", "cot": "float", "degrees": "float", "radians": "float",
    "pi": "float", "e": "float", "rand": "float", "round": "float", "floor": "float",
    "ceil": "float", "stdev": "float", "stdevp": "float", "percentilecont": "float",
    "distance": "float", "point.distance": "float", "haversin": "float", "isnan": "bool",
    "tostring": "str", "tostringornull": "str", "tolower": "str", "toupper": "str",
    "lower": "str", "upper": "str", "trim": "str", "ltrim": "str", "rtrim": "str", "btrim": "str",
    "substring": "str", "replace": "str", "left": "str", "right": "str", "type": "str",
    "elementid": "str", "normalize": "str", "valuetype": "str",
    "tointeger": "int", "tointegerornull": "int",
    "tofloat": "float", "tofloatornull": "float",
    "toboolean": "bool", "tobooleanornull": "bool", "exists": "bool",
    "any": "bool", "all": "bool", "none": "bool", "single": "bool", "isempty": "bool",
    "split": "list<str>", "labels": "list<str>", "keys": "list<str>", "range": "list<int>",
    "nodes": "list<node>", "relationships": "list<rel>", "point": "point",
    "properties": "map", "startnode": "node", "endnode": "node",
}
_SAME_AS_ARGUMENT = frozenset({"min", "max", "abs", "percentiledisc", "coalesce"})


def element(list_type: str) -> str:
    return list_type[5:-1] if list_type.startswith("list<") else UNKNOWN


def _unify(types: list[str]) -> str:
    if any(isinstance(t, WrittenMap) for t in types):
        return unify_results(types)
    known = [t for t in types if t not in ("null", UNKNOWN)]
    if not known:
        return UNKNOWN if UNKNOWN in types else "null"
    if all(t == known[0] for t in known):
        return known[0]
    if set(known) <= NUMBERS:
        return "float"
    return "mixed"


def unify_results(types: list[str]) -> str:
    """The type of a CASE or coalesce(): each row gives one of the results, with its own type."""
    if any(isinstance(t, WrittenMap) for t in types):
        known_maps = [t for t in types if t != "null"]
        if all(isinstance(t, WrittenMap) for t in known_maps):
            # their fields where every result is one of them with the same keys
            return WrittenMap.together(known_maps)
        types = [str(t) for t in types]   # beside another map or value: a plain type
    known = {t for t in types if t not in ("null", UNKNOWN)}
    if known and all(t.startswith("list<") for t in known):   # element by element
        return f"list<{unify_results([element(t) for t in known])}>"
    return "number" if len(known) > 1 and known <= NUMBERS else _unify(types)


T = TypeVar("T")


def _outer_single_queries(node: Tree) -> list[Tree]:
    """The single queries of `node` outside any subquery (those are typed in their scope)."""
    if node.data == "single_query":
        return [node]
    if node.data == "subquery":
        return []
    return [found for child in node.children if isinstance(child, Tree)
            for found in _outer_single_queries(child)]


# Functions whose lists never hold NULL (collect() skips it).
NULL_FREE_LISTS = frozenset({"collect", "split", "range", "labels", "keys", "nodes",
                             "relationships"})


def _null_free_list(value: Tree, value_type: str) -> bool:
    """Whether `value` is a list that never holds NULL, nor a list or map that could."""
    if value.data not in ("call", "call_distinct") or not isinstance(value.children[0], Tree) \
            or function_name(value.children[0]).lower() not in NULL_FREE_LISTS:
        return False   # (`collect(DISTINCT x)` skips NULL too)
    inner = element(value_type)
    return value_type.startswith("list<") and not inner.startswith("list<") \
        and inner not in ("map", UNKNOWN)


def _pattern_names(match: Tree) -> set[str]:
    """The node and relationship variables a MATCH's patterns name."""
    found = set()
    for patterns in match.children:
        if isinstance(patterns, Tree) and patterns.data == "pattern_list":
            for part in patterns.iter_subtrees():
                if part.data in ("node_pattern", "rel_detail") and part.children \
                        and isinstance(part.children[0], Tree) \
                        and part.children[0].data == "name":
                    found.add(plain_name(part.children[0]))
    return found


def _comprehension_pattern_names(pattern: Tree) -> tuple[dict[str, str],
                                                         dict[str, frozenset[str]]]:
    """The names a pattern comprehension's pattern binds -> "node" or "rel", and the label its
    nodes name (`(m:Room)`): its nodes are parenthesised expressions (`(m)`, `(m:Label)`) or node
    patterns, its relationships `rel_detail`s."""
    found: dict[str, str] = {}
    labels: dict[str, frozenset[str]] = {}
    atoms = [pattern.children[0]]
    for part in pattern.children[1:]:
        if isinstance(part, Tree) and part.data == "pattern_tail":
            atoms += part.children
    for atom in atoms:
        inner, label = atom, None
        while isinstance(inner, Tree) and inner.data in ("paren", "has_label"):
            if inner.data == "has_label" and isinstance(inner.children[1], Tree) \
                    and inner.children[1].data == "label_term":
                label = plain_name(inner.children[1].children[0])
            inner = inner.children[0]
        named = isinstance(inner, Tree) and inner.children \
            and isinstance(inner.children[0], Tree) and inner.children[0].data == "name"
        if named and inner.data in ("var", "node_pattern"):
            found[plain_name(inner.children[0])] = "node"
            if label is not None:
                labels[plain_name(inner.children[0])] = frozenset({label})
    for sub in pattern.iter_subtrees():
        if sub.data == "rel_detail" and sub.children and isinstance(sub.children[0], Tree) \
                and sub.children[0].data == "name":
            found[plain_name(sub.children[0])] = "rel"
    return found, labels


# Functions whose value differs from call to call (each row computes its own).
_VOLATILE = frozenset({"rand", "randomuuid"})


def _constant(value: Tree) -> bool:
    """Whether `value` is the same on every row: it reads no variable (a lambda's own aside),
    holds no subquery, pattern or aggregate, and calls nothing volatile (`[{k: 1}, {k: 2}]`)."""
    return not reads(value) and not has_aggregate(value) and not any(
        sub.data in ("subquery", "pattern_predicate")
        or (sub.data in ("call", "call_star", "call_distinct")
            and function_name(sub.children[0]).lower() in _VOLATILE)
        for sub in value.iter_subtrees())


class TypeAnnotator:
    """Walks the clauses of each single query in order, keeping the variables in scope."""

    def __init__(self) -> None:
        self.has_numbers = False  # a value typed `number` (read by number_results.py)
        # Variables an OPTIONAL MATCH bound first: they may be NULL (read by null_struct.py).
        self.optional: set[str] = set()
        # Variables a WITH, RETURN or UNWIND bound to a value other than a variable's (`WITH
        # head(collect(o)) AS top`): they may be NULL too, and hold a value an expression made.
        self.computed: set[str] = set()
        # Variables a lambda binds, where it is read: an element of a list (`[x IN [b] | ..]`
        # holds NULL where b is NULL; one of nodes(p) never does).
        self.elements: set[str] = set()
        # Variables a WITH bound to a list that never holds NULL: a collect() (or split(),
        # range(), ..) of values other than lists and maps (read by cross_types.py).
        self.null_free: set[str] = set()
        # Node variables -> the labels their patterns allow (absent: any label).
        self.labels: dict[str, frozenset[str]] = {}
        # Variables a lambda binds to the elements of a list that may hold NULL.
        self.null_elements: set[str] = set()
        # Variables that hold one value on every row: bound by a WITH that aggregates without
        # a grouping key (one row), or to a value that reads nothing of the row (a list
        # literal), then only passed on (read by captures.py).
        self.uniform: set[str] = set()

    def run(self, root: Tree) -> None:
        for single in _outer_single_queries(root):
            self._forget_names()   # a UNION's parts bind their names apart
            self._single_query(single, {})

    def _forget_names(self) -> None:
        """Drop what the annotator holds about names (a UNION part's `ms` is not the part
        before's, whose list held no NULL)."""
        self.optional, self.computed, self.elements = set(), set(), set()
        self.null_free, self.null_elements, self.uniform = set(), set(), set()
        self.labels = {}

    def _subquery(self, node: Tree, scope: dict[str, str]) -> None:
        """An EXISTS, COUNT or COLLECT subquery's parts, seeing the variables in scope around it
        (`point.distance(c.center, s.center)` of an outer s); what it binds stays inside."""
        saved = (set(self.computed), set(self.elements), set(self.null_free), dict(self.labels),
                 set(self.uniform))
        for part in node.children[1:]:
            if not isinstance(part, Tree):
                continue
            if part.data == "query":
                for single in part.children:
                    if isinstance(single, Tree) and single.data == "single_query":
                        self._single_query(single, dict(scope))
            elif part.data == "subquery_pattern":
                inner = dict(scope)
                for child in part.children:
                    if isinstance(child, Tree) and child.data == "pattern_list":
                        self._bind_patterns(child, inner)
                    elif isinstance(child, Tree) and child.data == "where":
                        self.expr(child.children[0], inner)
        self.computed, self.elements, self.null_free, self.labels, self.uniform = saved

    def _single_query(self, single: Tree, scope: dict[str, str]) -> None:
        self.uniform = set()   # each part of a UNION (and each subquery) starts its own rows
        for clause in single.children:
            if isinstance(clause, Tree):
                scope = self._clause(clause, scope)

    def _clause(self, clause: Tree, scope: dict[str, str]) -> dict[str, str]:
        kind = clause.data
        if kind == "match":
            clause.scope_before = dict(scope)  # type: ignore[attr-defined]
            before = set(scope)
            scope = dict(scope)
            for child in clause.children:
                if isinstance(child, Tree) and child.data == "pattern_list":
                    self._bind_patterns(child, scope, narrow=not is_optional(clause))
            self.uniform -= set(scope) - before
            if is_optional(clause):
                self.optional |= set(scope) - before
            else:   # a MATCH finds no row for a NULL node
                self.computed -= _pattern_names(clause)
            for child in clause.children:
                if isinstance(child, Tree) and child.data == "where":
                    self.expr(child.children[0], scope)
            return scope
        if kind == "unwind":
            source, alias = clause.children
            scope = dict(scope)
            scope[plain_name(alias)] = element(self.expr(source, scope))
            written = [c.ctype for c in source.children] if source.data == "list_literal" \
                else []
            if written and all(isinstance(t, WrittenMap) for t in written):
                scope[plain_name(alias)] = WrittenMap.together(written)
            self.computed.add(plain_name(alias))
            self.uniform.discard(plain_name(alias))
            self.labels.pop(plain_name(alias), None)   # a new name: any label
            return scope
        if kind in ("with_clause", "return_clause"):
            new_scope = self._projection(clause.children[0], scope)
            for child in clause.children[1:]:
                if isinstance(child, Tree) and child.data == "where":
                    self.expr(child.children[0], new_scope)
            return new_scope
        return scope

    def _bind_patterns(self, patterns: Tree, scope: dict[str, str], narrow: bool = True) -> None:
        """Bind the names of `patterns`; a label narrows a node bound before only where the
        pattern must match (`narrow`): an OPTIONAL MATCH that finds nothing keeps the node
        bound before whatever its label (`OPTIONAL MATCH (n:Room)` of an object)."""
        for pattern in patterns.children:
            if len(pattern.children) == 3:  # p = (...)
                scope[plain_name(pattern.children[0])] = "path"
            for sub in pattern.iter_subtrees_topdown():
                if sub.data == "node_pattern":
                    named = [c for c in sub.children if c.data == "name"]
                    if named:
                        bound = plain_name(named[0])
                        known_node = scope.get(bound) == "node"
                        if not known_node:   # a new name: its own labels only
                            self.labels.pop(bound, None)
                        scope[bound] = "node"
                        allowed = pattern_labels(sub)
                        if allowed is not None and (narrow or not known_node):
                            known = self.labels.get(bound)
                            self.labels[bound] = allowed if known is None else known & allowed
                elif sub.data == "rel_detail":
                    named = [c for c in sub.children if c.data == "name"]
                    var_length = any(c.data == "var_length" for c in sub.children)
                    if named:
                        scope[plain_name(named[0])] = "list<rel>" if var_length else "rel"
                if sub.data in ("map_literal",):
                    for entry in sub.children:
                        self.expr(entry.children[1], scope)

    def _projection(self, projection: Tree, scope: dict[str, str]) -> dict[str, str]:
        projection.scope_before = dict(scope)  # type: ignore[attr-defined]
        items = child_of(projection, "proj_items")
        new_scope: dict[str, str] = {}
        computed: set[str] = set()
        plain: set[str] = set()
        null_free: set[str] = set()
        labels: dict[str, frozenset[str]] = {}   # the names passed on keep theirs
        for item in items.children:
            if isinstance(item, Token):  # *
                new_scope.update(scope)
                null_free |= self.null_free
                labels.update({n: ls for n, ls in self.labels.items() if n in scope})
                continue
            value = self.expr(item.children[0], scope)
            if item.children[0].data == "var" \
                    and plain_name(item.children[0].children[0]) in self.labels:
                labels[item_name(item)] = self.labels[plain_name(item.children[0].children[0])]
            if len(item.children) > 1:
                alias = plain_name(item.children[1])
                new_scope[alias] = value
                read = item.children[0]
                if read.data == "var" and plain_name(read.children[0]) not in self.computed:
                    plain.add(alias)
                    if plain_name(read.children[0]) in self.optional:
                        self.optional.add(alias)
                else:
                    computed.add(alias)
                if _null_free_list(read, value) or (read.data == "var" and plain_name(
                        read.children[0]) in self.null_free):
                    null_free.add(alias)
            elif item.children[0].data == "var":
                new_scope[plain_name(item.children[0].children[0])] = value
        self.computed = (self.computed - plain) | computed
        self.labels = labels
        kept = {plain_name(i.children[0].children[0]) for i in items.children
                if isinstance(i, Tree) and len(i.children) == 1 and i.children[0].data == "var"}
        self.null_free = null_free | (self.null_free & kept)
        keyless = all(isinstance(i, Tree) and has_aggregate(i.children[0])
                      for i in items.children)
        self.uniform = set(new_scope) if keyless and items.children else (
            self.uniform & (kept | (set(scope) if any(isinstance(i, Token)
                                                       for i in items.children) else set())))
        self.uniform |= {item_name(i) for i in items.children
                         if isinstance(i, Tree) and len(i.children) > 1
                         and _constant(i.children[0])}
        order_scope = {**scope, **new_scope}
        for child in projection.children:
            if isinstance(child, Tree) and child.data in ("order", "skip", "limit"):
                for sub in child.children:
                    if isinstance(sub, Tree):
                        target = sub.children[0] if sub.data == "sort_item" else sub
                        self.expr(target, order_scope)
        return new_scope

    # ---------------------------------------------------------------- expressions
    def expr(self, node: object, scope: dict[str, str]) -> str:
        if not isinstance(node, Tree):
            return UNKNOWN
        result = self._infer(node, scope)
        node.ctype = result  # type: ignore[attr-defined]
        if result == "number" or (result.startswith("list<") and result_positions(node)):
            self.has_numbers = True   # number_results.py retypes it
        return result

    def _infer(self, node: Tree, scope: dict[str, str]) -> str:
        kind = node.data
        if kind in _LITERALS:
            return _LITERALS[kind]
        if kind in _BOOL_NODES:
            for child in node.children:
                self.expr(child, scope)
            return "bool"
        if kind == "var":
            held = plain_name(node.children[0])
            node.computed = held in self.computed  # type: ignore[attr-defined]
            node.nullable = held in self.optional or node.computed  # type: ignore[attr-defined]
            node.element = held in self.elements  # type: ignore[attr-defined]
            node.null_free = held in self.null_free  # type: ignore[attr-defined]
            node.uniform = held in self.uniform  # type: ignore[attr-defined]
            node.null_element = held in self.null_elements  # type: ignore[attr-defined]
            node.labels = self.labels.get(plain_name(node.children[0]))  # type: ignore[attr-defined]
            return scope.get(plain_name(node.children[0]), UNKNOWN)
        if kind == "paren":
            return self.expr(node.children[0], scope)
        if kind == "prop":
            return self._prop(node, scope)
        if kind == "arith":
            left = self.expr(node.children[0], scope)
            right = self.expr(node.children[2], scope)
            return arith_type(left, str(node.children[1]), right)
        if kind == "unary":
            return self.expr(node.children[1], scope)
        if kind == "list_literal":
            elements = [self.expr(c, scope) for c in node.children]
            return f"list<{unify_results(elements)}>" if elements else f"list<{UNKNOWN}>"
        if kind == "map_literal":
            return WrittenMap({plain_name(entry.children[0]): self.expr(entry.children[1], scope)
                               for entry in node.children})
        if kind == "index":
            base = self.expr(node.children[0], scope)
            self.expr(node.children[1], scope)
            if base.startswith("list<"):
                return element(base)
            if base in ("node", "rel") and node.children[1].data == "str_lit":
                return property_type(str(node.children[1].children[0])[1:-1])
            return UNKNOWN
        if kind == "slice":
            base = self.expr(node.children[0], scope)
            for child in node.children[1:]:
                self.expr(child, scope)
            return base
        if kind == "case_expr":
            return self._case(node, scope)
        if kind in ("call", "call_distinct", "call_star"):
            return self._call(node, scope)
        if kind in ("list_comp", "list_comp_map"):
            return self._list_comp(node, scope)
        if kind == "subquery":
            self._subquery(node, scope)
            keyword = function_name(node.children[0]).lower()
            return {"count": "int", "exists": "bool"}.get(keyword, UNKNOWN)
        if kind == "map_projection":
            self.expr(node.children[0], scope)
            for item in node.children[1:]:
                if item.data == "proj_key":
                    self.expr(item.children[1], scope)
            return "map"
        for child in node.children:
            self.expr(child, scope)
        return UNKNOWN

    def _prop(self, node: Tree, scope: dict[str, str]) -> str:
        base = self.expr(node.children[0], scope)
        key = plain_name(node.children[1])
        if base in ("node", "rel"):
            return property_type(key)
        if base in POINTS:
            return "float" if key in POINT_FIELDS else UNKNOWN
        if isinstance(base, WrittenMap):
            return base.fields.get(key, UNKNOWN)
        return UNKNOWN

    def _case(self, node: Tree, scope: dict[str, str]) -> str:
        results = []
        for child in node.children:
            if isinstance(child, Tree) and child.data == "case_when":
                self.expr(child.children[0], scope)
                results.append(self.expr(child.children[1], scope))
            else:
                results.append(self.expr(child, scope))
        # A simple CASE's subject is the first child and not a result.
        if node.children and not (isinstance(node.children[0], Tree)
                                  and node.children[0].data == "case_when"):
            results = results[1:]
        return unify_results(results)

    def _call(self, node: Tree, scope: dict[str, str]) -> str:
        fname = function_name(node.children[0]).lower()
        args = [c for c in node.children[1:] if isinstance(c, Tree)]
        if fname in ("any", "all", "none", "single") and args \
                and args[0].data == "where_arg":
            self._bound(args[0].children[0], args[0].children[1], scope)
            return "bool"
        if fname == "reduce" and len(args) == 2:
            return self._reduce(args, scope)
        arg_types = [self.expr(a, scope) for a in args]
        if fname == "point" and args and args[0].data == "map_literal" and not any(
                plain_name(entry.children[0]).lower() == "z" for entry in args[0].children):
            return POINT_2D
        if fname == "properties" and arg_types == ["node"] and args[0].data == "var":
            keys = layout_keys(getattr(args[0], "labels", None))
            if keys is not None:   # the struct `Rewriter.node_property_map` writes
                return WrittenMap({key: property_type(key) for key in keys}, stored=True)
        if fname == "percentilecont" and arg_types and arg_types[0] not in ("float", FLOAT_SUM):
            # Neo4j returns the stored value where the index lands on one (one value, 1.0,
            # 0.5 of an odd count: an INTEGER of integers) and a FLOAT where it interpolates
            # (`PercentileContFunction.computePercentileCont`)
            return "number"
        if fname in _FIXED_RESULT:
            return _FIXED_RESULT[fname]
        if fname in _SAME_AS_ARGUMENT:
            return unify_results(arg_types) if fname == "coalesce" else \
                (arg_types[0] if arg_types else UNKNOWN)
        if fname == "sum":
            if arg_types and arg_types[0] == "float":
                return FLOAT_SUM
            return arg_types[0] if arg_types and arg_types[0] in NUMBERS else UNKNOWN
        if fname == "collect":
            return f"list<{arg_types[0] if arg_types else UNKNOWN}>"
        if fname in ("head", "last"):
            return element(arg_types[0]) if arg_types else UNKNOWN
        if fname in ("tail", "reverse"):
            return arg_types[0] if arg_types else UNKNOWN
        return UNKNOWN

    def _bound(self, binding: object, body: object, scope: dict[str, str]) -> str:
        """`x IN list` binds x to the list's element inside `body`; the body's type."""
        inner = dict(scope)
        bound: list[str] = []
        if isinstance(binding, Tree) and binding.data == "in_":
            source = self.expr(binding.children[1], scope)
            if binding.children[0].data == "var":
                bound.append(plain_name(binding.children[0].children[0]))
                inner[bound[0]] = element(source)
            return self._inside(bound, lambda: self.expr(body, inner), binding.children[1])
        return self._inside(bound, lambda: self.expr(body, inner))

    def _inside(self, bound: list[str], typed: Callable[[], T],
                source: Tree | None = None) -> T:
        """`typed()` with the names a lambda binds marked as its elements (and as elements
        that may be NULL, where `source`, the list, may hold NULL), the outer meaning of those
        names restored after."""
        outer = self.elements & set(bound)
        outer_null = self.null_elements & set(bound)
        outer_labels = {n: self.labels.pop(n) for n in bound if n in self.labels}
        self.elements |= set(bound)
        if source is not None and self._may_hold_null(source):
            self.null_elements |= set(bound)
        try:
            return typed()
        finally:
            self.elements = (self.elements - set(bound)) | outer
            self.null_elements = (self.null_elements - set(bound)) | outer_null
            self.labels.update(outer_labels)

    def _may_hold_null(self, source: Tree) -> bool:
        """Whether a list may hold NULL: a literal of anything but nodes a MATCH bound, or a
        list neither a collect() (nodes(p), ..) nor a WITH's name for one makes."""
        if source.data == "list_literal":
            return not all(c.data == "var" and not getattr(c, "nullable", True)
                           for c in source.children)
        if source.data in ("call", "call_distinct") and isinstance(source.children[0], Tree) \
                and function_name(source.children[0]).lower() in NULL_FREE_LISTS:
            return False
        return not (source.data == "var" and plain_name(source.children[0]) in self.null_free)

    def _list_comp(self, node: Tree, scope: dict[str, str]) -> str:
        binding, *rest = node.children
        if isinstance(binding, Tree) and binding.data == "pattern_predicate":
            # A pattern comprehension: its node and relationship names are nodes and
            # relationships inside it (`[(r)-->(m) | m]` is a list of nodes).
            names, labels = _comprehension_pattern_names(binding)
            inner = {**scope, **names}
            # read as nullable: the translation matches the pattern with an OPTIONAL MATCH
            # (`pattern_lists.py`), whose row without a match holds NULLs
            added = set(names) - self.optional
            self.optional |= added
            outer_labels = dict(self.labels)
            self.labels.update(labels)
            try:
                results = [self.expr(child, inner) for child in node.children]
                # a COLLECT's ORDER BY rides on the comprehension (`collect_subqueries.py`)
                for ranked in getattr(node, "ranked", None) or ():
                    for sort_item in ranked.children if ranked.data == "order" else ():
                        self.expr(sort_item.children[0], inner)
            finally:
                self.optional -= added
                self.labels = outer_labels
            return f"list<{results[-1]}>" if node.data == "list_comp_map" or len(rest) == 2 \
                else f"list<{UNKNOWN}>"
        if not (isinstance(binding, Tree) and binding.data == "in_"):
            for child in node.children:
                self.expr(child, scope)
            return f"list<{UNKNOWN}>"
        source = self.expr(binding.children[1], scope)
        inner = dict(scope)
        bound: list[str] = []
        if binding.children[0].data == "var":
            bound.append(plain_name(binding.children[0].children[0]))
            inner[bound[0]] = element(source)
        results = self._inside(bound, lambda: [self.expr(part, inner) for part in rest],
                               binding.children[1])
        if node.data == "list_comp_map" or len(rest) == 2:
            return f"list<{results[-1]}>"
        return source

    def _reduce(self, args: list[Tree], scope: dict[str, str]) -> str:
        init, body = args
        inner = dict(scope)
        start = UNKNOWN
        bound: list[str] = []
        if init.data == "compare" and init.children[0].data == "var":
            start = self.expr(init.children[2], scope)
            bound.append(plain_name(init.children[0].children[0]))
            # the accumulator holds the steps' maps too, whose fields may differ from the start's
            inner[bound[0]] = "map" if isinstance(start, WrittenMap) else start
        if body.data == "pipe_arg":
            step = self._inside(bound, lambda: self._bound(body.children[0], body.children[1],
                                                           inner))
            return unify_results([start, step])
        return start


def property_type(key: str) -> str:
    """The type of a stored property of the layout (UNKNOWN: not one)."""
    if key in STRING_PROPERTIES:
        return "str"
    if key in POINT_PROPERTIES:
        return "point"
    return UNKNOWN


def arith_type(left: str, op: str, right: str) -> str:
    """The type of `left op right` (`+` of a string is concatenation; `||` concatenates two
    strings or two lists, nothing else)."""
    if "null" in (left, right):
        return "null"
    if op == "||":
        both = left == right == "str" or (left.startswith("list<") and right.startswith("list<"))
        return arith_type(left, "+", right) if both else UNKNOWN
    if op == "+":
        if left.startswith("list<") or right.startswith("list<"):
            return left if left.startswith("list<") else right
        if "str" in (left, right) \
                and {left, right} <= {"str", "int", "float", "number", FLOAT_SUM, "bool", UNKNOWN}:
            return "str"  # concatenation (an unknown operand is taken for text or a number)
    if left in NUMBERS and right in NUMBERS:
        if op == "^" or "float" in (left, right):
            return "float"
        if left == right == "int":
            return "int"
        if "number" not in (left, right) and (op == "*" or (op in "/%" and left == FLOAT_SUM)
                                              or left == right == FLOAT_SUM):
            return FLOAT_SUM  # the integer 0 stays 0 (or the division raises)
        if op in "/%" and (left, right) == ("int", FLOAT_SUM):
            return "float"    # by 0 it raises; by a float, a float
        return "number"
    return UNKNOWN


def annotate_types(root: Tree) -> None:
    """Leave `ctype` on every expression node and `scope_before` on every projection, and
    `has_numbers` on the root."""
    annotator = TypeAnnotator()
    annotator.run(root)
    root.has_numbers = annotator.has_numbers  # type: ignore[attr-defined]


def typed(node: Tree, node_type: str) -> Tree:
    """`node` with its annotated type set: a tree a pass builds after the annotation, which
    later type-directed rewrites read like the annotator's."""
    node.ctype = node_type  # type: ignore[attr-defined]
    return node


def ctype(node: object) -> str:
    """The annotated type of an original expression node (`?` for nodes a rewrite built)."""
    return getattr(node, "ctype", UNKNOWN)


# The engines' types of the scalar values a typed NULL can stand in for (a padded list,
# `rewrite._safe_index`; a struct of several kinds, `mixed_results.py`).
KUZU_SCALAR_TYPES = {"str": "STRING", "int": "INT64", "float": "DOUBLE", "bool": "BOOL"}


def result_positions(node: Tree) -> list[int]:
    """The child positions of a CASE's or coalesce()'s results ([]: neither). A CASE's are its
    WHENs and the ELSE, never a simple CASE's subject (its first child, not a WHEN)."""
    if node.data == "case_expr":
        return [i for i, child in enumerate(node.children)
                if i > 0 or (isinstance(child, Tree) and child.data == "case_when")]
    if node.data == "call" and function_name(node.children[0]).lower() == "coalesce":
        return list(range(1, len(node.children)))
    return []


def result_type(node: Tree, position: int) -> str:
    """The annotated type of the result at `position` (`result_positions`)."""
    child = node.children[position]
    if node.data == "case_expr" and isinstance(child, Tree) and child.data == "case_when":
        return ctype(child.children[1])
    return ctype(child)
