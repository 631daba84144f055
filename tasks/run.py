"""Run-level bookkeeping as tasks."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from benchcore.run_config import BenchmarkConfig, save_run_config


@task(name="record-run-config", persist_result=False)
def record_run_config(config: BenchmarkConfig, run_id: str, run_dir: Path) -> Path:
    return save_run_config(config, run_id, run_dir)
