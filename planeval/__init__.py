"""planeval: decide whether an LLM's PDDL plan works, why not, and how close it came.

A pure library (no Prefect). Data flows one way:

    parser (PDDL text -> Domain/Problem) -> grounding (lazy ground actions, Task)
    -> diagnosis (validate_plan -> PlanReport; gold: failure vs gold plan; goals: partial
       goal satisfaction) / simulation (Simulator, one step at a time) -> describe (words)
    -> metrics (PlanningLCS/Jaccard) -> search (baseline planner)
    -> evaluation (generation logs -> per-instance rows) -> overview (tables) -> cli
"""

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
from planeval.overview import load_evaluations, overview
from planeval.parser import parse_domain, parse_problem
from planeval.pddl import Domain, Fact, Problem
from planeval.plan_text import LineError, ParsedPlan, PlanStep, parse_action, parse_plan
from planeval.search import plan_search
from planeval.simulation import Simulator, StepResult
from planeval.tables import to_markdown, write_table

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
    "load_evaluations",
    "overview",
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
