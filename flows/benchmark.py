"""The `nlp-dsg-benchmark` flow: one benchmark run over the configured tracks."""

from __future__ import annotations

from pathlib import Path

from prefect import flow

from dsgqa.config import BenchmarkConfig
from dsgqa.run_summary import RunSummary, check_error_budget
from flows.qa_track import qa_track


@flow(name="nlp-dsg-benchmark")
def nlp_dsg_benchmark(config: BenchmarkConfig) -> RunSummary:
    run_id = config.resolved_run_id()
    run_dir = Path(config.results_dir) / run_id
    qa = qa_track(config, str(run_dir)) if config.qa else None
    summary = RunSummary(run_id=run_id, run_dir=str(run_dir), qa=qa)
    check_error_budget(summary, config.max_error_fraction)
    return summary
