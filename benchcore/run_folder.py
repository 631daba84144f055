"""The results contract: what a run writes under `results/<run-id>/`, with which columns and types.

Every writer (the QA track's tables, the planning track's tables, the run config) takes its file
names and column lists from here, and every reader (the report, the console, `rerun
--only-errored`) reads through `read_table`, so a column's type is decided once: booleans as
nullable booleans, text as strings (an all-numeric `answer` column stays text), counts as nullable
integers. A run folder holds:

- `config.json`: the run's configuration, so `rerun RUN_ID` repeats it;
- QA: `qa_results.csv` (one row per question and model), `qa_summary.csv`,
  `qa_summary_by_tag.csv`, `qa_results.md`;
- planning: `plan_evaluation.csv` (one row per instance and experiment, errored ones
  included), `plan_overview.csv`, `plan_overview_overall.csv`, `plan_overview.md`,
  `plan_failures.csv` (the errored rows: experiment, model, item, error),
  `plan_usage.csv`, the generation logs under `plans/` and planner-derived gold plans under
  `derived_gold/`;
- `report/`: the run's HTML and Markdown report.

Beside the run folders, `store/` holds every recorded run's rows (reporting/store.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

# pandas is imported where a table is read, not with the file names: the CLI reads a run's
# configuration (this module's CONFIG_FILE) before it starts the temporary Prefect API, and
# pandas is 0.3 s of that.

CONFIG_FILE = "config.json"
REPORT_DIR = "report"

# The results store, beside the run folders: `<results>/store/run_id=<id>/run.json` and the
# run's Parquet tables (reporting/store.py writes it).
STORE_DIR = "store"
STORE_RUN_PREFIX = "run_id="
STORE_RUN_FILE = "run.json"


def store_run_dir(store_root: Path, run_id: str) -> Path:
    """One recorded run's folder in the results store."""
    return Path(store_root) / f"{STORE_RUN_PREFIX}{run_id}"

QA_RESULTS = "qa_results.csv"
QA_SUMMARY = "qa_summary.csv"
QA_SUMMARY_BY_TAG = "qa_summary_by_tag.csv"
QA_MARKDOWN = "qa_results.md"
DEFAULT_PIPELINE = "feedforward"   # the pipeline of a QA row written before pipelines existed

PLAN_EVALUATION = "plan_evaluation.csv"
PLAN_OVERVIEW = "plan_overview.csv"
PLAN_OVERVIEW_OVERALL = "plan_overview_overall.csv"
PLAN_MARKDOWN = "plan_overview.md"
PLAN_FAILURES = "plan_failures.csv"
PLAN_USAGE = "plan_usage.csv"
PLANS_DIR = "plans"
DERIVED_GOLD_DIR = "derived_gold"

# Agent conversations of the QA track: `<model>__<pipeline>.jsonl`, one JSON line per question.
TRANSCRIPTS_DIR = "transcripts"
QA_COLUMNS: tuple[str, ...] = (
    "uid", "name", "tags", "question", "solution", "model", "pipeline", "backend", "cypher",
    "valid_cypher",
    "n_rows", "truncated", "query_error", "query_error_kind", "cypher_executed", "rewrites",
    "rows_json", "rows_json_truncated", "answer", "refine_reply", "valid_answer", "correct",
    "answer_extracted", "correct_lenient", "execution_match", "score_precision", "score_recall",
    "score_f1", "mismatch", "prompt_tokens",
    "completion_tokens", "tokens", "cost_usd", "seconds", "llm_calls", "served_model",
    "system_fingerprint", "stop_reason", "queries_run", "cypher_as_text", "transcript",
    "context_tokens", "error", "code", "code_error_kind",
)
PLAN_FAILURE_COLUMNS: tuple[str, ...] = ("experiment", "model", "item", "error")
PLAN_USAGE_COLUMNS: tuple[str, ...] = (
    "experiment", "model", "llm_calls", "prompt_tokens", "completion_tokens", "cost_usd",
)

