"""The planning track's stages as Prefect tasks: load-planning-tasks, generate-plan,
planner-plan, write-plan-logs, evaluate-plans (evaluation + overview tables)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import INPUTS, TASK_SOURCE

from dsgqa.llm.base import LLMClient
from plangen.approaches import PlanningTask, incremental, non_incremental, planner_baseline
from plangen.config import GenerationSettings, PlanningConfig
from plangen.loading import load_planning_tasks
from plangen.logs import write_generation_logs
from plangen.results import PlanningTrackSummary, summarize_planning_run
from tasks.policies import retry_transient

# The parsed task and the client are live objects; the key uses the task's fingerprint and
# the model's fingerprint instead.
PLAN_CACHE = (INPUTS - "client" - "planning_task") + TASK_SOURCE
_RETRIES = {"retries": 2, "retry_delay_seconds": [1, 5], "retry_condition_fn": retry_transient}


@task(name="load-planning-tasks", persist_result=False)
def load_tasks(config: PlanningConfig) -> list[PlanningTask]:
    return load_planning_tasks(config)


@task(name="generate-plan", cache_policy=PLAN_CACHE, persist_result=True, **_RETRIES)
def generate_plan(
    task_key: str,
    task_fingerprint: str,
    model_id: str,
    experiment: str,
    settings: GenerationSettings,
    planning_task: PlanningTask,
    client: LLMClient,
) -> dict[str, Any]:
    """One instance's whole interaction with one model (all attempts or turns)."""
    if settings.approach == "incremental":
        return incremental(planning_task, client, experiment, settings.domain_format,
                           settings.max_steps)
    return non_incremental(planning_task, client, experiment, settings.domain_format,
                           settings.max_attempts)


@task(name="planner-plan", cache_policy=PLAN_CACHE, persist_result=True)
def planner_plan(
    task_key: str, task_fingerprint: str, node_limit: int, planning_task: PlanningTask
) -> dict[str, Any]:
    return planner_baseline(planning_task, "planner-baseline", node_limit)


@task(name="write-plan-logs", persist_result=False)
def write_logs(records: list[dict[str, Any]], plans_dir: Path) -> list[Path]:
    return write_generation_logs(records, plans_dir)


@task(name="evaluate-plans", persist_result=False)
def evaluate_plans(
    plans_dir: Path, data_dir: str, out_dir: Path, errors: int, llm_calls: dict[str, int]
) -> PlanningTrackSummary:
    """Not cached: re-simulating every plan is cheap and must use the current planeval."""
    return summarize_planning_run(plans_dir, data_dir, out_dir, errors, llm_calls)
