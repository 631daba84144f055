"""What `rerun RUN_ID --only-errored` has to redo: the recorded run's items (its questions x
models x pipelines, its experiments x planning instances) against the rows its tables hold.

Counting only the rows that say "error" believed a table cut short: 13 rows of 28 and no error
among them read as "nothing to rerun". Here an item without a whole row is to redo as well.
"""

from __future__ import annotations

from pathlib import Path

from benchcore.run_config import BenchmarkConfig
from benchcore.run_folder import ItemsToRedo, PlanningKey, QAKey, items_to_redo


def expected_qa_items(config: BenchmarkConfig) -> set[QAKey]:
    """Every (question, model, pipeline) the run answers."""
    from dsgqa.questions import load_question_set

    assert config.qa is not None
    uids = [q.uid for q in load_question_set(config.qa.questions).questions]
    return {(uid, model.label, pipeline.label) for model in config.models
            for pipeline in config.qa.pipelines_for(model) for uid in uids}


def expected_planning_items(config: BenchmarkConfig) -> set[PlanningKey]:
    """Every (experiment, domain, instance) the run plans, the planner baseline's included."""
    from plangen.approaches import PLANNER_EXPERIMENT
    from plangen.loading import load_planning_tasks

    assert config.planning is not None
    instances = [(t.domain_name, t.instance) for t in load_planning_tasks(config.planning)]
    experiments = [config.planning.experiment_name(m.label) for m in config.planning_models()]
    if config.planning.planner_baseline:
        experiments.append(PLANNER_EXPERIMENT)
    return {(experiment, domain, instance) for experiment in experiments
            for domain, instance in instances}


def items_to_rerun(run_dir: Path, config: BenchmarkConfig) -> ItemsToRedo:
    """The errored and missing items of the tracks this rerun covers."""
    return items_to_redo(
        run_dir,
        qa=expected_qa_items(config) if config.runs_track("qa") else None,
        planning=expected_planning_items(config) if config.runs_track("planning") else None)


def to_redo_line(run_id: str, todo: ItemsToRedo) -> str:
    """What the CLI prints before it reruns (or instead of rerunning)."""
    if not todo.total:
        return (f"run {run_id}: no errored items (wrong answers are not errors), "
                "nothing to rerun")
    parts = [f"{todo.errored} errored item(s)"] if todo.errored else []
    if todo.missing:
        parts.append(f"{todo.missing} item(s) missing from its tables")
    unreadable = f" ({'; '.join(todo.unreadable)})" if todo.unreadable else ""
    return f"run {run_id}: rerunning; {' and '.join(parts)} will be redone{unreadable}"
