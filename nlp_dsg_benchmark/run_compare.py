"""`nlp-dsg-benchmark compare RUN_A RUN_B`: two recorded runs side by side.

What a user comparing two runs wants to know: did each model and pipeline get better or worse
(the headline metrics of both runs and the difference), and on which items (the questions and
planning instances that went from right to wrong and back). The numbers are the report's own
(`reporting.compare.compare_runs` over the results store), so this command, the HTML report and
the regression flags of a run never disagree.

A and B are run ids of the results store (`<results-dir>/store`); A is read as the earlier run
(the baseline), B as the later one. An id the store does not hold is one line on stderr naming
the runs it does hold; two arguments that are no run ids at all are most likely two answers,
and the line says so (`answers compare A B` compares those). Exit status: 0 compared, 2 bad
input.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from rich.console import Console

from benchcore.terminal_text import printable
from nlp_dsg_benchmark.table_fit import fit_tables
from reporting.compare import Comparison, compare_runs
from reporting.errors import ReportError
from reporting.metrics import qa_by_system
from reporting.store import list_runs, load_store

ANSWERS_HINT = "to compare two answers: nlp-dsg-benchmark answers compare A B [--pddl]"
KNOWN_SHOWN = 10      # the latest run ids an error names (a year of nightly runs is 365)
FLIPS_SHOWN = 50      # flipped items listed per direction without --verbose
EXIT_COMPARED, EXIT_BAD_INPUT = 0, 2


class CompareError(ValueError):
    """Bad input to `compare`: printed as one line, exit status 2."""


def compare_command(run_a: str, run_b: str, store: Path, threshold: float = 0.05,
                    verbose: bool = False, screen: Console | None = None) -> int:
    """Compare run `run_a` (baseline) with run `run_b` and print it; returns the exit status."""
    try:
        comparison, catalog = _compare(run_a, run_b, Path(store), threshold)
    except (CompareError, ReportError) as error:
        print(f"nlp-dsg-benchmark compare: {printable(str(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print_comparison(comparison, catalog, screen or Console(), verbose)
    return EXIT_COMPARED


def _compare(run_a: str, run_b: str, store: Path,
             threshold: float) -> tuple[Comparison, pd.DataFrame]:
    if not store.is_dir():
        raise CompareError(f"no results store at {store} (no run recorded there; "
                           f"--results-dir names another); {ANSWERS_HINT}")
    catalog = list_runs(store)
    known = [str(r) for r in catalog.get("run_id", [])]
    unknown = [r for r in (run_a, run_b) if r not in known]
    if unknown:
        raise CompareError(_unknown_runs(unknown, known, store))
    if run_a == run_b:
        raise CompareError(f"RUN_A and RUN_B are both {run_a!r}: name two different runs")
    qa, planning = load_store(store, runs=[run_a, run_b])
    return compare_runs(qa_by_system(qa), planning, run_a, run_b, threshold), catalog


def _unknown_runs(unknown: list[str], known: list[str], store: Path) -> str:
    latest = known[-KNOWN_SHOWN:]
    listed = ", ".join(latest) if latest else "none"
    if len(known) > len(latest):
        listed = f"{listed} (the latest {len(latest)} of {len(known)})"
    if len(unknown) == 2 and unknown[0] != unknown[1]:
        return (f"neither {unknown[0]!r} nor {unknown[1]!r} is a run recorded in {store} "
                f"(known runs: {listed}); {ANSWERS_HINT}")
    return f"unknown run {unknown[0]!r} in {store} (known runs: {listed})"


def print_comparison(comparison: Comparison, catalog: pd.DataFrame, screen: Console,
                     verbose: bool = False) -> None:
    """Headline metrics of both runs with the difference, then the flipped items."""
    a, b = comparison.baseline_run, comparison.current_run
    dates = catalog.set_index("run_id")["run_date"]
    _line(screen, f"Run A: {a} ({_date(dates[a])})")
    _line(screen, f"Run B: {b} ({_date(dates[b])})")
    if "kind" in catalog.columns:
        kinds = catalog.set_index("run_id")["kind"]
        if kinds[a] != kinds[b]:
            _line(screen, "Note: the runs differ in models, inputs or settings; some changes "
                  "below may come from that rather than from the models.")
    _print_metrics(screen, comparison)
    for line in comparison.served_changes:
        _line(screen, f"Note: {line}")
    _print_flips(screen, "QA", comparison.flipped_qa, ["model", "uid"],
                 ["model", "uid", "name", "f1_before", "f1_after", "answer_after"], verbose)
    _print_flips(screen, "Planning", comparison.flipped_planning,
                 ["experiment", "domain", "instance"],
                 ["experiment", "domain", "instance", "failure_kind_before",
                  "failure_kind_after"], verbose)


def _print_metrics(screen: Console, comparison: Comparison) -> None:
    metrics = comparison.metrics
    if metrics.empty:
        _line(screen, "No model or pipeline is in both runs: no metric to compare.")
        return
    table = pd.DataFrame({
        "system": metrics["model"], "metric": metrics["metric"],
        "run_A": metrics["before"], "run_B": metrics["after"],
        "change": [f"{c:+.3f}" for c in metrics["change"]],
        "flag": ["regression" if r else "" for r in metrics["regression"]],
    })
    if not table["flag"].any():
        table = table.drop(columns="flag")
    title = f"Headline metrics (change: B - A; regression: a drop of more than " \
            f"{comparison.threshold * 100:g} points)"
    for part in fit_tables(table, title, screen.width, keys=("system",),
                           wrap=("system",)).tables:
        screen.print(part)


def _print_flips(screen: Console, track: str, flips: pd.DataFrame, keys: list[str],
                 columns: list[str], verbose: bool) -> None:
    if flips.empty:
        _line(screen, f"{track}: no item flipped.")
        return
    broke, fixed = flips[flips["change"] == "broke"], flips[flips["change"] == "fixed"]
    items = "item" if len(flips) == 1 else "items"
    _line(screen, f"{track}: {len(flips)} {items} flipped: {len(broke)} right -> wrong, "
          f"{len(fixed)} wrong -> right")
    for label, rows in (("right in A, wrong in B", broke), ("wrong in A, right in B", fixed)):
        if rows.empty:
            continue
        shown = rows[[c for c in columns if c in rows.columns]]
        if "answer_after" in shown.columns:
            shown = shown.assign(answer_after=shown["answer_after"].map(_short))
        limit = None if verbose else FLIPS_SHOWN
        fitted = fit_tables(shown.head(limit) if limit else shown,
                            f"{track} items {label} ({len(rows)})", screen.width,
                            keys=[k for k in keys if k in shown.columns],
                            wrap=("model", "experiment", "name", "answer_after"),
                            optional=("name", "f1_before", "f1_after"))
        for part in fitted.tables:
            screen.print(part)
        if limit and len(rows) > limit:
            _line(screen, f"{len(rows) - limit} more not shown (--verbose lists them all)")


def _short(value: object, limit: int = 60) -> str:
    text = "" if value is None or value is pd.NA else str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _date(value: object) -> str:
    try:
        return pd.Timestamp(value).strftime("%Y-%m-%d %H:%M UTC")
    except (TypeError, ValueError):
        return str(value)


def _line(screen: Console, text: str) -> None:
    screen.print(printable(text), markup=False, highlight=False)