# Columns that hold counts wherever they appear: read as nullable integers when whole.
INT_COLUMNS = frozenset({
    "n_rows", "prompt_tokens", "completion_tokens", "tokens", "llm_calls", "n_mistakes",
    "failure_step", "interaction_length", "plan_length", "gold_length", "n_steps", "n_executed",
    "n_look_arounds", "n_look_arounds_after_mistakes", "items", "context_tokens", "queries_run",
    "lost_at_query", "wrong_rows", "lost_at_refine", "invalid_answer",
})


@dataclass(frozen=True)
class TableSpec:
    """How one CSV of a run folder is read: the columns it must have and their types. Columns
    not named here keep their values, numeric where every value is a number."""

    file: str
    required: tuple[str, ...]
    bools: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()


QA_TABLE = TableSpec(
    QA_RESULTS, required=("uid", "model", "correct", "score_f1"),
    bools=("valid_cypher", "truncated", "rows_json_truncated", "valid_answer", "correct",
           "execution_match", "cypher_as_text", "correct_lenient"),
    texts=("uid", "name", "tags", "question", "solution", "refine_reply", "model", "pipeline",
           "stop_reason", "transcript", "backend", "served_model", "system_fingerprint",
           "cypher", "query_error", "query_error_kind", "cypher_executed", "rewrites",
           "rows_json", "answer", "answer_extracted", "mismatch", "error"),
)
PLAN_EVALUATION_TABLE = TableSpec(
    PLAN_EVALUATION, required=("experiment", "domain", "instance", "model", "success"),
    bools=("success", "solved_without_mistake", "reached_goal", "reached_goal_without_stopping",
           "predicted_goal_erroneously", "execution_success"),
    texts=("experiment", "domain", "instance", "model", "approach", "unsuccessful_reason",
           "failure_kind", "failure_detail", "gold_class", "error"),
)
PLAN_USAGE_TABLE = TableSpec(PLAN_USAGE, required=("experiment", "model"),
                             texts=("experiment", "model"))
# Runs written before the file named each item's experiment and model have only item, error.
PLAN_FAILURES_TABLE = TableSpec(PLAN_FAILURES, required=("item", "error"),
                                texts=PLAN_FAILURE_COLUMNS)

_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}


class RunFolderError(ValueError):
    """A results file that cannot be read as the contract says; one line naming the file."""


def read_table(run_dir: Path, spec: TableSpec) -> pd.DataFrame | None:
    """The table in its contract types, or None when the run did not write it."""
    import pandas as pd

    from benchcore.spreadsheet_cells import raw_frame
    from benchcore.tag_lists import tags_as_lists

    path = Path(run_dir) / spec.file
    if not path.is_file():
        return None
    try:
        frame = raw_frame(pd.read_csv(path, dtype=str, keep_default_na=False,
                                      na_values=[""]))
    except (OSError, ValueError) as error:
        raise RunFolderError(f"{path}: unreadable CSV ({error})".splitlines()[0]) from None
    missing = [c for c in spec.required if c not in frame.columns]
    if missing:
        raise RunFolderError(f"{path}: missing column {missing[0]!r}")
    return tags_as_lists(typed(frame, spec.bools, spec.texts))


def typed(frame: pd.DataFrame, bools: tuple[str, ...], texts: tuple[str, ...]) -> pd.DataFrame:
    """Booleans as nullable booleans ("NA" stays missing), text as strings, the rest numeric
    (counts as nullable integers, so they stay counts). Known columns an older run did not
    write are added empty, so every stored run has them."""
    import pandas as pd

    frame = frame.copy()
    for column in (*bools, *texts):
        if column not in frame.columns:
            frame[column] = pd.NA if column in bools else ""
    for column in frame.columns:
        if column in bools:
            frame[column] = frame[column].map(optional_bool).astype("boolean")
        elif column in texts:
            frame[column] = frame[column].astype(object).fillna("").astype(str)
        else:
            converted = pd.to_numeric(frame[column], errors="coerce")
            if converted.notna().sum() == frame[column].notna().sum():
                whole = column in INT_COLUMNS and bool((converted.dropna() % 1 == 0).all())
                frame[column] = converted.astype("Int64" if whole else float)
            else:  # a column the contract does not know, with text in it: keep it as text
                frame[column] = frame[column].astype(object).fillna("").astype(str)
    return frame


