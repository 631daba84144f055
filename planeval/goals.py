"""Partial goal satisfaction: how much of the goal a plan achieved.

The goal is put in disjunctive normal form; each clause is a conjunction of ground literals.
Every clause is scored on the final state and the best one counts (the maximum over the ways
the goal can be met), so `(or (on a b) (and (on b a) (clear c)))` gives full credit for either
way. Clauses are kept as written (see `planeval.formula` for why this DNF is not minimised).

Literals are split as the action-sequence evaluation splits goal predicates:
* state goals: literals about at most one object: `(clear a)`, `(holds-gold)`, `(left)`;
* relation goals: literals over two or more objects, such as `(on a b)`;
* action goals: an optional required action sequence "a1 then ... then ak" given with the
  instance. Credit is the length of the longest prefix of that sequence occurring, in order, as
  a subsequence of the executed actions, so each required action counts as one unit.

The total is all satisfied units over all units (1.0 for an empty goal). A goal whose DNF would
exceed `MAX_CLAUSES` clauses is scored as one relation unit: satisfied or not.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from planeval.formula import MAX_CLAUSES, negation_normal_form
from planeval.grounding import Task
from planeval.pddl import And, Atom, Equals, Exists, Fact, ForAll, Formula, Not, Or, fact_to_pddl

__all__ = ["MAX_CLAUSES", "GoalScore", "goal_clauses", "goal_literals", "score_goal"]

Literal = tuple[Fact, bool]
Clause = tuple[Literal, ...]
ActionKey = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class GoalScore:
    """Counts of goal units by category for the best DNF clause, and which literals were false."""

    state_total: int = 0
    state_satisfied: int = 0
    relation_total: int = 0
    relation_satisfied: int = 0
    action_total: int = 0
    action_satisfied: int = 0
    unmet: tuple[str, ...] = ()

    @property
    def state_fraction(self) -> float | None:
        return _share(self.state_satisfied, self.state_total)

    @property
    def relation_fraction(self) -> float | None:
        return _share(self.relation_satisfied, self.relation_total)

    @property
    def action_fraction(self) -> float | None:
        return _share(self.action_satisfied, self.action_total)

    @property
    def total_fraction(self) -> float:
        satisfied = self.state_satisfied + self.relation_satisfied + self.action_satisfied
        total = self.state_total + self.relation_total + self.action_total
        return 1.0 if total == 0 else satisfied / total


def _share(satisfied: int, total: int) -> float | None:
    return None if total == 0 else satisfied / total


_CLAUSES: weakref.WeakKeyDictionary[Task, list[Clause] | None] = weakref.WeakKeyDictionary()


def goal_clauses(task: Task) -> list[Clause] | None:
    """The goal in DNF (cached per task); None if it is too large to expand."""
    if task not in _CLAUSES:
        try:
            _CLAUSES[task] = _dnf(negation_normal_form(task.goal), task)
        except _TooLarge:
            _CLAUSES[task] = None
    return _CLAUSES[task]


def score_goal(
    task: Task,
    state: frozenset[Fact],
    executed: Sequence[ActionKey] = (),
    action_goals: Sequence[ActionKey] = (),
) -> GoalScore:
    """Score the goal in `state`, plus the action goals against the executed actions."""
    action_total = len(action_goals)
    action_satisfied = matched_prefix(action_goals, executed)
    clauses = goal_clauses(task)
    if clauses is None:
        holds = task.holds(task.goal, state)
        return GoalScore(
            0, 0, 1, int(holds), action_total, action_satisfied, () if holds else (str(task.goal),)
        )
    best: GoalScore | None = None
    for clause in clauses or [()]:
        score = _score_clause(clause, state, action_total, action_satisfied)
        if best is None or score.total_fraction > best.total_fraction:
            best = score
    assert best is not None
    return best


def matched_prefix(required: Sequence[ActionKey], executed: Sequence[ActionKey]) -> int:
    """How many of `required`, from the start, occur in order within `executed`."""
    position = 0
    for action in executed:
        if position < len(required) and action == required[position]:
            position += 1
    return position


def _score_clause(
    clause: Clause, state: frozenset[Fact], action_total: int, action_satisfied: int
) -> GoalScore:
    counts = [0, 0, 0, 0]  # state total/satisfied, relation total/satisfied
    unmet: list[str] = []
    for fact, positive in clause:
        slot = 0 if len(fact) <= 2 else 2
        counts[slot] += 1
        if (fact in state) == positive:
            counts[slot + 1] += 1
        else:
            unmet.append(fact_to_pddl(fact) if positive else f"(not {fact_to_pddl(fact)})")
    return GoalScore(*counts, action_total, action_satisfied, tuple(unmet))


class _TooLarge(Exception):
    pass


def _dnf(nnf: Formula, task: Task) -> list[Clause]:
    """Clauses of a formula in negation normal form; [] is false, [()] is true."""
    match nnf:
        case Atom(predicate=predicate, terms=terms):
            return [(((predicate, *terms), True),)]
        case Not(formula=Atom(predicate=predicate, terms=terms)):
            return [(((predicate, *terms), False),)]
        case Equals(left=left, right=right):
            return [()] if left == right else []
        case Not(formula=Equals(left=left, right=right)):
            return [] if left == right else [()]
        case And(parts=parts):
            return _conjunction([_dnf(p, task) for p in parts])
        case Or(parts=parts):
            return _disjunction([_dnf(p, task) for p in parts])
        case Exists() | ForAll():
            instances = [_dnf(f, task) for f in task.expand(nnf)]
            return _conjunction(instances) if isinstance(nnf, ForAll) else _disjunction(instances)
    raise TypeError(f"not a formula: {nnf!r}")


def _conjunction(parts: list[list[Clause]]) -> list[Clause]:
    size = 1
    for part in parts:
        size *= len(part)
        if size > MAX_CLAUSES:
            raise _TooLarge
    return [tuple(lit for clause in combo for lit in clause) for combo in product(*parts)]


def _disjunction(parts: list[list[Clause]]) -> list[Clause]:
    clauses = [clause for part in parts for clause in part]
    if len(clauses) > MAX_CLAUSES:
        raise _TooLarge
    return clauses


def goal_literals(task: Task) -> list[str]:
    """The goal's literals in PDDL text (first DNF clause), for descriptions and analysis."""
    clauses = goal_clauses(task)
    if not clauses:
        return [str(task.goal)]
    return [
        fact_to_pddl(f) if positive else f"(not {fact_to_pddl(f)})" for f, positive in clauses[0]
    ]
