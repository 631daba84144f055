"""Which runs a report covers: the current run, the baseline it is compared with, and the runs
its trend line shows.

Without a choice, the report is the nightly view: the latest recorded run against the previous
run of the same kind, with that kind's history as the trend. Choosing one run reports that run
the same way; choosing several compares the last two (in run order) and trends over all chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from reporting.compare import previous_run
from reporting.errors import ReportError

TREND_RUNS = 30  # more nightly points than this make the trend plot unreadable


@dataclass(frozen=True)
class RunSelection:
    current: str
    baseline: str | None
    trend: list[str]
    note: str | None = None

    @property
    def loaded(self) -> list[str]:
        """Every run whose rows the report reads."""
        extra = [self.baseline] if self.baseline and self.baseline not in self.trend else []
        return [*extra, *self.trend]


def select_runs(catalog: pd.DataFrame, runs: Sequence[str] | None) -> RunSelection:
    """`catalog` is `store.list_runs` (oldest first); unknown run ids are a `ReportError`."""
    order = list(catalog["run_id"])
    if not runs:
        current = order[-1]
        return RunSelection(current, previous_run(catalog, current), _history(catalog, current))
    unknown = [r for r in runs if r not in order]
    if unknown:
        raise ReportError(f"unknown run {unknown[0]!r} (recorded runs: {', '.join(order)})")
    chosen = sorted(dict.fromkeys(runs), key=order.index)
    current = chosen[-1]
    if len(chosen) == 1:
        return RunSelection(current, previous_run(catalog, current), _history(catalog, current))
    baseline = chosen[-2]
    return RunSelection(current, baseline, chosen, _kind_note(catalog, baseline, current))


def _history(catalog: pd.DataFrame, current: str) -> list[str]:
    """Runs of the current run's kind up to and including it, the latest `TREND_RUNS`."""
    upto = catalog.iloc[: list(catalog["run_id"]).index(current) + 1]
    kind = upto["kind"].iloc[-1]
    return list(upto[upto["kind"] == kind]["run_id"])[-TREND_RUNS:]


def _kind_note(catalog: pd.DataFrame, baseline: str, current: str) -> str | None:
    kinds = catalog.set_index("run_id")["kind"]
    if kinds[baseline] == kinds[current]:
        return None
    return (f"Runs {baseline} and {current} differ in models, inputs or settings: some changes "
            "below may come from that rather than from the models.")
