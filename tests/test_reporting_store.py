"""The results store: one Parquet folder per run, keyed rows, idempotent re-recording."""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from reporting.errors import ReportError
from reporting.report import build_report
from reporting.store import KEY_COLUMNS, list_runs, load_store, load_usage, record_run
from tests.reporting_runs import QUESTIONS, write_inputs, write_run

RUN1 = "20260101T020000-aaaaaa"
RUN2 = "20260102T020000-bbbbbb"


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, str]:
    return write_inputs(tmp_path / "inputs")


def test_a_run_is_stored_as_one_folder_of_keyed_parquet_rows(tmp_path, inputs):
    run_dir = write_run(tmp_path / "results", RUN1, inputs, wrong={("gpt-a", "q03")})
    store = tmp_path / "store"

    stored = record_run(run_dir, store)

    folder = store / f"run_id={RUN1}"
    assert sorted(p.name for p in folder.iterdir()) == [
        "planning.parquet", "planning_usage.parquet", "qa.parquet", "run.json"]
    qa, planning = load_store(store)
    assert stored == len(qa) + len(planning) == 2 * len(QUESTIONS) + 6
    for table in (qa, planning):
        assert list(table.columns[: len(KEY_COLUMNS)]) == KEY_COLUMNS
        assert set(table["run_id"]) == {RUN1}
        assert table["run_date"].iloc[0] == pd.Timestamp("2026-01-01T02:00:00Z")
        assert table["question_set_version"].iloc[0] not in ("", "unknown")
        assert table["planning_data_version"].iloc[0] not in ("", "unknown")
        assert table["prompt_hash"].str.len().min() == 12
        assert table["git_commit"].iloc[0]
    assert set(qa["backend"]) == {"kuzu"}
    assert qa.dtypes["correct"] == "boolean" and qa.dtypes["tokens"] == "Int64"
    assert not qa.set_index(["model", "uid"]).loc[("gpt-a", "q03"), "correct"]
    # per-instance usage comes from the generation logs' meta
    assert planning["tokens"].tolist() == [340] * 6 and planning["seconds"].sum() == 9.0
    info = json.loads((folder / "run.json").read_text())
    assert info["qa_models"] == ["gpt-a", "gpt-b"] and info["planning_models"] == ["gpt-a"]
    assert info["rows"] == {"qa": 20, "planning": 6}


def test_recording_a_run_again_replaces_its_folder(tmp_path, inputs):
    results, store = tmp_path / "results", tmp_path / "store"
    run_dir = write_run(results, RUN1, inputs)
    first = record_run(run_dir, store)
    before = load_store(store)

    assert record_run(run_dir, store) == first
    after = load_store(store)
    for old, new in zip(before, after, strict=True):
        pd.testing.assert_frame_equal(old, new)
    assert [p.name for p in store.iterdir()] == [f"run_id={RUN1}"]  # no staging leftovers

    # the run was redone without its planning track: the old planning rows must go
    (run_dir / "plan_evaluation.csv").unlink()
    (run_dir / "plan_usage.csv").unlink()
    assert record_run(run_dir, store) == 2 * len(QUESTIONS)
    qa, planning = load_store(store)
    assert len(qa) == 20 and planning.empty
    assert load_usage(store).empty


def test_load_store_filters_runs_and_models(tmp_path, inputs):
    results, store = tmp_path / "results", tmp_path / "store"
    for run_id in (RUN1, RUN2):
        record_run(write_run(results, run_id, inputs), store)

    qa, planning = load_store(store, runs=[RUN2], models=["gpt-b"])

    assert set(qa["run_id"]) == {RUN2} and set(qa["model"]) == {"gpt-b"}
    assert planning.empty  # gpt-b has no planning rows
    assert list(list_runs(store)["run_id"]) == [RUN1, RUN2]


def test_runs_of_another_question_set_are_another_kind(tmp_path, inputs):
    results, store = tmp_path / "results", tmp_path / "store"
    record_run(write_run(results, RUN1, inputs), store)
    changed = write_inputs(tmp_path / "inputs2", question_text="questions: v2\n")
    record_run(write_run(results, RUN2, changed), store)

    runs = list_runs(store)

    assert runs["question_set_version"].nunique() == 2
    assert runs["planning_data_version"].nunique() == 1
    assert runs["kind"].nunique() == 2


def test_a_run_with_one_track_is_stored(tmp_path, inputs):
    run_dir = write_run(tmp_path / "results", RUN1, inputs, planning=False)

    assert record_run(run_dir, tmp_path / "store") == 20
    assert not (tmp_path / "store" / f"run_id={RUN1}" / "planning.parquet").exists()
    assert list_runs(tmp_path / "store")["planning_data_version"].tolist() == [""]


