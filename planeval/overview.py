"""The overview across experiments: AutoPlanBench's table plus the EAI taxonomy's aggregate.

Input is the per-instance evaluation (`planeval.evaluation`), one row per instance and run;
output has one row per (experiment, domain, model, approach). Columns that do not apply to an
approach (look-arounds and erroneous goal predictions for non-incremental runs) are None ("NA").

Rows with an `error` (the model never replied, `planeval.evaluation`) are not instances the
model planned: `n_errors` counts them and every other column, rates included, is computed over
the remaining rows (`n_instances` is AutoPlanBench's "number of evaluated instances").

AutoPlanBench's columns keep their names. `n_look_arounds_after_mistakes` is computed (the
reference implementation declared it but never counted it). The EAI taxonomy adds:
`task_success_rate`, `execution_success_rate` (share of instances whose plan executed completely),
`step_success_rate` (mean share of proposed steps that executed), the partial goal satisfaction
means `state_goal`, `relation_goal`, `action_goal`, `total_goal`, and `rate_<kind>`, the share
of instances whose first failure has that kind or gold class.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from benchcore.spreadsheet_cells import raw_frame
from planeval.errors import PlanevalError
from planeval.evaluation import EVALUATION_COLUMNS, NON_INCREMENTAL
from planeval.failures import FailureKind, GoldClass

GROUP_KEYS = ["experiment", "domain", "model", "approach"]


def load_evaluations(eval_dir: str | Path) -> pd.DataFrame:
    """All evaluation tables (`*.csv` written by `planeval evaluate`) under a directory."""
    root = Path(eval_dir)
    if not root.exists():
        raise PlanevalError(f"{root}: no such file or directory")
    files = [root] if root.is_file() else sorted(root.rglob("*.csv"))
    frames = []
    for path in files:
        try:
            frame = raw_frame(pd.read_csv(path))
        except (OSError, ValueError) as exc:
            raise PlanevalError(f"{path}: cannot read CSV ({exc})") from None
        missing = [c for c in ("instance", "approach", "success") if c not in frame.columns]
        if missing:
            if root.is_file():
                raise PlanevalError(f"{path}: not an evaluation table (no column {missing[0]})")
            continue  # other CSVs (e.g. an earlier overview) may share the folder
        frames.append(frame)
    if not frames:
        raise PlanevalError(f"{root}: no evaluation tables (*.csv from 'planeval evaluate')")
    return pd.concat(frames, ignore_index=True).reindex(columns=EVALUATION_COLUMNS)


def overview(evaluations: pd.DataFrame, by: list[str] | None = None) -> pd.DataFrame:
    """One row per group with AutoPlanBench's counts/averages and the EAI taxonomy's rates."""
    keys = by or GROUP_KEYS
    frame = evaluations.copy()
    for key in keys:
        frame[key] = frame[key].fillna("")
    rows = [
        {
            **dict(zip(keys, group if isinstance(group, tuple) else (group,), strict=True)),
            **summarize(part),
        }
        for group, part in frame.groupby(keys, sort=True, dropna=False)
    ]
    return pd.DataFrame(rows)


def summarize(rows: pd.DataFrame) -> dict[str, Any]:
    """AutoPlanBench + EAI metrics for one group of per-instance rows (errors left out)."""
    incremental = not (rows["approach"] == NON_INCREMENTAL).all()
    errors = errored(rows)
    n_errors = int(errors.sum())
    rows = rows[~errors]
    success = _bool(rows["success"])
    without_mistake = _bool(rows["solved_without_mistake"])
    reason = rows["unsuccessful_reason"]
    ids = rows["instance"].astype(str)
    successful = rows[success]
    result: dict[str, Any] = {
        "n_instances": len(rows),
        "n_errors": n_errors,
        "n_solved_successfully": int(success.sum()),
        "n_solved_without_mistake": int(without_mistake.sum()),
        "n_reached_goal_without_stopping": int(_bool(rows["reached_goal_without_stopping"]).sum()),
        "n_predicted_goal_erroneously": int(_bool(rows["predicted_goal_erroneously"]).sum())
        if incremental
        else None,
        "unsuccessful_bec_not_reached_goal": int((reason == "not_reached_goal").sum()),
        "unsuccessful_bec_not_recog_goal": int((reason == "not_recog_goal").sum()),
        "unsuccessful_bec_not_executable": int((reason == "not_executable").sum()),
        "n_look_arounds": int(rows["n_look_arounds"].fillna(0).sum()) if incremental else None,
        "n_look_arounds_after_mistakes": int(rows["n_look_arounds_after_mistakes"].fillna(0).sum())
        if incremental
        else None,
        "avg_interaction_length": _mean(rows["interaction_length"]),
        "avg_optimal_plan_length": _mean(rows["gold_length"]),
        "avg_length_successful_interactions": _mean(successful["interaction_length"]),
        "avg_length_unsuccessful_interactions": _mean(rows[~success]["interaction_length"]),
        "avg_length_executable_plans": _mean(successful["plan_length"]),
        "avg_factor_plan_length": _mean(successful["factor_plan_length"]),
        "successful_tasks": sorted(ids[success]),
        "unsuccessful_tasks": sorted(ids[~success]),
        "successful_tasks_without_mistakes": sorted(ids[success & without_mistake]),
        "successful_tasks_with_mistakes": sorted(ids[success & ~without_mistake]),
        "task_success_rate": float(success.mean()) if len(rows) else None,
        "execution_success_rate": float(_bool(rows["execution_success"]).mean())
        if len(rows)
        else None,
        "step_success_rate": _mean(rows["n_executed"] / rows["n_steps"].where(rows["n_steps"] > 0)),
        "state_goal": _mean(rows["state_goal_fraction"]),
        "relation_goal": _mean(rows["relation_goal_fraction"]),
        "action_goal": _mean(rows["action_goal_fraction"]),
        "total_goal": _mean(rows["goal_fraction"]),
        "avg_planning_lcs": _mean(rows["planning_lcs"]),
        "avg_planning_jaccard": _mean(rows["planning_jaccard"]),
    }
    for kind in FailureKind:
        result[f"rate_{kind}"] = _share(rows["failure_kind"] == str(kind))
    for gold_class in GoldClass:
        result[f"rate_{gold_class}"] = _share(rows["gold_class"] == str(gold_class))
    return result


def errored(rows: pd.DataFrame) -> pd.Series:
    """Which evaluation rows are errors (an `error` given): not plans, never scored."""
    if "error" not in rows:
        return pd.Series(False, index=rows.index)
    error = rows["error"]
    return error.notna() & (error.astype(str).str.strip() != "")


def _share(matches: pd.Series) -> float | None:
    """Share of rows that match; None for a group with no scored row (all errors)."""
    return float(matches.mean()) if len(matches) else None


def _bool(column: pd.Series) -> pd.Series:
    """Booleans from a column that may hold True/False, 'True'/'False' (CSV) or NaN."""
    return column.map(lambda v: v is True or str(v).lower() == "true").astype(bool)


def _mean(column: pd.Series) -> float | None:
    values = pd.to_numeric(column, errors="coerce").dropna()
    return None if values.empty else float(values.mean())
