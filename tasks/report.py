"""End-of-run reporting as tasks: record the run in the results store, build the report."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from benchcore import progress
from reporting.report import ReportResult, build_report
from reporting.store import record_run


@task(name="store-results", persist_result=False)
def store_results(run_dir: Path, store_root: Path) -> int:
    with progress.step("store-results"):
        return record_run(run_dir, store_root)


@task(name="build-report", persist_result=False)
def report(store_root: Path, run_id: str, out_dir: Path,
           figure_cache: Path | None = None) -> ReportResult:
    """This run against the previous run of the same kind (the previous nightly); figures
    drawn before from the same data are read from `figure_cache`."""
    with progress.step("build-report"):
        return build_report(store_root, out_dir, runs=[run_id], figure_cache=figure_cache)
