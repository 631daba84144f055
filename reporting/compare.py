"""Run-vs-run comparison: which items flipped, and which headline metrics regressed.

A nightly benchmark is read against the night before, so the baseline of a run is the previous
run of the same kind (`store.run_kind`: same models, backend, question set, planning data and
settings): the latest recorded run that started earlier. Comparing against a run of another kind
would flag differences in the inputs as regressions.

An item flips when its verdict differs between the two runs: a QA item (question uid + model)
whose `correct` changed, a planning item (experiment + domain + instance) whose `success`
changed. A regression is a headline metric of one model dropping by more than the threshold
(absolute, in fractions: 0.05 is five points).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from reporting.metrics import HEADLINE_METRICS, headline, truthy

QA_KEYS = ["model", "uid"]
PLANNING_KEYS = ["experiment", "domain", "instance"]
_EPSILON = 1e-9  # a drop of exactly the threshold is not beyond it, despite float noise


@dataclass(frozen=True)
class Regression:
    """One model's metric that dropped by more than the threshold against the baseline run."""

    model: str
    metric: str
    before: float
    after: float
    baseline_run: str
    current_run: str

    @property
    def drop(self) -> float:
        return self.before - self.after

    def describe(self) -> str:
        return (f"{self.model}: {self.metric} fell from {self.before:.1%} to {self.after:.1%} "
                f"({self.drop * 100:.1f} points) since run {self.baseline_run}")


@dataclass(frozen=True)
class Comparison:
    """Everything that changed between a baseline run and the current run."""

    baseline_run: str
    current_run: str
    threshold: float
    metrics: pd.DataFrame
    flipped_qa: pd.DataFrame
    flipped_planning: pd.DataFrame
    regressions: list[Regression] = field(default_factory=list)
    # Models whose replies came from another served model or system fingerprint than in the
    # baseline (`served_changes`): a change of scores may be the server's, not the harness's.
    served_changes: list[str] = field(default_factory=list)

    @property
    def flipped(self) -> int:
        return len(self.flipped_qa) + len(self.flipped_planning)


def previous_run(runs: pd.DataFrame, run_id: str) -> str | None:
    """The latest run recorded before `run_id` with the same kind (`runs`: `store.list_runs`)."""
    ordered = runs.reset_index(drop=True)
    matches = ordered.index[ordered["run_id"] == run_id]
    if len(matches) == 0:
        return None
    position = int(matches[0])
    kind = ordered.at[position, "kind"] if "kind" in ordered.columns else None
    earlier = ordered.iloc[:position]
    if kind is not None:
        earlier = earlier[earlier["kind"] == kind]
    return None if earlier.empty else str(earlier.iloc[-1]["run_id"])


def compare_runs(qa: pd.DataFrame, planning: pd.DataFrame, baseline_run: str, current_run: str,
                 threshold: float = 0.05) -> Comparison:
    """Compare two runs' rows (`qa`/`planning` hold at least both runs' rows)."""
    before = _run_rows(qa, baseline_run), _run_rows(planning, baseline_run)
    after = _run_rows(qa, current_run), _run_rows(planning, current_run)
    metrics = metric_changes(headline(*before), headline(*after), threshold)
    regressions = [
        Regression(model=r.model, metric=r.metric, before=r.before, after=r.after,
                   baseline_run=baseline_run, current_run=current_run)
        for r in metrics[metrics["regression"]].itertuples()
    ]
    return Comparison(
        baseline_run=baseline_run, current_run=current_run, threshold=threshold,
        metrics=metrics,
        flipped_qa=flipped_qa(before[0], after[0]),
        flipped_planning=flipped_planning(before[1], after[1]),
        regressions=regressions,
        served_changes=served_changes(before[0], after[0], baseline_run, current_run),
    )


