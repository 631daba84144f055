"""The run's Prefect artifacts, made from its summaries: the same for a run that computed its
tables and for one reused as it finished (benchcore.finished_runs)."""

from __future__ import annotations

from prefect.artifacts import create_markdown_artifact, create_table_artifact

from benchcore.run_summary import RunSummary
from benchcore.track_summary import TrackSummary


def publish_qa(summary: TrackSummary) -> None:
    create_table_artifact(
        table=summary.overall_records, key="qa-summary",
        description=f"QA accuracy per model ({summary.units} questions)",
    )
    create_markdown_artifact(markdown=summary.markdown, key="qa-results",
                             description=f"QA results table: {summary.paths['markdown']}")


def publish_planning(summary: TrackSummary) -> None:
    create_table_artifact(table=summary.overall_records, key="planning-overview",
                          description="Planning overview per experiment")
    create_markdown_artifact(markdown=summary.markdown, key="planning-results",
                             description=f"Planning tables: {summary.paths['markdown']}")


def publish_headline(summary: RunSummary) -> None:
    if summary.headline_markdown is None:
        return
    create_markdown_artifact(markdown=summary.headline_markdown, key="run-summary",
                             description=f"Headline numbers of run {summary.run_id}")
    create_table_artifact(table=summary.headline_records, key="run-headline",
                          description=f"Per-model headline of run {summary.run_id}")


def publish_run(summary: RunSummary) -> None:
    """Every artifact of a run, from its summary alone."""
    if summary.planning is not None:
        publish_planning(summary.planning)
    if summary.qa is not None:
        publish_qa(summary.qa)
    publish_headline(summary)
