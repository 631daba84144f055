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
from plangen.approaches import PLANNER_MODEL
from plangen.batches import shared_planning_tasks
from tasks.planning import evaluate_plans, generate_plans, planner_plans


@dataclass
class PendingPlanning:
    uids: list[str]
    futures: list[PrefectFuture]
    labels: list[str]      # the model (or the planner) each future generates for


def submit_planning(config: BenchmarkConfig) -> PendingPlanning:
    assert config.planning is not None
    run = config.run_options()
    models = config.planning_models()
    futures = [generate_plans.submit(config.planning, model, run) for model in models]
    labels = [model.label for model in models]
    if config.planning.planner_baseline:
        futures.append(planner_plans.submit(config.planning, run))
        labels.append(PLANNER_MODEL)
    uids = [t.key for t in shared_planning_tasks(config.planning)]
    return PendingPlanning(uids=uids, futures=futures, labels=labels)


def finish_planning(pending: PendingPlanning, config: BenchmarkConfig,
                    run_dir: Path) -> TrackSummary:
    assert config.planning is not None
    outcomes = [o for future, label in zip(pending.futures, pending.labels, strict=True)
                for o in outcomes_or_failures(future, pending.uids, label)]
    summary = evaluate_plans(quote(outcomes), config.planning.data_dir, run_dir,
                             config.planning_models())
    publish_planning(summary)
    return summary
