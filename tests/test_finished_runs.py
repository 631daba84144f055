"""Reusing a run that finished cleanly when nothing changed since (benchcore.finished_runs), and
every change that must make the rerun do its work again. No Prefect here: the flow's use of it
is tested in test_reruns_and_faults.py."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from benchcore import finished_runs
from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, QAConfig
from benchcore.run_summary import RunSummary
from benchcore.track_summary import TrackSummary
from tests.conftest import PROJECT_ROOT

DEMO_QUESTIONS = PROJECT_ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = PROJECT_ROOT / "questions/demo/apartment_dsg.json"
RUN_ID = "nightly"


def _config(tmp_path: Path, **updates) -> BenchmarkConfig:
    questions = tmp_path / "inputs/questions.yaml"
    if not questions.exists():
        questions.parent.mkdir(parents=True)
        shutil.copy(DEMO_QUESTIONS, questions)
    config = BenchmarkConfig(
        run_id=RUN_ID, results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="reference-cypher", provider="oracle")],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH)),
    )
    return config.model_copy(update=updates)


def _finished_run(tmp_path: Path, errors: int = 0) -> tuple[Path, RunSummary]:
    """A run folder and store folder as the flow leaves them, and the run's summary."""
    run_dir = tmp_path / "results" / RUN_ID
    (run_dir / "report").mkdir(parents=True)
    (run_dir / "qa_results.csv").write_text("uid,model,correct\napt01,m,True\n")
    (run_dir / "report/report.html").write_text("<html></html>")
    stored = tmp_path / "results/store" / f"run_id={RUN_ID}"
    stored.mkdir(parents=True)
    (stored / "qa.parquet").write_bytes(b"PAR1")
    (stored / "run.json").write_text("{}")
    qa = TrackSummary(paths={"rows_csv": str(run_dir / "qa_results.csv")}, units=1, items=1,
                      errors=errors, overall_records=[{"model": "m", "accuracy": 1.0}],
                      markdown="# QA", llm_calls={"fresh": 2, "cached_stages": 1})
    return run_dir, RunSummary(run_id=RUN_ID, run_dir=str(run_dir), qa=qa,
                               headline_markdown="| m |", headline_records=[{"model": "m"}])


def _fill_caches(config: BenchmarkConfig) -> None:
    """Segment files as the item and LLM caches leave them."""
    for folder in ("stages/refine", "stages/generate-cypher", "llm"):
        path = Path(config.cache_dir) / folder
        path.mkdir(parents=True)
        (path / "1234-abcd.seg").write_bytes(b"entries" * 10)


def _remember(config: BenchmarkConfig, run_dir: Path, summary: RunSummary) -> bool:
    """As the flow does: the digest from the run's start, the store as its report saw it."""
    start = finished_runs.reuse(config, RUN_ID, run_dir)
    seen = finished_runs.store_listing(Path(config.results_dir) / "store")
    return finished_runs.remember(config, RUN_ID, run_dir, summary, start.digest, seen)


def _reused(config: BenchmarkConfig, run_dir: Path) -> RunSummary | None:
    return finished_runs.reuse(config, RUN_ID, run_dir).reused


def _bump(path: Path) -> None:
    """Rewrite a file with the same bytes and a later modification time."""
    stat = path.stat()
    path.write_bytes(path.read_bytes())
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))


