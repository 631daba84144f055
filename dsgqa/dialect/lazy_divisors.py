"""Division by the integer 0: where Neo4j raises, and where it never gets to divide.

Neo4j raises "/ by zero" whenever it divides by the INTEGER 0, whatever the dividend
(`CypherMath.divideCheckForNull` tests the divisor's type alone): `1.5 / 0`, `z / count(t)` for
a room without t, even `null / 0`. The engines raise only for two integers and give Infinity,
NaN or NULL for the rest, so a ratio over an empty group came out as Infinity where Neo4j
fails the query.

The engines also evaluate every branch of a conditional on every row, where Neo4j evaluates
lazily: `CASE WHEN n = 0 THEN 0 ELSE total / n END`, the usual guard, raised "Divide by zero"
on the engines for the rows the CASE keeps away from the division, and the model was charged
for a query Neo4j answers. Neo4j's CASE evaluates only the branch it takes (and the WHENs up to
it), its coalesce() stops at the first argument that is not NULL; AND and OR stop at the first
operand that decides them, but the planner may reorder a WHERE's predicates, so which one
Neo4j evaluates first there is not fixed.

So an integer divisor that may be 0 goes through `neo4j_divisor(d, mode)` (`functions.py`),
where `mode` says whether Neo4j evaluates the division on the row: 0 it does (0 raises "/ by
zero", as in Neo4j, a NULL dividend too), 1 a CASE or coalesce() keeps it away (0 becomes 1,
whose quotient nobody reads), 2 Neo4j may or may not reach it (0 is refused): an AND or OR
decides first, or a quantifier may stop before the element (`all()` at its first false), or
a MATCH's WHERE (the planner may filter rows the rest of the pattern drops), or a lambda
inside a lazy branch (the engines' lambdas cannot read the branch conditions, so
whether the row takes the branch is not known there); 3 for `%` where Neo4j reaches it (the
engine raises as Neo4j does, and `null % 0` is NULL in both). The modes are the branch
conditions themselves, copied (after their own divisors are guarded). A float divisor never
raises, and `%` raises only between two integers. A float sum that may be the integer 0 as a
divisor is `float_sums.py`'s.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.order_barrier import AGGREGATES
from dsgqa.dialect.trees import call, cast, clone, function_name, int_lit, tree
from dsgqa.dialect.types import ctype, typed

REWRITE = "integer divisor->neo4j_divisor (Neo4j raises for 0; lazy branches)"
# Where the engines' lambdas start: they cannot read the conditions of a branch outside.
_SCOPES = frozenset({"list_comp", "list_comp_map", "subquery", "where_arg", "pipe_arg",
                     "lambda_"})
_REACHED, _EXACT, _ORDER, _ENGINE = 0, 1, 2, 3
_UNKNOWN_REACH = (_ORDER, typed(tree("true_lit"), "bool"))


def _guarded(node: Tree, lazy: bool) -> bool:
    """Whether `node` (a `/` or `%`) divides by an integer that may be 0 where Neo4j's raise
    and the engines' may differ: any `/` (the engines give Infinity, NaN or NULL for a float
    or NULL dividend), a `%` of two integers inside a lazy branch."""
    divisor = node.children[2]
    if ctype(divisor) != "int" or (divisor.data == "int_lit"
                                   and int(str(divisor.children[0]), 0) != 0):
        return False
    return str(node.children[1]) == "/" or (lazy and ctype(node.children[0]) == "int")


def row_mode(skips: list[tuple[int, Tree]], reached: int) -> Tree:
    """`CASE WHEN <a skip holds> THEN its mode .. ELSE reached END`, exact skips first."""
    if not skips:
        return typed(int_lit(reached), "int")
    whens = [typed(tree("case_when", clone(test), typed(int_lit(mode), "int")), "int")
             for mode, test in sorted(skips, key=lambda s: s[0])]
    return typed(tree("case_expr", *whens, typed(int_lit(reached), "int")), "int")


def _not_true(test: Tree) -> Tree:
    """True where `test` is false or NULL (a CASE branch not taken)."""
    return typed(tree("case_expr", tree("case_when", clone(test), tree("false_lit")),
                      tree("true_lit")), "bool")


class RowGuard:
    """Walks an annotated tree keeping the conditions under which Neo4j evaluates each node on
    a row (`skips`: the branch conditions, each with its mode), and guards the divisions."""

    def __init__(self, mark_only: bool) -> None:
        self.changed = False
        self.mark_only = mark_only

    def visit(self, node: object, skips: list[tuple[int, Tree]]) -> None:
        if not isinstance(node, Tree):
            return
        if node.data in ("call", "call_distinct") and isinstance(node.children[0], Tree) \
                and function_name(node.children[0]).lower() in AGGREGATES:
            # an aggregate reads every row of its group, whatever CASE holds it: Neo4j
            # aggregates before it projects (and the branch conditions, read per group, cannot
            # be read per row)
            skips = []
        if node.data in _SCOPES:
            # a lambda reaches its body per element: inside a lazy branch, or in a quantifier
            # that may stop early (`where_arg`), whether Neo4j gets there is not known here
            skips = [_UNKNOWN_REACH] if skips or node.data == "where_arg" else []
        if node.data == "case_expr":
            self._case(node, skips)
            return
        if node.data in ("match", "subquery_pattern"):
            # a MATCH's WHERE may run on rows the rest of the pattern (or an earlier clause)
            # then drops: Neo4j's planner decides where it filters, so whether it divides on
            # such a row is not known
            for child in node.children:
                unknown = isinstance(child, Tree) and child.data == "where"
                self.visit(child, [*skips, _UNKNOWN_REACH] if unknown else skips)
            return
        if node.data == "call" and isinstance(node.children[0], Tree) \
                and function_name(node.children[0]).lower() == "coalesce":
            for arg in node.children[1:]:
                self.visit(arg, skips)
                # the next argument is evaluated only where this one is NULL
                skips = [*skips, (_EXACT, typed(tree("is_not_null", clone(arg)), "bool"))]
            return
        if node.data in ("and_", "or_"):
            left, right = node.children
            self.visit(left, skips)
            decided = left if node.data == "or_" else typed(tree("not_", clone(left)), "bool")
            self.visit(right, [*skips, (_ORDER, decided)])
            return
        for child in node.children:
            self.visit(child, skips)
        if self.mark_only:
            if skips and node.data in ("arith", "prop"):
                node.in_lazy_branch = True  # type: ignore[attr-defined]
            return
        if not skips and getattr(node, "in_lazy_branch", False):
            # a pass moved it out of its branch (`reduce_hoists.py` computes a fold's element
            # values in a WITH before)
            skips = [_UNKNOWN_REACH]
        self.guard(node, skips)

    def guard(self, node: Tree, skips: list[tuple[int, Tree]]) -> None:
        """Guard `node` where it is a division (a subclass guards other per-row raises, with
        the same modes: `scalar_reads.py`), with `skips` the conditions that keep the row
        from it."""
        if node.data != "arith" or len(node.children) != 3 \
                or str(node.children[1]) not in ("/", "%"):
            return
        if _guarded(node, bool(skips)):
            reached = _REACHED if str(node.children[1]) == "/" else _ENGINE
            # an integer sum() is INT128 to the engines
            divisor = cast(node.children[2], "INT64")
            mode = row_mode(skips, reached)
            if not any(n.data == "var" for n in node.children[2].iter_subtrees()):
                # the engines fold a UDF of constants when they plan the query, so `x / 0`
                # raised with no row to divide (Neo4j raises on a row it evaluates): the mode
                # reads the dividend to stay a per-row call
                mode = typed(tree("case_expr", tree("case_when", typed(tree(
                    "is_null", clone(node.children[0])), "bool"), clone(mode)), mode), "int")
            node.children[2] = typed(call("neo4j_divisor", divisor, mode), "int")
            self.changed = True

    def _case(self, node: Tree, skips: list[tuple[int, Tree]]) -> None:
        children = list(node.children)
        subject = None if children[0].data == "case_when" else children.pop(0)
        otherwise = children.pop() if children[-1].data != "case_when" else None
        if subject is not None and any(len(w.children) != 2 for w in children):
            # a WHEN listing values (`simple_case.py` leaves none): not guarded
            for child in node.children:
                self.visit(child, skips)
            return
        if subject is not None:
            self.visit(subject, skips)
        taken: list[tuple[int, Tree]] = []   # the WHENs before: one that holds skips the rest
        for when in children:
            test, result = when.children[0], when.children[-1]
            if subject is not None:
                self.visit(test, [*skips, *taken])
                test = typed(tree("compare", clone(subject), Token("EQ", "="), clone(test)),
                             "bool")
            elif subject is None:
                self.visit(test, [*skips, *taken])
            self.visit(result, [*skips, *taken, (_EXACT, _not_true(test))])
            taken.append((_EXACT, test))
        if otherwise is not None:
            self.visit(otherwise, [*skips, *taken])


def mark_lazy_lambdas(root: Tree) -> None:
    """Mark the lambdas inside a lazy branch, before a pass may move one out of it."""
    RowGuard(mark_only=True).visit(root, [])


def guard_divisors(root: Tree) -> bool:
    """Guard the divisors of `root` (module docstring), on the annotated tree; True when one
    changed."""
    guard = RowGuard(mark_only=False)
    guard.visit(root, [])
    return guard.changed


def neo4j_divisor(divisor: int, mode: int) -> int:
    """The divisor, where the row's division is Neo4j's to raise or to skip (module
    docstring)."""
    if divisor != 0 or mode == _ENGINE:
        return divisor
    if mode == _REACHED:
        raise ValueError("/ by zero")
    if mode == _EXACT:
        return 1
    raise ValueError("a division by the integer 0 that Neo4j may not evaluate (an AND or OR, "
                     "a quantifier that may stop before it, or a lambda in a lazy branch)")
