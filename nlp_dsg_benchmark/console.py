"""Printing a finished run for people: the per-question table, the summary, the LLM calls."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table

from benchcore.run_folder import QA_TABLE, read_table
from benchcore.run_summary import RunSummary

PLANNING_COLUMNS = [
    "experiment", "n_instances", "n_solved_successfully", "execution_success_rate",
    "unsuccessful_bec_not_executable", "unsuccessful_bec_not_reached_goal", "rate_parse",
    "rate_unknown_action", "rate_arity", "rate_precondition", "total_goal", "avg_planning_lcs",
    "avg_factor_plan_length",
]
console = Console(width=max(Console().width, 120))


def _table(frame: pd.DataFrame, title: str) -> Table:
    table = Table(title=title, show_lines=False)
    for column in frame.columns:
        table.add_column(str(column), overflow="fold")
    for row in frame.itertuples(index=False):
        table.add_row(*(_cell(v) for v in row))
    return table


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "NA"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def print_run(summary: RunSummary) -> None:
    if summary.qa is not None:
        rows = read_table(Path(summary.qa.paths["rows_csv"]).parent, QA_TABLE)
        columns = ["uid", "model", "valid_cypher", "n_rows", "answer", "correct", "score_f1"]
        shown = rows[columns].assign(answer=rows["answer"].map(_shorten))
        console.print(_table(shown, "Scene-graph QA: per question"))
        console.print(_table(pd.DataFrame(summary.qa.overall_records), "Scene-graph QA: summary"))
        console.print(f"QA tables: {summary.qa.paths['markdown']}")
    if summary.planning is not None:
        overall = pd.DataFrame(summary.planning.overall_records)
        columns = [c for c in PLANNING_COLUMNS if c in overall.columns]
        console.print(_table(overall[columns], "Planning: overview per experiment"))
        console.print(f"Planning tables: {summary.planning.paths['markdown']}")
    if summary.report_html:
        console.print(f"Report: {summary.report_html}")
    for regression in summary.regressions:
        console.print(f"[bold red]REGRESSION[/] {regression}")
    calls = summary.llm_calls()
    console.print(
        f"run {summary.run_id}: LLM calls made fresh: {calls['fresh']}; "
        f"item stages served from the cache: {calls['cached_stages']}"
    )
