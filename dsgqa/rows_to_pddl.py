"""Turn query rows into a PDDL goal, in the shape of the expected goal (the oracle's refine step
for PDDL questions, as `rows_to_sldp` is for SLDP ones).

Like `rows_to_sldp`, it reads only the *shape* of `like`, never its objects: the connective at
the top (`and` / `or`) and the predicates. Each row is one atom's arguments; a row whose first
cell names one of the hint's predicates (and has one cell more than that predicate's arity)
carries its own predicate, otherwise the hint's first predicate is used. A single cell holding a
list (from `collect()`) is one row per item. No rows give the connective's empty form: `(and)`
(true) or `(or)` (false).
"""

from __future__ import annotations

from typing import Any

from dsgqa.pddl_goal import PDDLGoalError, parse_goal
from planeval.formula import children
from planeval.pddl import Atom, Formula, Or


def rows_to_pddl(rows: list[list[Any]], like: str) -> str:
    """PDDL goal text for the rows, shaped like the goal text `like`."""
    connective, predicates = _shape(like)
    if len(rows) == 1 and len(rows[0]) == 1 and isinstance(rows[0][0], list):
        rows = [[item] for item in rows[0][0]]
    atoms = sorted({_atom(row, predicates) for row in rows})
    if len(atoms) == 1:
        return atoms[0]
    return f"({connective}{''.join(' ' + a for a in atoms)})"


def _shape(like: str) -> tuple[str, dict[str, int]]:
    """The top connective and the predicates (name -> arity), in order of appearance."""
    try:
        goal = parse_goal(like)
    except PDDLGoalError:
        return "and", {}
    predicates: dict[str, int] = {}

    def walk(formula: Formula) -> None:
        if isinstance(formula, Atom):
            predicates.setdefault(formula.predicate, len(formula.terms))
        for child in children(formula):
            walk(child)

    walk(goal)
    return ("or" if isinstance(goal, Or) else "and"), predicates


def _atom(row: list[Any], predicates: dict[str, int]) -> str:
    cells = [_text(c) for c in row]
    if cells and cells[0].lower() in predicates and len(cells) == predicates[cells[0].lower()] + 1:
        return f"({' '.join(cells)})"
    name = next(iter(predicates), "holds")
    return f"({' '.join([name, *cells])})"


def _text(cell: Any) -> str:
    if isinstance(cell, dict) and "nodeSymbol" in cell:
        return str(cell["nodeSymbol"])
    return str(cell)

