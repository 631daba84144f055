"""Reading one finished run's folder (as the flow writes it) into typed tables.

A run folder holds `config.json`, the QA rows `qa_results.csv`, the planning rows
`plan_evaluation.csv`, the planning usage `plan_usage.csv`, the planning items that errored
`plan_failures.csv` and the generation logs under `plans/`. Either track may be absent. Columns
are kept as the run wrote them (a newer run may add some), but the ones the report relies on are
required and coerced to one type, so every run's Parquet file has the same schema.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from reporting.errors import ReportError

QA_REQUIRED = ("uid", "model", "correct", "score_f1")
QA_BOOL = ("valid_cypher", "truncated", "valid_answer", "correct")
QA_TEXT = ("uid", "name", "tags", "model", "backend", "cypher", "query_error", "answer",
           "mismatch", "error")
PLANNING_REQUIRED = ("experiment", "domain", "instance", "model", "success")
PLANNING_BOOL = ("success", "solved_without_mistake", "reached_goal",
                 "reached_goal_without_stopping", "predicted_goal_erroneously",
                 "execution_success")
PLANNING_TEXT = ("experiment", "domain", "instance", "model", "approach", "unsuccessful_reason",
                 "failure_kind", "gold_class", "error")
INT_COLUMNS = frozenset({
    "n_rows", "prompt_tokens", "completion_tokens", "tokens", "llm_calls", "n_mistakes",
    "failure_step", "interaction_length", "plan_length", "gold_length", "n_steps", "n_executed",
    "n_look_arounds", "n_look_arounds_after_mistakes",
})
LOG_USAGE = ("prompt_tokens", "completion_tokens", "llm_calls", "seconds")
_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


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
    config = _read_config(run_dir / "config.json")
    planning = _read_csv(run_dir / "plan_evaluation.csv", PLANNING_REQUIRED)
    if planning is not None:
        planning = _typed(planning, PLANNING_BOOL, PLANNING_TEXT)
        planning = _with_log_usage(planning, run_dir / "plans")
    qa = _read_csv(run_dir / "qa_results.csv", QA_REQUIRED)
    usage = _read_csv(run_dir / "plan_usage.csv", ("experiment", "model"))
    failures = _read_csv(run_dir / "plan_failures.csv", ("item", "error"))
    if qa is None and planning is None:
        raise ReportError(f"{run_dir}: no results tables (qa_results.csv, plan_evaluation.csv)")
    return RunFolder(
        run_id=str(config.get("run_id") or run_dir.name), path=run_dir, config=config,
        qa=None if qa is None else _typed(qa, QA_BOOL, QA_TEXT),
        planning=planning,
        planning_usage=None if usage is None else _typed(usage, (), ("experiment", "model")),
        planning_failures=[] if failures is None
        else failures.astype(object).fillna("").astype(str).to_dict(orient="records"),
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


def _read_csv(path: Path, required: tuple[str, ...]) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    try:
        frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    except (OSError, ValueError) as error:
        raise ReportError(f"{path}: unreadable CSV ({error})".splitlines()[0]) from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ReportError(f"{path}: missing column {missing[0]!r}")
    return frame


def _typed(frame: pd.DataFrame, bools: tuple[str, ...], texts: tuple[str, ...]) -> pd.DataFrame:
    """Booleans as nullable booleans ("NA" stays missing), text as strings, the rest numeric
    (counts as nullable integers, so they stay counts). Known columns an older run did not
    write are added empty, so every stored run has them."""
    frame = frame.copy()
    for column in (*bools, *texts):
        if column not in frame.columns:
            frame[column] = pd.NA if column in bools else ""
    for column in frame.columns:
        if column in bools:
            frame[column] = frame[column].map(_to_bool).astype("boolean")
        elif column in texts:
            frame[column] = frame[column].astype(object).fillna("").astype(str)
        else:
            converted = pd.to_numeric(frame[column], errors="coerce")
            if converted.notna().sum() == frame[column].notna().sum():
                whole = column in INT_COLUMNS and bool((converted.dropna() % 1 == 0).all())
                frame[column] = converted.astype("Int64" if whole else float)
            else:  # a column this module does not know, with text in it: keep it as text
                frame[column] = frame[column].astype(object).fillna("").astype(str)
    return frame


def _to_bool(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


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
    for path in sorted(plans_dir.rglob("*.jsonl")) if plans_dir.is_dir() else []:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
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
