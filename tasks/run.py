"""Run-level bookkeeping as tasks: the run's configuration, and reusing a finished run that
nothing has changed since (benchcore.finished_runs)."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from benchcore import finished_runs
from benchcore.run_config import BenchmarkConfig, save_run_config
from benchcore.run_summary import RunSummary


@task(name="record-run-config", persist_result=False)
def record_run_config(config: BenchmarkConfig, run_id: str, run_dir: Path) -> Path:
    return save_run_config(config, run_id, run_dir)


@task(name="reuse-finished-run", persist_result=False)
def reuse_finished_run(config: BenchmarkConfig, run_id: str, run_dir: Path
                       ) -> finished_runs.RunStart:
    """The run's summary when it finished cleanly and its inputs, code, caches and outputs are
    unchanged since (else none, and its old record is forgotten); and the digest of what this
    run starts from."""
    return finished_runs.reuse(config, run_id, run_dir)


@task(name="remember-finished-run", persist_result=False)
def remember_finished_run(config: BenchmarkConfig, run_id: str, run_dir: Path,
                          summary: RunSummary, digest: str,
                          store_seen: finished_runs.FileStamps | None) -> bool:
    """Record a run that finished with no errored or unsettled item, for its reruns to reuse."""
    return finished_runs.remember(config, run_id, run_dir, summary, digest, store_seen)
