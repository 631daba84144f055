"""The results store: every recorded run's per-item rows, both tracks, in one place.

Layout (one folder per run, never shared between runs):

    <store_root>/run_id=<id>/qa.parquet          QA rows (one per question and model)
    <store_root>/run_id=<id>/planning.parquet    planning rows (one per instance and experiment)
    <store_root>/run_id=<id>/planning_usage.parquet  LLM calls, tokens, cost per experiment
    <store_root>/run_id=<id>/run.json            the run's keys, versions and config kind

Why Parquet files rather than a DuckDB database: a run only ever adds its own folder, so the store
is append-only per run and concurrent runs (nightly and ad-hoc, or several Dask workers'
flows) never write the same file and need no lock or server; re-recording a run swaps its folder
whole. Parquet keeps the column types, is small, and pandas, pyarrow and DuckDB all read it
directly (`SELECT * FROM 'results/store/*/qa.parquet'`), so the store needs no service of its own.

Every row carries the run's keys (`KEY_COLUMNS`): run id and date, model, backend (QA only),
question-set and planning-data versions (content hashes), the prompt hash of its track and the
git commit the run was recorded at.

A run whose folder cannot be read (a Parquet file cut short, a `run.json` that is not a run
record) is left out of every listing and report, with one warning naming the file: one damaged
folder must not fail every later run at its end. Naming it explicitly (`--runs`) is an error.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import shutil
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from benchcore.input_versions import planning_data_version, question_set_version
from benchcore.run_folder import STORE_RUN_FILE, STORE_RUN_PREFIX, store_run_dir
from benchcore.text_safety import safe_frame
from reporting import provenance
from reporting.errors import ReportError
from reporting.run_folder import RunFolder, read_run_folder

QA_FILE = "qa.parquet"
PLANNING_FILE = "planning.parquet"
USAGE_FILE = "planning_usage.parquet"
KEY_COLUMNS = ["run_id", "run_date", "model", "backend", "question_set_version",
               "planning_data_version", "prompt_hash", "git_commit"]
PLANNING_SETTINGS = ("approach", "domain_format", "few_shot", "max_attempts", "max_steps")
RUN_TABLES = (QA_FILE, PLANNING_FILE, USAGE_FILE)
_LOG = logging.getLogger("reporting.store")
# (path, size, mtime) -> why it cannot be read ("" when it can): a report looks at the store
# three times, and a year of nightly runs is a thousand files.
_CHECKED: dict[tuple[str, int, int], str] = {}
_WARNED: set[str] = set()   # runs this process has warned about


def record_run(run_dir: Path, store_root: Path) -> int:
    """Store one finished run's rows (replacing an earlier recording of the same run id) and
    return how many rows were stored."""
    run = read_run_folder(Path(run_dir))
    folder = store_run_dir(store_root, _checked_id(run.run_id))
    info = run_info(run)
    tables = {
        QA_FILE: _keyed(run.qa, info, info["qa_prompt_hash"], info["backend"]),
        PLANNING_FILE: _keyed(run.planning, info, info["planning_prompt_hash"], ""),
        USAGE_FILE: run.planning_usage,
    }
    _replace_folder(folder, tables, info)
    return sum(len(t) for name, t in tables.items() if t is not None and name != USAGE_FILE)


def run_info(run: RunFolder) -> dict[str, Any]:
    """The run-level keys written to `run.json`; `kind` says which runs are comparable."""
    qa_cfg, plan_cfg = run.config.get("qa") or {}, run.config.get("planning") or {}
    info: dict[str, Any] = {
        "run_id": run.run_id,
        "run_date": provenance.run_date(run.run_id, run.path).isoformat(),
        "recorded_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "source": str(run.path.resolve()),
        "git_commit": provenance.git_commit(),
        "backend": str(qa_cfg.get("backend", "")) if run.qa is not None else "",
        "question_set_version": question_set_version(
            qa_cfg.get("questions"), qa_cfg.get("scene_graph")) if run.qa is not None else "",
        "planning_data_version": planning_data_version(
            plan_cfg.get("data_dir"), plan_cfg.get("domains")) if run.planning is not None else "",
        "qa_prompt_hash": provenance.qa_prompt_hash() if run.qa is not None else "",
        "planning_prompt_hash": provenance.planning_prompt_hash()
        if run.planning is not None else "",
        "qa_models": _models(run.qa),
        "planning_models": _models(run.planning),
        "planning_settings": {k: plan_cfg.get(k) for k in PLANNING_SETTINGS if k in plan_cfg},
        "rows": {"qa": _rows(run.qa), "planning": _rows(run.planning)},
        "planning_failures": run.planning_failures,
    }
    info["kind"] = run_kind(info)
    return info


def run_kind(info: dict[str, Any]) -> str:
    """Runs of one kind ask the same models the same questions the same way (a nightly series):
    models, backend, question set, planning data and settings. Prompts and code are left out on
    purpose: a change there is exactly what a run-vs-run comparison should show."""
    fields = ("qa_models", "planning_models", "backend", "question_set_version",
              "planning_data_version", "planning_settings")
    blob = json.dumps({f: info.get(f) for f in fields}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def list_runs(store_root: Path) -> pd.DataFrame:
    """One row per readable recorded run (its `run.json`), oldest first."""
    infos = [info for _folder, info in _readable_runs(_existing_store(store_root)).values()]
    frame = pd.DataFrame(infos, columns=list(infos[0]) if infos else ["run_id", "run_date"])
    if frame.empty:
        return frame
    frame["run_date"] = pd.to_datetime(frame["run_date"], utc=True, format="ISO8601")
    return frame.sort_values(["run_date", "run_id"], ignore_index=True)


def load_store(
    store_root: Path, runs: Sequence[str] | None = None, models: Sequence[str] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """QA rows and planning rows of the chosen runs (default: all) and models (default: all)."""
    tables = [_read_run(f, (QA_FILE, PLANNING_FILE)) for f in _run_folders(store_root, runs)]
    qa = _concat([t[QA_FILE] for t in tables if t is not None])
    planning = _concat([t[PLANNING_FILE] for t in tables if t is not None])
    if models:
        qa, planning = (t[t["model"].isin(models)].reset_index(drop=True) for t in (qa, planning))
    return qa, planning


def load_usage(store_root: Path, runs: Sequence[str] | None = None) -> pd.DataFrame:
    """Planning LLM usage per run, experiment and model (the QA rows carry their own)."""
    frames = []
    for folder in _run_folders(store_root, runs):
        tables = _read_run(folder, (USAGE_FILE,))
        usage = None if tables is None else tables[USAGE_FILE]
        if usage is not None:
            frames.append(usage.assign(run_id=folder.name.removeprefix(STORE_RUN_PREFIX)))
    return _concat(frames)


def _keyed(table: pd.DataFrame | None, info: dict[str, Any], prompt_hash: str,
           backend: str) -> pd.DataFrame | None:
    """The run's rows with the run keys in front (a row's own backend column wins)."""
    if table is None:
        return None
    keys = {
        "run_id": info["run_id"],
        "run_date": pd.Timestamp(info["run_date"]),
        "backend": backend,
        "question_set_version": info["question_set_version"],
        "planning_data_version": info["planning_data_version"],
        "prompt_hash": prompt_hash,
        "git_commit": info["git_commit"],
    }
    table = table.copy()
    for column, value in keys.items():
        if column == "backend" and column in table.columns:
            continue
        table[column] = value
    front = [c for c in KEY_COLUMNS if c in table.columns]
    return table[front + [c for c in table.columns if c not in front]]


def _replace_folder(folder: Path, tables: dict[str, pd.DataFrame | None],
                    info: dict[str, Any]) -> None:
    """Write beside the target, then swap: readers never see half a run, and a re-recording
    replaces the old folder whole (files a track no longer has disappear with it)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tag = uuid.uuid4().hex[:8]
    staging = folder.parent / f".{folder.name}.{tag}.tmp"
    retired = folder.parent / f".{folder.name}.{tag}.old"
    staging.mkdir()
    try:
        for name, table in tables.items():
            if table is not None:   # text masked again: a run folder may predate masking
                safe_frame(table).to_parquet(staging / name, index=False)
        (staging / STORE_RUN_FILE).write_text(json.dumps(info, indent=2, default=str))
        if folder.exists():
            folder.rename(retired)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if retired.exists() and not folder.exists():  # the swap failed: keep the old recording
            retired.rename(folder)
    shutil.rmtree(retired, ignore_errors=True)


