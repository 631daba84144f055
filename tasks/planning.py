"""The planning track's stages as Prefect tasks: generate-plan (one per model over the
instances), planner-plan (the classical baseline), evaluate-plans (logs, re-simulation, tables).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task

from dsgqa.batch import Outcome
from dsgqa.config import RunOptions
from dsgqa.item_cache import ItemCache
from dsgqa.llm.base import ModelConfig
from dsgqa.llm.registry import shared_client
from plangen.batches import generate_plans_batch, planner_batch, shared_planning_tasks
from plangen.config import PlanningConfig
from plangen.results import TrackSummary, summarize_planning_run
from tasks.policies import RETRIES


@task(name="generate-plan", task_run_name="generate-plan[{model.name}]", persist_result=False,
      **RETRIES)
def generate_plans(
    planning: PlanningConfig, model: ModelConfig, run: RunOptions
) -> list[Outcome[dict[str, Any]]]:
    return generate_plans_batch(
        shared_planning_tasks(planning), shared_client(model, run.llm_cache_dir),
        planning.generation_settings(), planning.experiment_name(model.label),
        ItemCache(run.stage_cache_dir, "generate-plan"), run.refreshes("generate-plan"),
    )


@task(name="planner-plan", persist_result=False, **RETRIES)
def planner_plans(planning: PlanningConfig, run: RunOptions) -> list[Outcome[dict[str, Any]]]:
    return planner_batch(
        shared_planning_tasks(planning), planning.planner_node_limit,
        ItemCache(run.stage_cache_dir, "planner-plan"), run.refreshes("planner-plan"),
    )


@task(name="evaluate-plans", persist_result=False)
def evaluate_plans(
    outcomes: list[Outcome[dict[str, Any]]], data_dir: str, run_dir: Path,
    models: list[ModelConfig],
) -> TrackSummary:
    """Not cached: re-simulating every plan is cheap and must use the current planeval."""
    prices = {m.label: m for m in models}
    return summarize_planning_run(outcomes, run_dir / "plans", data_dir, run_dir, prices)
