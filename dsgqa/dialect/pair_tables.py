"""A quantifier nested in a lambda that reads the outer element: a table of pairs instead.

`size([a IN os WHERE any(b IN os WHERE b <> a AND point.distance(a.center, b.center) < 1)])`
(objects near another object) is how models ask pairwise questions. Both engines refuse an
inner lambda that reads the outer one's variable ("Lambda paramName _i1 cannot found"). What
Ladybug 0.22.0 runs right, measured on the example graph, is one flat lambda over every pair's
position in a WITH of its own, and an outer lambda over positions reading its slice of that
table (Kuzu 0.11.3 crashes on it, so there the nesting stays refused):

    WITH *, [k IN range(0, size(os) * size(os) - 1) | P(os[k / size(os)], os[k % size(os)])]
            AS _pairs1
    ... [_p IN range(0, size(os) - 1) WHERE <the trues of _pairs1[_p * size(os) ..
        (_p + 1) * size(os)] > 0 ...> | os[_p]]

Neo4j's three-valued quantifiers follow from counts over the outer position's slice of two
tables (1 where the predicate is true; 1 where it is NULL), summed without a lambda: `any` is
true with a true pair, else NULL with a NULL one, else false; `none` the opposite; `all` false
with a false pair, else NULL with a NULL one, else true; `size([b IN L WHERE P])` is the count
of trues. An inner comprehension that maps (`[b IN L WHERE P | F]`, or one that only filters)
is a flat list of F over every kept pair, in a WITH of its own beside a table of which pairs
were kept; the outer position's list is the slice of the flat list between the kept counts
before its pairs and through them (sums again, no lambda inside the outer one).

The inner list must not depend on the outer element, both lists and everything else the
predicate reads must be in scope before the clause, and the outer lambda must be in a WITH's
or RETURN's items, or in the WHERE of a WITH or of a MATCH that is not OPTIONAL, outside any
other lambda (a WHERE's tables go in a `WITH *` after its clause, which takes the WHERE over);
any other nesting (reduce(), single(), an UNWIND of the outer list) stays refused.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.captures import position_range, positions_of
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.order_barrier import has_aggregate
from dsgqa.dialect.trees import (
    Splice,
    call,
    child_of,
    clone,
    declared_outside_subqueries,
    function_name,
    int_lit,
    is_optional,
    mentions,
    name,
    projected_names,
    reads,
    splice_clauses,
    star_with,
    substitute,
    tree,
    var,
    with_before_projections,
)
from dsgqa.dialect.types import ctype, element, typed
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "quantifier nested in a lambda->table of pairs"
_LAMBDAS = frozenset({"list_comp", "list_comp_map"})
_QUANTIFIERS = frozenset({"any", "all", "none"})
# Trees that hold patterns: the outer or inner element cannot be replaced by an index there.
_PATTERNS = frozenset({"pattern_predicate", "subquery", "anon_node"})


def _binding(lam: Tree) -> Tree | None:
    """The `x IN list` of a comprehension or a quantifier, with a variable."""
    found = lam.children[0] if lam.data in _LAMBDAS else (
        lam.children[1].children[0] if lam.data == "call" and len(lam.children) == 2
        and isinstance(lam.children[1], Tree) and lam.children[1].data == "where_arg"
        and function_name(lam.children[0]).lower() in _QUANTIFIERS else None)
    if isinstance(found, Tree) and found.data == "in_" and found.children[0].data == "var":
        return found
    return None


def _inner(node: Tree) -> tuple[str, Tree, Tree] | None:
    """(kind, binding, predicate) for `any/all/none(b IN L WHERE P)` or `size([b IN L WHERE
    P])`; None for any other tree."""
    if node.data == "call" and function_name(node.children[0]).lower() in _QUANTIFIERS:
        binding = _binding(node)
        if binding is not None:
            return function_name(node.children[0]).lower(), binding, node.children[1].children[1]
    if node.data == "call" and function_name(node.children[0]).lower() == "size" \
            and len(node.children) == 2 and isinstance(node.children[1], Tree) \
            and node.children[1].data == "list_comp" and len(node.children[1].children) == 2:
        comprehension = node.children[1]
        binding = _binding(comprehension)
        if binding is not None:
            return "count", binding, comprehension.children[1]
    if node.data in _LAMBDAS:   # [b IN L WHERE P | F], [b IN L | F], [b IN L WHERE P]
        binding = _binding(node)
        if binding is not None:
            test = node.children[1] if node.data == "list_comp" else tree("true_lit")
            mapped = node.children[-1] if len(node.children) == 3 or node.data == \
                "list_comp_map" else clone(binding.children[0])
            return "map", binding, tree("map_parts", test, mapped)
    return None


def _at(source: Tree, position: Tree) -> Tree:
    """`source[position]`, typed as the source's element."""
    return typed(tree("index", clone(source), position), element(ctype(source)))


