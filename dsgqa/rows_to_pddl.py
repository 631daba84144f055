"""Turn query rows into a PDDL goal, in the shape of the expected goal (the oracle's refine step
for PDDL questions, as `rows_to_sldp` is for SLDP ones).

Like `rows_to_sldp`, it reads only the *shape* of `like`, never its objects: the connective at
the top (`and` / `or`) and the predicates. Each row is one atom's arguments; a row whose first
cell names one of the hint's predicates (and has one cell more than that predicate's arity)
carries its own predicate, otherwise the hint's first predicate is used. A single cell holding a
list (from `collect()`) is one row per item. No rows give the connective's empty form: `(and)`
(true) or `(or)` (false).

Two row forms build goals with `not` and a disjunction inside a conjunction: a row whose first
cell is `not` and whose second names a predicate is that atom negated, `(not (p ...))`; the rows
whose first cell is `any` (then a predicate) are the atoms of one `(or ...)`, a part of the top
connective like any other atom.
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
    parts: set[str] = set()
    any_of: set[str] = set()
    for row in rows:
        row = _trimmed(row)
        marker = _marker(row, predicates)
        if marker == "not":
            parts.add(f"(not {_atom(row[1:], predicates)})")
        elif marker == "any":
            any_of.add(_atom(row[1:], predicates))
        else:
            parts.add(_atom(row, predicates))
    if any_of:
        parts.add(min(any_of) if len(any_of) == 1
                  else f"(or{''.join(' ' + a for a in sorted(any_of))})")
    atoms = sorted(parts)
    if len(atoms) == 1:
        return atoms[0]
    return f"({connective}{''.join(' ' + a for a in atoms)})"


def _trimmed(row: list[Any]) -> list[Any]:
    """Without empty trailing cells, which pad a UNION's shorter rows to its width."""
    end = len(row)
    while end and row[end - 1] in ("", None):
        end -= 1
    return list(row[:end])


def _marker(row: list[Any], predicates: dict[str, int]) -> str:
    """`not` or `any` when the row is in one of those forms, else ''."""
    cells = [_text(c).lower() for c in row[:2]]
    if (len(cells) == 2 and cells[0] in ("not", "any") and cells[1] in predicates
            and len(row) == predicates[cells[1]] + 2):
        return cells[0]
    return ""


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

