"""Same inputs, same run: the question set run twice, each time in a fresh process with
caches of its own, sends the model the very same prompts and gets the very same verdicts and
rows. An engine's order for a query without ORDER BY changes between executions; the rows
reach the refine prompt, its cache keys and the results table in one canonical order."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, QAConfig
from tests.fake_model import DEMO_GRAPH, ReferenceModel, demo_subset, serve
from tests.flow_process import start_flow_process

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")


def _config(tmp_path: Path, questions: Path, base_url: str, run_id: str) -> BenchmarkConfig:
    model = ModelConfig(name="fake-gpt", base_url=base_url, api_key_env="NO_KEY_NEEDED",
                        max_retries=5, timeout_s=10, max_connections=4)
    return BenchmarkConfig(
        run_id=run_id, results_dir=str(tmp_path / "results"),
        cache_dir=str(tmp_path / f"cache-{run_id}"), models=[model], report=False,
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / f"graphs-{run_id}")),
    )


def _prompt_hash(request: dict) -> str:
    return hashlib.sha256(json.dumps(request["messages"], sort_keys=True).encode()).hexdigest()


def test_the_same_set_twice_in_fresh_processes_asks_and_scores_the_same(tmp_path: Path) -> None:
    questions, known = demo_subset(tmp_path)
    prompts: dict[str, list[str]] = {}
    with serve(ReferenceModel(known)) as server:
        for run_id in ("first", "second"):
            before = len(server.requests)
            process = start_flow_process(_config(tmp_path, questions, server.base_url, run_id),
                                         tmp_path)
            assert process.wait(timeout=600) == 0
            prompts[run_id] = sorted(_prompt_hash(r) for r in server.requests[before:])
    # every call fresh both times (caches of their own), and every prompt equal
    assert len(prompts["first"]) == 2 * len(known)
    assert prompts["first"] == prompts["second"]
    first, second = (pd.read_csv(tmp_path / "results" / run_id / "qa_results.csv",
                                 keep_default_na=False).drop(columns=["seconds"])
                     .sort_values("uid").reset_index(drop=True)
                     for run_id in ("first", "second"))
    pd.testing.assert_frame_equal(first, second)            # verdicts, answers, rows, all
    assert first["correct"].all()
    assert (first["n_rows"] > 1).sum() >= 5                 # several multi-row results compared
