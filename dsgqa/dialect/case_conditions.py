"""A CASE used as a condition inside another CASE's WHEN (Kuzu and Ladybug bug).

In both engines `CASE WHEN <a boolean CASE> THEN ...` takes the inner CASE's value from the wrong
row: `UNWIND [1, 2] AS x RETURN CASE WHEN CASE WHEN x = 1 THEN true ELSE false END THEN 1 ELSE 2
END` gives 2 and 2 (Neo4j: 1, 2), and Ladybug does the same for one under NOT/AND/OR. Such
conditions arise often from the translator's own rewrites (a NULL-aware `IN` or `CONTAINS` is a
CASE), so `CASE WHEN x IN l THEN ...` would go wrong. Comparing the inner CASE with `true` keeps
its three values (true, false, NULL) and both engines evaluate it right.

Kuzu 0.11.3 also misreads a WHEN condition that is an `IN` over a literal list: `CASE WHEN
n.class IN ['hallway'] THEN 5 END` was NULL for a hallway while `n.class IN ['hallway']` alone
was true (a random graph, `bench_dialect_fuzz.py --seed 7070`). Compared with true it is right,
so such an IN is compared too (on both engines: the value is the same). The same Kuzu defect
reaches WHERE filters (`filter_conditions.py`, which compares with this module's `compared`).
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from dsgqa.dialect.trees import tree

REWRITE = "CASE as a WHEN condition->= true"
_CONNECTIVES = frozenset({"and_", "or_", "xor_", "not_", "paren"})


def compared(condition: object, needs: Callable[[Tree], bool]) -> tuple[object, bool]:
    """`condition` with every operand of its AND / OR / XOR / NOT that `needs` picks compared
    with true (`(x) = true` has x's three values); whether it changed."""
    if not isinstance(condition, Tree):
        return condition, False
    if condition.data in _CONNECTIVES:
        changed = False
        for i, child in enumerate(condition.children):
            condition.children[i], fired = compared(child, needs)
            changed |= fired
        return condition, changed
    if needs(condition):
        return tree("compare", tree("paren", condition), Token("EQ", "="),
                    tree("true_lit")), True
    return condition, False


def _case_or_in(condition: Tree) -> bool:
    return condition.data in ("case_expr", "in_")


def compare_case_conditions(root: Tree) -> bool:
    """Rewrite every WHEN condition under `root` in place; True when one changed."""
    changed = False
    seen: set[int] = set()   # a rewritten tree may share a subtree: rewrite it once
    for node in list(root.iter_subtrees_topdown()):
        if node.data == "case_when" and id(node) not in seen:
            seen.add(id(node))
            node.children[0], fired = compared(node.children[0], _case_or_in)
            changed |= fired
    return changed
