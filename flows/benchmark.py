"""The `nlp-dsg-benchmark` flow: one benchmark run over the configured tracks.

Both tracks' stages are submitted before either is awaited, so they run side by side: the
planning branch starts first (it needs no database) and never waits for the QA branch.

A rerun of a run that finished cleanly, with nothing changed since (inputs, code, caches, its
files), reuses it as it is (`reuse-finished-run`, benchcore.finished_runs): same tables, same
artifacts, no stage runs.

The run holds its folder's lock from start to end (benchcore.run_lock): a second run of the
same run id at the same time refuses instead of paying for every call again; and a run id that
names a run of another configuration is refused before anything is written
(`record-run-config`).

With `task_runner: dask` the stages run on a Dask cluster however the flow was started
(`flows.cluster`): the CLI builds the flow on Dask, a deployment run hands the run to a
subflow on Dask.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prefect import flow
from prefect.runtime import flow_run
from prefect.utilities.annotations import quote

from benchcore import finished_runs
from benchcore.llm.http_pool import close_idle_connections
from benchcore.run_config import BenchmarkConfig, resolve_config
from benchcore.run_folder import REPORT_DIR
from benchcore.run_lock import run_folder_lock
from benchcore.run_summary import RunSummary, check_error_budget
from benchcore.track_summary import TrackSummary
from dsgqa.code_sandbox import refuse_unsandboxed
from flows._artifacts import publish_headline, publish_run
from flows.cluster import for_cluster, on_dask, release_worker_resources, run_on_cluster
from flows.planning_track import finish_planning, submit_planning
from flows.qa_track import finish_qa, submit_qa
from reporting.report import headline_markdown, headline_records
from tasks.report import report, store_results
from tasks.run import record_run_config, remember_finished_run, reuse_finished_run

FIGURES_DIR = "figures"   # in the cache folder: the report's figures, by what they show


@flow(name="nlp-dsg-benchmark")
def nlp_dsg_benchmark(
    config: BenchmarkConfig | None = None, config_file: str | None = None
) -> RunSummary:
    config = resolve_config(config, config_file)
    run_id = config.resolved_run_id(flow_run.scheduled_start_time, flow_run.id)
    if config.task_runner == "dask" and not on_dask():
        # Started as deployed (a deployment run), on threads: the stages go to the cluster.
        return run_on_cluster(nlp_dsg_benchmark, config, run_id)
    if on_dask():
        config = for_cluster(config, run_id)
    run_dir = Path(config.results_dir) / run_id
    try:
        with run_folder_lock(run_dir):
            return _run(config, run_id, run_dir)
    finally:
        release_worker_resources()


def _run(config: BenchmarkConfig, run_id: str, run_dir: Path) -> RunSummary:
    if config.qa is not None and config.runs_track("qa"):
        refuse_unsandboxed(config.qa)   # before anything is written or paid for
    record_run_config(config, run_id, run_dir)
    start = reuse_finished_run(config, run_id, run_dir)
    if start.reused is not None:
        publish_run(start.reused)
        return start.reused
    planning_pending = submit_planning(config) if config.runs_track("planning") else None
    qa_pending = submit_qa(config) if config.runs_track("qa") else None
    failures: list[Exception] = []
    try:
        planning = _finished(failures, finish_planning, planning_pending, config, run_dir) \
            if planning_pending else None
        qa = _finished(failures, finish_qa, qa_pending, run_dir) if qa_pending else None
    finally:
        close_idle_connections()   # a long-lived process must not keep every run's sockets
    if failures:
        _raise_first(failures)
    summary = RunSummary(run_id=run_id, run_dir=str(run_dir), qa=qa, planning=planning)
    store_seen = None
    store_root = finished_runs.store_root(config)   # None when the run is not recorded
    if store_root is not None:
        store_results(run_dir, store_root)
        # The runs the report compares this one with, before it reads them.
        store_seen = finished_runs.store_listing(store_root)
        result = report(store_root, run_id, run_dir / REPORT_DIR,
                        Path(config.cache_dir) / FIGURES_DIR)
        summary = summary.with_report(result, headline_markdown(result),
                                      headline_records(result))
        publish_headline(summary)
    check_error_budget(summary, config.max_error_fraction)
    remember_finished_run(config, run_id, run_dir, quote(summary), start.digest, store_seen)
    return summary


def _finished(failures: list[Exception], finish: Callable[..., TrackSummary],
              *args: object) -> TrackSummary | None:
    """A track's tables, written whatever happened to the other track: a failure is kept
    for the end of the run (the flow still fails with it), so a planning stage that raised
    never costs the QA track its written tables, nor the other way round."""
    try:
        return finish(*args)
    except Exception as error:   # raised again at the end of the run
        failures.append(error)
        return None


def _raise_first(failures: list[Exception]) -> None:
    """The first track's failure, with the other's named in a note."""
    first, *others = failures
    for other in others:
        first.add_note(f"the other track failed too: {type(other).__name__}: {other}")
    raise first
