"""Prompts for plan generation. The domain is shown as PDDL or as generated natural language;
the problem likewise; an optional few-shot example is another instance of the same domain with
its gold plan. Feedback texts come from `planeval.describe`, never from the gold plan."""

from __future__ import annotations

from benchcore.llm.base import Message
from planeval.pddl import Domain, Problem
from plangen.describe_nl import describe_domain, describe_problem

PLAN_FORMAT = (
    "Write the plan inside a ```pddl code block, one action per line, as (action arg1 arg2 ...)."
)
INCREMENTAL_RULES = (
    "You act one step at a time. Each turn, reply with exactly one action as (action arg1 ...). "
    "The environment tells you whether it was executed and what changed. Reply `look around` to "
    "see every fact that is true now. Reply `finished` when you believe the goal is reached."
)


def _domain_text(domain: Domain, domain_pddl: str, fmt: str) -> str:
    return describe_domain(domain) if fmt == "nl" else f"The PDDL domain:\n{domain_pddl}"


def _problem_text(problem: Problem, problem_pddl: str, fmt: str) -> str:
    return describe_problem(problem) if fmt == "nl" else f"The PDDL problem:\n{problem_pddl}"


def plan_messages(
    domain: Domain,
    domain_pddl: str,
    problem: Problem,
    problem_pddl: str,
    fmt: str,
    incremental: bool,
    example: tuple[Problem, str, str] | None = None,
) -> list[Message]:
    """System + (optional example pair) + the task. `example` = (problem, its PDDL, gold plan)."""
    rules = INCREMENTAL_RULES if incremental else PLAN_FORMAT
    messages: list[Message] = [{
        "role": "system",
        "content": "You are a planner for a robot. " + _domain_text(domain, domain_pddl, fmt)
        + "\n\n" + rules,
    }]
    if example is not None:
        ex_problem, ex_pddl, ex_plan = example
        messages.append({"role": "user", "content": "Example task.\n"
                         + _problem_text(ex_problem, ex_pddl, fmt)})
        messages.append({"role": "assistant", "content": f"```pddl\n{ex_plan.strip()}\n```"})
    messages.append({"role": "user", "content": _problem_text(problem, problem_pddl, fmt)})
    return messages


def backprompt(feedback: str) -> Message:
    return {"role": "user", "content": f"That plan does not work. {feedback} "
            f"Write a corrected complete plan. {PLAN_FORMAT}"}