class _Tables:
    """The pair tables of one clause."""

    def __init__(self, scope: set[str], names: FreshNames) -> None:
        self.scope = scope
        self.names = names
        self.items: list[Tree] = []

    def outer(self, lam: Tree) -> bool:
        """Rewrite one outer lambda whose body holds inner quantifiers reading its variable;
        whether it did (else it is left as it was)."""
        binding = _binding(lam)
        if binding is None:
            return False
        outer_name = plain_name(binding.children[0].children[0])
        source = binding.children[1]
        holder = lam if lam.data in _LAMBDAS else lam.children[1]
        bodies = holder.children[1:]
        found: list[tuple[Tree, int, tuple[str, Tree, Tree]]] = []
        self._inners(holder, outer_name, found, first=1)
        if not found or not reads(source) <= self.scope or has_aggregate(source):
            return False
        plans = []
        for parent, index, (kind, inner_binding, predicate) in found:
            other = inner_binding.children[1]
            inner_name = plain_name(inner_binding.children[0].children[0])
            free = reads(predicate) - {outer_name, inner_name}
            if mentions(other, {outer_name}) or not reads(other) <= self.scope \
                    or not free <= self.scope or has_aggregate(predicate):
                return False
            plans.append((parent, index, kind, other, inner_name, predicate))
        tabulated = {id(parent.children[index]) for parent, index, _ in found}
        if any(self._other_lambda_reads(body, outer_name, tabulated) for body in bodies):
            return False
        if any(isinstance(body, Tree) and any(sub.data in _PATTERNS
                                              for sub in body.iter_subtrees())
               for body in bodies):
            return False   # an element read by index cannot stand in a pattern
        position = self.names.fresh("_p")
        for parent, index, kind, other, inner_name, predicate in plans:
            parent.children[index] = self._slice(kind, source, other, outer_name, inner_name,
                                                 predicate, position)
        self._walk_positions(lam, binding, source, outer_name, position)
        return True

    def _inners(self, node: object, outer_name: str,
                found: list[tuple[Tree, int, tuple[str, Tree, Tree]]], first: int = 0) -> None:
        """(parent, index, inner) of each inner quantifier reading `outer_name`, from the
        children of `node` from `first` on."""
        if not isinstance(node, Tree):
            return
        for i, child in enumerate(node.children):
            if i < first or not isinstance(child, Tree):
                continue
            inner = _inner(child)
            if inner is not None and mentions(inner[2], {outer_name}):
                found.append((node, i, inner))
            else:
                self._inners(child, outer_name, found)

    @staticmethod
    def _other_lambda_reads(body: object, outer_name: str, tabulated: set[int]) -> bool:
        """Whether a lambda left in the body (not one of the tabulated) reads the variable."""
        if not isinstance(body, Tree) or id(body) in tabulated:
            return False
        if (body.data in _LAMBDAS or _binding(body) is not None
                or (body.data == "call" and function_name(body.children[0]).lower()
                    == "reduce")) and mentions(body, {outer_name}):
            return True
        return any(_Tables._other_lambda_reads(c, outer_name, tabulated)
                   for c in body.children)

    def _slice(self, kind: str, source: Tree, other: Tree, outer_name: str, inner_name: str,
               predicate: Tree, position: str) -> Tree:
        """Two tables over every pair (1 where the predicate is true, and 1 where it is NULL,
        else 0), and this position's answer from the sums of its slices: no lambda inside the
        outer one (a lambda over a slice read other rows' tables on Ladybug)."""
        pair = self.names.fresh("_k")
        width = call("size", clone(other))
        row = tree("arith", var(pair), Token("MUL_OP", "/"), clone(width))
        column = tree("arith", var(pair), Token("MUL_OP", "%"), clone(width))
        truth = substitute(clone(predicate), {outer_name: _at(source, typed(row, "int")),
                                               inner_name: _at(other, typed(column, "int"))})
        last = tree("arith", tree("arith", call("size", clone(source)), Token("STAR", "*"),
                                  clone(width)), Token("ADD_OP", "-"), int_lit(1))
        # The engines' 1-based inclusive slice: positions _p * width + 1 .. (_p + 1) * width.
        start = tree("arith", tree("arith", var(position), Token("STAR", "*"), clone(width)),
                     Token("ADD_OP", "+"), int_lit(1))
        end = tree("arith", tree("paren", tree("arith", var(position), Token("ADD_OP", "+"),
                                              int_lit(1))), Token("STAR", "*"), clone(width))

        def table_sum(test: Tree, prefix: str) -> Tree:
            pairs = position_range(clone(last))
            table = self.names.fresh(prefix)
            counted = tree("case_expr", tree("case_when", test, typed(int_lit(1), "int")),
                           typed(int_lit(0), "int"))
            self.items.append(tree("proj_item", typed(tree(
                "list_comp_map", tree("in_", var(pair), pairs), typed(counted, "int")),
                "list<int>"), name(table)))
            mine = call("list_slice", typed(var(table), "list<int>"), clone(start), clone(end))
            return typed(call("coalesce", call("list_sum", mine), typed(int_lit(0), "int")),
                          "int")

        if kind == "map":
            return self._sublist(truth, pair, last, width, position)
        trues = table_sum(truth, "_pairs")
        if kind == "count":
            return trues
        nulls = table_sum(tree("is_null", clone(truth)), "_nulls")
        size = call("size", clone(other))

        def positive(count: Tree) -> Tree:
            return tree("compare", count, Token("COMP_OP", ">"), typed(int_lit(0), "int"))
        falses = tree("arith", tree("arith", size, Token("ADD_OP", "-"), trues),
                      Token("ADD_OP", "-"), clone(nulls))
        decisive, when_found = {"any": (trues, True), "none": (trues, False),
                                "all": (falses, False)}[kind]
        found, otherwise = ("true_lit", "false_lit") if when_found else ("false_lit", "true_lit")
        return typed(tree("case_expr", tree("case_when", positive(decisive), tree(found)),
                           tree("case_when", positive(nulls), tree("null_lit")),
                           tree(otherwise)), "bool")

    def _sublist(self, parts: Tree, pair: str, last: Tree, width: Tree, position: str) -> Tree:
        """An inner comprehension that maps: the kept values of every pair in one flat list
        and a table of which pairs were kept; this position's values are the slice of the flat
        list between the kept counts before its pairs and after them."""
        test, mapped = parts.children
        kept = self.names.fresh("_kept")
        values = self.names.fresh("_values")
        counted = tree("case_expr", tree("case_when", clone(test), typed(int_lit(1), "int")),
                       typed(int_lit(0), "int"))
        self.items.append(tree("proj_item", typed(tree(
            "list_comp_map", tree("in_", var(pair), position_range(clone(last))),
            typed(counted, "int")), "list<int>"), name(kept)))
        value_type = f"list<{ctype(mapped)}>"
        self.items.append(tree("proj_item", typed(tree(
            "list_comp", tree("in_", var(pair), position_range(clone(last))), test, mapped),
            value_type), name(values)))

        def kept_before(pairs: Tree) -> Tree:
            mine = call("list_slice", typed(var(kept), "list<int>"), typed(int_lit(1), "int"),
                        pairs)
            return typed(call("coalesce", call("list_sum", mine), typed(int_lit(0), "int")),
                         "int")
        before = kept_before(tree("arith", var(position), Token("STAR", "*"), clone(width)))
        through = kept_before(tree("arith", tree("paren", tree(
            "arith", var(position), Token("ADD_OP", "+"), int_lit(1))), Token("STAR", "*"),
            clone(width)))
        start = tree("arith", before, Token("ADD_OP", "+"), int_lit(1))
        return typed(call("list_slice", typed(var(values), value_type), start, through),
                     value_type)

    @staticmethod
    def _walk_positions(lam: Tree, binding: Tree, source: Tree, outer_name: str,
                        position: str) -> None:
        """The outer lambda over positions, its element read by index."""
        element_at = _at(source, var(position))
        holder = lam if lam.data in _LAMBDAS else lam.children[1]
        holder.children[1:] = [substitute(c, {outer_name: element_at})
                               for c in holder.children[1:]]
        if lam.data == "list_comp" and len(lam.children) == 2:   # a filter: keep the elements
            lam.children.append(clone(element_at))
        binding.children = [var(position), positions_of(source)]


