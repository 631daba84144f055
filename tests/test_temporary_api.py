"""The CLI's temporary Prefect API (used when no server is configured or running)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from nlp_dsg_benchmark import environment
from nlp_dsg_benchmark.temporary_api import _healthy, temporary_api
from tests.fake_model import DEMO_GRAPH, demo_subset

CLI = Path(sys.executable).parent / "nlp-dsg-benchmark"


def _listening(url: str) -> bool:
    parsed = urlparse(url)
    with socket.socket() as probe:
        return probe.connect_ex((parsed.hostname, parsed.port)) == 0


def test_a_configured_but_dead_server_means_a_temporary_api(tmp_path: Path, monkeypatch) -> None:
    """Read without importing Prefect: what prepare_prefect_environment decides from the
    environment and ./prefect.toml."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delitem(sys.modules, "prefect", raising=False)  # as if not imported yet
    (tmp_path / "prefect.toml").write_text('[api]\nurl = "http://127.0.0.1:9/api"\n')
    assert environment._configured_api_url() == "http://127.0.0.1:9/api"
    assert environment._choose_api() == ""          # nothing listens on port 9


def test_environment_beats_prefect_toml(tmp_path: Path, monkeypatch) -> None:
    value = "http://127.0.0.1:9/api"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "prefect", raising=False)
    (tmp_path / "prefect.toml").write_text('[api]\nurl = "http://127.0.0.1:4200/api"\n')
    monkeypatch.setenv("PREFECT_API_URL", value)
    assert environment._configured_api_url() == value


def test_each_api_has_its_own_database_serves_and_is_gone_afterwards(
        tmp_path: Path, monkeypatch) -> None:
    """Under the run's cache, one slot per API running at once, reused afterwards; a running
    API named in ./prefect.toml is used as is; each is gone when its run ends, and one whose
    run failed is gone at once although it was to linger. (One test: each API start costs
    5-10 s.)"""
    from nlp_dsg_benchmark.temporary_api import starting_api

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delitem(sys.modules, "prefect", raising=False)
    with temporary_api(tmp_path / "cache") as first:
        with pytest.raises(RuntimeError, match="the run failed"), \
                starting_api(tmp_path / "cache", linger_s=60) as second:
            second.wait()
            assert _healthy(first) and _healthy(second.url)
            (tmp_path / "prefect.toml").write_text(f'[api]\nurl = "{first}"\n')
            assert environment._choose_api() == first     # a running server is used as is
            raise RuntimeError("the run failed")
        assert not _listening(second.url)   # a failed run leaves no server behind
    slots = sorted(p.parent.name for p in (tmp_path / "cache/prefect-api").glob("*/prefect.db"))
    assert slots == ["slot-0", "slot-1"]
    assert not _listening(first)


@pytest.mark.slow
def test_two_cli_runs_started_at_once_both_complete(tmp_path: Path) -> None:
    """Two CLI runs, same working directory and cache, no Prefect server: each starts its own
    temporary API on its own database; neither touches PREFECT_HOME's database."""
    questions, _ = demo_subset(tmp_path, {"apt01", "apt04"})
    env = {**os.environ, "PREFECT_API_URL": "http://127.0.0.1:9/api",
           "PREFECT_HOME": str(tmp_path / "prefect-home")}
    started = time.monotonic()
    runs = {
        run_id: subprocess.Popen(
            [str(CLI), "run", "--questions", str(questions), "--scene-graph", str(DEMO_GRAPH),
             "--provider", "oracle", "--model", "reference", "--run-id", run_id],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for run_id in ("first", "second")
    }
    done = {run_id: (p.wait(timeout=300), p.communicate()) for run_id, p in runs.items()}
    print(f"two concurrent CLI runs: {time.monotonic() - started:.1f} s")
    for run_id, (code, (_out, err)) in done.items():
        assert code == 0, err[-2000:]
        assert "Traceback" not in err and "Error logging to API" not in err
        assert (tmp_path / "results" / run_id / "qa_results.csv").is_file()
    databases = list((tmp_path / ".cache/prefect-api").glob("slot-*/prefect.db"))
    assert len(databases) == 2
    assert not (tmp_path / "prefect-home/prefect.db").exists()


def test_a_lingering_api_is_adopted_by_the_next_command_then_retires(tmp_path: Path) -> None:
    """Left running after its command, adopted by the next one in the same cache (no start-up
    to wait for), and stopped by its watcher once unused for the linger time."""
    from nlp_dsg_benchmark.temporary_api import starting_api

    with starting_api(tmp_path / "cache", linger_s=2) as first:
        first.wait()
    assert _healthy(first.url)          # still up: the next command may use it
    started = time.monotonic()
    with starting_api(tmp_path / "cache", linger_s=2) as second:
        second.wait()
        assert second.adopted and second.url == first.url
        assert time.monotonic() - started < 2
        time.sleep(3)                   # in use: the watcher leaves it alone
        assert _healthy(second.url)
    deadline = time.monotonic() + 20
    while _listening(first.url) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _listening(first.url)
    assert not (tmp_path / "cache/prefect-api/slot-0/server.json").exists()
