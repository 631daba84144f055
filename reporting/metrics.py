"""The numbers a report shows, computed from stored rows: plain groupings, nothing model-specific.

Each function takes the rows of one run (or of several, for the trend) and returns a small table.
A missing boolean (a stage that never ran) counts as False: an item that did not succeed is a
failure for every rate here. Planning rows with an `error` (the model never replied) are no
plans: they are counted under `errors` and left out of the planning rates and `instances`, as
the planning overview does.
"""

from __future__ import annotations

import pandas as pd

from dsgqa.results import (
    DEFAULT_PIPELINE,
    ERROR_KIND_COLUMNS,
    LOSS_COLUMNS,
    NO_DATABASE,
    summarize,
    summary_by_tag,
    summary_overall,
    with_pipeline,
)
from planeval.evaluation import EVALUATION_COLUMNS
from planeval.overview import overview

QA_METRICS = ("accuracy", "mean_f1")
PLANNING_METRICS = ("task_success_rate", "execution_success_rate")
PLANNING_SUMMARY_COLUMNS = (
    "n_instances", "n_errors", "n_solved_successfully", *PLANNING_METRICS, "total_goal",
)
HEADLINE_METRICS = (*QA_METRICS, *PLANNING_METRICS)
NO_FAILURE = "none"
COUNT_COLUMNS = ("items", "llm_calls", "prompt_tokens", "completion_tokens", "tokens",
                 "qa_items", "plan_instances", "plan_errors")


def system_label(model: str, pipeline: str) -> str:
    """What answered: the model, plus its pipeline unless feed-forward (so a run of one model
    through three pipelines has three headline rows, compared and trended separately)."""
    return model if pipeline in ("", DEFAULT_PIPELINE) else f"{model} · {pipeline}"


def qa_by_system(qa: pd.DataFrame) -> pd.DataFrame:
    """The QA rows with `model` replaced by the system label (model and pipeline)."""
    if qa.empty or "model" not in qa.columns:
        return qa
    rows = with_pipeline(qa)
    labels = [system_label(str(m), str(p)) for m, p in zip(rows["model"], rows["pipeline"],
                                                            strict=True)]
    return rows.assign(model=labels)


def qa_overall(qa: pd.DataFrame) -> pd.DataFrame:
    """Per model and pipeline: the QA track's own summary (items, correct, accuracy, mean F1,
    valid Cypher share, errored items)."""
    columns = ["model", "pipeline", "items", "correct", "accuracy", "accuracy_lenient",
               "execution_accuracy", "mean_f1", "valid_cypher", "no_query_share", "errored_items"]
    return summary_overall(qa)[columns]


FUNNEL_COLUMNS = ["model", "pipeline", "items", "ran_query", "valid_rows", "reference_rows",
                  "valid_answer", "correct", "correct_lenient", *LOSS_COLUMNS]


def qa_funnel(qa: pd.DataFrame) -> pd.DataFrame:
    """Per model and pipeline, how many items got through each step: a query ran, it gave
    valid rows, they were the reference query's, the answer parsed, it was right (strictly,
    then leniently), beside the summary's loss per stage. In context the query steps are
    empty (no database)."""
    if qa.empty:
        return pd.DataFrame(columns=FUNNEL_COLUMNS)
    rows = with_pipeline(qa)
    queried = rows["backend"].fillna("").astype(str) != NO_DATABASE if "backend" in rows \
        else pd.Series(True, index=rows.index)
    ran = pd.to_numeric(_column(rows, "queries_run", 0), errors="coerce").fillna(0) > 0
    steps = rows.assign(
        ran_query=ran.astype("Float64").where(queried),
        valid_rows=truthy(_column(rows, "valid_cypher", False)).astype("Float64").where(queried),
        reference_rows=truthy(_column(rows, "execution_match", False)).astype("Float64")
        .where(queried),
        valid_answer=truthy(_column(rows, "valid_answer", False)),
    )
    counts = steps.groupby(["model", "pipeline"], sort=True).agg(
        {c: lambda v: v.sum(min_count=1) for c in ("ran_query", "valid_rows", "reference_rows")}
        | {"valid_answer": "sum"}).astype("Int64").reset_index()
    summary = summary_overall(qa)
    table = summary[["model", "pipeline", "items", "correct", "correct_lenient",
                     *LOSS_COLUMNS]].merge(counts, on=["model", "pipeline"])
    return table[FUNNEL_COLUMNS]