def test_a_run_without_optional_columns_or_logs_is_stored_and_reported(tmp_path, inputs):
    run_dir = write_run(tmp_path / "results", RUN1, inputs)
    qa_csv = run_dir / "qa_results.csv"
    pd.read_csv(qa_csv).drop(columns=["name", "tags", "mismatch"]).to_csv(qa_csv, index=False)
    shutil.rmtree(run_dir / "plans")
    store = tmp_path / "store"

    record_run(run_dir, store)

    qa, planning = load_store(store)
    assert all(len(tags) == 0 for tags in qa["tags"]) and set(qa["mismatch"]) == {""}
    assert planning["tokens"].isna().all()  # unknown, not zero
    result = build_report(store, tmp_path / "report")
    assert result.headline["gpt-a"]["task_success_rate"] == 1.0


def test_bad_inputs_are_one_line_errors(tmp_path, inputs):
    store = tmp_path / "store"
    with pytest.raises(ReportError, match="no such run folder"):
        record_run(tmp_path / "nowhere", store)
    empty = tmp_path / "results" / "empty"
    empty.mkdir(parents=True)
    with pytest.raises(ReportError, match="no results tables"):
        record_run(empty, store)
    broken = write_run(tmp_path / "results", RUN1, inputs)
    pd.DataFrame({"uid": ["q01"]}).to_csv(broken / "qa_results.csv", index=False)
    with pytest.raises(ReportError, match=r"qa_results.csv: missing column 'model'"):
        record_run(broken, store)
    with pytest.raises(ReportError, match="no results store"):
        load_store(store)
    record_run(write_run(tmp_path / "results", RUN2, inputs), store)
    with pytest.raises(ReportError, match=f"unknown run 'nope'.*recorded: {RUN2}"):
        load_store(store, runs=["nope"])


RUN3 = "20260103T020000-cccccc"


@pytest.mark.parametrize("damage", ["cut parquet", "garbage run.json", "other run's record"])
def test_an_unreadable_run_is_skipped_with_one_warning_naming_it(tmp_path, inputs,
                                                                  damage) -> None:
    """A damaged run folder must not fail every later run's report: it is left out, said once."""
    import subprocess
    import sys

    from tests.conftest import PROJECT_ROOT

    store = tmp_path / "store"
    for run_id in (RUN1, RUN2, RUN3):
        record_run(write_run(tmp_path / "results", run_id, inputs), store)
    folder = store / f"run_id={RUN2}"
    if damage == "cut parquet":
        damaged = folder / "qa.parquet"
        damaged.write_bytes(damaged.read_bytes()[:300])
    elif damage == "garbage run.json":
        damaged = folder / "run.json"
        damaged.write_text('{"run_id": "20260102T02')
    else:
        damaged = folder / "run.json"
        shutil.copy(store / f"run_id={RUN1}/run.json", damaged)
    with store_warnings() as records:
        assert list(list_runs(store)["run_id"]) == [RUN1, RUN3]
        qa, planning = load_store(store)
        assert set(qa["run_id"]) == set(planning["run_id"]) == {RUN1, RUN3}
        assert not load_usage(store).empty
        result = build_report(store, tmp_path / "report")
    assert result.run_id == RUN3 and result.baseline_run == RUN1
    warnings = [r.getMessage() for r in records]
    assert len(warnings) == 1 and str(damaged) in warnings[0]
    assert warnings[0].startswith(f"results store: skipping run {RUN2}, which cannot be read")
    with pytest.raises(ReportError, match=f"run '{RUN2}' cannot be read: .*{damaged.name}"):
        load_store(store, runs=[RUN2])
    # The report command: the report is written, the warning is one line.
    done = subprocess.run(
        [sys.executable, "-m", "nlp_dsg_benchmark.cli", "report", "--store", str(store),
         "--out", str(tmp_path / "cli-report")], cwd=PROJECT_ROOT, capture_output=True,
        text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1 and str(damaged) in done.stderr


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_run_after_a_damaged_one_still_writes_its_report(tmp_path, monkeypatch):

    from nlp_dsg_benchmark.cli import main
    from tests.fake_model import DEMO_GRAPH, demo_subset

    monkeypatch.chdir(tmp_path)
    questions, _ = demo_subset(tmp_path, {"apt01"})
    args = ["run", "--provider", "oracle", "--model", "reference", "--questions",
            str(questions), "--scene-graph", str(DEMO_GRAPH)]
    assert main([*args, "--run-id", "r1"]) == 0
    damaged = tmp_path / "results/store/run_id=r1/qa.parquet"
    damaged.write_bytes(damaged.read_bytes()[:-100])
    with store_warnings() as records:
        assert main([*args, "--run-id", "r2"]) == 0
    assert (tmp_path / "results/r2/report/report.html").is_file()
    warnings = [r.getMessage() for r in records]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert "skipping run r1, which cannot be read: results/store/run_id=r1/qa.parquet" in \
        warnings[0]


@contextlib.contextmanager
def store_warnings() -> Iterator[list[logging.LogRecord]]:
    """The results store's warnings while the block runs (each warned about anew).

    A handler of its own: Prefect, set up by other tests of the session, may have replaced the
    root logger's handlers that caplog relies on, and where its console handler writes depends
    on which test set it up."""
    from reporting import store as store_module

    store_module._WARNED.clear()
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("reporting.store")
    logger.addHandler(handler)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
