"""What the report says, section by section, as a `Document` (rendered by `html` and `markdown`).

Order follows what a reader of a nightly run asks: did anything regress (summary), how does each
track look (QA by tag, planning by domain), what did it cost, what changed since the last run,
and where is it heading (trend).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from dsgqa.results import with_pipeline
from reporting import metrics, plan_drilldown, plots, tag_groups, tag_sections
from reporting.compare import Comparison
from reporting.document import (
    Document,
    DrillDown,
    DrillItem,
    Figure,
    Section,
    Table,
    capped_text,
)

RATE_COLUMNS = ("accuracy", "accuracy_lenient", "execution_accuracy", "valid_cypher",
                "no_query_share", "task_success_rate",
                "execution_success_rate", "total_goal", "before", "after", "change")


@dataclass(frozen=True)
class ReportInputs:
    """Everything computed for one report: the current run's rows and their comparisons."""

    run: dict[str, Any]
    qa: pd.DataFrame
    planning: pd.DataFrame
    usage: pd.DataFrame
    headline: dict[str, dict[str, float]]
    comparison: Comparison | None
    trend: pd.DataFrame
    threshold: float
    note: str | None = None


def build_document(inputs: ReportInputs) -> Document:
    run = inputs.run
    facts = [
        ("run", str(run["run_id"])),
        ("run date", pd.Timestamp(run["run_date"]).strftime("%Y-%m-%d %H:%M UTC")),
        ("compared with", inputs.comparison.baseline_run if inputs.comparison else "(none)"),
        ("git commit", str(run.get("git_commit", ""))),
        ("backend", str(run.get("backend", "")) or "(no QA track)"),
        ("question set version", str(run.get("question_set_version", "")) or "(no QA track)"),
        ("planning data version", str(run.get("planning_data_version", "")) or "(no planning)"),
        ("prompt hashes", f"qa {run.get('qa_prompt_hash') or '-'}, "
                          f"planning {run.get('planning_prompt_hash') or '-'}"),
    ]
    sections = [
        summary_section(inputs), qa_section(inputs.qa), *tag_sections.tag_sections(inputs.qa),
        planning_section(inputs),
        usage_section(inputs.usage), comparison_section(inputs.comparison),
        trend_section(inputs.trend), per_question_section(inputs.qa),
        plan_drilldown.planning_drilldown_section(inputs.planning),
    ]
    return Document(title=f"nlp-dsg-benchmark report: run {run['run_id']}", facts=facts,
                    sections=sections)


def summary_section(inputs: ReportInputs) -> Section:
    comparison, paragraphs = inputs.comparison, []
    if inputs.note:
        paragraphs.append(inputs.note)
    if comparison is None:
        paragraphs.append("No earlier run of the same kind in the store: nothing to compare with.")
    else:
        broke = _count_changes(comparison, "broke")
        paragraphs.append(
            f"Compared with run {comparison.baseline_run}: {comparison.flipped} items flipped "
            f"({broke} broke, {comparison.flipped - broke} fixed).")
        if not comparison.regressions:
            paragraphs.append(f"No headline metric dropped by more than "
                              f"{inputs.threshold * 100:g} points.")
    alerts = [f"REGRESSION: {r.describe()}" for r in comparison.regressions] if comparison else []
    table = Table("Headline per model", headline_table(inputs.headline, inputs.usage),
                  percent=("accuracy", "task_success_rate", "execution_success_rate"))
    return Section("Summary", paragraphs=paragraphs, alerts=alerts, tables=[table])


