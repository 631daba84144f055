"""A run folder belongs to one run: a run id that names a run of another configuration is
refused before anything is written, and two runs of one run id at once are one run and a
refusal, not two runs paying for every call."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import (
    BenchmarkConfig,
    ConfigError,
    PlanningConfig,
    QAConfig,
    check_run_folder,
    save_run_config,
)
from benchcore.run_lock import LOCK_FILE, RunFolderBusy
from nlp_dsg_benchmark.cli import main
from tests.fake_model import DEMO_GRAPH, ReferenceModel, demo_subset, serve
from tests.flow_process import start_flow_process


def _files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns
            for p in folder.rglob("*") if p.is_file()}


def test_a_run_id_of_another_configuration_is_refused_naming_the_difference(tmp_path) -> None:
    """Run A had QA and planning; run B under its id, QA only, would have left A's planning
    tables beside B's QA ones, and B's store record would have listed A's planning models."""
    model = ModelConfig(name="a")
    a = BenchmarkConfig(models=[model], qa=QAConfig(questions="q.yaml", scene_graph="g.json"),
                        planning=PlanningConfig(data_dir="planning"))
    run_dir = tmp_path / "r1"
    save_run_config(a, "r1", run_dir)
    with pytest.raises(ConfigError, match=r"r1: run id 'r1' already names a run of another "
                       r"configuration \(planning: configured recorded, none now\)"):
        check_run_folder(a.model_copy(update={"planning": None}), run_dir)
    with pytest.raises(ConfigError, match=r"models\.0\.name: 'a' recorded, 'b' now"):
        check_run_folder(a.model_copy(update={"models": [ModelConfig(name="b")]}), run_dir)
    # The same run again, one track of it, or with operational settings changed: its own.
    for same in (a, a.model_copy(update={"tracks": ["qa"], "cache_dir": "elsewhere",
                                         "refresh": ["refine"], "max_error_fraction": 0.1}),
                 a.model_copy(update={"models": [model.model_copy(update={"timeout_s": 5})]})):
        check_run_folder(same, run_dir)
    (run_dir / "config.json").write_text("{not json")
    with pytest.raises(ConfigError, match=r"config\.json: unreadable run configuration"):
        check_run_folder(a, run_dir)


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_used_run_id_with_other_models_is_refused_and_the_run_kept(
        tmp_path, monkeypatch, capsys) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    monkeypatch.chdir(tmp_path)
    questions, _ = demo_subset(tmp_path, {"apt01", "apt04"})
    args = ["run", "--provider", "oracle", "--questions", str(questions),
            "--scene-graph", str(DEMO_GRAPH), "--run-id", "r1"]
    assert main([*args, "--model", "reference"]) == 0
    run_dir = tmp_path / "results/r1"
    before = _files(run_dir)
    capsys.readouterr()
    assert main([*args, "--model", "other"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already names a run of another configuration" in err
    assert "'reference' recorded, 'other' now" in err
    # The flow itself (a deployment's run) refuses too, before writing anything.
    config = BenchmarkConfig(
        run_id="r1", models=[ModelConfig(name="other", provider="oracle")],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=".cache/graphs"))
    with pytest.raises(ConfigError, match="another configuration"):
        nlp_dsg_benchmark(config)
    assert _files(run_dir) == before
    assert main([*args, "--model", "reference"]) == 0   # the same run again: its own


@pytest.mark.usefixtures("prefect_harness", "prefect_storage")
def test_a_second_run_of_a_run_id_going_on_is_refused_and_nothing_is_paid_twice(
        tmp_path, monkeypatch, capsys) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    monkeypatch.chdir(tmp_path)
    questions, known = demo_subset(tmp_path, {"apt01", "apt04", "apt06"})
    slow = ReferenceModel(known, latency_s=0.4)
    with serve(slow) as server:
        model = ModelConfig(name="fake-gpt", base_url=server.base_url,
                            api_key_env="NO_KEY_NEEDED", max_connections=1)
        config = BenchmarkConfig(
            run_id="night", results_dir=str(tmp_path / "results"),
            cache_dir=str(tmp_path / "cache"), models=[model],
            qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                        db_root=str(tmp_path / "graphs")))
        process = start_flow_process(config, tmp_path)
        try:
            deadline = time.monotonic() + 120
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            assert server.requests, "the first run never called the model"
            capsys.readouterr()
            assert main(["rerun", "night", "--results-dir", str(tmp_path / "results")]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "another run of run id 'night' is writing" in err
            assert LOCK_FILE in err
            with pytest.raises(RunFolderBusy):
                nlp_dsg_benchmark(config)
            assert process.wait(timeout=120) == 0
        finally:
            if process.poll() is None:
                process.kill()
        assert len(server.requests) == 6      # one run's calls: 3 questions x 2 stages
    assert main(["rerun", "night", "--results-dir", str(tmp_path / "results")]) == 0
    assert len(server.requests) == 6


def test_the_lock_goes_with_a_killed_run(tmp_path) -> None:
    """`kill -9` leaves no lock behind: the next run of the id starts."""
    from benchcore.run_lock import check_not_busy, run_folder_lock

    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time; "
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
         str(tmp_path / LOCK_FILE)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(RunFolderBusy):
            check_not_busy(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    check_not_busy(tmp_path)
    with run_folder_lock(tmp_path):
        pass
