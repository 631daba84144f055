"""The planning track: generate-plan per (model, instance) and the planner baseline, then
logs -> evaluation -> overview. `submit_planning` schedules, `finish_planning` waits and writes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.futures import PrefectFuture, wait

from dsgqa.config import BenchmarkConfig
from dsgqa.llm import build_client
from dsgqa.llm.cache import call_counts
from plangen.loading import task_fingerprint
from plangen.results import PlanningTrackSummary
from tasks.planning import evaluate_plans, generate_plan, load_tasks, planner_plan, write_logs


@dataclass
class PendingPlanning:
    clients: list[object]
    futures: list[PrefectFuture]


def submit_planning(config: BenchmarkConfig) -> PendingPlanning:
    assert config.planning is not None
    planning = config.planning
    tasks = load_tasks(planning)
    clients = [build_client(m, config.llm_cache_dir) for m in config.planning_models()]
    futures = []
    for model, client in zip(config.planning_models(), clients, strict=True):
        experiment = planning.experiment_name(model.label)
        for task in tasks:
            futures.append(generate_plan.submit(
                task.key, task_fingerprint(task), model.fingerprint(), experiment,
                planning.generation_settings(),
                planning_task=task, client=client,
            ))
    if planning.planner_baseline:
        for task in tasks:
            futures.append(planner_plan.submit(
                task.key, task_fingerprint(task), planning.planner_node_limit, planning_task=task
            ))
    return PendingPlanning(clients=clients, futures=futures)


def finish_planning(pending: PendingPlanning, config: BenchmarkConfig,
                    run_dir: Path) -> PlanningTrackSummary:
    assert config.planning is not None
    wait(pending.futures)
    records = [f.result() for f in pending.futures if f.state.is_completed()]
    errors = len(pending.futures) - len(records)
    plans_dir = run_dir / "plans"
    write_logs(records, plans_dir)
    summary = evaluate_plans(plans_dir, config.planning.data_dir, run_dir, errors,
                             call_counts(pending.clients))
    create_table_artifact(table=summary.overall_records, key="planning-overview",
                          description="Planning overview per experiment")
    create_markdown_artifact(markdown=summary.markdown, key="planning-results",
                             description=f"Planning tables: {summary.paths['markdown']}")
    return summary