def _run_folders(store_root: Path, runs: Sequence[str] | None) -> list[Path]:
    root = _existing_store(store_root)
    readable = _readable_runs(root)
    known = {run_id: folder for run_id, (folder, _info) in readable.items()}
    if runs is None:
        return list(known.values())
    for run_id in runs:
        folder = store_run_dir(root, run_id)
        if run_id not in known and folder.is_dir():
            raise ReportError(f"run {run_id!r} cannot be read: {_unreadable(folder)}")
    unknown = [r for r in runs if r not in known]
    if unknown:
        listed = ", ".join(sorted(known)) or "none"
        raise ReportError(f"unknown run {unknown[0]!r} in store {root} (recorded: {listed})")
    return [known[r] for r in dict.fromkeys(runs)]


def _existing_store(store_root: Path) -> Path:
    root = Path(store_root)
    if not root.is_dir():
        raise ReportError(f"{root}: no results store (record a run first)")
    return root


def _checked_id(run_id: str) -> str:
    if not run_id or run_id.startswith(".") or "/" in run_id or "\\" in run_id:
        raise ReportError(f"run id {run_id!r} cannot name a store folder")
    return run_id


def _models(table: pd.DataFrame | None) -> list[str]:
    return [] if table is None else sorted(table["model"].astype(str).unique())


