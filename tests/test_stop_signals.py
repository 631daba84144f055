"""SIGINT and SIGTERM during an LLM stage: no item starts after the signal, the calls in flight
finish within the grace period, one line, exit 130 / 143; the rerun makes only the missing
calls. Real parts: the CLI in a subprocess, the loopback fake OpenAI server (1 s a reply), the
session's Prefect API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nlp_dsg_benchmark.interrupts import GRACE_S
from tests.fake_model import DEMO_GRAPH, ReferenceModel, demo_subset, serve

ROOT = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).parent / "nlp-dsg-benchmark"


class Timed(ReferenceModel):
    """Records when each request arrived."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.arrived: list[float] = []

    def __call__(self, request: dict, n: int):
        self.arrived.append(time.monotonic())
        return super().__call__(request, n)


@pytest.mark.slow
@pytest.mark.usefixtures("prefect_harness")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_signal_ends_the_run_at_once_and_the_rerun_makes_only_missing_calls(
    tmp_path: Path, sig: signal.Signals,
) -> None:
    from prefect.settings import PREFECT_API_URL

    path, questions = demo_subset(tmp_path)
    model = Timed(questions, latency_s=1.0)
    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value(), "PYTHONPATH": str(ROOT),
           "NO_KEY": ""}
    with serve(model) as server:
        command = [str(CLI), "run", "--questions", str(path), "--scene-graph", str(DEMO_GRAPH),
                   "--model", "m", "--base-url", server.base_url, "--api-key-env", "NO_KEY",
                   "--run-id", "stopped"]
        run = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 180
        while len(model.arrived) < 4 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        sent = time.monotonic()
        run.send_signal(sig)
        out, err = run.communicate(timeout=60)
        took = time.monotonic() - sent
        assert run.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], err[-2000:]
        assert took < GRACE_S + 3
        late = [t - sent for t in model.arrived if t > sent + 0.3]
        assert late == []                                  # nothing started after the signal
        assert err.strip().splitlines()[-1].startswith(f"nlp-dsg-benchmark: {sig.name}: stopping")
        assert "Traceback" not in err + out
        if sig is not signal.SIGINT:
            return
        answered, before = sum(model.answered.values()), len(model.arrived)
        model.latency_s = 0.0
        rerun = subprocess.run([str(CLI), "rerun", "stopped"], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=300)
        assert rerun.returncode == 0, rerun.stderr[-2000:]
    made = len(model.arrived) - before
    assert made == 2 * len(questions) - answered           # the missing calls, no more


@pytest.mark.parametrize("workers", [1, 4])
def test_after_a_stop_request_no_item_starts_and_none_is_cached(tmp_path: Path,
                                                                workers: int) -> None:
    from benchcore.batch import STOPPED, run_items
    from benchcore.item_cache import ItemCache
    from benchcore.stop_request import request_stop, reset

    started: list[int] = []

    def compute(item: int) -> int:
        started.append(item)
        if item == 2:
            request_stop()
        return item

    cache = ItemCache(tmp_path / "items", "stage")
    try:
        outcomes = run_items("stage", list(range(40)), str, str, compute, cache,
                             workers=workers)
    finally:
        reset()
    assert len(started) <= 2 + workers
    stopped = [o for o in outcomes if not o.ok]
    assert len(stopped) == 40 - len(started) and all(STOPPED in o.error for o in stopped)
    again = run_items("stage", list(range(40)), str, str, lambda i: i, cache, workers=workers)
    assert sum(o.from_cache for o in again) == len(started)
