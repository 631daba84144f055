"""Failures and states in words, for backprompting an LLM and for incremental feedback.

The texts speak PDDL facts (`(clear b)`) because that is the vocabulary the model was prompted
with, and they never mention the gold plan: feedback must not leak the answer.
"""

from __future__ import annotations

from collections.abc import Iterable

from planeval.diagnosis import PlanReport
from planeval.failures import FailureKind
from planeval.pddl import Domain, Fact, fact_to_pddl
from planeval.simulation import StepResult


def describe_failure(report: PlanReport) -> str:
    """One or two sentences: what went wrong first, or that the plan is valid."""
    failure = report.failure
    if failure is None:
        return f"The plan is valid: all {len(report.steps)} steps execute and reach the goal."
    if failure.kind is FailureKind.GOAL_NOT_REACHED:
        if report.goal_reached:
            return (
                "The plan reaches the goal but misses required actions, in this order: "
                + ", ".join(failure.unmet)
                + "."
            )
        missing = _conditions(failure.unmet)
        return f"The plan executes, but the goal is not reached: at the end {missing}."
    where = f"Step {failure.step}"
    if failure.line:
        where += f" (line {failure.line})"
    if failure.kind is FailureKind.TOO_LONG:
        return f"The plan is too long: {failure.detail}."
    if failure.kind is FailureKind.PARSE and not failure.action:
        return "The reply contains no action. Write one action per line, like (action arg1 arg2)."
    if failure.kind is FailureKind.PARSE:
        return (
            f"{where} could not be read as an action: '{failure.action}'. "
            "Write one action per line, like (action arg1 arg2)."
        )
    if failure.kind is FailureKind.PRECONDITION:
        return f"{where}, {failure.action}, is not executable: {_conditions(failure.unmet)}."
    return f"{where}, {failure.action}, is not possible: {failure.detail}."


def describe_step_result(result: StepResult) -> str:
    """Feedback for one action in incremental mode: executed and what changed, or why not."""
    if result.ok:
        parts = [f"{result.action} was executed."]
        if result.new_facts:
            parts.append("Now true: " + _facts(result.new_facts) + ".")
        if result.removed_facts:
            parts.append("No longer true: " + _facts(result.removed_facts) + ".")
        return " ".join(parts)
    if result.kind is FailureKind.PRECONDITION:
        return f"{result.action} is not executable: {_conditions(result.unmet)}."
    if result.kind is FailureKind.PARSE:
        return (
            f"'{result.action}' could not be read as an action: write it like (action arg1 arg2)."
        )
    return f"{result.action} is not possible: {result.detail}."


def describe_state(
    state: Iterable[Fact], domain: Domain | None = None, include_static: bool = True
) -> str:
    """All true facts, sorted, one per line; static facts (types, maps) can be left out."""
    static = domain.static_predicates if domain is not None and not include_static else frozenset()
    lines = [fact_to_pddl(f) for f in sorted(state) if f[0] not in static]
    if not lines:
        return "No facts are true."
    return "The following facts are true:\n" + "\n".join(lines)


def _facts(facts: Iterable[Fact]) -> str:
    return ", ".join(fact_to_pddl(f) for f in sorted(facts))


def _conditions(unmet: Iterable[str]) -> str:
    """Turn unmet precondition/goal parts into a readable list of what is (not) the case."""
    phrases = []
    for part in unmet:
        if part.startswith("(not (= "):
            left, right = part[len("(not (= ") : -2].split(" ", 1)
            phrases.append(f"{left} and {right} must be different objects")
        elif part.startswith("(= "):
            left, right = part[len("(= ") : -1].split(" ", 1)
            phrases.append(f"{left} and {right} must be the same object")
        elif part.startswith("(not (") and part.endswith("))") and part.count("(") == 2:
            phrases.append(f"{part[len('(not ') : -1]} is true but must be false")
        elif part.count("(") == 1:
            phrases.append(f"{part} is false")
        else:
            phrases.append(f"{part} does not hold")
    return ", ".join(phrases) if phrases else "a condition does not hold"
