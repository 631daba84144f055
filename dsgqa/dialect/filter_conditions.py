"""Kuzu only: a WHERE or WHEN condition that is a boolean function's value, compared with true.

Kuzu 0.11.3 filters wrongly on such a condition when the node it reads comes from a label
holding a single node and the scan or expansion reads several labels: `MATCH (n) WHERE
n.nodeSymbol IN ['R0']` returns the last node of another label instead of the one room
(`list_contains`, `list_has_all`, `all(..)` over a list and Python UDFs such as the one `=~`
becomes were measured wrong; a comparison, `STARTS WITH` or `IS NULL` were right, and the same
expression in RETURN was right). The fuzzer found it as a CALL subquery's `toLower(n4.class) IN
['hallway']` that let a place through (`bench_dialect_fuzz.py --seed 6767`). Compared with true,
`(n.nodeSymbol IN ['R0']) = true`, the filter is right, and its three values are the same, so
every operand of a WHERE's AND / OR / XOR / NOT that is not itself a comparison is compared.

A CASE's WHEN goes the same way on a single row: `UNWIND ['a'] AS x RETURN CASE WHEN
list_contains(['a'], x) THEN 1 ELSE 0 END` is 0 on Kuzu (1 with two rows, and 1 compared with
true), so after an aggregation, on a label with one node or in a one-row query a WHEN on `IN`,
`all()` or a UDF took the ELSE; its conditions are compared too (`case_conditions.py` compares
a CASE or an IN there on both engines). Ladybug 0.22.0 gets all of them right and is left as
written.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.case_conditions import compared

REWRITE = "boolean function in WHERE or WHEN->= true"
# Conditions Kuzu filters on right: comparisons, NULL and string tests, literals, and the
# subqueries and pattern predicates it plans as joins.
_FILTERED_RIGHT = frozenset({
    "compare", "is_null", "is_not_null", "starts_with", "ends_with", "contains",
    "true_lit", "false_lit", "null_lit", "subquery", "pattern_predicate",
})


def _needs(condition: Tree) -> bool:
    return condition.data not in _FILTERED_RIGHT


def _conditions(root: Tree) -> list[tuple[Tree, int]]:
    """(node, child position) of every WHERE's condition and every searched CASE's WHEN
    condition (a simple CASE's WHEN holds a value to compare its subject with)."""
    found: list[tuple[Tree, int]] = []
    for node in root.iter_subtrees_topdown():
        if node.data == "where":
            found.append((node, -1))
        elif node.data == "case_expr" and node.children \
                and isinstance(node.children[0], Tree) and node.children[0].data == "case_when":
            found += [(when, 0) for when in node.children
                      if isinstance(when, Tree) and when.data == "case_when"]
    return found


def compare_filter_conditions(root: Tree) -> bool:
    """Rewrite every WHERE and WHEN condition under `root` in place; True when one changed."""
    changed = False
    seen: set[int] = set()   # a rewritten tree may share a subtree: rewrite it once
    for node, at in _conditions(root):
        if id(node) not in seen:
            seen.add(id(node))
            node.children[at], fired = compared(node.children[at], _needs)
            changed |= fired
    return changed
