"""Printing a finished run for people: the per-question table, the summary, the LLM calls.

Cells and paths are plain text, never rich markup: an answer such as `[seating, storage]` is
shown as written; every printed value passes `printable` (no escape sequence or other control
character from a reply, a question or a server error reaches the terminal). The CLI treats a
failure here as a printing problem, never a failed run.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from benchcore.failure_causes import describe_causes
from benchcore.run_folder import QA_TABLE, read_table
from benchcore.run_summary import RunSummary
from benchcore.terminal_text import printable
from benchcore.text_safety import safe_text
from dsgqa.results import ERROR_KIND_COLUMNS

PLANNING_COLUMNS = [
    "experiment", "n_instances", "n_solved_successfully", "execution_success_rate",
    "unsuccessful_bec_not_executable", "unsuccessful_bec_not_reached_goal", "rate_parse",
    "rate_unknown_action", "rate_arity", "rate_precondition", "total_goal", "avg_planning_lcs",
    "avg_factor_plan_length",
]
QA_SUMMARY_COLUMNS = [
    "model", "pipeline", "items", "correct", "accuracy", "accuracy_lenient",
    "execution_accuracy", "mean_f1", "valid_cypher", "no_query_share", "errored_items", "tokens",
    "cost_usd", "llm_calls",
]
# The summary's loss per stage, folded into one column (`query 7, refine 14, invalid 13`).
LOSS_LABELS = {"lost_at_query": "query", "wrong_rows": "rows", "lost_at_refine": "refine",
               "invalid_answer": "invalid"}
console = Console(width=max(Console().width, 120))


def qa_summary_frame(records: list[dict[str, object]]) -> pd.DataFrame:
    """The QA summary as the console shows it: the headline columns, where wrong answers
    were lost (`query 7, refine 14, invalid 13`) and the failed queries' kinds
    (`dialect 2, syntax 1`), each folded into one column."""
    overall = pd.DataFrame(records)
    kinds = {c: c.removeprefix("query_") for c in ERROR_KIND_COLUMNS}
    shown = overall[[c for c in QA_SUMMARY_COLUMNS if c in overall.columns]]
    return shown.assign(lost_at=_folded(overall, LOSS_LABELS),
                        failed_queries=_folded(overall, kinds))


def _folded(frame: pd.DataFrame, labels: dict[str, str]) -> list[str]:
    """Per row, the non-zero counts of `labels`' columns as `label count, ...` ('-' if none)."""
    columns = [c for c in labels if c in frame.columns]
    return [", ".join(f"{labels[c]} {int(row[c])}" for c in columns
                      if pd.notna(row[c]) and int(row[c])) or "-"
            for _, row in frame.iterrows()]


def _table(frame: pd.DataFrame, title: str) -> Table:
    table = Table(title=printable(title), show_lines=False)
    for column in frame.columns:
        table.add_column(printable(str(column)), overflow="fold")
    for row in frame.itertuples(index=False):
        table.add_row(*(_cell(v) for v in row))
    return table


def _cell(value: object) -> Text:
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return Text("NA")
    if isinstance(value, float):
        return Text(f"{value:.3f}")
    return Text(printable(safe_text(str(value))))


def _shorten(text: object, limit: int = 60) -> str:
    """At most `limit` characters of any value (a table may hold numbers where text was
    expected)."""
    text = "" if text is None or text is pd.NA else str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(line: str) -> None:
    """A line printed as it is (no markup: paths and errors may hold brackets)."""
    console.print(printable(line), markup=False, highlight=False)


def print_run(summary: RunSummary) -> None:
    if summary.qa is not None:
        rows = read_table(Path(summary.qa.paths["rows_csv"]).parent, QA_TABLE)
        columns = ["uid", "model", "pipeline", "valid_cypher", "n_rows", "answer", "correct",
                   "score_f1"]
        shown = rows[columns].assign(answer=rows["answer"].map(_shorten))
        console.print(_table(shown, "Scene-graph QA: per question"))
        console.print(_table(qa_summary_frame(summary.qa.overall_records),
                             "Scene-graph QA: summary"))
        _plain(f"QA tables: {summary.qa.paths['markdown']}")
    if summary.planning is not None:
        overall = pd.DataFrame(summary.planning.overall_records)
        columns = [c for c in PLANNING_COLUMNS if c in overall.columns]
        console.print(_table(overall[columns], "Planning: overview per experiment"))
        _plain(f"Planning tables: {summary.planning.paths['markdown']}")
    if summary.report_html:
        _plain(f"Report: {summary.report_html}")
    for regression in summary.regressions:
        console.print(Text("REGRESSION", style="bold red"), Text(printable(regression)))
    _print_errors(summary)
    for _name, track in summary.tracks():
        for note in track.notes if track is not None else ():
            console.print(Text("NOTE", style="bold yellow"), Text(printable(note)))
    if summary.reused_finished_at:
        _plain(f"run {summary.run_id}: nothing to redo: it finished at "
               f"{summary.reused_finished_at} with no errored item, and its inputs, code, "
               "caches and files are unchanged since (0 LLM calls; --refresh STAGE recomputes "
               "a stage)")
        return
    calls = summary.llm_calls()
    _plain(
        f"run {summary.run_id}: LLM calls made fresh: {calls['fresh']}; "
        f"item stages served from the cache: {calls['cached_stages']}"
    )


def _print_errors(summary: RunSummary) -> None:
    """Errored items per track, with their most common causes (within the error budget: a run
    over it ends with the same lines from the CLI instead)."""
    for name, track in summary.tracks():
        if track is not None and track.errors:
            _plain(f"{name} track: {track.errors}/{track.items} items errored")
            for line in describe_causes(track.error_causes):
                _plain(f"  {line}")
