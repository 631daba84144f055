"""Maps of different shapes where one value holds either: written alike, or refused.

Neo4j's maps are keyed by name and each value keeps its own type. Kuzu 0.11.3 and Ladybug
0.22.0 make a map a struct, and where one expression holds maps written apart (a CASE's
results, coalesce()'s arguments, a list's elements) they cast every map to one struct type,
field by field in order. The emitter writes every map's keys sorted (`emit.e_map_literal`),
so maps with the same keys line up; three more differences were silent:

- other keys: `CASE WHEN k = 1 THEN {a: 1} ELSE {b: 2} END.a` is NULL in Neo4j for k = 2, and
  2 on the engines (the struct `{b: 2}` cast to `{a}`): refused;
- a field of other types, or NULL in one map: `{count: 'none'}` beside `{count: n}` read the
  count as text ('2'), `CASE WHEN k = 1 THEN {d: null} ELSE {d: 0.5} END.d` the text
  '0.500000' for k = 1 and NULL for k = 2 on Ladybug: refused;
- a field that is an integer in one map and a float in another: the struct takes the first
  map's field type, so `CASE WHEN d IS NULL THEN {dist: -1} ELSE {dist: round(d, 2)} END`
  gave 4 for 4.07. Models write that shape ("-1 for none", `number_results.py` answers it for
  plain values), so the integers are written as floats (`toFloat(-1)`): every value equals
  Neo4j's. Where the type itself would show (`/` and `%` divide an integer as a float) a field
  read of such a query is refused (`Rewriter.number_fields`); `toString()` of a field already is.

Maps are compared where they are written (literals, projections listing their keys), into
nested maps and lists, across a CASE's results, coalesce()'s arguments, a list's elements, the
two lists of `+` and a UNION's columns. A map whose keys the query does not write (a variable
holding one, a map's field, `n {.*}`) beside another map is refused: its keys may differ.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import BINDERS, bare, call, child_of, function_name
from dsgqa.dialect.types import (
    FLOAT_SUM,
    UNKNOWN,
    ctype,
    property_type,
    result_positions,
    typed,
)

REWRITE = "integer and float fields of maps->toFloat"
# Text that a query holding a map literal or projection entry has (the pass is skipped without).
MAP_ENTRY = re.compile(r"\{\s*(?:`[^`]*`|\w+|\.\w+)\s*[:,}]")
# A map whose keys the query does not write, or a list that may hold one.
_OPAQUE = "map?"
# A field's types that make the engines' struct truncate or widen an integer.
_FLOATS = frozenset({"float", "number", FLOAT_SUM})


def _element(signature: object) -> object:
    """The signature of a list's element (`_OPAQUE`: not known)."""
    if isinstance(signature, tuple) and signature[0] == "list":
        elements = set(signature[1]) - {"null"}
        if len(elements) == 1:
            return next(iter(elements))
        if elements and elements <= {"int"} | _FLOATS:
            return "number"   # a list of both, which the engines hold as floats
        return "null" if not elements and signature[1] else _OPAQUE
    if isinstance(signature, str) and signature.startswith("list<"):
        inner = signature[5:-1]
        return _OPAQUE if "map" in inner else inner
    return _OPAQUE