def headline_table(headline: dict[str, dict[str, float]], usage: pd.DataFrame) -> pd.DataFrame:
    columns = ["model", "qa_items", "accuracy", "mean_f1", "plan_instances", "plan_errors",
               "task_success_rate", "execution_success_rate", "tokens", "cost_usd", "seconds"]
    frame = pd.DataFrame([{"model": m, **values} for m, values in headline.items()])
    if frame.empty:
        return pd.DataFrame(columns=columns)
    spent = usage.groupby("model")[["tokens", "cost_usd", "seconds"]].sum(min_count=1) \
        if not usage.empty else pd.DataFrame(columns=["tokens", "cost_usd", "seconds"])
    frame = frame.merge(spent, left_on="model", right_index=True, how="left")
    frame = frame.reindex(columns=columns)
    return frame.astype({c: "Int64" for c in metrics.COUNT_COLUMNS if c in frame.columns})


def qa_section(qa: pd.DataFrame) -> Section:
    """The QA overview; accuracy per tag follows in sections of its own (`tag_sections`)."""
    if qa.empty:
        return Section("Scene-graph QA", paragraphs=["This run has no QA rows."])
    tables = [
        Table("Per model and pipeline", metrics.qa_overall(qa), percent=RATE_COLUMNS),
        Table("Where answers were lost, per model and pipeline: items that ran a query, got "
              "valid rows, got the reference query's rows, gave an answer that parses, were "
              "right (strict, then lenient); and wrong answers by the stage that lost them",
              metrics.qa_funnel(qa)),
        Table("Queries that failed, by kind, per model and pipeline (dialect: valid Neo4j "
              "Cypher the embedded engine could not run)", metrics.qa_error_kinds(qa)),
    ]
    if with_pipeline(qa)["pipeline"].nunique() > 1:
        # A generated set's ~70 tags times the pipelines would be hundreds of rows: its
        # categories say where a strategy pays off, the tag sections have the rest.
        generated = tag_groups.is_generated(qa)
        side = metrics.pipelines_side_by_side(
            tag_groups.rows_of_kind(qa, tag_groups.CATEGORY) if generated else qa)
        if generated:
            side = side.rename(columns={"tag": tag_groups.CATEGORY})
        tables.insert(1, Table(
            f"Pipelines side by side, per model and {'category' if generated else 'tag'} (per "
            "question: tokens, seconds, LLM calls; in-context answers run no query, agentic "
            "ones count every turn)", side, percent=RATE_COLUMNS,
            collapsed=len(side) > tag_sections.LONG_TABLE_ROWS))
    return Section("Scene-graph QA", tables=tables)


# Per question and model; above this many items only the wrong ones are listed, and each text is
# capped, so the report of a 10,000-item run still opens.
DRILL_ALL_ITEMS = 2_000
DRILL_FIELD_CHARS = 2_000
DRILL_FIELDS = (
    ("question", "question"), ("solution", "solution"), ("model Cypher", "cypher"),
    ("executed Cypher", "cypher_executed"), ("rewrites", "rewrites"),
    ("query error", "query_error"), ("error kind", "query_error_kind"), ("rows", "rows_json"),
    ("refine reply", "refine_reply"), ("agent transcript", "transcript"),
    ("stop reason", "stop_reason"), ("answer", "answer"),
    ("lenient answer", "answer_extracted"), ("mismatch", "mismatch"),
    ("error", "error"),
)


def per_question_section(qa: pd.DataFrame) -> Section:
    """Last, so the overview and plots come first: every question to open and read."""
    if qa.empty:
        return Section("Per question", paragraphs=["This run has no QA rows."])
    return Section("Per question", drilldowns=[qa_drilldown(qa)])


def qa_drilldown(qa: pd.DataFrame) -> DrillDown:
    """Every question per model, to open and read why it went wrong."""
    wrong = ~metrics.truthy(qa["correct"])
    shown, note = qa, ""
    if len(qa) > DRILL_ALL_ITEMS:
        shown = qa[wrong]
        note = f"{len(qa):,} items: only the {len(shown):,} wrong ones are listed."
    items = []
    for (_, row), is_wrong in zip(shown.iterrows(), wrong[shown.index], strict=True):
        fields = [(label, capped_text(row.get(column, ""), DRILL_FIELD_CHARS))
                  for label, column in DRILL_FIELDS]
        verdict = "wrong" if is_wrong else "correct"
        system = metrics.system_label(str(row["model"]), str(row.get("pipeline", "") or ""))
        items.append(DrillItem(title=f"{row['uid']} · {system} · {verdict}",
                               wrong=bool(is_wrong),
                               fields=[(label, text) for label, text in fields if text]))
    return DrillDown("Per question (click to open)", items, note)