def _rows(table: pd.DataFrame | None) -> int:
    return 0 if table is None else len(table)


def _readable_runs(root: Path) -> dict[str, tuple[Path, dict[str, Any]]]:
    """Run id -> (folder, run.json) of every run folder whose record and tables can be read;
    each other one is skipped, with one warning naming its file."""
    runs: dict[str, tuple[Path, dict[str, Any]]] = {}
    for folder in sorted(root.glob(f"{STORE_RUN_PREFIX}*")):
        if not folder.is_dir():
            continue
        problem = _unreadable(folder)
        if problem:
            _skip(folder, problem)
            continue
        info = json.loads((folder / STORE_RUN_FILE).read_text())
        runs[str(info["run_id"])] = (folder, info)
    return runs


def _unreadable(folder: Path) -> str:
    """Why the run folder cannot be read ("" when it can): its `run.json` must be a run record
    and each of its Parquet files whole (the footer a cut file lacks is read, not the rows)."""
    for name in (STORE_RUN_FILE, *RUN_TABLES):
        path = folder / name
        try:
            stat = path.stat()
        except FileNotFoundError:
            if name == STORE_RUN_FILE:
                return f"{path}: missing"
            continue
        except OSError as error:
            return f"{path}: {error.strerror}"
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key not in _CHECKED:
            _CHECKED[key] = _file_problem(path, folder)
        if _CHECKED[key]:
            return _CHECKED[key]
    return ""


def _file_problem(path: Path, folder: Path) -> str:
    try:
        if path.name == STORE_RUN_FILE:
            info = json.loads(path.read_text())
            if not isinstance(info, dict) or not {"run_id", "run_date"} <= set(info) or \
                    f"{STORE_RUN_PREFIX}{info['run_id']}" != folder.name:
                return f"{path}: not a run record"
            pd.Timestamp(info["run_date"])
        else:
            pq.read_metadata(path)
    except Exception as error:   # JSON, Arrow, OS and date errors alike: the file is unusable
        return f"{path}: unreadable ({_first_line(error)})"
    return ""


def _read_run(folder: Path, names: Sequence[str]) -> dict[str, pd.DataFrame | None] | None:
    """The run's tables, or None (and a warning) when one of them cannot be read after all
    (damaged inside, past the footer that `_unreadable` checks)."""
    tables = {}
    for name in names:
        path = folder / name
        try:
            tables[name] = pd.read_parquet(path) if path.is_file() else None
        except Exception as error:
            _skip(folder, f"{path}: unreadable ({_first_line(error)})")
            return None
    return tables


def _skip(folder: Path, problem: str) -> None:
    if str(folder) not in _WARNED:
        _WARNED.add(str(folder))
        _LOG.warning("results store: skipping run %s, which cannot be read: %s",
                     folder.name.removeprefix(STORE_RUN_PREFIX), problem)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    return line if len(line) <= 200 else line[:199] + "…"


def _concat(frames: list[pd.DataFrame | None]) -> pd.DataFrame:
    present = [f for f in frames if f is not None and not f.empty]
    if not present:
        return pd.DataFrame(columns=KEY_COLUMNS)
    return pd.concat(present, ignore_index=True)
