"""The planning track's stages as Prefect tasks: generate-plan (one per model over the
instances, or over each chunk of them: `chunk`, `PlanningConfig.chunk_size`), planner-plan (the
classical baseline, likewise), evaluate-plans (logs, re-simulation, tables).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import task

from benchcore.batch import Outcome
from benchcore.chunks import WHOLE, Chunk
from benchcore.item_cache import ItemCache
from benchcore.llm.base import ModelConfig
from benchcore.llm.process_clients import shared_client
from benchcore.names import Stage
from benchcore.run_config import PlanningConfig, RunOptions
from benchcore.run_folder import PLANS_DIR
from plangen.batches import (
    generate_plans_batch,
    model_owner,
    planner_batch,
    planner_limits,
    shared_planning_tasks,
)
from plangen.results import PlanBatch, TrackSummary, summarize_planning_run
from tasks.policies import RETRIES


@task(
    name=Stage.GENERATE_PLAN,
    task_run_name=f"{Stage.GENERATE_PLAN}[{{model.name}}]{{chunk}}",
    persist_result=False,
    **RETRIES,
)
def generate_plans(
    planning: PlanningConfig, model: ModelConfig, run: RunOptions, chunk: Chunk = WHOLE,
) -> list[Outcome[dict[str, Any]]]:
    return generate_plans_batch(
        chunk.of(shared_planning_tasks(planning)),
        shared_client(model, run.llm_cache_dir, keys_at_submission=run.keys_at_submission),
        planning.generation_settings(),
        model_owner(planning, model.label).experiment,
        ItemCache(run.stage_cache_dir, Stage.GENERATE_PLAN),
        run.refreshes(Stage.GENERATE_PLAN),
    )


@task(name=Stage.PLANNER_PLAN, task_run_name=f"{Stage.PLANNER_PLAN}{{chunk}}",
      persist_result=False, **RETRIES)
def planner_plans(planning: PlanningConfig, run: RunOptions,
                  chunk: Chunk = WHOLE) -> list[Outcome[dict[str, Any]]]:
    return planner_batch(
        chunk.of(shared_planning_tasks(planning)),
        planner_limits(planning),
        ItemCache(run.stage_cache_dir, Stage.PLANNER_PLAN),
        run.refreshes(Stage.PLANNER_PLAN),
    )


@task(name="evaluate-plans", persist_result=False)
def evaluate_plans(
    batches: list[PlanBatch],
    data_dir: str,
    run_dir: Path,
    models: list[ModelConfig],
) -> TrackSummary:
    """Not cached: re-simulating every plan is cheap and must use the current planeval."""
    prices = {m.label: m for m in models}
    return summarize_planning_run(batches, run_dir / PLANS_DIR, data_dir, run_dir, prices)