def served_changes(before: pd.DataFrame, after: pd.DataFrame, baseline_run: str,
                   current_run: str) -> list[str]:
    """One line per model (as configured) whose served model or system fingerprint, as the
    responses named them, differ between the runs. Rows that recorded neither (older runs,
    servers that send none) say nothing either way."""
    was, now = _served(before), _served(after)
    return [f"{model}: answered by {', '.join(sorted(was[model]))} in run {baseline_run}, by "
            f"{', '.join(sorted(now[model]))} in run {current_run}"
            for model in sorted(set(was) & set(now)) if was[model] != now[model]]


def _served(rows: pd.DataFrame) -> dict[str, set[str]]:
    """model -> the distinct `served_model (system_fingerprint)` its rows recorded."""
    if rows.empty or "served_model" not in rows.columns:
        return {}
    found: dict[str, set[str]] = {}
    fingerprints = rows["system_fingerprint"] if "system_fingerprint" in rows.columns \
        else pd.Series("", index=rows.index)
    for model, served, fingerprint in zip(rows["model"], rows["served_model"].fillna(""),
                                          fingerprints.fillna(""), strict=True):
        if served or fingerprint:
            label = f"{served or '?'} ({fingerprint})" if fingerprint else str(served)
            found.setdefault(str(model), set()).add(label)
    return found


def metric_changes(before: dict[str, dict[str, float]], after: dict[str, dict[str, float]],
                   threshold: float) -> pd.DataFrame:
    """One row per model and headline metric both runs have: before, after, change, flag."""
    rows = []
    for model in sorted(set(before) & set(after)):
        for metric in HEADLINE_METRICS:
            if metric in before[model] and metric in after[model]:
                old, new = before[model][metric], after[model][metric]
                rows.append({"model": model, "metric": metric, "before": old, "after": new,
                             "change": new - old,
                             "regression": old - new > threshold + _EPSILON})
    columns = ["model", "metric", "before", "after", "change", "regression"]
    return pd.DataFrame(rows, columns=columns).astype({"regression": bool})


def flipped_qa(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """QA items (uid + model) answered correctly in one run and not in the other."""
    columns = [*QA_KEYS, "name", "tags", "change", "f1_before", "f1_after", "answer_after",
               "mismatch_after"]
    if before.empty or after.empty:
        return pd.DataFrame(columns=columns)
    left = before[[*QA_KEYS, "correct", "score_f1"]]
    right = after[[*QA_KEYS, "name", "tags", "correct", "score_f1", "answer", "mismatch"]]
    joined = left.merge(right, on=QA_KEYS, suffixes=("_before", "_after"))
    was, now = truthy(joined["correct_before"]), truthy(joined["correct_after"])
    flipped = joined[was != now].assign(change=[_change(n) for n in now[was != now]])
    flipped = flipped.rename(columns={"score_f1_before": "f1_before", "score_f1_after": "f1_after",
                                      "answer": "answer_after", "mismatch": "mismatch_after"})
    return flipped[columns].sort_values(QA_KEYS, ignore_index=True)


def flipped_planning(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Planning items (experiment + domain + instance) solved in one run and not in the other."""
    columns = [*PLANNING_KEYS, "model", "change", "failure_kind_before", "failure_kind_after"]
    if before.empty or after.empty:
        return pd.DataFrame(columns=columns)
    left = before[[*PLANNING_KEYS, "success", "failure_kind"]]
    right = after[[*PLANNING_KEYS, "model", "success", "failure_kind"]]
    joined = left.merge(right, on=PLANNING_KEYS, suffixes=("_before", "_after"))
    was, now = truthy(joined["success_before"]), truthy(joined["success_after"])
    flipped = joined[was != now].assign(change=[_change(n) for n in now[was != now]])
    return flipped[columns].sort_values(PLANNING_KEYS, ignore_index=True)


def _change(now_right: bool) -> str:
    return "fixed" if now_right else "broke"


def _run_rows(rows: pd.DataFrame, run_id: str) -> pd.DataFrame:
    if rows.empty or "run_id" not in rows.columns:
        return rows.iloc[0:0]
    return rows[rows["run_id"] == run_id]
