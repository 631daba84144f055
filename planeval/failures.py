"""The failure taxonomy: every way a plan step can go wrong, each named once.

The EAI error taxonomy (Embodied Agent Interface) mapped to PDDL. A plan is checked step by
step and the first problem stops it; the checks run in this order, so each failing step gets
exactly one kind:

    parse           the text of the step is not readable as an action
    too_long        the reply holds more than `plan_text.MAX_PLAN_STEPS` steps; the first
                    that many are read and executed, the plan fails after them
    unknown_action  the action name is not in the domain (EAI: hallucinated action)
    arity           wrong number of arguments (VAL accepts extra arguments; we do not)
    unknown_object  an argument is not an object or constant of the problem (hallucination)
    type            an argument has the wrong type for its parameter
    precondition    the action is well-formed but not applicable here (EAI: affordance)
    goal_not_reached  every step executed, but the goal is false at the end
    not_recog_goal  incremental runs only: every action executed and the goal held at some
                    point, but the model never said `finished` while it did (AutoPlanBench's
                    reason of the same name)

Arity comes before objects because with the wrong number of arguments the positions do not
line up with parameters, so "which argument is wrong" has no answer.

For a plan that fails (precondition or goal_not_reached) and a gold plan, `GoldClass` says how
the failure relates to the gold plan (the EAI taxonomy's runtime errors); see `planeval.diagnosis`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class FailureKind(StrEnum):
    PARSE = "parse"
    TOO_LONG = "too_long"
    UNKNOWN_ACTION = "unknown_action"
    ARITY = "arity"
    UNKNOWN_OBJECT = "unknown_object"
    TYPE = "type"
    PRECONDITION = "precondition"
    GOAL_NOT_REACHED = "goal_not_reached"
    NOT_RECOG_GOAL = "not_recog_goal"
    # Not a model's mistake: the planner baseline stopped at a bound (nodes, time, memory).
    LIMIT = "limit"


GRAMMAR_KINDS = frozenset(
    {
        FailureKind.PARSE,
        FailureKind.TOO_LONG,
        FailureKind.UNKNOWN_ACTION,
        FailureKind.ARITY,
        FailureKind.UNKNOWN_OBJECT,
        FailureKind.TYPE,
    }
)
"""Kinds found without looking at the state (the EAI taxonomy's grammar errors)."""


class GoldClass(StrEnum):
    MISSING_STEP = "missing_step"
    ADDITIONAL_STEP = "additional_step"
    WRONG_ORDER = "wrong_order"


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a plan is not valid.

    `step` is the 1-based position of the failing step in the plan (for goal_not_reached: the
    number of steps, i.e. the end of the plan); `line` is its line in the plan text (0 if not
    known). `unmet` lists, for precondition failures, each precondition part that was false,
    written in PDDL (`(clear b)`, `(not (holding a))`); for goal_not_reached, the goal parts
    that are false at the end.
    """

    step: int
    kind: FailureKind
    detail: str
    action: str = ""
    line: int = 0
    unmet: tuple[str, ...] = ()
    gold_class: GoldClass | None = None