def qa_error_kinds(qa: pd.DataFrame) -> pd.DataFrame:
    """Per model and pipeline: how many queries failed with each kind (syntax, dialect, schema,
    refused, timeout, runtime), as the QA track counts them."""
    return summary_overall(qa)[["model", "pipeline", *ERROR_KIND_COLUMNS]]


def qa_by_tag(qa: pd.DataFrame) -> pd.DataFrame:
    """Per model, pipeline and tag, as the QA track summarizes them."""
    columns = ["model", "pipeline", "tag", "items", "correct", "accuracy", "mean_f1"]
    return summary_by_tag(qa)[columns]


PIPELINE_COLUMNS = ["model", "tag", "pipeline", "items", "accuracy", "mean_f1",
                    "tokens_per_question", "cost_usd", "seconds_per_question",
                    "llm_calls_per_question"]


def pipelines_side_by_side(qa: pd.DataFrame) -> pd.DataFrame:
    """Per model and tag (and `all`), one row per pipeline next to each other: accuracy, F1,
    tokens, cost, seconds and LLM calls per question (what answering strategy pays off where)."""
    if qa.empty:
        return pd.DataFrame(columns=PIPELINE_COLUMNS)
    overall = summary_overall(qa).assign(tag="(all)")
    table = pd.concat([overall, summary_by_tag(qa)], ignore_index=True)
    items = table["items"].where(table["items"] > 0)
    table = table.assign(
        tokens_per_question=(table["tokens"] / items).round(1),
        seconds_per_question=(table["seconds"] / items).round(3),
        llm_calls_per_question=(table["llm_calls"] / items).round(2),
    )
    order = {tag: i for i, tag in enumerate(["(all)", *sorted(set(table["tag"]) - {"(all)"})])}
    table = table.assign(_order=table["tag"].map(order))
    return table.sort_values(["model", "_order", "pipeline"], ignore_index=True)[
        PIPELINE_COLUMNS]


def planning_overall(planning: pd.DataFrame) -> pd.DataFrame:
    """Per model: scored instances, errors, plan success rate, execution success rate, mean goal
    fraction."""
    return _planning_groups(planning, ["model"])


def planning_by_domain(planning: pd.DataFrame) -> pd.DataFrame:
    """Per model and domain: the rates plus how many plans failed with each failure kind."""
    table = _planning_groups(planning, ["model", "domain"])
    if planning.empty:
        return table
    kinds = planning.assign(kind=planning["failure_kind"].fillna("").replace("", NO_FAILURE))
    kinds = kinds[~truthy(kinds["success"]) & (kinds["kind"] != NO_FAILURE)
                  & ~_planning_errors(kinds)]
    if kinds.empty:
        return table
    counts = kinds.pivot_table(index=["model", "domain"], columns="kind", values="instance",
                               aggfunc="count", fill_value=0)
    counts.columns = [f"fail_{c}" for c in counts.columns]
    merged = table.merge(counts.reset_index(), on=["model", "domain"], how="left")
    fail_columns = list(counts.columns)
    merged[fail_columns] = merged[fail_columns].fillna(0).astype(int)
    return merged


