"""The benchmark flow on a Dask cluster (`task_runner: dask`), however it was started.

The CLI builds the flow with a Dask task runner; a deployment run (`prefect deployment run
nlp-dsg-benchmark/<name>`) starts the flow as deployed, on threads, and only its config says
Dask. `run_on_cluster` then runs the benchmark as a subflow on the cluster, with the run id
fixed and every path absolute (`with_absolute_paths`), so the deployment honours the config
exactly as the CLI does.

At the end of a run on a cluster every worker closes the graph databases it opened (their
query worker processes): a long-lived worker would otherwise keep one more set of children
per run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect.context import FlowRunContext

from benchcore.dask_scheduler import check_reachable
from benchcore.run_config import BenchmarkConfig, with_absolute_paths


def dask_task_runner(config: BenchmarkConfig) -> Any:
    """A Dask task runner for the config: its scheduler (checked to answer first), or a local
    cluster."""
    from prefect_dask import DaskTaskRunner

    if not config.dask_address:
        return DaskTaskRunner()
    check_reachable(config.dask_address)
    return DaskTaskRunner(address=config.dask_address)


def _current_runner() -> Any:
    context = FlowRunContext.get()
    return context.task_runner if context is not None else None


def on_dask() -> bool:
    """Whether this flow run's tasks go to a Dask cluster."""
    runner = _current_runner()
    return runner is not None and type(runner).__name__ == "DaskTaskRunner"


def for_cluster(config: BenchmarkConfig, run_id: str) -> BenchmarkConfig:
    """The config a cluster's workers get: this run's id, and every path absolute against the
    directory the run is submitted from (a worker's own working directory is another)."""
    return with_absolute_paths(config, Path.cwd()).model_copy(update={"run_id": run_id})


def run_on_cluster(flow: Any, config: BenchmarkConfig, run_id: str) -> Any:
    """Run `flow` (the benchmark flow) as a subflow whose tasks go to the config's cluster."""
    return flow.with_options(task_runner=dask_task_runner(config))(
        config=for_cluster(config, run_id))


def release_worker_resources() -> None:
    """On a Dask cluster: every worker closes the graph stores it opened (their query worker
    processes). Never fails the run: the tables are written by now."""
    runner = _current_runner()
    if not on_dask():
        return
    from dsgqa.graph_handle import close_shared_graphs

    try:
        runner.client.run(close_shared_graphs)
    except Exception as error:   # a worker gone since: its children went with it
        from prefect.logging import get_run_logger

        get_run_logger().warning("could not close the workers' graph stores: %s", error)
