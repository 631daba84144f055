"""Validate a plan and say why it fails: `validate_plan` -> `PlanReport`.

A plan is executed from the initial state, one step at a time, and stops at the first step
that fails (kinds and their order: `planeval.failures`). Plan text is read with the domain's
action names, so prose around a plan is not taken for actions (`planeval.plan_text`); a text
with no action at all is a parsing error at step 1, not an empty plan that executes (unless the
goal holds in the initial state, where the empty plan is the right answer). The report says
whether the plan is executable, whether the goal holds at the end, after how many steps the goal
first held, and how much of the goal holds where the plan stopped (`planeval.goals`).

`valid` means: every step executed, the goal holds at the end, and the action goals (if any
were given) are all matched. `goal_reached` is False for a plan that is not executable, even if
the goal held at some point before the failing step; `goal_reached_at` records that point.

For a failing plan and a gold plan, `Failure.gold_class` says how the failure relates to the
gold plan (missing_step / additional_step / wrong_order); the rules are in `planeval.gold`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from planeval.errors import PlanevalError
from planeval.failures import Failure, FailureKind, GoldClass
from planeval.goals import ActionKey, GoalScore, score_goal
from planeval.gold import classify_against_gold
from planeval.grounding import GroundAction, Rejection, Task
from planeval.pddl import Domain, Fact, Problem, fact_to_pddl
from planeval.plan_text import MAX_PLAN_STEPS, LineError, ParsedPlan, PlanStep, parse_plan


@dataclass(frozen=True, slots=True)
class PlanReport:
    """Everything known about one plan for one problem.

    `steps` is the plan as read, one entry per step (canonical `(name args)`, or the raw text of
    an unreadable piece); `n_executed` how many of them were applied.
    """

    valid: bool
    executable: bool
    goal_reached: bool
    failure: Failure | None
    steps: tuple[str, ...]
    n_executed: int
    goal_reached_at: int | None
    goal: GoalScore
    final_state: frozenset[Fact] = field(repr=False)
    parse_errors: tuple[LineError, ...] = ()

    @property
    def goal_fraction(self) -> float:
        return self.goal.total_fraction

    @property
    def state_goal_fraction(self) -> float | None:
        return self.goal.state_fraction

    @property
    def relation_goal_fraction(self) -> float | None:
        return self.goal.relation_fraction

    @property
    def action_goal_fraction(self) -> float | None:
        return self.goal.action_fraction

    @property
    def failure_kind(self) -> str | None:
        return None if self.failure is None else str(self.failure.kind)

    def execution_info(self) -> list[dict[str, Any]]:
        """The EAI taxonomy's per-step record: action, whether it executed, and its failure kind."""
        failed = None if self.failure is None else self.failure.step
        rows = []
        for number, action in enumerate(self.steps, 1):
            status = "executed" if number <= self.n_executed else "not_run"
            kind = None
            if number == failed and self.failure is not None:
                status, kind = "failed", str(self.failure.kind)
            rows.append({"step": number, "action": action, "status": status, "kind": kind})
        return rows

    def to_dict(self) -> dict[str, Any]:
        failure = self.failure
        return {
            "valid": self.valid,
            "executable": self.executable,
            "goal_reached": self.goal_reached,
            "goal_reached_at": self.goal_reached_at,
            "n_steps": len(self.steps),
            "n_executed": self.n_executed,
            "failure": None
            if failure is None
            else {
                "step": failure.step,
                "line": failure.line,
                "kind": str(failure.kind),
                "action": failure.action,
                "detail": failure.detail,
                "unmet": list(failure.unmet),
                "gold_class": None if failure.gold_class is None else str(failure.gold_class),
            },
            "goal_fraction": self.goal.total_fraction,
            "state_goal_fraction": self.goal.state_fraction,
            "relation_goal_fraction": self.goal.relation_fraction,
            "action_goal_fraction": self.goal.action_fraction,
            "unmet_goals": list(self.goal.unmet),
            "parse_errors": [{"line": e.line, "text": e.text} for e in self.parse_errors],
        }


