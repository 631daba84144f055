"""The planning track: generate-plan per model and the planner baseline (a task per chunk of
instances with `chunk_size`), then logs -> re-simulation -> overview. `submit_planning`
schedules, `finish_planning` waits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.futures import PrefectFuture
from prefect.utilities.annotations import quote

from benchcore.chunks import Chunk, chunks
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
    # Whom each batch plans for (a model, or the planner), and its chunks' futures in order: a
    # chunk that fails leaves only its uids, and its items still need their owner's rows.
    batches: list[tuple[BatchOwner, list[tuple[Chunk, PrefectFuture]]]]


def submit_planning(config: BenchmarkConfig) -> PendingPlanning:
    assert config.planning is not None
    planning, run = config.planning, config.run_options()
    uids = [t.key for t in shared_planning_tasks(planning)]
    parts = chunks(len(uids), planning.chunk_size)
    batches = [(model_owner(planning, model.label),
                [(chunk, generate_plans.submit(planning, model, run, chunk)) for chunk in parts])
               for model in config.planning_models()]
    if planning.planner_baseline:
        batches.append((planner_owner(),
                        [(chunk, planner_plans.submit(planning, run, chunk)) for chunk in parts]))
    return PendingPlanning(uids=uids, batches=batches)


def finish_planning(pending: PendingPlanning, config: BenchmarkConfig,
                    run_dir: Path) -> TrackSummary:
    assert config.planning is not None
    batches = [PlanBatch(owner, [outcome for chunk, future in parts for outcome in
                                 outcomes_or_failures(future, chunk.of(pending.uids),
                                                      owner.model)])
               for owner, parts in pending.batches]
    summary = evaluate_plans(quote(batches), config.planning.data_dir, run_dir,
                             config.planning_models())
    publish_planning(summary)
    return summary
