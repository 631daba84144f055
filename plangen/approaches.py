"""The two ways a model plans (AutoPlanBench's approaches), and the classical planner baseline.

- non-incremental: the model writes the whole plan; on failure the simulator's first error is
  given back in words (backprompting) and the model tries again, up to `max_attempts`; it stops
  at the first valid plan.
- incremental: the model proposes one action a turn; the environment answers whether it was
  executed and what changed; `look around` shows the state; `finished` ends the episode if the
  goal holds (otherwise the model is told so and goes on), up to `max_steps` turns.

Each returns one generation-log record (the format in `planeval.evaluation`). The verdicts the
generator computes only drive the conversation; evaluation re-simulates everything. `messages`
is the whole transcript: every prompt and feedback the model was sent and every reply it gave,
ending with its last reply (feedback to that reply was never sent; it is kept in the attempt or
event).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from benchcore.extract import fenced_block
from benchcore.llm.base import CallContext, LLMClient, LLMReply, Message
from planeval import (
    Simulator,
    describe_failure,
    describe_state,
    describe_step_result,
    plan_search,
    validate_plan,
)
from planeval.evaluation import INCREMENTAL, NON_INCREMENTAL, SCHEMA
from planeval.pddl import Domain, Problem
from planeval.plan_text import PlanStep, parse_plan
from planeval.search import Limits
from plangen.prompts import backprompt, plan_messages

PLANNER_MODEL = "planner:greedy"
PLANNER_EXPERIMENT = "planner-baseline"   # the planner baseline's experiment
_FINISHED = re.compile(r"^\W*(finished|done|goal reached)\W*$", re.IGNORECASE)
_LOOK = re.compile(r"^\W*look[ _-]?around\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class PlanningTask:
    """One instance, parsed, with the texts the prompts show."""

    domain_name: str
    instance: str
    domain: Domain
    domain_pddl: str
    problem: Problem
    problem_pddl: str
    gold_plan: str | None = None
    example: tuple[Problem, str, str] | None = None

    @property
    def key(self) -> str:
        return f"{self.domain_name}/{self.instance}"


@dataclass
class _Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    fresh_calls: int = 0
    started: float = field(default_factory=time.perf_counter)

    def add(self, reply: LLMReply) -> None:
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens
        self.calls += 1
        self.fresh_calls += 0 if reply.cached else 1

    def meta(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "llm_calls": self.calls, "fresh_llm_calls": self.fresh_calls,
                "seconds": round(time.perf_counter() - self.started, 4)}


def _record(task: PlanningTask, model: str, approach: str, experiment: str,
            messages: list[Message], usage: _Usage, **parts: Any) -> dict[str, Any]:
    return {
        "schema": SCHEMA, "experiment": experiment, "domain": task.domain_name,
        "instance": task.instance, "model": model, "approach": approach, **parts,
        "messages": messages, "meta": usage.meta(),
    }


def non_incremental(task: PlanningTask, client: LLMClient, experiment: str,
                    domain_format: str, max_attempts: int) -> dict[str, Any]:
    messages = plan_messages(task.domain, task.domain_pddl, task.problem, task.problem_pddl,
                             domain_format, incremental=False, example=task.example)
    usage, attempts = _Usage(), []
    for number in range(1, max_attempts + 1):
        reply = client.complete(messages, CallContext(uid=task.key, stage="plan",
                                                      extra={"attempt": number}))
        usage.add(reply)
        report = validate_plan(task.domain, task.problem, reply.text)
        feedback = describe_failure(report)
        attempts.append({"raw_reply": reply.text, "feedback": feedback,
                         "valid": report.valid, "tokens": reply.total_tokens})
        messages = [*messages, {"role": "assistant", "content": reply.text}]
        if report.valid or number == max_attempts:
            break
        messages = [*messages, backprompt(feedback)]
    return _record(task, client.config.label, NON_INCREMENTAL, experiment, messages, usage,
                   attempts=attempts)


def _turn_action(reply: str, domain: Domain) -> tuple[str, str]:
    """What a turn says: the first line of its fenced block (or of the reply), which may be
    `finished` or `look around`, and the action, the first one `planeval.plan_text` finds in the
    reply (prose around it is skipped) or, with none, the reply itself (a parsing error)."""
    text = (fenced_block(reply) or reply).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    items = parse_plan(reply, domain.actions).items
    if not items:
        return (lines[0] if lines else ""), text
    first = items[0]
    return (lines[0] if lines else ""), first.pddl if isinstance(first, PlanStep) else first.text


def incremental(task: PlanningTask, client: LLMClient, experiment: str,
                domain_format: str, max_steps: int) -> dict[str, Any]:
    messages = plan_messages(task.domain, task.domain_pddl, task.problem, task.problem_pddl,
                             domain_format, incremental=True, example=task.example)
    sim, usage, events = Simulator(task.domain, task.problem), _Usage(), []
    for turn in range(1, max_steps + 1):
        reply = client.complete(messages, CallContext(uid=task.key, stage="step",
                                                      extra={"turn": turn}))
        usage.add(reply)
        said, action = _turn_action(reply.text, task.domain)
        if _FINISHED.match(said):
            done = sim.goal_reached()
            feedback = "Correct, the goal is reached." if done else "The goal is not reached yet."
            events.append({"type": "finished", "raw_reply": reply.text, "feedback": feedback})
        elif _LOOK.match(said):
            feedback = describe_state(sim.state, task.domain)
            events.append({"type": "look_around", "raw_reply": reply.text, "feedback": feedback})
            done = False
        else:
            feedback = describe_step_result(sim.apply(action))
            events.append({"type": "action", "raw_reply": reply.text, "action": action,
                           "feedback": feedback})
            done = False
        messages = [*messages, {"role": "assistant", "content": reply.text}]
        if done or turn == max_steps:
            break
        messages = [*messages, {"role": "user", "content": feedback}]
    return _record(task, client.config.label, INCREMENTAL, experiment, messages, usage,
                   events=events)


def failed_record(task: PlanningTask, model: str, approach: str, experiment: str,
                  error: str) -> dict[str, Any]:
    """An interaction that broke off (e.g. the model endpoint refused): not a plan. The
    evaluation reports the instance as an error and leaves it out of the model's rates."""
    return _record(task, model, approach, experiment, [], _Usage(), attempts=[], events=[],
                   error=error)


def planner_baseline(task: PlanningTask, experiment: str, limits: Limits) -> dict[str, Any]:
    """The classical planner as a 'model': a reference row, and plans for gold-less instances.
    A search stopped by one of its bounds says which (`planner.limit`); the evaluation reports
    it as failure kind `limit`, not as a wrong plan."""
    usage = _Usage()
    result = plan_search(task.domain, task.problem, "greedy", limits.nodes,
                         seconds=limits.seconds, memory_mb=limits.memory_mb)
    plan = "\n".join(result.plan) if result.plan is not None else ""
    feedback = f"limit: {result.limit}" if result.status == "limit" else result.status
    return _record(task, PLANNER_MODEL, NON_INCREMENTAL, experiment, [], usage,
                   attempts=[{"raw_reply": plan, "feedback": feedback}],
                   planner={"status": result.status, "expanded": result.expanded,
                            "limit": result.limit, "seconds": result.seconds})