def validate_plan(
    domain: Domain,
    problem: Problem,
    plan_text: str | ParsedPlan,
    gold_plan: str | ParsedPlan | None = None,
    action_goals: str | Sequence[str] | ParsedPlan | None = None,
) -> PlanReport:
    """Execute `plan_text` on `problem` and report validity, the first failure and goal progress.

    Parse the domain and problem once and pass the same objects for every plan: grounded
    actions are cached per problem. `action_goals` is a required action sequence, given as plan
    text, a list of action strings, or "a1 then a2 then a3".
    """
    if problem.domain is not domain and problem.domain.name != domain.name:
        raise PlanevalError(
            f"{problem.source}: problem belongs to domain '{problem.domain.name}', "
            f"not '{domain.name}'"
        )
    task = Task.of(problem)
    plan = plan_text
    if not isinstance(plan, ParsedPlan):
        plan = parse_plan(plan, domain.actions)
    items = plan.items
    state = task.init
    reached_at = 0 if task.goal_holds(state) else None
    failure: Failure | None = None
    if not items and reached_at is None:
        failure = Failure(1, FailureKind.PARSE, "no action found in the plan text")
    executed: list[GroundAction] = []
    for number, item in enumerate(items, 1):
        if item.__class__ is LineError:
            failure = Failure(number, FailureKind.PARSE, item.message, item.text, item.line)
            break
        ground = task.ground(item.name, item.args)
        if ground.__class__ is Rejection:
            failure = Failure(number, ground.kind, ground.detail, item.pddl, item.line)
            break
        if not ground.applicable(state):
            unmet = ground.unmet(state)
            detail = f"{ground.pddl} is not applicable: " + ", ".join(unmet) + " must hold"
            failure = Failure(
                number, FailureKind.PRECONDITION, detail, ground.pddl, item.line, unmet
            )
            break
        state = ground.apply(state)
        executed.append(ground)
        if reached_at is None and task.goal_holds(state):
            reached_at = number
    if failure is None and plan.cut:
        failure = Failure(len(items) + 1, FailureKind.TOO_LONG,
                          f"the plan has more than {MAX_PLAN_STEPS:,} steps; only the first "
                          f"{MAX_PLAN_STEPS:,} were read")
    required = _action_goal_keys(action_goals)
    keys = [(g.name, g.args) for g in executed]
    goal = score_goal(task, state, keys, required)
    executable = failure is None
    goal_reached = executable and task.goal_holds(state)
    if executable and not goal_reached:
        failure = Failure(
            len(items),
            FailureKind.GOAL_NOT_REACHED,
            "the plan executes but the goal does not hold at the end: "
            + ", ".join(goal.unmet)
            + " must hold",
            unmet=goal.unmet,
        )
    missing_actions = required[goal.action_satisfied :]
    if goal_reached and missing_actions:
        shown = tuple(fact_to_pddl((name, *args)) for name, args in missing_actions)
        failure = Failure(
            len(items),
            FailureKind.GOAL_NOT_REACHED,
            "the goal holds but required actions are missing (in order): " + ", ".join(shown),
            unmet=shown,
        )
    if failure is not None and gold_plan is not None:
        gold_class = classify_against_gold(
            task, items, executed, state, failure, reached_at, gold_plan
        )
        if gold_class is not None:
            failure = _with_gold_class(failure, gold_class)
    return PlanReport(
        valid=goal_reached and not missing_actions,
        executable=executable,
        goal_reached=goal_reached,
        failure=failure,
        steps=tuple(i.pddl if isinstance(i, PlanStep) else i.text for i in items),
        n_executed=len(executed),
        goal_reached_at=reached_at,
        goal=goal,
        final_state=state,
        parse_errors=plan.errors,
    )


def _with_gold_class(failure: Failure, gold_class: GoldClass) -> Failure:
    return Failure(
        failure.step,
        failure.kind,
        failure.detail,
        failure.action,
        failure.line,
        failure.unmet,
        gold_class,
    )


def _action_goal_keys(action_goals: str | Sequence[str] | ParsedPlan | None) -> list[ActionKey]:
    if action_goals is None:
        return []
    if isinstance(action_goals, str):
        action_goals = parse_plan(action_goals.replace(" then ", "\n"))
    if isinstance(action_goals, ParsedPlan):
        steps = list(action_goals.steps)
    else:
        steps = [s for text in action_goals for s in parse_plan(text).steps]
    return [(s.name, s.args) for s in steps]