def optional_bool(value: object) -> bool | None:
    """True/False as the tables write them (bools, numpy bools, their text, 1/0, yes/no);
    anything else is missing."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


QAKey = tuple[str, str, str]         # uid, model, pipeline
PlanningKey = tuple[str, str, str]   # experiment, domain, instance


@dataclass(frozen=True)
class ItemsToRedo:
    """What `rerun --only-errored` must redo: items whose row holds an error, items with no
    whole row at all, and the tables that could not be read (all their items are missing)."""

    errored: int
    missing: int
    unreadable: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.errored + self.missing


def items_to_redo(run_dir: Path, qa: set[QAKey] | None = None,
                  planning: set[PlanningKey] | None = None) -> ItemsToRedo:
    """Compare the rows a run's tables hold with the items it should have (`qa`: questions x
    models x pipelines; `planning`: experiments x instances; None: the track is not rerun).
    A table cut short (a full disk, a kill, written by code that wrote in place) holds fewer
    rows than items, and nothing in it says so: the missing items are to redo, as are those
    in a row cut in the middle (a table whose last line does not end)."""
    errored = missing = 0
    unreadable: list[str] = []
    for expected, spec, key_columns in (
            (qa, QA_TABLE, ("uid", "model", "pipeline")),
            (planning, PLAN_EVALUATION_TABLE, ("experiment", "domain", "instance"))):
        if expected is None:
            continue
        try:
            rows = _whole_rows(run_dir, spec)
        except RunFolderError as error:
            unreadable.append(str(error))
            rows = None
        if rows is None:
            missing += len(expected)
            continue
        if spec is QA_TABLE:   # tables from before pipelines had the column empty
            rows = rows.assign(pipeline=rows["pipeline"].replace("", DEFAULT_PIPELINE))
        keys = list(zip(*(rows[c].astype(str) for c in key_columns), strict=True))
        failed = {k for k, error in zip(keys, rows["error"].astype(str), strict=True) if error}
        done = set(keys) - failed
        absent = expected - set(keys)
        # Runs written before every item kept its row: an item whose batch failed has none,
        # it is only listed in plan_failures.csv.
        if spec is PLAN_EVALUATION_TABLE:
            listed = _listed_failures(run_dir)
            failed |= {k for k in absent if f"{k[1]}/{k[2]}" in listed}
            absent = {k for k in absent if k not in failed}
        errored += len(expected & failed - done)
        missing += len(absent)
    return ItemsToRedo(errored, missing, tuple(unreadable))


def _listed_failures(run_dir: Path) -> set[str]:
    """The items (`domain/instance`) `plan_failures.csv` lists; none when it cannot be read."""
    try:
        failures = _whole_rows(run_dir, PLAN_FAILURES_TABLE)
    except RunFolderError:
        return set()
    return set() if failures is None else set(failures["item"].astype(str))


def _whole_rows(run_dir: Path, spec: TableSpec) -> pd.DataFrame | None:
    """The table's rows without a last one cut in the middle (the file does not end with a
    line break), or None when the run has no such table."""
    table = read_table(run_dir, spec)
    if table is None or table.empty:
        return table
    with open(Path(run_dir) / spec.file, "rb") as handle:
        handle.seek(-1, 2)
        ends_whole = handle.read(1) in (b"\n", b"\r")
    return table if ends_whole else table.iloc[:-1]
