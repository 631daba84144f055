"""What a track (QA or planning) reports back to the flow: where its tables are and the
headline numbers the run summary, the artifacts and the console need."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TrackSummary:
    paths: dict[str, str]
    units: int          # distinct questions (QA) or instances (planning)
    items: int          # units x models (the error budget's denominator)
    errors: int
    overall_records: list[dict[str, object]]
    markdown: str
    llm_calls: dict[str, int]
    # The most common causes of the errored items with their counts (benchcore.failure_causes).
    error_causes: list[tuple[str, int]] = field(default_factory=list)
    # Items not errored but not settled either (a query timed out under load): a rerun
    # computes them again, so a run with any is not reused as it finished.
    unsettled: int = 0
    # Warnings about how to read the numbers, one line each, printed once after the tables
    # (e.g. an agent whose server seems not to parse tool calls).
    notes: list[str] = field(default_factory=list)
