"""The planning track in chunks: with `planning.chunk_size` each model's generate-plan and the
planner baseline run as a task per chunk of instances (so a cluster spreads them over its
workers), and the tables are the ones a run in one batch writes, from the same item cache."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, PlanningConfig, run_identity
from plangen.batches import shared_planning_tasks
from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")

PLANNING = PROJECT_ROOT / "questions/planning"


def _config(tmp_path: Path, run_id: str, chunk_size: int | None) -> BenchmarkConfig:
    return BenchmarkConfig(
        run_id=run_id, tracks=["planning"], report=False,
        results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="reference", provider="scripted",
                            script=str(PLANNING / "scripted_replies.yaml"))],
        planning=PlanningConfig(data_dir=str(PLANNING), chunk_size=chunk_size))


def _task_run_names(flow_run_id: object, expected: int) -> set[str]:
    """The flow run's task run names; the server records them asynchronously, so poll until
    `expected` are there."""
    import time

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    names: set[str] = set()
    with get_client(sync_client=True) as client:
        for _ in range(50):
            names = {r.name for r in client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])),
                limit=200)}
            if len(names) >= expected:
                break
            time.sleep(0.1)
    return names


def test_chunked_planning_gives_the_tables_of_one_batch(tmp_path: Path) -> None:
    from flows.benchmark import nlp_dsg_benchmark

    whole_config = _config(tmp_path, "whole", None)
    chunked_state = nlp_dsg_benchmark(_config(tmp_path, "chunked", 2), return_state=True)
    chunked_state.result()
    whole = nlp_dsg_benchmark(whole_config)
    assert whole.llm_calls()["fresh"] == 0   # every plan from the chunks' cache entries
    for table in ("plan_evaluation.csv", "plan_overview.csv"):
        a, b = (pd.read_csv(tmp_path / "results" / run / table)
                .drop(columns=["seconds"], errors="ignore") for run in ("chunked", "whole"))
        assert len(a) > 0
        pd.testing.assert_frame_equal(a, b)
    assert whole_config.planning is not None
    count = math.ceil(len(shared_planning_tasks(whole_config.planning)) / 2)
    assert count > 1
    names = _task_run_names(chunked_state.state_details.flow_run_id, 2 * count)
    assert {n for n in names if n.startswith("generate-plan[")} == \
        {f"generate-plan[reference] {i}/{count}" for i in range(1, count + 1)}
    assert {n for n in names if n.startswith("planner-plan")} == \
        {f"planner-plan {i}/{count}" for i in range(1, count + 1)}


def test_the_chunk_size_is_not_part_of_what_a_run_is() -> None:
    a = _config(Path("/tmp"), "a", None)
    assert run_identity(a) == run_identity(_config(Path("/tmp"), "a", 3))
