"""The planning track's tables: per-instance evaluation and the overview across experiments,
per model x domain and overall (AutoPlanBench's overview with the EAI taxonomy's rates, computed
by planeval), under the file names of the results contract (`benchcore.run_folder`).

Every (model, instance) of the run has its row. Items the model never answered are errors,
whatever the cause (the endpoint refused, the model's whole batch failed, the item's
computation raised, its plan could not be re-simulated): kept as unscored rows in the
evaluation, counted in the overview's `n_errors`, listed in `plan_failures.csv` with their
model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from benchcore import atomic_files
from benchcore.batch import Outcome
from benchcore.failure_causes import top_causes
from benchcore.llm.base import ModelConfig
from benchcore.run_folder import (
    DERIVED_GOLD_DIR,
    PLAN_EVALUATION,
    PLAN_FAILURE_COLUMNS,
    PLAN_FAILURES,
    PLAN_MARKDOWN,
    PLAN_OVERVIEW,
    PLAN_OVERVIEW_OVERALL,
    PLAN_USAGE,
    PLAN_USAGE_COLUMNS,
)
from benchcore.spreadsheet_cells import spreadsheet_frame
from benchcore.text_safety import safe_value
from benchcore.track_summary import TrackSummary
from planeval import PlanningData, evaluate_logs, to_markdown, validate_plan, write_table
from planeval.overview import errored, overview
from plangen.approaches import PLANNER_MODEL
from plangen.batches import BatchOwner
from plangen.logs import write_generation_logs

OVERALL_KEYS = ["experiment", "model", "approach"]


@dataclass(frozen=True)
class PlanBatch:
    """One batch task's outcomes with whom it planned for: an outcome without a record (its
    batch failed, its computation raised) still becomes its model's row."""

    owner: BatchOwner
    outcomes: Sequence[Outcome[dict[str, Any]]]

    def records(self) -> list[dict[str, Any]]:
        """One generation-log record per outcome, made storable and secret-free (they hold
        replies and server text)."""
        return [safe_value(self.owner.record_of(outcome)) for outcome in self.outcomes]


def usage_table(
    records: list[dict[str, Any]], models: dict[str, ModelConfig]
) -> pd.DataFrame:
    """LLM calls, tokens and cost per experiment and model (the planner costs nothing)."""
    rows = []
    for record in records:
        meta, model = record.get("meta", {}), models.get(record["model"])
        prompt, completion = meta.get("prompt_tokens", 0), meta.get("completion_tokens", 0)
        rows.append({
            "experiment": record["experiment"], "model": record["model"],
            "llm_calls": meta.get("llm_calls", 0), "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cost_usd": model.cost(prompt, completion) if model else 0.0,
        })
    frame = pd.DataFrame(rows, columns=list(PLAN_USAGE_COLUMNS))
    return frame.groupby(["experiment", "model"], as_index=False).sum(numeric_only=True)


def derived_gold_plans(records: list[dict[str, Any]], data_dir: str) -> dict[tuple[str, str], str]:
    """The planner baseline's valid plans for instances whose data has no gold plan: the
    reference that LCS, Jaccard and the plan-length factor are computed against."""
    data, derived = PlanningData(data_dir), {}
    for record in records:
        if record["model"] != PLANNER_MODEL or not record.get("attempts"):
            continue
        key = (record["domain"], record["instance"])
        plan = record["attempts"][0]["raw_reply"]
        if data.gold_plan(*key) is not None or not plan:
            continue
        if validate_plan(data.domain(key[0]), data.problem(*key), plan).valid:
            derived[key] = plan
    return derived


def write_derived_gold(derived: dict[tuple[str, str], str], folder: Path) -> None:
    """Kept beside the tables, in the data layout, so they can be reviewed and adopted."""
    for (domain, instance), plan in derived.items():
        path = folder / domain / "adapted_gold_plans" / f"{instance}_gold_plan.txt"
        atomic_files.write_text(path, plan + "\n")


def summarize_planning_run(
    batches: Sequence[PlanBatch], plans_dir: Path, data_dir: str, out_dir: Path,
    models: dict[str, ModelConfig] | None = None,
) -> TrackSummary:
    """Write the generation logs (one per outcome), re-simulate every logged plan, write the
    tables. An item that cannot be re-simulated is an errored row, not a lost table."""
    outcomes = [outcome for batch in batches for outcome in batch.outcomes]
    records = [record for batch in batches for record in batch.records()]
    write_generation_logs(records, plans_dir)
    derived = derived_gold_plans(records, data_dir)
    write_derived_gold(derived, out_dir / DERIVED_GOLD_DIR)
    evaluation = evaluate_logs(plans_dir, data_dir, fallback_gold=derived, errors_as_rows=True)
    by_domain = overview(evaluation)
    overall = overview(evaluation, by=OVERALL_KEYS)
    failures = failures_table(evaluation)
    paths = {
        "evaluation_csv": write_table(evaluation, out_dir / PLAN_EVALUATION),
        "overview_csv": write_table(by_domain, out_dir / PLAN_OVERVIEW),
        "overall_csv": write_table(overall, out_dir / PLAN_OVERVIEW_OVERALL),
        "markdown": out_dir / PLAN_MARKDOWN,
        "failures_csv": out_dir / PLAN_FAILURES,
        "usage_csv": write_table(usage_table(records, models or {}), out_dir / PLAN_USAGE),
    }
    with atomic_files.replacing(paths["failures_csv"]) as scratch:
        spreadsheet_frame(failures).to_csv(scratch, index=False)
    markdown = (
        "# Planning overview\n\n## Overall\n\n" + to_markdown(overall)
        + "\n\n## By domain\n\n" + to_markdown(by_domain) + "\n"
    )
    atomic_files.write_text(paths["markdown"], markdown)
    return TrackSummary(
        paths={k: str(v) for k, v in paths.items()},
        units=int(evaluation[["domain", "instance"]].drop_duplicates().shape[0]),
        items=len(outcomes),
        errors=len(failures),
        overall_records=_records(overall),
        markdown=markdown,
        llm_calls={"fresh": sum(o.fresh_llm_calls for o in outcomes),
                   "cached_stages": sum(o.from_cache for o in outcomes)},
        error_causes=top_causes(failures["error"].astype(str)),
    )


def failures_table(evaluation: pd.DataFrame) -> pd.DataFrame:
    """The errored rows of the evaluation, one per (experiment, item): the same rows the
    overviews count in `n_errors`, so the file and the tables never disagree."""
    rows = evaluation[errored(evaluation)]
    return pd.DataFrame({
        "experiment": rows["experiment"], "model": rows["model"],
        "item": rows["domain"].astype(str) + "/" + rows["instance"].astype(str),
        "error": rows["error"].astype(str),
    }, columns=list(PLAN_FAILURE_COLUMNS))


def _records(frame: pd.DataFrame) -> list[dict[str, object]]:
    """JSON-ready rows for a Prefect table artifact (task lists joined, NaN as None)."""
    flat = frame.apply(lambda column: column.map(
        lambda v: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v))
    return flat.astype(object).where(flat.notna(), None).to_dict(orient="records")
