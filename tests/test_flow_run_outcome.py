"""How a flow run ended, read back from the Prefect API (nlp_dsg_benchmark.flow_run_outcome), and
`scripts/orchestrate.sh run NAME --watch` printing it after the watch.

The runs are real flow runs on the session's Prefect harness: a model with no API key errors
every item, which exceeds the error budget and fails the run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, QAConfig
from tests.conftest import PROJECT_ROOT
from tests.fake_model import DEMO_GRAPH, demo_subset

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")

NO_KEY = "NLP_DSG_TEST_UNSET_KEY"
NO_KEY_CAUSE = f"2 × no API key for api.openai.com: set ${NO_KEY}"


def _no_key_config(tmp_path: Path, run_id: str | None, max_error_fraction: float = 0.1,
                   ) -> BenchmarkConfig:
    questions, _ = demo_subset(tmp_path, {"apt01", "apt02"})
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="no-key-gpt", api_key_env=NO_KEY)],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs")),
        max_error_fraction=max_error_fraction,
    )


@pytest.fixture(scope="module")
def failed_run(prefect_harness: None, tmp_path_factory: pytest.TempPathFactory,
               ) -> tuple[str, Path]:
    """One failed flow run (no run id configured: the folder is derived, as in a deployment)
    and its results folder, shared by the tests that read it."""
    from prefect.settings import PREFECT_LOCAL_STORAGE_PATH, temporary_settings

    from flows.benchmark import nlp_dsg_benchmark

    os.environ.pop(NO_KEY, None)
    tmp_path = tmp_path_factory.mktemp("failed-run")
    with temporary_settings({PREFECT_LOCAL_STORAGE_PATH: tmp_path / "prefect-results"}):
        state = nlp_dsg_benchmark(_no_key_config(tmp_path, None), return_state=True)
    assert state.is_failed()
    [run_dir] = [table.parent for table in (tmp_path / "results").glob("*/qa_results.csv")]
    return str(state.state_details.flow_run_id), run_dir


def test_a_failed_run_prints_its_causes_and_folder(failed_run, capsys) -> None:
    from nlp_dsg_benchmark.flow_run_outcome import main

    flow_run_id, run_dir = failed_run
    assert main([flow_run_id]) == 1
    out = capsys.readouterr().out
    assert f"({flow_run_id}): Failed" in out
    assert "ErrorBudgetExceeded: qa track: 2/2 items errored" in out
    assert f"top failure causes:\n  qa: {NO_KEY_CAUSE}\n" in out
    assert out.rstrip().endswith(f"results folder: {run_dir}")


def test_a_completed_run_with_errors_names_them_and_its_folder(tmp_path: Path, capsys) -> None:
    """Within the error budget the state message names no folder: it comes from the run's
    parameters, the causes from its tables."""
    from flows.benchmark import nlp_dsg_benchmark
    from nlp_dsg_benchmark.flow_run_outcome import main

    os.environ.pop(NO_KEY, None)
    state = nlp_dsg_benchmark(_no_key_config(tmp_path, "tolerant", 1.0), return_state=True)
    assert state.is_completed()
    assert main([str(state.state_details.flow_run_id)]) == 0
    out = capsys.readouterr().out
    assert f"qa: {NO_KEY_CAUSE}" in out
    assert f"results folder: {tmp_path / 'results' / 'tolerant'}\n" in out


def test_unknown_or_malformed_ids_are_refused(capsys) -> None:
    from nlp_dsg_benchmark.flow_run_outcome import main

    assert main(["not-a-uuid"]) == 2
    assert main(["00000000-0000-0000-0000-000000000000"]) == 2
    err = capsys.readouterr().err
    assert "is not a flow run id" in err and "no flow run 00000000" in err


def test_causes_and_folder_are_read_from_an_error_budget_message() -> None:
    from benchcore.run_summary import ErrorBudgetExceeded, RunSummary, check_error_budget
    from benchcore.track_summary import TrackSummary
    from nlp_dsg_benchmark.run_folder_causes import message_causes, message_run_dir

    track = TrackSummary(paths={}, units=3, items=3, errors=3, overall_records=[], markdown="",
                         llm_calls={}, error_causes=[("timed out after 5 s", 2), ("x: y", 1)])
    summary = RunSummary(run_id="r", run_dir="/data/results/my run", qa=track)
    with pytest.raises(ErrorBudgetExceeded) as caught:
        check_error_budget(summary, 0.1)
    message = f"Flow run encountered an exception: ErrorBudgetExceeded: {caught.value}"
    assert message_run_dir(message) == "/data/results/my run"
    assert message_causes(message) == [("timed out after 5 s", 2), ("x: y", 1)]


def test_a_run_that_died_before_writing_says_what_it_knows(tmp_path: Path) -> None:
    from nlp_dsg_benchmark.flow_run_outcome import FlowRunOutcome, outcome_lines

    crashed = FlowRunOutcome(
        flow_run_id="0a3f", name="brave-otter", state_type="CRASHED", state_name="Crashed",
        message="Flow run infrastructure exited with non-zero status code -9.\n(more)",
        run_dir=tmp_path / "gone")
    assert outcome_lines(crashed) == [
        "flow run 'brave-otter' (0a3f): Crashed",
        "  Flow run infrastructure exited with non-zero status code -9.",
        "no errored items recorded (the message above and the worker's log say more)",
        f"results folder: {tmp_path / 'gone'} (not on this machine, or never written)",
    ]


def _fake_orchestrate(tmp_path: Path, flow_run_id: str, exit_status: int) -> Path:
    """orchestrate.sh as shipped, beside a venv.sh that sets up nothing and a `prefect` that
    prints what `prefect deployment run --watch` does and exits as the run ended."""
    scripts, bin_dir = tmp_path / "scripts", tmp_path / "bin"
    scripts.mkdir()
    bin_dir.mkdir()
    shutil.copy(PROJECT_ROOT / "scripts/orchestrate.sh", scripts / "orchestrate.sh")
    (scripts / "venv.sh").write_text(f'root="{PROJECT_ROOT}"\nexport PATH="{bin_dir}:$PATH"\n')
    (bin_dir / "prefect").write_text(
        "#!/bin/sh\n"
        'echo "prefect $*" >> "$(dirname "$0")/calls"\n'
        "echo \"Created flow run 'brave-otter'.\"\n"
        f'echo " └── UUID: {flow_run_id}"\n'
        f"echo \"Flow run finished in state 'Failed'.\"\nexit {exit_status}\n")
    (bin_dir / "prefect").chmod(0o755)
    # A wrapper, not a link: a link outside the venv would start the base interpreter.
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    (bin_dir / "python").chmod(0o755)
    return scripts / "orchestrate.sh"


def _orchestrate(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    from prefect.settings import PREFECT_API_URL

    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value()),
           "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.run([str(script), *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_watched_run_ends_with_its_causes_and_keeps_its_exit_status(
    failed_run, tmp_path: Path,
) -> None:
    flow_run_id, run_dir = failed_run
    script = _fake_orchestrate(tmp_path, flow_run_id, exit_status=1)
    done = _orchestrate(script, "run", "nightly", "--watch")
    assert done.returncode == 1, done.stderr
    assert "Flow run finished in state 'Failed'." in done.stdout
    assert f"qa: {NO_KEY_CAUSE}" in done.stdout
    assert f"results folder: {run_dir}" in done.stdout
    calls = (tmp_path / "bin/calls").read_text()
    assert calls == "prefect deployment run nlp-dsg-benchmark/nightly --watch\n"
    # Unwatched, the run is only started: nothing to explain yet.
    unwatched = _orchestrate(script, "run", "smoke")
    assert unwatched.returncode == 1
    assert "top failure causes" not in unwatched.stdout
