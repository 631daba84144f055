"""`--quiet`: one line per run, for scripts and for a terminal that runs many of them.

The line says which run it was, where its results are, the headline of each model and pipeline
(QA accuracy; planning task success per experiment) and how many items errored, so a loop over
runs prints a readable log whose lines can be grepped by run id or model.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchcore.run_summary import RunSummary
from benchcore.terminal_text import printable
from reporting.metrics import system_label


def run_line(summary: RunSummary) -> str:
    """`run ID: FOLDER; QA accuracy: m 0.9, m · agentic 0.8; planning success: e 0.5; errors: 0`."""
    parts = [f"run {summary.run_id}: {summary.run_dir}"]
    if summary.qa is not None:
        qa = _rates((system_label(str(r.get("model", "")), str(r.get("pipeline", ""))),
                     r.get("accuracy")) for r in summary.qa.overall_records)
        parts.append(f"QA accuracy: {qa}")
    if summary.planning is not None:
        planning = _rates((str(r.get("experiment", r.get("model", ""))),
                           r.get("task_success_rate", r.get("execution_success_rate")))
                          for r in summary.planning.overall_records)
        parts.append(f"planning success: {planning}")
    errors = sum(track.errors for _, track in summary.tracks() if track is not None)
    parts.append(f"errors: {errors}")
    if summary.regressions:
        parts.append(f"regressions: {len(summary.regressions)}")
    return printable("; ".join(parts))


def _rates(pairs: Iterable[tuple[str, object]]) -> str:
    shown = [f"{name} {_rate(value)}" for name, value in pairs]
    return ", ".join(shown) or "-"


def _rate(value: object) -> str:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "NA"
    return "NA" if number != number else f"{number:.3f}"
