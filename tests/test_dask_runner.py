"""Scale-out: the benchmark flow on a Dask cluster (a LocalCluster of worker processes).

Stage tasks get only configs and records (they pickle); each Dask worker opens its own
read-only graph handle and LLM client.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from benchcore.llm.base import ModelConfig
from benchcore.run_config import BenchmarkConfig, PlanningConfig, QAConfig
from tests.conftest import PROJECT_ROOT
from tests.fake_model import DEMO_GRAPH, demo_subset

pytestmark = pytest.mark.usefixtures("prefect_harness", "prefect_storage")


def test_benchmark_runs_on_a_dask_local_cluster(tmp_path: Path, monkeypatch) -> None:
    from distributed import LocalCluster
    from prefect.settings import PREFECT_API_URL
    from prefect_dask import DaskTaskRunner

    from flows.benchmark import nlp_dsg_benchmark

    # Worker processes must report to the same (test) API as this process.
    monkeypatch.setenv("PREFECT_API_URL", PREFECT_API_URL.value())
    questions, _ = demo_subset(tmp_path, {"apt01", "apt04", "apt05", "apt12"})
    planning_data = PROJECT_ROOT / "questions/planning"
    config = BenchmarkConfig(
        run_id="dask", results_dir=str(tmp_path / "results"), cache_dir=str(tmp_path / "cache"),
        models=[ModelConfig(name="reference-cypher", provider="oracle")],
        qa=QAConfig(questions=str(questions), scene_graph=str(DEMO_GRAPH),
                    db_root=str(tmp_path / "graphs")),
        planning=PlanningConfig(data_dir=str(planning_data), domains=["gripper"],
                                planner_baseline=True, models=[ModelConfig(
                                    name="replies", provider="scripted",
                                    script=str(planning_data / "scripted_replies.yaml"))]),
        task_runner="dask",
    )
    with LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                      dashboard_address=None) as cluster:
        flow = nlp_dsg_benchmark.with_options(
            task_runner=DaskTaskRunner(address=cluster.scheduler_address)
        )
        summary = flow(config)
        with cluster.get_client() as client:
            worker_pids = set(client.run(lambda: __import__("os").getpid()).values())
        ran_on_cluster = set(cluster.scheduler.task_prefixes)
    assert {"generate_cypher", "run_query", "refine", "compare", "generate_plans",
            "planner_plans"} <= ran_on_cluster
    rows = pd.read_csv(summary.qa.paths["rows_csv"])
    wrong = rows.loc[~rows["correct"].astype(bool)]
    assert len(rows) == 4 and wrong.empty, wrong.T.to_string()
    overall = pd.read_csv(summary.planning.paths["overall_csv"]).set_index("model")
    assert overall.loc["planner:greedy", "n_solved_successfully"] == 3
    assert overall.loc["scripted:replies", "n_instances"] == 3
    assert len(worker_pids) == 2 and __import__("os").getpid() not in worker_pids


def _limit_kind_on_worker(max_connections: int) -> tuple[str, int]:
    """Runs on a Dask worker: which limit guards the model, and can it be held and released."""
    from benchcore.llm.base import ModelConfig
    from benchcore.llm.openai_chat import _connection_limit

    limit = _connection_limit(ModelConfig(name="m", base_url="http://x/v1",
                                          max_connections=max_connections))
    with limit:
        pass
    return type(limit).__name__, getattr(limit, "max_leases", 0)


def test_max_connections_is_one_limit_for_the_whole_dask_cluster() -> None:
    from distributed import LocalCluster

    from benchcore.llm.base import ModelConfig
    from benchcore.llm.openai_chat import _connection_limit

    local = _connection_limit(ModelConfig(name="m2", base_url="http://x/v1", max_connections=3))
    assert type(local).__name__ == "BoundedSemaphore"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, cluster.get_client() as client:
        kinds = client.gather([client.submit(_limit_kind_on_worker, 3, pure=False)
                               for _ in range(4)])
    assert set(kinds) == {("Semaphore", 3)}
