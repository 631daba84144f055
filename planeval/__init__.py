"""planeval: decide whether an LLM's PDDL plan works, why not, and how close it came.

A pure library (no Prefect). Data flows one way:

    parser (PDDL text -> Domain/Problem) -> grounding (lazy ground actions, Task)
    -> diagnosis (validate_plan -> PlanReport; gold: failure vs gold plan; goals: partial
       goal satisfaction) / simulation (Simulator, one step at a time) -> describe (words)
    -> metrics (PlanningLCS/Jaccard) -> search (baseline planner)
    -> evaluation (generation logs -> per-instance rows) -> overview (tables) -> cli
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Public name -> the module that defines it. Loaded on first use (PEP 562), so importing one
# part of planeval (say, its formula model) does not import pandas with the tables. The
# overview is imported from `planeval.overview` itself: a package attribute named like a
# submodule would be replaced by the submodule once that is imported.
_EXPORTS: dict[str, str] = {
    "Domain": "planeval.pddl",
    "Fact": "planeval.pddl",
    "Failure": "planeval.failures",
    "FailureKind": "planeval.failures",
    "GenerationRecord": "planeval.evaluation",
    "GoalScore": "planeval.goals",
    "GoldClass": "planeval.failures",
    "GroundAction": "planeval.grounding",
    "LineError": "planeval.plan_text",
    "ParsedPlan": "planeval.plan_text",
    "PlanReport": "planeval.diagnosis",
    "PlanStep": "planeval.plan_text",
    "PlanevalError": "planeval.errors",
    "PlanningData": "planeval.dataset",
    "Problem": "planeval.pddl",
    "Simulator": "planeval.simulation",
    "StepResult": "planeval.simulation",
    "Task": "planeval.grounding",
    "analyze_instances": "planeval.instances",
    "classify_against_gold": "planeval.gold",
    "describe_failure": "planeval.describe",
    "describe_state": "planeval.describe",
    "describe_step_result": "planeval.describe",
    "evaluate_log": "planeval.evaluation",
    "evaluate_logs": "planeval.evaluation",
    "evaluate_record": "planeval.evaluation",
    "lcs_length": "planeval.metrics",
    "parse_action": "planeval.plan_text",
    "parse_domain": "planeval.parser",
    "parse_plan": "planeval.plan_text",
    "parse_problem": "planeval.parser",
    "plan_length_factor": "planeval.metrics",
    "plan_search": "planeval.search",
    "planning_jaccard": "planeval.metrics",
    "planning_lcs": "planeval.metrics",
    "read_generation_log": "planeval.evaluation",
    "score_goal": "planeval.goals",
    "summarize_instances": "planeval.instances",
    "to_markdown": "planeval.tables",
    "validate_plan": "planeval.diagnosis",
    "write_table": "planeval.tables",
}

if TYPE_CHECKING:
    from planeval.dataset import PlanningData
    from planeval.describe import describe_failure, describe_state, describe_step_result
    from planeval.diagnosis import PlanReport, validate_plan
    from planeval.errors import PlanevalError
    from planeval.evaluation import (
        GenerationRecord,
        evaluate_log,
        evaluate_logs,
        evaluate_record,
        read_generation_log,
    )
    from planeval.failures import Failure, FailureKind, GoldClass
    from planeval.goals import GoalScore, score_goal
    from planeval.gold import classify_against_gold
    from planeval.grounding import GroundAction, Task
    from planeval.instances import analyze_instances, summarize_instances
    from planeval.metrics import lcs_length, plan_length_factor, planning_jaccard, planning_lcs
    from planeval.parser import parse_domain, parse_problem
    from planeval.pddl import Domain, Fact, Problem
    from planeval.plan_text import LineError, ParsedPlan, PlanStep, parse_action, parse_plan
    from planeval.search import plan_search
    from planeval.simulation import Simulator, StepResult
    from planeval.tables import to_markdown, write_table


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'planeval' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Domain",
    "Fact",
    "Failure",
    "FailureKind",
    "GenerationRecord",
    "GoalScore",
    "GoldClass",
    "GroundAction",
    "LineError",
    "ParsedPlan",
    "PlanReport",
    "PlanStep",
    "PlanevalError",
    "PlanningData",
    "Problem",
    "Simulator",
    "StepResult",
    "Task",
    "analyze_instances",
    "classify_against_gold",
    "describe_failure",
    "describe_state",
    "describe_step_result",
    "evaluate_log",
    "evaluate_logs",
    "evaluate_record",
    "lcs_length",
    "parse_action",
    "parse_domain",
    "parse_plan",
    "parse_problem",
    "plan_length_factor",
    "plan_search",
    "planning_jaccard",
    "planning_lcs",
    "read_generation_log",
    "score_goal",
    "summarize_instances",
    "to_markdown",
    "validate_plan",
    "write_table",
]