def _planning_groups(planning: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The planning track's own overview (AutoPlanBench's table with the EAI rates), reduced to
    the columns the report shows."""
    columns = [*keys, *PLANNING_SUMMARY_COLUMNS]
    if planning.empty:
        return pd.DataFrame(columns=columns)
    extra = [k for k in keys if k not in EVALUATION_COLUMNS]   # e.g. the run, for the trend
    table = overview(planning.reindex(columns=[*EVALUATION_COLUMNS, *extra]), by=keys)
    return table[columns].astype(
        {"n_instances": int, "n_errors": int, "n_solved_successfully": int})


def _planning_errors(planning: pd.DataFrame) -> pd.Series:
    """Rows of items the model never answered (older runs have no `error` column)."""
    error = _column(planning, "error", "")
    return error.notna() & (error.astype(str).str.strip() != "")


def usage(qa: pd.DataFrame, planning: pd.DataFrame,
          planning_usage: pd.DataFrame | None = None) -> pd.DataFrame:
    """Tokens, cost and time per track and model. Planning tokens and cost come from the run's
    usage table (what the flow billed) when stored, else from the per-instance log meta."""
    columns = ["track", "model", "items", "llm_calls", "prompt_tokens", "completion_tokens",
               "tokens", "cost_usd", "seconds"]
    frames = []
    if not qa.empty:
        frames.append(_sums(qa, "qa"))
    if not planning.empty:
        plan = _sums(planning, "planning")
        if planning_usage is not None and not planning_usage.empty:
            billed = planning_usage.groupby("model")[
                ["llm_calls", "prompt_tokens", "completion_tokens", "cost_usd"]].sum()
            plan = plan.set_index("model")
            plan.update(billed)
            plan = plan.reset_index()
            plan["tokens"] = plan["prompt_tokens"] + plan["completion_tokens"]
        frames.append(plan)
    if not frames:
        return pd.DataFrame(columns=columns)
    table = pd.concat(frames, ignore_index=True).reindex(columns=columns)
    return table.astype({c: "Int64" for c in COUNT_COLUMNS if c in table.columns})


def _sums(rows: pd.DataFrame, track: str) -> pd.DataFrame:
    numeric = ["llm_calls", "prompt_tokens", "completion_tokens", "tokens", "cost_usd", "seconds"]
    values = pd.DataFrame({c: pd.to_numeric(_column(rows, c, 0.0), errors="coerce")
                           for c in numeric}, index=rows.index).fillna(0.0)
    if "llm_calls" not in rows.columns and track == "qa":
        values["llm_calls"] = float("nan")  # QA rows do not count calls
    values["model"] = rows["model"]
    grouped = values.groupby("model", sort=True)
    table = grouped[numeric].sum(min_count=1)
    table.insert(0, "items", grouped.size())
    return table.reset_index().assign(track=track)


def headline(qa: pd.DataFrame, planning: pd.DataFrame) -> dict[str, dict[str, float]]:
    """Per model: the metrics a regression is judged on (only those of the model's tracks).
    A model whose planning items all errored (its batch failed) has no planning rate, only
    its counts: 0 instances and its errors."""
    result: dict[str, dict[str, float]] = {}
    for row in qa_overall(qa).to_dict(orient="records"):
        result.setdefault(row["model"], {}).update(
            {m: float(row[m]) for m in QA_METRICS} | {"qa_items": int(row["items"])})
    for row in planning_overall(planning).to_dict(orient="records"):
        result.setdefault(row["model"], {}).update(
            {m: float(row[m]) for m in PLANNING_METRICS if pd.notna(row[m])}
            | {"plan_instances": int(row["n_instances"]), "plan_errors": int(row["n_errors"])})
    return dict(sorted(result.items()))


def trend(qa: pd.DataFrame, planning: pd.DataFrame) -> pd.DataFrame:
    """Long table of every headline metric per run and model, in run order (for the trend).
    Each track is summarized once with the run as a key (the same groups as one summary per
    run: a report's trend of 30 runs took 30 of each, 0.05 s apiece, on every run)."""
    columns = ["run_id", "run_date", "model", "metric", "value"]
    runs = ["run_id", "run_date"]
    summaries = []
    if not qa.empty:
        summaries.append((summarize(with_pipeline(qa).dropna(subset=runs),
                                    [*runs, "model", "pipeline"]), QA_METRICS))
    if not planning.empty:
        summaries.append((_planning_groups(planning.dropna(subset=runs), [*runs, "model"]),
                          PLANNING_METRICS))
    rows = [{"run_id": record["run_id"], "run_date": record["run_date"],
             "model": record["model"], "metric": m, "value": float(record[m])}
            for table, metrics in summaries for record in table.to_dict(orient="records")
            # A rate over no scored item (every one errored) has no value to plot.
            for m in metrics if pd.notna(record[m])]
    table = pd.DataFrame(rows, columns=columns)
    return table.sort_values(["run_date", "run_id", "model", "metric"], ignore_index=True)


def _column(rows: pd.DataFrame, name: str, default: object) -> pd.Series:
    """A column, or `default` on every row when an older run did not write it."""
    return rows[name] if name in rows.columns else pd.Series(default, index=rows.index)


def truthy(values: pd.Series) -> pd.Series:
    """Booleans with missing as False (nullable booleans and objects alike)."""
    return values.astype("boolean").fillna(False).astype(bool)
