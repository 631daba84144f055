"""Per planning instance that failed or errored, what a reader needs to see why: the model's
reply, the plan read from it, the feedback it got, the kind of the first failure and that
failure in words. The planning tables only count failures (`fail_parse 2`); this says which
instances and what went wrong in each, as the QA drill-down does per question.

Solved instances are not listed: there is nothing to explain, and a large run has thousands.
"""

from __future__ import annotations

import pandas as pd

from reporting import metrics
from reporting.document import DrillDown, DrillItem, Section, capped_text

# Above this many failed instances only the first ones are listed; each text is capped.
DRILL_ITEMS = 2_000
FIELD_CHARS = 2_000
ERRORED = "error"
FIELDS = (
    ("model", "model"), ("domain", "domain"), ("instance", "instance"),
    ("experiment", "experiment"), ("failure kind", "_kind"), ("first error", "_first_error"),
    ("reply", "reply"), ("parsed plan", "plan"), ("feedback given", "feedback"),
)


def planning_drilldown_section(planning: pd.DataFrame) -> Section:
    """Last but one (after the per-question one): every failed plan to open and read."""
    title = "Per planning instance"
    if planning.empty:
        return Section(title, paragraphs=["This run has no planning rows."])
    return Section(title, drilldowns=[planning_drilldown(planning)])


def planning_drilldown(planning: pd.DataFrame) -> DrillDown:
    """One closed item per instance that was not solved (a failed plan or an errored item)."""
    failed = planning[~metrics.truthy(planning["success"])]
    failed = failed.sort_values(["model", "domain", "instance"], kind="stable")
    note = "" if len(failed) else "Every instance was solved."
    if len(failed) > DRILL_ITEMS:
        note = f"{len(failed):,} unsolved instances: only the first {DRILL_ITEMS:,} are listed."
        failed = failed.head(DRILL_ITEMS)
    items = [_item(row) for _, row in failed.iterrows()]
    return DrillDown("Unsolved planning instances (click to open)", items, note)


def _item(row: pd.Series) -> DrillItem:
    error = _text(row.get("error"))
    kind = ERRORED if error else _text(row.get("failure_kind")) or "unsolved"
    values = row.to_dict() | {
        "_kind": kind,
        # An errored item has no plan to judge: its error is the first and only one.
        "_first_error": error or _text(row.get("failure_detail")),
    }
    fields = [(label, capped_text(values.get(column), FIELD_CHARS)) for label, column in FIELDS]
    return DrillItem(title=f"{row['domain']}/{row['instance']} · {row['model']} · {kind}",
                     wrong=True, fields=[(label, text) for label, text in fields if text])


def _text(value: object) -> str:
    return capped_text(value, FIELD_CHARS).strip()
