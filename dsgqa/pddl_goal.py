"""Comparing PDDL goals: exact equivalence and partial credit over Blake-form clauses.

A goal denotes a set of states, and two goals can differ in text yet denote the same states,
so goals are compared as Boolean functions (``planeval.boolean``, over planeval's formula
model, ``planeval.pddl``):

* ``goals_equivalent(a, b)`` is exact: the two goals hold in the same states;
* ``clause_scores(answer, solution)`` gives precision/recall/F1 between the clause sets of the
  two Blake canonical forms (all prime implicants, unique for every Boolean function):
  precision = shared clauses / answer clauses, recall = shared clauses / solution clauses (an
  empty side scores 1 on its own ratio). ``(or (holding o19) (holding o30))`` against
  ``(holding o19)`` scores P=0.5, R=1; equivalent goals score 1.

Syntax (``pddl_goal.lark``, lenient because the goals are written by LLMs): ``and``, ``or``,
``not``, ``imply``, ``=``, atoms ``(pred obj ...)``, optionally wrapped in ``(:goal ...)``;
``;`` comments; names are case-insensitive (kept lower-case); a bare name ``A`` is shorthand
for the 0-ary atom ``(a)``. ``(and)`` is true and ``(or)`` false. ``(= a b)`` between two
objects follows PDDL's unique names; with a ``?variable`` it is an ordinary proposition.
Quantifiers (``forall``, ``exists``) and numeric comparisons are not supported.

Limits (each raises :class:`PDDLGoalError` instead of running away): ``MAX_ATOMS`` distinct
atoms in a comparison, ``MAX_CLAUSES`` clauses in any DNF or Blake form, nesting up to
``MAX_DEPTH``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from lark import Lark, LarkError, Token, Transformer, UnexpectedInput

from benchcore.once import built_once
from dsgqa.nesting import deeper_than
from dsgqa.sldp import Score
from planeval.boolean import (
    MAX_ATOMS,
    MAX_TRUTH_TABLE_ATOMS,
    Bits,
    Masks,
    assign_bits,
    dnf_masks,
    equivalent,
    prime_implicants,
    to_literals,
)
from planeval.errors import FormulaError
from planeval.formula import (
    DNF,
    MAX_CLAUSES,
    Clause,
    Literal,
    children,
    format_clause,
    format_dnf,
)
from planeval.pddl import FALSE, TRUE, And, Atom, Equals, Formula, Imply, Not, Or
from planeval.syntax_errors import describe_parse_error

__all__ = [
    "DNF",
    "FALSE",
    "MAX_ATOMS",
    "MAX_CLAUSES",
    "MAX_DEPTH",
    "MAX_TRUTH_TABLE_ATOMS",
    "TRUE",
    "And",
    "Atom",
    "Clause",
    "Equals",
    "Formula",
    "Imply",
    "Literal",
    "Not",
    "Or",
    "PDDLGoalError",
    "blake_canonical_form",
    "clause_scores",
    "format_clause",
    "format_dnf",
    "format_goal",
    "goals_equivalent",
    "parse_goal",
    "to_dnf",
]

#: A malformed goal (with line and column), an unsupported construct, or a goal too big. The
#: Boolean forms live in planeval and raise its formula error, so this is the same class.
PDDLGoalError = FormulaError

#: Deepest nesting of connectives accepted.
MAX_DEPTH = 64
_MEMO_SIZE = 1024
_GRAMMAR = Path(__file__).with_name("pddl_goal.lark")
_UNSUPPORTED = re.compile(r"\(\s*(forall|exists|when|preference)\b", re.I)
_FRIENDLY = {"NAME": "a name", "$END": "end of input"}


class _Builder(Transformer):
    """Runs inside the LALR parser and yields planeval's immutable formula objects."""

    def start(self, children: list[Formula]) -> Formula:
        return children[-1]

    def conjunction(self, children: list[Formula]) -> Formula:
        return And(tuple(children))

    def disjunction(self, children: list[Formula]) -> Formula:
        return Or(tuple(children))

    def negation(self, children: list[Formula]) -> Formula:
        return Not(children[0])

    def implication(self, children: list[Formula]) -> Formula:
        return Imply(children[0], children[1])

    def equality(self, children: list[Token]) -> Formula:
        """Sorted, so ``(= ?y ?x)`` and ``(= ?x ?y)`` are one proposition."""
        left, right = sorted(str(c).lower() for c in children)
        return Equals(left, right)

    def atom(self, children: list[Token]) -> Formula:
        names = [str(c).lower() for c in children]
        return Atom(names[0], tuple(names[1:]))

    def bare_atom(self, children: list[Token]) -> Formula:
        return Atom(str(children[0]).lower(), ())


