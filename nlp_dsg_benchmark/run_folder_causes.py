"""The most common failure causes of a finished (or failed) run, read back from what it left.

A deployment run's cause is otherwise only in the worker's log. The run folder's tables keep
every errored item's text (`qa_results.csv`'s `error`, `plan_failures.csv`), so the causes can
be counted again after the fact with the same reduction the run itself uses
(benchcore.failure_causes); when the folder cannot be read (another machine, the run died before
writing), the causes the run put in its final state message (`28 × ...` lines of
benchcore.run_summary.ErrorBudgetExceeded) are the fallback.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchcore.failure_causes import top_causes
from benchcore.run_folder import (
    PLAN_FAILURES_TABLE,
    QA_TABLE,
    RunFolderError,
    TableSpec,
    read_table,
)

Causes = list[tuple[str, int]]

_TRACK_TABLES: tuple[tuple[str, TableSpec], ...] = (
    ("qa", QA_TABLE), ("planning", PLAN_FAILURES_TABLE),
)
# `  28 × HTTP 401: bad or missing API key` (benchcore.failure_causes.describe_causes).
_DESCRIBED = re.compile(r"^\s*(\d+) × (.+?)\s*$")
# ErrorBudgetExceeded's first line ends with where the tables are.
_WRITTEN_TO = re.compile(r"tables written to (.+?)\s*$")


def folder_causes(run_dir: Path, n: int = 5) -> dict[str, Causes]:
    """Per track that wrote a table with errored items: its `n` most common causes.

    A table that cannot be read is skipped rather than raised: this only explains a run, and a
    half-written table must not hide the causes of the other track."""
    found: dict[str, Causes] = {}
    for track, spec in _TRACK_TABLES:
        try:
            table = read_table(run_dir, spec)
        except RunFolderError:
            continue
        if table is None or "error" not in table.columns:
            continue
        causes = top_causes((str(e) for e in table["error"].fillna("")), n)
        if causes:
            found[track] = causes
    return found


def message_causes(message: str) -> Causes:
    """The `N × cause` lines of a state message, as (cause, count)."""
    causes: Causes = []
    for line in message.splitlines():
        match = _DESCRIBED.match(line)
        if match:
            causes.append((match.group(2), int(match.group(1))))
    return causes


def message_run_dir(message: str) -> str | None:
    """The folder an ErrorBudgetExceeded message says the tables were written to."""
    for line in message.splitlines():
        match = _WRITTEN_TO.search(line)
        if match:
            return match.group(1)
    return None
