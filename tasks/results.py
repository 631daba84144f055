"""Writing the results tables as a task (so the run graph shows it as a stage)."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from dsgqa.results import ItemResult, QATrackSummary, summarize_qa_run


@task(name="results-table", persist_result=False)
def write_qa_results(
    items: list[ItemResult], out_dir: Path, llm_calls: dict[str, int]
) -> QATrackSummary:
    return summarize_qa_run(items, out_dir, llm_calls)