def planning_section(inputs: ReportInputs) -> Section:
    planning = inputs.planning
    if planning.empty:
        return Section("Planning", paragraphs=["This run has no planning rows."])
    by_domain = metrics.planning_by_domain(planning)
    png = plots.success_heatmap(by_domain)
    figures = [Figure("Plan success rate by domain and model", png,
                      "planning_success_heatmap.png")] if png else []
    paragraphs = ["fail_<kind> columns count unsuccessful plans by the kind of their first "
                  "failure (parse, unknown_action, arity, unknown_object, type, precondition, "
                  "goal_not_reached, not_recog_goal). Items the model never answered are "
                  "errors: not plans, so they are counted under errors and left out of "
                  "instances and every rate. Each unsolved instance, with the model's reply, "
                  "the plan read from it and the feedback it got, is in the last section."]
    failed = inputs.run.get("planning_failures") or []
    if failed:
        items = ", ".join(_failed_item(f) for f in failed)
        paragraphs.append(f"{len(failed)} planning items errored and were not evaluated: {items}")
    return Section("Planning", paragraphs=paragraphs, figures=figures, tables=[
        Table("Per model", metrics.planning_overall(planning), percent=RATE_COLUMNS),
        Table("Success, executability and failure kinds by domain per model", by_domain,
              percent=RATE_COLUMNS),
    ])


def _failed_item(failure: dict[str, str]) -> str:
    """`model: domain/instance (error)`; runs recorded before the failures named their model
    give the item alone."""
    model = failure.get("model") or ""
    item = f"{failure.get('item')} ({failure.get('error')})"
    return f"{model}: {item}" if model else item


def usage_section(usage: pd.DataFrame) -> Section:
    return Section("Tokens, cost and time", tables=[
        Table("Per track and model (seconds: summed per item, not wall time)", usage)])


def comparison_section(comparison: Comparison | None) -> Section:
    title = "Run-vs-run comparison"
    if comparison is None:
        return Section(title, paragraphs=["No baseline run: nothing to compare."])
    return Section(
        title,
        paragraphs=[f"Run {comparison.current_run} against run {comparison.baseline_run}; a "
                    f"regression is a drop of more than {comparison.threshold * 100:g} points."],
        alerts=[f"REGRESSION: {r.describe()}" for r in comparison.regressions]
        + [f"MODEL CHANGED: {line}" for line in comparison.served_changes],
        tables=[
            Table("Headline metrics, before and after", comparison.metrics,
                  percent=RATE_COLUMNS),
            Table("QA items that flipped", comparison.flipped_qa),
            Table("Planning items that flipped", comparison.flipped_planning),
        ],
    )


def trend_section(trend: pd.DataFrame) -> Section:
    if trend.empty:
        return Section("Trend over runs", paragraphs=["No runs to show."])
    png = plots.trend_lines(trend)
    figures = [Figure("Headline metrics per model over runs", png, "trend.png")] if png else []
    wide = trend.assign(series=trend["model"] + " · " + trend["metric"]).pivot_table(
        index=["run_id", "run_date"], columns="series", values="value", sort=False)
    wide = wide.reset_index().sort_values(["run_date", "run_id"])
    return Section("Trend over runs", figures=figures, tables=[
        Table("Headline metrics per run (columns: model · metric)", wide,
              percent=tuple(c for c in wide.columns if c not in ("run_id", "run_date")))])


def _count_changes(comparison: Comparison, change: str) -> int:
    return sum(int((t["change"] == change).sum())
               for t in (comparison.flipped_qa, comparison.flipped_planning) if not t.empty)
