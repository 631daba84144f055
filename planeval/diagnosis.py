"""Validate a plan and say why it fails: `validate_plan` -> `PlanReport`.

A plan is executed from the initial state, one step at a time, and stops at the first step
that fails (kinds and their order: `planeval.failures`). The report says whether the plan is
executable, whether the goal holds at the end, after how many steps the goal first held, and how
much of the goal holds where the plan stopped (`planeval.goals`).

`valid` means: every step executed, the goal holds at the end, and the action goals (if any
were given) are all matched. `goal_reached` is False for a plan that is not executable, even if
the goal held at some point before the failing step; `goal_reached_at` records that point.

Classification against a gold plan (`Failure.gold_class`, seed 003's runtime errors). Write
a_i for the failing step, M for its positive precondition facts that were false, and N for
facts its negative preconditions need false but were true; "providing" M or N means adding a
fact of M or deleting a fact of N. "Gold
position" of a_i is the position of its k-th occurrence in the gold plan when a_i is the k-th
occurrence in the plan. The first rule that applies wins:

for a precondition failure
1. additional_step: a_i repeats the step just before it, or a_i occurs in the gold plan but the
   plan has now used it more often than the gold plan does (a duplicated step).
2. wrong_order: (a) a later step of the same plan provides M or N, the plan uses that later
   step's action at least as often as the gold plan does (else a step was dropped, and the
   later one is a different use of the same action), and that later step comes before a_i in
   the gold plan (or a_i is not in the gold plan): the achiever is there, just too late, as
   when two steps are swapped; or
   (b) the last earlier step that deleted a fact of M or added a fact of N comes after a_i in
   the gold plan (it was taken too early).
3. missing_step: a step of the gold plan before a_i's gold position (anywhere, if a_i is not in
   the gold plan) provides M or N (the plan skipped the step that achieves it).
4. additional_step: otherwise (nothing provides M or N, or an inequality is violated: the step
   should not be taken here).

for goal_not_reached
1. additional_step: the goal held after some earlier step and later steps undid it.
2. missing_step: otherwise (the plan stops short of the goal).

Grammar failures (parse, unknown_action, arity, unknown_object, type) get no gold class.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from planeval.errors import PlanevalError
from planeval.failures import Failure, FailureKind, GoldClass
from planeval.goals import ActionKey, GoalScore, score_goal
from planeval.grounding import GroundAction, Rejection, Task
from planeval.pddl import Domain, Fact, Problem
from planeval.plan_text import LineError, ParsedPlan, PlanStep, parse_plan


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
        """Seed 003's per-step record: action, whether it executed, and its failure kind."""
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
    plan = plan_text if isinstance(plan_text, ParsedPlan) else parse_plan(plan_text)
    items = plan.items
    state = task.init
    reached_at = 0 if task.goal_holds(state) else None
    failure: Failure | None = None
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
    if failure is not None and gold_plan is not None:
        gold_class = classify_against_gold(
            task, items, executed, state, failure, reached_at, gold_plan
        )
        if gold_class is not None:
            failure = _with_gold_class(failure, gold_class)
    actions_ok = goal.action_satisfied == goal.action_total
    return PlanReport(
        valid=goal_reached and actions_ok,
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


# ---------------------------------------------------------------- gold-plan classification
@dataclass(frozen=True, slots=True)
class _GoldTrace:
    actions: list[ActionKey]
    adds: list[frozenset[Fact]]  # facts each gold step actually made true
    removes: list[frozenset[Fact]]  # ... and actually made false


_GOLD: weakref.WeakKeyDictionary[Task, dict[str, _GoldTrace]] = weakref.WeakKeyDictionary()


def _gold_trace(task: Task, gold_plan: str | ParsedPlan) -> _GoldTrace:
    """Run the gold plan (as far as it executes) and remember what each step added. Cached."""
    key = gold_plan if isinstance(gold_plan, str) else "\n".join(gold_plan.actions())
    per_task = _GOLD.setdefault(task, {})
    trace = per_task.get(key)
    if trace is None:
        plan = gold_plan if isinstance(gold_plan, ParsedPlan) else parse_plan(gold_plan)
        state = task.init
        actions: list[ActionKey] = []
        adds: list[frozenset[Fact]] = []
        removes: list[frozenset[Fact]] = []
        for step in plan.steps:
            ground = task.ground(step.name, step.args)
            if not isinstance(ground, GroundAction) or not ground.applicable(state):
                break
            after = ground.apply(state)
            actions.append((ground.name, ground.args))
            adds.append(after - state)
            removes.append(state - after)
            state = after
        trace = per_task[key] = _GoldTrace(actions, adds, removes)
    return trace


def classify_against_gold(
    task: Task,
    items: Sequence[PlanStep | LineError],
    executed: Sequence[GroundAction],
    state: frozenset[Fact],
    failure: Failure,
    reached_at: int | None,
    gold_plan: str | ParsedPlan,
) -> GoldClass | None:
    """Seed 003's runtime error class for a failing plan; rules in the module docstring."""
    if failure.kind is FailureKind.GOAL_NOT_REACHED:
        return GoldClass.ADDITIONAL_STEP if reached_at is not None else GoldClass.MISSING_STEP
    if failure.kind is not FailureKind.PRECONDITION:
        return None
    gold = _gold_trace(task, gold_plan)
    failing = items[failure.step - 1]
    assert isinstance(failing, PlanStep)
    ground = task.ground(failing.name, failing.args)
    assert isinstance(ground, GroundAction)
    key = (ground.name, ground.args)
    done = [(g.name, g.args) for g in executed]
    gold_position = _nth_index(gold.actions, key, done.count(key) + 1)
    if (done and done[-1] == key) or (gold_position is None and key in gold.actions):
        return GoldClass.ADDITIONAL_STEP
    missing = ground.missing(state)
    wrongly_true = ground.pre_neg & state
    if _achieved_later(task, items, failure.step, (missing, wrongly_true), gold, gold_position):
        return GoldClass.WRONG_ORDER
    if gold_position is not None and _destroyed_too_early(
        executed, missing, wrongly_true, gold.actions, gold_position
    ):
        return GoldClass.WRONG_ORDER
    horizon = len(gold.adds) if gold_position is None else gold_position
    for added, removed in zip(gold.adds[:horizon], gold.removes[:horizon], strict=True):
        if added & missing or removed & wrongly_true:
            return GoldClass.MISSING_STEP
    return GoldClass.ADDITIONAL_STEP


def _achieved_later(
    task: Task,
    plan: Sequence[PlanStep | LineError],
    failing_step: int,
    needed: tuple[frozenset[Fact], frozenset[Fact]],
    gold: _GoldTrace,
    gold_position: int | None,
) -> bool:
    """Rule 2a: a later step provides M or N and belongs before the failing step."""
    missing, wrongly_true = needed
    gold_actions = gold.actions
    keys = [(s.name, s.args) if isinstance(s, PlanStep) else None for s in plan]
    for index in range(failing_step, len(plan)):
        key = keys[index]
        if key is None:
            continue
        achiever = task.ground(*key)
        if not isinstance(achiever, GroundAction) or not (
            achiever.possible_adds() & missing or achiever.possible_deletes() & wrongly_true
        ):
            continue
        if keys.count(key) < gold_actions.count(key):
            continue  # standing in for a dropped use of the same action
        if gold_position is None:
            return True
        position = _nth_index(gold_actions, key, keys[: index + 1].count(key))
        if position is not None and position < gold_position:
            return True
    return False


def _destroyed_too_early(
    executed: Sequence[GroundAction],
    missing: frozenset[Fact],
    wrongly_true: frozenset[Fact],
    gold_actions: list[ActionKey],
    gold_position: int,
) -> bool:
    """Rule 2b: the step that last broke a precondition belongs after a_i in the gold plan."""
    for index in range(len(executed) - 1, -1, -1):
        step = executed[index]
        if step.delete & missing or step.add & wrongly_true:
            key = (step.name, step.args)
            occurrence = sum(1 for e in executed[: index + 1] if (e.name, e.args) == key)
            position = _nth_index(gold_actions, key, occurrence)
            return position is not None and position > gold_position
    return False


def _nth_index(actions: list[ActionKey], key: ActionKey, n: int) -> int | None:
    seen = 0
    for index, action in enumerate(actions):
        if action == key:
            seen += 1
            if seen == n:
                return index
    return None