class _Signatures:
    """What the engines' struct type of a value depends on: a written map's keys and its
    fields' signatures, a written list's elements' signatures, what a variable was bound to
    (a WITH's alias, an UNWIND's element, a lambda's element, reduce's accumulator), else the
    annotated type (`_OPAQUE` for a map, or a list of maps, the query does not spell out)."""

    def __init__(self) -> None:
        self.names: dict[str, object] = {}

    def of(self, node: object) -> object:
        node = bare(node)
        if not isinstance(node, Tree):
            return UNKNOWN
        if node.data == "map_literal":
            return ("map", tuple(sorted((plain_name(e.children[0]), self.of(e.children[1]))
                                        for e in node.children)))
        if node.data == "map_projection":
            fields = []
            for item in node.children[1:]:
                if item.data == "proj_all":
                    return _OPAQUE
                key = plain_name(item.children[0])
                fields.append((key, self.of(item.children[1]) if item.data == "proj_key"
                               else property_type(key)))
            return ("map", tuple(sorted(fields)))
        if node.data == "list_literal":
            return ("list", frozenset(self.of(c) for c in node.children))
        if node.data == "var" and plain_name(node.children[0]) in self.names:
            return self.names[plain_name(node.children[0])]
        if node.data in ("call", "call_distinct") and len(node.children) >= 2:
            fname = function_name(node.children[0]).lower()
            if fname == "collect":
                return ("list", frozenset({self.of(node.children[-1])}))
            if fname in ("head", "last"):
                return _element(self.of(node.children[1]))
        if node.data == "index":
            return _element(self.of(node.children[0]))
        if node.data == "list_comp" and len(node.children) == 2 \
                and isinstance(node.children[0], Tree) and node.children[0].data == "in_":
            return self.of(node.children[0].children[1])   # a filter keeps the elements
        if node.data == "case_expr" or (node.data == "call" and function_name(
                node.children[0]).lower() == "coalesce"):
            # one of its results (the expression itself is checked as a context)
            results = {self.of(v) for v in _together(node) or []} - {"null"}
            maps = {tuple(k for k, _ in r[1]) for r in results
                    if isinstance(r, tuple) and r[0] == "map"}
            if len(results) == 1 or (len(maps) == 1 and len(results) == len(
                    [r for r in results if isinstance(r, tuple) and r[0] == "map"])):
                return next(iter(sorted(results, key=repr)))
            return _OPAQUE if any(map(_holds_map, results)) else ctype(node)
        if node.data == "prop" and ctype(node.children[0]) not in ("node", "rel"):
            base = self.of(node.children[0])   # a field of a map (`m.n`)
            if isinstance(base, tuple) and base[0] == "map":
                return dict(base[1]).get(plain_name(node.children[1]), "null")
            if base in (_OPAQUE, UNKNOWN):
                # a field of a map whose keys are not known: any value, perhaps a map
                return _OPAQUE if ctype(node) == "map" else ctype(node)
        value_type = ctype(node)
        return _OPAQUE if "map" in value_type else value_type


def _holds_map(signature: object) -> bool:
    if signature == _OPAQUE:
        return True
    if isinstance(signature, tuple) and signature[0] == "map":
        return True
    return isinstance(signature, tuple) and any(map(_holds_map, signature[1]))


def _check(signatures: list[object], in_map: bool) -> list[str]:
    """Refuse signatures the engines' one struct type cannot hold faithfully; the keys of the
    written top-level maps whose fields mix integers and floats (to write as floats)."""
    known = [s for s in signatures if s != "null"]
    if len(known) < 2 or not (in_map or any(map(_holds_map, known))):
        return []
    if _OPAQUE in known or (UNKNOWN in known and any(map(_holds_map, known))):
        raise DialectError("a map whose keys the query does not write beside another map (the "
                           "engines cast one struct to the other's fields by position)")
    kinds = {s[0] if isinstance(s, tuple) else "scalar" for s in known}
    if len(kinds) > 1:
        if in_map:
            raise DialectError("a map field that is a written list in one map and another "
                               "value in another (the engines cast one to the other's type)")
        return []   # a map beside a value: the engines refuse to bind it
    if kinds == {"map"}:
        keys = {tuple(k for k, _ in s[1]) for s in known}   # type: ignore[index]
        if len(keys) > 1:
            raise DialectError("maps with different keys in one value (the engines cast one to "
                               "the other's fields by position)")
        floats = []
        for i, key in enumerate(next(iter(keys))):
            fields = [s[1][i][1] for s in known]   # type: ignore[index]
            if any(isinstance(f, tuple) or f == _OPAQUE for f in fields):
                _check(fields, True)
                continue
            types = set(fields)
            if len(types) == 1 and UNKNOWN not in types:
                continue
            if types <= {"int"} | _FLOATS and not in_map:
                floats.append(key)   # written as floats (see the module)
                continue
            raise DialectError(f"a map field ({key}) of different types, or NULL, in maps one "
                               "value holds (the engines give every map the first one's field "
                               "types)")
        return floats
    if kinds == {"list"} and _check([e for s in known for e in s[1]], in_map):  # type: ignore[index]
        raise DialectError("maps in lists one value holds, whose field is an integer in one "
                           "and a float in another")
    elif in_map and len(set(known)) > 1 and not set(known) <= {"int"} | _FLOATS:
        raise DialectError("a list in a map whose elements differ in type between maps")
    return []


