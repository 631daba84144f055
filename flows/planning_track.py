"""The planning track: generate-plan per model and the planner baseline, then
logs -> re-simulation -> overview. `submit_planning` schedules, `finish_planning` waits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.futures import PrefectFuture
from prefect.utilities.annotations import quote

from benchcore.run_config import BenchmarkConfig
from benchcore.track_summary import TrackSummary
from flows._artifacts import publish_planning
from flows._collect import outcomes_or_failures
from plangen.batches import BatchOwner, model_owner, planner_owner, shared_planning_tasks
from plangen.results import PlanBatch
from tasks.planning import evaluate_plans, generate_plans, planner_plans


@dataclass
class PendingPlanning:
    uids: list[str]
    futures: list[PrefectFuture]
    # Whom each future plans for (a model, or the planner): a batch that fails leaves only
    # its uids, and its items still need their model's rows.
    owners: list[BatchOwner]


def submit_planning(config: BenchmarkConfig) -> PendingPlanning:
    assert config.planning is not None
    run = config.run_options()
    models = config.planning_models()
    futures = [generate_plans.submit(config.planning, model, run) for model in models]
    owners = [model_owner(config.planning, model.label) for model in models]
    if config.planning.planner_baseline:
        futures.append(planner_plans.submit(config.planning, run))
        owners.append(planner_owner())
    uids = [t.key for t in shared_planning_tasks(config.planning)]
    return PendingPlanning(uids=uids, futures=futures, owners=owners)


def finish_planning(pending: PendingPlanning, config: BenchmarkConfig,
                    run_dir: Path) -> TrackSummary:
    assert config.planning is not None
    batches = [PlanBatch(owner, outcomes_or_failures(future, pending.uids, owner.model))
               for future, owner in zip(pending.futures, pending.owners, strict=True)]
    summary = evaluate_plans(quote(batches), config.planning.data_dir, run_dir,
                             config.planning_models())
    publish_planning(summary)
    return summary
