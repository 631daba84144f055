"""A stepwise simulator for incremental planning: one action per turn, with feedback.

The planning track's incremental mode talks to an environment: the model proposes one action,
the environment says whether it was executable and what changed, and the model may "look
around" to see the whole current state. `Simulator` is that environment. A step that fails
leaves the state unchanged (the robot did not do it), and the conversation continues.

    sim = Simulator(domain, problem)
    result = sim.apply("(pick-up a)")    # StepResult(ok=True, kind=None, new_facts=...)
    describe_state(sim.state, domain)     # the look-around text (planeval.describe)
    sim.goal_reached()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from planeval.failures import FailureKind
from planeval.goals import ActionKey, GoalScore, score_goal
from planeval.grounding import Rejection, Task
from planeval.pddl import Domain, Fact, Problem
from planeval.plan_text import LineError, PlanStep, parse_action


@dataclass(frozen=True, slots=True)
class StepResult:
    """What happened to one proposed action.

    `ok` is True when the action was executed; otherwise `kind` and `detail` say why not and
    `unmet` lists false precondition parts. `new_facts`/`removed_facts` are the observable
    change (empty when not executed).
    """

    ok: bool
    action: str
    kind: FailureKind | None = None
    detail: str = ""
    new_facts: frozenset[Fact] = field(default=frozenset())
    removed_facts: frozenset[Fact] = field(default=frozenset())
    unmet: tuple[str, ...] = ()


class Simulator:
    """The environment of one problem: current state, applied actions, goal check."""

    def __init__(self, domain: Domain, problem: Problem) -> None:
        if problem.domain is not domain and problem.domain.name != domain.name:
            raise ValueError(f"problem '{problem.name}' is not a problem of '{domain.name}'")
        self.task = Task.of(problem)
        self.domain = domain
        self.problem = problem
        self.reset()

    def reset(self) -> None:
        """Back to the initial state, with an empty history."""
        self.state: frozenset[Fact] = self.task.init
        self.executed: list[ActionKey] = []
        self.history: list[StepResult] = []

    def check(self, action: str | PlanStep) -> StepResult:
        """Would `action` execute now? Does not change the state or the history."""
        return self._try(action)[0]

    def apply(self, action: str | PlanStep) -> StepResult:
        """Execute `action` if it is executable; record the result either way."""
        result, after, key = self._try(action)
        if key is not None:
            self.state = after
            self.executed.append(key)
        self.history.append(result)
        return result

    def goal_reached(self) -> bool:
        return self.task.goal_holds(self.state)

    def goal_score(self, action_goals: Sequence[ActionKey] = ()) -> GoalScore:
        return score_goal(self.task, self.state, self.executed, action_goals)

    def _try(self, action: str | PlanStep) -> tuple[StepResult, frozenset[Fact], ActionKey | None]:
        """The result, the state after it, and the executed action (None if not executed)."""
        step = action if isinstance(action, PlanStep) else parse_action(action, self.domain.actions)
        if isinstance(step, LineError):
            return StepResult(False, step.text, FailureKind.PARSE, step.message), self.state, None
        ground = self.task.ground(step.name, step.args)
        if isinstance(ground, Rejection):
            return StepResult(False, step.pddl, ground.kind, ground.detail), self.state, None
        if not ground.applicable(self.state):
            unmet = ground.unmet(self.state)
            detail = f"{ground.pddl} is not applicable: " + ", ".join(unmet) + " must hold"
            result = StepResult(False, ground.pddl, FailureKind.PRECONDITION, detail, unmet=unmet)
            return result, self.state, None
        after = ground.apply(self.state)
        result = StepResult(True, ground.pddl, None, "", after - self.state, self.state - after)
        return result, after, (ground.name, ground.args)