def _outer_lambdas(node: object) -> list[Tree]:
    """The lambdas under `node` that no other lambda holds."""
    if not isinstance(node, Tree) or node.data == "subquery":
        return []
    if node.data in _LAMBDAS or _binding(node) is not None:
        return [node]
    return [found for child in node.children for found in _outer_lambdas(child)]


def tabulate_nested_quantifiers(root: Tree, names: FreshNames) -> bool:
    """Rewrite the qualifying lambdas in place, each clause's tables in a WITH before it; True
    when one changed."""
    def tables_of(node: Tree, scope: set[str]) -> list[Tree]:
        tables = _Tables(scope, names)
        for lam in _outer_lambdas(node):
            tables.outer(lam)
        return tables.items

    def filter_after(clauses: list[Tree], k: int) -> Splice | None:
        """A WITH's WHERE, or a MATCH's that is neither OPTIONAL nor a shortest path's: the
        tables in a `WITH *` after the clause, which takes the WHERE over (the same rows: a
        MATCH's WHERE filters its matches, a WITH's its projected rows, and nothing runs
        between)."""
        clause = clauses[k]
        where = next((c for c in clause.children if isinstance(c, Tree) and c.data == "where"),
                     None)
        if where is None or clause.data not in ("match", "with_clause") \
                or (clause.data == "match" and (is_optional(clause) or any(
                    sub.data == "path_function" for sub in clause.iter_subtrees()))):
            # (a shortestPath's WHERE is part of its search: Neo4j finds the shortest path
            # that passes it)
            return None
        if clause.data == "match":
            before = getattr(clause, "scope_before", None)
            scope = None if before is None else \
                set(before) | declared_outside_subqueries(clause)
        else:
            before = getattr(clause.children[0], "scope_before", None)
            scope = None if before is None else projected_names(
                child_of(clause.children[0], "proj_items"), before)
        items = tables_of(where, scope) if scope else []
        if not items:
            return None
        clause.children.remove(where)
        return (k + 1, [star_with(items, where)], True)

    changed = with_before_projections(
        root, lambda projection, scope: tables_of(child_of(projection, "proj_items"), scope))
    return splice_clauses(root, filter_after) or changed
