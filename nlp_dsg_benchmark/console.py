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
from rich.text import Text

from benchcore.failure_causes import describe_causes
from benchcore.run_folder import QA_TABLE, read_table
from benchcore.run_summary import RunSummary
from benchcore.terminal_text import printable
from dsgqa.results import ERROR_KIND_COLUMNS
from nlp_dsg_benchmark.table_fit import FittedTables, fit_tables, header_label

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
# The terminal's own width (or $COLUMNS; 80 when the output is not a terminal): tables are fitted
# to it (`table_fit`) rather than drawn wider and cut by the terminal.
console = Console()
# Per-question rows printed without --verbose (wrong or errored rows first); the run's
# qa_results.csv has them all.
ROW_LIMIT = 50


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


def _shorten(text: object, limit: int = 60) -> str:
    """At most `limit` characters of any value (a table may hold numbers where text was
    expected)."""
    text = "" if text is None or text is pd.NA else str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(screen: Console, line: str) -> None:
    """A line printed as it is (no markup: paths and errors may hold brackets)."""
    screen.print(printable(line), markup=False, highlight=False)


def _print_fitted(screen: Console, fitted: FittedTables, source: str) -> None:
    for table in fitted.tables:
        screen.print(table)
    if fitted.dropped:
        names = ", ".join(header_label(c) for c in fitted.dropped)
        _plain(screen, f"Not shown at {screen.width} columns: {names} (see {source}).")


def print_run(summary: RunSummary, screen: Console | None = None, verbose: bool = False) -> None:
    """The run's tables fitted to the terminal: at most `ROW_LIMIT` per-question rows unless
    `verbose` (the summaries always), then where the tables are, regressions, errors, notes."""
    screen = screen or console
    if summary.qa is not None:
        csv = summary.qa.paths["rows_csv"]
        rows = read_table(Path(csv).parent, QA_TABLE)
        _print_questions(screen, rows, csv, None if verbose else ROW_LIMIT)
        summary_csv = summary.qa.paths.get("summary_csv", csv)
        _print_fitted(screen, fit_tables(
            qa_summary_frame(summary.qa.overall_records), "Scene-graph QA: summary",
            screen.width, keys=("model", "pipeline"), wrap=("model", "lost_at",
                                                             "failed_queries")), summary_csv)
        _plain(screen, f"QA tables: {summary.qa.paths['markdown']}")
    if summary.planning is not None:
        overall = pd.DataFrame(summary.planning.overall_records)
        columns = [c for c in PLANNING_COLUMNS if c in overall.columns]
        _print_fitted(screen, fit_tables(
            overall[columns], "Planning: overview per experiment", screen.width,
            keys=("experiment",), wrap=("experiment",)), summary.planning.paths["markdown"])
        _plain(screen, f"Planning tables: {summary.planning.paths['markdown']}")
    if summary.report_html:
        _plain(screen, f"Report: {summary.report_html}")
    for regression in summary.regressions:
        screen.print(Text("REGRESSION", style="bold red"), Text(printable(regression)))
    _print_errors(screen, summary)
    for _name, track in summary.tracks():
        for note in track.notes if track is not None else ():
            screen.print(Text("NOTE", style="bold yellow"), Text(printable(note)))
    if summary.reused_finished_at:
        _plain(screen, f"run {summary.run_id}: nothing to redo: it finished at "
               f"{summary.reused_finished_at} with no errored item, and its inputs, code, "
               "caches and files are unchanged since (0 LLM calls; --refresh STAGE recomputes "
               "a stage)")
        return
    calls = summary.llm_calls()
    _plain(screen,
           f"run {summary.run_id}: LLM calls made fresh: {calls['fresh']}; "
           f"item stages served from the cache: {calls['cached_stages']}")


def _print_questions(screen: Console, rows: pd.DataFrame, csv: str, limit: int | None) -> None:
    """The per-question table, up to `limit` rows, saying how many were left out and where
    they all are."""
    columns = ["uid", "model", "pipeline", "valid_cypher", "n_rows", "answer", "correct",
               "score_f1"]
    shown = rows[[c for c in columns if c in rows.columns]]
    shown = shown.assign(answer=rows["answer"].map(_shorten))
    chosen = rows_to_show(rows, limit)
    _print_fitted(screen, fit_tables(
        shown.iloc[chosen], "Scene-graph QA: per question", screen.width,
        keys=("uid", "model", "pipeline"), wrap=("model", "answer"),
        optional=("n_rows", "valid_cypher", "score_f1")), csv)
    left_out = len(rows) - len(chosen)
    if left_out:
        hidden_wrong = int(_wrong_or_errored(rows).sum()) - int(
            _wrong_or_errored(rows).iloc[chosen].sum())
        which = f", {hidden_wrong} of them wrong or errored" if hidden_wrong else \
            ", all of them right"
        _plain(screen, f"{left_out} of {len(rows)} rows not shown{which} (wrong or errored "
               f"rows are shown first); every row: {csv}, or run with --verbose")


def rows_to_show(rows: pd.DataFrame, limit: int | None) -> list[int]:
    """Positions of the rows to print, in table order: all of them without a limit, else the
    wrong or errored rows first (what a reader looks for), then right ones, up to `limit`."""
    if limit is None or len(rows) <= limit:
        return list(range(len(rows)))
    wrong = _wrong_or_errored(rows).to_numpy()
    ranked = sorted(range(len(rows)), key=lambda i: (not wrong[i], i))
    return sorted(ranked[:limit])


def _wrong_or_errored(rows: pd.DataFrame) -> pd.Series:
    correct = rows["correct"].astype("boolean").fillna(False).astype(bool)
    error = rows["error"].fillna("").astype(str).str.strip() != "" if "error" in rows.columns \
        else pd.Series(False, index=rows.index)
    return (~correct) | error


def _print_errors(screen: Console, summary: RunSummary) -> None:
    """Errored items per track, with their most common causes (within the error budget: a run
    over it ends with the same lines from the CLI instead)."""
    for name, track in summary.tracks():
        if track is not None and track.errors:
            _plain(screen, f"{name} track: {track.errors}/{track.items} items errored")
            for line in describe_causes(track.error_causes):
                _plain(screen, f"  {line}")
