"""Classifying a failing plan against a gold plan (the EAI taxonomy's runtime errors).

Only the facts tell what a step was for, so the rules compare what steps add and delete. Write
a_i for the failing step, M for its positive precondition facts that were false, and N for
facts its negative preconditions need false but were true; "providing" M or N means adding a
fact of M or deleting a fact of N. The "gold position" of a_i is the position of its k-th
occurrence in the gold plan when a_i is its k-th occurrence in the plan. The first rule that
applies wins:

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

On the 533 gold plans of the shared data, every breaking single-step drop comes out as
missing_step, every breaking duplicate as additional_step, and every swap of two neighbours
that fails at one of them as wrong_order (tests/test_planeval_validation.py).

Grammar failures (parse, unknown_action, arity, unknown_object, type) get no gold class.
"""

from __future__ import annotations

import functools
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from planeval.failures import Failure, FailureKind, GoldClass
from planeval.goals import ActionKey
from planeval.grounding import GroundAction, Task
from planeval.pddl import Fact
from planeval.plan_text import LineError, ParsedPlan, PlanStep, parse_plan


@dataclass(frozen=True)
class _GoldTrace:
    actions: list[ActionKey]
    adds: list[frozenset[Fact]]  # facts each gold step actually made true
    removes: list[frozenset[Fact]]  # ... and actually made false

    @functools.cached_property
    def _positions(self) -> dict[ActionKey, list[int]]:
        found: dict[ActionKey, list[int]] = {}
        for index, action in enumerate(self.actions):
            found.setdefault(action, []).append(index)
        return found

    def positions(self) -> dict[ActionKey, list[int]]:
        """Each action's positions in the gold plan, in order (the k-th use is at [k-1])."""
        return self._positions


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
    """The EAI taxonomy's runtime error class for a failing plan; rules in the module docstring."""
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
    """Rule 2a: a later step provides M or N and belongs before the failing step.

    One pass over the plan: the counts of each action in the plan and in the gold plan, and
    each action's gold positions, are tallied once, and the occurrence number of every later
    step is kept as the pass goes (counting them anew per step made a 16,000-step reply take
    50 s and a 200,000-step one hours)."""
    missing, wrongly_true = needed
    keys = [(s.name, s.args) if isinstance(s, PlanStep) else None for s in plan]
    in_plan = Counter(keys)
    gold_positions = gold.positions()
    seen = Counter(keys[:failing_step])
    providers: dict[ActionKey, bool] = {}   # a key grounds to the same action every time
    for index in range(failing_step, len(plan)):
        key = keys[index]
        if key is None:
            continue
        seen[key] += 1
        provides = providers.get(key)
        if provides is None:
            achiever = task.ground(*key)
            provides = providers[key] = isinstance(achiever, GroundAction) and bool(
                achiever.possible_adds() & missing or achiever.possible_deletes() & wrongly_true
            )
        if not provides:
            continue
        positions = gold_positions.get(key, ())
        if in_plan[key] < len(positions):
            continue  # standing in for a dropped use of the same action
        if gold_position is None:
            return True
        occurrence = seen[key]
        if occurrence <= len(positions) and positions[occurrence - 1] < gold_position:
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
