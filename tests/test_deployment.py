"""The deployment path (docs/deployment.md): prefect.yaml, prefect.toml and scripts/orchestrate.sh.

The slow test runs the whole path on loopback, as a lab would: `orchestrate.sh server` ->
`orchestrate.sh deploy` (work pool + `prefect deploy --all`) -> `orchestrate.sh worker` ->
`orchestrate.sh run smoke`, with a throw-away PREFECT_HOME and a free port. It does not use the
session's Prefect harness: everything runs in processes of its own, and it stops all of them.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import json
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import uuid
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml

from benchcore.run_config import BenchmarkConfig

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "orchestrate.sh"
PREFECT = str(Path(sys.executable).parent / "prefect")
MARKER = "NLP_DSG_DEPLOYMENT_TEST"  # set in every process the test starts, to find them all
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only


def _prefect_yaml() -> dict:
    return yaml.safe_load((ROOT / "prefect.yaml").read_text())


def _deployment(name: str) -> dict:
    return next(d for d in _prefect_yaml()["deployments"] if d["name"] == name)


def _config(name: str) -> dict:
    """The run configuration a deployment names, as the flow reads it (input paths resolved
    against the file), in the form `--params '{"config": ...}'` passes it."""
    from benchcore.run_config import load_config

    path = ROOT / _deployment(name)["parameters"]["config_file"]
    return load_config(path).model_dump(mode="json", exclude_defaults=True)


def test_prefect_yaml_declares_nightly_and_smoke() -> None:
    spec = _prefect_yaml()
    assert spec["build"] is None and spec["push"] is None
    assert spec["pull"] == [{"prefect.deployments.steps.set_working_directory":
                             {"directory": "{{ $PWD }}"}}]
    nightly, smoke = _deployment("nightly"), _deployment("smoke")
    for deployment in (nightly, smoke):
        assert deployment["entrypoint"] == "flows/benchmark.py:nlp_dsg_benchmark"
        assert deployment["work_pool"]["name"] == "nlp-dsg-benchmark"
    [schedule] = nightly["schedules"]
    assert schedule == {"cron": "0 2 * * *", "timezone": "Europe/Berlin", "active": True}
    assert smoke["schedules"] == []


@pytest.mark.parametrize("name", ["nightly", "smoke"])
def test_deployments_name_their_config_file_which_validates(name: str) -> None:
    assert _deployment(name)["parameters"] == {"config_file": f"configs/{name}.yaml"}
    BenchmarkConfig.model_validate(_config(name))


def test_smoke_needs_no_key_and_no_server() -> None:
    from benchcore.run_config import load_config

    config = load_config(ROOT / "configs/smoke.yaml")   # input paths: relative to the file
    providers = {m.provider for m in config.models + config.planning_models()}
    assert providers <= {"oracle", "scripted"}
    for path in (config.qa.questions, config.qa.scene_graph, config.planning.data_dir,
                 *(m.script for m in config.planning_models())):
        assert Path(path).is_absolute() and Path(path).exists(), path


def test_prefect_toml_points_the_cli_at_the_local_server() -> None:
    settings = tomllib.loads((ROOT / "prefect.toml").read_text())
    assert settings["api"]["url"] == "http://127.0.0.1:4200/api"


# --- the whole path ---------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _marked_pids(marker: str) -> list[int]:
    """Live processes carrying the test's marker, wherever their process group is (Prefect starts
    flow runs in sessions of their own)."""
    needle = f"{MARKER}={marker}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    pids.append(int(entry.name))
            except OSError:
                continue  # gone, or a zombie
    return pids


def _stop(process: subprocess.Popen, grace: float = 10.0) -> None:
    """SIGTERM the process group, then SIGKILL it if anything in it is still alive after
    `grace` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        process.poll()
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def _log_tail(path: Path, lines: int = 40) -> str:
    text = path.read_text(errors="replace") if path.exists() else ""
    return f"--- {path.name} ---\n" + "\n".join(text.splitlines()[-lines:])


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_server_deploy_worker_run_smoke(tmp_path: Path) -> None:
    port = _free_port()
    marker = uuid.uuid4().hex
    out = tmp_path / "out"
    # Inherited PREFECT_* settings (a profile, a storage path, another API) must not leak in.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update({
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
        "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_WORKER_QUERY_SECONDS": "1",  # default 10 s between polls for new runs
        "COLUMNS": "400",   # the CLI's JSON output is wrapped at the terminal's width
        MARKER: marker,
    })
    logs = {name: tmp_path / f"{name}.log" for name in ("server", "deploy", "worker", "run")}
    started: dict[str, subprocess.Popen] = {}

    def start(name: str, *args: str) -> None:
        with logs[name].open("wb") as log:
            started[name] = subprocess.Popen(
                [str(SCRIPT), *args], cwd=ROOT, env=env, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )

    def cli(name: str, *args: str, timeout: float = 60) -> str:
        done = subprocess.run([str(SCRIPT), *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=timeout, start_new_session=True)
        logs[name].write_text(done.stdout + done.stderr)
        assert done.returncode == 0, "\n".join(_log_tail(p) for p in logs.values())
        return done.stdout

    # The waits poll the API over HTTP (a `prefect` command each second would cost a Prefect
    # import, 1.5 s of CPU, every time, beside the flow run it waits for); what they wait for is
    # then read once with the Prefect CLI, as a person would.
    def api(path: str, body: dict | None = None) -> object:
        request = urllib.request.Request(
            env["PREFECT_API_URL"] + path, method="GET" if body is None else "POST",
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"})
        with _NO_PROXY.open(request, timeout=30) as response:
            return json.load(response)

    def wait_for_completion(flow_run_id: str, run_count: int) -> dict:
        deadline = time.monotonic() + 120
        while True:
            flow_run = api(f"/flow_runs/{flow_run_id}")
            state = flow_run["state"]["type"]
            if state == "COMPLETED" and flow_run["run_count"] >= run_count:
                break
            assert state not in ("FAILED", "CRASHED", "CANCELLED"), (
                f"flow run {state}\n" + _log_tail(logs["worker"], 80))
            assert time.monotonic() < deadline, (
                f"flow run still {state} after 120 s\n" + _log_tail(logs["worker"], 80))
            time.sleep(0.5)
        flow_run = json.loads(prefect("flow-run", "inspect", flow_run_id, "-o", "json"))
        assert flow_run["state"]["type"] == "COMPLETED" and flow_run["run_count"] >= run_count
        return flow_run

    def scheduled_starts(deployment_id: str) -> list[dt.datetime]:
        deadline = time.monotonic() + 60
        scheduled = {"flow_runs": {"state": {"type": {"any_": ["SCHEDULED"]}}},
                     "deployments": {"id": {"any_": [deployment_id]}}}
        while not api("/flow_runs/filter", scheduled) and time.monotonic() < deadline:
            time.sleep(0.5)
        runs = json.loads(prefect("flow-run", "ls", "--state-type", "SCHEDULED", "-o", "json"))
        return [dt.datetime.fromisoformat(run["expected_start_time"]) for run in runs
                if run["deployment_id"] == deployment_id]

    def prefect(*args: str) -> str:
        # 180 s: one Prefect CLI start took over 60 s on two cores shared with another
        # session's harness and a benchmark.
        done = subprocess.run([PREFECT, *args], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    try:
        start("server", "server")
        cli("deploy", "deploy", timeout=180)  # waits for the API, creates the pool, deploys all

        nightly = json.loads(prefect("deployment", "inspect", "nlp-dsg-benchmark/nightly",
                                     "-o", "json"))
        [schedule] = nightly["schedules"]
        assert schedule["schedule"]["cron"] == "0 2 * * *"
        assert schedule["schedule"]["timezone"] == "Europe/Berlin"
        assert schedule["active"]
        directory = nightly["pull_steps"][0]["prefect.deployments.steps.set_working_directory"]
        assert Path(directory["directory"]) == ROOT

        start("worker", "worker")
        config = _config("smoke")
        config.update(run_id="deploy-test", results_dir=str(out / "results"),
                      cache_dir=str(out / "cache"))
        config["qa"]["db_root"] = str(out / "cache" / "graphs")
        storage = {"PREFECT_LOCAL_STORAGE_PATH": str(out / "cache" / "prefect-results")}
        stdout = cli("run", "run", "smoke", "--params", json.dumps({"config": config}),
                     "--job-variable", f"env={json.dumps(storage)}")
        flow_run_id = next(line.split("UUID:")[1].strip()
                           for line in stdout.splitlines() if "UUID:" in line)

        wait_for_completion(flow_run_id, run_count=1)
        run_dir = out / "results" / "deploy-test"
        with (run_dir / "qa_results.csv").open() as handle:
            rows = list(csv.DictReader(handle))
        questions = yaml.safe_load((ROOT / config["qa"]["questions"]).read_text())["questions"]
        assert {row["uid"] for row in rows} == {q["uid"] for q in questions}
        assert (run_dir / "plan_overview.csv").is_file()
        assert not (ROOT / "results" / "deploy-test").exists()

        # The documented way to re-run a flow run: the worker picks it up again.
        (run_dir / "qa_results.csv").unlink()
        prefect("flow-run", "retry", flow_run_id)
        wait_for_completion(flow_run_id, run_count=2)
        assert (run_dir / "qa_results.csv").is_file()

        # The server's scheduler has created the next nightly runs (its loop for new deployments
        # runs every few seconds): 02:00 in Berlin, whatever the season.
        assert {start.astimezone(ZoneInfo("Europe/Berlin")).time()
                for start in scheduled_starts(nightly["id"])} == {dt.time(2)}

        # A run whose machine died stays Running and `retry` refuses it: the deploy step created
        # the automation that marks such runs Crashed, and `mark-crashed` does it by hand.
        [automation] = json.loads(prefect("automation", "inspect",
                                          "mark-silent-flow-runs-crashed", "--json"))
        assert automation["trigger"]["posture"] == "Proactive"
        assert automation["actions"] == [{**automation["actions"][0], "type":
                                          "change-flow-run-state", "state": "CRASHED"}]
        # (`inspect` exits 0 once it exists: deploying again skips `automation create`.)
        _stop(started.pop("worker"), 5.0)   # nobody picks the next run up: it "dies" Running
        stdout = cli("run", "run", "smoke", "--params", json.dumps({"config": config}))
        stuck = next(line.split("UUID:")[1].strip()
                     for line in stdout.splitlines() if "UUID:" in line)
        set_running = ("import sys; from prefect import get_client; "
                       "from prefect.states import Running\n"
                       "with get_client(sync_client=True) as c: "
                       "c.set_flow_run_state(sys.argv[1], Running(), force=True)")
        subprocess.run([sys.executable, "-c", set_running, stuck], cwd=ROOT, env=env,
                       check=True, timeout=60)
        refused = subprocess.run([PREFECT, "flow-run", "retry", stuck], cwd=ROOT, env=env,
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0 and "RUNNING" in refused.stdout + refused.stderr
        marked = subprocess.run([str(Path(sys.executable).parent / "nlp-dsg-benchmark"),
                                 "mark-crashed", stuck], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert marked.returncode == 0 and "CRASHED" in marked.stdout, marked.stderr
        prefect("flow-run", "retry", stuck)
        state = json.loads(prefect("flow-run", "inspect", stuck, "-o", "json"))["state"]["type"]
        assert state == "SCHEDULED"
    finally:
        # Worker first, so it takes no new run while the server goes down. Prefect's worker turns
        # the first SIGTERM into "finish the current runs" and may linger: SIGKILL after 5 s.
        for name, grace in (("worker", 5.0), ("server", 15.0)):
            if name in started:
                _stop(started[name], grace)
        for pid in _marked_pids(marker):  # e.g. a flow-run process in a session of its own
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    assert _marked_pids(marker) == []
    assert not _listening(port)
