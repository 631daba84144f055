"""Reading one finished run's folder into typed tables, through the results contract
(`benchcore.run_folder`), plus the planning usage the generation logs carry.

Either track may be absent. Columns are kept as the run wrote them (a newer run may add some),
but the ones the report relies on are required and typed by the contract, so every run's Parquet
file has the same schema.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from benchcore.run_folder import (
    CONFIG_FILE,
    INT_COLUMNS,
    PLAN_EVALUATION,
    PLAN_EVALUATION_TABLE,
    PLAN_FAILURES_TABLE,
    PLAN_USAGE_TABLE,
    PLANS_DIR,
    QA_RESULTS,
    QA_TABLE,
    RunFolderError,
    read_table,
)
from reporting.errors import ReportError
from reporting.plan_logs import DETAIL_COLUMNS, KEYS, log_records, plan_details

LOG_USAGE = ("prompt_tokens", "completion_tokens", "llm_calls", "seconds")


@dataclass(frozen=True)
class RunFolder:
    """One run's tables; a track's frame is None when the run did not have that track."""

    run_id: str
    path: Path
    config: dict[str, Any]
    qa: pd.DataFrame | None
    planning: pd.DataFrame | None
    planning_usage: pd.DataFrame | None
    planning_failures: list[dict[str, str]] = field(default_factory=list)


def read_run_folder(run_dir: Path) -> RunFolder:
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: no such run folder")
    config = _read_config(run_dir / CONFIG_FILE)
    try:
        qa = read_table(run_dir, QA_TABLE)
        planning = read_table(run_dir, PLAN_EVALUATION_TABLE)
        usage = read_table(run_dir, PLAN_USAGE_TABLE)
        failures = read_table(run_dir, PLAN_FAILURES_TABLE)
    except RunFolderError as error:
        raise ReportError(str(error)) from None
    if qa is None and planning is None:
        raise ReportError(f"{run_dir}: no results tables ({QA_RESULTS}, {PLAN_EVALUATION})")
    return RunFolder(
        run_id=str(config.get("run_id") or run_dir.name), path=run_dir, config=config,
        qa=qa,
        planning=None if planning is None else _with_log_texts(
            _with_log_usage(planning, run_dir / PLANS_DIR), run_dir / PLANS_DIR),
        planning_usage=usage,
        planning_failures=[] if failures is None else failures.to_dict(orient="records"),
    )


def _read_config(path: Path) -> dict[str, Any]:
    """The run's config as plain JSON: recorded runs outlive config schema changes, so the store
    reads the few fields it needs instead of validating against today's model."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ReportError(f"{path}: unreadable run config ({error})") from None
    if not isinstance(data, dict):
        raise ReportError(f"{path}: run config is not a JSON object")
    return data


def _with_log_usage(planning: pd.DataFrame, plans_dir: Path) -> pd.DataFrame:
    """Per-instance tokens, LLM calls and seconds from the generation logs' `meta` (the
    evaluation table has none); missing logs leave the columns empty rather than zero."""
    usage = _log_usage(plans_dir)
    planning = planning.drop(columns=[c for c in (*LOG_USAGE, "tokens") if c in planning.columns])
    keys = ["experiment", "domain", "instance"]
    if usage.empty:
        merged = planning.assign(**{c: float("nan") for c in LOG_USAGE})
    else:
        merged = planning.merge(usage, on=keys, how="left")
    merged = merged.assign(tokens=merged["prompt_tokens"] + merged["completion_tokens"])
    counts = [c for c in (*LOG_USAGE, "tokens") if c in INT_COLUMNS]
    return merged.astype({c: "Int64" for c in counts} | {"seconds": float})


def _log_usage(plans_dir: Path) -> pd.DataFrame:
    rows = []
    for path, record in log_records(plans_dir):
        try:
            meta = record.get("meta") or {}
            rows.append({
                "experiment": str(record.get("experiment") or path.parent.name),
                "domain": str(record["domain"]), "instance": str(record["instance"]),
                **{c: float(meta.get(c) or 0) for c in LOG_USAGE},
            })
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # the evaluation already judged the log; usage is best effort
    if not rows:
        return pd.DataFrame(columns=["experiment", "domain", "instance", *LOG_USAGE])
    frame = pd.DataFrame(rows)
    return frame.groupby(["experiment", "domain", "instance"], as_index=False).sum()


def _with_log_texts(planning: pd.DataFrame, plans_dir: Path) -> pd.DataFrame:
    """Each instance's reply, plan and feedback from its log (see `plan_logs`), so the report's
    drill-down can show why a plan failed; instances without a log get empty texts."""
    planning = planning.drop(columns=[c for c in DETAIL_COLUMNS if c in planning.columns])
    merged = planning.merge(plan_details(plans_dir), on=KEYS, how="left")
    return merged.assign(**{c: merged[c].fillna("").astype(str) for c in DETAIL_COLUMNS})