def _as_floats(values: list[object], signatures: list[object], keys: list[str]) -> None:
    """The integer `keys` fields of the written maps among `values` (of these signatures), as
    floats; a map not written as a literal with an integer there is refused."""
    for value, signature in zip(values, signatures, strict=True):
        if not isinstance(signature, tuple):
            continue   # NULL
        fields = dict(signature[1])
        if not any(fields.get(key) == "int" for key in keys):
            continue
        literal = bare(value)
        if not (isinstance(literal, Tree) and literal.data == "map_literal"):
            raise DialectError("a map field that is an integer in one map and a float in "
                               "another, in a map not written as a literal (the engines give "
                               "every map the first one's field type)")
        for entry in literal.children:
            if plain_name(entry.children[0]) in keys and ctype(entry.children[1]) == "int":
                entry.children[1] = typed(call("toFloat", entry.children[1]), "float")


def _together(node: Tree) -> list[object] | None:
    """The values one expression holds either of: a CASE's results, coalesce()'s arguments, a
    list literal's elements, the two lists `+` joins (None: no such expression)."""
    if node.data == "list_literal":
        return list(node.children)
    if node.data == "arith" and str(node.children[1]) == "+" \
            and any(ctype(c).startswith("list<") for c in node.children[::2]):
        return [node.children[0], node.children[2]]   # two lists, or a list and an element
    if node.data == "case_expr" or (node.data == "call" and function_name(
            node.children[0]).lower() == "coalesce"):
        values = [node.children[i] for i in result_positions(node)]
        return [v.children[1] if isinstance(v, Tree) and v.data == "case_when" else v
                for v in values]
    return None


def _union_columns(query: Tree) -> list[list[object]]:
    """A UNION's columns: each part's RETURN item at one position."""
    parts = [c for c in query.children if isinstance(c, Tree) and c.data == "single_query"]
    returns = [part.children[-1] for part in parts]
    if len(parts) < 2 or any(r.data != "return_clause" for r in returns):
        return []
    items = [child_of(r.children[0], "proj_items").children for r in returns]
    if any(isinstance(i, Token) for row in items for i in row) \
            or len({len(row) for row in items}) > 1:
        return []
    return [[row[i].children[0] for row in items] for i in range(len(items[0]))]