@built_once
def _parser() -> Lark:
    """Built once per process."""
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="basic", transformer=_Builder()
    )


@functools.lru_cache(maxsize=_MEMO_SIZE)
def _parse_text(text: str) -> Formula:
    if not text.strip():
        raise PDDLGoalError("empty goal: expected a formula such as (and (on a b))")
    if unsupported := _UNSUPPORTED.search(text):
        raise PDDLGoalError(f"unsupported construct '{unsupported.group(1).lower()}' in goal")
    parser = _parser()
    try:
        goal = parser.parse(text)
    except UnexpectedInput as exc:
        raise PDDLGoalError(describe_parse_error(exc, parser, _FRIENDLY)) from None
    except LarkError as exc:
        raise PDDLGoalError(f"malformed goal: {exc}") from None
    _check_depth(goal)
    return goal


def parse_goal(text: str) -> Formula:
    """Parse a goal formula; raises :class:`PDDLGoalError` with the position on bad input."""
    if not isinstance(text, str):
        raise TypeError(f"parse_goal expects text, got {type(text).__name__}")
    return _parse_text(text)


def format_goal(formula: Formula) -> str:
    """PDDL text for a formula; it parses back to the same formula."""
    return str(formula)


def _check_depth(formula: Formula) -> None:
    if deeper_than(formula, children, MAX_DEPTH):
        raise PDDLGoalError(f"goal nested deeper than {MAX_DEPTH} levels")


def _as_goal(goal: Any) -> Formula:
    if isinstance(goal, str):
        return parse_goal(goal)
    if isinstance(goal, Formula):
        _check_depth(goal)
        return goal
    raise TypeError(f"expected goal text or a parsed formula, got {type(goal).__name__}")


def to_dnf(goal: Any) -> DNF:
    """A disjunctive normal form: clauses (sets of literals) without contradictions or
    clauses that contain another. Not unique: see :func:`blake_canonical_form`."""
    formula = _as_goal(goal)
    bits = assign_bits(formula)
    return to_literals(dnf_masks(formula, bits), bits)


def blake_canonical_form(goal: Any) -> DNF:
    """The disjunction of all prime implicants: the same for any two equivalent goals."""
    formula = _as_goal(goal)
    bits = assign_bits(formula)
    return to_literals(prime_implicants(dnf_masks(formula, bits)), bits)


def goals_equivalent(a: Any, b: Any) -> bool:
    """Whether two goals hold in exactly the same states (exact, never a heuristic)."""
    return equivalent(_as_goal(a), _as_goal(b))


def clause_scores(answer: Any, solution: Any) -> Score:
    """Precision/recall/F1 between the Blake-form clauses of ``answer`` and ``solution``."""
    goal_a, goal_b = _as_goal(answer), _as_goal(solution)
    bits = assign_bits(goal_a, goal_b)
    clauses_a = prime_implicants(dnf_masks(goal_a, bits))
    clauses_b = prime_implicants(dnf_masks(goal_b, bits))
    shared = len(clauses_a & clauses_b)
    precision = shared / len(clauses_a) if clauses_a else 1.0
    recall = shared / len(clauses_b) if clauses_b else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    if clauses_a == clauses_b:
        return Score(True, 1.0, 1.0, 1.0, "equal")
    return Score(False, precision, recall, f1, _mismatch(clauses_a, clauses_b, bits))


def _mismatch(clauses_a: set[Masks], clauses_b: set[Masks], bits: Bits) -> str:
    missing = sorted(format_clause(c) for c in to_literals(clauses_b - clauses_a, bits))
    extra = sorted(format_clause(c) for c in to_literals(clauses_a - clauses_b, bits))
    parts = []
    if missing:
        parts.append(f"{len(missing)} solution clause(s) missing, e.g. {missing[0]}")
    if extra:
        parts.append(f"{len(extra)} clause(s) not in the solution, e.g. {extra[0]}")
    return "; ".join(parts)