def test_a_clean_run_is_reused_with_its_summary_and_no_llm_calls(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    assert _reused(config, run_dir) is None   # nothing recorded yet
    assert _remember(config, run_dir, summary)

    reused = _reused(config, run_dir)
    assert reused is not None and reused.reused_finished_at
    assert reused.qa.overall_records == summary.qa.overall_records
    assert reused.headline_records == [{"model": "m"}]
    assert reused.llm_calls() == {"fresh": 0, "cached_stages": 0}


def test_a_run_made_with_refresh_is_reused_by_a_plain_rerun(tmp_path: Path) -> None:
    """`refresh` says how the run was made, not what it is: a plain rerun of a run made with
    `rerun RUN_ID --refresh refine` finds its record."""
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    refreshed = config.model_copy(update={"refresh": ["refine"]})
    start = finished_runs.reuse(refreshed, RUN_ID, run_dir)
    assert start.reused is None                                  # refresh never reuses
    seen = finished_runs.store_listing(tmp_path / "results/store")
    assert finished_runs.remember(refreshed, RUN_ID, run_dir, summary, start.digest, seen)
    assert _reused(config, run_dir) is not None


def test_a_run_with_an_errored_item_is_not_recorded(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path, errors=1)
    assert not _remember(config, run_dir, summary)
    assert _reused(config, run_dir) is None
    assert _remember(config, run_dir, replace(summary, qa=replace(summary.qa, errors=0)))


@pytest.mark.parametrize("change", [
    "question set edited", "config changed", "refresh asked", "output rewritten",
    "output deleted", "store folder rewritten", "another run recorded", "item cache deleted",
    "LLM cache cut short", "whole cache deleted", "record cut short", "record of older code",
])
def test_any_change_since_the_run_finished_makes_the_rerun_work(tmp_path: Path, monkeypatch,
                                                                change: str) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    _fill_caches(config)
    assert _remember(config, run_dir, summary)
    store = tmp_path / "results/store"
    if change == "question set edited":
        path = Path(config.qa.questions)
        path.write_text(path.read_text().replace("chair", "chairs", 1))
    elif change == "config changed":
        config = config.model_copy(update={"qa": config.qa.model_copy(update={"max_rows": 5})})
    elif change == "refresh asked":
        config = config.model_copy(update={"refresh": ["refine"]})
    elif change == "output rewritten":
        _bump(run_dir / "report/report.html")
    elif change == "output deleted":
        (run_dir / "qa_results.csv").unlink()
    elif change == "store folder rewritten":
        _bump(store / f"run_id={RUN_ID}" / "qa.parquet")
    elif change == "another run recorded":
        (store / "run_id=earlier").mkdir()
        (store / "run_id=earlier/run.json").write_text("{}")
    elif change == "item cache deleted":
        shutil.rmtree(Path(config.cache_dir) / "stages/refine")
    elif change == "LLM cache cut short":
        segment = next((Path(config.cache_dir) / "llm").iterdir())
        segment.write_bytes(segment.read_bytes()[:-1])
    elif change == "whole cache deleted":
        shutil.rmtree(config.cache_dir)
    elif change == "record of older code":
        monkeypatch.setattr(finished_runs, "RECORD_FORMAT", finished_runs.RECORD_FORMAT + 1)
    elif change == "record cut short":
        record = next((Path(config.cache_dir) / finished_runs.RECORDS_DIR).iterdir())
        record.write_bytes(record.read_bytes()[:100])
    assert _reused(config, run_dir) is None
    # A miss forgets the record: a run killed half way leaves no record behind to trust.
    assert _reused(_config(tmp_path), run_dir) is None


def test_files_added_to_the_run_folder_later_do_not_matter(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    _remember(config, run_dir, summary)
    (run_dir / "notes.txt").write_text("looked at it")
    assert _reused(config, run_dir) is not None


def test_a_change_to_the_benchmark_code_makes_the_rerun_work(tmp_path: Path,
                                                             monkeypatch) -> None:
    code = tmp_path / "code"
    (code / "scoring/__pycache__").mkdir(parents=True)
    (code / "scoring/sldp.py").write_text("TOLERANCE = 0.01\n")
    monkeypatch.setattr(finished_runs, "CODE_ROOT", code)
    monkeypatch.setattr(finished_runs, "CODE_PACKAGES", ("scoring",))
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    _remember(config, run_dir, summary)

    (code / "scoring/__pycache__/sldp.cpython-311.pyc").write_bytes(b"\0")   # not code
    assert _reused(config, run_dir) is not None
    (code / "scoring/sldp.py").write_text("TOLERANCE = 0.05\n")
    assert _reused(config, run_dir) is None

    _remember(config, run_dir, summary)
    (code / "scoring/new_metric.py").write_text("")
    assert _reused(config, run_dir) is None


def test_the_same_run_id_under_another_results_folder_is_another_run(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    _remember(config, run_dir, summary)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(tmp_path / "results", elsewhere)
    moved = config.model_copy(update={"results_dir": str(elsewhere)})
    assert _reused(moved, elsewhere / RUN_ID) is None
    assert _reused(config, run_dir) is not None


def test_a_reused_summary_keeps_every_field_but_the_call_counts(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    summary = replace(summary, regressions=["m accuracy: 0.900 -> 0.800"],
                      report_html=str(run_dir / "report/report.html"))
    _remember(config, run_dir, summary)
    reused = _reused(config, run_dir)
    assert replace(reused, reused_finished_at=None, qa=summary.qa) == summary
    assert replace(reused.qa, llm_calls=summary.qa.llm_calls) == summary.qa


def test_cache_files_added_by_other_runs_do_not_matter(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    _fill_caches(config)
    _remember(config, run_dir, summary)
    segment = Path(config.cache_dir) / "llm/1234-abcd.seg"
    segment.write_bytes(segment.read_bytes() + b"more")           # appended by another run
    (Path(config.cache_dir) / "stages/refine/5678-ef01.seg").write_bytes(b"x")
    assert _reused(config, run_dir) is not None


def test_a_run_with_an_unsettled_item_is_not_recorded(tmp_path: Path) -> None:
    """A query that timed out under load is a wrong answer this time, not an error, but it was
    not kept: a rerun must try it again, so the run is not reused."""
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    unsettled = replace(summary, qa=replace(summary.qa, unsettled=1))
    assert not _remember(config, run_dir, unsettled)
    assert _reused(config, run_dir) is None
    assert _remember(config, run_dir, summary)                     # the same run, settled


def test_inputs_edited_while_the_run_ran_are_not_taken_in(tmp_path: Path) -> None:
    """The digest is the one the run started from: a question edited during the run means
    the outputs are stale, and the rerun redoes them."""
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    start = finished_runs.reuse(config, RUN_ID, run_dir)
    path = Path(config.qa.questions)
    path.write_text(path.read_text().replace("chair", "chairs", 1))   # during the run
    seen = finished_runs.store_listing(tmp_path / "results/store")
    assert finished_runs.remember(config, RUN_ID, run_dir, summary, start.digest, seen)
    assert _reused(config, run_dir) is None


def test_a_run_recorded_after_the_report_read_the_store_stops_the_record(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    start = finished_runs.reuse(config, RUN_ID, run_dir)
    seen = finished_runs.store_listing(tmp_path / "results/store")   # the report reads these
    (tmp_path / "results/store/run_id=other").mkdir()
    (tmp_path / "results/store/run_id=other/run.json").write_text("{}")
    assert not finished_runs.remember(config, RUN_ID, run_dir, summary, start.digest, seen)
    assert _reused(config, run_dir) is None
    assert _remember(config, run_dir, summary)   # with the store as it now is, as a rerun sees it


def test_planning_data_is_versioned_as_the_loader_reads_it(tmp_path: Path) -> None:
    from benchcore.input_versions import planning_data_version

    domain = tmp_path / "gripper"
    (domain / "adapted_instances").mkdir(parents=True)
    (domain / "domain.pddl").write_text("(define (domain gripper))")
    (domain / "adapted_instances/instance-1.pddl").write_text("(define (problem p1))")
    # A data directory that is itself one domain, named in `domains` as the loader allows.
    version = planning_data_version(str(domain), ["gripper"])
    assert version != "unknown"
    (domain / "domain.pddl").write_text("(define (domain gripper2))")
    assert planning_data_version(str(domain), ["gripper"]) != version
    version = planning_data_version(str(domain), ["gripper"])
    (domain / ".DS_Store").write_bytes(b"\0")                   # not data
    assert planning_data_version(str(domain), ["gripper"]) == version
    (domain / "adapted_instances/.draft.pddl").write_text("(define (problem d))")   # loaded
    assert planning_data_version(str(domain), ["gripper"]) != version


def test_a_cache_that_cannot_take_the_record_fails_nothing(tmp_path: Path) -> None:
    config = _config(tmp_path)
    run_dir, summary = _finished_run(tmp_path)
    Path(config.cache_dir).mkdir()
    (Path(config.cache_dir) / finished_runs.RECORDS_DIR).write_text("not a folder")
    assert not _remember(config, run_dir, summary)
    assert _reused(config, run_dir) is None