class _Aligner:
    """The walk: clauses in order, each expression's contexts checked with the signatures of
    the names bound so far."""

    def __init__(self) -> None:
        self.signatures = _Signatures()
        self.aligned = False

    def query(self, query: Tree) -> None:
        for column in _union_columns(query):
            if _check([self.signatures.of(v) for v in column], False):
                raise DialectError("a UNION column of maps whose field is an integer in one "
                                   "part and a float in another")
        outer = dict(self.signatures.names)
        for part in query.children:
            if isinstance(part, Tree) and part.data == "single_query":
                self.signatures.names = dict(outer)
                for clause in part.children:
                    if isinstance(clause, Tree):
                        self.clause(clause)
        self.signatures.names = outer

    def clause(self, clause: Tree) -> None:
        names = self.signatures.names
        if clause.data == "call_subquery":
            self.query(next(c for c in clause.children if isinstance(c, Tree)
                            and c.data == "query"))
            return
        where = child_of(clause, "where") if clause.data == "with_clause" else None
        for part in clause.children:
            if isinstance(part, Tree) and part is not where:
                self.expression(part)
        if clause.data == "unwind":
            names[plain_name(clause.children[1])] = _element(self.signatures.of(
                clause.children[0]))
        elif clause.data == "with_clause":
            items = child_of(clause.children[0], "proj_items").children
            kept = dict(names) if any(isinstance(i, Token) for i in items) else {}
            for item in items:
                if isinstance(item, Tree) and len(item.children) == 2:
                    kept[plain_name(item.children[1])] = self.signatures.of(item.children[0])
                elif isinstance(item, Tree) and item.children[0].data == "var":
                    held = plain_name(item.children[0].children[0])
                    if held in names:
                        kept[held] = names[held]
            self.signatures.names = kept
            if where is not None:   # reads the names the WITH binds
                self.expression(where)
        elif clause.data == "match":
            for name_node in clause.iter_subtrees():
                if name_node.data == "name":
                    names.pop(plain_name(name_node), None)

    def expression(self, node: Tree) -> None:
        if node.data == "subquery":
            for part in node.children[1:]:
                if isinstance(part, Tree) and part.data == "query":
                    self.query(part)
                elif isinstance(part, Tree):
                    self.expression(part)
            return
        bound = self._bind(node)
        if bound:
            saved = dict(self.signatures.names)
            self.signatures.names.update(bound)
        try:
            values = _together(node)
            if values is not None:
                signatures = [self.signatures.of(v) for v in values]
                if node.data == "arith" and len({ctype(v).startswith("list<")
                                                 for v in values}) == 2:
                    # `list + element`: the element beside the list's elements
                    signatures = [("list", frozenset({s})) if not ctype(v).startswith("list<")
                                  else s for v, s in zip(values, signatures, strict=True)]
                floats = _check(signatures, False)
                if floats:
                    _as_floats(values, signatures, floats)
                    self.aligned = True
            for child in node.children:
                if isinstance(child, Tree):
                    self.expression(child)
        finally:
            if bound:
                self.signatures.names = saved

    def _bind(self, node: Tree) -> dict[str, object]:
        """The names a lambda binds for its children and their signatures; reduce's seed
        and elements meet in one list (`list_concat([seed], list)`), checked here."""
        if node.data == "call" and function_name(node.children[0]).lower() == "reduce" \
                and len(node.children) == 3 and isinstance(node.children[1], Tree) \
                and node.children[1].data == "compare" \
                and node.children[1].children[0].data == "var" \
                and isinstance(node.children[2], Tree) and node.children[2].data == "pipe_arg":
            seed_node = node.children[1].children[2]
            binding = node.children[2].children[0]
            element = _element(self.signatures.of(binding.children[1])) \
                if isinstance(binding, Tree) and binding.data == "in_" else _OPAQUE
            seed = self.signatures.of(seed_node)
            accumulator = plain_name(node.children[1].children[0].children[0])
            step_node = node.children[2].children[1]
            saved = dict(self.signatures.names)
            self.signatures.names[accumulator] = seed
            if isinstance(binding, Tree) and binding.data == "in_" \
                    and binding.children[0].data == "var":
                self.signatures.names[plain_name(binding.children[0].children[0])] = element
            step = self.signatures.of(step_node)
            self.signatures.names = saved
            # the seed, the list's elements and each step's value are one list's elements
            floats = _check([seed, element, step], False)
            if floats:   # `reduce(best = {v: 0}, b IN boxes | ..)` over float fields
                if isinstance(element, tuple) and any(
                        dict(element[1]).get(key) == "int" for key in floats):
                    raise DialectError("reduce() whose list's maps hold an integer field where "
                                       "its seed or step holds a float")
                _as_floats([seed_node, step_node], [seed, step], floats)
                self.aligned = True
            return {accumulator: self.signatures.of(seed_node)}
        if node.data in BINDERS and node.children and isinstance(node.children[0], Tree) \
                and node.children[0].data == "in_" \
                and node.children[0].children[0].data == "var":
            binding = node.children[0]
            return {plain_name(binding.children[0].children[0]):
                    _element(self.signatures.of(binding.children[1]))}
        return {}


def align_maps(root: Tree) -> bool:
    """Refuse maps one value holds whose struct types the engines would cast (see the module);
    write a top-level field's integers as floats beside its floats. Whether any was. Reads the
    annotated types."""
    aligner = _Aligner()
    aligner.query(root.children[0] if root.data == "start" else root)
    return aligner.aligned
